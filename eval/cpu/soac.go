package cpu

import (
	"context"
	"sync"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// worker runs lambdas over chunks on one goroutine, with its own column
// pool. parent is the frame executing the SOAC: the lambdas' free
// variables are the same in every lane.
type worker struct {
	f      *frame
	pool   *pool
	consts map[core.Const]any // constant columns of pool.size elements
	ones   map[core.Const]any // constants as one-element slices
	unis   map[string]any     // broadcast free scalars, by variable name
	lexBuf [2][]int32         // candidate lanes of lexicographic reductions
	// The projected keys of the last accumulator a lexicographic fold
	// compared with (which stays the same over most chunks).
	lexAcc     *col
	lexAccKeys []col
	single     *worker                // for single lanes (see lane)
	vecs       map[*vecUnit]*vecState // registers and strips of column code (veccode.go)
	trees      map[*opInfo]*treeBufs  // vecTreeReduce's columns
	folds      map[*vecUnit]*laneFold // vecLaneFold's columns
	mapFolds   map[*mapFold]*mapFoldState
}

// lane is a worker for evaluations of one lane beside w's chunks: its
// constant columns are one element long, where w's are a chunk each (which
// a long chunk makes a megabyte to fill).
func (w *worker) lane() *worker {
	if w.single == nil {
		w.single = &worker{f: w.f, pool: newPool(1), consts: map[core.Const]any{}, ones: map[core.Const]any{}, unis: map[string]any{}}
	}
	return w.single
}

func (f *frame) newWorker() *worker {
	return &worker{f: f, pool: newPool(f.m.opts.Chunk), consts: map[core.Const]any{}, ones: map[core.Const]any{}, unis: map[string]any{}}
}

// one is c as a one-element slice, made once per worker (the operand of
// vector-scalar kernels, which need no column).
func (w *worker) one(c core.Const) any {
	d, ok := w.ones[c]
	if !ok {
		d = eval.Scalar(c).Data
		w.ones[c] = d
	}
	return d
}

// widen lets the worker run chunks of up to n elements: its cached
// constant and broadcast columns are as long as its pool's size, so they
// are dropped and remade at the new length.
func (w *worker) widen(n int) {
	if n <= w.pool.size {
		return
	}
	w.pool.size = n
	clear(w.consts)
	clear(w.unis)
}

// constant is a column of at least n copies of c, made once per worker at
// pool.size, or at n when n is a small fraction of it (columnLen: the
// one-lane combines of block partials would otherwise allocate and fill
// whole chunks of every constant on every call).
func (w *worker) constant(c core.Const, n int) any {
	d, ok := w.consts[c]
	if !ok || anyLen(d) < n {
		d = eval.MakeSlice(c.T, columnLen(n, w.pool.size))
		fillAny(d, eval.Scalar(c).Data, 0)
		w.consts[c] = d
	}
	return d
}

// apply runs a lambda over n lanes of argument columns.
func (w *worker) apply(l *core.Lambda, args []col, n int) ([]col, error) {
	if !w.f.m.opts.Interpret {
		if u := w.f.m.vecUnitOf(l); u != nil {
			return u.run(w, args, n)
		}
	}
	lf := &frame{m: w.f.m, n: n, vars: make(map[string]col, len(l.Params)+len(l.Body.Stmts)),
		parent: w.f, kind: lambdaFrame, pool: w.pool, wk: w, depth: w.f.depth, soac: w.f.soac + 1}
	for i, p := range l.Params {
		lf.vars[p.Name] = args[i]
	}
	return lf.body(l.Body)
}

func (w *worker) allocCol(t core.Type, n int) col {
	if t.Rank == 0 {
		return col{data: w.pool.get(t.Elem, n)}
	}
	return col{arrs: make([]eval.Value, n)}
}

// strided gathers lanes start, start+stride, ... (cnt of them).
func (w *worker) strided(c col, t core.Type, start, stride, cnt int) col {
	if t.Rank == 0 {
		d := w.pool.get(t.Elem, cnt)
		gatherStride(d, c.data, start, stride)
		return col{data: d}
	}
	if c.uni || len(c.arrs) == 1 {
		return col{arrs: c.arrs[:1], uni: true}
	}
	arrs := make([]eval.Value, cnt)
	for i := range arrs {
		arrs[i] = c.arrs[start+i*stride]
	}
	return col{arrs: arrs}
}

// pairs appends to args the columns of lanes 0, 2, 4, ... and then of
// lanes 1, 3, 5, ... (h of each) of xs: the left and right operands of a
// pairwise tree level. A scalar column is split in one pass over it.
func (w *worker) pairs(xs []col, ts []core.Type, h int, args []col) []col {
	odd := make([]col, len(xs))
	for k, c := range xs {
		if ts[k].Rank != 0 {
			args = append(args, w.strided(c, ts[k], 0, 2, h))
			odd[k] = w.strided(c, ts[k], 1, 2, h)
			continue
		}
		e, o := w.pool.get(ts[k].Elem, h), w.pool.get(ts[k].Elem, h)
		deinterleave(e, o, c.data)
		args = append(args, col{data: e})
		odd[k] = col{data: o}
	}
	return append(args, odd...)
}

// setCol sets lane i of dst to lane j of src.
func setCol(dst col, t core.Type, i int, src col, j int) {
	if t.Rank == 0 {
		setLane(dst.data, i, src.data, j)
		return
	}
	dst.arrs[i] = src.arr(j)
}

// fresh copies lane i of each column into memory owned by no pool, so it
// survives the chunk (accumulators and carries).
func fresh(cs []col, ts []core.Type, i int) []col {
	out := make([]col, len(cs))
	for k, c := range cs {
		if ts[k].Rank == 0 {
			d := eval.MakeSlice(ts[k].Elem, 1)
			setLane(d, 0, c.data, i)
			out[k] = col{data: d}
		} else {
			out[k] = col{arrs: []eval.Value{c.arr(i)}}
		}
	}
	return out
}

// broadcast makes n-lane columns of one-lane values.
func (w *worker) broadcast(cs []col, ts []core.Type, n int) []col {
	out := make([]col, len(cs))
	for k, c := range cs {
		if ts[k].Rank == 0 {
			d := w.pool.get(ts[k].Elem, n)
			fillAny(d, c.data, 0)
			out[k] = col{data: d}
		} else {
			out[k] = col{arrs: c.arrs[:1], uni: true}
		}
	}
	return out
}

// opInfo is a reduce or scan operator.
type opInfo struct {
	lam     *core.Lambda
	ne      []core.Atom
	types   []core.Type
	builtin bool
	bop     core.BinOp
	bt      core.PrimType
	// comm: the operator was declared commutative (reduce_comm), so a
	// chunk may be reduced in any order.
	comm bool
	// lex: the operator selects one argument by a lexicographic order of
	// integer components (lexop.go).
	lex *lexOp
}

func newOp(l *core.Lambda, ne []core.Atom) *opInfo {
	op := &opInfo{lam: l, ne: ne, types: core.AtomTypes(ne)}
	if len(ne) == 1 && ne[0].AtomType().Rank == 0 {
		op.bop, op.bt, op.builtin = recognise(l)
		op.builtin = op.builtin && (op.bt == ne[0].AtomType().Elem || op.bt == core.F16 && ne[0].AtomType().Elem == core.F32)
	}
	if !op.builtin {
		op.lex = recogniseLex(l)
	}
	return op
}

// neutral is the operator's neutral element as fresh one-lane columns.
func (f *frame) neutral(op *opInfo) []col {
	cs := make([]col, len(op.ne))
	for i, a := range op.ne {
		cs[i] = valueCol(f.laneValue(f.atom(a), op.types[i], 0))
	}
	return cs
}

func concatCols(a, b []col) []col {
	return append(append(make([]col, 0, len(a)+len(b)), a...), b...)
}

// combine applies the operator to two one-lane values, returning fresh
// columns.
func (w *worker) combine(op *opInfo, a, b []col) ([]col, error) {
	if op.builtin {
		d := eval.MakeSlice(op.bt, 1)
		setLane(d, 0, a[0].data, 0)
		foldTab[op.bop][op.bt](d, sliceAny(b[0].data, 0, 1))
		return []col{{data: d}}, nil
	}
	r, err := w.apply(op.lam, concatCols(a, b), 1)
	if err != nil {
		return nil, err
	}
	return fresh(r, op.types, 0), nil
}

// treeReduce reduces n lanes to one by combining neighbours pairwise, which
// keeps the order of a non-commutative operator and runs every level as
// one vectorised application.
func (w *worker) treeReduce(op *opInfo, xs []col, n int) ([]col, error) {
	if n > 1 && !w.f.m.opts.Interpret && !op.builtin && scalarTypes(op.types) {
		if u := w.f.m.vecUnitOf(op.lam); u != nil {
			if n >= 2*w.f.m.opts.FoldLanes && laneFoldable(op, u) {
				return w.vecLaneFold(op, u, xs, n)
			}
			return w.vecTreeReduce(op, u, xs, n)
		}
	}
	halves := op.comm
	for _, t := range op.types {
		halves = halves && t.Rank == 0
	}
	for n > 1 {
		h := n / 2
		args := make([]col, 0, 2*len(xs))
		if halves {
			// A commutative operator may combine lane i with lane i+h:
			// both halves are views of the columns, with no gather.
			for _, c := range xs {
				args = append(args, col{data: sliceAny(c.data, 0, h)})
			}
			for _, c := range xs {
				args = append(args, col{data: sliceAny(c.data, h, 2*h)})
			}
		} else {
			args = w.pairs(xs, op.types, h, args)
		}
		r, err := w.apply(op.lam, args, h)
		if err != nil {
			return nil, err
		}
		if n%2 == 1 {
			ext := make([]col, len(r))
			for k := range r {
				ext[k] = w.allocCol(op.types[k], h+1)
				for i := 0; i < h; i++ {
					setCol(ext[k], op.types[k], i, r[k], i)
				}
				setCol(ext[k], op.types[k], h, xs[k], n-1)
			}
			r = ext
			h++
		}
		xs, n = r, h
	}
	return xs, nil
}

// foldChunk folds n lanes of xs into acc (nil: nothing yet); the result is
// fresh.
func (w *worker) foldChunk(op *opInfo, acc, xs []col, n int) ([]col, error) {
	if n == 0 {
		return acc, nil
	}
	if op.builtin {
		start := 0
		var a any
		if acc == nil {
			a = eval.MakeSlice(op.bt, 1)
			setLane(a, 0, xs[0].data, 0)
			start = 1
		} else {
			a = acc[0].data
		}
		foldTab[op.bop][op.bt](a, sliceAny(xs[0].data, start, n))
		return []col{{data: a}}, nil
	}
	r, err := w.treeReduce(op, xs, n)
	if err != nil {
		return nil, err
	}
	if acc == nil {
		return fresh(r, op.types, 0), nil
	}
	return w.combine(op, acc, r)
}

// pairScan is the inclusive scan of n lanes, vectorised: scan the pairwise
// sums, then fill in the even positions.
func (w *worker) pairScan(op *opInfo, xs []col, n int) ([]col, error) {
	if n <= 1 {
		return xs, nil
	}
	h := n / 2
	args := w.pairs(xs, op.types, h, make([]col, 0, 2*len(xs)))
	y, err := w.apply(op.lam, args, h)
	if err != nil {
		return nil, err
	}
	ys, err := w.pairScan(op, y, h)
	if err != nil {
		return nil, err
	}
	out := make([]col, len(xs))
	for k := range xs {
		out[k] = w.allocCol(op.types[k], n)
		setCol(out[k], op.types[k], 0, xs[k], 0)
		for i := 0; i < h; i++ {
			setCol(out[k], op.types[k], 2*i+1, ys[k], i)
		}
	}
	// Even positions 2, 4, ...: ys[i-1] op xs[2i].
	if e := (n+1)/2 - 1; e > 0 {
		args = args[:0]
		for k := range xs {
			args = append(args, w.strided(ys[k], op.types[k], 0, 1, e))
		}
		for k, c := range xs {
			args = append(args, w.strided(c, op.types[k], 2, 2, e))
		}
		z, err := w.apply(op.lam, args, e)
		if err != nil {
			return nil, err
		}
		for k := range xs {
			for i := 0; i < e; i++ {
				setCol(out[k], op.types[k], 2*(i+1), z[k], i)
			}
		}
	}
	return out, nil
}

// scanChunk scans n lanes starting from carry (fresh, one lane); it
// returns the scanned columns and the new carry (fresh).
func (w *worker) scanChunk(op *opInfo, carry, xs []col, n int, dst any) ([]col, []col, error) {
	if n == 0 {
		return xs, carry, nil
	}
	if op.builtin {
		d := dst
		if d == nil {
			d = w.pool.get(op.bt, n)
		}
		c := eval.MakeSlice(op.bt, 1)
		setLane(c, 0, carry[0].data, 0)
		scanTab[op.bop][op.bt](d, sliceAny(xs[0].data, 0, n), c)
		return []col{{data: d}}, []col{{data: c}}, nil
	}
	local, err := w.pairScan(op, xs, n)
	if err != nil {
		return nil, nil, err
	}
	out, err := w.apply(op.lam, concatCols(w.broadcast(carry, op.types, n), local), n)
	if err != nil {
		return nil, nil, err
	}
	return out, fresh(out, op.types, n-1), nil
}

// parallel runs fn for blocks 0..n-1 on separate goroutines (inline when
// n is 1) and returns the error of the lowest failing block, so the error
// reported does not depend on scheduling.
func (f *frame) parallel(n int, fn func(b int, w *worker) error) error {
	return f.parallelReuse(n, nil, fn)
}

// parallelReuse is parallel running a single block on reuse when set.
func (f *frame) parallelReuse(n int, reuse *worker, fn func(b int, w *worker) error) error {
	if tr := f.m.timings.Trace; tr != nil && f.soac == 0 {
		fn = traced(tr, f.m.phase, fn)
	}
	if n == 1 {
		if reuse == nil {
			reuse = f.newWorker()
		}
		return fn(0, reuse)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for b := 0; b < n; b++ {
		wg.Add(1)
		go func(b int) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					errs[b] = internalError(r)
				}
			}()
			errs[b] = fn(b, f.newWorker())
		}(b)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// traced is fn recording each block's span in tr (`:trace`): its block
// number is both its tile and its lane, since every block has a
// goroutine of its own.
func traced(tr *eval.Trace, phase string, fn func(b int, w *worker) error) func(b int, w *worker) error {
	if phase == "" {
		phase = "parallel pass"
	}
	return func(b int, w *worker) error {
		start := time.Now()
		err := fn(b, w)
		tr.Add(b, b, phase, start, time.Now())
		return err
	}
}

// loopsInside reports whether l runs a loop, directly or in a map of its
// body: work per element that its count does not show.
func loopsInside(l *core.Lambda) bool {
	for _, st := range l.Body.Stmts {
		switch e := st.Exp.(type) {
		case *core.LoopExp:
			return true
		case *core.Screma:
			if loopsInside(e.Map) {
				return true
			}
		}
	}
	return false
}

// blocks splits w elements into contiguous blocks, one per worker, or a
// single block when the work is too small to be worth a goroutine or when
// this SOAC is nested in another (the outer one is already parallel).
func (f *frame) blocks(w int64, workers int) [][2]int64 {
	chunk := int64(f.m.opts.Chunk)
	nb := int64(workers)
	if f.soac > 0 || w < 2*chunk {
		nb = 1
	}
	if c := (w + chunk - 1) / chunk; nb > c {
		nb = max(c, 1)
	}
	bs := make([][2]int64, nb)
	for b := range bs {
		bs[b] = [2]int64{w * int64(b) / nb, w * int64(b+1) / nb}
	}
	return bs
}

// chunks calls fn for each chunk of [lo, hi), checking for cancellation.
func (f *frame) chunks(w *worker, lo, hi int64, fn func(lo int64, n int) error) error {
	return f.chunksOf(w, lo, hi, int64(f.m.opts.Chunk), fn)
}

// chunksOf is chunks with chunk elements per call.
func (f *frame) chunksOf(w *worker, lo, hi, chunk int64, fn func(lo int64, n int) error) error {
	for c := lo; c < hi; c += chunk {
		if err := f.m.cancelled(); err != nil {
			return err
		}
		n := min(chunk, hi-c)
		if err := fn(c, int(n)); err != nil {
			return err
		}
		w.pool.release()
	}
	return nil
}

// inputCols are the lambda parameters for elements lo..lo+n-1 of inputs,
// plus the index column when idx is set.
func (w *worker) inputCols(inputs []eval.Value, idx *core.Var, lo int64, n int) []col {
	cols := make([]col, 0, len(inputs)+1)
	for _, in := range inputs {
		if len(in.Shape) == 1 {
			cols = append(cols, col{data: sliceAny(in.Data, int(lo), int(lo)+n)})
			continue
		}
		arrs := make([]eval.Value, n)
		for i := range arrs {
			arrs[i] = row(in, lo+int64(i))
		}
		cols = append(cols, col{arrs: arrs})
	}
	if idx != nil {
		d := w.pool.get(core.I64, n).([]int64)
		for i := range d {
			d[i] = lo + int64(i)
		}
		cols = append(cols, col{data: d})
	}
	return cols
}

// runLambdaOn applies a SOAC's element lambda (with the index parameter
// bound when present) to a chunk.
func (w *worker) runLambdaOn(l *core.Lambda, idx *core.Var, inputs []eval.Value, lo int64, n int) ([]col, error) {
	cols, _, err := w.runLambdaSkip(l, idx, inputs, lo, n, nil)
	return cols, err
}

// runLambdaSkip is runLambdaOn leaving out the statements of skip; it also
// returns the lambda's frame, from which fused reductions read operands.
func (w *worker) runLambdaSkip(l *core.Lambda, idx *core.Var, inputs []eval.Value, lo int64, n int, skip *skipSet) ([]col, *frame, error) {
	args := w.inputCols(inputs, idx, lo, n)
	lf := &frame{m: w.f.m, n: n, vars: make(map[string]col, len(l.Params)+len(l.Body.Stmts)+1),
		parent: w.f, kind: lambdaFrame, pool: w.pool, wk: w, depth: w.f.depth, soac: w.f.soac + 1, skip: skip}
	for i, p := range l.Params {
		lf.vars[p.Name] = args[i]
	}
	if idx != nil {
		lf.vars[idx.Name] = args[len(args)-1]
	}
	cols, err := lf.body(l.Body)
	return cols, lf, err
}

// outArr is an array result being filled chunk by chunk. Arrays of arrays
// learn their row shape from the first chunk written; every other row must
// match it.
type outArr struct {
	t     core.Type // type of one element
	w     int64
	mu    sync.Mutex
	ready bool
	v     eval.Value
}

func (f *frame) newOut(s *core.Stmt, t core.Type, w int64) (*outArr, error) {
	o := &outArr{t: t, w: w}
	if t.Rank == 0 {
		v, err := f.newArray(s, t.Elem, w)
		if err != nil {
			return nil, err
		}
		o.v, o.ready = v, true
	}
	return o, nil
}

func (o *outArr) ensure(f *frame, s *core.Stmt, shape []int64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ready {
		return nil
	}
	v, err := f.newArray(s, o.t.Elem, append([]int64{o.w}, shape...)...)
	if err != nil {
		return err
	}
	o.v, o.ready = v, true
	return nil
}

func (o *outArr) write(f *frame, s *core.Stmt, lo int64, c col, n int) error {
	if n == 0 {
		return nil
	}
	if o.t.Rank == 0 {
		copyAt(o.v.Data, int(lo), sliceAny(c.data, 0, n))
		return nil
	}
	if err := o.ensure(f, s, c.arr(0).Shape); err != nil {
		return err
	}
	rowShape := o.v.Shape[1:]
	rl := rowLen(o.v)
	for i := 0; i < n; i++ {
		a := c.arr(i)
		if !sameShape(a.Shape, rowShape) {
			return f.errAt(s, "irregular array: element %d has shape %s but element 0 has shape %s",
				lo+int64(i), shapeString(a.Shape), shapeString(rowShape))
		}
		copyAt(o.v.Data, int((lo+int64(i))*rl), a.Data)
	}
	return nil
}

func (o *outArr) value() eval.Value {
	if !o.ready {
		shape := make([]int64, o.t.Rank+1)
		shape[0] = o.w
		o.v = eval.NewArray(o.t.Elem, shape...)
	}
	return o.v
}

func (f *frame) record(name string, start time.Time, bytes int64) {
	if f.soac > 0 {
		return
	}
	f.m.tmu.Lock()
	f.m.timings.Kernels = append(f.m.timings.Kernels, eval.KernelTiming{Name: name, Time: time.Since(start), Bytes: bytes})
	f.m.tmu.Unlock()
}

func valuesBytes(vs ...eval.Value) int64 {
	n := int64(0)
	for _, v := range vs {
		n += v.Len() * int64(v.Elem.Size())
	}
	return n
}

// soacInputs evaluates a SOAC's width and input arrays and checks that
// every input has W rows.
func (f *frame) soacInputs(s *core.Stmt, wa core.Atom, arrs []*core.Var) (int64, []eval.Value, error) {
	w := f.scalarInt(wa)
	if w < 0 {
		return 0, nil, f.errAt(s, "negative size %d", w)
	}
	ins := make([]eval.Value, len(arrs))
	for i, a := range arrs {
		ins[i] = f.value(a)
		if len(ins[i].Shape) == 0 || ins[i].Shape[0] != w {
			return 0, nil, f.errAt(s, "size mismatch: array of shape %s where %d elements are expected",
				shapeString(ins[i].Shape), w)
		}
	}
	return w, ins, nil
}

// ---------------------------------------------------------------------------
// Screma

func (f *frame) screma(s *core.Stmt, e *core.Screma) ([]eval.Value, error) {
	start := time.Now()
	w, ins, err := f.soacInputs(s, e.W, e.Arrs)
	if err != nil {
		return nil, err
	}
	res, err := f.runScrema(s, e, w, ins, f.m.opts.Workers, nil)
	if err != nil {
		return nil, err
	}
	f.record("screma("+e.Kind()+")", start, valuesBytes(ins...)+valuesBytes(res...))
	return res, nil
}

// runScrema runs a Screma over inputs of w rows with up to workers
// goroutines; reuse, when set, is the worker to use when one suffices (the
// segments of a segmented operation share one per goroutine).
func (f *frame) runScrema(s *core.Stmt, e *core.Screma, w int64, ins []eval.Value, workers int, reuse *worker) ([]eval.Value, error) {
	ns, nr := e.NumScanned(), e.NumReduced()
	mapRet := e.Map.Ret
	if len(mapRet) < ns+nr {
		return nil, f.errAt(s, "internal error: map lambda returns too few values")
	}
	scans := make([]*opInfo, len(e.Scans))
	for i, op := range e.Scans {
		scans[i] = newOp(op.Lambda, op.Neutral)
	}
	reds := make([]*opInfo, len(e.Reds))
	for i, op := range e.Reds {
		reds[i] = newOp(op.Lambda, op.Neutral)
		reds[i].comm = op.Comm
	}
	var outTypes []core.Type
	if e.Post != nil {
		outTypes = e.Post.Ret
	} else {
		outTypes = append(append(outTypes, mapRet[:ns]...), mapRet[ns+nr:]...)
	}
	outs := make([]*outArr, len(outTypes))
	for i, t := range outTypes {
		o, err := f.newOut(s, t, w)
		if err != nil {
			return nil, err
		}
		outs[i] = o
	}
	if err := f.presize(s, e, w, ins, outs); err != nil {
		return nil, err
	}
	bs := f.blocks(w, workers)
	if len(bs) == 1 && f.soac == 0 && workers > 1 && w > 1 && loopsInside(e.Map) {
		// Few elements, each a loop's work (Mandelbrot's 500 rows, each
		// a masked loop over its points): blocks too short to be worth
		// a goroutine by their count are worth one by their work.
		nb := min(int64(workers), w)
		bs = make([][2]int64, nb)
		for b := range bs {
			bs[b] = [2]int64{w * int64(b) / nb, w * int64(b+1) / nb}
		}
	}
	nb := len(bs)
	// Chunks exist to keep the map's columns in cache; with nothing but
	// builtin operators over the inputs themselves there are no columns,
	// and longer chunks save the per-chunk set-up.
	step := int64(f.m.opts.Chunk)
	if columnFree(e, scans, reds) {
		step = longChunk(step, columnFreeChunks)
	}

	// Scans whose operator is a builtin with a vector-scalar kernel, without
	// a post-map, scan each block from the neutral element and add the
	// block's carry afterwards (scan-then-propagate): the map runs once,
	// where the three-phase method runs it in phase 1 and again in phase 3.
	// A column-free Screma has no map to run twice, and its phase 1 only
	// reads memory, where propagating reads and writes the result again,
	// so it keeps the three phases.
	propagate := len(scans) > 0 && nb > 1 && e.Post == nil && !columnFree(e, scans, reds)
	for _, op := range scans {
		propagate = propagate && op.builtin && binVSTab[op.bop][op.bt] != nil
	}
	seq := reuse
	if seq == nil {
		seq = f.newWorker()
	}
	// Phase 1 (several blocks with scans): the total of every block but the
	// last (whose total no block needs).
	totals := make([][][]col, nb)
	if len(scans) > 0 && nb > 1 && !propagate {
		f.m.phase = "1: block totals"
		err := f.blockTotals(e, scans, ins, bs, step, reuse, seq, totals)
		f.m.phase = ""
		if err != nil {
			return nil, err
		}
	}
	phase2 := time.Now()
	// Phase 2: the carry into every block (an exclusive scan of the totals,
	// starting from the neutral element).
	carries := make([][][]col, nb)
	for b := range carries {
		carries[b] = make([][]col, len(scans))
		for k, op := range scans {
			switch {
			case b == 0:
				carries[b][k] = f.neutral(op)
			case totals[b-1] == nil || totals[b-1][k] == nil: // no phase 1 (propagate), or an empty block
				carries[b][k] = carries[b-1][k]
			default:
				c, err := seq.combine(op, carries[b-1][k], totals[b-1][k])
				if err != nil {
					return nil, err
				}
				carries[b][k] = c
			}
		}
	}
	if tr := f.m.timings.Trace; tr != nil && f.soac == 0 && len(scans) > 0 && nb > 1 {
		f.m.phase = "1+3: scan, then add carry"
		if !propagate {
			tr.Add(0, 0, "2: carries", phase2, time.Now())
			f.m.phase = "3: scan with carry-in"
		}
		defer func() { f.m.phase = "" }()
	}
	// Phase 3: one pass over every chunk feeding scans (with carry-in),
	// reductions, map-outs and the post-map.
	parts := make([][][]col, nb)
	tails, skip := redTails(e, reds)
	heads, skip := scanHeads(e, scans, skip)
	iotas, lazyIndex := lexIotas(e, reds)
	index := e.Index
	if lazyIndex {
		if skip == nil {
			skip = &skipSet{stmts: map[*core.Stmt]bool{}, vars: map[string]bool{}}
		}
		skip.vars[e.Index.Name] = true
		index = nil
	}
	inKeys, skip, mapIndex := lexInputKeys(e, reds, tails, skip)
	if !mapIndex {
		index = nil
	}
	// When every reduction takes its keys from the inputs and nothing else
	// is computed, the map need not run per chunk at all: its statements
	// are all skipped, and setting up its frame anyway was 13% of
	// IndexOfMaxPack's time.
	mapFree := len(scans) == 0 && len(outs) == 0 && e.Post == nil && inKeys != nil
	for k := range reds {
		mapFree = mapFree && inKeys[k] != nil
	}
	// A redomap of one lane-foldable reduction over a map in column code
	// folds without making the map's columns (lanefold.go).
	var mf *mapFold
	if !mapFree && skip == nil && index == nil && len(scans) == 0 && len(outs) == 0 && e.Post == nil && len(reds) == 1 {
		mf = f.mapFoldOf(e, reds[0], ins)
	}
	// When fused tails, chains and index-free lexicographic reductions have
	// taken every statement of the map, phase 3 makes no columns either.
	step3 := step
	switch {
	case step != int64(f.m.opts.Chunk):
	case noColumnsLeft(e, scans, reds, skip):
		step3 = longChunk(step, columnFreeChunks)
	case len(scans) == 0 && f.laneFolds(reds):
		step3 = longChunk(step, laneFoldChunks)
	case treeOps(scans, reds):
		step3 = longChunk(step, treeChunks)
	}
	blockTotals := make([][][]col, nb) // with propagate: each block's own scan total
	err := f.parallelReuse(nb, reuse, func(b int, wk *worker) error {
		parts[b] = make([][]col, len(reds))
		carry := append([][]col(nil), carries[b]...)
		defer func() { blockTotals[b] = carry }()
		direct := make([]bool, len(outs))
		// A SOAC narrower than a chunk (one in a lambda, run per lane of
		// it) sizes a fresh worker's columns to its width, not a chunk's.
		span := int(min(step3, max(bs[b][1]-bs[b][0], 1)))
		if reuse == nil && span < wk.pool.size {
			wk.pool.size = span
		}
		wk.widen(span)
		return f.chunksOf(wk, bs[b][0], bs[b][1], step3, func(lo int64, n int) error {
			var cols []col
			var lf *frame
			var err error
			if mf != nil {
				parts[b][0], err = wk.vecMapFold(mf, parts[b][0], ins, lo, n)
				return err
			}
			if !mapFree {
				if cols, lf, err = wk.runLambdaSkip(e.Map, index, ins, lo, n, skip); err != nil {
					return err
				}
			}
			var scanned []col
			off := 0
			for k, op := range scans {
				// A builtin scan without a post-map writes straight into
				// its result array.
				var dst any
				if op.builtin && e.Post == nil {
					dst = sliceAny(outs[off].v.Data, int(lo), int(lo)+n)
					direct[off] = true
				}
				var out []col
				if heads != nil && heads[k] != nil {
					carry[k] = wk.scanHead(op, heads[k], lf, carry[k], dst, n)
					out = []col{{data: dst}}
				} else if out, carry[k], err = wk.scanChunk(op, carry[k], cols[off:off+len(op.ne)], n, dst); err != nil {
					return err
				}
				scanned = append(scanned, out...)
				off += len(op.ne)
			}
			for k, op := range reds {
				if tails != nil && tails[k] != nil {
					parts[b][k] = wk.foldTail(tails[k], parts[b][k], lf)
					off += len(op.ne)
					continue
				}
				switch {
				case inKeys != nil && inKeys[k] != nil:
					// Keys from the inputs; the map's value for the winner only.
					lam, needIndex, iota := inKeys[k].chunk(lo, n, len(op.ne))
					kidx := e.Index
					if !needIndex {
						kidx = nil
					}
					var kc []col
					if kc, _, err = wk.runLambdaSkip(lam, kidx, ins, lo, n, nil); err != nil {
						return err
					}
					at := inKeys[k].pos
					value := func(lane int) ([]col, error) {
						lw := wk.lane()
						defer lw.pool.release()
						vc, err := lw.runLambdaOn(e.Map, e.Index, ins, lo+int64(lane), 1)
						if err != nil {
							return nil, err
						}
						return fresh(vc[at:at+len(op.ne)], op.types, 0), nil
					}
					parts[b][k], err = wk.lexFoldKeys(op, parts[b][k], nil, kc, value, iota, lo, n)
				case op.lex != nil:
					var iota []bool
					if iotas != nil {
						iota = iotas[k]
					}
					parts[b][k], err = wk.lexFold(op, parts[b][k], cols[off:off+len(op.ne)], iota, lo, n)
				case op.wide():
					parts[b][k], err = wk.wideFold(op, parts[b][k], cols[off:off+len(op.ne)], n)
				default:
					parts[b][k], err = wk.foldChunk(op, parts[b][k], cols[off:off+len(op.ne)], n)
				}
				if err != nil {
					return err
				}
				off += len(op.ne)
			}
			if mapFree {
				return nil // no map-outs, post-map or scans
			}
			res := append(scanned, cols[off:]...)
			if e.Post != nil {
				if res, err = wk.apply(e.Post, res, n); err != nil {
					return err
				}
			}
			for i, o := range outs {
				if direct[i] {
					continue
				}
				if err := o.write(f, s, lo, res[i], n); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if propagate {
		if err := f.propagateCarries(scans, outs, bs, blockTotals, seq); err != nil {
			return nil, err
		}
	}
	// Reductions: the block partials in block order, after the neutral.
	var redVals []eval.Value
	for k, op := range reds {
		acc := f.neutral(op)
		for b := range parts {
			part := parts[b][k]
			if part == nil {
				continue
			}
			if op.wide() {
				if part, err = seq.collapse(op, part); err != nil {
					return nil, err
				}
			}
			if acc, err = seq.combine(op, acc, part); err != nil {
				return nil, err
			}
		}
		for i, c := range acc {
			redVals = append(redVals, f.laneValue(c, op.types[i], 0))
		}
	}
	var res []eval.Value
	if e.Post != nil {
		for _, o := range outs {
			res = append(res, o.value())
		}
		return append(res, redVals...), nil
	}
	for _, o := range outs[:ns] {
		res = append(res, o.value())
	}
	res = append(res, redVals...)
	for _, o := range outs[ns:] {
		res = append(res, o.value())
	}
	return res, nil
}

// blockTotals is phase 1 of a three-phase scan: totals[b] becomes the
// scan operators' total over block b, for every block but the last. Each
// block is reduced in two halves, so that with one block per worker every
// worker has a share of the nb-1 blocks; the halves are combined in order.
func (f *frame) blockTotals(e *core.Screma, scans []*opInfo, ins []eval.Value, bs [][2]int64, step int64, reuse, seq *worker, totals [][][]col) error {
	nb := len(bs)
	halves := make([][2]int64, 0, 2*(nb-1))
	for _, blk := range bs[:nb-1] {
		mid := blk[0] + (blk[1]-blk[0])/2
		halves = append(halves, [2]int64{blk[0], mid}, [2]int64{mid, blk[1]})
	}
	parts := make([][][]col, len(halves))
	err := f.parallelReuse(len(halves), reuse, func(h int, wk *worker) error {
		parts[h] = make([][]col, len(scans))
		return f.chunksOf(wk, halves[h][0], halves[h][1], step, func(lo int64, n int) error {
			cols, err := wk.runLambdaOn(e.Map, e.Index, ins, lo, n)
			if err != nil {
				return err
			}
			off := 0
			for k, op := range scans {
				parts[h][k], err = wk.foldChunk(op, parts[h][k], cols[off:off+len(op.ne)], n)
				if err != nil {
					return err
				}
				off += len(op.ne)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	for b := range nb - 1 {
		totals[b] = make([][]col, len(scans))
		for k, op := range scans {
			first, second := parts[2*b][k], parts[2*b+1][k]
			switch {
			case first == nil:
				totals[b][k] = second
			case second == nil:
				totals[b][k] = first
			default:
				if totals[b][k], err = seq.combine(op, first, second); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// presize allocates the array-of-arrays results from the shapes element 0
// gives, before the parallel phases, so that every other row is checked
// against element 0 and an irregular result is reported the same way
// whatever the number of workers.
func (f *frame) presize(s *core.Stmt, e *core.Screma, w int64, ins []eval.Value, outs []*outArr) error {
	need := false
	for _, o := range outs {
		need = need || !o.ready
	}
	if !need {
		return nil
	}
	if w == 0 {
		f.presizeEmpty(s, e, ins, outs)
		return nil
	}
	wk := f.newWorker()
	cols, err := wk.runLambdaOn(e.Map, e.Index, ins, 0, 1)
	if err != nil {
		return err
	}
	ns, nr := e.NumScanned(), e.NumReduced()
	res := append(append([]col{}, cols[:ns]...), cols[ns+nr:]...)
	if e.Post != nil {
		if res, err = wk.apply(e.Post, res, 1); err != nil {
			return err
		}
	}
	for i, o := range outs {
		if !o.ready {
			if err := o.ensure(f, s, res[i].arr(0).Shape); err != nil {
				return err
			}
		}
	}
	return nil
}

// trial is a copy of f on a machine of its own, with a short time limit,
// for the dummy runs that learn the shapes of empty results: what they do
// is not timed, and a runaway loop in one stops there.
func (f *frame) trial() (*frame, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(f.m.ctx, time.Second)
	g := *f
	g.m = newMachine(ctx, f.m.prog, f.m.opts, &eval.Timings{})
	return &g, cancel
}

// presizeEmpty finds the row shapes of an empty map's array results, which
// Futhark knows from the types but core IR leaves to run time: it runs the
// lambda on one row of zeros with the inputs' row shapes, within a short
// time limit and ignoring errors (the result is then all-zero dimensions).
func (f *frame) presizeEmpty(s *core.Stmt, e *core.Screma, ins []eval.Value, outs []*outArr) {
	g, cancel := f.trial()
	defer cancel()
	dummy := make([]eval.Value, len(ins))
	for i, in := range ins {
		dummy[i] = eval.NewArray(in.Elem, append([]int64{1}, in.Shape[1:]...)...)
	}
	defer func() { _ = recover() }()
	wk := g.newWorker()
	cols, err := wk.runLambdaOn(e.Map, e.Index, dummy, 0, 1)
	if err != nil {
		// The row of zeros failed (a read of another empty array, say):
		// the widths of what the lambda builds may still say.
		if e.Post == nil {
			f.presizeStatic(s, e, ins, outs)
		}
		return
	}
	ns, nr := e.NumScanned(), e.NumReduced()
	res := append(append([]col{}, cols[:ns]...), cols[ns+nr:]...)
	if e.Post != nil {
		if res, err = wk.apply(e.Post, res, 1); err != nil {
			return
		}
	}
	for i, o := range outs {
		if !o.ready {
			if o.ensure(f, s, res[i].arr(0).Shape) != nil {
				return
			}
		}
	}
}

// emptySegmentShapes finds the shapes of one segment's results when there
// are no segments, as presizeEmpty does for a map: a segment's inner
// dimensions past the row (a map producing rows of a width the body
// decides) are known to Futhark from the types but only at run time here,
// so it runs the operation on one segment of zeros with the rows' shapes,
// within a short time limit and ignoring errors (nil: the caller guesses).
func (f *frame) emptySegmentShapes(s *core.Stmt, op *core.Screma, w int64, ins []eval.Value) (shapes [][]int64) {
	g, cancel := f.trial()
	defer cancel()
	dummy := make([]eval.Value, len(ins))
	for i, in := range ins {
		dummy[i] = eval.NewArray(in.Elem, in.Shape[1:]...)
	}
	defer func() {
		if recover() != nil {
			shapes = nil
		}
	}()
	r, err := g.runScrema(s, op, w, dummy, 1, g.newWorker())
	if err != nil {
		return nil
	}
	shapes = make([][]int64, len(r))
	for k, v := range r {
		shapes[k] = v.Shape
	}
	return shapes
}

// presizeStatic gives an empty map's array results the shapes that follow
// from the widths of the SOACs, iotas and replicates building them in the
// lambda, where those widths are values outside it (map (\i -> map g (iota
// m)) (iota 0) has rows of m), as Futhark knows from the types.
func (f *frame) presizeStatic(s *core.Stmt, e *core.Screma, ins []eval.Value, outs []*outArr) {
	rows := make([][]int64, len(ins))
	for i, in := range ins {
		rows[i] = in.Shape[1:]
	}
	res := f.staticShapes(e.Map, rows)
	ns, nr := e.NumScanned(), e.NumReduced()
	for i, o := range outs {
		k := i
		if i >= ns {
			k = i + nr
		}
		if !o.ready && k < len(res) && res[k] != nil {
			if o.ensure(f, s, res[k]) != nil {
				return
			}
		}
	}
}

// staticShapes are the shapes of l's results (nil where not known) with
// its array parameters of the given shapes, from the widths of what builds
// them; a value from outside the lambda is read from f.
func (f *frame) staticShapes(l *core.Lambda, params [][]int64) [][]int64 {
	bound := map[string]bool{}
	shapes := map[string][]int64{}
	sizes := map[string]int64{}
	for i, p := range l.Params {
		bound[p.Name] = true
		if i < len(params) && p.Type.IsArray() {
			shapes[p.Name] = params[i]
		}
	}
	dim := func(a core.Atom) (int64, bool) {
		switch a := a.(type) {
		case core.Const:
			return a.Int(), true
		case *core.Var:
			if d, ok := sizes[a.Name]; ok {
				return d, true
			}
			if !bound[a.Name] {
				return f.scalarInt(a), true
			}
		}
		return 0, false
	}
	shape := func(v *core.Var) []int64 {
		if sh, ok := shapes[v.Name]; ok || bound[v.Name] {
			return sh
		}
		return f.value(v).Shape
	}
	for _, st := range l.Body.Stmts {
		for _, v := range st.Pat {
			bound[v.Name] = true
		}
		if len(st.Pat) == 0 {
			continue
		}
		v := st.Pat[0]
		switch x := st.Exp.(type) {
		case *core.SizeExp:
			if sh := shape(x.Arr); x.Dim < len(sh) {
				sizes[v.Name] = sh[x.Dim]
			}
		case *core.AtomExp:
			if a, ok := x.A.(*core.Var); ok && a.Type.IsArray() {
				shapes[v.Name] = shape(a)
			} else if d, ok := dim(x.A); ok && !v.Type.IsArray() {
				sizes[v.Name] = d
			}
		case *core.CopyExp:
			shapes[v.Name] = shape(x.Arr)
		case *core.IotaExp:
			if n, ok := dim(x.N); ok {
				shapes[v.Name] = []int64{n}
			}
		case *core.ReplicateExp:
			n, ok := dim(x.N)
			if a, isArr := x.V.(*core.Var); ok && isArr && a.Type.IsArray() {
				if sh := shape(a); sh != nil {
					shapes[v.Name] = append([]int64{n}, sh...)
				}
			} else if ok {
				shapes[v.Name] = []int64{n}
			}
		case *core.Screma:
			w, ok := dim(x.W)
			if !ok || x.Post != nil {
				continue
			}
			rows := make([][]int64, len(x.Arrs))
			for i, a := range x.Arrs {
				if sh := shape(a); len(sh) > 0 {
					rows[i] = sh[1:]
				}
			}
			inner := f.staticShapes(x.Map, rows)
			ns, nr := x.NumScanned(), x.NumReduced()
			for j, pv := range st.Pat {
				if !pv.Type.IsArray() || j >= len(inner) {
					continue
				}
				switch {
				case j >= ns && j < ns+nr:
					if inner[j] != nil {
						shapes[pv.Name] = inner[j]
					}
				case pv.Type.Rank == 1 || inner[j] != nil:
					shapes[pv.Name] = append([]int64{w}, inner[j]...)
				}
			}
		}
	}
	out := make([][]int64, len(l.Body.Result))
	for i, r := range l.Body.Result {
		if v, ok := r.(*core.Var); ok && v.Type.IsArray() {
			if sh := shape(v); len(sh) == v.Type.Rank {
				out[i] = sh
			}
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// Segmented

func (f *frame) segmented(s *core.Stmt, e *core.Segmented) ([]eval.Value, error) {
	start := time.Now()
	op := e.Op
	outer := make([]int64, len(e.Outer))
	segs := int64(1)
	for i, a := range e.Outer {
		outer[i] = f.scalarInt(a)
		if outer[i] < 0 {
			return nil, f.errAt(s, "negative size %d", outer[i])
		}
		segs *= outer[i]
	}
	w := f.scalarInt(op.W)
	ins := make([]eval.Value, len(op.Arrs))
	for i, a := range op.Arrs {
		v := f.value(a)
		if len(v.Shape) < len(outer)+1 || !sameShape(v.Shape[:len(outer)], outer) || v.Shape[len(outer)] != w {
			return nil, f.errAt(s, "size mismatch: array of shape %s in a segmented operation over %s%s",
				shapeString(v.Shape), shapeString(outer), shapeString([]int64{w}))
		}
		// View as [segs][w]rest so that a segment is a row.
		ins[i] = eval.Value{Elem: v.Elem, Shape: append([]int64{segs}, v.Shape[len(outer):]...), Data: v.Data}
	}
	results := make([][]eval.Value, segs)
	workers := f.m.opts.Workers
	if f.soac > 0 {
		workers = 1
	}
	nb := int(min(int64(workers), max(segs, 1)))
	err := f.parallel(nb, func(b int, wk *worker) error {
		lo, hi := segs*int64(b)/int64(nb), segs*int64(b+1)/int64(nb)
		for g := lo; g < hi; g++ {
			if err := f.m.cancelled(); err != nil {
				return err
			}
			segIns := make([]eval.Value, len(ins))
			for i, in := range ins {
				segIns[i] = row(in, g)
			}
			r, err := f.runScrema(s, op, w, segIns, 1, wk)
			if err != nil {
				return err
			}
			results[g] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	types := op.ResultTypes()
	var empty [][]int64
	if segs == 0 {
		empty = f.emptySegmentShapes(s, op, w, ins)
	}
	out := make([]eval.Value, len(types))
	for k, t := range types {
		var inner []int64
		switch {
		case segs > 0:
			inner = results[0][k].Shape
		case empty != nil:
			inner = empty[k]
		default:
			inner = make([]int64, t.Rank)
			if t.Rank > 0 {
				inner[0] = w
			}
		}
		v, err := f.newArray(s, t.Elem, append(append([]int64{}, outer...), inner...)...)
		if err != nil {
			return nil, err
		}
		per := int64(1)
		for _, d := range inner {
			per *= d
		}
		for g := int64(0); g < segs; g++ {
			r := results[g][k]
			if !sameShape(r.Shape, inner) {
				return nil, f.errAt(s, "irregular array: segment %d has shape %s but segment 0 has shape %s",
					g, shapeString(r.Shape), shapeString(inner))
			}
			copyAt(v.Data, int(g*per), r.Data)
		}
		out[k] = v
	}
	f.record("segmented("+op.Kind()+")", start, valuesBytes(ins...)+valuesBytes(out...))
	return out, nil
}

// ---------------------------------------------------------------------------
// Hist

func (f *frame) hist(s *core.Stmt, e *core.Hist) ([]eval.Value, error) {
	start := time.Now()
	w, ins, err := f.soacInputs(s, e.W, e.Arrs)
	if err != nil {
		return nil, err
	}
	ops := make([]*opInfo, len(e.Ops))
	dests := make([][]eval.Value, len(e.Ops))
	for k, hop := range e.Ops {
		ops[k] = newOp(hop.Lambda, hop.Neutral)
		for _, d := range hop.Dests {
			v := f.value(d)
			if len(v.Shape) == 0 || (len(dests[k]) > 0 && v.Shape[0] != dests[k][0].Shape[0]) {
				return nil, f.errAt(s, "size mismatch: histogram destinations of different lengths")
			}
			dests[k] = append(dests[k], copyValue(v))
		}
	}
	if partitionedHist(ops, dests, w) {
		if err := f.histByRanges(s, e, ops[0], ins, w, dests[0][0]); err != nil {
			return nil, err
		}
		f.record("hist", start, valuesBytes(ins...)+2*valuesBytes(dests[0]...))
		return dests[0], nil
	}
	bs := f.blocks(w, f.m.opts.Workers)
	// Sub-histograms pay for themselves only when there are many more
	// elements than buckets; otherwise one block updates the destination.
	for _, d := range dests {
		if len(d) > 0 && d[0].Len()*8 > w && len(bs) > 1 {
			bs = [][2]int64{{0, w}}
		}
	}
	nb := len(bs)
	// One sub-histogram per block, initialised with the neutral element,
	// merged into the destinations in block order afterwards; a single
	// block works on the destination copies directly.
	subs := make([][][]eval.Value, nb)
	for b := range subs {
		if nb == 1 {
			subs[b] = dests
			continue
		}
		subs[b] = make([][]eval.Value, len(ops))
		for k, op := range ops {
			for i := range dests[k] {
				ne := f.laneValue(f.atom(op.ne[i]), op.types[i], 0)
				v, err := f.newArray(s, ne.Elem, append([]int64{dests[k][i].Shape[0]}, ne.Shape...)...)
				if err != nil {
					return nil, err
				}
				fillRows(v, ne)
				subs[b][k] = append(subs[b][k], v)
			}
		}
	}
	err = f.parallel(nb, func(b int, wk *worker) error {
		return f.chunks(wk, bs[b][0], bs[b][1], func(lo int64, n int) error {
			cols, err := wk.runLambdaOn(e.Map, e.Index, ins, lo, n)
			if err != nil {
				return err
			}
			off := 0
			for k, op := range ops {
				idx := cols[off].data.([]int64)[:n]
				vals := cols[off+1 : off+1+len(op.ne)]
				off += 1 + len(op.ne)
				hs := subs[b][k]
				if op.builtin {
					histTab[op.bop][op.bt](hs[0].Data, idx, vals[0].data)
					continue
				}
				if err := wk.histGeneral(op, hs, idx, vals); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if nb > 1 {
		seq := f.newWorker()
		for k, op := range ops {
			for b := range subs {
				if err := seq.mergeHist(op, dests[k], subs[b][k]); err != nil {
					return nil, err
				}
			}
		}
	}
	var out []eval.Value
	for _, d := range dests {
		out = append(out, d...)
	}
	f.record("hist", start, valuesBytes(ins...)+2*valuesBytes(out...))
	return out, nil
}

// fillRows sets every row of v to r.
func fillRows(v, r eval.Value) {
	if len(r.Shape) == 0 {
		fillAny(v.Data, r.Data, 0)
		return
	}
	rl := r.Len()
	for i := int64(0); i < v.Shape[0]; i++ {
		copyAt(v.Data, int(i*rl), r.Data)
	}
}

// histCol is the histogram arrays as columns of buckets.
func histCol(h eval.Value) col {
	if len(h.Shape) == 1 {
		return col{data: h.Data}
	}
	arrs := make([]eval.Value, h.Shape[0])
	for i := range arrs {
		arrs[i] = row(h, int64(i))
	}
	return col{arrs: arrs}
}

// histGeneral combines element by element with a general operator.
func (w *worker) histGeneral(op *opInfo, hs []eval.Value, idx []int64, vals []col) error {
	hc := make([]col, len(hs))
	for i, h := range hs {
		hc[i] = histCol(h)
	}
	for i, b := range idx {
		if b < 0 || b >= hs[0].Shape[0] {
			continue
		}
		cur := make([]col, len(hs))
		for k := range hs {
			cur[k] = fresh(hc[k:k+1], op.types[k:k+1], int(b))[0]
		}
		r, err := w.combine(op, cur, fresh(vals, op.types, i))
		if err != nil {
			return err
		}
		for k, h := range hs {
			writeBucket(h, b, r[k], op.types[k])
		}
	}
	return nil
}

func writeBucket(h eval.Value, b int64, c col, t core.Type) {
	if t.Rank == 0 {
		setLane(h.Data, int(b), c.data, 0)
		return
	}
	rl := rowLen(h)
	copyAt(h.Data, int(b*rl), c.arrs[0].Data)
}

// mergeHist combines a sub-histogram into dst, bucket-wise and vectorised.
func (w *worker) mergeHist(op *opInfo, dst, sub []eval.Value) error {
	n := int(dst[0].Shape[0])
	if op.builtin {
		idx := make([]int64, n)
		for i := range idx {
			idx[i] = int64(i)
		}
		histTab[op.bop][op.bt](dst[0].Data, idx, sub[0].Data)
		return nil
	}
	args := make([]col, 0, 2*len(dst))
	for _, d := range dst {
		args = append(args, histCol(d))
	}
	for _, d := range sub {
		args = append(args, histCol(d))
	}
	r, err := w.apply(op.lam, args, n)
	if err != nil {
		return err
	}
	for k, d := range dst {
		if op.types[k].Rank == 0 {
			copyAt(d.Data, 0, sliceAny(r[k].data, 0, n))
			continue
		}
		for b := 0; b < n; b++ {
			writeBucket(d, int64(b), col{arrs: []eval.Value{r[k].arr(b)}}, op.types[k])
		}
	}
	w.pool.release()
	return nil
}

// ---------------------------------------------------------------------------
// Scatter

func (f *frame) scatter(s *core.Stmt, e *core.Scatter) ([]eval.Value, error) {
	start := time.Now()
	w, ins, err := f.soacInputs(s, e.W, e.Arrs)
	if err != nil {
		return nil, err
	}
	dests := make([]eval.Value, len(e.Dests))
	for i, d := range e.Dests {
		dests[i] = copyValue(f.value(d))
	}
	bs := f.blocks(w, f.m.opts.Workers)
	err = f.parallel(len(bs), func(b int, wk *worker) error {
		return f.chunks(wk, bs[b][0], bs[b][1], func(lo int64, n int) error {
			cols, err := wk.runLambdaOn(e.Map, e.Index, ins, lo, n)
			if err != nil {
				return err
			}
			for j, d := range dests {
				idx := cols[2*j].data.([]int64)[:n]
				if len(d.Shape) == 1 {
					scatterIdx(d.Data, idx, cols[2*j+1].data)
					continue
				}
				rl := rowLen(d)
				for i, at := range idx {
					if at < 0 || at >= d.Shape[0] {
						continue
					}
					v := cols[2*j+1].arr(i)
					if !sameShape(v.Shape, d.Shape[1:]) {
						return f.errAt(s, "size mismatch: cannot write a value of shape %s into rows of shape %s",
							shapeString(v.Shape), shapeString(d.Shape[1:]))
					}
					copyAt(d.Data, int(at*rl), v.Data)
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	f.record("scatter", start, valuesBytes(ins...)+2*valuesBytes(dests...))
	return dests, nil
}

// ---------------------------------------------------------------------------
// Filter and partition

func (f *frame) filter(s *core.Stmt, e *core.Filter) ([]eval.Value, error) {
	start := time.Now()
	w, ins, err := f.soacInputs(s, e.W, e.Arrs)
	if err != nil {
		return nil, err
	}
	if e.Map != nil {
		// A map fused into the filter: its per-element values are what the
		// predicate sees and what the filter keeps.
		ins, err = f.runScrema(s, &core.Screma{W: e.W, Arrs: e.Arrs, Index: e.Index, Map: e.Map}, w, ins, f.m.opts.Workers, nil)
		if err != nil {
			return nil, err
		}
	}
	flags := make([]bool, w)
	bs := f.blocks(w, f.m.opts.Workers)
	err = f.parallel(len(bs), func(b int, wk *worker) error {
		return f.chunks(wk, bs[b][0], bs[b][1], func(lo int64, n int) error {
			cols, err := wk.runLambdaOn(e.Pred, nil, ins, lo, n)
			if err != nil {
				return err
			}
			copy(flags[lo:lo+int64(n)], cols[0].data.([]bool)[:n])
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	var kept, rejected []int64
	for i, fl := range flags {
		if fl {
			kept = append(kept, int64(i))
		} else {
			rejected = append(rejected, int64(i))
		}
	}
	var out []eval.Value
	for _, in := range ins {
		out = append(out, selectRows(in, kept))
	}
	if e.Partition {
		for _, in := range ins {
			out = append(out, selectRows(in, rejected))
		}
	}
	f.record("filter", start, valuesBytes(ins...)+valuesBytes(out...))
	return out, nil
}

func selectRows(v eval.Value, idx []int64) eval.Value {
	shape := append([]int64{int64(len(idx))}, v.Shape[1:]...)
	out := eval.NewArray(v.Elem, shape...)
	rl := rowLen(v)
	for i, j := range idx {
		copyAt(out.Data, int(int64(i)*rl), sliceAny(v.Data, int(j*rl), int((j+1)*rl)))
	}
	return out
}

// ---------------------------------------------------------------------------
// MultiScan

func (f *frame) multiscan(s *core.Stmt, e *core.MultiScan) ([]eval.Value, error) {
	start := time.Now()
	w, ins, err := f.soacInputs(s, e.W, e.Arrs)
	if err != nil {
		return nil, err
	}
	k := f.scalarInt(e.K)
	if k < 0 {
		return nil, f.errAt(s, "negative number of classes %d", k)
	}
	labels := f.value(e.Labels)
	if len(labels.Shape) != 1 || labels.Shape[0] != w {
		return nil, f.errAt(s, "size mismatch: %d labels for %d elements", labels.Len(), w)
	}
	op := newOp(e.Op.Lambda, e.Op.Neutral)
	if op.builtin && msTab[op.bop][op.bt] != nil && len(ins) == 1 {
		return f.multiscanBuiltin(s, e, op, w, k, labels, ins[0], start)
	}
	// Blocks in parallel when there are few classes for the length and
	// the carries can be gathered into columns (scalars); else one block,
	// which is the sequential scan.
	bs := f.blocks(w, f.m.opts.Workers)
	if len(bs) == 1 || int64(len(bs))*k > w/4 || k >= 1<<31 || !scalarTypes(op.types) {
		bs = [][2]int64{{0, w}}
	}
	return f.multiscanBlocks(s, op, bs, k, labels, ins, start)
}

// scalarTypes reports whether every type of ts is a scalar.
func scalarTypes(ts []core.Type) bool {
	for _, t := range ts {
		if t.Rank != 0 {
			return false
		}
	}
	return true
}

// multiscanBlocks is multiscan with any operator, in the three phases of
// multiscanBuiltin: each block scans its elements from the neutral element
// with its own running values (one application of the operator per
// element); the blocks' totals are combined per class in block order into
// each block's carries; then every block after the first combines its
// results with the carries of their labels, a chunk at a time (the carries
// gathered by label into columns, the operator applied to whole columns).
// A single block is the sequential scan, for any element type.
func (f *frame) multiscanBlocks(s *core.Stmt, op *opInfo, bs [][2]int64, k int64, labels eval.Value, ins []eval.Value, start time.Time) ([]eval.Value, error) {
	w := bs[len(bs)-1][1]
	outs := make([]*outArr, len(op.types))
	for i, t := range op.types {
		var err error
		if outs[i], err = f.newOut(s, t, w); err != nil {
			return nil, err
		}
	}
	totals := make([][][]col, len(bs)) // per block, per class (nil: no element)
	err := f.parallel(len(bs), func(b int, wk *worker) error {
		accs := make([][]col, k)
		totals[b] = accs
		lo, hi := bs[b][0], bs[b][1]
		xs := wk.inputCols(ins, nil, lo, int(hi-lo))
		for i := lo; i < hi; i++ {
			if (i-lo)%4096 == 0 {
				if err := f.m.cancelled(); err != nil {
					return err
				}
				wk.pool.release()
			}
			l := toInt64(labels.Data, int(i))
			if l < 0 || l >= k {
				return f.errAt(s, "label %d out of bounds for %d classes", l, k)
			}
			if accs[l] == nil {
				accs[l] = f.neutral(op)
			}
			var err error
			if accs[l], err = wk.combine(op, accs[l], fresh(xs, op.types, int(i-lo))); err != nil {
				return err
			}
			for q, o := range outs {
				if err := o.write(f, s, i, accs[l][q], 1); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// carries[b][q]: component q of the combination of blocks 0..b-1 for
	// every class, as a column of k lanes.
	seq := f.newWorker()
	ne := f.neutral(op)
	running := make([][]col, k)
	carries := make([][]any, len(bs))
	for b := 1; b < len(bs); b++ {
		for l, t := range totals[b-1] {
			if t == nil {
				continue
			}
			if running[l] == nil {
				running[l] = t
				continue
			}
			if running[l], err = seq.combine(op, running[l], t); err != nil {
				return nil, err
			}
		}
		carries[b] = make([]any, len(op.types))
		for q, t := range op.types {
			c := eval.MakeSlice(t.Elem, int(k))
			fillAny(c, ne[q].data, 0)
			for l, r := range running {
				if r != nil {
					setLane(c, l, r[q].data, 0)
				}
			}
			carries[b][q] = c
		}
	}
	err = f.parallel(len(bs)-1, func(b int, wk *worker) error {
		b++
		return f.chunks(wk, bs[b][0], bs[b][1], func(lo int64, n int) error {
			idx := make([]int32, n)
			for i := range idx {
				idx[i] = int32(toInt64(labels.Data, int(lo)+i))
			}
			args := make([]col, 0, 2*len(op.types))
			for q, t := range op.types {
				c := eval.MakeSlice(t.Elem, n)
				gatherAny(c, carries[b][q], idx)
				args = append(args, col{data: c})
			}
			for _, o := range outs {
				args = append(args, col{data: sliceAny(o.v.Data, int(lo), int(lo)+n)})
			}
			res, err := wk.apply(op.lam, args, n)
			if err != nil {
				return err
			}
			for q, o := range outs {
				if err := o.write(f, s, lo, res[q], n); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	res := make([]eval.Value, len(outs))
	for i, o := range outs {
		res[i] = o.value()
	}
	f.record("multiscan", start, valuesBytes(ins...)+valuesBytes(res...))
	return res, nil
}

// multiscanBuiltin is multiscan with a builtin operator: typed passes, in
// parallel blocks (the multireduce thesis' partitioned scan on the CPU).
// Each block scans its part from the neutral element with its own running
// value per class; the blocks' per-class totals are then combined in block
// order into each block's carries, and every block after the first
// combines its results with the carries of their labels. A block costs k
// values, so a multiscan with many classes for its length stays one block.
func (f *frame) multiscanBuiltin(s *core.Stmt, e *core.MultiScan, op *opInfo, w, k int64, labels, in eval.Value, start time.Time) ([]eval.Value, error) {
	if err := f.m.cancelled(); err != nil {
		return nil, err
	}
	ls, ok := labels.Data.([]int64)
	if !ok {
		ls = make([]int64, w)
		for i := range ls {
			ls[i] = toInt64(labels.Data, i)
		}
	}
	out, err := f.newArray(s, op.bt, w)
	if err != nil {
		return nil, err
	}
	bs := f.blocks(w, f.m.opts.Workers)
	if int64(len(bs))*k > w/4 {
		bs = [][2]int64{{0, w}}
	}
	accs := make([]any, len(bs))
	ne := f.neutral(op)[0].data
	err = f.parallel(len(bs), func(b int, _ *worker) error {
		lo, hi := bs[b][0], bs[b][1]
		accs[b] = eval.MakeSlice(op.bt, int(k))
		fillAny(accs[b], ne, 0)
		if i := msTab[op.bop][op.bt](sliceAny(out.Data, int(lo), int(hi)), accs[b], ls[lo:hi], sliceAny(in.Data, int(lo), int(hi))); i >= 0 {
			return f.errAt(s, "label %d out of bounds for %d classes", ls[lo+int64(i)], k)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(bs) > 1 {
		// accs[b] becomes the carry of block b+1: the totals of blocks 0..b.
		for b := 1; b < len(bs)-1; b++ {
			msZip[op.bop][op.bt](accs[b], accs[b-1])
		}
		err = f.parallel(len(bs)-1, func(b int, _ *worker) error {
			lo, hi := bs[b+1][0], bs[b+1][1]
			msCarry[op.bop][op.bt](sliceAny(out.Data, int(lo), int(hi)), accs[b], ls[lo:hi])
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	f.record("multiscan", start, valuesBytes(labels, in, out))
	return []eval.Value{out}, nil
}

// propagateCarries finishes a scan-then-propagate scan: block b's results
// were scanned from the neutral element, so each gets the combination of
// the totals of blocks 0..b-1 added. Block 0 needs nothing, so the rest of
// the array is cut into one equal piece per block (pieces stop at block
// boundaries, where the carry changes) and the pieces run in parallel. The
// scanned outputs are the first outputs, one per scan (no post-map).
func (f *frame) propagateCarries(scans []*opInfo, outs []*outArr, bs [][2]int64, totals [][][]col, seq *worker) error {
	carries := make([][]col, len(scans)) // running carry into block b
	into := make([][][]col, len(bs))
	for k, op := range scans {
		carries[k] = f.neutral(op)
	}
	for b := range bs {
		into[b] = append([][]col(nil), carries...)
		for k, op := range scans {
			if totals[b] == nil || totals[b][k] == nil { // an empty block
				continue
			}
			c, err := seq.combine(op, carries[k], totals[b][k])
			if err != nil {
				return err
			}
			carries[k] = c
		}
	}
	type piece struct {
		b      int
		lo, hi int64
	}
	var pieces []piece
	rest := bs[len(bs)-1][1] - bs[0][1]
	per := (rest + int64(len(bs)) - 1) / int64(len(bs))
	for b := 1; b < len(bs); b++ {
		for lo := bs[b][0]; lo < bs[b][1]; lo += per {
			pieces = append(pieces, piece{b, lo, min(lo+per, bs[b][1])})
		}
	}
	return f.parallel(len(pieces), func(i int, _ *worker) error {
		p := pieces[i]
		for k, op := range scans {
			d := sliceAny(outs[k].v.Data, int(p.lo), int(p.hi))
			binVSTab[op.bop][op.bt](d, d, into[p.b][k][0].data)
		}
		return nil
	})
}

// noColumnsLeft reports whether phase 3 of a Screma computes no column:
// no post-map, every map statement is skipped (done by a fused tail or
// chain), every scan is builtin and every reduction builtin or
// lexicographic.
func noColumnsLeft(e *core.Screma, scans, reds []*opInfo, skip *skipSet) bool {
	if e.Post != nil || skip == nil {
		return false
	}
	for _, s := range e.Map.Body.Stmts {
		if !skip.stmts[s] {
			return false
		}
	}
	for _, op := range scans {
		if !op.builtin {
			return false
		}
	}
	for _, op := range reds {
		if !op.builtin && op.lex == nil {
			return false
		}
	}
	return true
}

// longChunk is chunk times mult, but no more than maxLongChunk elements
// (nor less than chunk): long chunks save per-chunk work, and a worker's
// columns and cached constants are as long as its longest chunk.
func longChunk(chunk, mult int64) int64 {
	return max(chunk, min(chunk*mult, maxLongChunk))
}

// maxLongChunk bounds the longest chunks, those of Schemas that make no
// columns (a million elements: 4 MB of i32, a few hundred microseconds
// between checks for cancellation).
const maxLongChunk = 1 << 20

// treeChunks is how many times longer than Options.Chunk the chunks of a
// Screma with a tree-reduced operator are (see treeOps).
const treeChunks = 4

// laneFoldChunks is treeChunks for a Screma whose general operators are
// all lane-major folds (lanefold.go): a longer chunk has more steps per
// final tree over the segments' accumulators.
const laneFoldChunks = 16

// treeOps reports whether a general operator of the Screma is applied as a
// pairwise tree per chunk (an ordered reduction, or a scan): a tree costs
// a dozen applications of the lambda per chunk whatever the chunk's
// length, and for small operators such as MSSP's the cost of an
// application, not of its elements, dominates at the default length.
func treeOps(scans, reds []*opInfo) bool {
	for _, op := range scans {
		if !op.builtin {
			return true
		}
	}
	for _, op := range reds {
		if !op.builtin && op.lex == nil && !op.wide() {
			return true
		}
	}
	return false
}

// columnFreeChunks is how many times longer than Options.Chunk the chunks
// of a column-free Screma are: as long as maxLongChunk allows. Such a
// chunk is a typed loop streaming its inputs from memory, and what a chunk
// costs besides (the map's frame, its input columns, the fold's dispatch,
// about a microsecond on the project's VM) is time in which no load is in
// flight: at 16 times the default length (64Ki elements), ReducePlus over
// 10^7 elements spent 160 us of each call's CPU time there, at 1Mi 30 us.
// The lexicographic reductions of arg-max read a chunk a second time only
// up to the first lane holding a new extreme (lexFoldKeys's pick).
const columnFreeChunks = 256

// columnFree reports whether a Screma runs no lambda code per chunk: its
// map returns its parameters unchanged and every scan and reduction is a
// builtin operator, so each chunk is typed loops over the input arrays.
func columnFree(e *core.Screma, scans, reds []*opInfo) bool {
	if e.Post != nil || len(e.Map.Body.Stmts) != 0 || len(e.Map.Body.Result) != len(e.Map.Params) {
		return false
	}
	for i, a := range e.Map.Body.Result {
		if v, ok := a.(*core.Var); !ok || v.Name != e.Map.Params[i].Name {
			return false
		}
	}
	for _, op := range append(append([]*opInfo(nil), scans...), reds...) {
		if !op.builtin {
			return false
		}
	}
	return true
}
