package cpu

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Reductions fused with the last operator of the map. In the most common
// redomaps — `reduce (+) 0 (map (\x -> x*2+1) xs)`, a dot product
// `reduce (+) 0 (map2 (*) xs ys)` — the reduced value is made by one
// arithmetic statement used nowhere else. The interpreter then skips that
// statement and folds `x op y` straight into the accumulator, saving a
// column write and read per element.

// tailK adds x[i] op y[i] (or x[i] op y[0] for the vector-scalar form)
// into acc[0].
type tailK func(acc, x, y any)

var (
	tailVV [len(core.BinOps)][core.NumPrims]tailK
	tailVS [len(core.BinOps)][core.NumPrims]tailK
)

// The explicit conversion T(...) rounds each product as the unfused
// statement would (Go may otherwise fuse a multiply-add).
func tAddAdd[T number](acc, x, y any) {
	a, xs, ys := acc.([]T), x.([]T), y.([]T)
	ys = ys[:len(xs)]
	s := a[0]
	for i, v := range xs {
		s += T(v + ys[i])
	}
	a[0] = s
}

func tAddSub[T number](acc, x, y any) {
	a, xs, ys := acc.([]T), x.([]T), y.([]T)
	ys = ys[:len(xs)]
	s := a[0]
	for i, v := range xs {
		s += T(v - ys[i])
	}
	a[0] = s
}

func tAddMul[T number](acc, x, y any) {
	a, xs, ys := acc.([]T), x.([]T), y.([]T)
	ys = ys[:len(xs)]
	s := a[0]
	for i, v := range xs {
		s += T(v * ys[i])
	}
	a[0] = s
}

func tAddAddS[T number](acc, x, y any) {
	a, xs, c := acc.([]T), x.([]T), y.([]T)[0]
	s := a[0]
	for _, v := range xs {
		s += T(v + c)
	}
	a[0] = s
}

func tAddSubS[T number](acc, x, y any) {
	a, xs, c := acc.([]T), x.([]T), y.([]T)[0]
	s := a[0]
	for _, v := range xs {
		s += T(v - c)
	}
	a[0] = s
}

func tAddMulS[T number](acc, x, y any) {
	a, xs, c := acc.([]T), x.([]T), y.([]T)[0]
	s := a[0]
	for _, v := range xs {
		s += T(v * c)
	}
	a[0] = s
}

func tailOps[T number](t core.PrimType) {
	tailVV[core.Add][t], tailVS[core.Add][t] = tAddAdd[T], tAddAddS[T]
	tailVV[core.Sub][t], tailVS[core.Sub][t] = tAddSub[T], tAddSubS[T]
	tailVV[core.Mul][t], tailVS[core.Mul][t] = tAddMul[T], tAddMulS[T]
}

// Integer tails are exact in any order (arithmetic modulo 2^bits is a
// ring), so they use the eight-accumulator sum of ops.go: with a constant
// operand the sum of x[i]+c is sum(x) + n*c, of x[i]-c is sum(x) - n*c and
// of x[i]*c is c*sum(x); with two columns the sum runs over both.
func tAddAddI[T integer](acc, x, y any) {
	xs, ys := x.([]T), y.([]T)
	acc.([]T)[0] += sumInt(xs) + sumInt(ys[:len(xs)])
}

func tAddSubI[T integer](acc, x, y any) {
	xs, ys := x.([]T), y.([]T)
	acc.([]T)[0] += sumInt(xs) - sumInt(ys[:len(xs)])
}

func tAddMulI[T integer](acc, x, y any) {
	a, xs, ys := acc.([]T), x.([]T), y.([]T)
	ys = ys[:len(xs)]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += xs[0] * ys[0]
		s1 += xs[1] * ys[1]
		s2 += xs[2] * ys[2]
		s3 += xs[3] * ys[3]
		s4 += xs[4] * ys[4]
		s5 += xs[5] * ys[5]
		s6 += xs[6] * ys[6]
		s7 += xs[7] * ys[7]
		xs, ys = xs[8:], ys[8:]
	}
	for i, v := range xs {
		s0 += v * ys[i]
	}
	a[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func tAddAddSI[T integer](acc, x, y any) {
	xs := x.([]T)
	acc.([]T)[0] += sumInt(xs) + T(len(xs))*y.([]T)[0]
}

func tAddSubSI[T integer](acc, x, y any) {
	xs := x.([]T)
	acc.([]T)[0] += sumInt(xs) - T(len(xs))*y.([]T)[0]
}

func tAddMulSI[T integer](acc, x, y any) {
	acc.([]T)[0] += sumInt(x.([]T)) * y.([]T)[0]
}

func intTailOps[T integer](t core.PrimType) {
	tailVV[core.Add][t], tailVS[core.Add][t] = tAddAddI[T], tAddAddSI[T]
	tailVV[core.Sub][t], tailVS[core.Sub][t] = tAddSubI[T], tAddSubSI[T]
	tailVV[core.Mul][t], tailVS[core.Mul][t] = tAddMulI[T], tAddMulSI[T]
}

// initTailTables fills the tail tables (tables.go calls it).
func initTailTables() {
	intTailOps[int8](core.I8)
	intTailOps[int16](core.I16)
	intTailOps[int32](core.I32)
	intTailOps[int64](core.I64)
	intTailOps[uint8](core.U8)
	intTailOps[uint16](core.U16)
	intTailOps[uint32](core.U32)
	intTailOps[uint64](core.U64)
	tailOps[float32](core.F32)
	tailOps[float64](core.F64)
}

// redTail is a reduction fused with the statement that makes its input.
type redTail struct {
	stmt *core.Stmt
	op   core.BinOp
	t    core.PrimType
	x, y core.Atom
	vs   bool // y is a constant
	// inner: x is made by a vector-scalar statement used only here, which
	// the reduction evaluates too (a two-step chain, chainkern.go).
	inner *vsStep
}

// skipSet is the statements a lambda frame does not run (and the
// variables they would bind), because a fused reduction does their work.
type skipSet struct {
	stmts map[*core.Stmt]bool
	vars  map[string]bool
}

// redTails finds the reductions of e that can be fused with their input
// statement.
func redTails(e *core.Screma, reds []*opInfo) ([]*redTail, *skipSet) {
	var tails []*redTail
	var skip *skipSet
	pos := e.NumScanned()
	body := e.Map.Body
	for k, op := range reds {
		p := pos
		pos += len(op.ne)
		if !op.builtin || op.bop != core.Add || p >= len(body.Result) {
			continue
		}
		r, ok := body.Result[p].(*core.Var)
		if !ok {
			continue
		}
		var st *core.Stmt
		for _, s := range body.Stmts {
			if len(s.Pat) == 1 && s.Pat[0].Name == r.Name {
				st = s
			} else if usesVar(s.Exp, r.Name) {
				st = nil
				break
			}
		}
		if st == nil {
			continue
		}
		uses := 0
		for _, a := range body.Result {
			if atomIs(a, r.Name) {
				uses++
			}
		}
		be, ok := st.Exp.(*core.BinOpExp)
		if !ok || uses != 1 || be.T != op.bt || tailVV[be.Op][be.T] == nil {
			continue
		}
		tl := &redTail{stmt: st, op: be.Op, t: be.T, x: be.X, y: be.Y}
		if _, ok := tl.x.(core.Const); ok && core.BinOps[tl.op].Commutative {
			tl.x, tl.y = tl.y, tl.x
		}
		_, tl.vs = tl.y.(core.Const)
		if xv, ok := tl.x.(*core.Var); ok && tl.vs && usesIn(body, xv.Name) == 1 {
			if is := definer(body, xv.Name); is != nil {
				_, outerOK := chainOps[tl.op]
				if inner, ok := vsStepOf(is, tl.t); ok && outerOK && chainFold2[0][0][tl.t] != nil {
					tl.inner = &inner
				}
			}
		}
		if tails == nil {
			tails = make([]*redTail, len(reds))
			skip = &skipSet{stmts: map[*core.Stmt]bool{}, vars: map[string]bool{}}
		}
		tails[k] = tl
		if tl.inner != nil {
			skip.stmts[tl.inner.stmt] = true
		}
		skip.stmts[st] = true
		skip.vars[r.Name] = true
	}
	return tails, skip
}

// foldTail folds a chunk through a fused reduction; lf is the lambda frame
// that ran the rest of the map.
func (w *worker) foldTail(tl *redTail, acc []col, lf *frame) []col {
	var a any
	if acc == nil {
		a = make1(tl.t)
	} else {
		a = acc[0].data
	}
	if in := tl.inner; in != nil {
		chainFold2[chainOps[in.op]][chainOps[tl.op]][tl.t](a, lf.atom(in.x).data, lf.constOne(in.c), lf.constOne(tl.y.(core.Const)))
		return []col{{data: a}}
	}
	x := lf.atom(tl.x).data
	if tl.vs {
		tailVS[tl.op][tl.t](a, x, lf.constOne(tl.y.(core.Const)))
	} else {
		tailVV[tl.op][tl.t](a, x, lf.atom(tl.y).data)
	}
	return []col{{data: a}}
}

// vsStep is one statement of a vector-scalar chain: x op c.
type vsStep struct {
	stmt *core.Stmt
	op   core.BinOp
	x    core.Atom
	c    core.Const
}

// vsStepOf reads s as `x op c` of type t (or `c op x` for a commutative
// op), with op one of chainOps.
func vsStepOf(s *core.Stmt, t core.PrimType) (vsStep, bool) {
	be, ok := s.Exp.(*core.BinOpExp)
	if !ok || len(s.Pat) != 1 || be.T != t {
		return vsStep{}, false
	}
	if _, ok := chainOps[be.Op]; !ok {
		return vsStep{}, false
	}
	x, y := be.X, be.Y
	if _, ok := x.(core.Const); ok && core.BinOps[be.Op].Commutative {
		x, y = y, x
	}
	c, ok := y.(core.Const)
	if !ok {
		return vsStep{}, false
	}
	if _, ok := x.(*core.Var); !ok {
		return vsStep{}, false
	}
	return vsStep{stmt: s, op: be.Op, x: x, c: c}, true
}

// usesIn counts the statements of body that use name and the results
// that are name.
func usesIn(body *core.Body, name string) int {
	n := 0
	for _, s := range body.Stmts {
		if usesVar(s.Exp, name) {
			n++
		}
	}
	for _, a := range body.Result {
		if atomIs(a, name) {
			n++
		}
	}
	return n
}

// definer is the statement of body binding name alone, or nil.
func definer(body *core.Body, name string) *core.Stmt {
	for _, s := range body.Stmts {
		if len(s.Pat) == 1 && s.Pat[0].Name == name {
			return s
		}
	}
	return nil
}

// chainInto finds the vector-scalar chain of one or two steps (inner step
// first) that computes the result r of body, where r is used only as
// that result and an inner step's value only by the outer step; nil when
// r is not made that way.
func chainInto(body *core.Body, r *core.Var, t core.PrimType) []vsStep {
	if usesIn(body, r.Name) != 1 {
		return nil
	}
	s := definer(body, r.Name)
	if s == nil {
		return nil
	}
	outer, ok := vsStepOf(s, t)
	if !ok {
		return nil
	}
	v := outer.x.(*core.Var)
	if usesIn(body, v.Name) == 1 {
		if is := definer(body, v.Name); is != nil {
			if inner, ok := vsStepOf(is, t); ok {
				return []vsStep{inner, outer}
			}
		}
	}
	return []vsStep{outer}
}

// scanHeads finds the builtin `+` scans of e whose input is a
// vector-scalar chain, which the scan then evaluates itself (no post-map:
// the scanned values go straight to the result). It adds the chains'
// statements and results to skip (made when nil) and returns the chains
// per scan (nil: none).
func scanHeads(e *core.Screma, scans []*opInfo, skip *skipSet) ([][]vsStep, *skipSet) {
	if e.Post != nil {
		return nil, skip
	}
	var heads [][]vsStep
	pos := 0
	for k, op := range scans {
		p := pos
		pos += len(op.ne)
		if !op.builtin || op.bop != core.Add || chainScan1[0][op.bt] == nil {
			continue
		}
		r, ok := e.Map.Body.Result[p].(*core.Var)
		if !ok {
			continue
		}
		ch := chainInto(e.Map.Body, r, op.bt)
		if ch == nil {
			continue
		}
		if heads == nil {
			heads = make([][]vsStep, len(scans))
		}
		if skip == nil {
			skip = &skipSet{stmts: map[*core.Stmt]bool{}, vars: map[string]bool{}}
		}
		heads[k] = ch
		for _, st := range ch {
			skip.stmts[st.stmt] = true
		}
		skip.vars[r.Name] = true
	}
	return heads, skip
}

// scanHead scans the chain h over n lanes of the lambda frame lf into dst,
// from carry (fresh, one lane); it returns the new carry (fresh).
func (w *worker) scanHead(op *opInfo, h []vsStep, lf *frame, carry []col, dst any, n int) []col {
	c := eval.MakeSlice(op.bt, 1)
	setLane(c, 0, carry[0].data, 0)
	x := sliceAny(lf.atom(h[0].x).data, 0, n)
	c1 := lf.constOne(h[0].c)
	if len(h) == 1 {
		chainScan1[chainOps[h[0].op]][op.bt](dst, x, c1, nil, c)
	} else {
		chainScan2[chainOps[h[0].op]][chainOps[h[1].op]][op.bt](dst, x, c1, lf.constOne(h[1].c), c)
	}
	return []col{{data: c}}
}
