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
	if t == core.F16 {
		return core.U16
	}
	return core.U64
}

// toBits is Futhark's f32.to_bits / f64.to_bits: the IEEE 754 bits of x,
// a bit cast as in Futhark (arithmetic through log2 and powers of two is
// not exact on a GPU, whose pow and log2 are not correctly rounded).
func (s *scalarOps) toBits(x value) value { return s.un(core.ToBits, x) }

// fromBits is Futhark's f32.from_bits / f64.from_bits: the float whose
// IEEE 754 bits are b, NaN payloads included.
func (s *scalarOps) fromBits(b value) value { return s.un(core.FromBits, b) }
