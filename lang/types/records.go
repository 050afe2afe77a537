package types

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// Records are tuples with field names (Tuple.Names), their fields sorted
// by name as Futhark orders them; a record literal, pattern or type is
// put in that order here, and every later stage sees a tuple. Field
// accesses record the positions they resolve to in Info.FieldPath.

// sortedFields returns the permutation that sorts fields by name, and
// reports a duplicate field.
func (c *checker) sortedFields(fields []syntax.RecordField) ([]int, []string) {
	order := make([]int, len(fields))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return fields[order[i]].Name < fields[order[j]].Name })
	names := make([]string, len(fields))
	for k, i := range order {
		names[k] = fields[i].Name
		if k > 0 && names[k] == names[k-1] {
			// Futhark's wording ("Duplicate fields", "previously
			// defined"), which its tests match.
			prev := fields[order[k-1]].Pos()
			c.errorf(fields[i].Pos(), "Duplicate fields: field %s is given twice (previously defined at %d:%d)", names[k], prev.Line, prev.Col)
		}
	}
	return order, names
}

// recordExpr checks a record literal.
func (c *checker) recordExpr(sc *scope, e *syntax.RecordExpr) Type {
	order, names := c.sortedFields(e.Fields)
	elems := make([]Type, len(order))
	for k, i := range order {
		f := e.Fields[i]
		elems[k] = c.expr(sc, f.Value, nil)
	}
	return &Tuple{Elems: elems, Names: names}
}

// field is the type of field name of a value of type t and its position.
func (c *checker) field(t Type, name string, p source.Pos) (Type, int) {
	switch u := c.s.shallow(t).(type) {
	case errType:
		return errT, -1
	case *Tuple:
		if u.Names == nil {
			c.errorf(p, "cannot access field %s of a tuple (type %s)", name, showType(c.s.zonk(u)))
			return errT, -1
		}
		i := u.FieldIndex(name)
		if i < 0 {
			c.errorf(p, "record of type %s has no field %s", showType(c.s.zonk(u)), name)
			return errT, -1
		}
		return u.Elems[i], i
	case *tyVar:
		if u.prims == 0 {
			c.errorf(p, "cannot infer the record type for field %s: the type is ambiguous here; add a type annotation", name)
			return errT, -1
		}
	}
	c.errorf(p, "cannot access field %s of a value of type %s (not a record)", name, showType(c.s.zonk(t)))
	return errT, -1
}

// fieldAccess checks `e.name`.
func (c *checker) fieldAccess(sc *scope, e *syntax.Project) Type {
	t, i := c.field(c.expr(sc, e.X, nil), e.Name, e.Pos())
	if i >= 0 {
		c.info.FieldPath[e] = []int{i}
	}
	return t
}

// recordUpdate checks `r with a.b = v`.
func (c *checker) recordUpdate(sc *scope, e *syntax.Update) Type {
	xt := c.expr(sc, e.X, nil)
	t := xt
	path := make([]int, 0, len(e.Path))
	for _, name := range e.Path {
		var i int
		t, i = c.updatedField(t, name, e.Pos())
		if i < 0 {
			c.expr(sc, e.Val, nil)
			return errT
		}
		path = append(path, i)
	}
	c.info.FieldPath[e] = path
	vt := c.expr(sc, e.Val, t)
	// The new value may have other sizes than the field's (Futhark lets a
	// record update change them): the result has the new value's type
	// in that field.
	if !c.unifyMsg(pos(e.Val), t, vt, false, func(a, b string) string {
		return fmt.Sprintf("cannot unify %s with %s in record update of record field %q", a, b, strings.Join(e.Path, "."))
	}) {
		return xt
	}
	return c.withField(xt, path, vt)
}

// updatedField is field's answer for a step of an update path, where a
// number also names a tuple's element (`t with 0 = v`).
func (c *checker) updatedField(t Type, name string, p source.Pos) (Type, int) {
	if tup, ok := c.s.shallow(t).(*Tuple); ok && tup.Names == nil {
		if n, err := strconv.Atoi(name); err == nil {
			if n >= len(tup.Elems) {
				c.errorf(p, "tuple of type %s has no element %d", showType(c.s.zonk(tup)), n)
				return errT, -1
			}
			return tup.Elems[n], n
		}
	}
	return c.field(t, name, p)
}

// withField is the record type t with the field at path replaced by v.
func (c *checker) withField(t Type, path []int, v Type) Type {
	if len(path) == 0 {
		return v
	}
	tup, ok := c.s.shallow(t).(*Tuple)
	if !ok || path[0] >= len(tup.Elems) {
		return t
	}
	elems := append([]Type(nil), tup.Elems...)
	elems[path[0]] = c.withField(elems[path[0]], path[1:], v)
	return &Tuple{Elems: elems, Names: tup.Names}
}

// recordPatType is the type a record pattern declares.
func (c *checker) recordPatType(ctx *tyCtx, p *syntax.RecordPat) Type {
	order, names := c.sortedFields(p.Fields)
	elems := make([]Type, len(order))
	for k, i := range order {
		elems[k] = c.patType(ctx, p.Fields[i].Pat)
	}
	return &Tuple{Elems: elems, Names: names}
}

// declareRecordPat binds the names of a record pattern matched against t.
func (c *checker) declareRecordPat(sc *scope, p *syntax.RecordPat, t Type) *scope {
	order, names := c.sortedFields(p.Fields)
	var elems []Type
	switch u := c.s.shallow(t).(type) {
	case *Tuple:
		if sameNames(u.Names, names) {
			elems = u.Elems
		}
	case *tyVar:
		rec := &Tuple{Elems: make([]Type, len(names)), Names: names}
		for i := range rec.Elems {
			rec.Elems[i] = c.s.fresh()
		}
		if c.s.bind(u, rec) == nil {
			elems = rec.Elems
		}
	case errType:
		elems = make([]Type, len(names))
		for i := range elems {
			elems[i] = errT
		}
	}
	if elems == nil {
		c.errorf(p.Pos(), "cannot match a record pattern with fields %v against a value of type %s", names, showType(c.s.zonk(t)))
		elems = make([]Type, len(names))
		for i := range elems {
			elems[i] = errT
		}
	}
	for k, i := range order {
		sc = c.declarePat(sc, p.Fields[i].Pat, elems[k])
	}
	return sc
}

// recordType resolves a record type as written.
func (c *checker) recordType(ctx *tyCtx, te *syntax.RecordTypeExpr) Type {
	order, names := c.sortedFields(te.Fields)
	elems := make([]Type, len(order))
	for k, i := range order {
		elems[k] = c.typeExpr(ctx, te.Fields[i].Type)
	}
	return &Tuple{Elems: elems, Names: names}
}

// projectSection checks `(.a.0)` against the parameter type param.
func (c *checker) projectSection(e *syntax.ProjectSection, param Type) Type {
	t := param
	path := make([]int, len(e.Fields))
	for k, f := range e.Fields {
		if e.Names != nil && e.Names[k] != "" {
			var i int
			t, i = c.field(t, e.Names[k], e.Pos())
			path[k] = i
			continue
		}
		t = c.project(t, f, e.Pos())
		path[k] = f
	}
	c.info.FieldPath[e] = path
	return t
}
