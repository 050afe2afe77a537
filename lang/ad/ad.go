// Package ad is automatic differentiation of the core IR: Futhark's jvp
// (forward mode) and vjp (reverse mode) as core-to-core transformations of
// the lambda that lowering builds from the function being differentiated.
//
// Forward mode (fwd.go, stmt.go, compound.go) copies the lambda's code with
// every bound variable renamed, and beside each statement emits the
// statements computing the tangents of its results by the chain rule: the
// partial derivatives of the scalar operators are tables (rules.go, after
// Futhark's Futhark.AD.Derivatives), arrays operations apply to tangents as
// to values, branches and loops carry tangents as extra results and loop
// state, SOACs carry them as extra arrays (a scan or reduction works on
// (value, tangent) pairs with its operator's forward-mode version, which is
// the same associative operator on dual numbers), and a call to a recursive
// function calls its forward-mode version, made once per function. A
// tangent that is zero is known statically and never computed, so the
// tangent code only follows what depends on the differentiated argument.
// As in Futhark, integers have tangents too (integer arithmetic); bools do
// not.
//
// Reverse mode (VJP) is a return sweep (rev.go) where every construct of
// the function has a rule there. Otherwise it is computed from forward
// mode: the pullback of dy at x is, for every scalar component x_k of x,
// the dot product of dy with the jvp in direction e_k, so one forward pass
// per component of x, as an ordinary map over the basis vectors. That is
// exact and runs on every backend, but it costs O(n) times the work of f
// for an argument of n scalars, where Futhark's reverse mode costs a
// constant factor: a performance difference, not a semantic one.
//
// Every variable the output binds is fresh (from the caller's Fresh), so a
// transformed lambda can be inlined where the caller likes, once.
package ad

import (
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Fresh makes a new variable whose name is unique in the function being
// built (lowering's own generator, so that names never clash).
type Fresh func(base string, t core.Type) *core.Var

// JVP returns the forward-mode version of l: a lambda taking l's
// parameters then one tangent per parameter (of the same type), and
// returning l's results then one tangent per result. Bools' tangents are
// ignored and returned as false. Functions of prog that l calls get their
// forward-mode versions added to prog.
func JVP(prog *core.Program, fresh Fresh, l *core.Lambda, pos source.Pos) (*core.Lambda, error) {
	g := newFwd(prog, fresh, pos)
	all := make([]bool, len(l.Params))
	for i := range all {
		all[i] = true
	}
	ml := g.lambda(l, all)
	params := append([]*core.Var{}, ml.params...)
	for i, d := range ml.dparams {
		if d == nil {
			d = fresh("unused", l.Params[i].Type)
		}
		params = append(params, d)
	}
	want := make([]bool, len(l.Ret))
	for i := range want {
		want[i] = true
	}
	ret := g.results(ml.body, ml.tans, want)
	if g.err != nil {
		return nil, g.err
	}
	return &core.Lambda{Params: params, Body: ml.body, Ret: ret}, nil
}

// VJP returns the reverse-mode version of l: a lambda taking l's
// parameters then one cotangent per result of l, and returning l's results
// then one cotangent per parameter (false for bools). It is a return sweep
// (rev.go) where every construct of l has a rule there, and one forward
// pass per component of the argument otherwise.
func VJP(prog *core.Program, fresh Fresh, l *core.Lambda, pos source.Pos) (*core.Lambda, error) {
	if vl, ok, err := revVJP(prog, fresh, l, pos); ok || err != nil {
		return vl, err
	}
	return basisVJP(prog, fresh, l, pos)
}

// basisVJP is VJP by forward passes: the cotangent of x_k is the dot
// product of dy with the tangent in the direction of x_k.
func basisVJP(prog *core.Program, fresh Fresh, l *core.Lambda, pos source.Pos) (*core.Lambda, error) {
	g := newFwd(prog, fresh, pos)
	xs := make([]*core.Var, len(l.Params))
	for i, p := range l.Params {
		xs[i] = fresh(baseName(p.Name), p.Type)
	}
	dys := make([]*core.Var, len(l.Ret))
	for i, t := range l.Ret {
		dys[i] = fresh("dy", t)
	}
	body := g.nested(func() []core.Atom {
		y, _ := g.inline(l, varAtoms(xs), make([]core.Atom, len(xs)))
		out := append([]core.Atom{}, y...)
		for j := range xs {
			out = append(out, g.gradient(l, xs, dys, j))
		}
		return out
	})
	if g.err != nil {
		return nil, g.err
	}
	params := append(append([]*core.Var{}, xs...), dys...)
	return &core.Lambda{Params: params, Body: body, Ret: core.AtomTypes(body.Result)}, nil
}

func varAtoms(vs []*core.Var) []core.Atom {
	out := make([]core.Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// inline emits l's statements (renamed, with tangents) with its parameters
// bound to args and their tangents to dargs (nil: zero), and returns the
// results and their tangents.
func (f *fwd) inline(l *core.Lambda, args, dargs []core.Atom) ([]core.Atom, []core.Atom) {
	for i, p := range l.Params {
		f.names[p.Name] = args[i]
		f.setTan(p, dargs[i])
	}
	return f.body(l.Body)
}

// gradient is the cotangent of parameter j of l: for each scalar
// component of x_j, the dot product of dys with l's tangent in the
// direction of that component.
func (f *fwd) gradient(l *core.Lambda, xs, dys []*core.Var, j int) core.Atom {
	xj := xs[j]
	t := xj.Type
	if !differentiable(t.Elem) {
		return f.zero(xj)
	}
	seeds := make([]core.Atom, len(xs))
	if t.Rank == 0 {
		seeds[j] = f.num(t.Elem, 1)
		_, tans := f.inline(l, varAtoms(xs), seeds)
		return f.dot(tans, dys, t.Elem)
	}
	// One forward pass per element of x_j, as a map over the flat indices.
	shape := make([]core.Atom, t.Rank)
	var n core.Atom = core.IntConst(core.I64, 1)
	for d := 0; d < t.Rank; d++ {
		shape[d] = f.let("n", &core.SizeExp{Arr: xj, Dim: d})
		n = f.mul(n, shape[d])
	}
	ks := f.let("k", &core.IotaExp{N: n, Start: core.IntConst(core.I64, 0), Step: core.IntConst(core.I64, 1), T: core.I64})
	k := f.fresh("k", core.Scalar(core.I64))
	body := f.nested(func() []core.Atom {
		zs := f.let("zs", &core.ReplicateExp{N: n, V: f.num(t.Elem, 0)})
		var seed core.Atom = f.let("seed", &core.UpdateExp{Arr: zs, Idx: []core.DimIndex{core.Fix(k)}, Val: f.num(t.Elem, 1)})
		if t.Rank > 1 {
			seed = f.let("seed", &core.ReshapeExp{Arr: seed.(*core.Var), Shape: shape})
		}
		seeds[j] = seed
		_, tans := f.inline(l, varAtoms(xs), seeds)
		return []core.Atom{f.dot(tans, dys, t.Elem)}
	})
	flat := f.let("grad", &core.Screma{W: n, Arrs: []*core.Var{ks},
		Map: &core.Lambda{Params: []*core.Var{k}, Body: body, Ret: []core.Type{core.Scalar(t.Elem)}}})
	if t.Rank == 1 {
		return flat
	}
	return f.let("grad", &core.ReshapeExp{Arr: flat, Shape: shape})
}

// dot is the sum over the results of the dot products of their tangents
// with their cotangents, of type t.
func (f *fwd) dot(tans []core.Atom, dys []*core.Var, t core.PrimType) core.Atom {
	var sum core.Atom
	for c, d := range tans {
		if d == nil || !differentiable(dys[c].Type.Elem) {
			continue
		}
		term := f.dot1(d, dys[c])
		if e := term.AtomType().Elem; e != t {
			term = f.let("d", &core.ConvExp{From: e, To: t, X: term})
		}
		if sum == nil {
			sum = term
		} else {
			sum = f.add(sum, term)
		}
	}
	if sum == nil {
		return f.num(t, 0)
	}
	return sum
}

// dot1 is the sum of the elementwise products of a tangent and a
// cotangent of the same shape.
func (f *fwd) dot1(d core.Atom, dy *core.Var) core.Atom {
	t := dy.Type
	if t.Rank == 0 {
		return f.mul(d, dy)
	}
	dv := d.(*core.Var)
	a, b := dv, dy
	var n core.Atom = f.let("n", &core.SizeExp{Arr: dy, Dim: 0})
	if t.Rank > 1 {
		for k := 1; k < t.Rank; k++ {
			n = f.mul(n, f.let("n", &core.SizeExp{Arr: dy, Dim: k}))
		}
		a = f.let("flat", &core.ReshapeExp{Arr: dv, Shape: []core.Atom{n}})
		b = f.let("flat", &core.ReshapeExp{Arr: dy, Shape: []core.Atom{n}})
	}
	s := core.Scalar(t.Elem)
	p, q := f.fresh("a", s), f.fresh("b", s)
	mb := f.nested(func() []core.Atom { return []core.Atom{f.bin(core.Mul, p, q)} })
	x, y := f.fresh("x", s), f.fresh("y", s)
	rb := f.nested(func() []core.Atom { return []core.Atom{f.bin(core.Add, x, y)} })
	return f.let("dot", &core.Screma{W: n, Arrs: []*core.Var{a, b},
		Map:  &core.Lambda{Params: []*core.Var{p, q}, Body: mb, Ret: []core.Type{s}},
		Reds: []*core.RedOp{{Lambda: &core.Lambda{Params: []*core.Var{x, y}, Body: rb, Ret: []core.Type{s}}, Neutral: []core.Atom{f.num(t.Elem, 0)}, Comm: true}}})
}
