package cpu

import (
	"math"
	"math/bits"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Scalar operators of compiled code: one closure per operator, type and
// operand slots, generic over the element type so that each type's
// instantiation is compiled for it. An integer of type T is read from its
// canonical int64 slot as T(v) (truncation) and written back as int64(t)
// (sign- or zero-extension), which is the wrapping arithmetic of the
// kernels in kernels.go; a float is read as T(v) and written as
// float64(t), which rounds f32 results as f32 arithmetic does. Operators
// written here follow the kernels of kernels.go line by line; the rest run
// the kernel itself on one-element slices (kernelBin, kernelUn).

// binOpCode returns the closure for d = x op y on t, or nil.
func binOpCode(op core.BinOp, t core.PrimType, d, x, y int32, pos source.Pos) op {
	switch t {
	case core.Bool:
		return boolBin(op, d, x, y)
	case core.I8:
		return intBin[int8](op, true, d, x, y, pos)
	case core.I16:
		return intBin[int16](op, true, d, x, y, pos)
	case core.I32:
		return intBin[int32](op, true, d, x, y, pos)
	case core.I64:
		return intBin[int64](op, true, d, x, y, pos)
	case core.U8:
		return intBin[uint8](op, false, d, x, y, pos)
	case core.U16:
		return intBin[uint16](op, false, d, x, y, pos)
	case core.U32:
		return intBin[uint32](op, false, d, x, y, pos)
	case core.U64:
		return intBin[uint64](op, false, d, x, y, pos)
	case core.F32:
		return floatBin[float32](op, d, x, y)
	case core.F64:
		return floatBin[float64](op, d, x, y)
	}
	return nil
}

func intBin[T integer](op core.BinOp, signed bool, d, x, y int32, pos source.Pos) op {
	switch op {
	case core.Add:
		return func(_ *thread, r *regs) { r.i[d] = int64(T(r.i[x]) + T(r.i[y])) }
	case core.Sub:
		return func(_ *thread, r *regs) { r.i[d] = int64(T(r.i[x]) - T(r.i[y])) }
	case core.Mul:
		return func(_ *thread, r *regs) { r.i[d] = int64(T(r.i[x]) * T(r.i[y])) }
	case core.Div:
		// For unsigned T the sign tests are always false: the quotient.
		return func(_ *thread, r *regs) {
			a, b := T(r.i[x]), T(r.i[y])
			if b == 0 {
				failAt(pos, "division by zero")
			}
			q, m := a/b, a%b
			if m != 0 && (m < 0) != (b < 0) {
				q--
			}
			r.i[d] = int64(q)
		}
	case core.Mod:
		return func(_ *thread, r *regs) {
			a, b := T(r.i[x]), T(r.i[y])
			if b == 0 {
				failAt(pos, "division by zero")
			}
			m := a % b
			if m != 0 && (m < 0) != (b < 0) {
				m += b
			}
			r.i[d] = int64(m)
		}
	case core.Quot:
		return func(_ *thread, r *regs) {
			a, b := T(r.i[x]), T(r.i[y])
			if b == 0 {
				failAt(pos, "division by zero")
			}
			r.i[d] = int64(a / b)
		}
	case core.Rem:
		return func(_ *thread, r *regs) {
			a, b := T(r.i[x]), T(r.i[y])
			if b == 0 {
				failAt(pos, "division by zero")
			}
			r.i[d] = int64(a % b)
		}
	case core.Pow:
		return func(_ *thread, r *regs) {
			a, b := T(r.i[x]), T(r.i[y])
			if b < 0 {
				failAt(pos, "negative exponent")
			}
			r.i[d] = int64(ipow(a, b))
		}
	case core.Min:
		return func(_ *thread, r *regs) { r.i[d] = int64(min(T(r.i[x]), T(r.i[y]))) }
	case core.Max:
		return func(_ *thread, r *regs) { r.i[d] = int64(max(T(r.i[x]), T(r.i[y]))) }
	case core.And:
		return func(_ *thread, r *regs) { r.i[d] = int64(T(r.i[x]) & T(r.i[y])) }
	case core.Or:
		return func(_ *thread, r *regs) { r.i[d] = int64(T(r.i[x]) | T(r.i[y])) }
	case core.Xor:
		return func(_ *thread, r *regs) { r.i[d] = int64(T(r.i[x]) ^ T(r.i[y])) }
	case core.Shl:
		if signed {
			return func(_ *thread, r *regs) { r.i[d] = int64(T(shl64(uint64(int64(T(r.i[x]))), int64(T(r.i[y]))))) }
		}
		return func(_ *thread, r *regs) { r.i[d] = int64(T(shl64(uint64(T(r.i[x])), int64(uint64(T(r.i[y])))))) }
	case core.Shr:
		if signed {
			return func(_ *thread, r *regs) { r.i[d] = int64(T(ashr64(int64(T(r.i[x])), int64(T(r.i[y]))))) }
		}
		return func(_ *thread, r *regs) {
			r.i[d] = int64(T(shl64(uint64(T(r.i[x])), -int64(uint64(T(r.i[y]))&(1<<63-1)))))
		}
	case core.Eq:
		return func(_ *thread, r *regs) { r.b[d] = T(r.i[x]) == T(r.i[y]) }
	case core.Ne:
		return func(_ *thread, r *regs) { r.b[d] = T(r.i[x]) != T(r.i[y]) }
	case core.Lt:
		return func(_ *thread, r *regs) { r.b[d] = T(r.i[x]) < T(r.i[y]) }
	case core.Le:
		return func(_ *thread, r *regs) { r.b[d] = T(r.i[x]) <= T(r.i[y]) }
	case core.Gt:
		return func(_ *thread, r *regs) { r.b[d] = T(r.i[x]) > T(r.i[y]) }
	case core.Ge:
		return func(_ *thread, r *regs) { r.b[d] = T(r.i[x]) >= T(r.i[y]) }
	}
	return nil
}

func floatBin[T float](op core.BinOp, d, x, y int32) op {
	switch op {
	case core.Add:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(r.f[x]) + T(r.f[y])) }
	case core.Sub:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(r.f[x]) - T(r.f[y])) }
	case core.Mul:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(r.f[x]) * T(r.f[y])) }
	case core.Div:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(r.f[x]) / T(r.f[y])) }
	case core.Mod:
		return func(_ *thread, r *regs) {
			a, b := float64(T(r.f[x])), float64(T(r.f[y]))
			r.f[d] = float64(T(a - b*math.Floor(a/b)))
		}
	case core.Rem:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Mod(float64(T(r.f[x])), float64(T(r.f[y]))))) }
	case core.Quot:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Trunc(float64(T(r.f[x])) / float64(T(r.f[y]))))) }
	case core.Pow:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Pow(float64(T(r.f[x])), float64(T(r.f[y]))))) }
	case core.Atan2:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Atan2(float64(T(r.f[x])), float64(T(r.f[y]))))) }
	case core.Min:
		return func(_ *thread, r *regs) { r.f[d] = float64(fmin(T(r.f[x]), T(r.f[y]))) }
	case core.Max:
		return func(_ *thread, r *regs) { r.f[d] = float64(fmax(T(r.f[x]), T(r.f[y]))) }
	case core.Eq:
		return func(_ *thread, r *regs) { r.b[d] = T(r.f[x]) == T(r.f[y]) }
	case core.Ne:
		return func(_ *thread, r *regs) { r.b[d] = T(r.f[x]) != T(r.f[y]) }
	case core.Lt:
		return func(_ *thread, r *regs) { r.b[d] = T(r.f[x]) < T(r.f[y]) }
	case core.Le:
		return func(_ *thread, r *regs) { r.b[d] = T(r.f[x]) <= T(r.f[y]) }
	case core.Gt:
		return func(_ *thread, r *regs) { r.b[d] = T(r.f[x]) > T(r.f[y]) }
	case core.Ge:
		return func(_ *thread, r *regs) { r.b[d] = T(r.f[x]) >= T(r.f[y]) }
	}
	return nil
}

func boolBin(op core.BinOp, d, x, y int32) op {
	switch op {
	case core.And, core.LogAnd:
		return func(_ *thread, r *regs) { r.b[d] = r.b[x] && r.b[y] }
	case core.Or, core.LogOr:
		return func(_ *thread, r *regs) { r.b[d] = r.b[x] || r.b[y] }
	case core.Xor, core.Ne:
		return func(_ *thread, r *regs) { r.b[d] = r.b[x] != r.b[y] }
	case core.Eq:
		return func(_ *thread, r *regs) { r.b[d] = r.b[x] == r.b[y] }
	case core.Lt:
		return func(_ *thread, r *regs) { r.b[d] = !r.b[x] && r.b[y] }
	case core.Le:
		return func(_ *thread, r *regs) { r.b[d] = !r.b[x] || r.b[y] }
	case core.Gt:
		return func(_ *thread, r *regs) { r.b[d] = r.b[x] && !r.b[y] }
	case core.Ge:
		return func(_ *thread, r *regs) { r.b[d] = r.b[x] || !r.b[y] }
	}
	return nil
}

// unOpCode returns the closure for d = op x on t, or nil.
func unOpCode(op core.UnOp, t core.PrimType, d, x int32) op {
	switch t {
	case core.Bool:
		if op == core.Not {
			return func(_ *thread, r *regs) { r.b[d] = !r.b[x] }
		}
	case core.I8:
		return intUn[int8](op, true, d, x)
	case core.I16:
		return intUn[int16](op, true, d, x)
	case core.I32:
		return intUn[int32](op, true, d, x)
	case core.I64:
		return intUn[int64](op, true, d, x)
	case core.U8:
		return intUn[uint8](op, false, d, x)
	case core.U16:
		return intUn[uint16](op, false, d, x)
	case core.U32:
		return intUn[uint32](op, false, d, x)
	case core.U64:
		return intUn[uint64](op, false, d, x)
	case core.F32:
		return floatUn[float32](op, d, x)
	case core.F64:
		return floatUn[float64](op, d, x)
	}
	return nil
}

func intUn[T integer](op core.UnOp, signed bool, d, x int32) op {
	switch op {
	case core.Neg:
		return func(_ *thread, r *regs) { r.i[d] = int64(-T(r.i[x])) }
	case core.Not:
		return func(_ *thread, r *regs) { r.i[d] = int64(^T(r.i[x])) }
	case core.Abs:
		if !signed {
			return func(_ *thread, r *regs) { r.i[d] = r.i[x] }
		}
		return func(_ *thread, r *regs) {
			v := T(r.i[x])
			if v < 0 {
				v = -v
			}
			r.i[d] = int64(v)
		}
	case core.Signum:
		return func(_ *thread, r *regs) {
			v := T(r.i[x])
			switch {
			case v > 0:
				r.i[d] = 1
			case v < 0:
				r.i[d] = -1
			default:
				r.i[d] = 0
			}
		}
	case core.Popc:
		return func(_ *thread, r *regs) { r.i[d] = int64(bits.OnesCount64(uint64(T(r.i[x])) & widthMask[T]())) }
	case core.Clz:
		return func(_ *thread, r *regs) {
			w := bitsOf[T]()
			r.i[d] = int64(bits.LeadingZeros64(uint64(T(r.i[x]))&widthMask[T]()) - (64 - w))
		}
	case core.FromBits:
		// Registers hold an f32 as the float64 of the same value, which
		// keeps a quiet NaN's payload.
		if bitsOf[T]() == 32 {
			return func(_ *thread, r *regs) { r.f[d] = float64(math.Float32frombits(uint32(r.i[x]))) }
		}
		return func(_ *thread, r *regs) { r.f[d] = math.Float64frombits(uint64(r.i[x])) }
	case core.HalfFromBits:
		return func(_ *thread, r *regs) { r.f[d] = float64(core.HalfFloat(uint16(r.i[x]))) }
	}
	return nil
}

func bitsOf[T integer]() int {
	var z T
	return int(8 * sizeOf(z))
}

func sizeOf[T integer](z T) uintptr {
	switch any(z).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32:
		return 4
	}
	return 8
}

func widthMask[T integer]() uint64 {
	w := bitsOf[T]()
	if w == 64 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(w) - 1
}

func floatUn[T float](op core.UnOp, d, x int32) op {
	switch op {
	case core.Neg:
		return func(_ *thread, r *regs) { r.f[d] = float64(-T(r.f[x])) }
	case core.Abs:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Abs(r.f[x]))) }
	case core.Signum:
		return func(_ *thread, r *regs) {
			switch v := T(r.f[x]); {
			case v > 0:
				r.f[d] = 1
			case v < 0:
				r.f[d] = -1
			default:
				r.f[d] = float64(v)
			}
		}
	case core.Sqrt:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Sqrt(r.f[x]))) }
	case core.ExpF:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Exp(r.f[x]))) }
	case core.Log:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Log(r.f[x]))) }
	case core.Floor:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Floor(r.f[x]))) }
	case core.Ceil:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Ceil(r.f[x]))) }
	case core.Trunc:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.Trunc(r.f[x]))) }
	case core.Round:
		return func(_ *thread, r *regs) { r.f[d] = float64(T(math.RoundToEven(r.f[x]))) }
	case core.IsNan:
		return func(_ *thread, r *regs) { r.b[d] = r.f[x] != r.f[x] }
	case core.IsInf:
		return func(_ *thread, r *regs) { r.b[d] = math.IsInf(r.f[x], 0) }
	case core.ToBits:
		var z T
		if _, f32 := any(z).(float32); f32 {
			return func(_ *thread, r *regs) { r.i[d] = int64(math.Float32bits(float32(r.f[x]))) }
		}
		return func(_ *thread, r *regs) { r.i[d] = int64(math.Float64bits(r.f[x])) }
	case core.HalfRound:
		var z T
		if _, f32 := any(z).(float32); f32 {
			return func(_ *thread, r *regs) { r.f[d] = float64(core.RoundHalf32(float32(r.f[x]))) }
		}
		return func(_ *thread, r *regs) { r.f[d] = core.RoundHalf(r.f[x]) }
	case core.HalfToBits:
		return func(_ *thread, r *regs) { r.i[d] = int64(core.HalfBits(r.f[x])) }
	}
	if fn, ok := mathFuns[op]; ok {
		return func(_ *thread, r *regs) { r.f[d] = float64(T(fn(r.f[x]))) }
	}
	return nil
}

// convCode returns the closure for d = to.from(x), or nil.
func convCode(from, to core.PrimType, d, x int32) op {
	switch {
	case from == core.Bool && to == core.Bool:
		return func(_ *thread, r *regs) { r.b[d] = r.b[x] }
	case from == core.Bool && to.IsFloat():
		return func(_ *thread, r *regs) {
			r.f[d] = 0
			if r.b[x] {
				r.f[d] = 1
			}
		}
	case from == core.Bool:
		return func(_ *thread, r *regs) {
			r.i[d] = 0
			if r.b[x] {
				r.i[d] = 1
			}
		}
	case to == core.Bool && from.IsFloat():
		return func(_ *thread, r *regs) { r.b[d] = r.f[x] != 0 }
	case to == core.Bool:
		// The canonical form of a nonzero value of any width is nonzero.
		return func(_ *thread, r *regs) { r.b[d] = r.i[x] != 0 }
	case from.IsInt() && to.IsInt():
		return func(_ *thread, r *regs) { r.i[d] = int64(core.Wrap(to, uint64(r.i[x]))) }
	case from.IsFloat() && to.IsFloat():
		if to == core.F32 {
			return func(_ *thread, r *regs) { r.f[d] = float64(float32(r.f[x])) }
		}
		return func(_ *thread, r *regs) { r.f[d] = r.f[x] }
	case from.IsInt() && to == core.F64:
		if from == core.U64 {
			return func(_ *thread, r *regs) { r.f[d] = float64(uint64(r.i[x])) }
		}
		return func(_ *thread, r *regs) { r.f[d] = float64(r.i[x]) }
	case from.IsInt() && to == core.F32:
		if from == core.U64 {
			return func(_ *thread, r *regs) { r.f[d] = float64(float32(uint64(r.i[x]))) }
		}
		return func(_ *thread, r *regs) { r.f[d] = float64(float32(r.i[x])) }
	case from.IsFloat() && to.IsInt():
		// kF2I: through the source type's precision, NaN, infinities and
		// values out of the 64-bit range give 0, others wrap.
		f32 := from == core.F32
		return func(_ *thread, r *regs) {
			v := r.f[x]
			if f32 {
				v = float64(float32(v))
			}
			var u uint64
			switch {
			case v != v || v >= 1<<64 || v <= -(1<<63):
				u = 0
			case v >= 1<<63:
				u = uint64(v)
			default:
				u = uint64(int64(v))
			}
			r.i[d] = int64(core.Wrap(to, u))
		}
	}
	return nil
}

// kernelBin runs the operator's kernel on one-element slices: the
// operators no closure above covers.
func kernelBin(e *core.BinOpExp, d, x, y slot, pos source.Pos) op {
	k := binTab[e.Op][e.T]
	if k == nil {
		return func(*thread, *regs) { failAt(pos, "internal error: no operator %v on %v", e.Op, e.T) }
	}
	in, out := e.T, core.BinOpResult(e.Op, e.T)
	return func(_ *thread, r *regs) {
		xs, ys, ds := eval.MakeSlice(in, 1), eval.MakeSlice(in, 1), eval.MakeSlice(out, 1)
		storeScalar(xs, 0, r, x)
		storeScalar(ys, 0, r, y)
		if res := k(ds, xs, ys); res != kOK {
			failAt(pos, "%s", res.msg())
		}
		loadScalar(r, d, ds, 0)
	}
}

// kernelUn is kernelBin for unary operators and conversions.
func kernelUn(k unK, in, out core.PrimType, d, x slot, pos source.Pos) op {
	if k == nil {
		return func(*thread, *regs) { failAt(pos, "internal error: no operator from %v to %v", in, out) }
	}
	return func(_ *thread, r *regs) {
		xs, ds := eval.MakeSlice(in, 1), eval.MakeSlice(out, 1)
		storeScalar(xs, 0, r, x)
		if res := k(ds, xs); res != kOK {
			failAt(pos, "%s", res.msg())
		}
		loadScalar(r, d, ds, 0)
	}
}
