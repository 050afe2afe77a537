package ad

import (
	"math"

	"github.com/arepl/arepl/lang/core"
)

// The derivative rules, as tables beside lang/core's operator tables (after
// Futhark's Futhark.AD.Derivatives). A rule returns the partial derivative
// of an operator with respect to each operand, as atoms it binds with the
// helper d; a nil partial means the operand does not influence the result
// (or its influence is not differentiable: rounding, bit operations). The
// tangent of the result is then the sum over the operands of tangent times
// partial, which forward mode (fwd.go) builds.
//
// x and y are the operands and r the primal result, which several rules
// reuse (exp's derivative is exp x itself).

// unRule gives the partial derivative of a unary operator.
type unRule func(d *fwd, t core.PrimType, x, r core.Atom) core.Atom

// binRule gives the partial derivatives of a binary operator.
type binRule func(d *fwd, t core.PrimType, x, y, r core.Atom) (dx, dy core.Atom)

// unRules is indexed by the unary operator; an operator without a rule
// has a zero derivative (sgn, floor, isnan, popc, bit casts), except those
// listed in notDifferentiable.
var unRules = map[core.UnOp]unRule{
	core.Neg: func(d *fwd, t core.PrimType, _, _ core.Atom) core.Atom { return d.num(t, -1) },
	core.Abs: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom { return d.un(core.Signum, x) },
	core.Sqrt: func(d *fwd, t core.PrimType, _, r core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.mul(d.num(t, 2), r))
	},
	core.ExpF: func(_ *fwd, _ core.PrimType, _, r core.Atom) core.Atom { return r },
	core.Log:  func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom { return d.div(d.num(t, 1), x) },
	core.Log2: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.mul(x, d.num(t, math.Ln2)))
	},
	core.Log10: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.mul(x, d.num(t, math.Ln10)))
	},
	core.Log1p: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.add(x, d.num(t, 1)))
	},
	core.Sin: func(d *fwd, _ core.PrimType, x, _ core.Atom) core.Atom { return d.un(core.Cos, x) },
	core.Cos: func(d *fwd, _ core.PrimType, x, _ core.Atom) core.Atom { return d.un(core.Neg, d.un(core.Sin, x)) },
	core.Tan: func(d *fwd, t core.PrimType, _, r core.Atom) core.Atom {
		return d.add(d.num(t, 1), d.mul(r, r))
	},
	core.Asin: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.un(core.Sqrt, d.sub(d.num(t, 1), d.mul(x, x))))
	},
	core.Acos: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, -1), d.un(core.Sqrt, d.sub(d.num(t, 1), d.mul(x, x))))
	},
	core.Atan: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.add(d.num(t, 1), d.mul(x, x)))
	},
	core.Sinh: func(d *fwd, _ core.PrimType, x, _ core.Atom) core.Atom { return d.un(core.Cosh, x) },
	core.Cosh: func(d *fwd, _ core.PrimType, x, _ core.Atom) core.Atom { return d.un(core.Sinh, x) },
	core.Tanh: func(d *fwd, t core.PrimType, _, r core.Atom) core.Atom {
		return d.sub(d.num(t, 1), d.mul(r, r))
	},
	core.Asinh: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.un(core.Sqrt, d.add(d.mul(x, x), d.num(t, 1))))
	},
	core.Acosh: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.un(core.Sqrt, d.sub(d.mul(x, x), d.num(t, 1))))
	},
	core.Atanh: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.sub(d.num(t, 1), d.mul(x, x)))
	},
	core.Cbrt: func(d *fwd, t core.PrimType, _, r core.Atom) core.Atom {
		return d.div(d.num(t, 1), d.mul(d.num(t, 3), d.mul(r, r)))
	},
	core.Erf: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.mul(d.num(t, 2/math.Sqrt(math.Pi)), d.un(core.ExpF, d.un(core.Neg, d.mul(x, x))))
	},
	core.Erfc: func(d *fwd, t core.PrimType, x, _ core.Atom) core.Atom {
		return d.mul(d.num(t, -2/math.Sqrt(math.Pi)), d.un(core.ExpF, d.un(core.Neg, d.mul(x, x))))
	},
	// Rounding to a half is the identity to first order (as rounding an
	// f64 result to f32 would be). AD runs at lowering, before the session
	// widens f16 to f32 with these operators, so this rule is for
	// completeness: an f16 tangent is rounded when the session widens it.
	core.HalfRound: func(d *fwd, t core.PrimType, _, _ core.Atom) core.Atom { return d.num(t, 1) },
}

// notDifferentiable lists the operators whose derivative arepl cannot
// express with the operators it has (the digamma function is not one).
var notDifferentiable = map[core.UnOp]bool{core.Gamma: true, core.Lgamma: true}

// binRules is indexed by the binary operator; operators without a rule
// (comparisons, logical and bitwise operators) have zero derivatives. The
// integer rules are Futhark's: integers are differentiated too, with
// integer arithmetic (`vjp (\x -> x * y) x 2` is 2 * y, wrapping).
var binRules = map[core.BinOp]binRule{
	core.Add: func(d *fwd, t core.PrimType, _, _, _ core.Atom) (core.Atom, core.Atom) {
		return d.num(t, 1), d.num(t, 1)
	},
	core.Sub: func(d *fwd, t core.PrimType, _, _, _ core.Atom) (core.Atom, core.Atom) {
		return d.num(t, 1), d.num(t, -1)
	},
	core.Mul:  func(_ *fwd, _ core.PrimType, x, y, _ core.Atom) (core.Atom, core.Atom) { return y, x },
	core.Div:  divRule,
	core.Quot: divRule,
	// x mod y has slope 1 in x wherever it is continuous; Futhark takes y's
	// partial as zero too.
	core.Mod: func(d *fwd, t core.PrimType, _, _, _ core.Atom) (core.Atom, core.Atom) { return d.num(t, 1), nil },
	core.Rem: func(d *fwd, t core.PrimType, _, _, _ core.Atom) (core.Atom, core.Atom) { return d.num(t, 1), nil },
	core.Pow: func(d *fwd, t core.PrimType, x, y, r core.Atom) (core.Atom, core.Atom) {
		if t.IsInt() {
			// x ** (y-1) * y, and 0 where y is 0 (no negative exponent).
			yz := d.bin(core.Eq, y, d.num(t, 0))
			p := d.sel(yz, func() core.Atom { return d.num(t, 0) }, func() core.Atom {
				return d.mul(d.bin(core.Pow, x, d.sub(y, d.num(t, 1))), y)
			})
			return p, nil
		}
		xz := d.bin(core.LogAnd, d.bin(core.Eq, x, d.num(t, 0)), d.bin(core.Lt, y, d.num(t, 1)))
		px := d.sel(xz, func() core.Atom { return d.num(t, 0) }, func() core.Atom {
			return d.mul(y, d.bin(core.Pow, x, d.sub(y, d.num(t, 1))))
		})
		xn := d.bin(core.Le, x, d.num(t, 0))
		py := d.sel(xn, func() core.Atom { return d.num(t, 0) }, func() core.Atom {
			return d.mul(r, d.un(core.Log, x))
		})
		return px, py
	},
	core.Min: func(d *fwd, t core.PrimType, x, y, _ core.Atom) (core.Atom, core.Atom) {
		c := d.bin(core.Le, x, y)
		return d.indicator(t, c, true), d.indicator(t, c, false)
	},
	core.Max: func(d *fwd, t core.PrimType, x, y, _ core.Atom) (core.Atom, core.Atom) {
		c := d.bin(core.Ge, x, y)
		return d.indicator(t, c, true), d.indicator(t, c, false)
	},
	// atan2 y x (core's X is y): d/dy = x/(x²+y²), d/dx = -y/(x²+y²).
	core.Atan2: func(d *fwd, _ core.PrimType, y, x, _ core.Atom) (core.Atom, core.Atom) {
		n := d.add(d.mul(x, x), d.mul(y, y))
		return d.div(x, n), d.div(d.un(core.Neg, y), n)
	},
	core.Hypot: func(d *fwd, _ core.PrimType, x, y, r core.Atom) (core.Atom, core.Atom) {
		return d.div(x, r), d.div(y, r)
	},
	core.CopySign: func(d *fwd, t core.PrimType, x, y, _ core.Atom) (core.Atom, core.Atom) {
		one := d.num(t, 1)
		return d.mul(d.bin(core.CopySign, one, x), d.bin(core.CopySign, one, y)), nil
	},
	core.NextAfter: func(d *fwd, t core.PrimType, _, _, _ core.Atom) (core.Atom, core.Atom) { return d.num(t, 1), nil },
}

// divRule is x / y: 1/y and -x/y² (for integers as Futhark has them, with
// integer division: 1 quot y and -(x quot y²)).
func divRule(d *fwd, t core.PrimType, x, y, r core.Atom) (core.Atom, core.Atom) {
	if t.IsInt() {
		return d.bin(core.Quot, d.num(t, 1), y), d.un(core.Neg, d.bin(core.Quot, x, d.mul(y, y)))
	}
	return d.div(d.num(t, 1), y), d.un(core.Neg, d.div(r, y))
}
