package core

import (
	"fmt"

	"github.com/arepl/arepl/lang/source"
)

// Builder constructs core code: it makes fresh, uniquely tagged variables
// and collects statements into bodies. Lowering, fusion and tests use it so
// that every producer of core IR names variables the same way ("x_12").
//
// Builders made by Nested share the counter of their parent, so names stay
// unique across all the bodies of a function.
type Builder struct {
	counter *int
	stmts   []*Stmt
	// Pos is given to every statement the builder adds.
	Pos source.Pos
}

// NewBuilder returns a builder whose fresh names start after tag 0.
func NewBuilder() *Builder { return &Builder{counter: new(int)} }

// Nested returns a builder for a nested body (a lambda, a branch, a loop
// body) that shares b's name counter and position.
func (b *Builder) Nested() *Builder { return &Builder{counter: b.counter, Pos: b.Pos} }

// Fresh returns a new variable named base_N.
func (b *Builder) Fresh(base string, t Type) *Var {
	*b.counter++
	return &Var{Name: fmt.Sprintf("%s_%d", base, *b.counter), Type: t}
}

// Add appends a statement binding pat to e.
func (b *Builder) Add(pat []*Var, e Exp) {
	b.stmts = append(b.stmts, &Stmt{Pat: pat, Exp: e, Pos: b.Pos})
}

// Bind appends a statement binding fresh variables (named base) to the
// values of e and returns them. It panics on an expression whose types
// cannot be derived, which is a bug in the caller.
func (b *Builder) Bind(base string, e Exp) []*Var {
	ts, err := ExpTypes(e)
	if err != nil {
		panic("core.Builder: " + err.Error())
	}
	pat := make([]*Var, len(ts))
	for i, t := range ts {
		pat[i] = b.Fresh(base, t)
	}
	b.Add(pat, e)
	return pat
}

// Let appends a statement binding one fresh variable to e and returns it.
func (b *Builder) Let(base string, e Exp) *Var {
	vs := b.Bind(base, e)
	if len(vs) != 1 {
		panic(fmt.Sprintf("core.Builder.Let: expression has %d results", len(vs)))
	}
	return vs[0]
}

// BinOp binds op applied to x and y (of x's type).
func (b *Builder) BinOp(op BinOp, x, y Atom) *Var {
	return b.Let("t", &BinOpExp{Op: op, T: x.AtomType().Elem, X: x, Y: y})
}

// UnOp binds op applied to x.
func (b *Builder) UnOp(op UnOp, x Atom) *Var {
	return b.Let("t", &UnOpExp{Op: op, T: x.AtomType().Elem, X: x})
}

// Conv binds x converted to type to.
func (b *Builder) Conv(to PrimType, x Atom) *Var {
	return b.Let("t", &ConvExp{From: x.AtomType().Elem, To: to, X: x})
}

// Size binds the size of dimension dim of arr.
func (b *Builder) Size(arr *Var, dim int) *Var {
	return b.Let("n", &SizeExp{Arr: arr, Dim: dim})
}

// Body returns the statements added so far with the given results, and
// empties the builder.
func (b *Builder) Body(result ...Atom) *Body {
	body := &Body{Stmts: b.stmts, Result: result}
	b.stmts = nil
	return body
}

// Lambda builds a lambda with fresh parameters of the given types; fn adds
// the statements of its body to a nested builder and returns the results,
// whose types become the lambda's Ret.
func (b *Builder) Lambda(params []Type, fn func(lb *Builder, ps []*Var) []Atom) *Lambda {
	lb := b.Nested()
	ps := make([]*Var, len(params))
	for i, t := range params {
		ps[i] = lb.Fresh("p", t)
	}
	res := fn(lb, ps)
	return &Lambda{Params: ps, Body: lb.Body(res...), Ret: AtomTypes(res)}
}

// BinOpLambda is the lambda \x y -> x op y on type t (the operator of a
// reduce or scan written as `(+)`).
func (b *Builder) BinOpLambda(op BinOp, t PrimType) *Lambda {
	return b.Lambda([]Type{Scalar(t), Scalar(t)}, func(lb *Builder, ps []*Var) []Atom {
		return []Atom{lb.BinOp(op, ps[0], ps[1])}
	})
}

// IdentityLambda is the lambda returning its parameters unchanged.
func (b *Builder) IdentityLambda(params []Type) *Lambda {
	return b.Lambda(params, func(_ *Builder, ps []*Var) []Atom {
		out := make([]Atom, len(ps))
		for i, p := range ps {
			out[i] = p
		}
		return out
	})
}

// rowTypes are the types of one element of each array.
func rowTypes(arrs []*Var) []Type {
	ts := make([]Type, len(arrs))
	for i, a := range arrs {
		ts[i] = a.Type.Row()
	}
	return ts
}

// Map binds `map f arrs` over w elements.
func (b *Builder) Map(w Atom, arrs []*Var, f *Lambda) []*Var {
	return b.Bind("m", &Screma{W: w, Arrs: arrs, Map: f})
}

// Reduce binds `reduce op ne arr` over w elements.
func (b *Builder) Reduce(w Atom, arrs []*Var, op *Lambda, ne []Atom, comm bool) []*Var {
	return b.Bind("r", &Screma{W: w, Arrs: arrs, Map: b.IdentityLambda(rowTypes(arrs)),
		Reds: []*RedOp{{Lambda: op, Neutral: ne, Comm: comm}}})
}

// Scan binds `scan op ne arr` over w elements.
func (b *Builder) Scan(w Atom, arrs []*Var, op *Lambda, ne []Atom) []*Var {
	return b.Bind("s", &Screma{W: w, Arrs: arrs, Map: b.IdentityLambda(rowTypes(arrs)),
		Scans: []*ScanOp{{Lambda: op, Neutral: ne}}})
}

// Iota binds `iota n` of element type t (start 0, step 1).
func (b *Builder) Iota(n Atom, t PrimType) *Var {
	return b.Let("iota", &IotaExp{N: n, Start: IntConst(t, 0), Step: IntConst(t, 1), T: t})
}

// Fun returns a function with the given parameters whose body fn builds.
func (b *Builder) Fun(name string, entry bool, params []*Var, fn func(fb *Builder) []Atom) *Fun {
	fb := b.Nested()
	res := fn(fb)
	return &Fun{Name: name, Params: params, Ret: AtomTypes(res), Body: fb.Body(res...), Entry: entry, Pos: b.Pos}
}

// Fix makes a fixed DimIndex at a.
func Fix(a Atom) DimIndex { return DimIndex{Fix: &a} }
