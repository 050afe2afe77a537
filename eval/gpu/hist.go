package gpu

// Histograms (hist, reduce_by_index), scatter and multiscan on the GPU.
//
// Each such statement gets a module of its own, generated when it first
// runs (like the scan kernels): kernels/prelude.cu, kernels/hist_prelude.cu,
// the program's device functions the lambdas call, and the statement's
// kernels instantiated from kernels/hist.cu, scatter.cu or multiscan.cu.
// The lambdas are rendered with the scan generator's helpers (the fused map
// as NAME_map, operators as NAME_op<k>), so this file only decides the
// parts that are particular to histograms:
//
//   - the update method of every histogram operator, from a table keyed by
//     the operator and its type (histNative): a native atomic where CUDA
//     has one (integer add/min/max/and/or/xor, f32/f64 add), else a
//     compare-and-swap loop over the bits of a single 4- or 8-byte value,
//     for 1- and 2-byte values a CAS loop over the aligned 4-byte word
//     that holds the bucket, else (tuples) a per-bucket spin lock;
//   - whether the statement has a shared-memory kernel: every operator
//     must have an atomic or CAS update there; the number of
//     sub-histograms per block and of passes over bucket ranges are chosen
//     at launch from the bucket counts (hist_run.go);
//   - how much each thread reads at once: both hist kernels are persistent
//     blocks of histTune.block threads, each thread taking histTune.groups
//     groups of 4 consecutive elements per step with 16-byte loads
//     (ar_load4), so that enough bytes are in flight to run at memory
//     speed; a step wholly in range runs without bounds checks;
//   - which updates are first combined, and how. A thread's consecutive
//     elements with the same bucket are combined in registers first (a
//     run) where an update is costly under contention: global updates
//     other than locks, and shared-memory updates that spin (CAS loops,
//     float atomics). At the end of a step equal keys in a warp are found
//     by sampling: every lane compares its key with lane 0's (one shuffle
//     and one vote). When the whole warp holds one bucket, a shuffle tree
//     combines its values and one lane updates; in the global kernel, when
//     a few lanes share lane 0's bucket, __match_any_sync groups the lanes
//     by bucket (the thesis' warp aggregation); otherwise every lane
//     updates on its own, so uniform keys pay only the sample. Native
//     integer updates in shared memory skip all of this (the hardware
//     combines equal addresses, and elements outside the window update a
//     spare bucket instead of branching); per-bucket locks aggregate every
//     element, so that no two lanes of a warp wait on one lock.

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/arepl/arepl/kernels"
	"github.com/arepl/arepl/lang/core"
)

// histKind is the statement a histogram-family module implements.
type histKind int

const (
	hkHist histKind = iota
	hkScatter
	hkMultiScan
)

var histTemplateFile = [...]string{hkHist: "hist.cu", hkScatter: "scatter.cu", hkMultiScan: "multiscan.cu"}

// updMethod is how one histogram operator updates a bucket.
type updMethod int

const (
	updAtomic  updMethod = iota // a native atomic instruction
	updCAS                      // atomicCAS loop over the value's bits
	updCASWord                  // atomicCAS loop over the aligned 4-byte word holding a 1- or 2-byte value
	updLock                     // per-bucket spin lock (tuples)
)

var updMethodName = [...]string{updAtomic: "atomic", updCAS: "cas", updCASWord: "cas-word", updLock: "lock"}

// nativeAtomic is one row of histNative: the CUDA atomic and the C type
// it is called at.
type nativeAtomic struct {
	fn string
	ct string
}

// histNative is the table of native atomics: operator, then element type.
// Integer add, and, or, xor wrap the same in the unsigned type, so signed
// 64-bit values use the unsigned long long overloads.
var histNative = map[core.BinOp]map[core.PrimType]nativeAtomic{
	core.Add: {core.I32: {"atomicAdd", "int"}, core.U32: {"atomicAdd", "unsigned int"},
		core.I64: {"atomicAdd", "unsigned long long"}, core.U64: {"atomicAdd", "unsigned long long"},
		core.F32: {"atomicAdd", "float"}, core.F64: {"atomicAdd", "double"}},
	core.Min: {core.I32: {"atomicMin", "int"}, core.U32: {"atomicMin", "unsigned int"},
		core.I64: {"atomicMin", "long long"}, core.U64: {"atomicMin", "unsigned long long"}},
	core.Max: {core.I32: {"atomicMax", "int"}, core.U32: {"atomicMax", "unsigned int"},
		core.I64: {"atomicMax", "long long"}, core.U64: {"atomicMax", "unsigned long long"}},
	core.And: {core.I32: {"atomicAnd", "int"}, core.U32: {"atomicAnd", "unsigned int"},
		core.I64: {"atomicAnd", "unsigned long long"}, core.U64: {"atomicAnd", "unsigned long long"}},
	core.Or: {core.I32: {"atomicOr", "int"}, core.U32: {"atomicOr", "unsigned int"},
		core.I64: {"atomicOr", "unsigned long long"}, core.U64: {"atomicOr", "unsigned long long"}},
	core.Xor: {core.I32: {"atomicXor", "int"}, core.U32: {"atomicXor", "unsigned int"},
		core.I64: {"atomicXor", "unsigned long long"}, core.U64: {"atomicXor", "unsigned long long"}},
}

// histOpPlan is one histogram operator of a Hist statement.
type histOpPlan struct {
	method  updMethod
	native  nativeAtomic
	ts      []core.PrimType // component types
	neutral []string        // C neutral elements
	fn      string          // device function of the operator
	idx     int             // the map result holding this op's bucket index
}

// binOpOf recognises a lambda that is one binary operator applied to its two
// parameters (in either order, the operator being commutative).
func binOpOf(l *core.Lambda) (core.BinOp, core.PrimType, bool) {
	if len(l.Params) != 2 || len(l.Body.Stmts) != 1 || len(l.Body.Result) != 1 {
		return 0, 0, false
	}
	s := l.Body.Stmts[0]
	e, ok := s.Exp.(*core.BinOpExp)
	if !ok || len(s.Pat) != 1 {
		return 0, 0, false
	}
	if r, ok := l.Body.Result[0].(*core.Var); !ok || r.Name != s.Pat[0].Name {
		return 0, 0, false
	}
	x, xok := e.X.(*core.Var)
	y, yok := e.Y.(*core.Var)
	if !xok || !yok {
		return 0, 0, false
	}
	a, b := l.Params[0].Name, l.Params[1].Name
	if !(x.Name == a && y.Name == b) && !(x.Name == b && y.Name == a) {
		return 0, 0, false
	}
	return e.Op, e.T, true
}

// updateMethod picks the update method of an operator over ts.
func updateMethod(l *core.Lambda, ts []core.PrimType) (updMethod, nativeAtomic) {
	if len(ts) != 1 {
		return updLock, nativeAtomic{}
	}
	if op, t, ok := binOpOf(l); ok && t == ts[0] {
		if n, ok := histNative[op][t]; ok {
			return updAtomic, n
		}
	}
	switch ts[0].Size() {
	case 4, 8:
		return updCAS, nativeAtomic{}
	case 1, 2:
		// CUDA has no 1- or 2-byte CAS: update the byte or half-word
		// inside its aligned 4-byte word. Buckets of a word contend, but
		// unlike a lock nobody waits for a lane that is not running (a
		// spin lock of a u8 histogram with skewed keys measured under
		// 0.01 Gelem/s on the H200).
		return updCASWord, nativeAtomic{}
	}
	return updLock, nativeAtomic{}
}

// hParamKind says what the host passes for one kernel parameter.
type hParamKind int

const (
	hpN      hParamKind = iota // i64 elements
	hpEnv                      // a free variable of the lambdas (or its dimension)
	hpIn                       // input array k
	hpH                        // i64 length of op k's destination (hist, scatter)
	hpDst                      // destination of op k, component c
	hpLock                     // u32 lock per bucket of op k
	hpM                        // i32 sub-histograms per block (shared kernel)
	hpK                        // i64 label classes (multiscan)
	hpChunk                    // i64 elements per chunk (multiscan)
	hpC                        // i64 chunks (multiscan)
	hpLabels                   // the labels (multiscan)
	hpState                    // per label and chunk accumulator component k (multiscan)
	hpRes                      // result component k (multiscan)
	hpLo                       // i64 first bucket of op k's window (hist)
	hpHc                       // i64 buckets in op k's window (hist)
)

type hParam struct {
	kind hParamKind
	k, c int
	t    core.PrimType
	env  kparam
	only bool // hpM: only in the shared kernel
}

func (p hParam) decl() string {
	switch p.kind {
	case hpN:
		return "const i64 ar_n"
	case hpEnv:
		return p.env.decl()
	case hpIn:
		return fmt.Sprintf("const %s *__restrict__ ar_in%d", ctype(p.t), p.k)
	case hpH:
		return fmt.Sprintf("const i64 ar_h%d", p.k)
	case hpDst:
		return fmt.Sprintf("%s *__restrict__ ar_dst%d_%d", ctype(p.t), p.k, p.c)
	case hpLock:
		return fmt.Sprintf("unsigned int *__restrict__ ar_lock%d", p.k)
	case hpM:
		return "const int ar_m"
	case hpK:
		return "const i64 ar_k"
	case hpChunk:
		return "const i64 ar_chunk"
	case hpC:
		return "const i64 ar_c"
	case hpLabels:
		return fmt.Sprintf("const %s *__restrict__ ar_lab", ctype(p.t))
	case hpState:
		return fmt.Sprintf("%s *__restrict__ ar_st%d", ctype(p.t), p.k)
	case hpRes:
		return fmt.Sprintf("%s *__restrict__ ar_res%d", ctype(p.t), p.k)
	case hpLo:
		return fmt.Sprintf("const i64 ar_lo%d", p.k)
	case hpHc:
		return fmt.Sprintf("const i64 ar_hc%d", p.k)
	}
	return "/* bad parameter */"
}

// histTuning is the shape of the hist kernels: threads per block, groups
// of 4 elements a thread reads per step, the most sub-histograms per block
// of the shared-memory kernel, and the blocks per SM the compiler must
// leave registers for (0: its own choice). The values are the measured best on
// the H200 (bench/RESULTS.md); the benchmark's flags change them to time
// variants, before any module is generated.
type histTuning struct {
	block, groups, minBlocks int
	maxCopies                int32
}

var histTune = histTuning{block: 1024, groups: 1, maxCopies: 32}

// histKernel is the generated module of one hist, scatter or multiscan
// statement and what the host needs to launch it. Its exported methods are
// what the templates call.
type histKernel struct {
	Name  string
	Kind  histKind
	Stmt  *core.Stmt
	Block int
	// Groups is the number of 4-element groups a thread of the hist
	// kernels reads per step.
	Groups int
	// Bounds is the kernels' __launch_bounds__ (hist).
	Bounds string
	W      core.Atom
	Arrs   []*core.Var
	In     []core.PrimType
	MapTs  []core.PrimType // results of the fused map (nil: the inputs are the values)
	// unread[j] is set when the fused map ignores input j: the hist
	// kernels then do not load it (a wide read-only load is an asm
	// statement the compiler keeps even when nothing uses its result).
	unread []bool

	ops       []histOpPlan    // hist
	dests     [][]*core.Var   // hist: per op; scatter: one per destination
	scanTs    []core.PrimType // multiscan: the scanned components
	scanNe    []string        // multiscan: their neutral elements
	scanFn    string          // multiscan: the operator
	labels    *core.Var       // multiscan
	labelSite int             // multiscan: the check of a label's range
	kAtom     core.Atom       // multiscan: the number of classes
	sk        *scanKernel     // carries the env for the scan generator's lambda helpers
	params    []hParam
	envArgs   string
	fnMap     string
	checks    bool
	src       string
}

// minBlocks is the blocks per SM the kernels' launch bounds ask registers
// for (0: the compiler's choice). Native updates of 4-byte values over
// inputs of at most 4 bytes need few registers: asking for two blocks of
// 1024 threads per SM (32 registers a thread) keeps the compiler there,
// which measured 5-9% faster on the 256-bucket count and f32 sum on the
// H200 (bench/RESULTS.md). Other statements keep the compiler's choice,
// since forcing them spills. The benchmark's flag overrides both.
func (k *histKernel) minBlocks() int {
	if histTune.minBlocks > 0 {
		return histTune.minBlocks
	}
	if k.Block*2 > 2048 {
		return 0
	}
	for _, t := range k.In {
		if t.Size() > 4 {
			return 0
		}
	}
	for _, op := range k.ops {
		if op.method != updAtomic || len(op.ts) != 1 || op.ts[0].Size() > 4 {
			return 0
		}
	}
	return 2048 / k.Block
}

// Params is the C parameter list; shared adds the shared kernel's own.
func (k *histKernel) Params(shared bool) string {
	var ds []string
	for _, p := range k.params {
		if p.only && !shared {
			continue
		}
		ds = append(ds, p.decl())
	}
	return strings.Join(ds, ", ")
}

// SharedOK reports whether the statement has a shared-memory kernel: every
// operator has a single component with an atomic or CAS update.
func (k *histKernel) SharedOK() bool {
	if k.Kind != hkHist {
		return false
	}
	for _, o := range k.ops {
		if o.method == updLock {
			return false
		}
	}
	return true
}

// MapPhase declares the element's values and computes them for a live lane
// (dead lanes keep zeros, which no update uses), reading element ar_i of
// every input (scatter).
func (k *histKernel) MapPhase() string {
	return k.mapPhase(func(j int) string { return fmt.Sprintf("ar_in%d[ar_i]", j) }, "    ")
}

func (k *histKernel) mapPhase(in func(j int) string, ind string) string {
	var b strings.Builder
	ts := k.values()
	for j, t := range ts {
		fmt.Fprintf(&b, "%s%s ar_x%d = 0;\n", ind, ctype(t), j)
	}
	if k.fnMap == "" {
		fmt.Fprintf(&b, "%sif (ar_live) {\n", ind)
		for j := range k.In {
			fmt.Fprintf(&b, "%s  ar_x%d = %s;\n", ind, j, in(j))
		}
		fmt.Fprintf(&b, "%s}\n", ind)
		return b.String()
	}
	args := []string{k.envArgs, "ar_i"}
	for j := range k.In {
		args = append(args, in(j))
	}
	for j := range ts {
		args = append(args, fmt.Sprintf("&ar_x%d", j))
	}
	fmt.Fprintf(&b, "%sif (ar_live) %s(%s);\n", ind, k.fnMap, strings.Join(args, ", "))
	return b.String()
}

// Tile is the number of elements a block takes per step of the hist
// kernels' grid-stride loop, Per the number a thread takes.
func (k *histKernel) Tile() int { return k.Block * k.Per() }
func (k *histKernel) Per() int  { return 4 * k.Groups }

// VecFlags decides once per thread whether each input may be read with
// wide loads (it is suitably aligned).
func (k *histKernel) VecFlags() string {
	var b strings.Builder
	for j := range k.In {
		if !k.unread[j] {
			fmt.Fprintf(&b, "  const bool ar_vec%d = ar_vec_ok(ar_in%d);\n", j, j)
		}
	}
	return b.String()
}

// runs reports whether op o's updates go through a per-thread run: a
// thread's consecutive elements with the same bucket are combined in
// registers and update once, when the bucket changes or at the end of the
// step (where the warp aggregation then sees one value per thread, so
// skewed data costs one aggregation per step instead of one per element).
// Runs pay where an update is expensive under contention: global updates
// other than locks (those aggregate every element), and shared updates
// that spin.
func (k *histKernel) runs(o int, shared bool) bool {
	op := k.ops[o]
	if shared {
		return op.spins()
	}
	return op.method != updLock
}

// places are the lvalues of op o's bucket key in the shared window or the
// global destination.
func (k *histKernel) places(o int, key string, shared bool) []string {
	if shared {
		// The offset in the window fits an int: the window is in shared memory.
		return []string{fmt.Sprintf("ar_s%d[(int)(%s - ar_lo%d) * ar_m + ar_cp]", o, key, o)}
	}
	var ps []string
	for c := range k.ops[o].ts {
		ps = append(ps, fmt.Sprintf("ar_dst%d_%d[%s]", o, c, key))
	}
	return ps
}

// HistStep renders one step of a hist kernel's grid-stride loop (shared: the
// shared-memory kernel). The thread first reads its Per elements of every
// input, all loads in flight together: group g is the 4 elements at
// ar_b0 + 4·(g·Block + thread), so the lanes of a warp read consecutive
// 16-byte pieces (inputs the map ignores are not read). Then, element by
// element, the map and every op's update. full says the whole tile is in
// range (the test is the same for the whole block): then no lane is dead
// and neither loads nor lanes need bounds checks.
func (k *histKernel) HistStep(shared, full bool) string {
	var b strings.Builder
	const in = "      "
	k.loads(&b, "ar_v", "ar_b0", full, in)
	k.process(&b, shared, full, false)
	return b.String()
}

// Sortable reports whether the statement has the sort-based kernels
// (thesis §4.4): one histogram operator, whose bucket index is the sort
// key.
func (k *histKernel) Sortable() bool { return k.Kind == hkHist && len(k.ops) == 1 }

// KeysPhase renders the _keys kernel's body for element ar_i: the fused map
// and the element's sort key, its bucket's place in the window, or the
// window's size (past every bucket) when the index is outside it.
func (k *histKernel) KeysPhase() string {
	var b strings.Builder
	b.WriteString(k.mapPhase(func(j int) string {
		if k.unread[j] {
			return fmt.Sprintf("(%s)0", ctype(k.In[j]))
		}
		return fmt.Sprintf("ar_in%d[ar_i]", j)
	}, "    "))
	ix := fmt.Sprintf("ar_x%d", k.ops[0].idx)
	fmt.Fprintf(&b, "    ar_skey[ar_i] = %s ? (u32)(%s - ar_lo0) : (u32)ar_hc0;\n", k.inWindow(0, ix), ix)
	return b.String()
}

// SortedStep is HistStep over the elements in sorted order (the _sorted
// kernel): place e of the tile is element ar_perm[e], whose inputs are
// gathered and mapped again, so that a thread's and a warp's elements
// share buckets (runs and the warp aggregation combine them) and the
// updates walk the histogram in order, a few cache lines at a time.
func (k *histKernel) SortedStep(full bool) string {
	var b strings.Builder
	const in = "      "
	fmt.Fprintf(&b, "%su32 ar_pv[%d];\n", in, k.Per())
	for g := 0; g < k.Groups; g++ {
		fmt.Fprintf(&b, "%sar_load4(ar_perm, ar_b0 + ((i64)%d + threadIdx.x) * 4, ar_n, ar_vecp, %v, ar_pv + %d);\n", in, g*k.Block, full, 4*g)
	}
	for j, t := range k.In {
		if k.unread[j] {
			continue
		}
		fmt.Fprintf(&b, "%s%s ar_v%d[%d];\n", in, ctype(t), j, k.Per())
		fmt.Fprintf(&b, "#pragma unroll\n%sfor (int ar_u = 0; ar_u < %d; ar_u++) ar_v%d[ar_u] = ", in, k.Per(), j)
		if full {
			fmt.Fprintf(&b, "ar_in%d[ar_pv[ar_u]];\n", j)
		} else {
			fmt.Fprintf(&b, "ar_b0 + ((i64)(ar_u >> 2) * %d + threadIdx.x) * 4 + (ar_u & 3) < ar_n ? ar_in%d[ar_pv[ar_u]] : (%s)0;\n", k.Block, j, ctype(t))
		}
	}
	k.process(&b, false, full, true)
	return b.String()
}

// loads declares <dst><j> and reads the thread's Per elements of every
// input read from the tile at base into it: group g is the 4 elements at
// base + 4·(g·Block + thread), so the lanes of a warp read consecutive
// 16-byte pieces.
func (k *histKernel) loads(b *strings.Builder, dst, base string, full bool, in string) {
	for j, t := range k.In {
		if !k.unread[j] {
			fmt.Fprintf(b, "%s%s %s%d[%d];\n", in, ctype(t), dst, j, k.Per())
			k.loadInput(b, j, dst, base, full, in)
		}
	}
}

// loadInput reads the thread's elements of input j (see loads).
func (k *histKernel) loadInput(b *strings.Builder, j int, dst, base string, full bool, in string) {
	for g := 0; g < k.Groups; g++ {
		fmt.Fprintf(b, "%sar_load4(ar_in%d, %s + ((i64)%d + threadIdx.x) * 4, ar_n, ar_vec%d, %v, %s%d + %d);\n", in, j, base, g*k.Block, j, full, dst, j, 4*g)
	}
}

// process renders the updates of a step from the elements in ar_v.
// gather: the element's index is ar_pv[ar_u] (SortedStep).
func (k *histKernel) process(b *strings.Builder, shared, full, gather bool) {
	const in = "      "
	for o, op := range k.ops {
		if !k.runs(o, shared) {
			continue
		}
		fmt.Fprintf(b, "%sbool ar_rv%d = false;\n%si64 ar_rk%d = 0;\n", in, o, in, o)
		for c, t := range op.ts {
			fmt.Fprintf(b, "%s%s ar_ra%d_%d = %s;\n", in, ctype(t), o, c, op.neutral[c])
		}
	}
	fmt.Fprintf(b, "#pragma unroll\n%sfor (int ar_u = 0; ar_u < %d; ar_u++) {\n", in, k.Per())
	const in2 = in + "  "
	pos := "ar_i"
	if gather {
		pos = "ar_e"
	}
	fmt.Fprintf(b, "%sconst i64 %s = ar_b0 + ((i64)(ar_u >> 2) * %d + threadIdx.x) * 4 + (ar_u & 3);\n", in2, pos, k.Block)
	if full {
		fmt.Fprintf(b, "%sconst bool ar_live = true;\n", in2)
	} else {
		fmt.Fprintf(b, "%sconst bool ar_live = %s < ar_n;\n", in2, pos)
	}
	if gather {
		fmt.Fprintf(b, "%sconst i64 ar_i = (i64)ar_pv[ar_u];\n", in2)
	}
	b.WriteString(k.mapPhase(func(j int) string {
		if k.unread[j] {
			return fmt.Sprintf("(%s)0", ctype(k.In[j]))
		}
		return fmt.Sprintf("ar_v%d[ar_u]", j)
	}, in2))
	for o, op := range k.ops {
		ix := fmt.Sprintf("ar_x%d", op.idx)
		vs := k.opVals(o)
		switch {
		case k.runs(o, shared):
			// Extend the run, or update with it and start a new one.
			var ra []string
			for c := range op.ts {
				ra = append(ra, fmt.Sprintf("ar_ra%d_%d", o, c))
			}
			fmt.Fprintf(b, "%sif (ar_live && %s) {\n", in2, k.inWindow(o, ix))
			fmt.Fprintf(b, "%s  if (ar_rv%d && %s == ar_rk%d) {\n", in2, o, ix, o)
			fmt.Fprintf(b, "%s    %s\n", in2, k.callOp(op.fn, ra, vs, ra))
			fmt.Fprintf(b, "%s  } else {\n", in2)
			fmt.Fprintf(b, "%s    if (ar_rv%d) {\n", in2, o)
			k.update(b, o, k.places(o, fmt.Sprintf("ar_rk%d", o), shared), ra, "", in2+"      ")
			fmt.Fprintf(b, "%s    }\n", in2)
			fmt.Fprintf(b, "%s    ar_rv%d = true;\n%s    ar_rk%d = %s;\n", in2, o, in2, o, ix)
			for c := range op.ts {
				fmt.Fprintf(b, "%s    %s = %s;\n", in2, ra[c], vs[c])
			}
			fmt.Fprintf(b, "%s  }\n%s}\n", in2, in2)
		case shared:
			// Native shared atomics: the hardware combines equal keys.
			// Elements outside the window update the spare bucket past
			// its end instead of branching around the atomic.
			fmt.Fprintf(b, "%s{\n%s  const bool ar_in = ar_live && %s;\n", in2, in2, k.inWindow(o, ix))
			place := fmt.Sprintf("ar_s%d[(ar_in ? (int)(%s - ar_lo%d) : (int)ar_hc%d) * ar_m + ar_cp]", o, ix, o, o)
			k.update(b, o, []string{place}, vs, "", in2+"  ")
			fmt.Fprintf(b, "%s}\n", in2)
		default:
			// Locks: always aggregated, so no two lanes of a warp wait on
			// one lock.
			fmt.Fprintf(b, "%s{\n%s  bool ar_ok = ar_live && %s;\n", in2, in2, k.inWindow(o, ix))
			fmt.Fprintf(b, "%s  const i64 ar_key = ar_ok ? %s : (i64)(-1 - ar_lane);\n", in2, ix)
			k.matchAny(b, o, vs, in2+"  ")
			fmt.Fprintf(b, "%s  if (ar_ok) {\n", in2)
			k.update(b, o, k.places(o, ix, false), vs, fmt.Sprintf("ar_lock%d[%s]", o, ix), in2+"    ")
			fmt.Fprintf(b, "%s  }\n%s}\n", in2, in2)
		}
	}
	fmt.Fprintf(b, "%s}\n", in)
	// The runs left at the end of the step, through the warp aggregation:
	// every lane gets here.
	for o, op := range k.ops {
		if !k.runs(o, shared) {
			continue
		}
		var ra []string
		for c := range op.ts {
			ra = append(ra, fmt.Sprintf("ar_ra%d_%d", o, c))
		}
		key := fmt.Sprintf("ar_rk%d", o)
		fmt.Fprintf(b, "%s{\n%s  bool ar_ok = ar_rv%d;\n", in, in, o)
		k.sample(b, o, key, ra, !shared, in+"  ")
		fmt.Fprintf(b, "%s  if (ar_ok) {\n", in)
		k.update(b, o, k.places(o, key, shared), ra, "", in+"    ")
		fmt.Fprintf(b, "%s  }\n%s}\n", in, in)
	}
}

// values are the element's value types: the map's results, or the inputs.
func (k *histKernel) values() []core.PrimType {
	if k.fnMap == "" {
		return k.In
	}
	return k.MapTs
}

// opVals are the C variables holding op o's values for this element.
func (k *histKernel) opVals(o int) []string {
	op := k.ops[o]
	vs := make([]string, len(op.ts))
	for c := range op.ts {
		vs[c] = fmt.Sprintf("ar_x%d", op.idx+1+c)
	}
	return vs
}

// callOp renders dst = a ⊕ b for op o (the function takes its arguments by
// value, so dst may alias a or b).
func (k *histKernel) callOp(fn string, a, b, dst []string) string {
	args := []string{k.envArgs}
	args = append(args, a...)
	args = append(args, b...)
	for _, d := range dst {
		args = append(args, "&"+d)
	}
	return fmt.Sprintf("%s(%s);", fn, strings.Join(args, ", "))
}

// update renders the update of op o at bucket places (one lvalue per
// component) with values vs; locks is the lock word's lvalue (updLock).
func (k *histKernel) update(b *strings.Builder, o int, places, vs []string, lock string, in string) {
	op := k.ops[o]
	switch op.method {
	case updAtomic:
		fmt.Fprintf(b, "%s%s((%s *)&%s, (%s)%s);\n", in, op.native.fn, op.native.ct, places[0], op.native.ct, vs[0])
	case updCAS:
		t := ctype(op.ts[0])
		bt := "unsigned int"
		if op.ts[0].Size() == 8 {
			bt = "unsigned long long"
		}
		fmt.Fprintf(b, "%s{\n", in)
		fmt.Fprintf(b, "%s  %s *ar_p = (%s *)&%s;\n", in, bt, bt, places[0])
		fmt.Fprintf(b, "%s  %s ar_old = *ar_p, ar_as;\n", in, bt)
		fmt.Fprintf(b, "%s  do {\n", in)
		fmt.Fprintf(b, "%s    ar_as = ar_old;\n", in)
		fmt.Fprintf(b, "%s    %s ar_r;\n", in, t)
		fmt.Fprintf(b, "%s    %s\n", in, k.callOp(op.fn, []string{fromBits(op.ts[0], "ar_as")}, vs, []string{"ar_r"}))
		fmt.Fprintf(b, "%s    ar_old = atomicCAS(ar_p, ar_as, %s);\n", in, toBits(op.ts[0], "ar_r"))
		fmt.Fprintf(b, "%s  } while (ar_old != ar_as);\n", in)
		fmt.Fprintf(b, "%s}\n", in)
	case updCASWord:
		// The destination allocations and the shared windows are padded
		// to whole 4-byte words (copyDest, histBytes), so the word is
		// inside them.
		t := ctype(op.ts[0])
		mask := "0xFFu"
		if op.ts[0].Size() == 2 {
			mask = "0xFFFFu"
		}
		fmt.Fprintf(b, "%s{\n", in)
		fmt.Fprintf(b, "%s  const size_t ar_a = (size_t)&%s;\n", in, places[0])
		fmt.Fprintf(b, "%s  unsigned int *ar_p = (unsigned int *)(ar_a & ~(size_t)3);\n", in)
		fmt.Fprintf(b, "%s  const unsigned int ar_sh = (unsigned int)(ar_a & 3) * 8u;\n", in)
		fmt.Fprintf(b, "%s  unsigned int ar_old = *ar_p, ar_as;\n", in)
		fmt.Fprintf(b, "%s  do {\n", in)
		fmt.Fprintf(b, "%s    ar_as = ar_old;\n", in)
		fmt.Fprintf(b, "%s    %s ar_r;\n", in, t)
		cur := fmt.Sprintf("(%s)((ar_as >> ar_sh) & %s)", t, mask)
		if op.ts[0] == core.Bool {
			cur = fmt.Sprintf("((ar_as >> ar_sh) & %s) != 0u", mask)
		}
		fmt.Fprintf(b, "%s    %s\n", in, k.callOp(op.fn, []string{cur}, vs, []string{"ar_r"}))
		fmt.Fprintf(b, "%s    ar_old = atomicCAS(ar_p, ar_as, (ar_as & ~(%s << ar_sh)) | (((unsigned int)ar_r & %s) << ar_sh));\n", in, mask, mask)
		fmt.Fprintf(b, "%s  } while (ar_old != ar_as);\n", in)
		fmt.Fprintf(b, "%s}\n", in)
	case updLock:
		// The spin loop is safe within a warp on sm_70 and later (each
		// thread is scheduled independently), and warp aggregation has
		// already left at most one lane per bucket.
		fmt.Fprintf(b, "%s{\n%s  bool ar_done = false;\n%s  while (!ar_done) {\n", in, in, in)
		fmt.Fprintf(b, "%s    if (atomicCAS(&%s, 0u, 1u) == 0u) {\n", in, lock)
		fmt.Fprintf(b, "%s      __threadfence();\n", in)
		var cur, res []string
		for c, t := range op.ts {
			fmt.Fprintf(b, "%s      %s ar_a%d = *(volatile %s *)&%s;\n", in, ctype(t), c, ctype(t), places[c])
			fmt.Fprintf(b, "%s      %s ar_r%d;\n", in, ctype(t), c)
			cur = append(cur, fmt.Sprintf("ar_a%d", c))
			res = append(res, fmt.Sprintf("ar_r%d", c))
		}
		fmt.Fprintf(b, "%s      %s\n", in, k.callOp(op.fn, cur, vs, res))
		for c, t := range op.ts {
			fmt.Fprintf(b, "%s      *(volatile %s *)&%s = ar_r%d;\n", in, ctype(t), places[c], c)
		}
		fmt.Fprintf(b, "%s      __threadfence();\n%s      atomicExch(&%s, 0u);\n%s      ar_done = true;\n%s    }\n%s  }\n%s}\n",
			in, in, lock, in, in, in, in)
	}
}

// toBits reinterprets a 4- or 8-byte value as the unsigned word atomicCAS
// compares (so floats, NaN included, round-trip); fromBits is its inverse.
func toBits(t core.PrimType, x string) string {
	switch {
	case t == core.F32:
		return fmt.Sprintf("__float_as_uint(%s)", x)
	case t == core.F64:
		return fmt.Sprintf("(unsigned long long)__double_as_longlong(%s)", x)
	case t.Size() == 8:
		return fmt.Sprintf("(unsigned long long)(%s)", x)
	}
	return fmt.Sprintf("(unsigned int)(%s)", x)
}

func fromBits(t core.PrimType, b string) string {
	switch t {
	case core.F32:
		return fmt.Sprintf("__uint_as_float(%s)", b)
	case core.F64:
		return fmt.Sprintf("__longlong_as_double((long long)%s)", b)
	}
	return fmt.Sprintf("(%s)(%s)", ctype(t), b)
}

// shfl renders a warp shuffle of v (of type t) from lane src.
func shfl(t core.PrimType, v, src string) string {
	switch {
	case t == core.F32:
		return fmt.Sprintf("__shfl_sync(0xffffffffu, %s, %s)", v, src)
	case t == core.F64:
		return fmt.Sprintf("__shfl_sync(0xffffffffu, %s, %s)", v, src)
	case t.Size() == 8:
		return fmt.Sprintf("(%s)__shfl_sync(0xffffffffu, (long long)%s, %s)", ctype(t), v, src)
	}
	return fmt.Sprintf("(%s)__shfl_sync(0xffffffffu, (int)%s, %s)", ctype(t), v, src)
}

// shflXor renders a butterfly shuffle of v (of type t) with lane ^ d.
func shflXor(t core.PrimType, v, d string) string {
	switch {
	case t.IsFloat():
		return fmt.Sprintf("__shfl_xor_sync(0xffffffffu, %s, %s)", v, d)
	case t.Size() == 8:
		return fmt.Sprintf("(%s)__shfl_xor_sync(0xffffffffu, (long long)%s, %s)", ctype(t), v, d)
	}
	return fmt.Sprintf("(%s)__shfl_xor_sync(0xffffffffu, (int)%s, %s)", ctype(t), v, d)
}

// inWindow is the test that op o's bucket index ix lies in the bucket
// range this launch covers (ar_lo<o> .. ar_lo<o>+ar_hc<o>-1, inside the
// histogram, so out-of-range indices fail it too): one unsigned
// comparison, computed without signed overflow.
func (k *histKernel) inWindow(o int, ix string) string {
	return fmt.Sprintf("(u64)%s - (u64)ar_lo%d < (u64)ar_hc%d", ix, o, o)
}

// spins reports whether op o's shared-memory update loops while other
// lanes update the same word (a CAS loop; float atomics in shared memory
// are one too), so that equal keys in a warp are worth combining first.
func (op histOpPlan) spins() bool {
	return op.method == updCAS || op.method == updCASWord || op.method == updAtomic && op.ts[0].IsFloat()
}

// sample renders the sampled warp aggregation of op o (see the package
// comment) for the lane's bucket key and values vs: ar_ok and ar_lane must
// be in scope; afterwards ar_ok is set only on the lanes that still
// update, holding the combined values. With match set, a warp where a few
// lanes share lane 0's bucket is grouped by __match_any_sync.
func (k *histKernel) sample(b *strings.Builder, o int, key string, vs []string, match bool, in string) {
	op := k.ops[o]
	fmt.Fprintf(b, "%sconst i64 ar_key = ar_ok ? %s : (i64)(-1 - ar_lane);\n", in, key)
	fmt.Fprintf(b, "%sconst unsigned ar_same = __ballot_sync(0xffffffffu, ar_key == __shfl_sync(0xffffffffu, ar_key, 0));\n", in)
	fmt.Fprintf(b, "%sif (ar_same == 0xffffffffu) {\n", in)
	fmt.Fprintf(b, "%s  for (int ar_d = 16; ar_d > 0; ar_d >>= 1) {\n", in)
	var ys []string
	for c, t := range op.ts {
		fmt.Fprintf(b, "%s    const %s ar_y%d = %s;\n", in, ctype(t), c, shflXor(t, vs[c], "ar_d"))
		ys = append(ys, fmt.Sprintf("ar_y%d", c))
	}
	fmt.Fprintf(b, "%s    %s\n", in, k.callOp(op.fn, vs, ys, vs))
	fmt.Fprintf(b, "%s  }\n", in)
	fmt.Fprintf(b, "%s  ar_ok = ar_lane == 0;\n", in)
	fmt.Fprintf(b, "%s}", in)
	if match {
		b.WriteString(" else if (__popc(ar_same) > 2) {\n")
		k.matchAny(b, o, vs, in+"  ")
		fmt.Fprintf(b, "%s}", in)
	}
	b.WriteString("\n")
}

// matchAny renders the thesis' warp aggregation of op o's values vs: the
// lanes holding the same bucket (ar_key) are grouped with __match_any_sync
// and combined by a tree over their ranks, leaving ar_ok on the first lane
// of each group.
func (k *histKernel) matchAny(b *strings.Builder, o int, vs []string, in string) {
	op := k.ops[o]
	fmt.Fprintf(b, "%sconst unsigned ar_peers = __match_any_sync(0xffffffffu, ar_key);\n", in)
	fmt.Fprintf(b, "%sconst int ar_rank = __popc(ar_peers & ((1u << ar_lane) - 1u));\n", in)
	fmt.Fprintf(b, "%sconst int ar_cnt = __popc(ar_peers);\n", in)
	fmt.Fprintf(b, "%sif (__any_sync(0xffffffffu, ar_cnt > 1)) {\n", in)
	fmt.Fprintf(b, "%s  for (int ar_d = 1; ar_d < 32; ar_d <<= 1) {\n", in)
	fmt.Fprintf(b, "%s    const bool ar_take = (ar_rank & (2 * ar_d - 1)) == 0 && ar_rank + ar_d < ar_cnt;\n", in)
	fmt.Fprintf(b, "%s    const int ar_src = ar_take ? ar_nth_bit(ar_peers, ar_rank + ar_d) : ar_lane;\n", in)
	var ys []string
	for c, t := range op.ts {
		fmt.Fprintf(b, "%s    const %s ar_y%d = %s;\n", in, ctype(t), c, shfl(t, vs[c], "ar_src"))
		ys = append(ys, fmt.Sprintf("ar_y%d", c))
	}
	fmt.Fprintf(b, "%s    if (ar_take) %s\n", in, k.callOp(op.fn, vs, ys, vs))
	fmt.Fprintf(b, "%s  }\n", in)
	fmt.Fprintf(b, "%s}\n", in)
	fmt.Fprintf(b, "%sar_ok = ar_ok && ar_rank == 0;\n", in)
}

// SharedInit declares op o's sub-histograms: ar_m copies of the ar_hc<o>
// buckets of this launch's window and one spare bucket (which takes the
// updates of elements outside the window and is never merged) after the
// previous ops' (each array aligned to 8 bytes), set to the neutral
// element.
func (k *histKernel) SharedInit() string {
	var b strings.Builder
	b.WriteString("  i64 ar_off = 0;\n")
	for o, op := range k.ops {
		t := ctype(op.ts[0])
		fmt.Fprintf(&b, "  %s *ar_s%d = (%s *)(ar_sh + ar_off);\n", t, o, t)
		fmt.Fprintf(&b, "  ar_off = ar_align8(ar_off + (ar_hc%d + 1) * ar_m * (i64)sizeof(%s));\n", o, t)
		fmt.Fprintf(&b, "  for (i64 ar_j = threadIdx.x; ar_j < (ar_hc%d + 1) * ar_m; ar_j += %d) ar_s%d[ar_j] = %s;\n", o, k.Block, o, op.neutral[0])
	}
	return b.String()
}

// SharedMerge combines each bucket's copies and merges the block's result
// into global memory. Thread j starts at copy j mod ar_m (the operator
// commutes), so the lanes of a warp read different banks.
func (k *histKernel) SharedMerge() string {
	var b strings.Builder
	for o, op := range k.ops {
		t := ctype(op.ts[0])
		fmt.Fprintf(&b, "  for (i64 ar_j = threadIdx.x; ar_j < ar_hc%d; ar_j += %d) {\n", o, k.Block)
		fmt.Fprintf(&b, "    %s ar_acc = ar_s%d[ar_j * ar_m + (ar_j & (ar_m - 1))];\n", t, o)
		fmt.Fprintf(&b, "    for (int ar_q = 1; ar_q < ar_m; ar_q++) %s\n",
			k.callOp(op.fn, []string{"ar_acc"}, []string{fmt.Sprintf("ar_s%d[ar_j * ar_m + ((ar_j + ar_q) & (ar_m - 1))]", o)}, []string{"ar_acc"}))
		k.update(&b, o, []string{fmt.Sprintf("ar_dst%d_0[ar_lo%d + ar_j]", o, o)}, []string{"ar_acc"}, "", "    ")
		b.WriteString("  }\n")
	}
	return b.String()
}

// histGen renders one statement's module.
type histGen struct {
	prog  *core.Program
	lim   Limits
	sg    *scanGen
	block int
}

// env collects the free variables of the lambdas and lays them out as
// kernel parameters through the scan generator (so its map and lambda
// helpers can be used unchanged).
func (g *histGen) env(k *histKernel, ls []*core.Lambda, index *core.Var, atoms []core.Atom) error {
	fs := newFreeSet()
	for j, l := range ls {
		if l == nil {
			continue
		}
		var idx []*core.Var
		if j == 0 && index != nil {
			idx = []*core.Var{index}
		}
		fs.lambda(l, idx, map[string]bool{})
	}
	fs.stmts(nil, atoms, map[string]bool{})
	if fs.err != nil {
		return fs.err
	}
	k.sk = &scanKernel{Name: k.Name, Env: fs.order}
	g.sg.params(k.sk)
	k.envArgs = k.sk.envArgs
	for _, p := range k.sk.params {
		if p.kind == spEnv {
			k.params = append(k.params, hParam{kind: hpEnv, env: p.env})
		}
	}
	return nil
}

// inputs records the element types of the input arrays (one dimension
// each: rows of arrays are not generated).
func (k *histKernel) inputs(what string) error {
	for _, a := range k.Arrs {
		if a.Type.Rank != 1 {
			return unsup("%s over rows of %s (nested parallelism is not generated yet)", what, a.Name)
		}
		k.In = append(k.In, a.Type.Elem)
	}
	return nil
}

// mapFun renders the fused map (if any) through the scan generator.
func (g *histGen) mapFun(b *strings.Builder, k *histKernel, m *core.Lambda, index *core.Var) error {
	if m == nil {
		return nil
	}
	for _, t := range m.Ret {
		if t.IsArray() {
			return unsup("a map producing arrays is not generated yet")
		}
		k.MapTs = append(k.MapTs, t.Elem)
	}
	if err := g.sg.mapFun(b, k.sk, m, index); err != nil {
		return err
	}
	// The parameters the body reads are free in it once they are not
	// bound.
	fs := newFreeSet()
	bound := map[string]bool{}
	if index != nil {
		bound[index.Name] = true
	}
	fs.stmts(m.Body.Stmts, m.Body.Result, bound)
	if fs.err != nil {
		return fs.err
	}
	k.unread = make([]bool, len(k.In))
	for j, p := range m.Params {
		if j < len(k.unread) {
			k.unread[j] = !fs.seen[p.Name]
		}
	}
	k.fnMap = k.sk.fnMap
	return nil
}

// opFun renders an operator lambda as a device function.
func (g *histGen) opFun(b *strings.Builder, k *histKernel, name string, l *core.Lambda) error {
	return g.sg.lambdaFun(b, k.sk, name, l, false)
}

func (g *histGen) hist(s *core.Stmt, h *core.Hist) (*histKernel, error) {
	k := &histKernel{Name: "k_hist", Kind: hkHist, Stmt: s, Block: histTune.block, Groups: histTune.groups, W: h.W, Arrs: h.Arrs}
	if err := k.inputs("hist"); err != nil {
		return nil, err
	}
	if h.Map == nil {
		return nil, fmt.Errorf("internal error: hist without a map")
	}
	ls := []*core.Lambda{h.Map}
	var nes []core.Atom
	for _, op := range h.Ops {
		ls = append(ls, op.Lambda)
		nes = append(nes, op.Neutral...)
	}
	k.params = []hParam{{kind: hpN}}
	if err := g.env(k, ls, h.Index, nes); err != nil {
		return nil, err
	}
	for j, t := range k.In {
		k.params = append(k.params, hParam{kind: hpIn, k: j, t: t})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s: %s at %v\n", k.Name, expName(h), s.Pos)
	if err := g.mapFun(&b, k, h.Map, h.Index); err != nil {
		return nil, err
	}
	at := 0
	for o, op := range h.Ops {
		n := len(op.Neutral)
		if len(op.Dests) != n || len(op.Lambda.Params) != 2*n {
			return nil, fmt.Errorf("internal error: histogram operator with %d destinations, %d parameters and %d neutral elements", len(op.Dests), len(op.Lambda.Params), n)
		}
		if at+1+n > len(k.MapTs) || k.MapTs[at] != core.I64 {
			return nil, fmt.Errorf("internal error: hist map results %v do not give operator %d an i64 index and %d values", k.MapTs, o, n)
		}
		p := histOpPlan{idx: at, fn: fmt.Sprintf("%s_op%d", k.Name, o)}
		for c, ne := range op.Neutral {
			t := ne.AtomType()
			if t.IsArray() || op.Dests[c].Type.Rank != 1 {
				return nil, unsup("a histogram of arrays is not generated yet")
			}
			if k.MapTs[at+1+c] != t.Elem {
				return nil, fmt.Errorf("internal error: hist value of type %v for a %v histogram", k.MapTs[at+1+c], t.Elem)
			}
			p.ts = append(p.ts, t.Elem)
			cs, err := atom(ne)
			if err != nil {
				return nil, err
			}
			p.neutral = append(p.neutral, cs)
		}
		p.method, p.native = updateMethod(op.Lambda, p.ts)
		if err := g.opFun(&b, k, p.fn, op.Lambda); err != nil {
			return nil, err
		}
		k.ops = append(k.ops, p)
		k.dests = append(k.dests, op.Dests)
		k.params = append(k.params, hParam{kind: hpLo, k: o}, hParam{kind: hpHc, k: o})
		for c, t := range p.ts {
			k.params = append(k.params, hParam{kind: hpDst, k: o, c: c, t: t})
		}
		if p.method == updLock {
			k.params = append(k.params, hParam{kind: hpLock, k: o})
		}
		at += 1 + n
	}
	if at != len(k.MapTs) {
		return nil, fmt.Errorf("internal error: hist map gives %d results for %d", len(k.MapTs), at)
	}
	k.params = append(k.params, hParam{kind: hpM, only: true})
	k.Bounds = fmt.Sprint(k.Block)
	if mb := k.minBlocks(); mb > 0 {
		k.Bounds = fmt.Sprintf("%d, %d", k.Block, mb)
	}
	return g.finish(&b, k)
}

// finish instantiates the statement's template after its device functions.
func (g *histGen) finish(b *strings.Builder, k *histKernel) (*histKernel, error) {
	k.checks = k.sk.checks
	var out bytes.Buffer
	if err := histTemplates.ExecuteTemplate(&out, histTemplateFile[k.Kind], k); err != nil {
		return nil, fmt.Errorf("internal error: kernel template %s: %v", histTemplateFile[k.Kind], err)
	}
	b.Write(out.Bytes())
	k.src = b.String()
	return k, nil
}

var histTemplates = func() *template.Template {
	t := template.New("hist")
	for _, f := range histTemplateFile {
		src, err := kernels.FS.ReadFile(f)
		if err != nil {
			panic("gpu: embedded template missing: " + f)
		}
		template.Must(t.New(f).Parse(string(src)))
	}
	return t
}()

var histPrelude = func() string {
	b, err := kernels.FS.ReadFile("hist_prelude.cu")
	if err != nil {
		panic("gpu: embedded hist_prelude.cu missing")
	}
	return string(b)
}()

// histModule is the CUDA module of one hist, scatter or multiscan statement.
type histModule struct {
	k     *histKernel
	body  string
	sites []errSite
}

func (m *histModule) source() string { return m.prelude() + "\n" + m.body }

// prelude is the fixed part of every histogram-family module.
func (m *histModule) prelude() string { return histModulePrelude }

var histModulePrelude = prelude + "\n" + histPrelude

// kernelNames are the module's kernels.
func (m *histModule) kernelNames() []string {
	switch m.k.Kind {
	case hkHist:
		ns := []string{m.k.Name + "_global"}
		if m.k.SharedOK() {
			ns = append(ns, m.k.Name+"_shared")
		}
		if m.k.Sortable() {
			ns = append(ns, m.k.Name+"_keys", m.k.Name+"_sorted")
		}
		return ns
	case hkMultiScan:
		n := m.k.Name
		return []string{n + "_agg", n + "_scan", n + "_out", n + "_aggs", n + "_outs", n + "_skeys", n + "_sagg", n + "_sscan", n + "_sout"}
	}
	return []string{m.k.Name}
}

// genHist renders the module of s, or returns an *unsupported error when s
// is no statement these kernels run.
func genHist(prog *core.Program, s *core.Stmt, lim Limits) (*histModule, error) {
	g := &histGen{prog: prog, lim: lim, sg: &scanGen{prog: prog, lim: lim, funs: map[string]bool{}}, block: 256}
	var k *histKernel
	var err error
	switch e := s.Exp.(type) {
	case *core.Hist:
		k, err = g.hist(s, e)
	case *core.Scatter:
		k, err = g.scatter(s, e)
	case *core.MultiScan:
		k, err = g.multiscan(s, e)
	default:
		return nil, unsup("%s is no histogram, scatter or multiscan", expName(s.Exp))
	}
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	sites := g.sg.sites
	if len(g.sg.funs) > 0 {
		gg := &generator{prog: prog, lim: lim, funs: g.sg.funs, sites: sites}
		if err := gg.deviceFuns(&b); err != nil {
			return nil, err
		}
		sites = gg.sites
		k.checks = true
	}
	b.WriteString(k.src)
	return &histModule{k: k, body: b.String(), sites: sites}, nil
}

// HistKernel returns the CUDA generated for the hist, scatter or multiscan
// statement s of prog (prelude and helpers left out), with the update
// method of every operator; it needs no GPU. A statement these kernels do
// not cover gives an error saying why.
func HistKernel(prog *core.Program, s *core.Stmt) (string, error) {
	m, err := genHist(prog, s, DefaultLimits)
	if err != nil {
		return "", err
	}
	var hdr strings.Builder
	hdr.WriteString("// arepl histogram-family module; prelude: kernels/prelude.cu, kernels/hist_prelude.cu\n")
	for o, op := range m.k.ops {
		fmt.Fprintf(&hdr, "// op %d: %s update of %v\n", o, updMethodName[op.method], op.ts)
	}
	return hdr.String() + m.body, nil
}
