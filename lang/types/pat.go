package types

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// tyCtx is where a written type is resolved. In parameter types
// (implicit) a size name that is not in scope binds a new size variable,
// as `(xs: [n]i32)` does in Futhark; elsewhere it must be in scope.
type tyCtx struct {
	sc       *scope
	implicit bool
	sizes    map[string]bool // names of size variables bound here
}

// typeExpr resolves a type as written.
func (c *checker) typeExpr(ctx *tyCtx, te syntax.TypeExpr) Type {
	switch te := te.(type) {
	case *syntax.PrimTypeExpr:
		if pt, ok := core.PrimByName(te.Name); ok {
			return Prim{T: pt}
		}
		c.errorf(te.Pos(), "unknown type %q", te.Name)
		return errT
	case *syntax.ArrayTypeExpr:
		d := AnyDim
		if te.Dim != nil {
			d = c.dimExpr(ctx, te.Dim)
		}
		elem := c.typeExpr(ctx, te.Elem)
		if containsArrow(elem) {
			c.errorf(te.Pos(), "Cannot create array with elements of lifted type %q (might contain function).", elem.String())
			return errT
		}
		return arrayOf(elem, []Dim{d})
	case *syntax.TupleTypeExpr:
		elems := make([]Type, len(te.Elems))
		for i, e := range te.Elems {
			elems[i] = c.typeExpr(ctx, e)
		}
		if len(elems) == 1 {
			return elems[0]
		}
		return &Tuple{Elems: elems}
	case *syntax.UniqueTypeExpr:
		return c.typeExpr(ctx, te.Elem)
	case *syntax.FuncTypeExpr:
		return &Arrow{Param: c.typeExpr(ctx, te.Param), Ret: c.typeExpr(ctx, te.Ret)}
	case *syntax.NamedTypeExpr:
		return c.namedType(ctx, te)
	case *syntax.RecordTypeExpr:
		return c.recordType(ctx, te)
	case *syntax.SumTypeExpr:
		return c.sumTypeExpr(ctx, te)
	case nil:
		c.errorf(source.Pos{}, "internal error: missing type")
		return errT
	default:
		c.errorf(pos(te), "internal error: unknown type expression %T", te)
		return errT
	}
}

func (c *checker) dimExpr(ctx *tyCtx, d *syntax.DimExpr) Dim {
	if d.Expr != nil {
		// A size expression ([n*m]) is an i64 expression over sizes in
		// scope; the size it gives is checked at run time only.
		c.mustUnify(pos(d.Expr), Prim{T: core.I64}, c.expr(ctx.sc, d.Expr, nil), "size expression")
		if p, ok := c.productDim(ctx, d.Expr); ok {
			return p
		}
		return AnyDim
	}
	if dd, ok := c.abbrevDims[d.Name]; ok && d.Name != "" {
		return dd
	}
	if d.Name == "" {
		if d.Const < 0 {
			c.errorf(d.Pos(), "negative size %d", d.Const)
			return AnyDim
		}
		return Dim{Const: d.Const}
	}
	if o := c.lookup(ctx.sc, d.Name); o != nil {
		if o.Kind == Builtin || o.Kind == ModuleFun || c.s.unify(Prim{T: core.I64}, c.declaredType(o), false) != nil {
			c.errorf(d.Pos(), "size %s must be an i64, not %s", d.Name, showType(c.s.zonk(o.Type)))
		}
		return Dim{Name: d.Name}
	}
	if !ctx.implicit {
		c.errorf(d.Pos(), "unknown size %q", d.Name)
		return AnyDim
	}
	o := c.newObj(SizeVar, d.Name, Prim{T: core.I64}, d.Pos())
	c.info.Binds[d] = o
	ctx.sc = ctx.sc.add(o)
	ctx.sizes[d.Name] = true
	return Dim{Name: d.Name}
}

// productDim is the size expression e when it is a product of sizes in
// scope and constants ([n*m], [n*m*l]): a product variable, which tells
// unflatten its result sizes.
func (c *checker) productDim(ctx *tyCtx, e syntax.Expr) (Dim, bool) {
	switch e := unparen(e).(type) {
	case *syntax.BinOp:
		if e.Op != "*" || e.Qual != "" {
			return Dim{}, false
		}
		a, ok := c.productDim(ctx, e.Lhs)
		if !ok {
			return Dim{}, false
		}
		b, ok := c.productDim(ctx, e.Rhs)
		if !ok {
			return Dim{}, false
		}
		return c.s.freshProduct(a, b), true
	case *syntax.IntLit:
		if e.Value >= 1<<62 {
			return Dim{}, false
		}
		return Dim{Const: int64(e.Value)}, true
	case *syntax.Var:
		if e.Qual != "" {
			return Dim{}, false
		}
		o := c.lookup(ctx.sc, e.Name)
		if o == nil || o.Kind == Builtin || o.Kind == ModuleFun || !isI64(c.s.shallow(c.declaredType(o))) {
			return Dim{}, false
		}
		return Dim{Name: e.Name}, true
	}
	return Dim{}, false
}

// patType is the type a pattern declares: its ascriptions, with fresh
// variables where nothing is written.
func (c *checker) patType(ctx *tyCtx, p syntax.Pat) Type {
	var t Type
	switch p := p.(type) {
	case *syntax.IdPat, *syntax.WildPat:
		t = c.s.fresh()
	case *syntax.TuplePat:
		elems := make([]Type, len(p.Elems))
		for i, q := range p.Elems {
			elems[i] = c.patType(ctx, q)
		}
		if len(elems) == 1 {
			t = elems[0]
		} else {
			t = &Tuple{Elems: elems}
		}
	case *syntax.AscribedPat:
		t = c.typeExpr(ctx, p.Type)
		c.mustUnify(pos(p), t, c.patType(ctx, p.Pat), "pattern")
	case *syntax.RecordPat:
		t = c.recordPatType(ctx, p)
	case nil:
		c.errorf(source.Pos{}, "internal error: missing pattern")
		return errT
	default:
		c.errorf(pos(p), "internal error: unknown pattern %T", p)
		return errT
	}
	c.recordPat(p, t)
	return t
}

// declarePat binds the names of p, whose type is t, in a new scope.
func (c *checker) declarePat(sc *scope, p syntax.Pat, t Type) *scope {
	c.recordPat(p, t)
	switch p := p.(type) {
	case *syntax.IdPat:
		o := c.newObj(Local, p.Name, t, p.Pos())
		c.info.Binds[p] = o
		return sc.add(o)
	case *syntax.WildPat:
		return sc
	case *syntax.TuplePat:
		if len(p.Elems) == 1 {
			return c.declarePat(sc, p.Elems[0], t)
		}
		var elems []Type
		switch u := c.s.shallow(t).(type) {
		case *Tuple:
			if len(u.Elems) == len(p.Elems) {
				elems = u.Elems
			}
		case *tyVar:
			tup := &Tuple{Elems: make([]Type, len(p.Elems))}
			for i := range tup.Elems {
				tup.Elems[i] = c.s.fresh()
			}
			if c.s.bind(u, tup) == nil {
				elems = tup.Elems
			}
		case errType:
			elems = make([]Type, len(p.Elems))
			for i := range elems {
				elems[i] = errT
			}
		}
		if elems == nil {
			c.errorf(p.Pos(), "cannot match a pattern of %s against a value of type %s",
				plural(len(p.Elems), "component"), c.s.zonk(t))
			elems = make([]Type, len(p.Elems))
			for i := range elems {
				elems[i] = errT
			}
		}
		for i, q := range p.Elems {
			sc = c.declarePat(sc, q, elems[i])
		}
		return sc
	case *syntax.AscribedPat:
		return c.declarePat(sc, p.Pat, t)
	case *syntax.RecordPat:
		return c.declareRecordPat(sc, p, t)
	default:
		c.errorf(pos(p), "internal error: unknown pattern %T", p)
		return sc
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
