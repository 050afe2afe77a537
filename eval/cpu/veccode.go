package cpu

import (
	"unsafe"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Column code. A lambda applied over many lanes at once (a reduction's
// operator at every level of its pairwise tree, a map's lambda over a
// chunk) runs in the vectorised interpreter as one kernel call per
// statement, but the interpreter also pays, per statement and call, a
// frame's map of variables, name lookups and a pool allocation: for an
// operator like Reduce2x2MM's 40 statements that is paid at each of the
// tree's dozen levels of every chunk, most of them a few lanes wide, and
// it was most of the time.
//
// A lambda whose statements are all scalar operators (BinOp, UnOp, Conv
// and atoms) is compiled once per Run into column code: the kernel of
// every statement looked up in advance, its operands numbered registers
// (columns), constants bound to vector-scalar kernels or constant
// columns. Running it is one indirect call per statement over typed
// slices. The lanes are processed in strips of vecStrip, so that the
// intermediate columns of one strip stay in cache; the results are
// written into fresh pool columns as the interpreter's are. A lambda with
// a statement that can fail (division, modulo, power) runs as one strip,
// so the first failing statement over all lanes is the one reported, as
// in the interpreter.
//
// The column code runs the same kernels in the same order as the frame
// interpreter, so it computes the same values; Options.Interpret turns it
// off, which is what the fuzzers compare it with.

// vecStrip is the number of lanes a strip of column code covers.
const vecStrip = 2048

// vecUnit is a lambda compiled to column code.
type vecUnit struct {
	types   []core.PrimType // element type of every register
	params  []int           // register of each parameter
	free    []freeReg       // registers of free scalar variables
	ops     []vecOp
	results []int  // register of each result
	owned   []bool // result k is computed by a statement (a fresh column), not an alias
	direct  []bool // result k is owned and the first result of its register: computed into its destination
	scratch []bool // register r is an intermediate: a strip-sized scratch column
	strip   bool   // no statement can fail: run in strips
}

// freeReg is a free variable of the lambda, read from the enclosing frame.
type freeReg struct {
	reg int
	v   *core.Var
}

// vecOp is one statement: it computes register d over the current strip.
type vecOp struct {
	s   *core.Stmt
	d   int
	run func(regs []any, w *worker) kerr
}

// compileVec compiles l to column code, or returns nil when one of its
// statements or operands is not a scalar operator on scalar columns.
func compileVec(l *core.Lambda) *vecUnit {
	u := &vecUnit{strip: true}
	regOf := map[string]int{}
	newReg := func(t core.PrimType, scratch bool) int {
		u.types = append(u.types, t)
		u.scratch = append(u.scratch, scratch)
		return len(u.types) - 1
	}
	for _, p := range l.Params {
		if p.Type.Rank != 0 {
			return nil
		}
		r := newReg(p.Type.Elem, false)
		regOf[p.Name] = r
		u.params = append(u.params, r)
	}
	isResult := map[string]bool{}
	for _, a := range l.Body.Result {
		v, ok := a.(*core.Var)
		if !ok || v.Type.Rank != 0 {
			return nil // a constant result: left to the interpreter
		}
		isResult[v.Name] = true
	}
	// operand is the register of a variable operand (a free variable gets
	// one on first use), or -1 for a constant.
	operand := func(a core.Atom) (int, bool) {
		switch a := a.(type) {
		case core.Const:
			return -1, true
		case *core.Var:
			if a.Type.Rank != 0 {
				return 0, false
			}
			if r, ok := regOf[a.Name]; ok {
				return r, true
			}
			r := newReg(a.Type.Elem, false)
			regOf[a.Name] = r
			u.free = append(u.free, freeReg{reg: r, v: a})
			return r, true
		}
		return 0, false
	}
	var stmts func(b *core.Body) bool
	stmts = func(b *core.Body) bool {
		for _, s := range b.Stmts {
			if e, ok := s.Exp.(*core.IfExp); ok {
				if !u.ifCode(s, e, operand, newReg, regOf, isResult, stmts) {
					return false
				}
				continue
			}
			if len(s.Pat) != 1 || s.Pat[0].Type.Rank != 0 {
				return false
			}
			if !cannotFail(s.Exp) {
				if _, ok := s.Exp.(*core.UnOpExp); !ok {
					u.strip = false
				}
			}
			out := s.Pat[0]
			var run func(regs []any, w *worker, d int) kerr
			switch e := s.Exp.(type) {
			case *core.AtomExp:
				x, ok := operand(e.A)
				if !ok {
					return false
				}
				if x >= 0 && !isResult[out.Name] {
					regOf[out.Name] = x // an alias, as in the interpreter
					continue
				}
				run = vecCopy(e.A, x, out.Type.Elem)
			case *core.BinOpExp:
				if run = vecBin(s, e, operand); run == nil {
					return false
				}
			case *core.UnOpExp:
				k := unTab[e.Op][e.T]
				x, ok := operand(e.X)
				if k == nil || !ok || x < 0 {
					return false
				}
				run = func(regs []any, _ *worker, d int) kerr { return k(regs[d], regs[x]) }
			case *core.ConvExp:
				k := convTab[e.From][e.To]
				x, ok := operand(e.X)
				if k == nil || !ok || x < 0 {
					return false
				}
				run = func(regs []any, _ *worker, d int) kerr { k(regs[d], regs[x]); return kOK }
			default:
				return false
			}
			d := newReg(out.Type.Elem, !isResult[out.Name])
			regOf[out.Name] = d
			u.ops = append(u.ops, vecOp{s: s, d: d, run: func(regs []any, w *worker) kerr { return run(regs, w, d) }})
		}
		return true
	}
	if !stmts(l.Body) {
		return nil
	}
	for _, a := range l.Body.Result {
		v := a.(*core.Var)
		r, ok := regOf[v.Name]
		if !ok {
			return nil // a free variable returned as is
		}
		u.results = append(u.results, r)
		owned := !u.scratch[r]
		for _, p := range u.params {
			owned = owned && p != r
		}
		for _, f := range u.free {
			owned = owned && f.reg != r
		}
		u.owned = append(u.owned, owned)
		direct := owned
		for _, q := range u.results[:len(u.results)-1] {
			direct = direct && q != r
		}
		u.direct = append(u.direct, direct)
	}
	return u
}

// ifCode compiles an if whose branches are speculable (scalar, cannot
// fail) as frame.selectIf runs it: both branches over every lane, then a
// select per lane of each result.
func (u *vecUnit) ifCode(s *core.Stmt, e *core.IfExp, operand func(core.Atom) (int, bool),
	newReg func(core.PrimType, bool) int, regOf map[string]int, isResult map[string]bool,
	stmts func(*core.Body) bool) bool {
	if !speculable(e.Then) || !speculable(e.Else) {
		return false
	}
	c, ok := operand(e.Cond)
	if !ok || c < 0 {
		return false // a constant condition: left to the interpreter
	}
	if !stmts(e.Then) || !stmts(e.Else) {
		return false
	}
	for j, out := range s.Pat {
		if out.Type.Rank != 0 {
			return false
		}
		ta, ea := e.Then.Result[j], e.Else.Result[j]
		t, okt := operand(ta)
		f, okf := operand(ea)
		if !okt || !okf {
			return false
		}
		tc, _ := ta.(core.Const)
		fc, _ := ea.(core.Const)
		d := newReg(out.Type.Elem, !isResult[out.Name])
		regOf[out.Name] = d
		run := func(regs []any, w *worker) kerr {
			n := anyLen(regs[d])
			a, b := any(nil), any(nil)
			if t >= 0 {
				a = regs[t]
			} else {
				a = sliceAny(w.constant(tc, n), 0, n)
			}
			if f >= 0 {
				b = regs[f]
			} else {
				b = sliceAny(w.constant(fc, n), 0, n)
			}
			selectAny(regs[d], regs[c].([]bool), a, b)
			return kOK
		}
		u.ops = append(u.ops, vecOp{s: s, d: d, run: run})
	}
	return true
}

// vecCopy copies an atom (a variable's column or a constant) into d.
func vecCopy(a core.Atom, x int, t core.PrimType) func(regs []any, w *worker, d int) kerr {
	if c, ok := a.(core.Const); ok {
		return func(regs []any, w *worker, d int) kerr {
			fillAny(regs[d], w.one(c), 0)
			return kOK
		}
	}
	return func(regs []any, _ *worker, d int) kerr {
		copyAt(regs[d], 0, regs[x])
		return kOK
	}
}

// vecBin compiles a binary operator the way frame.stmt runs it: a
// constant operand of a commutative operator goes right, a constant right
// operand uses the vector-scalar kernel where there is one, and any other
// constant is a constant column.
func vecBin(s *core.Stmt, e *core.BinOpExp, operand func(core.Atom) (int, bool)) func(regs []any, w *worker, d int) kerr {
	xa, ya := e.X, e.Y
	if _, ok := xa.(core.Const); ok && core.BinOps[e.Op].Commutative {
		xa, ya = ya, xa
	}
	x, okx := operand(xa)
	y, oky := operand(ya)
	if !okx || !oky {
		return nil
	}
	if c, ok := ya.(core.Const); ok && x >= 0 && binVSTab[e.Op][e.T] != nil {
		k := binVSTab[e.Op][e.T]
		return func(regs []any, w *worker, d int) kerr { return k(regs[d], regs[x], w.one(c)) }
	}
	k := binTab[e.Op][e.T]
	if k == nil {
		return nil
	}
	// With the original operand order for the general kernel.
	x, _ = operand(e.X)
	y, _ = operand(e.Y)
	cx, _ := e.X.(core.Const)
	cy, _ := e.Y.(core.Const)
	return func(regs []any, w *worker, d int) kerr {
		n := anyLen(regs[d])
		xs, ys := any(nil), any(nil)
		if x >= 0 {
			xs = regs[x]
		} else {
			xs = sliceAny(w.constant(cx, n), 0, n)
		}
		if y >= 0 {
			ys = regs[y]
		} else {
			ys = sliceAny(w.constant(cy, n), 0, n)
		}
		return k(regs[d], xs, ys)
	}
}

// vecUnitOf returns the column code of l, compiled on first use (nil: l
// is not column code).
func (m *machine) vecUnitOf(l *core.Lambda) *vecUnit {
	c := &m.comp
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vecs == nil {
		c.vecs = map[*core.Lambda]*vecUnit{}
	}
	u, ok := c.vecs[l]
	if !ok {
		u = compileVec(l)
		c.vecs[l] = u
	}
	return u
}

// run applies the unit over n lanes of args; the results are fresh pool
// columns where a statement computes them, the argument (or broadcast)
// columns where the lambda returns a parameter or free variable.
func (u *vecUnit) run(w *worker, args []col, n int) ([]col, error) {
	return u.runInto(w, args, n, nil)
}

// runInto is run writing the results into dst (n lanes each) when dst is
// not nil: computed results straight into it, others copied.
func (u *vecUnit) runInto(w *worker, args []col, n int, dst []any) ([]col, error) {
	return u.runWith(w, args, nil, n, dst)
}

// runWith is runInto with the columns of the free variables given (in the
// order of u.free) when frees is not nil, rather than broadcast from the
// enclosing frame.
func (u *vecUnit) runWith(w *worker, args []col, frees []any, n int, dst []any) ([]col, error) {
	st := w.vecState(u)
	regs, full := st.regs, st.full
	clear(full)
	for i, r := range u.params {
		full[r] = args[i].data
	}
	if frees != nil {
		for j, fr := range u.free {
			full[fr.reg] = frees[j]
		}
	} else if len(u.free) > 0 {
		lf := &frame{m: w.f.m, n: n, vars: map[string]col{}, parent: w.f, kind: lambdaFrame,
			pool: w.pool, wk: w, depth: w.f.depth, soac: w.f.soac + 1}
		for _, fr := range u.free {
			full[fr.reg] = lf.lookup(fr.v).data
		}
	}
	for k, r := range u.results {
		if u.direct[k] {
			if dst != nil {
				full[r] = dst[k]
			} else {
				full[r] = w.pool.get(u.types[r], n)
			}
		}
	}
	step := n
	if u.strip {
		step = vecStrip
	}
	for lo := 0; lo < n || lo == 0; lo += step {
		hi := min(lo+step, n)
		for r, t := range u.types {
			if u.scratch[r] {
				regs[r] = st.strip(r, t, step, hi-lo)
			} else {
				regs[r] = sliceAny(full[r], lo, hi)
			}
		}
		for _, op := range u.ops {
			if e := op.run(regs, w); e != kOK {
				return nil, source.Errorf(op.s.Pos, "%s", e.msg())
			}
		}
		if n == 0 {
			break
		}
	}
	res := make([]col, len(u.results))
	for k, r := range u.results {
		v := sliceAny(full[r], 0, n)
		if dst != nil && !u.direct[k] {
			copyAt(dst[k], 0, v)
			v = dst[k]
		}
		res[k] = col{data: v}
	}
	return res, nil
}

// vecTreeReduce is treeReduce for an operator in column code over scalar
// columns: every level deinterleaves its lanes into the worker's pair
// columns and writes the operator's results into its result columns, the
// same two sets at every level, so that the tree's working set is a few
// chunk-sized columns that stay in cache (the general treeReduce takes
// fresh pool columns at every level).
func (w *worker) vecTreeReduce(op *opInfo, u *vecUnit, xs []col, n int) ([]col, error) {
	k := len(xs)
	tb := w.treeBufs(op, n)
	for level := 0; n > 1; level++ {
		h := n / 2
		lv := tb.level(level, h)
		for c := range xs {
			// A column the map returns twice (MSSP's) is split once.
			same := -1
			for c0 := range c {
				if sameSlice(xs[c0].data, xs[c].data) {
					same = c0
					break
				}
			}
			if same >= 0 {
				lv.args[c], lv.args[k+c] = lv.args[same], lv.args[k+same]
				continue
			}
			lv.args[c], lv.args[k+c] = col{data: lv.pairs[c]}, col{data: lv.pairs[k+c]}
			deinterleave(lv.pairs[c], lv.pairs[k+c], xs[c].data)
		}
		if _, err := u.runInto(w, lv.args, h, lv.dst); err != nil {
			return nil, err
		}
		if n%2 == 1 {
			// The odd lane out moves up to lane h; it is lane n-1 >= h of
			// xs, which the results (lanes below h) have not overwritten.
			for c := range xs {
				setLane(tb.res[c], h, xs[c].data, n-1)
			}
			xs = lv.nextOdd
		} else {
			xs = lv.next
		}
		n = h + n%2
	}
	return fresh(xs, op.types, 0), nil
}

// sameSlice reports whether two columns are the same slice of memory.
func sameSlice(a, b any) bool {
	n := anyLen(a)
	return n == anyLen(b) && n > 0 && dataPtr(a) == dataPtr(b)
}

// treeBufs are a worker's pair and result columns for vecTreeReduce, and
// the views of them each level of a chunk's tree uses (the same at every
// full chunk; a view is an interface holding a slice header, which costs
// an allocation to make).
type treeBufs struct {
	pairs, res []any
	levels     []*treeLevel
}

type treeLevel struct {
	h             int
	pairs         []any // the 2k pair columns at h lanes
	args          []col // the operator's arguments
	dst           []any // the k result columns at h lanes
	next, nextOdd []col // the result columns at h and h+1 lanes
}

func (tb *treeBufs) level(i, h int) *treeLevel {
	for len(tb.levels) <= i {
		tb.levels = append(tb.levels, &treeLevel{h: -1})
	}
	lv := tb.levels[i]
	if lv.h == h {
		return lv
	}
	k := len(tb.res)
	*lv = treeLevel{h: h, pairs: make([]any, 2*k), args: make([]col, 2*k), dst: make([]any, k),
		next: make([]col, k), nextOdd: make([]col, k)}
	for c := range tb.pairs {
		lv.pairs[c] = sliceAny(tb.pairs[c], 0, h)
	}
	for c := range tb.res {
		lv.dst[c] = sliceAny(tb.res[c], 0, h)
		lv.next[c] = col{data: lv.dst[c]}
		lv.nextOdd[c] = col{data: sliceAny(tb.res[c], 0, h+1)}
	}
	return lv
}

func (w *worker) treeBufs(op *opInfo, n int) *treeBufs {
	if w.trees == nil {
		w.trees = map[*opInfo]*treeBufs{}
	}
	tb, ok := w.trees[op]
	if !ok || anyLen(tb.res[0]) < n/2+1 {
		k := len(op.types)
		tb = &treeBufs{pairs: make([]any, 2*k), res: make([]any, k)}
		for c, t := range op.types {
			tb.pairs[c] = eval.MakeSlice(t.Elem, n/2+1)
			tb.pairs[k+c] = eval.MakeSlice(t.Elem, n/2+1)
			tb.res[c] = eval.MakeSlice(t.Elem, n/2+1)
		}
		w.trees[op] = tb
	}
	return tb
}

// vecState is a worker's scratch for column code: the register slice and
// the strip columns of each unit it ran, with the views of them it made
// last (a view is an interface holding a slice header, which costs an
// allocation to make; a tree reduction asks for a dozen lengths in turn).
type vecState struct {
	regs    []any
	full    []any // the whole-length columns of the non-scratch registers
	scratch []any
	views   [][]any // per register, views of scratch at different lengths
}

// stripViews is how many views of a strip column are kept.
const stripViews = 24

func (w *worker) vecState(u *vecUnit) *vecState {
	if w.vecs == nil {
		w.vecs = map[*vecUnit]*vecState{}
	}
	st, ok := w.vecs[u]
	if !ok {
		k := len(u.types)
		st = &vecState{regs: make([]any, k), full: make([]any, k), scratch: make([]any, k), views: make([][]any, k)}
		w.vecs[u] = st
	}
	return st
}

// strip is register r's strip column, of capacity at least size, viewed
// at n elements.
func (st *vecState) strip(r int, t core.PrimType, size, n int) any {
	d := st.scratch[r]
	if d == nil || anyLen(d) < n {
		// A strip's length, or less for short calls: workers are made per
		// SOAC, and a SOAC in a lambda runs once per lane of it.
		d = eval.MakeSlice(t, min(size, max(n, 64)*2))
		st.scratch[r] = d
		st.views[r] = st.views[r][:0]
	}
	for _, v := range st.views[r] {
		if anyLen(v) == n {
			return v
		}
	}
	v := sliceAny(d, 0, n)
	if len(st.views[r]) == stripViews {
		st.views[r] = st.views[r][:0]
	}
	st.views[r] = append(st.views[r], v)
	return v
}

// dataPtr is the address of a column's first element.
func dataPtr(d any) unsafe.Pointer {
	switch d := d.(type) {
	case []bool:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int8:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int16:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int32:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int64:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint8:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint16:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint32:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint64:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []float32:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []float64:
		return unsafe.Pointer(unsafe.SliceData(d))
	}
	return nil
}
