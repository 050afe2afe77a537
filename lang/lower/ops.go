package lower

import (
	"math"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// binOps maps source operators (and the binary numeric-module functions)
// to core operators. The core operators already carry Futhark's per-type
// semantics (signed/unsigned division, float division by zero, ...), so
// one table serves every primitive type.
var binOps = map[string]core.BinOp{
	"+": core.Add, "-": core.Sub, "*": core.Mul, "/": core.Div, "%": core.Mod,
	"//": core.Quot, "%%": core.Rem, "**": core.Pow,
	"&": core.And, "|": core.Or, "^": core.Xor, "<<": core.Shl, ">>": core.Shr,
	"&&": core.LogAnd, "||": core.LogOr,
	"==": core.Eq, "!=": core.Ne, "<": core.Lt, "<=": core.Le, ">": core.Gt, ">=": core.Ge,
	"max": core.Max, "min": core.Min, "atan2": core.Atan2, "pow": core.Pow,
	"hypot": core.Hypot, "copysign": core.CopySign, "nextafter": core.NextAfter, "mul_hi": core.MulHi,
}

// unOps maps the unary numeric-module functions to core operators.
var unOps = map[string]core.UnOp{
	"neg": core.Neg, "not": core.Not, "abs": core.Abs, "sgn": core.Signum,
	"sqrt": core.Sqrt, "exp": core.ExpF, "log": core.Log, "log2": core.Log2, "log10": core.Log10,
	"sin": core.Sin, "cos": core.Cos, "tan": core.Tan, "asin": core.Asin, "acos": core.Acos,
	"atan": core.Atan, "sinh": core.Sinh, "cosh": core.Cosh, "tanh": core.Tanh,
	"floor": core.Floor, "ceil": core.Ceil, "round": core.Round, "trunc": core.Trunc,
	"isnan": core.IsNan, "isinf": core.IsInf, "popc": core.Popc, "clz": core.Clz,
	"ctz": core.Ctz, "cbrt": core.Cbrt, "log1p": core.Log1p, "erf": core.Erf, "erfc": core.Erfc,
	"gamma": core.Gamma, "lgamma": core.Lgamma, "asinh": core.Asinh, "acosh": core.Acosh, "atanh": core.Atanh,
}

// reductionOps are the numeric-module reductions (`i32.sum`, ...): the
// operator and how to make its neutral element for a type.
var reductionOps = map[string]struct {
	op core.BinOp
	ne func(core.PrimType) core.Const
}{
	"sum":     {core.Add, func(t core.PrimType) core.Const { return numConst(t, 0) }},
	"product": {core.Mul, func(t core.PrimType) core.Const { return numConst(t, 1) }},
	"maximum": {core.Max, lowest},
	"minimum": {core.Min, highest},
}

// moduleConsts are the numeric-module constants (`f32.pi`, `i32.highest`).
var moduleConsts = map[string]func(core.PrimType) (core.Const, bool){
	"inf":      floatOnly(math.Inf(1)),
	"nan":      floatOnly(core.NaN()),
	"pi":       floatOnly(math.Pi),
	"e":        floatOnly(math.E),
	"highest":  func(t core.PrimType) (core.Const, bool) { return highest(t), true },
	"lowest":   func(t core.PrimType) (core.Const, bool) { return lowest(t), true },
	"num_bits": func(t core.PrimType) (core.Const, bool) { return core.IntConst(core.I32, int64(t.Bits())), true },
	"epsilon": func(t core.PrimType) (core.Const, bool) {
		switch t {
		case core.F32:
			return core.FloatConst(t, float64(math.Nextafter32(1, 2)-1)), true
		case core.F64:
			return core.FloatConst(t, math.Nextafter(1, 2)-1), true
		case core.F16:
			return core.FloatConst(t, 1.0/1024), true
		}
		return core.Const{}, false
	},
}

func floatOnly(v float64) func(core.PrimType) (core.Const, bool) {
	return func(t core.PrimType) (core.Const, bool) {
		if !t.IsFloat() {
			return core.Const{}, false
		}
		return core.FloatConst(t, v), true
	}
}

// numConst is the number v in type t.
func numConst(t core.PrimType, v int64) core.Const {
	if t.IsFloat() {
		return core.FloatConst(t, float64(v))
	}
	return core.IntConst(t, v)
}

// highest is the largest value of t (+inf for floats).
func highest(t core.PrimType) core.Const {
	switch {
	case t.IsFloat():
		return core.FloatConst(t, math.Inf(1))
	case t.IsUnsigned():
		return core.Const{T: t, Bits: core.Wrap(t, math.MaxUint64)}
	case t == core.Bool:
		return core.BoolConst(true)
	}
	return core.IntConst(t, int64(1)<<(t.Bits()-1)-1)
}

// lowest is the smallest value of t (-inf for floats).
func lowest(t core.PrimType) core.Const {
	switch {
	case t.IsFloat():
		return core.FloatConst(t, math.Inf(-1))
	case t.IsUnsigned():
		return core.Const{T: t}
	case t == core.Bool:
		return core.BoolConst(false)
	}
	return core.IntConst(t, -(int64(1) << (t.Bits() - 1)))
}

// scalarOf returns the one scalar atom of a value.
func scalarOf(pos source.Pos, v value) (core.Atom, error) {
	if v.fn != nil || len(v.atoms) != 1 || v.atoms[0].AtomType().Rank != 0 {
		return nil, source.Errorf(pos, "internal error: expected a scalar operand")
	}
	return v.atoms[0], nil
}

func primValue(a core.Atom) value {
	return value{t: types.Prim{T: a.AtomType().Elem}, atoms: []core.Atom{a}}
}

// binop applies a source operator to two values.
func (l *lowerer) binop(pos source.Pos, op string, a, b value) (value, error) {
	switch op {
	case "|>":
		if b.fn == nil {
			return value{}, source.Errorf(pos, "internal error: piping into a non-function")
		}
		return l.apply(b.fn, []value{a}, pos)
	case "<|":
		if a.fn == nil {
			return value{}, source.Errorf(pos, "internal error: applying a non-function")
		}
		return l.apply(a.fn, []value{b}, pos)
	case "++":
		return concat(l, pos, []value{a, b})
	case ">->":
		return value{fn: &fnVal{kind: fnCompose, bound: []value{a, b}, pos: pos}}, nil
	case "<-<":
		return value{fn: &fnVal{kind: fnCompose, bound: []value{b, a}, pos: pos}}, nil
	}
	if a.fn != nil || b.fn != nil {
		return value{}, source.Errorf(pos, "operator %s cannot be applied to functions", op)
	}
	if (op == "==" || op == "!=") && (len(a.atoms) != 1 || len(b.atoms) != 1 || a.atoms[0].AtomType().Rank > 0) {
		return l.tupleEq(pos, op, a, b)
	}
	x, err := scalarOf(pos, a)
	if err != nil {
		return value{}, err
	}
	y, err := scalarOf(pos, b)
	if err != nil {
		return value{}, err
	}
	t := x.AtomType().Elem
	if op == ">>>" {
		return l.logicalShr(pos, t, x, y)
	}
	bop, ok := binOps[op]
	if !ok {
		return value{}, source.Errorf(pos, "the operator %s is not supported", op)
	}
	if !core.BinOpValid(bop, t) {
		return value{}, source.Errorf(pos, "internal error: operator %s on %s", op, t)
	}
	r := l.emit1(pos, core.BinOps[bop].Name, core.Scalar(core.BinOpResult(bop, t)), &core.BinOpExp{Op: bop, T: t, X: x, Y: y})
	return primValue(r), nil
}

// tupleEq compares tuples component by component (Futhark's == on tuples).
func (l *lowerer) tupleEq(pos source.Pos, op string, a, b value) (value, error) {
	if len(a.atoms) != len(b.atoms) {
		return value{}, source.Errorf(pos, "internal error: comparing values of different shapes")
	}
	var acc core.Atom = core.BoolConst(true)
	for i := range a.atoms {
		x, y := a.atoms[i], b.atoms[i]
		var e core.Atom
		if x.AtomType().Rank != 0 {
			xv, okx := x.(*core.Var)
			yv, oky := y.(*core.Var)
			if !okx || !oky {
				return value{}, source.Errorf(pos, "internal error: comparing a non-variable array")
			}
			var err error
			if e, err = l.arrayEq(pos, xv, yv); err != nil {
				return value{}, err
			}
		} else {
			e = l.emit1(pos, "eq", core.Scalar(core.Bool), &core.BinOpExp{Op: core.Eq, T: x.AtomType().Elem, X: x, Y: y})
		}
		if i == 0 {
			acc = e
		} else {
			acc = l.emit1(pos, "eq", core.Scalar(core.Bool), &core.BinOpExp{Op: core.LogAnd, T: core.Bool, X: acc, Y: e})
		}
	}
	if op == "!=" {
		acc = l.emit1(pos, "ne", core.Scalar(core.Bool), &core.UnOpExp{Op: core.Not, T: core.Bool, X: acc})
	}
	return primValue(acc), nil
}

// arrayEq is Futhark's == on arrays: equal shapes and equal elements. The
// elements are compared (as flat arrays, by a map-reduce) only when the
// shapes agree, so arrays of different sizes are unequal, not an error.
func (l *lowerer) arrayEq(pos source.Pos, x, y *core.Var) (core.Atom, error) {
	shx, err := l.shape(pos, x)
	if err != nil {
		return nil, err
	}
	shy, err := l.shape(pos, y)
	if err != nil {
		return nil, err
	}
	bool1 := core.Scalar(core.Bool)
	var same core.Atom = core.BoolConst(true)
	for d := range shx {
		e := l.emit1(pos, "eq", bool1, &core.BinOpExp{Op: core.Eq, T: core.I64, X: shx[d], Y: shy[d]})
		if d == 0 {
			same = e
		} else {
			same = l.emit1(pos, "eq", bool1, &core.BinOpExp{Op: core.LogAnd, T: core.Bool, X: same, Y: e})
		}
	}
	elems, err := l.body(func() ([]core.Atom, error) {
		total, fx, fy := shx[0], x, y
		if x.Type.Rank > 1 {
			for _, n := range shx[1:] {
				total = l.emit1(pos, "n", core.Scalar(core.I64), &core.BinOpExp{Op: core.Mul, T: core.I64, X: total, Y: n})
			}
			flat := core.ArrayOf(x.Type.Elem, 1)
			fx = l.emit1(pos, "flat", flat, &core.ReshapeExp{Arr: x, Shape: []core.Atom{total}})
			fy = l.emit1(pos, "flat", flat, &core.ReshapeExp{Arr: y, Shape: []core.Atom{total}})
		}
		a, b := l.fresh("x", core.Scalar(x.Type.Elem)), l.fresh("y", core.Scalar(x.Type.Elem))
		r := l.fresh("eq", bool1)
		eq := &core.Lambda{
			Params: []*core.Var{a, b},
			Body: &core.Body{
				Stmts:  []*core.Stmt{{Pat: []*core.Var{r}, Exp: &core.BinOpExp{Op: core.Eq, T: x.Type.Elem, X: a, Y: b}, Pos: pos}},
				Result: []core.Atom{r},
			},
			Ret: []core.Type{bool1},
		}
		all := l.emit1(pos, "eq", bool1, &core.Screma{W: total, Arrs: []*core.Var{fx, fy}, Map: eq,
			Reds: []*core.RedOp{{Lambda: l.scalarOperator(pos, core.LogAnd, core.Bool), Neutral: []core.Atom{core.BoolConst(true)}, Comm: true}}})
		return []core.Atom{all}, nil
	})
	if err != nil {
		return nil, err
	}
	return l.emit1(pos, "eq", bool1, &core.IfExp{Cond: same, Then: elems,
		Else: &core.Body{Result: []core.Atom{core.BoolConst(false)}}, Ret: []core.Type{bool1}}), nil
}

// unsignedOf is the unsigned type of the same width.
var unsignedOf = map[core.PrimType]core.PrimType{
	core.I8: core.U8, core.I16: core.U16, core.I32: core.U32, core.I64: core.U64,
	core.U8: core.U8, core.U16: core.U16, core.U32: core.U32, core.U64: core.U64,
}

// logicalShr is `>>>`: a shift that fills with zeros whatever the sign,
// done in the unsigned type of the same width.
func (l *lowerer) logicalShr(pos source.Pos, t core.PrimType, x, y core.Atom) (value, error) {
	u, ok := unsignedOf[t]
	if !ok {
		return value{}, source.Errorf(pos, "internal error: >>> on %s", t)
	}
	if u == t {
		r := l.emit1(pos, "shr", core.Scalar(t), &core.BinOpExp{Op: core.Shr, T: t, X: x, Y: y})
		return primValue(r), nil
	}
	xu := l.emit1(pos, "u", core.Scalar(u), &core.ConvExp{From: t, To: u, X: x})
	yu := l.emit1(pos, "u", core.Scalar(u), &core.ConvExp{From: t, To: u, X: y})
	s := l.emit1(pos, "shr", core.Scalar(u), &core.BinOpExp{Op: core.Shr, T: u, X: xu, Y: yu})
	r := l.emit1(pos, "shr", core.Scalar(t), &core.ConvExp{From: u, To: t, X: s})
	return primValue(r), nil
}

// unop applies a unary operator to a scalar.
func (l *lowerer) unop(pos source.Pos, op core.UnOp, x core.Atom) (value, error) {
	t := x.AtomType().Elem
	if x.AtomType().Rank != 0 || !core.UnOpValid(op, t) {
		return value{}, source.Errorf(pos, "internal error: %s on %s", op, x.AtomType())
	}
	r := l.emit1(pos, core.UnOps[op].Name, core.Scalar(core.UnOpResult(op, t)), &core.UnOpExp{Op: op, T: t, X: x})
	return primValue(r), nil
}

// moduleFun is a numeric-module function resolved for one type: its arity
// (0 for constants) and how to lower an application.
type moduleFun struct {
	arity int
	lower func(l *lowerer, pos source.Pos, args []value) (value, error)
}

// lookupModuleFun resolves "T.f" (T a primitive type) through the tables
// above.
func lookupModuleFun(pos source.Pos, name string) (moduleFun, error) {
	dot := strings.IndexByte(name, '.')
	if dot < 0 {
		return moduleFun{}, source.Errorf(pos, "internal error: %s is not a module function", name)
	}
	t, ok := core.PrimByName(name[:dot])
	f := name[dot+1:]
	if !ok {
		return moduleFun{}, source.Errorf(pos, "the module %s is not supported", name[:dot])
	}
	if mk, ok := moduleConsts[f]; ok {
		if c, ok := mk(t); ok {
			return moduleFun{arity: 0, lower: func(*lowerer, source.Pos, []value) (value, error) {
				return primValue(c), nil
			}}, nil
		}
	}
	if op, ok := binOps[f]; ok {
		return moduleFun{arity: 2, lower: func(l *lowerer, pos source.Pos, args []value) (value, error) {
			return l.binop(pos, core.BinOps[op].Source, args[0], args[1])
		}}, nil
	}
	if op, ok := unOps[f]; ok {
		return moduleFun{arity: 1, lower: func(l *lowerer, pos source.Pos, args []value) (value, error) {
			x, err := scalarOf(pos, args[0])
			if err != nil {
				return value{}, err
			}
			return l.unop(pos, op, x)
		}}, nil
	}
	if r, ok := reductionOps[f]; ok {
		return moduleFun{arity: 1, lower: func(l *lowerer, pos source.Pos, args []value) (value, error) {
			return l.reduceOp(pos, r.op, r.ne(t), args[0])
		}}, nil
	}
	if m, ok := composites[f]; ok {
		return moduleFun{arity: m.arity, lower: func(l *lowerer, pos source.Pos, args []value) (value, error) {
			return m.lower(l, pos, t, args)
		}}, nil
	}
	// Conversions: T.u converts from u to T; T.to_i64 and T.to_f64 from T.
	// The source type is the argument's, so both read the same below.
	to := t
	if _, ok := core.PrimByName(f); ok {
		to = t
	} else if strings.HasPrefix(f, "to_") {
		if u, ok := core.PrimByName(f[3:]); ok {
			to = u
		} else {
			return moduleFun{}, source.Errorf(pos, "%s is not supported", name)
		}
	} else {
		switch f {
		case "mad", "fma":
			return moduleFun{arity: 3, lower: func(l *lowerer, pos source.Pos, args []value) (value, error) {
				p, err := l.binop(pos, "*", args[0], args[1])
				if err != nil {
					return value{}, err
				}
				return l.binop(pos, "+", p, args[2])
			}}, nil
		case "recip":
			return moduleFun{arity: 1, lower: func(l *lowerer, pos source.Pos, args []value) (value, error) {
				return l.binop(pos, "/", primValue(numConst(t, 1)), args[0])
			}}, nil
		}
		return moduleFun{}, source.Errorf(pos, "%s is not supported", name)
	}
	return moduleFun{arity: 1, lower: func(l *lowerer, pos source.Pos, args []value) (value, error) {
		x, err := scalarOf(pos, args[0])
		if err != nil {
			return value{}, err
		}
		from := x.AtomType().Elem
		if from == to {
			return primValue(x), nil
		}
		// Futhark zero-extends a signed integer converted to a wider
		// unsigned type (u16.i8 -1 is 255): reinterpret it as unsigned
		// first, then widen.
		if from.IsSigned() && to.IsUnsigned() && to.Bits() > from.Bits() {
			u := unsignedOf[from]
			x = l.emit1(pos, u.String(), core.Scalar(u), &core.ConvExp{From: from, To: u, X: x})
			from = u
		}
		r := l.emit1(pos, to.String(), core.Scalar(to), &core.ConvExp{From: from, To: to, X: x})
		return primValue(r), nil
	}}, nil
}

// moduleValue is a module name used as a value: a constant is computed, a
// function becomes a function value.
func (l *lowerer) moduleValue(pos source.Pos, name string, t types.Type) (value, error) {
	m, err := lookupModuleFun(pos, name)
	if err != nil {
		return value{}, err
	}
	if m.arity == 0 {
		return m.lower(l, pos, nil)
	}
	return value{fn: &fnVal{kind: fnModule, name: name, typ: t, pos: pos}}, nil
}
