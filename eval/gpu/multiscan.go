package gpu

// multiscan on the GPU (arepl's extension, multireduce thesis §1.2): the
// inclusive scan of an associative operator within each label class. The
// first algorithm is the simple chunked one of kernels/multiscan.cu: ar_c
// chunks of consecutive elements, each walked sequentially by one thread
// keeping one accumulator per label in global state (label-major); a block
// per label scans that label's chunk aggregates; a second walk writes the
// results. Order is kept everywhere, so the operator need not commute. The
// state is k·ar_c accumulators, so the chunk count shrinks as k grows
// (multiscanChunks). When a thread's k accumulators fit in shared memory
// for the whole block (multiscanSmemBytes), the _aggs and _outs variants
// keep them there while walking the chunk and touch the global state only
// once per label at the start or end, instead of a global read-modify-write
// per element.

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

func (g *histGen) multiscan(s *core.Stmt, ms *core.MultiScan) (*histKernel, error) {
	k := &histKernel{Name: "k_multiscan", Kind: hkMultiScan, Stmt: s, Block: g.block, W: ms.W, Arrs: ms.Arrs,
		labels: ms.Labels, kAtom: ms.K}
	if err := k.inputs("multiscan"); err != nil {
		return nil, err
	}
	if ms.Labels.Type.Rank != 1 || !ms.Labels.Type.Elem.IsInt() {
		return nil, fmt.Errorf("internal error: multiscan labels of type %v", ms.Labels.Type)
	}
	if ms.Op == nil || len(ms.Op.Lambda.Params) != 2*len(ms.Op.Neutral) || len(ms.Op.Neutral) != len(ms.Arrs) {
		return nil, fmt.Errorf("internal error: multiscan operator does not match its %d arrays", len(ms.Arrs))
	}
	k.params = []hParam{{kind: hpN}, {kind: hpK}, {kind: hpChunk}, {kind: hpC}}
	if err := g.env(k, []*core.Lambda{nil, ms.Op.Lambda}, nil, ms.Op.Neutral); err != nil {
		return nil, err
	}
	k.params = append(k.params, hParam{kind: hpLabels, t: ms.Labels.Type.Elem})
	for j, t := range k.In {
		k.params = append(k.params, hParam{kind: hpIn, k: j, t: t})
	}
	for j, ne := range ms.Op.Neutral {
		t := ne.AtomType()
		if t.IsArray() {
			return nil, unsup("a multiscan of arrays is not generated yet")
		}
		if t.Elem != k.In[j] {
			return nil, fmt.Errorf("internal error: multiscan of %v values with a %v neutral element", k.In[j], t.Elem)
		}
		c, err := atom(ne)
		if err != nil {
			return nil, err
		}
		k.scanTs = append(k.scanTs, t.Elem)
		k.scanNe = append(k.scanNe, c)
	}
	for j, t := range k.scanTs {
		k.params = append(k.params, hParam{kind: hpState, k: j, t: t})
	}
	for j, t := range k.scanTs {
		k.params = append(k.params, hParam{kind: hpRes, k: j, t: t})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s: %s at %v\n", k.Name, expName(ms), s.Pos)
	k.scanFn = k.Name + "_op"
	if err := g.opFun(&b, k, k.scanFn, ms.Op.Lambda); err != nil {
		return nil, err
	}
	g.sg.sites = append(g.sg.sites, errSite{Pos: s.Pos, Msg: "multiscan label out of bounds for the number of classes"})
	k.labelSite = len(g.sg.sites)
	k.checks = true
	kk, err := g.finish(&b, k)
	if kk != nil {
		kk.checks = true
	}
	return kk, err
}

// StoreNeutral sets the state at place of the arrays st<j> (ar_st: the
// global state, ar_ss: the shared one) to the neutral element.
func (k *histKernel) StoreNeutral(st, place string) string {
	var b strings.Builder
	for j, ne := range k.scanNe {
		fmt.Fprintf(&b, "    %s%d[%s] = %s;\n", st, j, place, ne)
	}
	return b.String()
}

// Step combines element ar_i into its label's accumulator of this chunk;
// out also writes the accumulator as the element's result. smem: the
// accumulators are the thread's column of the shared state (ar_ss).
func (k *histKernel) Step(out, smem bool) string {
	var b strings.Builder
	b.WriteString("    const i64 ar_l = (i64)ar_lab[ar_i];\n")
	fmt.Fprintf(&b, "    if (ar_l < 0 || ar_l >= ar_k) {\n      ar_fail(ar_err, %d);\n      return;\n    }\n", k.labelSite)
	st := "ar_st"
	if smem {
		fmt.Fprintf(&b, "    const i64 ar_s = ar_l * %d + threadIdx.x;\n", k.Block)
		st = "ar_ss"
	} else {
		b.WriteString("    const i64 ar_s = ar_l * ar_c + ar_c0;\n")
	}
	var as, xs []string
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "    %s ar_a%d = %s%d[ar_s];\n", ctype(t), j, st, j)
		as = append(as, fmt.Sprintf("ar_a%d", j))
		xs = append(xs, fmt.Sprintf("ar_in%d[ar_i]", j))
	}
	fmt.Fprintf(&b, "    %s\n", k.callOp(k.scanFn, as, xs, as))
	for j := range k.scanTs {
		fmt.Fprintf(&b, "    %s%d[ar_s] = ar_a%d;\n", st, j, j)
		if out {
			fmt.Fprintf(&b, "    ar_res%d[ar_i] = ar_a%d;\n", j, j)
		}
	}
	return b.String()
}

// WarpStep is Step for the 32 elements ar_b + lane of a warp's chunk (a
// _agg or _out kernel): lanes with the same label (__match_any_sync) each
// fold, in lane order, the label's accumulator and the values of the lanes
// up to their own; the last of them writes the accumulator back. A label
// out of range raises the error flag and leaves its lane out, since a lane
// that returned would hang the warp's collectives.
func (k *histKernel) WarpStep(out bool) string {
	var b strings.Builder
	b.WriteString("    const i64 ar_i = ar_b + ar_lane;\n")
	b.WriteString("    i64 ar_l = ar_i < ar_hi ? (i64)ar_lab[ar_i] : (i64)-1;\n")
	fmt.Fprintf(&b, "    if (ar_i < ar_hi && (ar_l < 0 || ar_l >= ar_k)) {\n      ar_fail(ar_err, %d);\n      ar_l = -1;\n    }\n", k.labelSite)
	b.WriteString("    const bool ar_on = ar_l >= 0;\n")
	b.WriteString("    const unsigned int ar_m = __match_any_sync(0xffffffffu, ar_l);\n")
	b.WriteString("    const i64 ar_s = ar_l * ar_c + ar_c0;\n")
	var as, ys []string
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "    const %s ar_x%d = ar_on ? ar_in%d[ar_i] : %s;\n", ctype(t), j, j, k.scanNe[j])
		fmt.Fprintf(&b, "    %s ar_a%d = ar_on ? ar_st%d[ar_s] : %s;\n", ctype(t), j, j, k.scanNe[j])
		as = append(as, fmt.Sprintf("ar_a%d", j))
		ys = append(ys, fmt.Sprintf("ar_y%d", j))
	}
	b.WriteString("#pragma unroll\n    for (int ar_t = 0; ar_t < 32; ar_t++) {\n")
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "      const %s ar_y%d = ar_lane_value(ar_x%d, ar_t);\n", ctype(t), j, j)
	}
	fmt.Fprintf(&b, "      if (ar_t <= ar_lane && ((ar_m >> ar_t) & 1u)) %s\n    }\n", k.callOp(k.scanFn, as, ys, as))
	b.WriteString("    if (ar_on && ar_lane == 31 - __clz(ar_m)) {\n")
	for j := range k.scanTs {
		fmt.Fprintf(&b, "      ar_st%d[ar_s] = ar_a%d;\n", j, j)
	}
	b.WriteString("    }\n")
	if out {
		b.WriteString("    if (ar_on) {\n")
		for j := range k.scanTs {
			fmt.Fprintf(&b, "      ar_res%d[ar_i] = ar_a%d;\n", j, j)
		}
		b.WriteString("    }\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// SmemState carves the shared state out of dynamic shared memory: per
// component, ar_k rows of one accumulator per thread (so the lanes of a
// warp always use different banks).
func (k *histKernel) SmemState() string {
	var b strings.Builder
	b.WriteString("  extern __shared__ __align__(8) unsigned char ar_sh[];\n  i64 ar_off = 0;\n")
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "  %s *ar_ss%d = (%s *)(ar_sh + ar_off);\n", ctype(t), j, ctype(t))
		fmt.Fprintf(&b, "  ar_off = ar_align8(ar_off + ar_k * %d * (i64)sizeof(%s));\n", k.Block, ctype(t))
	}
	return b.String()
}

// MoveState copies the thread's accumulators of label ar_l between the
// shared and the global state (save: to global).
func (k *histKernel) MoveState(save bool) string {
	var b strings.Builder
	for j := range k.scanTs {
		g, sh := fmt.Sprintf("ar_st%d[ar_l * ar_c + ar_c0]", j), fmt.Sprintf("ar_ss%d[ar_l * %d + threadIdx.x]", j, k.Block)
		if save {
			fmt.Fprintf(&b, "    %s = %s;\n", g, sh)
		} else {
			fmt.Fprintf(&b, "    %s = %s;\n", sh, g)
		}
	}
	return b.String()
}

// multiscanSmemBytes is the shared memory of the _aggs and _outs kernels
// for k classes.
func (k *histKernel) multiscanSmemBytes(classes int64) int64 {
	var n int64
	for _, t := range k.scanTs {
		n = (n + classes*int64(k.Block)*int64(t.Size()) + 7) &^ 7
	}
	return n
}

// ScanShared declares the block scan's shared memory.
func (k *histKernel) ScanShared() string {
	var b strings.Builder
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "  __shared__ %s ar_sm%d[%d];\n", ctype(t), j, k.Block)
	}
	return b.String()
}

// BlockExclusive turns the chunk aggregates ar_st[ar_lo..ar_hi) of every
// thread into exclusive prefixes over the whole label: a sequential fold
// per thread, an inclusive Hillis–Steele scan of the thread totals (left
// operand always the earlier one), then a second sequential pass.
func (k *histKernel) BlockExclusive() string { return k.blockExclusive(false) }

// SegBlockExclusive is BlockExclusive for the segmented operator over the
// chunks' (flag, aggregate) pairs of the sort-based multiscan: (f, a) then
// (g, b) gives (f || g, g ? b : a ⊕ b). Each chunk's aggregate is replaced
// by its carry: what the elements before it contribute to its first
// segment.
func (k *histKernel) SegBlockExclusive() string { return k.blockExclusive(true) }

func (k *histKernel) blockExclusive(seg bool) string {
	var b strings.Builder
	vars := func(p string) []string {
		var vs []string
		for j := range k.scanTs {
			vs = append(vs, fmt.Sprintf("%s%d", p, j))
		}
		return vs
	}
	ts, ps, es, vs := vars("ar_t"), vars("ar_p"), vars("ar_e"), vars("ar_v")
	var st []string
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "  %s ar_t%d = %s;\n", ctype(t), j, k.scanNe[j])
		st = append(st, fmt.Sprintf("ar_st%d[ar_j]", j))
	}
	// fold renders acc = acc ⊕ x, in the segmented case restarting at x
	// when x's flag (xf) is set and recording that in accf (if named).
	fold := func(in string, acc []string, accf string, x []string, xf string) {
		if !seg {
			fmt.Fprintf(&b, "%s%s\n", in, k.callOp(k.scanFn, acc, x, acc))
			return
		}
		fmt.Fprintf(&b, "%sif (%s) {\n", in, xf)
		for j := range acc {
			fmt.Fprintf(&b, "%s  %s = %s;\n", in, acc[j], x[j])
		}
		if accf != "" {
			fmt.Fprintf(&b, "%s  %s = true;\n", in, accf)
		}
		fmt.Fprintf(&b, "%s} else %s\n", in, k.callOp(k.scanFn, acc, x, acc))
	}
	if seg {
		b.WriteString("  bool ar_tf = false;\n")
	}
	b.WriteString("  for (i64 ar_j = ar_lo; ar_j < ar_hi; ar_j++) {\n")
	fold("    ", ts, "ar_tf", st, "ar_flag[ar_j]")
	b.WriteString("  }\n")
	store := func(in string) {
		for j := range k.scanTs {
			fmt.Fprintf(&b, "%sar_sm%d[threadIdx.x] = ar_t%d;\n", in, j, j)
		}
		if seg {
			fmt.Fprintf(&b, "%sar_smf[threadIdx.x] = ar_tf;\n", in)
		}
	}
	store("  ")
	b.WriteString("  __syncthreads();\n")
	fmt.Fprintf(&b, "  for (int ar_d = 1; ar_d < %d; ar_d <<= 1) {\n", k.Block)
	b.WriteString("    if (threadIdx.x >= ar_d) {\n")
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "      const %s ar_p%d = ar_sm%d[threadIdx.x - ar_d];\n", ctype(t), j, j)
	}
	if seg {
		fmt.Fprintf(&b, "      if (!ar_tf) %s\n", k.callOp(k.scanFn, ps, ts, ts))
		b.WriteString("      ar_tf = ar_tf || ar_smf[threadIdx.x - ar_d];\n")
	} else {
		fmt.Fprintf(&b, "      %s\n", k.callOp(k.scanFn, ps, ts, ts))
	}
	b.WriteString("    }\n    __syncthreads();\n")
	store("    ")
	b.WriteString("    __syncthreads();\n  }\n")
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "  %s ar_e%d = threadIdx.x == 0 ? %s : ar_sm%d[threadIdx.x - 1];\n", ctype(t), j, k.scanNe[j], j)
	}
	b.WriteString("  for (i64 ar_j = ar_lo; ar_j < ar_hi; ar_j++) {\n")
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "    const %s ar_v%d = ar_st%d[ar_j];\n    ar_st%d[ar_j] = ar_e%d;\n", ctype(t), j, j, j, j)
	}
	fold("    ", es, "", vs, "ar_flag[ar_j]")
	b.WriteString("  }\n")
	return b.String()
}

// multiscanChunks is the number of chunks for n elements and k classes:
// up to 2^16 (enough threads to fill the GPU), at least 8 elements each,
// and no more state (k accumulators per chunk) than four per element or
// 2^20 in all, whichever is larger, so that many classes over few elements
// do not allocate k times the chunks.
func multiscanChunks(n, k int64) int64 {
	const maxChunks, minPer = 1 << 16, 8
	stateCap := max(4*n, 1<<20)
	c := min(int64(maxChunks), max(1, n/minPer))
	for c > 1 && k*c > stateCap {
		c /= 2
	}
	return c
}

// LabelSite is the code of the label range check.
func (k *histKernel) LabelSite() int { return k.labelSite }

// SegStart declares the state a warp carries through its chunk in the
// sort-based kernels: the key of the element before the batch (none before
// the first element), whether a segment started in the chunk, and the
// accumulator of the current segment (out: the chunk's carry, else the
// neutral element).
func (k *histKernel) SegStart(out bool) string {
	var b strings.Builder
	b.WriteString("  u32 ar_ck = ar_lo > 0 ? ar_skey[ar_lo - 1] : 0xffffffffu;\n  bool ar_f = false;\n")
	for j, t := range k.scanTs {
		init := k.scanNe[j]
		if out {
			init = fmt.Sprintf("ar_st%d[ar_c0]", j)
		}
		fmt.Fprintf(&b, "  %s ar_a%d = %s;\n", ctype(t), j, init)
	}
	return strings.TrimRight(b.String(), "\n")
}

// SegBatch renders one batch of 32 sorted elements ar_b + lane of a sorted
// chunk: gathers their values, marks segment heads (a key unlike the one
// before), scans the lanes with the segmented operator (the earlier operand
// on the left, so the operator need not commute), adds the carried
// accumulator where no head precedes, writes each result to its element's
// place (out), and carries the last element's key, result and head flag to
// the next batch.
func (k *histKernel) SegBatch(out bool) string {
	var b strings.Builder
	b.WriteString("    const i64 ar_i = ar_b + ar_lane;\n    const bool ar_ok = ar_i < ar_hi;\n")
	b.WriteString("    const u32 ar_key = ar_ok ? ar_skey[ar_i] : 0u;\n    const u32 ar_p = ar_ok ? ar_perm[ar_i] : 0u;\n")
	var vs, ys, as, rs []string
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "    %s ar_v%d = ar_ok ? ar_in%d[ar_p] : %s;\n", ctype(t), j, j, k.scanNe[j])
		vs = append(vs, fmt.Sprintf("ar_v%d", j))
		ys = append(ys, fmt.Sprintf("ar_y%d", j))
		as = append(as, fmt.Sprintf("ar_a%d", j))
		rs = append(rs, fmt.Sprintf("ar_r%d", j))
	}
	b.WriteString("    const u32 ar_prev = __shfl_up_sync(0xffffffffu, ar_key, 1);\n")
	b.WriteString("    bool ar_h = ar_key != (ar_lane == 0 ? ar_ck : ar_prev);\n")
	b.WriteString("#pragma unroll\n    for (int ar_d = 1; ar_d < 32; ar_d <<= 1) {\n")
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "      const %s ar_y%d = ar_lane_value(ar_v%d, (ar_lane - ar_d) & 31);\n", ctype(t), j, j)
	}
	b.WriteString("      const bool ar_yh = __shfl_up_sync(0xffffffffu, ar_h, ar_d);\n")
	b.WriteString("      if (ar_lane >= ar_d) {\n")
	fmt.Fprintf(&b, "        if (!ar_h) %s\n", k.callOp(k.scanFn, ys, vs, vs))
	b.WriteString("        ar_h = ar_h || ar_yh;\n      }\n    }\n")
	for j, t := range k.scanTs {
		fmt.Fprintf(&b, "    %s ar_r%d = ar_v%d;\n", ctype(t), j, j)
	}
	fmt.Fprintf(&b, "    if (!ar_h) %s\n", k.callOp(k.scanFn, as, vs, rs))
	if out {
		b.WriteString("    if (ar_ok) {\n")
		for j := range k.scanTs {
			fmt.Fprintf(&b, "      ar_res%d[ar_p] = ar_r%d;\n", j, j)
		}
		b.WriteString("    }\n")
	}
	b.WriteString("    const int ar_last = (int)min_i64(31, ar_hi - 1 - ar_b);\n")
	for j := range k.scanTs {
		fmt.Fprintf(&b, "    ar_a%d = ar_lane_value(ar_r%d, ar_last);\n", j, j)
	}
	b.WriteString("    ar_f = ar_f || __shfl_sync(0xffffffffu, ar_h, ar_last);\n")
	b.WriteString("    ar_ck = __shfl_sync(0xffffffffu, ar_key, ar_last);")
	return b.String()
}

// SegSave stores a chunk's last segment's aggregate and head flag.
func (k *histKernel) SegSave() string {
	var b strings.Builder
	for j := range k.scanTs {
		fmt.Fprintf(&b, "    ar_st%d[ar_c0] = ar_a%d;\n", j, j)
	}
	b.WriteString("    ar_flag[ar_c0] = ar_f;\n")
	return b.String()
}

// multiscanSortChunks is the chunk length of the sort-based multiscan for
// n elements: whole batches of 32, at least multiscanSortMinChunk elements,
// and at most 2^16 chunks (the carries are scanned by one block).
func multiscanSortChunks(n int64) int64 {
	chunk := max(multiscanSortMinChunk, ceilDiv(n, 1<<16))
	return ceilDiv(chunk, 32) * 32
}

// multiscanSortMinChunk is the shortest chunk of the sort-based multiscan
// (a variable so that the benchmark can time others). 1024 measured 5%
// faster than 256 at 256 to 2^20 labels over 2^24 elements (fewer carries
// for the one-block scan; bench/RESULTS.md, "GPU histograms", run 7).
var multiscanSortMinChunk int64 = 1024
