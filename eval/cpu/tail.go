package cpu

import "github.com/arepl/arepl/lang/core"

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
	tailVV [len(core.BinOps)][11]tailK
	tailVS [len(core.BinOps)][11]tailK
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

func init() {
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
		if tails == nil {
			tails = make([]*redTail, len(reds))
			skip = &skipSet{stmts: map[*core.Stmt]bool{}, vars: map[string]bool{}}
		}
		tails[k] = tl
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
	x := lf.atom(tl.x).data
	if tl.vs {
		tailVS[tl.op][tl.t](a, x, lf.constOne(tl.y.(core.Const)))
	} else {
		tailVV[tl.op][tl.t](a, x, lf.atom(tl.y).data)
	}
	return []col{{data: a}}
}
