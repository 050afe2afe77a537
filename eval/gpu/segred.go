package gpu

// Segmented reductions: `map (\row -> reduce op ne (map f row)) rows` over
// an inner dimension (issue 15). One statement gets several kernels, and
// the host picks one at run time from the row length w and the number of
// rows (pickSegRed), as Futhark's SegRed does:
//
//   - short rows (w <= segStagedMaxW): segred_staged.cu. A block reads a tile
//     of whole rows contiguously (coalesced, 16 loads in flight per thread,
//     the next tile's issued before this one folds), maps the elements into
//     shared memory, and then 1 to 32 threads per row fold the rows out of
//     shared memory. A thread per row reading its own row keeps one load in
//     flight and touches a new cache line every few elements: 0.24-0.70x a
//     copy at rows of 1, 4, 32 and 128, against 0.76-0.94x staged
//     (bench/RESULTS.md, "GPU segmented reductions", run 2).
//   - longer rows: segred.cu with a warp (w <= 4096) or a block per row.
//   - few long rows (at most half the blocks the device holds at once):
//     segred.cu's pieces variant, each row cut into aligned pieces, a block
//     each; every piece leaves its value in a partials array and the row's
//     last block to finish folds them in piece order.
//   - columns, `map (reduce ...) (transpose a)` of a row-major a, and the
//     same written with indices, `map (\j -> reduce ... (map (\i -> f
//     a[i, j]) (iota n))) (iota m)`: segred_cols.cu reads a in place, a
//     thread per column walking down the rows (neighbouring threads read
//     neighbouring addresses), the rows cut into one wave of blocks when
//     the columns are few. The transpose is not materialised: its
//     statement becomes a view (segView) that binds only its shape, which
//     columnViews allows only when nothing else reads the transposed array.
//
// Every strategy folds each row in order and combines pieces in order, so
// non-commutative operators stay correct.

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// segStrategy is how a segmented-reduction kernel maps rows to threads.
type segStrategy int

const (
	segGroup   segStrategy = iota // segred.cu: 1, 32 or 256 threads per row
	segPieces                     // segred.cu: a block per piece of a row, several per row
	segStaged                     // segred_staged.cu: short rows staged through shared memory
	segCols                       // segred_cols.cu: a thread per column of a transposed input
	segView                       // no kernel: a transpose that only a segCols kernel reads
	segColScan                    // scan_cols.cu: a thread per column scans down the rows (vecop.go)
)

var segTemplate = [...]string{segGroup: "segred.cu", segPieces: "segred.cu", segStaged: "segred_staged.cu", segCols: "segred_cols.cu", segView: "", segColScan: "scan_cols.cu"}

// segInfo is a segmented-reduction kernel's strategy and its parameters.
type segInfo struct {
	strategy segStrategy
	group    int         // segGroup, segPieces: threads per row (or piece)
	stageU   int         // segStaged: elements each thread loads per tile
	cols     []*core.Var // segCols, segColScan: the arrays read by column, one per input
	viewOf   *core.Var   // segView: the array transposed
	// rowCheck, for the column kernels of vector operators (vecop.go):
	// the statement whose failure to report (map2's size assertion, or
	// the SOAC) when an input's rows are not as long as the neutral
	// element.
	rowCheck *core.Stmt
}

const (
	// segStagedMaxW is the longest row the staged kernel takes; longer
	// rows read coalesced with a warp per row. Rows of 256 ran at 0.98x a
	// copy with a warp per row (bench/RESULTS.md, GPU nested).
	segStagedMaxW = 128
	// segStageBytes bounds the staged kernel's shared tile.
	segStageBytes = 32 << 10
	// segStageInBytes bounds the input a staged thread loads at once (its
	// registers).
	segStageInBytes = 64
	// segColU is the rows a column thread loads before folding them.
	segColU = 4
	// segMinPiece is the fewest elements per thread a piece of a row (or
	// of a column) is cut to: below it, the partials and tickets cost more
	// than the parallelism gains.
	segMinPiece = 64
	// segAlign is the granule, in elements, of a row's pieces: their loads
	// stay aligned to cache lines. (Rows of 2^24 cut into 66 unaligned
	// pieces ran at 0.74x a copy, rows of 2^20 in 4 aligned ones at 1.02x.)
	segAlign = 1024
)

// noFunction reports whether k has no device function (a view).
func (k *kernel) noFunction() bool { return k.Kind == kSegRed && k.seg.strategy == segView }

// segTemplateName is the template file of a segmented-reduction kernel.
func (k *kernel) segTemplateName() string { return segTemplate[k.seg.strategy] }

// segFamily generates the kernels of a segmented reduction over rows: a
// warp and a block per row, blocks per piece of a row, and the staged
// kernel for short rows (or, when its tile does not fit in shared memory,
// a thread per row).
func (g *generator) segFamily(s *core.Stmt, op *core.Screma, outer []core.Atom) ([]*kernel, error) {
	var ks []*kernel
	sis := []segInfo{{strategy: segGroup, group: 32}, {strategy: segGroup, group: 256}, {strategy: segPieces, group: 256}}
	if u := stageU(op); u > 0 {
		sis = append(sis, segInfo{strategy: segStaged, stageU: u})
	} else {
		sis = append(sis, segInfo{strategy: segGroup, group: 1})
	}
	for _, si := range sis {
		k, err := g.kernel(s, op, outer, si)
		if err != nil {
			return nil, err
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// forceStageU, when positive, replaces stageU's choice (for measuring:
// BenchmarkNested's -gpubench.seg).
var forceStageU int

// forceSeg, when not empty, names the kernel pickSegRed takes for rows
// (segName's suffix: "segred_g1", "segred_staged", ...), if the
// statement has it (for measuring: BenchmarkNested's -gpubench.seg).
var forceSeg string

// stageU is the elements per thread of the staged kernel's tile: 64
// bytes of input a thread in flight (16 elements of one 4-byte input:
// against 8 and 4, which measured slower, bench/RESULTS.md), at least 4,
// fewer where the values to reduce are too wide for the tile to fit in
// segStageBytes, 0 where even 4 would not fit.
func stageU(op *core.Screma) int {
	if forceStageU > 0 {
		return forceStageU
	}
	bytes, in := 0, 0
	for _, r := range op.Reds {
		for _, ne := range r.Neutral {
			bytes += ne.AtomType().Elem.Size()
		}
	}
	for _, a := range op.Arrs {
		in += a.Type.Elem.Size()
	}
	for u := 16; u >= 4; u /= 2 {
		e := 256 * u
		if (u == 4 || u*in <= segStageInBytes) && (e+e/32)*bytes <= segStageBytes {
			return u
		}
	}
	return 0
}

// Pieces reports whether a segred.cu kernel cuts rows into pieces.
func (k *kernel) Pieces() bool { return k.seg.strategy == segPieces }

// StageU is the staged kernel's elements per thread and tile.
func (k *kernel) StageU() int { return k.seg.stageU }

// StageElems is the staged kernel's tile, in elements.
func (k *kernel) StageElems() int { return k.Block * k.seg.stageU }

// StageDecl declares the staged kernel's shared tiles (ar_tile_j, indexed
// through ar_pad) and the registers a tile is loaded into (ar_x<u>_<j>).
func (k *kernel) StageDecl(indent int) string {
	e := k.StageElems()
	var b []byte
	for j, t := range k.Red {
		if j > 0 {
			b = append(b, '\n')
		}
		b = fmt.Appendf(b, "%s__shared__ %s ar_tile_%d[%d];", ind(indent), ctype(t), j, e+e/32)
	}
	for u := 0; u < k.seg.stageU; u++ {
		for j, t := range k.In {
			b = fmt.Appendf(b, "\n%s%s ar_x%d_%d;", ind(indent), ctype(t), u, j)
		}
	}
	return string(b)
}

// StagePrefetch loads a tile into the registers ar_x<u>_<j>: every
// thread its StageU elements, predicated on the tile's count (ar_ncount,
// from ar_nbase), so that the loads are in flight together.
func (k *kernel) StagePrefetch(indent int) string {
	in := ind(indent)
	var b []byte
	for u := 0; u < k.seg.stageU; u++ {
		for j := range k.In {
			b = fmt.Appendf(b, "%sif (%d + (int)threadIdx.x < ar_ncount) ar_x%d_%d = ar_in%d[ar_nbase + %d + (int)threadIdx.x];\n", in, u*k.Block, u, j, j, u*k.Block)
		}
	}
	return strings.TrimSuffix(string(b), "\n")
}

// StageMap maps the tile in the registers and stores the values to reduce
// in the shared tiles (map-outs go to memory, coalesced). Rows of one
// element skip the tile: each thread folds its elements into the neutral
// element and stores them as results, coalesced (the fold after the tile
// is then skipped too).
func (k *kernel) StageMap(indent int) string {
	in := ind(indent)
	var b []byte
	b = fmt.Appendf(b, "%sif (ar_sw == 1) {\n", in)
	for u := 0; u < k.seg.stageU; u++ {
		b = fmt.Appendf(b, "%s  if (%d + (int)threadIdx.x < ar_count) {\n%s    const int ar_e%d = %d + (int)threadIdx.x;\n", in, u*k.Block, in, u, u*k.Block)
		b = append(b, k.Decl("ar_one", indent+4)...)
		b = append(b, '\n')
		b = append(b, k.Apply(fmt.Sprintf("ar_base + ar_e%d", u), "0", fmt.Sprint(u), "ar_one", indent+4)...)
		b = append(b, '\n')
		b = append(b, k.StoreResult("ar_one", fmt.Sprintf("ar_s0 + ar_e%d", u), indent+4)...)
		b = fmt.Appendf(b, "\n%s  }\n", in)
	}
	b = fmt.Appendf(b, "%s} else {\n", in)
	for u := 0; u < k.seg.stageU; u++ {
		b = fmt.Appendf(b, "%s  if (%d + (int)threadIdx.x < ar_count) {\n%s    const int ar_e%d = %d + (int)threadIdx.x;\n", in, u*k.Block, in, u, u*k.Block)
		b = append(b, k.ApplyTo(fmt.Sprintf("ar_base + ar_e%d", u), fmt.Sprintf("ar_e%d %% ar_sw", u), fmt.Sprint(u), "ar_tile", fmt.Sprintf("ar_pad(ar_e%d)", u), indent+4)...)
		b = fmt.Appendf(b, "\n%s  }\n", in)
	}
	b = fmt.Appendf(b, "%s}", in)
	return string(b)
}

// SubShuffle is one step of the staged kernel's fold of a row's ar_sub
// threads: lane l takes lane l+ar_off's value when l is a multiple of
// 2*ar_off, so the threads' chunks combine in order.
func (k *kernel) SubShuffle(acc string, indent int) string {
	in := ind(indent)
	var b []byte
	xs := make([]string, len(k.Red))
	for j, t := range k.Red {
		xs[j] = fmt.Sprintf("ar_sh_%d", j)
		b = fmt.Appendf(b, "%s%s %s = ar_shfl_down(%s_%d, ar_off);\n", in, ctype(t), xs[j], acc, j)
	}
	b = fmt.Appendf(b, "%sif ((ar_lane & (2 * ar_off - 1)) == 0) {\n", in)
	var c strings.Builder
	k.combine(&c, acc, xs, indent+2)
	b = append(b, c.String()...)
	b = fmt.Appendf(b, "%s}", in)
	return string(b)
}

// ColU is the rows a column thread loads before folding them.
func (k *kernel) ColU() int { return segColU }

// ColLoad loads ColU rows of the thread's column, then maps and folds
// them in row order.
func (k *kernel) ColLoad(indent int) string {
	in := ind(indent)
	var b []byte
	for u := 0; u < segColU; u++ {
		for j, t := range k.In {
			b = fmt.Appendf(b, "%s%s ar_x%d_%d = ar_in%d[(ar_j + %d) * ar_segs + ar_s];\n", in, ctype(t), u, j, j, u)
		}
	}
	for u := 0; u < segColU; u++ {
		b = append(b, k.Apply(fmt.Sprintf("(ar_j + %d) * ar_segs + ar_s", u), fmt.Sprintf("ar_j + %d", u), fmt.Sprint(u), "ar_acc", indent)...)
		b = append(b, '\n')
	}
	return string(b[:len(b)-1])
}

// StorePartial writes acc to the partials at slot.
func (k *kernel) StorePartial(acc, slot string, indent int) string {
	var b []byte
	for j := range k.Red {
		if j > 0 {
			b = append(b, '\n')
		}
		b = fmt.Appendf(b, "%sar_part%d[%s] = %s_%d;", ind(indent), j, slot, acc, j)
	}
	return string(b)
}

// FoldPartial folds the partial at slot into acc, reading past the cache
// (another block wrote it).
func (k *kernel) FoldPartial(acc, slot string, indent int) string {
	var c strings.Builder
	xs := make([]string, len(k.Red))
	for j, t := range k.Red {
		xs[j] = fmt.Sprintf("ar_pq_%d", j)
		fmt.Fprintf(&c, "%s%s %s = ((volatile %s *)ar_part%d)[%s];\n", ind(indent), ctype(t), xs[j], ctype(t), j, slot)
	}
	k.combine(&c, acc, xs, indent)
	s := c.String()
	return s[:len(s)-1]
}

// segParams are a segmented reduction's leading parameters (before the
// environment) and trailing ones (after the results).
func (k *kernel) segParams() (head, tail []kparam) {
	head = []kparam{{kind: pN, name: "ar_segs"}, {kind: pExtra, name: "ar_w"}}
	switch k.seg.strategy {
	case segPieces:
		head = append(head, kparam{kind: pExtra, name: "ar_parts"}, kparam{kind: pExtra, name: "ar_chunk"})
	case segStaged:
		head = append(head, kparam{kind: pExtra, name: "ar_spt"}, kparam{kind: pExtra, name: "ar_sub"})
	case segCols:
		head = append(head, kparam{kind: pExtra, name: "ar_chunk"})
	case segGroup, segView, segColScan:
	}
	if k.seg.strategy == segPieces || k.seg.strategy == segCols {
		for j, t := range k.Red {
			tail = append(tail, kparam{kind: pPartial, k: j, t: t})
		}
		tail = append(tail, kparam{kind: pCounter})
	}
	return head, tail
}

// segName is the kernel name's suffix for a strategy.
func (si segInfo) segName() string {
	switch si.strategy {
	case segStaged:
		return "segred_staged"
	case segCols:
		return "segred_cols"
	case segView:
		return "view"
	case segColScan:
		return "scan_cols"
	case segPieces:
		return "segred_pieces"
	}
	return fmt.Sprintf("segred_g%d", si.group)
}

// segPlan describes a segmented reduction's strategies for plans.
func segPlan(ks []*kernel) string {
	k := ks[0]
	switch k.seg.strategy {
	case segCols:
		var src []string
		for _, v := range k.seg.cols {
			src = append(src, v.Name)
		}
		return fmt.Sprintf("a thread per column of %s, read in place (no transpose), rows split over blocks when the columns are few", strings.Join(src, ", "))
	case segColScan:
		return fmt.Sprintf("a scan along the rows: a thread per column of %s, read and written in place", k.seg.cols[0].Name)
	case segView:
		return ""
	case segGroup, segPieces, segStaged:
	}
	short := "a thread per segment"
	for _, k := range ks {
		if k.seg.strategy == segStaged {
			short = "1-32 threads per segment, coalesced through shared memory"
		}
	}
	return fmt.Sprintf("by segment length: up to %d %s; up to 4096 a warp per segment; longer a block per segment, or N blocks per segment when the segments are too few to fill the GPU", segStagedMaxW, short)
}

// columnViews finds, in body b, the segmented reductions whose every input
// is a transpose of a rank-2 array that nothing else reads but sizes, and
// whose map writes no map-outs: each gets a column kernel, and each such
// transpose a view (generated here, before walk reaches either).
func (g *generator) columnViews(b *core.Body) error {
	defs := map[string]*core.Stmt{}
	for _, s := range b.Stmts {
		for _, v := range s.Pat {
			defs[v.Name] = s
		}
	}
	for _, s := range b.Stmts {
		e, ok := s.Exp.(*core.Segmented)
		if !ok || e.Op == nil || len(e.Outer) != 1 || len(e.Op.Reds) == 0 || len(e.Op.Scans) > 0 || e.Op.Post != nil || len(e.Op.Arrs) == 0 {
			continue
		}
		width := 0
		for _, r := range e.Op.Reds {
			width += len(r.Neutral)
		}
		if len(e.Op.Map.Ret) != width {
			continue
		}
		var trs []*core.Stmt
		var srcs []*core.Var
		for _, a := range e.Op.Arrs {
			t := defs[a.Name]
			if t == nil {
				break
			}
			tr, ok := t.Exp.(*core.TransposeExp)
			if !ok || tr.Arr.Type.Rank != 2 || a.Type.Rank != 2 || !onlySizesRead(b, a, s) {
				break
			}
			trs, srcs = append(trs, t), append(srcs, tr.Arr)
		}
		if len(trs) != len(e.Op.Arrs) {
			continue
		}
		ok, err := g.columnKernel(s, e.Op, e.Outer, srcs)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		for i, t := range trs {
			g.m.kernels[t] = []*kernel{{Name: "view_" + t.Pat[0].Name, Kind: kSegRed, Stmt: t, seg: segInfo{strategy: segView, viewOf: srcs[i]}}}
		}
	}
	return nil
}

// columnKernel generates the column kernel of s, reducing the columns of
// srcs (row-major, op's rows being their columns); ok is false, and
// nothing is kept, where the kernel family does not cover op.
func (g *generator) columnKernel(s *core.Stmt, op *core.Screma, outer []core.Atom, srcs []*core.Var) (ok bool, err error) {
	return g.columnKernelOf(s, op, outer, segInfo{strategy: segCols, cols: srcs})
}

// columnKernelOf generates the column kernel si of s (segCols or
// segColScan); ok is false, and nothing is kept, where the kernel family
// does not cover op.
func (g *generator) columnKernelOf(s *core.Stmt, op *core.Screma, outer []core.Atom, si segInfo) (ok bool, err error) {
	saved := make(map[string]bool, len(g.funs))
	for f := range g.funs {
		saved[f] = true
	}
	nsites := len(g.sites)
	k, err := g.kernel(s, op, outer, si)
	if err == nil {
		var scratch strings.Builder
		err = g.deviceFuns(&scratch)
	}
	if isUnsupported(err) {
		g.funs = saved
		g.sites = g.sites[:nsites]
		return false, nil
	}
	if err != nil {
		return false, err
	}
	g.kbuf.WriteString(k.src)
	g.m.kernels[s] = []*kernel{k}
	return true, nil
}

// columnIota recognises a reduction over the outer dimension written with
// indices, `map (\j -> reduce op ne (map (\i -> f a[i, j]) (iota n)))
// (iota m)` for an a of shape [n][m] whose own sizes n and m are the
// widths (so no index can fall outside): the column kernel runs it as the
// column reduction of transpose a, the read a[i, j] becoming the element
// of column j. f must not use j otherwise; sizes maps the size variables
// of the body to the array and dimension they measure.
func (g *generator) columnIota(s *core.Stmt, e *core.Screma, sizes map[string]arrayDim) (bool, error) {
	if e.Index == nil || len(e.Arrs) > 0 || len(e.Scans) > 0 || len(e.Reds) > 0 || e.Post != nil ||
		len(e.Map.Params) > 0 || len(e.Map.Body.Stmts) != 1 {
		return false, nil
	}
	inner, ok := e.Map.Body.Stmts[0].Exp.(*core.Screma)
	if !ok || inner.Index == nil || len(inner.Arrs) > 0 || len(inner.Reds) == 0 || len(inner.Scans) > 0 ||
		inner.Post != nil || len(inner.Map.Params) > 0 {
		return false, nil
	}
	width := 0
	for _, r := range inner.Reds {
		width += len(r.Neutral)
	}
	pat := e.Map.Body.Stmts[0].Pat
	if len(inner.Map.Ret) != width || len(pat) != width || len(e.Map.Body.Result) != width {
		return false, nil
	}
	for i, r := range e.Map.Body.Result {
		if v, ok := r.(*core.Var); !ok || v.Name != pat[i].Name {
			return false, nil
		}
	}
	// The one read a[i, j].
	i, j := inner.Index.Name, e.Index.Name
	var read *core.Stmt
	var a *core.Var
	for _, st := range inner.Map.Body.Stmts {
		x, ok := st.Exp.(*core.IndexExp)
		if !ok || len(x.Idx) != 2 || x.Arr.Type.Rank != 2 || len(st.Pat) != 1 {
			continue
		}
		if isVarAtom(x.Idx[0].Fix, i) && isVarAtom(x.Idx[1].Fix, j) {
			if read != nil {
				return false, nil
			}
			read, a = st, x.Arr
		}
	}
	if read == nil || !sizeIs(sizes, inner.W, a, 0) || !sizeIs(sizes, e.W, a, 1) {
		return false, nil
	}
	p := &core.Var{Name: "ar_col_" + read.Pat[0].Name, Type: core.Scalar(a.Type.Elem)}
	body := &core.Body{Result: inner.Map.Body.Result}
	for _, st := range inner.Map.Body.Stmts {
		if st == read {
			st = &core.Stmt{Pat: st.Pat, Exp: &core.AtomExp{A: p}, Pos: st.Pos}
		}
		body.Stmts = append(body.Stmts, st)
	}
	op := &core.Screma{W: inner.W, Arrs: []*core.Var{a}, Index: inner.Index,
		Map: &core.Lambda{Params: []*core.Var{p}, Body: body, Ret: inner.Map.Ret}, Reds: inner.Reds}
	// j must be gone: the column kernel binds no column index.
	if uses(j, op) > 0 {
		return false, nil
	}
	return g.columnKernel(s, op, []core.Atom{e.W}, []*core.Var{a})
}

// arrayDim is an array and one of its dimensions.
type arrayDim struct {
	arr string
	dim int
}

// sizeVars maps the variables of b bound to sizes of arrays.
func sizeVars(b *core.Body) map[string]arrayDim {
	m := map[string]arrayDim{}
	for _, s := range b.Stmts {
		if x, ok := s.Exp.(*core.SizeExp); ok && len(s.Pat) == 1 {
			m[s.Pat[0].Name] = arrayDim{x.Arr.Name, x.Dim}
		}
	}
	return m
}

func sizeIs(sizes map[string]arrayDim, w core.Atom, a *core.Var, dim int) bool {
	v, ok := w.(*core.Var)
	return ok && sizes[v.Name] == arrayDim{a.Name, dim}
}

func isVarAtom(a *core.Atom, name string) bool {
	if a == nil {
		return false
	}
	v, ok := (*a).(*core.Var)
	return ok && v.Name == name
}

// uses counts the reads of variable name in op (its lambdas and atoms).
func uses(name string, op *core.Screma) int {
	n := 0
	var vis visitor
	vis = visitor{
		atom: func(a core.Atom) {
			if v, ok := a.(*core.Var); ok && v.Name == name {
				n++
			}
		},
		lambda: func(l *core.Lambda, _ []*core.Var) { countIn(l.Body, vis) },
		body:   func(bb *core.Body, _ []*core.Var) { countIn(bb, vis) },
	}
	vis.screma(op)
	return n
}

// onlySizesRead reports whether x, bound in b, is read only by user (once)
// and by size expressions of b's own statements: nested bodies, lambdas
// and b's results must not see it.
func onlySizesRead(b *core.Body, x *core.Var, user *core.Stmt) bool {
	n := 0
	count := func(a core.Atom) {
		if v, ok := a.(*core.Var); ok && v.Name == x.Name {
			n++
		}
	}
	var vis visitor
	vis = visitor{
		atom:   count,
		lambda: func(l *core.Lambda, _ []*core.Var) { countIn(l.Body, vis) },
		body:   func(bb *core.Body, _ []*core.Var) { countIn(bb, vis) },
	}
	for _, s := range b.Stmts {
		if sz, ok := s.Exp.(*core.SizeExp); ok && sz.Arr.Name == x.Name {
			continue
		}
		before := n
		if err := vis.exp(s.Exp); err != nil {
			return false
		}
		if s == user {
			if n-before != 1 {
				return false
			}
			n = before
		}
	}
	vis.atoms(b.Result...)
	return n == 0
}

func countIn(b *core.Body, vis visitor) {
	for _, s := range b.Stmts {
		_ = vis.exp(s.Exp)
	}
	vis.atoms(b.Result...)
}

// segChoice is the kernel and launch geometry chosen for one run.
type segChoice struct {
	k                  *kernel
	grid, gridY        int64
	parts, chunk       int64 // segGroup, segCols: pieces per row (column) and their length
	spt, sub           int64 // segStaged: rows per tile, threads per row in the fold
	counters           int64 // tickets the pieces need (0: none)
	partialsPerSegment int64
}

// pickSegRed chooses the kernel of ks for segs rows of w elements and its
// launch geometry, given the multiprocessors and each kernel's resident
// blocks per multiprocessor (occ).
func pickSegRed(ks []*kernel, segs, w int64, sms int64, occ func(*kernel) int64) segChoice {
	if ks[0].seg.strategy == segColScan {
		// Each column is scanned by one thread, start to end.
		return segChoice{k: ks[0], grid: max(1, ceilDiv(segs, int64(ks[0].Block))), gridY: 1}
	}
	if ks[0].seg.strategy == segCols {
		// One wave: the row pieces fill the resident blocks the columns
		// leave free, so that every block reads about as much.
		k := ks[0]
		c := segChoice{k: k, grid: max(1, ceilDiv(segs, int64(k.Block))), gridY: 1, chunk: max(w, 1)}
		if y := min(sms*occ(k)/c.grid, w/segMinPiece, 65535); y > 1 {
			c.chunk = ceilDiv(w, y)
			c.gridY = ceilDiv(w, c.chunk)
			c.counters = c.grid
			c.partialsPerSegment = c.gridY
		}
		return c
	}
	by := func(name string) *kernel {
		for _, k := range ks {
			if k.seg.segName() == name {
				return k
			}
		}
		return nil
	}
	if k := by(forceSeg); k != nil {
		return segChoiceFor(k, segs, w, sms, occ)
	}
	name := "segred_g256"
	switch {
	case w >= 1 && w <= segStagedMaxW && by("segred_staged") != nil:
		name = "segred_staged"
	case w <= 8 && by("segred_g1") != nil:
		name = "segred_g1"
	case w <= 4096:
		name = "segred_g32"
	case by("segred_pieces") != nil && segs <= sms*occ(by("segred_pieces"))/2 && w >= 2*segMinPiece*256:
		name = "segred_pieces"
	}
	return segChoiceFor(by(name), segs, w, sms, occ)
}

// segChoiceFor is the launch geometry of row kernel k for segs rows of w.
func segChoiceFor(k *kernel, segs, w int64, sms int64, occ func(*kernel) int64) segChoice {
	resident := sms * occ(k)
	if k.seg.strategy == segStaged && w >= 1 && w <= int64(k.StageElems()) {
		c := segChoice{k: k, spt: int64(k.StageElems()) / w, sub: 1}
		for c.sub < 32 && c.spt*c.sub*2 <= int64(k.Block) {
			c.sub *= 2
		}
		c.grid = max(1, min(ceilDiv(segs, c.spt), resident))
		return c
	}
	if k.seg.strategy == segStaged {
		return segChoice{k: k, spt: 1, sub: 1, grid: max(1, min(segs, resident))} // empty rows: each tile a row
	}
	c := segChoice{k: k, parts: 1, chunk: w}
	if k.seg.strategy == segPieces {
		// Few long rows: several blocks per row, one wave of pieces, each
		// piece a multiple of segAlign elements (aligned loads).
		p := max(1, min(resident/max(segs, 1), w/(segMinPiece*int64(k.Block))))
		c.chunk = max(1, ceilDiv(ceilDiv(w, p), segAlign)*segAlign)
		c.parts = max(1, ceilDiv(w, c.chunk))
		c.counters = segs
		c.partialsPerSegment = c.parts
	}
	per := int64(k.Block / k.seg.group) // rows a block takes at once
	c.grid = max(1, min(ceilDiv(segs*c.parts, per), resident))
	return c
}

// launchSegRed runs a segmented reduction (or binds a view, segView).
func (r *run) launchSegRed(s *core.Stmt, ks []*kernel, env map[string]eval.Value) error {
	if ks[0].seg.strategy == segView {
		// The column kernel reads the source; the transpose binds its
		// shape, for the size statements (columnViews checked that nothing
		// else reads it).
		v, err := r.value(ks[0].seg.viewOf, env)
		if err != nil {
			return err
		}
		if len(v.Shape) != 2 {
			return fmt.Errorf("internal error: transpose of a rank-%d array as a view", len(v.Shape))
		}
		v.Shape = []int64{v.Shape[1], v.Shape[0]}
		env[s.Pat[0].Name] = v
		return nil
	}
	op := ks[0].Op
	w, segs, outer, err := r.segShape(s, ks[0], env)
	if err != nil {
		return err
	}
	n := w * segs
	c := pickSegRed(ks, segs, w, int64(r.b.lim.SMs), func(k *kernel) int64 { return int64(r.l.occ[k.Name]) })
	k := c.k
	alloc := func(t core.PrimType, count int64) (*devArray, error) {
		if count < 0 || count > maxAlloc/int64(t.Size()) {
			return nil, source.Errorf(s.Pos, "cannot allocate %d elements of %d bytes", count, t.Size())
		}
		d, err := newDevArray(r.b.g, t, count)
		if err != nil {
			if cuda.Sticky(err) {
				return nil, err
			}
			return nil, source.Errorf(s.Pos, "cannot allocate %d bytes on the GPU: %v", count*int64(t.Size()), err)
		}
		return d, nil
	}
	var outs, results []*devArray
	for _, t := range k.Out {
		d, err := alloc(t, n)
		if err != nil {
			return err
		}
		r.temps = append(r.temps, d)
		outs = append(outs, d)
	}
	// A column scan gives a prefix per element, a reduction one value
	// per segment.
	// With no rows, the scan's rows keep the input's width (as on the
	// CPU), whatever the neutral element's.
	resCount, resShape := segs, outer
	if k.seg.strategy == segColScan {
		v, err := r.value(k.seg.cols[0], env)
		if err != nil {
			return err
		}
		if len(v.Shape) != 2 {
			return fmt.Errorf("internal error: a column scan of a rank-%d array", len(v.Shape))
		}
		resCount, resShape = n, []int64{w, v.Shape[1]}
	}
	for _, t := range k.Red {
		d, err := alloc(t, resCount)
		if err != nil {
			return err
		}
		r.temps = append(r.temps, d)
		results = append(results, d)
	}
	// Partials and tickets live for this launch only.
	var parts []*devArray
	var counters *devArray
	if c.counters > 0 {
		for _, t := range k.Red {
			d, err := alloc(t, segs*c.partialsPerSegment)
			if err != nil {
				return err
			}
			defer d.Free()
			parts = append(parts, d)
		}
		if counters, err = alloc(core.U32, c.counters); err != nil {
			return err
		}
		defer counters.Free()
		if err := r.b.g.Memset(counters.ptr(), 0, counters.bytes); err != nil {
			return err
		}
	}
	if k.seg.rowCheck != nil && w > 0 {
		if err := r.checkRows(k, segs, env); err != nil {
			return err
		}
	}
	var args []any
	var bytes int64
	for _, p := range k.params {
		switch p.kind {
		case pN:
			args = append(args, segs)
		case pExtra:
			v := map[string]int64{"ar_w": w, "ar_parts": c.parts, "ar_chunk": c.chunk, "ar_spt": c.spt, "ar_sub": c.sub}
			x, ok := v[p.name]
			if !ok {
				return fmt.Errorf("internal error: segmented-reduction parameter %s", p.name)
			}
			args = append(args, x)
		case pErr:
			args = append(args, r.b.errFlag)
		case pScalar:
			v, err := r.host(p.v, env)
			if err != nil {
				return err
			}
			a, err := scalarArg(v)
			if err != nil {
				return err
			}
			args = append(args, a)
		case pArray:
			d, _, err := r.device(p.v, env)
			if err != nil {
				return err
			}
			args = append(args, d.ptr())
		case pDim:
			v, err := r.value(p.v, env)
			if err != nil {
				return err
			}
			if p.k >= len(v.Shape) {
				return fmt.Errorf("internal error: %s has rank %d", p.v.Name, len(v.Shape))
			}
			args = append(args, v.Shape[p.k])
		case pIn:
			src := op.Arrs[p.k]
			if k.seg.cols != nil {
				src = k.seg.cols[p.k]
			}
			d, v, err := r.device(src, env)
			if err != nil {
				return err
			}
			if v.Len() != n {
				return fmt.Errorf("internal error: %s has %d elements, the SOAC %d", src.Name, v.Len(), n)
			}
			bytes += d.bytes
			args = append(args, d.ptr())
		case pOut:
			bytes += outs[p.k].bytes
			args = append(args, outs[p.k].ptr())
		case pPartial:
			if parts == nil {
				args = append(args, cuda.Ptr(0))
				continue
			}
			args = append(args, parts[p.k].ptr())
		case pResult:
			bytes += results[p.k].bytes
			args = append(args, results[p.k].ptr())
		case pCounter:
			if counters == nil {
				args = append(args, cuda.Ptr(0))
				continue
			}
			args = append(args, counters.ptr())
		case pConst:
			a, err := scalarArg(eval.Scalar(p.c))
			if err != nil {
				return err
			}
			args = append(args, a)
		default:
			return fmt.Errorf("internal error: parameter kind %d", p.kind)
		}
	}
	// Empty rows still give each row its neutral element.
	if segs > 0 {
		grid := cuda.Dim3{X: uint32(c.grid), Y: uint32(max(c.gridY, 1))}
		d, err := r.l.funcs[k.Name].Launch(grid, cuda.Dim3{X: uint32(k.Block)}, 0, args...)
		if err != nil {
			return err
		}
		r.t.Run += d
		r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: k.Name, Time: d, Bytes: bytes})
		if k.checks {
			if err := r.checkError(); err != nil {
				return err
			}
		}
	}
	var vals []eval.Value
	for j, d := range results {
		vals = append(vals, eval.Value{Elem: k.Red[j], Shape: append([]int64(nil), resShape...), Dev: d})
	}
	for j, d := range outs {
		vals = append(vals, eval.Value{Elem: k.Out[j], Shape: append(append([]int64(nil), outer...), w), Dev: d})
	}
	if len(vals) != len(s.Pat) {
		return fmt.Errorf("internal error: kernel %s gives %d values for %d variables", k.Name, len(vals), len(s.Pat))
	}
	for i, v := range s.Pat {
		env[v.Name] = vals[i]
	}
	return nil
}
