package types

import (
	"github.com/arepl/arepl/lang/syntax"
)

// recursionCheck applies Futhark's restrictions on a recursive function,
// syntactic checks made once its type is known: its result must be
// first-order, and where it has a higher-order parameter (of function
// type, or of a lifted type parameter '^a, which may stand for one), every
// reference to it must be an application to all its parameters that passes
// each higher-order argument unchanged, as the parameter itself. Lowering
// inlines function values, which these rules make possible for recursion:
// the function arguments of every recursive call are the ones of the
// first.
func (c *checker) recursionCheck(d *syntax.ValDecl, self *Object) {
	if !c.refersTo(d.Body, self) {
		return
	}
	t := c.s.zonk(self.Type)
	higher := make([]bool, len(d.Params))
	anyHigher := false
	for i := range d.Params {
		a, ok := t.(*Arrow)
		if !ok {
			return
		}
		higher[i] = !orderZero(a.Param)
		anyHigher = anyHigher || higher[i]
		t = a.Ret
	}
	if !orderZero(t) {
		c.errorf(d.NamePos, "Recursive function %q returns type %s, which is not first-order. Write the function type as further parameters instead.", d.Name, t)
		return
	}
	if !anyHigher {
		return
	}
	done := false // Futhark reports the first violation
	var check func(e syntax.Expr) bool
	check = func(e syntax.Expr) bool {
		if done {
			return false
		}
		switch e := e.(type) {
		case *syntax.Apply:
			v, ok := e.Fn.(*syntax.Var)
			if !ok || c.info.Uses[v] != self {
				return true
			}
			if len(e.Args) != len(d.Params) {
				c.errorf(e.Pos(), "Recursive application of %q is not fully saturated: expected %d arguments but got %d.", d.Name, len(d.Params), len(e.Args))
				done = true
				return false
			}
			for i, arg := range e.Args {
				if higher[i] && !isParamOf(arg, d.Params[i]) {
					c.errorf(pos(arg), "Higher-order argument in recursive application of %q must be passed unchanged, i.e. be the corresponding parameter.", d.Name)
					done = true
					return false
				}
			}
			for _, arg := range e.Args {
				syntax.Inspect(arg, check)
			}
			return false // the function is not a bare reference
		case *syntax.Var:
			if c.info.Uses[e] == self {
				c.errorf(e.Pos(), "Recursive reference to %q must be a fully saturated application, as it has a higher-order parameter.", d.Name)
				done = true
			}
		}
		return true
	}
	syntax.Inspect(d.Body, check)
}

// refersTo reports whether e mentions the object o.
func (c *checker) refersTo(e syntax.Expr, o *Object) bool {
	found := false
	syntax.Inspect(e, func(x syntax.Expr) bool {
		if v, ok := x.(*syntax.Var); ok && c.info.Uses[v] == o {
			found = true
		}
		return !found
	})
	return found
}

// isParamOf reports whether arg is a variable that the parameter pattern p
// binds (Futhark's test: by name).
func isParamOf(arg syntax.Expr, p syntax.Pat) bool {
	v, ok := unparen(arg).(*syntax.Var)
	if !ok || v.Qual != "" {
		return false
	}
	found := false
	walkIdPats(p, func(id *syntax.IdPat) {
		if id.Name == v.Name {
			found = true
		}
	})
	return found
}

// orderZero reports whether a resolved type is first-order: it holds no
// function and no lifted type parameter, which may stand for one.
func orderZero(t Type) bool {
	if containsArrow(t) {
		return false
	}
	lifted := false
	var walk func(t Type)
	walk = func(t Type) {
		switch t := t.(type) {
		case *tyParam:
			lifted = lifted || t.lifted
		case *Array:
			walk(t.Elem)
		case *Tuple:
			for _, e := range t.Elems {
				walk(e)
			}
		}
	}
	walk(t)
	return !lifted
}
