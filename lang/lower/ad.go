package lower

import (
	"github.com/arepl/arepl/lang/ad"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// Automatic differentiation: the function argument of jvp, vjp and their
// variants becomes a core lambda as a SOAC's does (l.lambda), package ad
// transforms it, and the transformed lambda is inlined at the call.

// addADBuiltins adds the AD builtins to the builtin table.
func addADBuiltins() {
	builtins["jvp"] = builtin{3, jvpB(false)}
	builtins["jvp2"] = builtin{3, jvpB(true)}
	builtins["vjp"] = builtin{3, vjpB(false)}
	builtins["vjp2"] = builtin{3, vjpB(true)}
	builtins["jmp"] = builtin{3, jmpB(false, false)}
	builtins["jmp2"] = builtin{3, jmpB(false, true)}
	builtins["mjp"] = builtin{3, jmpB(true, false)}
	builtins["mjp2"] = builtin{3, jmpB(true, true)}
}

// adArgs checks that the point and the (co)tangent are first-order values
// and builds the core lambda of the function at the point's type.
func (l *lowerer) adArgs(name string, args []value, pos source.Pos) (*core.Lambda, types.Type, error) {
	if args[0].fn == nil {
		return nil, nil, source.Errorf(pos, "internal error: %s given a non-function", name)
	}
	for _, a := range args[1:] {
		if a.higherOrder() {
			return nil, nil, source.Errorf(pos, "%s: cannot differentiate with respect to a function", name)
		}
	}
	return l.lambda(args[0], []types.Type{args[1].t}, pos)
}

// inlineLambda emits the statements of lam (whose variables are all
// fresh: it comes from package ad, and is inlined once) with its
// parameters bound to args, and returns its results.
func (l *lowerer) inlineLambda(pos source.Pos, lam *core.Lambda, args []core.Atom) ([]core.Atom, error) {
	if len(args) != len(lam.Params) {
		return nil, source.Errorf(pos, "internal error: %d arguments for %d parameters", len(args), len(lam.Params))
	}
	for i, p := range lam.Params {
		if args[i].AtomType() != p.Type {
			return nil, source.Errorf(pos, "the tangent or cotangent has type %s where %s is needed", args[i].AtomType(), p.Type)
		}
		l.stmts = append(l.stmts, &core.Stmt{Pat: []*core.Var{p}, Exp: &core.AtomExp{A: args[i]}, Pos: pos})
	}
	l.stmts = append(l.stmts, lam.Body.Stmts...)
	return lam.Body.Result, nil
}

// sameShapes asserts at run time that each array of got has the shape of
// the corresponding array of want, from dimension skip of got on (a seed
// array of jmp has one more, outer, dimension), so that a tangent or
// cotangent of the wrong shape is an error at the call and not an
// out-of-bounds read inside the derivative.
func (l *lowerer) sameShapes(pos source.Pos, want, got []core.Atom, skip int, msg string) error {
	for i, w := range want {
		wt := w.AtomType()
		for d := 0; d < wt.Rank; d++ {
			a, err := l.size(pos, w, d)
			if err != nil {
				return err
			}
			b, err := l.size(pos, got[i], d+skip)
			if err != nil {
				return err
			}
			l.assertEq(pos, a, b, msg)
		}
	}
	return nil
}

// transform is ad.JVP or ad.VJP of lam, as an error at pos where it fails.
func (l *lowerer) transform(reverse bool, lam *core.Lambda, pos source.Pos) (*core.Lambda, error) {
	if reverse {
		return ad.VJP(l.prog, l.fresh, lam, pos)
	}
	return ad.JVP(l.prog, l.fresh, lam, pos)
}

// jvpB is jvp f x dx (and jvp2: (f x, jvp f x dx)).
func jvpB(withPrimal bool) builtinImpl {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		lam, rt, err := l.adArgs(f.name, args, pos)
		if err != nil {
			return value{}, err
		}
		jl, err := l.transform(false, lam, pos)
		if err != nil {
			return value{}, err
		}
		if err := l.sameShapes(pos, args[1].atoms, args[2].atoms, 0, f.name+": the tangent's shape differs from the argument's"); err != nil {
			return value{}, err
		}
		out, err := l.inlineLambda(pos, jl, append(append([]core.Atom{}, args[1].atoms...), args[2].atoms...))
		if err != nil {
			return value{}, err
		}
		n := len(lam.Ret)
		y, dy := value{t: rt, atoms: out[:n]}, value{t: rt, atoms: out[n:]}
		if withPrimal {
			return tupleValue([]value{y, dy}), nil
		}
		return dy, nil
	}
}

// vjpB is vjp f x dy (and vjp2: (f x, vjp f x dy)).
func vjpB(withPrimal bool) builtinImpl {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		lam, rt, err := l.adArgs(f.name, args, pos)
		if err != nil {
			return value{}, err
		}
		vl, err := l.transform(true, lam, pos)
		if err != nil {
			return value{}, err
		}
		out, err := l.inlineLambda(pos, vl, append(append([]core.Atom{}, args[1].atoms...), args[2].atoms...))
		if err != nil {
			return value{}, err
		}
		n := len(lam.Ret)
		if err := l.sameShapes(pos, out[:n], args[2].atoms, 0, f.name+": the cotangent's shape differs from the result's"); err != nil {
			return value{}, err
		}
		y, dx := value{t: rt, atoms: out[:n]}, value{t: normalize(args[1].t), atoms: out[n:]}
		if withPrimal {
			return tupleValue([]value{y, dx}), nil
		}
		return dx, nil
	}
}

// jmpB is jmp f x dxs, a jvp for each tangent of the array dxs, and mjp
// (reverse) a vjp for each cotangent; the 2 forms also return f x.
func jmpB(reverse, withPrimal bool) builtinImpl {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		lam, rt, err := l.adArgs(f.name, args, pos)
		if err != nil {
			return value{}, err
		}
		in, err := l.soacInputs(pos, f.name, args[2:])
		if err != nil {
			return value{}, err
		}
		tl, err := l.transform(reverse, lam, pos)
		if err != nil {
			return value{}, err
		}
		if !reverse {
			if err := l.sameShapes(pos, args[1].atoms, args[2].atoms, 1, f.name+": a tangent's shape differs from the argument's"); err != nil {
				return value{}, err
			}
		}
		params := make([]*core.Var, len(in.arrs))
		for i, a := range in.arrs {
			params[i] = l.fresh("seed", a.Type.Row())
		}
		n := len(lam.Ret)
		body, err := l.body(func() ([]core.Atom, error) {
			out, err := l.inlineLambda(pos, tl, append(append([]core.Atom{}, args[1].atoms...), varsToAtoms(params)...))
			if err != nil {
				return nil, err
			}
			return out[n:], nil
		})
		if err != nil {
			return value{}, err
		}
		m := &core.Lambda{Params: params, Body: body, Ret: atomTypes(body.Result)}
		res := l.emit(pos, f.name, liftAll(m.Ret), &core.Screma{W: in.w, Arrs: in.arrs, Map: m})
		l.knowSizes(res, in.w)
		rowT := rt
		if reverse {
			rowT = normalize(args[1].t)
		}
		tans := value{t: liftType(rowT, outerDim(args[2].t)), atoms: varsToAtoms(res)}
		if !withPrimal {
			return tans, nil
		}
		y, err := l.apply(args[0].fn, []value{args[1]}, pos)
		if err != nil {
			return value{}, err
		}
		if y.fn != nil {
			return value{}, source.Errorf(pos, "%s: the function must not return a function", f.name)
		}
		return tupleValue([]value{y, tans}), nil
	}
}
