package cpu

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Lane-major folds. A pairwise tree (vecTreeReduce) keeps a
// non-commutative operator's order, but every level rearranges the
// chunk's columns (a deinterleave per column) and pays the column code's
// per-call setup at a dozen lengths; on MSSP and Reduce2x2MM on one
// thread that was about half the time.
//
// A lane-major fold instead cuts a chunk of n lanes into foldLanes
// contiguous segments of m = n / L lanes (L = Options.FoldLanes) and folds every segment
// from its left end at once: step i gathers lane i of each segment into
// one column (a strided copy) and applies the operator once over
// L lanes, (accumulators, gathered) into the other set of
// accumulators. The segments' accumulators are then reduced in order by
// the tree, and the lanes left over after the last whole segment are
// reduced by the tree and combined on the right. The registers of the
// operator's column code are set up once per chunk, so a step is one
// kernel call per statement, with no allocation.
//
// The bracketing differs from the tree's, which changes nothing for an
// associative operator on integers and booleans (wrapping arithmetic is
// associative); on floating point, where rounding depends on the
// bracketing, the tree is kept, so results stay those of the frame
// interpreter. An operator with a statement that can fail also keeps the
// tree (column code runs it as one strip so that the first failing
// statement is the one reported).

// The number of segments, Options.FoldLanes, is the width of each
// application of the operator, and the number of cache lines the gathers
// of one input column walk through in step.

// laneFoldable reports whether a reduction by u over op's types may be
// run as a lane-major fold.
func laneFoldable(op *opInfo, u *vecUnit) bool {
	if !u.strip {
		return false
	}
	for _, t := range op.types {
		if t.Rank != 0 || t.Elem.IsFloat() {
			return false
		}
	}
	return true
}

// laneFold is a worker's columns for the lane-major folds of one unit:
// two sets of accumulators, the gathered operands, the strip columns of
// the intermediates, and the register files of the two directions
// (accumulators in set 0 to set 1, and back).
type laneFold struct {
	acc  [2][]any
	gath []any
	regs [2][]any
}

func (w *worker) laneFoldOf(u *vecUnit) *laneFold {
	if w.folds == nil {
		w.folds = map[*vecUnit]*laneFold{}
	}
	lf, ok := w.folds[u]
	if ok {
		return lf
	}
	foldLanes := w.f.m.opts.FoldLanes
	k := len(u.results)
	lf = &laneFold{gath: make([]any, k)}
	for s := range lf.acc {
		lf.acc[s] = make([]any, k)
		for c, r := range u.results {
			lf.acc[s][c] = eval.MakeSlice(u.types[r], foldLanes)
		}
	}
	for c := range lf.gath {
		lf.gath[c] = eval.MakeSlice(u.types[u.params[k+c]], foldLanes)
	}
	scratch := make([]any, len(u.types))
	for r, t := range u.types {
		if u.scratch[r] {
			scratch[r] = eval.MakeSlice(t, foldLanes)
		}
	}
	for s := range lf.regs {
		regs := make([]any, len(u.types))
		copy(regs, scratch)
		for c := 0; c < k; c++ {
			regs[u.params[c]] = lf.acc[s][c]
			regs[u.params[k+c]] = lf.gath[c]
		}
		for c, r := range u.results {
			if u.direct[c] {
				regs[r] = lf.acc[1-s][c]
			}
		}
		lf.regs[s] = regs
	}
	w.folds[u] = lf
	return lf
}

// vecLaneFold reduces n lanes of xs (n >= 2*L) by the lane-major
// fold; the result is one fresh lane per column.
func (w *worker) vecLaneFold(op *opInfo, u *vecUnit, xs []col, n int) ([]col, error) {
	k := len(xs)
	foldLanes := w.f.m.opts.FoldLanes
	m := n / foldLanes
	lf := w.laneFoldOf(u)
	// Free variables, the same in every step.
	w.setFrees(u, lf.regs[0], lf.regs[1])
	// A column the map returns twice (MSSP's) is gathered once.
	src := make([]int, k)
	for c := range xs {
		src[c] = c
		for c0 := range c {
			if sameSlice(xs[c0].data, xs[c].data) {
				src[c] = c0
				break
			}
		}
		gc := lf.gath[src[c]]
		lf.regs[0][u.params[k+c]], lf.regs[1][u.params[k+c]] = gc, gc
	}
	for c := range xs {
		gatherStride(lf.acc[0][c], xs[c].data, 0, m)
	}
	s := 0
	for i := 1; i < m; i++ {
		for c := range xs {
			if src[c] == c {
				gatherStride(lf.gath[c], xs[c].data, i, m)
			}
		}
		if err := lf.step(w, u, s); err != nil {
			return nil, err
		}
		s = 1 - s
	}
	accs := make([]col, k)
	for c := range accs {
		accs[c] = col{data: lf.acc[s][c]}
	}
	r, err := w.vecTreeReduce(op, u, accs, foldLanes)
	if err != nil || n == m*foldLanes {
		return r, err
	}
	tail := make([]col, k)
	for c := range xs {
		tail[c] = col{data: sliceAny(xs[c].data, m*foldLanes, n)}
	}
	t, err := w.vecTreeReduce(op, u, tail, n-m*foldLanes)
	if err != nil {
		return nil, err
	}
	return w.combine(op, r, t)
}

// step applies u once over the fold's lanes, from accumulator set s (and
// the operands in its registers) into set 1-s.
func (lf *laneFold) step(w *worker, u *vecUnit, s int) error {
	regs := lf.regs[s]
	if err := runVecOps(w, u, regs); err != nil {
		return err
	}
	for c, r := range u.results {
		if !u.direct[c] {
			copyAt(lf.acc[1-s][c], 0, regs[r])
		}
	}
	return nil
}

// runVecOps runs the statements of u over the registers regs.
func runVecOps(w *worker, u *vecUnit, regs []any) error {
	for _, o := range u.ops {
		if e := o.run(regs, w); e != kOK {
			return source.Errorf(o.s.Pos, "%s", e.msg())
		}
	}
	return nil
}

// setFrees broadcasts the free variables of u over the fold's lanes into
// each of the register files.
func (w *worker) setFrees(u *vecUnit, files ...[]any) {
	if len(u.free) == 0 {
		return
	}
	ff := &frame{m: w.f.m, n: w.f.m.opts.FoldLanes, vars: map[string]col{}, parent: w.f, kind: lambdaFrame,
		pool: w.pool, wk: w, depth: w.f.depth, soac: w.f.soac + 1}
	for _, fr := range u.free {
		d := ff.lookup(fr.v).data
		for _, regs := range files {
			regs[fr.reg] = d
		}
	}
}

// Map-fused lane folds. A redomap whose map is column code and whose one
// reduction is lane-foldable (MSSP) need not make the map's columns for
// a chunk at all: each step gathers the map's inputs at lane i of every
// segment, runs the map's column code over those L lanes, and
// folds its results, read from the map's registers, into the
// accumulators. This saves writing and reading back the chunk's mapped
// columns and gathers one input column where the map returns several
// (MSSP's map turns one i32 into four).

// mapFold is a redomap planned as a map-fused lane fold.
type mapFold struct {
	mapL *core.Lambda
	mapU *vecUnit
	op   *opInfo
	opU  *vecUnit
}

// mapFoldOf plans e as a map-fused lane fold, or returns nil.
func (f *frame) mapFoldOf(e *core.Screma, op *opInfo, ins []eval.Value) *mapFold {
	if f.m.opts.Interpret || op.builtin || op.lex != nil || op.wide() || !scalarTypes(op.types) {
		return nil
	}
	for _, in := range ins {
		if len(in.Shape) != 1 {
			return nil
		}
	}
	opU := f.m.vecUnitOf(op.lam)
	if opU == nil || !laneFoldable(op, opU) {
		return nil
	}
	mapU := f.m.vecUnitOf(e.Map)
	if mapU == nil || !mapU.strip || len(mapU.params) != len(ins) || len(mapU.results) != len(op.types) {
		return nil
	}
	return &mapFold{mapL: e.Map, mapU: mapU, op: op, opU: opU}
}

// mapFoldState is a worker's register files for a mapFold: the map's
// (its parameters the gathered inputs) and the operator's lane fold,
// whose right operands are the map's result registers.
type mapFoldState struct {
	blk     [][]any // per input, gatherBlock columns of gathered lanes
	mapRegs []any
	lf      *laneFold
}

func (w *worker) mapFoldStateOf(mf *mapFold) *mapFoldState {
	if w.mapFolds == nil {
		w.mapFolds = map[*mapFold]*mapFoldState{}
	}
	st, ok := w.mapFolds[mf]
	if ok {
		return st
	}
	u, foldLanes := mf.mapU, w.f.m.opts.FoldLanes
	st = &mapFoldState{blk: make([][]any, len(u.params)), mapRegs: make([]any, len(u.types))}
	for r, t := range u.types {
		st.mapRegs[r] = eval.MakeSlice(t, foldLanes) // frees are replaced per chunk
	}
	for i, r := range u.params {
		st.blk[i] = make([]any, gatherBlock)
		for b := range st.blk[i] {
			st.blk[i][b] = eval.MakeSlice(u.types[r], foldLanes)
		}
	}
	st.lf = w.laneFoldOf(mf.opU)
	w.mapFolds[mf] = st
	return st
}

// vecMapFold folds the map of mf over elements lo..lo+n-1 of ins into acc
// (nil: nothing yet); the result is fresh.
func (w *worker) vecMapFold(mf *mapFold, acc []col, ins []eval.Value, lo int64, n int) ([]col, error) {
	foldLanes := w.f.m.opts.FoldLanes
	m := n / foldLanes
	if m < 2 {
		cols, err := w.runLambdaOn(mf.mapL, nil, ins, lo, n)
		if err != nil {
			return nil, err
		}
		return w.foldChunk(mf.op, acc, cols, n)
	}
	st := w.mapFoldStateOf(mf)
	mu, ou, lf := mf.mapU, mf.opU, st.lf
	k := len(ou.results)
	w.setFrees(mu, st.mapRegs)
	w.setFrees(ou, lf.regs[0], lf.regs[1])
	for c, r := range mu.results {
		lf.regs[0][ou.params[k+c]], lf.regs[1][ou.params[k+c]] = st.mapRegs[r], st.mapRegs[r]
	}
	// The inputs are gathered gatherBlock steps at a time: one short
	// contiguous read per segment and step block, where a gather per step
	// would read every segment's cache line again at each step.
	views := make([]any, len(ins))
	for j, in := range ins {
		views[j] = sliceAny(in.Data, int(lo), int(lo)+n)
	}
	s := 0
	for i0 := 0; i0 < m; i0 += gatherBlock {
		cnt := min(gatherBlock, m-i0)
		for j := range ins {
			gatherBlockOf(st.blk[j][:cnt], views[j], i0, m)
		}
		for b := 0; b < cnt; b++ {
			for j, r := range mu.params {
				st.mapRegs[r] = st.blk[j][b]
			}
			// A result that is a parameter is this step's gathered column.
			for c, r := range mu.results {
				lf.regs[0][ou.params[k+c]], lf.regs[1][ou.params[k+c]] = st.mapRegs[r], st.mapRegs[r]
			}
			if err := runVecOps(w, mu, st.mapRegs); err != nil {
				return nil, err
			}
			if i0+b == 0 {
				for c, r := range mu.results {
					copyAt(lf.acc[0][c], 0, st.mapRegs[r])
				}
				continue
			}
			if err := lf.step(w, ou, s); err != nil {
				return nil, err
			}
			s = 1 - s
		}
	}
	accs := make([]col, k)
	for c := range accs {
		accs[c] = col{data: lf.acc[s][c]}
	}
	r, err := w.vecTreeReduce(mf.op, ou, accs, foldLanes)
	if err != nil {
		return nil, err
	}
	if t := n - m*foldLanes; t > 0 {
		cols, err := w.runLambdaOn(mf.mapL, nil, ins, lo+int64(m*foldLanes), t)
		if err != nil {
			return nil, err
		}
		if r, err = w.foldChunk(mf.op, r, cols, t); err != nil {
			return nil, err
		}
	}
	if acc == nil {
		return r, nil
	}
	return w.combine(mf.op, acc, r)
}

// laneFolds reports whether some reduction of reds is general and all
// general ones are lane-major folds.
func (f *frame) laneFolds(reds []*opInfo) bool {
	some := false
	for _, op := range reds {
		if op.builtin || op.lex != nil || op.wide() {
			continue
		}
		if f.m.opts.Interpret || !scalarTypes(op.types) {
			return false
		}
		u := f.m.vecUnitOf(op.lam)
		if u == nil || !laneFoldable(op, u) {
			return false
		}
		some = true
	}
	return some
}

// gatherBlock is the number of steps of a map-fused fold gathered at once.
const gatherBlock = 8

// gatherBlockOf sets column b of dsts, for each b, to lanes start+b,
// start+b+stride, start+b+2*stride, ... of src.
func gatherBlockOf(dsts []any, src any, start, stride int) {
	switch s := src.(type) {
	case []int32:
		if len(dsts) == gatherBlock && transpose8x32 != nil {
			var ds [gatherBlock][]int32
			for b, d := range dsts {
				ds[b] = d.([]int32)
			}
			transpose8x32(&ds, s, start, stride)
			return
		}
		gatherBlockT(dsts, s, start, stride)
	case []int64:
		gatherBlockT(dsts, s, start, stride)
	case []float32:
		gatherBlockT(dsts, s, start, stride)
	case []float64:
		gatherBlockT(dsts, s, start, stride)
	case []uint32:
		gatherBlockT(dsts, s, start, stride)
	case []uint64:
		gatherBlockT(dsts, s, start, stride)
	default:
		for b, d := range dsts {
			gatherStride(d, src, start+b, stride)
		}
	}
}

func gatherBlockT[T any](dsts []any, s []T, start, stride int) {
	var ds [gatherBlock][]T
	for b, d := range dsts {
		ds[b] = d.([]T)
	}
	n := len(ds[0])
	if len(dsts) == gatherBlock {
		d0, d1, d2, d3 := ds[0][:n], ds[1][:n], ds[2][:n], ds[3][:n]
		d4, d5, d6, d7 := ds[4][:n], ds[5][:n], ds[6][:n], ds[7][:n]
		for j := range n {
			o := start + j*stride
			row := s[o : o+gatherBlock : o+gatherBlock]
			d0[j], d1[j], d2[j], d3[j] = row[0], row[1], row[2], row[3]
			d4[j], d5[j], d6[j], d7[j] = row[4], row[5], row[6], row[7]
		}
		return
	}
	for b := range dsts {
		d := ds[b][:n]
		for j := range n {
			d[j] = s[start+b+j*stride]
		}
	}
}

// transpose8x32, where the CPU has vector shuffles (fused_avx2.go), is
// gatherBlockT of 4-byte lanes by 8x8 transposes in vector registers:
// ds[b][j] = s[start + b + j*stride].
var transpose8x32 func(ds *[gatherBlock][]int32, s []int32, start, stride int)
