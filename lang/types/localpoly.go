package types

import (
	"fmt"
	"maps"

	"github.com/arepl/arepl/lang/source"
)

// Polymorphic local functions.
//
// A local function with type parameters (`let id 'a (x: a) = x in
// (id 1, id true)`) is polymorphic, as in Futhark: its body is checked
// once with the parameters rigid, and each use instantiates them afresh.
// Lowering needs monomorphic bodies, so when the enclosing declaration is
// finished, the function is checked again at the type of each use, as an
// instance with an Info of its own, in the scope it was defined in; the
// use then refers to the instance (Info.LocalInstances lists them for
// lowering to bind beside the function). This is what poly.go does for
// top-level functions.

// localPoly is what a polymorphic local function's instances need: the
// scope and type names of its definition, and its own type parameters.
type localPoly struct {
	sc        *scope
	typeNames map[string]Type
	params    []*tyParam
}

// instantiateLocal gives the function's own type parameters in t fresh
// variables (not those of an enclosing polymorphic function).
func (c *checker) instantiateLocal(lp *localPoly, t Type) Type {
	m := make(map[*tyParam]Type, len(lp.params))
	for _, p := range lp.params {
		if p.lifted {
			m[p] = c.s.fresh()
		} else {
			m[p] = c.s.freshElem()
		}
	}
	return substParams(t, m)
}

func substParams(t Type, m map[*tyParam]Type) Type {
	switch t := t.(type) {
	case *tyParam:
		if r, ok := m[t]; ok {
			return r
		}
		return t
	case *Array:
		return arrayOf(substParams(t.Elem, m), t.Dims)
	case *Tuple:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = substParams(e, m)
		}
		return &Tuple{Elems: elems, Names: t.Names}
	case *Arrow:
		return &Arrow{Param: substParams(t.Param, m), Ret: substParams(t.Ret, m)}
	}
	return t
}

// localKey identifies an instance: the function and the type it is used at.
type localKey struct {
	fun *Object
	t   string
}

// instantiateLocalUses points every use of a polymorphic local function
// in the declaration just finished at its instance for the use's type.
func (c *checker) instantiateLocalUses() {
	uses, polys, insts := c.localUses, c.localPolys, c.localInsts
	for _, u := range uses {
		t := c.info.Types[u.v]
		if t == nil || containsParam(t) || c.s.unsolved(t) != nil {
			continue // a use inside a polymorphic global: its instances decide
		}
		if _, bad := t.(errType); bad {
			continue
		}
		key := localKey{u.obj, t.String()}
		inst, ok := insts[key]
		if !ok {
			inst = c.localInstance(u.obj, polys[u.obj], t, u.v.Pos())
			insts[key] = inst
			if inst != nil {
				c.info.LocalInstances[u.obj.Fun] = append(c.info.LocalInstances[u.obj.Fun], inst)
			}
		}
		if inst != nil {
			c.info.Uses[u.v] = inst
		}
	}
}

// localInstance checks the local function f again at the monomorphic type
// t, in a checker of its own, in the scope f was defined in.
func (c *checker) localInstance(f *Object, lp *localPoly, t Type, at source.Pos) *Object {
	if c.depth >= maxInstanceDepth {
		c.errorf(at, "%s: polymorphic instances nested too deeply", f.Name)
		return nil
	}
	fun := f.Fun
	sub := newChecker(c.src, c.env)
	// The use's type carries the caller's sizes, which the instance's own
	// size names cannot be compared with: sizes were checked where the
	// function was declared and where it is used.
	sub.s.lax = true
	sub.globals = c.globals
	sub.typeDecls = c.typeDecls
	sub.instances = c.instances
	sub.depth = c.depth + 1
	// The body may use the polymorphic local functions defined before f
	// (`let g 'a (x: a) = f x`): the instance checks them as this checker
	// does, and shares its instances, so each function is checked once at
	// each type however deep the uses nest.
	sub.localPolys, sub.localSizes, sub.localInsts = c.localPolys, c.localSizes, c.localInsts
	sub.typeNames = maps.Clone(lp.typeNames)
	if sub.typeNames == nil {
		sub.typeNames = map[string]Type{}
	}
	for _, p := range fun.TypeParams {
		if p.Lifted {
			sub.typeNames[p.Name] = sub.s.fresh()
		} else {
			sub.typeNames[p.Name] = sub.s.freshElem()
		}
	}
	inst := &Object{Kind: LocalFun, Name: f.Name, Pos: f.Pos, Fun: fun, Info: sub.info}
	sub.objs = append(sub.objs, inst)
	inst.Type = sub.funDef(lp.sc, fun.SizeParams, fun.Params, fun.Ret, fun.FnBody, nil, map[string]bool{}, fun.Name, t)
	sub.finish(nil)
	// Instances the body needed go where f's scope lowers them: beside
	// their functions, in this checker's Info (and from there up, as this
	// checker's own instances are in turn merged into its parent's).
	for fn, is := range sub.info.LocalInstances {
		c.info.LocalInstances[fn] = append(c.info.LocalInstances[fn], is...)
	}
	for _, e := range sub.errs {
		c.errs = append(c.errs, &source.Error{Pos: e.Pos, Line: e.Line, Msg: fmt.Sprintf("%s (in %s at type %s)", e.Msg, f.Name, t)})
	}
	if len(sub.errs) > 0 {
		return nil
	}
	return inst
}
