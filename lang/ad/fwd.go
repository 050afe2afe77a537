package ad

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// fwd is the state of one forward-mode transformation. It copies the code
// it walks with every bound variable renamed (names maps an old name to the
// new atom; a name it does not map is free in what is transformed and is
// kept), and beside each copied statement it emits the statements that
// compute the tangents of the statement's results (tan maps an old name to
// its tangent; an absent entry is a zero tangent, which is never
// materialised unless a consumer needs an array or a value of fixed
// layout: a loop's state, a branch's result, a SOAC's operand).
type fwd struct {
	prog  *core.Program
	fresh Fresh
	names map[string]core.Atom
	tan   map[string]core.Atom
	stmts []*core.Stmt
	pos   source.Pos
	err   error
}

func newFwd(prog *core.Program, fresh Fresh, pos source.Pos) *fwd {
	return &fwd{prog: prog, fresh: fresh, names: map[string]core.Atom{}, tan: map[string]core.Atom{}, pos: pos}
}

// fail records the first error; the walk goes on with zero tangents, and
// the caller returns the error.
func (f *fwd) fail(pos source.Pos, format string, args ...any) {
	if f.err == nil {
		f.err = source.Errorf(pos, format, args...)
	}
}

// differentiable reports whether values of type t have tangents: floats
// and, as in Futhark, integers; bools do not.
func differentiable(t core.PrimType) bool { return t != core.Bool }

// ---------------------------------------------------------------------------
// Emitting code

func baseName(name string) string {
	if i := strings.LastIndexByte(name, '_'); i > 0 {
		return name[:i]
	}
	return name
}

func (f *fwd) bindTypes(base string, ts []core.Type, e core.Exp) []*core.Var {
	pat := make([]*core.Var, len(ts))
	for i, t := range ts {
		pat[i] = f.fresh(base, t)
	}
	f.stmts = append(f.stmts, &core.Stmt{Pat: pat, Exp: e, Pos: f.pos})
	return pat
}

func (f *fwd) let(base string, e core.Exp) *core.Var {
	ts, err := core.ExpTypes(e)
	if err != nil || len(ts) != 1 {
		panic(fmt.Sprintf("ad: internal error: %v", err))
	}
	return f.bindTypes(base, ts, e)[0]
}

// num is the constant v of type t.
func (f *fwd) num(t core.PrimType, v float64) core.Atom {
	if t.IsFloat() {
		return core.FloatConst(t, v)
	}
	return core.IntConst(t, int64(v))
}

func isConst(a core.Atom, v float64) bool {
	c, ok := a.(core.Const)
	if !ok {
		return false
	}
	switch {
	case c.T.IsFloat():
		return c.Float() == v
	case c.T.IsInt():
		return float64(c.Int()) == v
	}
	return false
}

func (f *fwd) bin(op core.BinOp, x, y core.Atom) core.Atom {
	return f.let("d", &core.BinOpExp{Op: op, T: x.AtomType().Elem, X: x, Y: y})
}

func (f *fwd) un(op core.UnOp, x core.Atom) core.Atom {
	return f.let("d", &core.UnOpExp{Op: op, T: x.AtomType().Elem, X: x})
}

func (f *fwd) add(x, y core.Atom) core.Atom { return f.bin(core.Add, x, y) }
func (f *fwd) div(x, y core.Atom) core.Atom { return f.bin(core.Div, x, y) }

func (f *fwd) sub(x, y core.Atom) core.Atom { return f.bin(core.Sub, x, y) }

// mul is x * y, skipping a multiplication by 1 or -1.
func (f *fwd) mul(x, y core.Atom) core.Atom {
	switch {
	case isConst(x, 1):
		return y
	case isConst(y, 1):
		return x
	case isConst(x, -1):
		return f.un(core.Neg, y)
	case isConst(y, -1):
		return f.un(core.Neg, x)
	}
	return f.bin(core.Mul, x, y)
}

// sel is `if c then a() else b()`, each branch's statements in its body.
func (f *fwd) sel(c core.Atom, a, b func() core.Atom) core.Atom {
	then, els := f.nested(func() []core.Atom { return []core.Atom{a()} }), f.nested(func() []core.Atom { return []core.Atom{b()} })
	return f.let("d", &core.IfExp{Cond: c, Then: then, Else: els, Ret: core.AtomTypes(then.Result)})
}

// indicator is 1 where c equals when and 0 elsewhere, of type t.
func (f *fwd) indicator(t core.PrimType, c core.Atom, when bool) core.Atom {
	if !when {
		c = f.un(core.Not, c)
	}
	return f.let("d", &core.ConvExp{From: core.Bool, To: t, X: c})
}

// nested runs fn with an empty statement list and returns the body it built.
func (f *fwd) nested(fn func() []core.Atom) *core.Body {
	saved := f.stmts
	f.stmts = nil
	res := fn()
	b := &core.Body{Stmts: f.stmts, Result: res}
	f.stmts = saved
	return b
}

// zero is a zero tangent of the type of like (a new, primal atom): a
// constant for a scalar, an array of zeros of like's shape otherwise.
func (f *fwd) zero(like core.Atom) core.Atom {
	t := like.AtomType()
	if t.Rank == 0 {
		if t.Elem == core.Bool {
			return core.BoolConst(false)
		}
		return f.num(t.Elem, 0)
	}
	arr := like.(*core.Var)
	w := f.let("n", &core.SizeExp{Arr: arr, Dim: 0})
	p := f.fresh("z", t.Row())
	body := f.nested(func() []core.Atom { return []core.Atom{f.zero(p)} })
	return f.let("zeros", &core.Screma{W: w, Arrs: []*core.Var{arr},
		Map: &core.Lambda{Params: []*core.Var{p}, Body: body, Ret: []core.Type{t.Row()}}})
}

// orZero is the tangent t, or a materialised zero like primal.
func (f *fwd) orZero(t, primal core.Atom) core.Atom {
	if t != nil {
		return t
	}
	return f.zero(primal)
}

// ---------------------------------------------------------------------------
// Names

// atom is the new atom for an old one.
func (f *fwd) atom(a core.Atom) core.Atom {
	if v, ok := a.(*core.Var); ok {
		if n, ok := f.names[v.Name]; ok {
			return n
		}
	}
	return a
}

func (f *fwd) atoms(as []core.Atom) []core.Atom {
	out := make([]core.Atom, len(as))
	for i, a := range as {
		out[i] = f.atom(a)
	}
	return out
}

func (f *fwd) vr(v *core.Var) *core.Var {
	if v == nil {
		return nil
	}
	return f.atom(v).(*core.Var)
}

func (f *fwd) vars(vs []*core.Var) []*core.Var {
	out := make([]*core.Var, len(vs))
	for i, v := range vs {
		out[i] = f.vr(v)
	}
	return out
}

// tanOf is the tangent of an old atom (nil: zero).
func (f *fwd) tanOf(a core.Atom) core.Atom {
	if v, ok := a.(*core.Var); ok {
		return f.tan[v.Name]
	}
	return nil
}

// rebind gives the old variable v a fresh new name and the tangent t.
func (f *fwd) rebind(v *core.Var) *core.Var {
	n := f.fresh(baseName(v.Name), v.Type)
	f.names[v.Name] = n
	delete(f.tan, v.Name)
	return n
}

func (f *fwd) rebindAll(vs []*core.Var) []*core.Var {
	out := make([]*core.Var, len(vs))
	for i, v := range vs {
		out[i] = f.rebind(v)
	}
	return out
}

func (f *fwd) setTan(v *core.Var, t core.Atom) {
	if t == nil || !differentiable(v.Type.Elem) {
		delete(f.tan, v.Name)
		return
	}
	f.tan[v.Name] = t
}

func (f *fwd) dims(idx []core.DimIndex) []core.DimIndex {
	out := make([]core.DimIndex, len(idx))
	for i, d := range idx {
		n := core.DimIndex{Omit: d.Omit}
		if d.Fix != nil {
			a := f.atom(*d.Fix)
			n.Fix = &a
		} else {
			n.Start, n.End, n.Stride = f.atom(d.Start), f.atom(d.End), f.atom(d.Stride)
		}
		out[i] = n
	}
	return out
}

// ---------------------------------------------------------------------------
// Bodies and lambdas

// body copies the statements of b (with their tangents) into f.stmts and
// returns the new results and their tangents (nil: zero).
func (f *fwd) body(b *core.Body) ([]core.Atom, []core.Atom) {
	for _, s := range b.Stmts {
		f.stmt(s)
	}
	res := f.atoms(b.Result)
	tans := make([]core.Atom, len(b.Result))
	for i, r := range b.Result {
		tans[i] = f.tanOf(r)
	}
	return res, tans
}

// lam is a transformed lambda before its tangent results are chosen:
// params are the new primal parameters, dparams the tangent parameters
// (nil where the caller gives none), body has the primal results, and tans
// the tangents of those results (nil: zero).
type lam struct {
	params, dparams []*core.Var
	body            *core.Body
	tans            []core.Atom
}

// lambda transforms l; hasTan says which parameters have a tangent.
func (f *fwd) lambda(l *core.Lambda, hasTan []bool) *lam {
	out := &lam{params: f.rebindAll(l.Params), dparams: make([]*core.Var, len(l.Params))}
	for i, p := range l.Params {
		if hasTan[i] && differentiable(p.Type.Elem) {
			d := f.fresh("d"+baseName(p.Name), p.Type)
			out.dparams[i] = d
			f.setTan(p, d)
		}
	}
	var tans []core.Atom
	out.body = f.nested(func() []core.Atom {
		res, ts := f.body(l.Body)
		tans = ts
		return res
	})
	out.tans = tans
	return out
}

// results appends to the body's results the tangents of the results that
// want selects, materialising zeros, and returns the new result types.
func (f *fwd) results(b *core.Body, tans []core.Atom, want []bool) []core.Type {
	saved := f.stmts
	f.stmts = b.Stmts
	prim := b.Result
	var extra []core.Atom
	for i, w := range want {
		if w {
			extra = append(extra, f.orZero(tans[i], prim[i]))
		}
	}
	b.Stmts = f.stmts
	f.stmts = saved
	b.Result = append(append([]core.Atom{}, prim...), extra...)
	return core.AtomTypes(b.Result)
}

// allParams is the parameter list primal parameters then the tangent
// parameters that exist.
func (l *lam) allParams() []*core.Var {
	ps := append([]*core.Var{}, l.params...)
	for _, d := range l.dparams {
		if d != nil {
			ps = append(ps, d)
		}
	}
	return ps
}

// whereNonZero is the tangents that are not zero, of differentiable values.
func whereNonZero(tans []core.Atom, ts []core.Type) []bool {
	w := make([]bool, len(tans))
	for i, t := range tans {
		w[i] = t != nil && differentiable(ts[i].Elem)
	}
	return w
}

// wantAll is true for every differentiable type.
func wantAll(ts []core.Type) []bool {
	w := make([]bool, len(ts))
	for i, t := range ts {
		w[i] = differentiable(t.Elem)
	}
	return w
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// bindResults binds the old pattern pat to the new variables out, whose
// first len(pat) are the primal values and the rest the tangents of the
// values want selects, in order.
func (f *fwd) bindResults(pat []*core.Var, out []*core.Var, want []bool) {
	k := len(pat)
	for i, p := range pat {
		f.names[p.Name] = out[i]
		delete(f.tan, p.Name)
		if want[i] {
			f.setTan(p, out[k])
			k++
		}
	}
}

// tangentTypes is ts filtered by want.
func tangentTypes(ts []core.Type, want []bool) []core.Type {
	var out []core.Type
	for i, t := range ts {
		if want[i] {
			out = append(out, t)
		}
	}
	return out
}
