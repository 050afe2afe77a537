package types

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// Type abbreviations, type parameters and polymorphic top-level functions.
//
// A type abbreviation `type t 'a [n] = ...` is kept as written and expanded
// where it is used, its parameters replaced by the arguments.
//
// A top-level function is polymorphic when it declares type parameters
// (`def f 't (x: t)`) or when inference leaves type variables that nothing
// constrains in its type (`def id x = x`); those become type parameters
// (tyParam), rigid while its body is checked. Lowering inlines functions
// (or specialises recursive ones), so it needs monomorphic bodies: every
// use of a polymorphic function is instantiated with fresh variables, and
// when the using declaration is finished and the use's type is known, the
// function's declaration is checked again at that type (an instance, with
// an Info of its own) and the use refers to the instance's Object. Uses
// inside a polymorphic function are instantiated when that function's own
// instances are checked.

// polyUse is a use of a polymorphic global, instantiated when the using
// declaration is finished.
type polyUse struct {
	v   *syntax.Var
	obj *Object
}

// maxInstanceDepth bounds instances created while checking instances,
// which only polymorphic recursion through ever-larger types could exceed.
const maxInstanceDepth = 50

// typeDecl checks a type abbreviation by expanding it with its parameters
// left abstract, and records it for later declarations.
func (c *checker) typeDecl(d *syntax.TypeDecl) {
	seen := map[string]source.Pos{}
	for _, p := range d.Params {
		if prev, dup := seen[p.Name]; dup {
			c.errorf(p.Pos(), "type %s has two parameters named %s (previously defined at %d:%d)", d.Name, p.Name, prev.Line, prev.Col)
			continue
		}
		seen[p.Name] = p.Pos()
	}
	args := make([]syntax.TypeArg, len(d.Params))
	saved := c.typeNames
	c.typeNames = map[string]Type{}
	for k, v := range saved {
		c.typeNames[k] = v
	}
	for i := range d.Params {
		p := &d.Params[i]
		if p.Type {
			c.info.Binds[p] = &Object{Kind: Local, Name: p.Name, Type: &tyParam{name: p.Name}, Pos: p.Pos()}
		} else {
			c.info.Binds[p] = &Object{Kind: SizeVar, Name: p.Name, Type: Prim{T: core.I64}, Pos: p.Pos()}
		}
		if p.Type {
			c.typeNames[p.Name] = &tyParam{name: p.Name}
			args[i] = syntax.TypeArg{Type: &syntax.NamedTypeExpr{At: p.At, Name: p.Name}}
		} else {
			args[i] = syntax.TypeArg{Dim: &syntax.DimExpr{At: p.At, Const: -1}}
		}
	}
	c.expandAbbrev(&tyCtx{}, d, args, d.Pos())
	c.typeNames = saved
	c.finish(nil)
	if c.typeDecls == nil {
		c.typeDecls = map[string]*syntax.TypeDecl{}
	}
	c.typeDecls[d.Name] = d
}

func (c *checker) lookupTypeDecl(name string) *syntax.TypeDecl {
	if d, ok := c.typeDecls[name]; ok {
		return d
	}
	return c.env.typeDecls[name]
}

// namedType resolves a type written as a name: a type parameter in scope
// or a type abbreviation applied to its arguments.
func (c *checker) namedType(ctx *tyCtx, te *syntax.NamedTypeExpr) Type {
	if t, ok := c.typeNames[te.Name]; ok {
		if len(te.Args) > 0 {
			c.errorf(te.Pos(), "type parameter %s takes no arguments", te.Name)
			return errT
		}
		return t
	}
	d := c.lookupTypeDecl(te.Name)
	if d == nil {
		c.errorf(te.Pos(), "unknown type %q", te.Name)
		return errT
	}
	if len(te.Args) != len(d.Params) {
		c.errorf(te.Pos(), "type %s takes %s, got %d", d.Name, plural(len(d.Params), "argument"), len(te.Args))
		return errT
	}
	return c.expandAbbrev(ctx, d, te.Args, te.Pos())
}

// expandAbbrev is the type d stands for with its parameters replaced by
// args (types for 'a, sizes for [n]).
func (c *checker) expandAbbrev(ctx *tyCtx, d *syntax.TypeDecl, args []syntax.TypeArg, at source.Pos) Type {
	if c.expanding[d] {
		c.errorf(at, "type %s refers to itself", d.Name)
		return errT
	}
	names := map[string]Type{}
	dims := map[string]Dim{}
	for i, p := range d.Params {
		a := args[i]
		switch {
		case p.Type && a.Type != nil:
			names[p.Name] = c.typeExpr(ctx, a.Type)
		case !p.Type && a.Dim != nil:
			dims[p.Name] = AnyDim
			if a.Dim.Expr == nil && a.Dim.Const >= 0 || a.Dim.Name != "" {
				dims[p.Name] = c.dimExpr(ctx, a.Dim)
			}
		default:
			what := "a size [n]"
			if p.Type {
				what = "a type"
			}
			c.errorf(at, "argument %d of type %s must be %s", i+1, d.Name, what)
			return errT
		}
	}
	// The arguments are resolved first: `either bool (either i32 i32)`
	// uses either in an argument, which is not a cycle.
	if c.expanding == nil {
		c.expanding = map[*syntax.TypeDecl]bool{}
	}
	c.expanding[d] = true
	defer delete(c.expanding, d)
	saved, savedDims := c.typeNames, c.abbrevDims
	c.typeNames, c.abbrevDims = names, dims
	t := c.typeExpr(&tyCtx{sc: nil}, d.Type)
	c.typeNames, c.abbrevDims = saved, savedDims
	return t
}

// containsParam reports whether a resolved type mentions a type parameter.
func containsParam(t Type) bool {
	switch t := t.(type) {
	case *tyParam:
		return true
	case *Array:
		return containsParam(t.Elem)
	case *Tuple:
		for _, e := range t.Elems {
			if containsParam(e) {
				return true
			}
		}
	case *Arrow:
		return containsParam(t.Param) || containsParam(t.Ret)
	}
	return false
}

// instantiatePolyUses checks, for every use of a polymorphic global in the
// declaration just finished, the instance at the use's type.
func (c *checker) instantiatePolyUses(uses []polyUse) {
	for _, u := range uses {
		t := c.info.Types[u.v]
		if t == nil || containsParam(t) || c.s.unsolved(t) != nil {
			continue
		}
		if _, bad := t.(errType); bad {
			continue
		}
		key := u.obj.Decl.Name + " : " + t.String()
		inst, ok := c.instances[key]
		if !ok {
			inst = c.instance(u.obj, t, u.v.Pos())
			c.instances[key] = inst
		}
		if inst != nil {
			c.info.Uses[u.v] = inst
		}
	}
}

// instance checks the declaration of the polymorphic global g again at the
// monomorphic type t, in a checker of its own.
func (c *checker) instance(g *Object, t Type, at source.Pos) *Object {
	if c.depth >= maxInstanceDepth {
		c.errorf(at, "%s: polymorphic instances nested too deeply", g.Name)
		return nil
	}
	sub := newChecker(c.src, c.env)
	// The use's type carries the caller's sizes, which the instance's own
	// size names cannot be compared with: sizes were checked where the
	// function was declared and where it is used.
	sub.s.lax = true
	sub.globals = c.globals
	sub.typeDecls = c.typeDecls
	sub.instances = c.instances
	sub.depth = c.depth + 1
	d := *g.Decl // a Decl of its own, so lowering specialises instances apart
	obj := &Object{Kind: Global, Name: d.Name, Pos: d.NamePos, Doc: d.Doc, Decl: &d, Info: sub.info}
	sub.info.Binds[g.Decl] = obj
	sub.objs = append(sub.objs, obj)
	var self *Object
	if len(d.Params) > 0 {
		self = obj
	}
	tparams := map[string]Type{}
	for _, p := range d.TypeParams {
		tparams[p.Name] = sub.s.fresh()
	}
	sub.typeNames = tparams
	ft := sub.funDef(nil, d.SizeParams, d.Params, d.Ret, d.Body, self, map[string]bool{}, d.Name, t)
	obj.Type = ft
	sub.finish(nil)
	for _, e := range sub.errs {
		c.errs = append(c.errs, &source.Error{Pos: e.Pos, Line: e.Line, Msg: fmt.Sprintf("%s (in %s at type %s)", e.Msg, g.Name, t)})
	}
	if len(sub.errs) > 0 {
		return nil
	}
	return obj
}

// IsTypeParam reports whether t is a type parameter: the types recorded
// for a polymorphic declaration contain them (its instances do not).
func IsTypeParam(t Type) bool {
	_, ok := t.(*tyParam)
	return ok
}
