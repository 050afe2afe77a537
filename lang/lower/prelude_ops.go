package lower

import (
	"math"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// composite is a numeric-module function that Futhark's prelude defines
// in terms of other operations (math.fut), lowered the same way here: to
// the scalar operators it is made of, which every backend already has.
type composite struct {
	arity int
	lower func(l *lowerer, pos source.Pos, t core.PrimType, args []value) (value, error)
}

// scalarOps is a little expression builder over the values of one call.
type scalarOps struct {
	l   *lowerer
	pos source.Pos
	t   core.PrimType
	err error
}

func (s *scalarOps) bin(op string, a, b value) value {
	if s.err != nil {
		return value{}
	}
	r, err := s.l.binop(s.pos, op, a, b)
	s.err = err
	return r
}

func (s *scalarOps) un(op core.UnOp, a value) value {
	if s.err != nil {
		return value{}
	}
	x, err := scalarOf(s.pos, a)
	if err != nil {
		s.err = err
		return value{}
	}
	r, err := s.l.unop(s.pos, op, x)
	s.err = err
	return r
}

func (s *scalarOps) conv(a value, to core.PrimType) value {
	if s.err != nil {
		return value{}
	}
	x, err := scalarOf(s.pos, a)
	if err != nil {
		s.err = err
		return value{}
	}
	if x.AtomType().Elem == to {
		return a
	}
	return primValue(s.l.emit1(s.pos, to.String(), core.Scalar(to), &core.ConvExp{From: x.AtomType().Elem, To: to, X: x}))
}

func (s *scalarOps) num(v float64) value {
	if s.t.IsFloat() {
		return primValue(core.FloatConst(s.t, v))
	}
	return primValue(core.IntConst(s.t, int64(v)))
}

// pi is the constant pi in the call's float type.
func (s *scalarOps) pi() value { return s.num(math.Pi) }

func unary(f func(s *scalarOps, x value) value) composite {
	return composite{1, func(l *lowerer, pos source.Pos, t core.PrimType, args []value) (value, error) {
		s := &scalarOps{l: l, pos: pos, t: t}
		r := f(s, args[0])
		return r, s.err
	}}
}

func binary(f func(s *scalarOps, x, y value) value) composite {
	return composite{2, func(l *lowerer, pos source.Pos, t core.PrimType, args []value) (value, error) {
		s := &scalarOps{l: l, pos: pos, t: t}
		r := f(s, args[0], args[1])
		return r, s.err
	}}
}

func ternary(f func(s *scalarOps, x, y, z value) value) composite {
	return composite{3, func(l *lowerer, pos source.Pos, t core.PrimType, args []value) (value, error) {
		s := &scalarOps{l: l, pos: pos, t: t}
		r := f(s, args[0], args[1], args[2])
		return r, s.err
	}}
}

// composites are the numeric-module functions built from other operators
// (filled by init: their lowering refers back to lookupModuleFun).
var composites map[string]composite

func init() { composites = compositeTable() }

func compositeTable() map[string]composite {
	return map[string]composite{
		"rsqrt":   unary(func(s *scalarOps, x value) value { return s.bin("/", s.num(1), s.un(core.Sqrt, x)) }),
		"sinpi":   unary(func(s *scalarOps, x value) value { return s.un(core.Sin, s.bin("*", s.pi(), x)) }),
		"cospi":   unary(func(s *scalarOps, x value) value { return s.un(core.Cos, s.bin("*", s.pi(), x)) }),
		"tanpi":   unary(func(s *scalarOps, x value) value { return s.un(core.Tan, s.bin("*", s.pi(), x)) }),
		"asinpi":  unary(func(s *scalarOps, x value) value { return s.bin("/", s.un(core.Asin, x), s.pi()) }),
		"acospi":  unary(func(s *scalarOps, x value) value { return s.bin("/", s.un(core.Acos, x), s.pi()) }),
		"atanpi":  unary(func(s *scalarOps, x value) value { return s.bin("/", s.un(core.Atan, x), s.pi()) }),
		"atan2pi": binary(func(s *scalarOps, y, x value) value { return s.bin("/", s.bin("atan2", y, x), s.pi()) }),
		"lerp": ternary(func(s *scalarOps, v0, v1, t value) value {
			return s.bin("+", v0, s.bin("*", s.bin("-", v1, v0), t))
		}),
		"from_fraction": binary(func(s *scalarOps, x, y value) value {
			return s.bin("/", s.conv(x, s.t), s.conv(y, s.t))
		}),
		"ldexp": binary(func(s *scalarOps, x, n value) value {
			return s.bin("*", x, s.bin("**", s.num(2), s.conv(n, s.t)))
		}),
		"get_bit": binary(func(s *scalarOps, i, x value) value {
			if s.t.IsFloat() {
				// Futhark: the bit of the float's representation.
				return s.as(bitsOf(s.t)).getBit(i, s.toBits(x))
			}
			return s.getBit(i, x)
		}),
		"set_bit": ternary(func(s *scalarOps, i, x, b value) value {
			if s.t.IsFloat() {
				return s.fromBits(s.as(bitsOf(s.t)).setBit(i, s.toBits(x), b))
			}
			return s.setBit(i, x, b)
		}),
		"to_bits":   unary(func(s *scalarOps, x value) value { return s.toBits(x) }),
		"from_bits": unary(func(s *scalarOps, b value) value { return s.fromBits(b) }),
		"mad_hi": ternary(func(s *scalarOps, a, b, c value) value {
			return s.bin("+", s.bin("mul_hi", a, b), c)
		}),
	}
}

func (s *scalarOps) getBit(i, x value) value {
	b := s.bin("&", s.bin(">>", x, s.conv(i, s.t)), s.num(1))
	return s.conv(b, core.I32)
}

func (s *scalarOps) setBit(i, x, b value) value {
	bit := s.bin("<<", s.num(1), s.conv(i, s.t))
	cleared := s.bin("&", x, s.un(core.Not, bit))
	return s.bin("|", cleared, s.bin("<<", s.conv(b, s.t), s.conv(i, s.t)))
}

// as is a builder for the same call over another type.
func (s *scalarOps) as(t core.PrimType) *scalarOps {
	o := &scalarOps{l: s.l, pos: s.pos, t: t, err: s.err}
	return o
}

// bitsOf is the unsigned type as wide as the float type t.
func bitsOf(t core.PrimType) core.PrimType {
	if t == core.F32 {
		return core.U32
	}
	return core.U64
}

// floatLayout is the IEEE 754 layout of a float type: the mantissa's
// width and the exponent's bias.
func floatLayout(t core.PrimType) (mantBits int, bias int) {
	if t == core.F32 {
		return 23, 127
	}
	return 52, 1023
}

// sel is `if c then a else b` over scalars computed beforehand (both are
// computed; sel only picks one, so garbage in the other is harmless).
func (s *scalarOps) sel(c, a, b value) value {
	if s.err != nil {
		return value{}
	}
	ca, err := scalarOf(s.pos, c)
	if err == nil {
		var x, y core.Atom
		if x, err = scalarOf(s.pos, a); err == nil {
			if y, err = scalarOf(s.pos, b); err == nil {
				t := x.AtomType()
				e := &core.IfExp{Cond: ca, Then: &core.Body{Result: []core.Atom{x}}, Else: &core.Body{Result: []core.Atom{y}}, Ret: []core.Type{t}}
				return primValue(s.l.emit1(s.pos, "sel", t, e))
			}
		}
	}
	s.err = err
	return value{}
}

func (s *scalarOps) float(v float64) value { return primValue(core.FloatConst(s.t, v)) }

func (s *scalarOps) uint(t core.PrimType, v uint64) value {
	return primValue(core.Const{T: t, Bits: v})
}

// toBits is Futhark's f32.to_bits / f64.to_bits, the IEEE 754 bits of x,
// computed with the arithmetic every backend has (sign by copysign,
// exponent by log2, corrected by one either way, mantissa by exact scaling
// with powers of two); a NaN gives the quiet NaN of its sign.
func (s *scalarOps) toBits(x value) value {
	u := bitsOf(s.t)
	mb, bias := floatLayout(s.t)
	width := u.Bits()
	a := s.un(core.Abs, x)
	neg := s.bin("<", s.bin("copysign", s.float(1), x), s.float(0))
	nan := s.un(core.IsNan, x)
	inf := s.un(core.IsInf, x)
	minNormal := math.Ldexp(1, 1-bias)
	sub := s.bin("<", a, s.float(minNormal)) // zero included; false for NaN
	special := s.bin("||", s.bin("||", nan, inf), sub)
	safe := s.sel(special, s.float(1), a)
	e0 := s.un(core.Floor, s.un(core.Log2, safe))
	m0 := s.bin("/", safe, s.bin("**", s.float(2), e0))
	e1 := s.bin("+", e0, s.bin("-", s.conv(s.bin(">=", m0, s.float(2)), s.t), s.conv(s.bin("<", m0, s.float(1)), s.t)))
	m := s.bin("/", safe, s.bin("**", s.float(2), e1))
	mant := s.conv(s.bin("*", s.bin("-", m, s.float(1)), s.float(math.Ldexp(1, mb))), u)
	expf := s.conv(s.bin("+", e1, s.float(float64(bias))), u)
	normal := s.bin("|", s.bin("<<", expf, s.uint(u, uint64(mb))), mant)
	// A subnormal is a multiple of 2^(1-bias-mb): scale in two exact steps.
	subBits := s.conv(s.bin("*", s.bin("*", a, s.float(math.Ldexp(1, bias-1))), s.float(math.Ldexp(1, mb))), u)
	expMask := uint64(1)<<(width-1-mb) - 1
	infBits := s.uint(u, expMask<<mb)
	nanBits := s.uint(u, expMask<<mb|1<<(mb-1))
	bits := s.sel(nan, nanBits, s.sel(inf, infBits, s.sel(sub, subBits, normal)))
	sign := s.sel(neg, s.uint(u, 1<<(width-1)), s.uint(u, 0))
	return s.bin("|", bits, sign)
}

// fromBits is Futhark's f32.from_bits / f64.from_bits: the float whose
// IEEE 754 bits are b, built from its fields with exact arithmetic.
func (s *scalarOps) fromBits(b value) value {
	u := bitsOf(s.t)
	mb, bias := floatLayout(s.t)
	width := u.Bits()
	expMask := uint64(1)<<(width-1-mb) - 1
	negBit := s.bin("!=", s.bin("&", b, s.uint(u, 1<<(width-1))), s.uint(u, 0))
	expf := s.bin("&", s.bin(">>", b, s.uint(u, uint64(mb))), s.uint(u, expMask))
	mant := s.bin("&", b, s.uint(u, 1<<mb-1))
	frac := s.bin("*", s.conv(mant, s.t), s.float(math.Ldexp(1, -mb))) // exact: mant < 2^mb
	e := s.bin("-", s.conv(expf, s.t), s.float(float64(bias)))
	normal := s.bin("*", s.bin("+", s.float(1), frac), s.bin("**", s.float(2), e))
	subnormal := s.bin("*", frac, s.float(math.Ldexp(1, 1-bias)))
	isZeroExp := s.bin("==", expf, s.uint(u, 0))
	isMaxExp := s.bin("==", expf, s.uint(u, expMask))
	special := s.sel(s.bin("==", mant, s.uint(u, 0)), s.float(math.Inf(1)), s.float(math.NaN()))
	v := s.sel(isZeroExp, subnormal, s.sel(isMaxExp, special, normal))
	return s.sel(negBit, s.un(core.Neg, v), v)
}
