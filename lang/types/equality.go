package types

import "github.com/arepl/arepl/lang/source"

// eqUse is an application of == or != whose operands have type t.
type eqUse struct {
	at source.Pos
	op string
	t  Type
}

// equalityTypes reports, once a declaration is resolved, an equality
// whose operands have a type parameter's type: a declared one ('t), or one
// that inference left open and generalised (`def same x y = x == y`). In
// Futhark type parameters do not support equality, since a type parameter
// may stand for a function, and only a type that is known supports it.
func (c *checker) equalityTypes() {
	for _, u := range c.eqUses {
		if len(c.errs) != c.errsAtStart {
			return
		}
		if c.hasTypeParam(u.t, map[Type]bool{}) {
			c.errorf(u.at, "Comparing equality of values of type %s, which does not support equality: a type parameter may stand for any type (operator %s).", c.s.zonk(u.t), u.op)
		}
	}
}

// hasTypeParam reports whether t holds a type parameter, visiting each
// shared part of t once (types may be DAGs that zonk would unfold).
func (c *checker) hasTypeParam(t Type, seen map[Type]bool) bool {
	t = c.s.shallow(t)
	if visited(seen, t) {
		return false
	}
	switch t := t.(type) {
	case *tyParam:
		return true
	case *Array:
		return c.hasTypeParam(t.Elem, seen)
	case *Tuple:
		for _, e := range t.Elems {
			if c.hasTypeParam(e, seen) {
				return true
			}
		}
	case *Arrow:
		return c.hasTypeParam(t.Param, seen) || c.hasTypeParam(t.Ret, seen)
	}
	return false
}
