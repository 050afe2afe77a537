package cpu

import "github.com/arepl/arepl/lang/core"

// The f16 operators. The session widens f16 programs to f32
// (eval.WidenHalf) with an explicit rounding after every operation, so the
// three kernels of those roundings are all that a session's f16 needs
// here. The f16 columns of the operator tables are filled all the same,
// from the f32 kernels with the result rounded, so that a program given to
// the backend unwidened (an f16 column is a []float32, every element a
// half) computes the same values.

func initHalfTables() {
	unTab[core.HalfRound][core.F32] = u1(kHalfRound)
	unTab[core.HalfRound][core.F64] = u1(kHalfRound64)
	unTab[core.HalfToBits][core.F32] = u1(kHalfToBits)
	unTab[core.HalfFromBits][core.U16] = u1(kHalfFromBits)

	f16, f32 := core.F16, core.F32
	// The reductions of f16 + and * (recogniseHalf): an f32 operation
	// rounded, on the f32 columns of the widened program.
	for op, fn := range map[core.BinOp]func(a, b float32) float32{
		core.Add: func(a, b float32) float32 { return core.RoundHalf32(a + b) },
		core.Mul: func(a, b float32) float32 { return core.RoundHalf32(a * b) },
	} {
		foldTab[op][f16] = fold1(fn)
		scanTab[op][f16] = scan1(fn)
		histTab[op][f16] = hist1(fn)
		regMS(op, f16, fn)
	}
	partScatter[f16] = partScatter[f32]
	for op := range binTab {
		if k := binTab[op][f32]; k != nil && core.BinOpValid(core.BinOp(op), f16) {
			if core.BinOps[op].Comparison {
				binTab[op][f16] = k
			} else {
				binTab[op][f16] = roundBin(k)
			}
		}
	}
	for op := range unTab {
		k := unTab[op][f32]
		switch {
		case k == nil || !core.UnOpValid(core.UnOp(op), f16):
		case core.UnOpResult(core.UnOp(op), f16) == f16:
			unTab[op][f16] = roundUn(k)
		default: // isnan, isinf
			unTab[op][f16] = k
		}
	}
	unTab[core.ToBits][f16] = u1(kHalfToBits)
	unTab[core.FromBits][core.U16] = u1(kHalfFromBits)
	for _, t := range core.PrimTypes {
		switch t {
		case f16:
			convTab[f16][f16] = u1(kCopy[float32])
		case core.F64:
			convTab[t][f16] = kHalfFromF64
			convTab[f16][t] = convTab[f32][t]
		default:
			convTab[t][f16] = roundUn(convTab[t][f32])
			convTab[f16][t] = convTab[f32][t]
		}
	}
}

// roundBin is the f32 kernel k with its result rounded to halves.
func roundBin(k binK) binK {
	return func(d, x, y any) kerr {
		res := k(d, x, y)
		kHalfRound(d.([]float32), d.([]float32))
		return res
	}
}

// roundUn is roundBin for unary kernels and conversions.
func roundUn(k unK) unK {
	return func(d, x any) kerr {
		res := k(d, x)
		kHalfRound(d.([]float32), d.([]float32))
		return res
	}
}

// kHalfFromF64 is f16.f64: straight to the nearest half (through f32 it
// would round twice).
func kHalfFromF64(d, x any) kerr {
	ds, xs := d.([]float32), x.([]float64)[:len(d.([]float32))]
	for i := range ds {
		ds[i] = core.HalfFloat(core.HalfBits(xs[i]))
	}
	return kOK
}

// kHalfRound rounds each element to the nearest binary16 value, ties to
// even (core.RoundHalf32).
func kHalfRound(d, x []float32) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = core.RoundHalf32(x[i])
	}
	return kOK
}

// kHalfRound64 is kHalfRound on f64 (the first step of f16.f64).
func kHalfRound64(d, x []float64) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = core.RoundHalf(x[i])
	}
	return kOK
}

// kHalfToBits is f16.to_bits of halves held as float32.
func kHalfToBits(d []uint16, x []float32) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = core.HalfBits(float64(x[i]))
	}
	return kOK
}

// kHalfFromBits is f16.from_bits, giving the half as a float32.
func kHalfFromBits(d []float32, x []uint16) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = core.HalfFloat(x[i])
	}
	return kOK
}

// recogniseHalf recognises the operator lambda of an f16 reduction or
// scan by + or * as widened (eval.WidenHalf): `t = x op y` on f32, then
// `r = f16_round t`, returning r. Its reduction runs from the F16 column
// of the fold, scan, histogram and multiscan tables, whose kernels work
// on the f32 columns and round after each step.
func recogniseHalf(l *core.Lambda) (core.BinOp, bool) {
	if l == nil || len(l.Params) != 2 || len(l.Body.Stmts) != 2 || len(l.Body.Result) != 1 {
		return 0, false
	}
	s0, s1 := l.Body.Stmts[0], l.Body.Stmts[1]
	e, ok0 := s0.Exp.(*core.BinOpExp)
	r, ok1 := s1.Exp.(*core.UnOpExp)
	if !ok0 || !ok1 || len(s0.Pat) != 1 || len(s1.Pat) != 1 || e.T != core.F32 || r.Op != core.HalfRound || r.T != core.F32 {
		return 0, false
	}
	if e.Op != core.Add && e.Op != core.Mul {
		return 0, false
	}
	if v, ok := r.X.(*core.Var); !ok || v.Name != s0.Pat[0].Name {
		return 0, false
	}
	if v, ok := l.Body.Result[0].(*core.Var); !ok || v.Name != s1.Pat[0].Name {
		return 0, false
	}
	x, xok := e.X.(*core.Var)
	y, yok := e.Y.(*core.Var)
	if !xok || !yok {
		return 0, false
	}
	p0, p1 := l.Params[0].Name, l.Params[1].Name
	if !(x.Name == p0 && y.Name == p1) && !(x.Name == p1 && y.Name == p0) {
		return 0, false
	}
	return e.Op, true
}
