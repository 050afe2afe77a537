package types

import (
	"sort"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/syntax"
)

// Sum types are structural, as in Futhark: `#some i32 | #none` is the same
// type wherever it is written, and a constructor alone (`#some 3`) has a
// type that is only known to be "a sum type with constructor some of
// payload i32" until unification or an ascription says which.
//
// A sum type is represented as a record (a Tuple with Names) whose first
// field, named "#", is the tag (u8) and whose other fields, named "#c"
// for each constructor c in Futhark's order (sorted by name), are tuples
// of the constructors' payloads. Every stage after the checker then sees
// a tuple: lowering writes a sum value as the tag and every constructor's
// payload, the inactive ones zero, which is Futhark's representation, so
// the core IR, fusion and both backends need nothing new. Unification,
// zonking and the rest of the solver's walks treat it as the record it
// is; equal sum types are equal records. Field names starting with "#"
// cannot be written, so no record is ever mistaken for a sum.
//
// The open type of a lone constructor is a constraint on a type variable
// (tyVar.cons): the constructors known so far and their payloads. Binding
// such a variable to a sum type checks that each known constructor is in
// it with as many payload components and unifies the payloads; binding
// two such variables merges their constructors. A variable that is still
// open when its declaration ends becomes the sum of exactly its known
// constructors (closeSums).

// sumTag is the name of a sum type's tag field.
const sumTag = "#"

// IsSum reports whether t is a sum type (a Tuple whose first field is the
// tag).
func IsSum(t *Tuple) bool { return len(t.Names) > 0 && t.Names[0] == sumTag }

// SumConstructor returns the position of constructor name in the sum type
// t (the tag it gets is that position minus one) and its payload; -1 when
// t has no such constructor.
func SumConstructor(t *Tuple, name string) (int, *Tuple) {
	i := t.FieldIndex(sumTag + name)
	if i <= 0 {
		return -1, nil
	}
	p, _ := t.Elems[i].(*Tuple)
	return i, p
}

// SumConstructors lists the constructor names of the sum type t in tag
// order, without the "#".
func SumConstructors(t *Tuple) []string {
	out := make([]string, 0, len(t.Names)-1)
	for _, n := range t.Names[1:] {
		out = append(out, strings.TrimPrefix(n, sumTag))
	}
	return out
}

// sumOf is the sum type with exactly the constructors cons.
func sumOf(cons map[string][]Type) *Tuple {
	names := make([]string, 0, len(cons))
	for n := range cons {
		names = append(names, n)
	}
	sort.Strings(names)
	t := &Tuple{Elems: []Type{Prim{T: core.U8}}, Names: []string{sumTag}}
	for _, n := range names {
		t.Names = append(t.Names, sumTag+n)
		t.Elems = append(t.Elems, &Tuple{Elems: append([]Type{}, cons[n]...)})
	}
	return t
}

// sumString writes a sum type as Futhark does: `#none | #some i32`.
func sumString(t *Tuple) string {
	parts := make([]string, 0, len(t.Elems)-1)
	for i := 1; i < len(t.Elems); i++ {
		con := []string{t.Names[i]}
		if p, ok := t.Elems[i].(*Tuple); ok {
			for _, e := range p.Elems {
				s := e.String()
				if strings.ContainsAny(s, " ") && !strings.HasPrefix(s, "(") && !strings.HasPrefix(s, "{") {
					s = "(" + s + ")"
				}
				con = append(con, s)
			}
		}
		parts = append(parts, strings.Join(con, " "))
	}
	return strings.Join(parts, " | ")
}

// sumTypeExpr resolves a written sum type.
func (c *checker) sumTypeExpr(ctx *tyCtx, te *syntax.SumTypeExpr) Type {
	cons := map[string][]Type{}
	for _, con := range te.Cons {
		if _, dup := cons[con.Name]; dup {
			c.errorf(con.Pos(), "Duplicate constructor #%s in sum type", con.Name)
			continue
		}
		ps := make([]Type, len(con.Payload))
		for i, pt := range con.Payload {
			ps[i] = c.typeExpr(ctx, pt)
		}
		cons[con.Name] = ps
	}
	if len(cons) > 255 {
		c.errorf(te.Pos(), "a sum type has at most 255 constructors, not %d", len(cons))
	}
	return sumOf(cons)
}

// openSum is a fresh variable for "a sum type with constructor name and
// these payload types".
func (s *solver) openSum(name string, payload []Type) *tyVar {
	v := s.fresh()
	v.cons = map[string][]Type{name: payload}
	return v
}

// constr checks a constructor application `#name args`.
func (c *checker) constr(sc *scope, e *syntax.Constr, hint Type) Type {
	var hs []Type
	if h, ok := c.hintOf(hint).(*Tuple); ok && IsSum(h) {
		if _, p := SumConstructor(h, e.Name); p != nil && len(p.Elems) == len(e.Args) {
			hs = p.Elems
		}
	}
	args := make([]Type, len(e.Args))
	for i, a := range e.Args {
		var h Type
		if hs != nil {
			h = hs[i]
		}
		args[i] = c.expr(sc, a, h)
	}
	v := c.s.openSum(e.Name, args)
	c.sumUses = append(c.sumUses, sumUse{v, e})
	return v
}

// conPayload requires x's type to be a sum type with constructor name of
// arity components, and returns their types.
func (c *checker) conPayload(sc *scope, x syntax.Expr, name string, arity int) []Type {
	xt := c.expr(sc, x, nil)
	ps := make([]Type, arity)
	for i := range ps {
		ps[i] = c.s.fresh()
	}
	if m := c.s.unify(c.s.openSum(name, ps), xt, false); m != nil {
		args := strings.Repeat(" _", arity)
		if n, ok := c.conArity(xt, name); ok && n != arity {
			c.errorf(pos(x), "pattern #%s%s and type %s: constructors #%s differ in arity (%d and %d)", name, args, showType(c.s.zonk(xt)), name, arity, n)
		} else {
			c.errorf(pos(x), "Cannot unify type with constructors #%s%s with type %s: the pattern cannot match its value", name, args, showType(c.s.zonk(xt)))
		}
		for i := range ps {
			ps[i] = errT
		}
	}
	return ps
}

// conArity is the number of payload components of constructor name in
// the (possibly open) sum type t.
func (c *checker) conArity(t Type, name string) (int, bool) {
	switch t := c.s.shallow(t).(type) {
	case *Tuple:
		if !IsSum(t) {
			return 0, false
		}
		if _, p := SumConstructor(t, name); p != nil {
			return len(p.Elems), true
		}
	case *tyVar:
		if ps, ok := t.cons[name]; ok {
			return len(ps), true
		}
	}
	return 0, false
}

// sumExpr checks the sum-type expression nodes (a hook of expr1).
func (c *checker) sumExpr(sc *scope, e syntax.Expr, hint Type) Type {
	switch e := e.(type) {
	case *syntax.Constr:
		return c.constr(sc, e, hint)
	case *syntax.ConTest:
		c.conPayload(sc, e.X, e.Name, e.Arity)
		return Prim{T: core.Bool}
	case *syntax.ConField:
		return c.conPayload(sc, e.X, e.Name, e.Arity)[e.Field]
	case *syntax.Match:
		t := c.expr(sc, e.Body, hint)
		c.matches = append(c.matches, e)
		return t
	}
	c.errorf(pos(e), "internal error: unknown expression %T", e)
	return errT
}

// bindCons merges v's constructor constraint into t, which v is being
// bound to (bind's hook): t must be a sum type with v's constructors, or
// a variable that may become one.
func (s *solver) bindCons(v *tyVar, t Type) *mismatch {
	if w, ok := t.(*tyVar); ok && w.cons != nil && v.prims != 0 {
		return &mismatch{}
	}
	if v.cons == nil {
		return nil
	}
	names := make([]string, 0, len(v.cons))
	for n := range v.cons {
		names = append(names, n)
	}
	sort.Strings(names)
	switch u := t.(type) {
	case errType:
		return nil
	case *tyVar:
		if u.prims != 0 {
			return &mismatch{}
		}
		if u.cons == nil {
			u.cons = map[string][]Type{}
		}
		for _, n := range names {
			ps := v.cons[n]
			qs, ok := u.cons[n]
			if !ok {
				u.cons[n] = ps
				continue
			}
			if len(qs) != len(ps) {
				return &mismatch{}
			}
			for i := range ps {
				if m := s.unify(ps[i], qs[i], false); m != nil {
					return m
				}
			}
		}
		return nil
	case *Tuple:
		if !IsSum(u) {
			return &mismatch{}
		}
		for _, n := range names {
			ps := v.cons[n]
			_, p := SumConstructor(u, n)
			if p == nil || len(p.Elems) != len(ps) {
				return &mismatch{}
			}
			for i := range ps {
				if m := s.unify(ps[i], p.Elems[i], false); m != nil {
					return m
				}
			}
		}
		return nil
	}
	return &mismatch{}
}

// sharpenSum is the sum type u, which v (an open sum) is bound to, with
// v's own payload types for v's constructors: they unified with u's but
// may know sizes that u leaves unknown (`[#none, #some [1, 2, 3]] :
// []opt ([]i32)`), which the blank payloads of the other constructors'
// values need to be regular.
func sharpenSum(v *tyVar, u *Tuple) *Tuple {
	if v.cons == nil || !IsSum(u) {
		return u
	}
	out := &Tuple{Elems: append([]Type{}, u.Elems...), Names: u.Names}
	for n, ps := range v.cons {
		if i, p := SumConstructor(u, n); p != nil && len(p.Elems) == len(ps) {
			out.Elems[i] = &Tuple{Elems: ps}
		}
	}
	return out
}

// sumUse is a constructor application and its open type.
type sumUse struct {
	v *tyVar
	e *syntax.Constr
}

// closeSums ends a declaration's open sums. The type of a constructor
// application that nothing fixed is ambiguous, as in Futhark; a sum type
// that only patterns describe (`def f x = match x case #a -> 1 case #b ->
// 2`) becomes the sum of exactly the constructors they name.
func (c *checker) closeSums() {
	clean := len(c.errs) == c.errsAtStart
	for _, u := range c.sumUses {
		if v, ok := c.s.shallow(u.v).(*tyVar); ok && v.cons != nil {
			if clean {
				c.errorf(u.e.Pos(), "Type is ambiguous: %s; add a type annotation", describeCons(v.cons))
			}
			v.ref = sumOf(v.cons)
		}
	}
	for _, v := range c.s.vars {
		if v.ref == nil && v.cons != nil {
			v.ref = sumOf(v.cons)
		}
	}
}

// unsharedCons names the constructors that only one of two sum types has
// (Futhark's "Unshared constructors"), or is empty where a and b are not
// both sum types (or one an open sum).
func (c *checker) unsharedCons(a, b Type) string {
	consOf := func(t Type) (map[string]bool, bool, bool) {
		switch t := c.s.shallow(t).(type) {
		case *Tuple:
			if !IsSum(t) {
				return nil, false, false
			}
			out := map[string]bool{}
			for _, n := range SumConstructors(t) {
				out[n] = true
			}
			return out, false, true
		case *tyVar:
			if t.cons == nil {
				return nil, false, false
			}
			out := map[string]bool{}
			for n := range t.cons {
				out[n] = true
			}
			return out, true, true
		}
		return nil, false, false
	}
	ca, openA, okA := consOf(a)
	cb, openB, okB := consOf(b)
	if !okA || !okB {
		return ""
	}
	var only []string
	if !openA {
		for n := range cb {
			if !ca[n] {
				only = append(only, "#"+n)
			}
		}
	}
	if !openB {
		for n := range ca {
			if !cb[n] {
				only = append(only, "#"+n)
			}
		}
	}
	if len(only) == 0 {
		return ""
	}
	sort.Strings(only)
	return " (Unshared constructors: " + strings.Join(only, ", ") + ".)"
}

// checkMatches reports the matches with constructor patterns that leave
// a value unmatched, in Futhark's words, once the declaration's types are
// known.
func (c *checker) checkMatches() {
	if len(c.errs) > c.errsAtStart {
		// A type error in a case (a constructor of the wrong arity)
		// says more than what it leaves unmatched.
		c.matches = nil
		return
	}
	for _, m := range c.matches {
		w := m.Unmatched(func(path syntax.Expr) []syntax.ConSig {
			t, ok := c.s.shallow(c.pathType(m, path)).(*Tuple)
			if !ok || !IsSum(t) {
				return nil
			}
			sigs := make([]syntax.ConSig, len(t.Elems)-1)
			for i, n := range SumConstructors(t) {
				p, _ := t.Elems[i+1].(*Tuple)
				if p == nil {
					return nil
				}
				sigs[i] = syntax.ConSig{Name: n, Arity: len(p.Elems)}
			}
			return sigs
		})
		if w != "" {
			c.errorf(m.Pos(), "Unmatched cases in match expression: %s", w)
		}
	}
	c.matches = nil
}

// pathType is the type of a path into m's scrutinee (the scrutinee's
// variable, projections and payload components), which may be a node that
// the expansion made but did not keep (the last case is taken untested).
func (c *checker) pathType(m *syntax.Match, x syntax.Expr) Type {
	if t, ok := c.info.Types[x]; ok {
		return t
	}
	switch x := x.(type) {
	case *syntax.Var:
		return c.info.Types[m.Scrut]
	case *syntax.Project:
		t, ok := c.s.shallow(c.pathType(m, x.X)).(*Tuple)
		if !ok {
			return nil
		}
		i := x.Field
		if x.Name != "" {
			i = t.FieldIndex(x.Name)
		}
		if i < 0 || i >= len(t.Elems) {
			return nil
		}
		return t.Elems[i]
	case *syntax.ConField:
		t, ok := c.s.shallow(c.pathType(m, x.X)).(*Tuple)
		if !ok || !IsSum(t) {
			return nil
		}
		_, p := SumConstructor(t, x.Name)
		if p == nil || x.Field >= len(p.Elems) {
			return nil
		}
		return p.Elems[x.Field]
	}
	return nil
}

// describeCons describes an open sum for messages.
func describeCons(cons map[string][]Type) string {
	return "sum type " + sumOf(cons).String() + " | ..."
}
