package gpu

// The segmented-map kernel: one thread per point of a nest's index space
// (nest.go), in a grid-stride loop over the flattened space, innermost
// dimension fastest so that neighbouring threads write neighbouring
// elements of the results. Each thread binds the levels' indices and row
// parameters, repeats the levels' preludes, runs the innermost body with
// the array support of inkernel.go, and stores its results.
//
// Kernels whose threads make arrays (or whose results are arrays) take a
// scratch buffer, and the host runs them in two steps: a probe, one thread
// on element 0, which reports the scratch slots one element needs and the
// shape of array results (regular arrays: every element's result has that
// shape, which the full launch checks); then the full launch, repeated with
// more scratch if some element needed more than element 0.
//
// Two forms skip work the general one does at every point. A pure
// element-wise nest (map (map f) a, map2 of rows of arrays of the nest's
// rank) is flat: point g reads element g of each array, so the kernel keeps
// no per-level index and moves 4-byte elements as 16-byte vectors
// (flatLoop). Otherwise, where every read of a kernel array can be proved in
// bounds for every point from conditions on the launch's sizes (ranges.go),
// the body is emitted a second time without those checks, and each thread
// runs that copy when the conditions hold; and a third time with its index
// arithmetic, read offsets and loop in 32 bits (narrowLoop), for launches
// whose sizes and intervals all fit; and, where some read of a kernel array
// is a row's element at the innermost index plus a constant, four more
// times, a lane each of a step of four neighbouring points whose rows are
// read as 16-byte vectors (vecstep.go).
//
// Inside a `for` loop on the host, launches are queued without waiting
// (launchAsync) and a iteration's result reuses the array the iteration
// replaced (takeSpare): a stencil iterated 100 times runs its kernels back
// to back.

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// segmap generates the segmented-map kernel of s.
func (g *generator) segmap(s *core.Stmt) (*kernel, error) {
	n, err := nestOf(s)
	if err != nil {
		return nil, err
	}
	return g.segmapOf(s, n)
}

// segmapOf generates the segmented-map kernel of nest n of s: the flat
// form where the nest is a pure element-wise map (flatBases), else the
// general one. A flat try whose body turns out to need scratch (thread-local
// arrays) is dropped, its check sites with it, and the general form made.
func (g *generator) segmapOf(s *core.Stmt, n *nest) (*kernel, error) {
	if fb := flatBases(n); fb != nil {
		nsites, gn := len(g.sites), g.n
		k, err := g.segmapEmit(s, n, fb)
		if err != nil || !k.Scratch {
			return k, err
		}
		g.sites, g.n = g.sites[:nsites], gn
	}
	return g.segmapEmit(s, n, nil)
}

// segmapUnroll is how many points of the space a thread of a flat segmented
// map loads before it runs their bodies: one load in flight per thread
// left the 2-D map at 0.83 of a copy (bench/RESULTS.md, issue 15), the
// memory system needs several. A variable so that the benchmark can sweep it.
var segmapUnroll = 4

// segmapMinBlocks, when positive, asks the compiler for that many resident
// blocks a multiprocessor (launch bounds), capping registers: a variable
// so that the benchmark can measure it on the stencil.
var segmapMinBlocks = 0

// flatBases decides whether nest n is a pure element-wise map over
// row-major arrays: every level binds rows (then, innermost, elements) of
// arrays of the level above and nothing else (no index, no iota, no
// prelude), the outermost level's arrays have exactly the nest's rank, the
// body reads no row of an outer level, and every result is a scalar. Then
// the point of the space with flat number g reads element g of each base
// array, and the kernel needs no per-level index at all. It returns the
// base array of each innermost parameter the body reads, or nil.
func flatBases(n *nest) map[string]*core.Var {
	d := len(n.Levels)
	for _, t := range n.Ret {
		if t.IsArray() {
			return nil
		}
	}
	base := map[string]*core.Var{}
	for li, l := range n.Levels {
		if l.Index != nil || len(l.Iotas) > 0 {
			return nil
		}
		for _, st := range l.Pre {
			// The unfused form sizes the rows (n = length row): a size
			// of a base array, the same at every point.
			// map2's check that the rows agree is scalar code on sizes.
			switch x := st.Exp.(type) {
			case *core.SizeExp:
				if _, ok := base[x.Arr.Name]; !ok || len(st.Pat) != 1 {
					return nil
				}
			case *core.BinOpExp, *core.UnOpExp, *core.AssertExp:
			default:
				return nil
			}
		}
		for j, p := range l.Params {
			arr := l.Arrs[j]
			if p.Type.IsArray() != (li < d-1) {
				return nil
			}
			if li == 0 {
				if arr.Type.Rank != d {
					return nil
				}
				base[p.Name] = arr
				continue
			}
			b, ok := base[arr.Name]
			if !ok {
				return nil
			}
			base[p.Name] = b
		}
	}
	fs := newFreeSet()
	fs.stmts(n.Body.Stmts, n.Body.Result, map[string]bool{})
	if fs.err != nil {
		return nil
	}
	used := map[string]*core.Var{}
	for li, l := range n.Levels {
		for _, p := range l.Params {
			if !fs.seen[p.Name] {
				continue
			}
			if li < d-1 {
				return nil // the body reads a whole row
			}
			used[p.Name] = base[p.Name]
		}
	}
	return used
}

// emitPoint renders what a thread runs for one point of nest n's space:
// each level's prelude and the binding of its index and parameters, then
// the innermost body. With e.rng set, it also gives the levels' indices
// their intervals (ranges.go).
func emitPoint(e *emitter, n *nest) error {
	for li, l := range n.Levels {
		for _, st := range l.Pre {
			if err := e.stmt(st); err != nil {
				return err
			}
		}
		idx := fmt.Sprintf("ar_lvl%d", li)
		whole := interval{lo: "((i64)0LL)", hi: fmt.Sprintf("(ar_space%d - 1)", li)}
		if l.Index != nil {
			e.line("const i64 %s = %s;", cname(l.Index.Name), idx)
			if e.rng != nil {
				e.rng.vars[l.Index.Name] = whole
			}
		}
		for j, p := range l.Params {
			if io := l.Iotas[l.Arrs[j].Name]; io != nil {
				// An element of an iota is index arithmetic.
				start, err := atom(io.Start)
				if err != nil {
					return err
				}
				step, err := atom(io.Step)
				if err != nil {
					return err
				}
				t := ctype(io.T)
				e.line("const %s %s = (%s)(%s + (%s)%s * %s);", t, cname(p.Name), t, start, t, idx, step)
				if e.rng != nil && io.T == core.I64 && isOne(io.Step) {
					if st, ok := e.rng.of(io.Start); ok {
						e.rng.vars[p.Name] = sum(st, whole, "("+st.lo+")", "("+st.hi+" + "+whole.hi+")")
					}
				}
				continue
			}
			e.bindElem(p, l.Arrs[j], idx)
		}
		if e.vec != nil {
			e.vec.level(l, li == len(n.Levels)-1)
		}
	}
	for _, st := range n.Body.Stmts {
		if err := e.stmt(st); err != nil {
			return err
		}
	}
	return nil
}

// isOne reports whether a is the constant 1.
func isOne(a core.Atom) bool {
	switch c := a.(type) {
	case core.Const:
		return c.T.IsInt() && c.Int() == 1
	case *core.Const:
		return c.T.IsInt() && c.Int() == 1
	}
	return false
}

// allScalar reports whether no type of ts is an array.
func allScalar(ts []core.Type) bool {
	for _, t := range ts {
		if t.IsArray() {
			return false
		}
	}
	return true
}

// flatBase is the base array of row parameter v of a flat nest.
func flatBase(n *nest, v *core.Var) *core.Var {
	for li, l := range n.Levels {
		for j, p := range l.Params {
			if p.Name != v.Name {
				continue
			}
			if li == 0 {
				return l.Arrs[j]
			}
			return flatBase(n, l.Arrs[j])
		}
	}
	return v
}

// segmapEmit generates the segmented-map kernel of nest n of s, flat over
// the bases fb when fb is not nil (see flatBases).
func (g *generator) segmapEmit(s *core.Stmt, n *nest, fb map[string]*core.Var) (*kernel, error) {
	g.n++
	k := &kernel{Stmt: s, Kind: kSegMap, Name: fmt.Sprintf("k%d_segmap", g.n), Block: 256, Nest: n}
	fs := newFreeSet()
	fs.stmts([]*core.Stmt{s}, nil, map[string]bool{})
	if fs.err != nil {
		return nil, fs.err
	}
	k.Env = fs.order
	e := &emitter{indent: 2, sites: &g.sites, funs: g.funs, prog: g.prog, arrays: true, inPlace: map[*core.Stmt]bool{}}
	nsites := len(g.sites)
	d := len(n.Levels)
	if fb != nil {
		// The flat loop binds the innermost parameters; the preludes are
		// sizes and checks on them (flatBases), sizes read off the bases.
		for _, l := range n.Levels {
			for _, st := range l.Pre {
				x, ok := st.Exp.(*core.SizeExp)
				if !ok {
					if err := e.stmt(st); err != nil {
						return nil, err
					}
					continue
				}
				b := flatBase(n, x.Arr)
				e.line("const i64 %s = %s_d%d;", cname(st.Pat[0].Name), cname(b.Name), b.Type.Rank-x.Arr.Type.Rank+x.Dim)
			}
		}
		for _, st := range n.Body.Stmts {
			if err := e.stmt(st); err != nil {
				return nil, err
			}
		}
	} else if err := emitPoint(e, n); err != nil {
		return nil, err
	}
	// Results.
	aux := 1
	for j, r := range n.Body.Result {
		t := n.Ret[j]
		k.Out = append(k.Out, t.Elem)
		if !t.IsArray() {
			a, err := atom(r)
			if err != nil {
				return nil, err
			}
			k.Scalar = append(k.Scalar, true)
			if fb != nil {
				// flatLoop binds ar_st<j> to where the point's result goes.
				e.line("ar_st%d = %s;", j, a)
				continue
			}
			e.line("if (!ar_probe) ar_out%d[ar_g] = %s;", j, a)
			continue
		}
		k.Scalar = append(k.Scalar, false)
		k.Scratch = true
		v, ok := arrayVar(r)
		if !ok {
			return nil, fmt.Errorf("internal error: array result %s is not a variable", core.AtomString(r))
		}
		b := cname(v.Name)
		k.AuxOff = append(k.AuxOff, aux)
		e.line("if (ar_probe) {")
		for q := 0; q < t.Rank; q++ {
			e.line("  ar_aux[%d] = %s;", aux+q, dimName(b, q))
		}
		e.line("} else {")
		e.indent++
		var conds []string
		size := "(i64)1"
		for q := 0; q < t.Rank; q++ {
			conds = append(conds, fmt.Sprintf("%s != ar_aux[%d]", dimName(b, q), aux+q))
			size += fmt.Sprintf(" * ar_aux[%d]", aux+q)
		}
		code := e.site(s.Pos, "map: the function's results have different shapes (irregular array)")
		e.line("if (%s) { ar_fail(ar_err, %d); return; }", strings.Join(conds, " || "), code)
		flat := e.fresh("f")
		e.line("i64 %s = ar_g * (%s);", flat, size)
		idx := e.forAll(viewDims(b, t.Rank))
		e.line("ar_out%d[%s++] = %s;", j, flat, at(b, idx))
		e.endAll(t.Rank)
		e.indent--
		e.line("}")
		aux += t.Rank
	}
	k.AuxLen = aux
	k.Scratch = k.Scratch || e.scratch
	k.checks = len(g.sites) > nsites || e.calls
	// The point again without the checks that hold for every point when
	// the conditions pre do (ranges.go).
	var fast string
	var pre []string
	if fb == nil && !k.Scratch && allScalar(n.Ret) {
		rs := newRangeSet(k.Env)
		rs.elide = true
		f := &emitter{indent: 2, sites: &g.sites, funs: g.funs, prog: g.prog, arrays: true, inPlace: map[*core.Stmt]bool{}, rng: rs}
		if err := emitPoint(f, n); err == nil && !f.scratch && len(rs.pre) > 0 {
			for j, r := range n.Body.Result {
				a, err := atom(r)
				if err != nil {
					return nil, err
				}
				f.line("if (!ar_probe) ar_out%d[ar_g] = %s;", j, a)
			}
			fast, pre = f.b.String(), rs.pre
		}
	}
	// And once more in 32-bit arithmetic, for launches whose sizes all
	// fit (narrowLoop).
	var narrow string
	var npre []string
	if fast != "" && segmapNarrow {
		rs := newRangeSet(k.Env)
		rs.elide, rs.narrow = true, true
		f := &emitter{indent: 3, sites: &g.sites, funs: g.funs, prog: g.prog, arrays: true, inPlace: map[*core.Stmt]bool{}, rng: rs}
		if err := emitPoint(f, n); err == nil && !f.scratch {
			for j, r := range n.Body.Result {
				a, err := atom(r)
				if err != nil {
					return nil, err
				}
				f.line("ar_out%d[ar_g] = %s;", j, a)
			}
			narrow, npre = f.b.String(), rs.pre
		}
	}
	// And four times more, a lane of a vector step each (vecstep.go),
	// where some read of the body is a lane of a row's 16-byte vector.
	var vec *vecStep
	var lanes []string
	if narrow != "" && segmapVec4 {
		nsites := len(g.sites)
		st := newVecStep(segmapVecs)
		for lane := 0; lane < st.width; lane++ {
			rs := newRangeSet(k.Env)
			rs.elide, rs.narrow = true, true
			f := &emitter{indent: 3, sites: &g.sites, funs: g.funs, prog: g.prog, arrays: true, inPlace: map[*core.Stmt]bool{}, rng: rs, vec: newVecLane(st, n, k.Env, lane)}
			if err := emitPoint(f, n); err != nil || f.scratch || strings.Join(rs.pre, "\x00") != strings.Join(npre, "\x00") {
				break
			}
			for j, r := range n.Body.Result {
				a, err := atom(r)
				if err != nil {
					return nil, err
				}
				f.line("ar_res%d_%d = %s;", j, lane, a)
			}
			lanes = append(lanes, f.b.String())
		}
		if len(lanes) == st.width && len(st.loads) > 0 {
			vec = st
			k.Vector = fmt.Sprintf("%d points of a row a thread, 16-byte reads of %s", st.width, strings.Join(st.arrays, ", "))
		} else {
			g.sites, lanes = g.sites[:nsites], nil
		}
	}

	var ps []kparam
	ps = append(ps, kparam{kind: pN, name: "ar_n"}, kparam{kind: pThreads, name: "ar_nt"})
	for li := range n.Levels {
		ps = append(ps, kparam{kind: pSpace, k: li, name: fmt.Sprintf("ar_space%d", li)})
	}
	ps = append(ps, kparam{kind: pErr})
	var strides strings.Builder
	for _, v := range k.Env {
		if v.Type.IsArray() {
			ps = append(ps, kparam{kind: pArray, v: v, t: v.Type.Elem})
			for q := 0; q < v.Type.Rank; q++ {
				ps = append(ps, kparam{kind: pDim, v: v, k: q})
			}
			b := cname(v.Name)
			r := v.Type.Rank
			fmt.Fprintf(&strides, "  const i64 %s = 1;\n", strideName(b, r-1))
			for q := r - 2; q >= 0; q-- {
				fmt.Fprintf(&strides, "  const i64 %s = %s * %s;\n", strideName(b, q), strideName(b, q+1), dimName(b, q+1))
			}
			continue
		}
		ps = append(ps, kparam{kind: pScalar, v: v, t: v.Type.Elem})
	}
	for j, t := range k.Out {
		ps = append(ps, kparam{kind: pOut, k: j, t: t})
	}
	if k.Scratch {
		ps = append(ps, kparam{kind: pScratch}, kparam{kind: pCap, name: "ar_cap"}, kparam{kind: pAux}, kparam{kind: pProbe})
	}
	// The host-checked vector path (vecFast) of 2-D maps in tiles: every
	// condition the device path checks, evaluated by the host at launch.
	if vec != nil && d == 2 && segmapVecTile && segmapVecRows > 0 {
		conds := append(append(append([]string{}, pre...), "ar_n + ar_nt <= 2147483647LL"), npre...)
		k.vecHost = &vecHost{conds: append(conds, vecConds(d, vec, k.Out)...), lo: vec.lo, hi: vec.hi, width: vec.width, rows: segmapVecRows, th: k.Block / 32}
		for i, name := range []string{"ar_vok", "ar_vlo_h", "ar_vhi_h"} {
			ps = append(ps, kparam{kind: pVecHost, k: i, name: name})
		}
	}
	k.params = ps

	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s: segmap %s at %v", k.Name, n.Space(), s.Pos)
	if seq := n.Sequential(); len(seq) > 0 {
		fmt.Fprintf(&b, "; sequential in each thread: %s", strings.Join(seq, ", "))
	}
	if k.Vector != "" {
		fmt.Fprintf(&b, "; vector: %s", k.Vector)
	}
	bounds := fmt.Sprint(k.Block)
	if segmapMinBlocks > 0 {
		bounds += fmt.Sprintf(", %d", segmapMinBlocks)
	}
	fmt.Fprintf(&b, "\nextern \"C\" __global__ void __launch_bounds__(%s)\n%s(%s) {\n", bounds, k.Name, k.Params())
	fmt.Fprintf(&b, "  const i64 ar_tid = (i64)blockIdx.x * %d + threadIdx.x;\n  if (ar_tid >= ar_nt) return;\n", k.Block)
	if !k.Scratch {
		b.WriteString("  const bool ar_probe = false;\n")
	}
	b.WriteString(strides.String())
	if k.vecHost != nil && !segmapVecSplit {
		vecFast(&b, k.vecHost, vec, lanes, narrow, k.Out, false)
	}
	// The thread's point of the space, and the step of the grid-stride
	// loop in the same mixed radix: one division per thread, then carries
	// (a division per element measured as the cost of a 2-D map).
	b.WriteString("  if (ar_n <= 0) return;\n")
	if fb != nil && !k.Scratch {
		flatLoop(&b, n, fb, e.b.String(), k.Out)
		k.Flat = true
		k.src = b.String()
		return k, nil
	}
	if d == 1 {
		b.WriteString("  i64 ar_lvl0 = ar_tid;\n  const i64 ar_step0 = ar_nt;\n")
	} else {
		b.WriteString("  i64 ar_r = ar_tid, ar_q = ar_nt;\n")
		for li := d - 1; li > 0; li-- {
			fmt.Fprintf(&b, "  i64 ar_lvl%d = ar_r %% ar_space%d; ar_r /= ar_space%d;\n", li, li, li)
			fmt.Fprintf(&b, "  const i64 ar_step%d = ar_q %% ar_space%d; ar_q /= ar_space%d;\n", li, li, li)
		}
		b.WriteString("  i64 ar_lvl0 = ar_r;\n  const i64 ar_step0 = ar_q;\n")
	}
	if fast != "" {
		fmt.Fprintf(&b, "  const bool ar_fast = (%s);\n", strings.Join(pre, ") && ("))
	}
	if narrow != "" {
		narrowLoop(&b, d, k.Block, narrow, npre, vec, lanes, k.Out)
	}
	b.WriteString("  for (i64 ar_g = ar_tid; ar_g < ar_n; ar_g += ar_nt) {\n")
	b.WriteString("    i64 ar_top = 0;\n")
	if fast != "" {
		b.WriteString("    if (ar_fast) {\n")
		b.WriteString(fast)
		b.WriteString("    } else {\n")
	} else {
		b.WriteString("    {\n")
	}
	b.WriteString(e.b.String())
	b.WriteString("    }\n")
	if d == 1 {
		b.WriteString("    ar_lvl0 += ar_step0;\n")
	} else {
		b.WriteString("    i64 ar_carry = 0;\n")
		for li := d - 1; li > 0; li-- {
			fmt.Fprintf(&b, "    ar_lvl%d += ar_step%d + ar_carry; ar_carry = ar_lvl%d >= ar_space%d; if (ar_carry) ar_lvl%d -= ar_space%d;\n", li, li, li, li, li, li)
		}
		b.WriteString("    ar_lvl0 += ar_step0 + ar_carry;\n")
	}
	b.WriteString("  }\n}\n")
	if k.vecHost != nil && segmapVecSplit {
		k.vecHost.kernel = k.Name + "_vec"
		fmt.Fprintf(&b, "\n// %s: the host-checked vector path of %s (vecstep.go)", k.vecHost.kernel, k.Name)
		fmt.Fprintf(&b, "\nextern \"C\" __global__ void __launch_bounds__(%s)\n%s(%s) {\n", bounds, k.vecHost.kernel, k.Params())
		b.WriteString("  const bool ar_probe = false;\n")
		b.WriteString(strides.String())
		vecFast(&b, k.vecHost, vec, lanes, narrow, k.Out, true)
		b.WriteString("}\n")
	}
	k.src = b.String()
	return k, nil
}

// segmapNarrow turns on the 32-bit copy of segmented maps' bodies
// (narrowLoop); segmapPoints is how many points a thread of it runs a
// step, and segmapLayout where they lie. Variables so that the benchmark
// can compare them. On an H200 the 4096² stencil's kernel took 0.094 ms
// a iteration in 64 bits, 0.058 in 32 bits a point a thread, 0.054 with
// two points of a column, 0.056-0.057 with 4 or 8, and two or four points
// along the row were no better (bench/RESULTS.md, h-stencil 2026-11-26,
// call 2: the division's branch then still kept each point's loads apart).
var (
	segmapNarrow = true
	segmapPoints = 2
	segmapLayout = layoutColumn
)

// The layouts of a narrow step's points: P neighbours along the row
// (layoutRow), P points of the row a warp's width apart with the lanes on
// neighbours (layoutSpread: a warp covers 32*P points of a row in P
// coalesced accesses), or a warp's 32 neighbouring columns of P rows one
// below the other (layoutColumn, 2-D spaces and up: the rows a thread
// reads for one point are mostly those it read for the one above, still
// in its multiprocessor's L1).
const (
	layoutRow = iota
	layoutSpread
	layoutColumn
)

// narrowLoop writes the 32-bit form of a segmented map's loop, taken when
// the conditions pre of its body (the reads in bounds, every interval
// within int32, narrowRead's array sizes) hold and the space and the
// thread count fit in 31 bits. Each step runs P = segmapPoints points laid
// out as segmapLayout says; the body, the same text for each, gives the
// compiler the same expressions (row indices, clamps) to share. Where a
// dimension is not a multiple of a step's extent, the last step's extra
// points are clamped to the last index: they compute and store the last
// point's value again, with no branch to keep the points' loads apart.
// The warp layouts take only spaces whose rows fill a warp's step (shorter
// rows would leave lanes idle and keep the 64-bit form).
//
// With vec set, the thread first runs the vector steps (vecLoop) when their
// conditions hold: lanes are their four bodies, outs the results' types.
func narrowLoop(b *strings.Builder, d, block int, body string, pre []string, vec *vecStep, lanes []string, outs []core.PrimType) {
	p := max(segmapPoints, 1)
	layout := segmapLayout
	if layout == layoutColumn && d < 2 || layout == layoutSpread && p == 1 {
		layout = layoutRow
	}
	in := d - 1
	unitIn, unitUp := p, 1 // a step's extent in the innermost dimension and the one above it
	first, stride := "(i32)ar_tid", "(i32)ar_nt"
	switch layout {
	case layoutSpread:
		unitIn = 32 * p
	case layoutColumn:
		unitIn, unitUp = 32, p
	}
	if layout != layoutRow {
		first, stride = "(i32)(ar_tid >> 5)", "(i32)(ar_nt >> 5)"
	}
	radix := func(li int) string {
		switch {
		case li == in:
			return fmt.Sprintf("((ar_space%d + %d) / %d)", in, unitIn-1, unitIn)
		case li == in-1 && unitUp > 1:
			return fmt.Sprintf("((ar_space%d + %d) / %d)", li, unitUp-1, unitUp)
		}
		return fmt.Sprintf("ar_space%d", li)
	}
	var steps []string
	for li := 0; li < d; li++ {
		steps = append(steps, radix(li))
	}
	fmt.Fprintf(b, "  const i64 ar_nst = %s;\n", strings.Join(steps, " * "))
	fmt.Fprintf(b, "  const bool ar_nok = (%s);\n", strings.Join(append([]string{"ar_fast", "ar_n + ar_nt <= 2147483647LL"}, pre...), ") && ("))
	if vec != nil {
		vecLoop(b, d, block, vec, lanes, body, outs)
	}
	conds := []string{"ar_nok", "ar_nst + ar_nt <= 2147483647LL"}
	if layout != layoutRow {
		conds = append(conds, fmt.Sprintf("ar_space%d >= %d", in, unitIn))
	}
	fmt.Fprintf(b, "  if ((%s)) {\n", strings.Join(conds, ") && ("))
	b.WriteString("    const bool ar_probe = false;\n")
	if layout != layoutRow {
		b.WriteString("    const i32 ar_lane = (i32)(ar_tid & 31);\n")
	}
	fmt.Fprintf(b, "    i32 ar_r = %s, ar_q = %s;\n", first, stride)
	for li := in; li > 0; li-- {
		fmt.Fprintf(b, "    const i32 ar_rad%d = (i32)%s;\n", li, radix(li))
		fmt.Fprintf(b, "    i32 ar_nl%d = ar_r %% ar_rad%d; ar_r /= ar_rad%d;\n", li, li, li)
		fmt.Fprintf(b, "    const i32 ar_ns%d = ar_q %% ar_rad%d; ar_q /= ar_rad%d;\n", li, li, li)
	}
	b.WriteString("    i32 ar_nl0 = ar_r;\n    const i32 ar_ns0 = ar_q;\n")
	fmt.Fprintf(b, "    for (i32 ar_s = %s; ar_s < (i32)ar_nst; ar_s += %s) {\n", first, stride)
	for u := 0; u < p; u++ {
		b.WriteString("    {\n")
		for li := 0; li < d; li++ {
			var off string
			switch {
			case li == in && layout == layoutRow:
				off = fmt.Sprintf("ar_nl%d * %d + %d", li, unitIn, u)
			case li == in && layout == layoutSpread:
				off = fmt.Sprintf("ar_nl%d * %d + %d + ar_lane", li, unitIn, 32*u)
			case li == in:
				off = fmt.Sprintf("ar_nl%d * 32 + ar_lane", li)
			case li == in-1 && unitUp > 1:
				off = fmt.Sprintf("ar_nl%d * %d + %d", li, unitUp, u)
			default:
				fmt.Fprintf(b, "    const i32 ar_lvl%d = ar_nl%d;\n", li, li)
				continue
			}
			if p == 1 && layout == layoutRow {
				// A point a step: the steps are the points.
				fmt.Fprintf(b, "    const i32 ar_lvl%d = ar_nl%d;\n", li, li)
				continue
			}
			fmt.Fprintf(b, "    const i32 ar_lvl%d = min(%s, (i32)ar_space%d - 1);\n", li, off, li)
		}
		g := "ar_lvl0"
		for li := 1; li < d; li++ {
			g = fmt.Sprintf("(%s) * (i32)ar_space%d + ar_lvl%d", g, li, li)
		}
		if p == 1 && layout == layoutRow {
			g = "ar_s"
		}
		fmt.Fprintf(b, "    const i32 ar_g = %s;\n", g)
		b.WriteString("    i64 ar_top = 0;\n")
		b.WriteString(body)
		b.WriteString("    }\n")
	}
	writeStepAdvance(b, d, in)
}

// segmapWaves is how many times the blocks that fit the GPU at once a flat
// segmented map's grid may have: on an H200 the 2-D map of 16384² f32 ran
// at 0.91 of a copy with one wave of resident blocks striding over the
// whole array, 0.93 with 4, 0.96 with 16, 0.97 with 32 and 0.98 with 64
// (bench/RESULTS.md). A variable so that the benchmark can sweep it.
var segmapWaves = 64

// segmapVec lets flat segmented maps whose arrays all have 4-byte elements
// move them as 16-byte vectors (a variable so that the benchmark can
// compare).
var segmapVec = true

// vecBits is how a 4-byte element type converts from and to the u32 lanes
// of a 16-byte vector ("" where it does not).
func vecBits(t core.PrimType) (from, to string) {
	switch t {
	case core.F32:
		return "ar_bits_f32", "__float_as_uint"
	case core.I32:
		return "ar_bits_i32", "(u32)"
	case core.U32:
		return "ar_bits_u32", ""
	}
	return "", ""
}

// flatLoop writes the loops of a flat segmented map. Where every array is
// of 4-byte elements (and, at run time, every base has the space's
// elements), a thread takes four neighbouring points at a time, loading
// each base and storing each result as one 16-byte vector; the rest, or
// everything otherwise, runs in a grid-stride loop of segmapUnroll points a
// step, all their elements loaded before any body runs (several loads a
// thread in flight), then point by point. Each body runs in its own block
// with ar_g its point's number and ar_st<j> bound to where result j goes.
func flatLoop(b *strings.Builder, n *nest, fb map[string]*core.Var, body string, outs []core.PrimType) {
	var ps []*core.Var
	for _, p := range n.Levels[len(n.Levels)-1].Params {
		if fb[p.Name] != nil {
			ps = append(ps, p)
		}
	}
	one := func(g string, ld func(p *core.Var, j int) string, st func(j int) string) {
		fmt.Fprintf(b, "    {\n    const i64 ar_g = %s;\n    i64 ar_top = 0;\n", g)
		for j, t := range outs {
			fmt.Fprintf(b, "    %s &ar_st%d = %s;\n", ctype(t), j, st(j))
		}
		for j, p := range ps {
			fmt.Fprintf(b, "    const %s %s = %s;\n", ctype(p.Type.Elem), cname(p.Name), ld(p, j))
		}
		b.WriteString(body)
		b.WriteString("    }\n")
	}
	// Each base is read within its own elements: should the rows of a
	// map2 disagree (the preludes' assertion fails), nothing out of
	// bounds is read.
	var same []string
	for j, p := range ps {
		base := fb[p.Name]
		cnt := "(i64)1"
		for q := 0; q < base.Type.Rank; q++ {
			cnt += fmt.Sprintf(" * %s_d%d", cname(base.Name), q)
		}
		fmt.Fprintf(b, "  const i64 ar_cnt%d = %s;\n", j, cnt)
		same = append(same, fmt.Sprintf("ar_cnt%d != ar_n", j))
	}
	load := func(p *core.Var, j int, at string) string {
		return fmt.Sprintf("%s < ar_cnt%d ? %s[%s] : (%s)0", at, j, cname(fb[p.Name].Name), at, ctype(p.Type.Elem))
	}
	toOut := func(at string) func(j int) string {
		return func(j int) string { return fmt.Sprintf("ar_out%d[%s]", j, at) }
	}
	vec := segmapVec
	for _, p := range ps {
		if f, _ := vecBits(p.Type.Elem); f == "" {
			vec = false
		}
	}
	for _, t := range outs {
		if _, to := vecBits(t); to == "" && t != core.U32 {
			vec = false
		}
	}
	b.WriteString("  i64 ar_gb = ar_tid;\n")
	if vec {
		b.WriteString("  i64 ar_nv = ar_n / 4;\n")
		if len(same) > 0 {
			fmt.Fprintf(b, "  if (%s) ar_nv = 0;\n", strings.Join(same, " || "))
		}
		b.WriteString("  for (i64 ar_v = ar_tid; ar_v < ar_nv; ar_v += ar_nt) {\n")
		for j, p := range ps {
			fmt.Fprintf(b, "    const uint4 ar_q%d = ((const uint4 *)%s)[ar_v];\n", j, cname(fb[p.Name].Name))
		}
		for j, t := range outs {
			fmt.Fprintf(b, "    %s ar_s0_%d, ar_s1_%d, ar_s2_%d, ar_s3_%d;\n", ctype(t), j, j, j, j)
		}
		lanes := []string{"x", "y", "z", "w"}
		for u := 0; u < 4; u++ {
			one(fmt.Sprintf("4 * ar_v + %d", u), func(p *core.Var, j int) string {
				f, _ := vecBits(p.Type.Elem)
				return fmt.Sprintf("%s(ar_q%d.%s)", f, j, lanes[u])
			}, func(j int) string { return fmt.Sprintf("ar_s%d_%d", u, j) })
		}
		for j, t := range outs {
			_, to := vecBits(t)
			fmt.Fprintf(b, "    ((uint4 *)ar_out%d)[ar_v] = make_uint4(%s(ar_s0_%d), %s(ar_s1_%d), %s(ar_s2_%d), %s(ar_s3_%d));\n", j, to, j, to, j, to, j, to, j)
		}
		b.WriteString("  }\n")
		b.WriteString("  ar_gb += 4 * ar_nv;\n")
	}
	un := max(segmapUnroll, 1)
	if un > 1 {
		fmt.Fprintf(b, "  for (; ar_gb + %d * ar_nt < ar_n; ar_gb += %d * ar_nt) {\n", un-1, un)
		for u := 0; u < un; u++ {
			for j, p := range ps {
				fmt.Fprintf(b, "    const %s ar_ld%d_%d = %s;\n", ctype(p.Type.Elem), u, j, load(p, j, fmt.Sprintf("ar_gb + %d * ar_nt", u)))
			}
		}
		for u := 0; u < un; u++ {
			g := fmt.Sprintf("ar_gb + %d * ar_nt", u)
			one(g, func(_ *core.Var, j int) string { return fmt.Sprintf("ar_ld%d_%d", u, j) }, toOut(g))
		}
		b.WriteString("  }\n")
	}
	b.WriteString("  for (; ar_gb < ar_n; ar_gb += ar_nt) {\n")
	one("ar_gb", func(p *core.Var, j int) string { return load(p, j, "ar_gb") }, toOut("ar_gb"))
	b.WriteString("  }\n}\n")
}

// Scratch sizes, in 8-byte slots per thread.
const (
	probeSlots  = int64(1) << 16 // the probe's first try
	maxSlots    = int64(1) << 34 // beyond this a thread's arrays are too big
	scratchCap  = int64(4) << 30 // bytes of scratch a full launch may take
	maxRelaunch = 40
)

// launchSegMap runs a segmented-map kernel (see the file comment).
func (r *run) launchSegMap(s *core.Stmt, k *kernel, env map[string]eval.Value) error {
	nst := k.Nest
	space := make([]int64, len(nst.Levels))
	n := int64(1)
	for i, l := range nst.Levels {
		d, err := r.hostDim(l.Dim, env)
		if err != nil {
			return err
		}
		if d < 0 {
			return source.Errorf(s.Pos, "negative size %d", d)
		}
		space[i] = d
		if d > 0 && n > maxAlloc/d {
			return source.Errorf(s.Pos, "cannot allocate an array of %v elements", space)
		}
		n *= d
	}
	var empty [][]int64 // n == 0: the array results' shapes (emptyshape.go)
	if n == 0 {
		var ok bool
		if empty, ok = r.emptyShapes(nst, env); !ok {
			return r.emptyOnCPU(s, env)
		}
	}
	f := r.l.funcs[k.Name]
	occ := r.l.occ[k.Name]
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
	// Environment arguments, shared by every launch.
	var env0 []any
	var bytes int64
	for _, p := range k.params {
		a, b, ok, err := r.envArgBytes(p, env)
		if err != nil {
			return err
		}
		if ok {
			env0 = append(env0, a)
			bytes += b
		}
	}
	var aux *devArray
	if k.Scratch {
		var err error
		if aux, err = alloc(core.I64, int64(k.AuxLen)); err != nil {
			return err
		}
		defer aux.Free()
		if err := r.b.g.Memset(aux.ptr(), 0, aux.bytes); err != nil {
			return err
		}
	}
	auxWords := make([]int64, k.AuxLen)
	readAux := func() error {
		start := time.Now()
		err := r.b.g.DtoH(slicePtr(auxWords), aux.ptr(), aux.bytes)
		r.t.Transfer += time.Since(start)
		return err
	}
	outs := make([]*devArray, len(k.Out))
	var vecArgs [3]int32 // pVecHost's: ar_vok, ar_vlo_h, ar_vhi_h
	launch := func(grid, nt, count, slots int64, probe bool) error {
		var scratch *devArray
		if k.Scratch {
			var err error
			if scratch, err = alloc(core.U64, max(1, nt*slots)); err != nil {
				return err
			}
			defer scratch.Free()
			if err := r.b.g.Memset(aux.ptr(), 0, 8); err != nil {
				return err
			}
		}
		var args []any
		ei := 0
		for _, p := range k.params {
			switch p.kind {
			case pN:
				args = append(args, count)
			case pThreads:
				args = append(args, nt)
			case pSpace:
				args = append(args, space[p.k])
			case pErr, pScalar, pArray, pDim:
				args = append(args, env0[ei])
				ei++
			case pOut:
				if probe || outs[p.k] == nil {
					args = append(args, nullPtr)
				} else {
					args = append(args, outs[p.k].ptr())
				}
			case pScratch:
				args = append(args, scratch.ptr())
			case pCap:
				args = append(args, slots)
			case pAux:
				args = append(args, aux.ptr())
			case pProbe:
				p := int32(0)
				if probe {
					p = 1
				}
				args = append(args, p)
			case pVecHost:
				args = append(args, vecArgs[p.k])
			default:
				return fmt.Errorf("internal error: parameter kind %d in a segmented map", p.kind)
			}
		}
		name := k.Name
		if probe {
			name += " (probe)"
		}
		var moved int64
		if !probe {
			moved = bytes
			for _, o := range outs {
				if o != nil {
					moved += o.bytes
				}
			}
		}
		if r.inFor > 0 && !k.Scratch && loopAsync {
			// Inside a for loop nothing reads this launch's results
			// on the host before the loop's end or the next transfer
			// (checkLater): queue it and go on.
			if err := r.launchAsync(f, name, grid, int64(k.Block), moved, args); err != nil || !k.checks {
				return err
			}
			return r.checkLater()
		}
		d, err := f.Launch(cuda.Dim3{X: uint32(grid)}, cuda.Dim3{X: uint32(k.Block)}, 0, args...)
		if err != nil {
			return err
		}
		r.t.Run += d
		r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: name, Time: d, Bytes: moved})
		if k.checks {
			if k.Scratch {
				return r.checkError() // the host reads what this launch wrote
			}
			return r.checkLater()
		}
		return nil
	}
	// The probe: element 0 alone, for its scratch need and result shapes.
	slots := int64(0)
	if k.Scratch && n > 0 {
		slots = probeSlots
		for {
			if err := launch(1, 1, 1, slots, true); err != nil {
				return err
			}
			if err := readAux(); err != nil {
				return err
			}
			if auxWords[0] <= slots {
				slots = max(auxWords[0], 1)
				break
			}
			if auxWords[0] > maxSlots {
				return source.Errorf(s.Pos, "a thread's arrays need %d bytes: too much for the GPU", auxWords[0]*8)
			}
			slots = max(auxWords[0], 2*slots)
		}
	}
	// Outputs.
	results := make([]eval.Value, len(k.Out))
	for j, t := range k.Out {
		shape := append([]int64(nil), space...)
		count := n
		if !k.Scalar[j] {
			off := k.auxIndex(j)
			for q := 0; q < nst.Ret[j].Rank; q++ {
				d := int64(0)
				if n > 0 {
					d = auxWords[off+q]
				} else {
					d = empty[j][q] // no thread ran: what the host knows
				}
				shape = append(shape, d)
				if d > 0 && count > maxAlloc/d {
					return source.Errorf(s.Pos, "cannot allocate an array of %v elements", shape)
				}
				count *= d
			}
		}
		d := r.takeSpare(t, count)
		if d == nil {
			var err error
			if d, err = alloc(t, count); err != nil {
				return err
			}
		}
		r.temps = append(r.temps, d)
		outs[j] = d
		results[j] = eval.Value{Elem: t, Shape: shape, Dev: d}
	}
	if n > 0 {
		sms := int64(r.b.lim.SMs)
		for tries := 0; ; tries++ {
			waves := int64(1)
			if k.Flat {
				waves = int64(max(segmapWaves, 1))
			} else if k.Vector != "" {
				waves = int64(max(segmapVecWaves, 1))
			}
			grid := max(1, min(ceilDiv(n, int64(k.Block)), sms*int64(max(occ, 1))*waves))
			if k.Scratch {
				grid = max(1, min(grid, scratchCap/(8*slots*int64(k.Block))))
			}
			nt := grid * int64(k.Block)
			if h := k.vecHost; h != nil && len(space) == 2 {
				// A thread a step where the host proves the vector
				// path's conditions (vecFast).
				vg := h.grid(space[0], space[1])
				vnt := vg * int64(k.Block)
				if vg <= math.MaxInt32 {
					if lo, hi, ok := h.checkCached(k, env0, outs, space, n, vnt); ok {
						grid, nt, vecArgs = vg, vnt, [3]int32{1, lo, hi}
						if h.kernel != "" {
							vf, err := r.l.cmod.Function(h.kernel)
							if err != nil {
								return err
							}
							f = vf
						}
					}
				}
			}
			if err := launch(grid, nt, n, slots, false); err != nil {
				return err
			}
			if !k.Scratch {
				break
			}
			if err := readAux(); err != nil {
				return err
			}
			if auxWords[0] <= slots {
				break
			}
			if auxWords[0] > maxSlots || tries > maxRelaunch {
				return source.Errorf(s.Pos, "a thread's arrays need %d bytes: too much for the GPU", auxWords[0]*8)
			}
			slots = max(auxWords[0], 2*slots)
		}
	}
	if len(results) != len(s.Pat) {
		return fmt.Errorf("internal error: kernel %s gives %d values for %d variables", k.Name, len(results), len(s.Pat))
	}
	for i, v := range s.Pat {
		env[v.Name] = results[i]
	}
	return nil
}

// hostDim evaluates a size the host knows.
func (r *run) hostDim(h hostDim, env map[string]eval.Value) (int64, error) {
	if len(h.Sum) > 0 {
		total := int64(0)
		for _, t := range h.Sum {
			d, err := r.hostDim(t, env)
			if err != nil {
				return 0, err
			}
			total += d
		}
		return total, nil
	}
	if h.Arr != nil {
		v, err := r.value(h.Arr, env)
		if err != nil {
			return 0, err
		}
		if h.D >= len(v.Shape) {
			return 0, fmt.Errorf("internal error: %s has rank %d", h.Arr.Name, len(v.Shape))
		}
		return v.Shape[h.D], nil
	}
	v, err := r.host(h.Atom, env)
	if err != nil {
		return 0, err
	}
	return scalarInt(v)
}

// auxIndex is the aux word where array result j's shape starts.
func (k *kernel) auxIndex(j int) int {
	a := 0
	for i := 0; i < j; i++ {
		if !k.Scalar[i] {
			a++
		}
	}
	return k.AuxOff[a]
}

// segmapHostVars is a launch's parameters by their C names, for the host
// conditions (hostcond.go): the sizes, integer scalars, arrays' and
// results' pointers.
func segmapHostVars(k *kernel, env0 []any, outs []*devArray, space []int64, n, nt int64) map[string]int64 {
	vars := map[string]int64{}
	segmapHostArgs(k, env0, outs, space, n, nt, func(name func() string, v int64, _ bool) { vars[name()] = v })
	return vars
}

// segmapHostArgs calls visit with each of a launch's parameters that the
// host conditions may name, in the kernel's order: its C name (made only if
// asked for), its value, and whether it is a pointer.
func segmapHostArgs(k *kernel, env0 []any, outs []*devArray, space []int64, n, nt int64, visit func(name func() string, v int64, ptr bool)) {
	visit(func() string { return "ar_n" }, n, false)
	visit(func() string { return "ar_nt" }, nt, false)
	for i, d := range space {
		visit(func() string { return fmt.Sprintf("ar_space%d", i) }, d, false)
	}
	ei := 0
	for _, p := range k.params {
		switch p.kind {
		case pErr, pScalar, pArray, pDim:
			a := env0[ei]
			ei++
			var name func() string
			switch p.kind {
			case pScalar, pArray:
				name = func() string { return cname(p.v.Name) }
			case pDim:
				name = func() string { return fmt.Sprintf("%s_d%d", cname(p.v.Name), p.k) }
			default:
				continue
			}
			switch x := a.(type) {
			case int64:
				visit(name, x, false)
			case int32:
				visit(name, int64(x), false)
			case int16:
				visit(name, int64(x), false)
			case int8:
				visit(name, int64(x), false)
			case uint8:
				visit(name, int64(x), false)
			case uint16:
				visit(name, int64(x), false)
			case uint32:
				visit(name, int64(x), false)
			case cuda.Ptr:
				visit(name, int64(x), true)
			}
		case pOut:
			if outs[p.k] != nil {
				visit(func() string { return fmt.Sprintf("ar_out%d", p.k) }, int64(outs[p.k].ptr()), true)
			}
		}
	}
}

// writeStepAdvance ends a grid-stride step loop over a d-level index space
// whose inner in levels are kept as counters: it advances the counters by
// the stride (ar_ns*), carrying into the level above as a mixed-radix
// number (no division a step), and closes the loop and the kernel's path.
func writeStepAdvance(b *strings.Builder, d, in int) {
	if d == 1 {
		b.WriteString("      ar_nl0 += ar_ns0;\n")
	} else {
		b.WriteString("      i32 ar_carry = 0;\n")
		for li := in; li > 0; li-- {
			fmt.Fprintf(b, "      ar_nl%d += ar_ns%d + ar_carry; ar_carry = ar_nl%d >= ar_rad%d; if (ar_carry) ar_nl%d -= ar_rad%d;\n", li, li, li, li, li, li)
		}
		b.WriteString("      ar_nl0 += ar_ns0 + ar_carry;\n")
	}
	b.WriteString("    }\n    return;\n  }\n")
}
