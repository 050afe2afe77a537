package modules

import (
	"reflect"
	"strings"

	"github.com/arepl/arepl/lang/syntax"
)

// The rewriter walks a declaration's syntax tree by reflection rather
// than by a switch over every node type: what it rewrites is a handful of
// node kinds (qualified names, operators and types, local opens), and the
// rest of the tree is only traversed. A reflective walk keeps this package
// correct as the expression language grows (sum types, AD, new literals)
// without a second exhaustive list of nodes to keep in step with the
// parser's; the nodes it acts on are matched by type below.

var (
	typeExprType = reflect.TypeOf((*syntax.TypeExpr)(nil)).Elem()
)

type rewriter struct {
	e       *Elaborator
	sc      *scope
	tparams map[string]bool // the declaration's type and size parameters
}

func (r *rewriter) expr(x syntax.Expr) syntax.Expr {
	v := reflect.ValueOf(&x).Elem()
	r.visit(v)
	return x
}

func (r *rewriter) pat(p syntax.Pat) syntax.Pat {
	v := reflect.ValueOf(&p).Elem()
	r.visit(v)
	return p
}

func (r *rewriter) typ(t syntax.TypeExpr) syntax.TypeExpr {
	v := reflect.ValueOf(&t).Elem()
	r.visit(v)
	return t
}

// visit rewrites the settable value v in place.
func (r *rewriter) visit(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		if repl := r.replace(v.Elem().Interface()); repl != nil {
			v.Set(reflect.ValueOf(repl))
			return
		}
		r.visit(v.Elem())
		// The interface's dynamic value is a pointer; its target was
		// rewritten in place.
	case reflect.Ptr:
		if v.IsNil() {
			return
		}
		switch n := v.Interface().(type) {
		case *syntax.Var:
			r.qualVar(n)
			return
		case *syntax.ParenExpr:
			if n.Open != "" && !builtinModules[n.Open] {
				r.localOpen(n)
				return
			}
		case *syntax.DimExpr:
			// [k] where k is a module's constant: its flat name.
			if n.Name != "" && !r.tparams[n.Name] {
				if q := r.sc.vals[n.Name]; q != "" {
					n.Name = q + "." + n.Name
				}
			}
		}
		r.qualOp(v.Elem())
		r.visit(v.Elem())
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				r.visit(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			r.visit(v.Index(i))
		}
	}
}

// replace returns the node that stands for n, or nil to keep n: a field
// access that is a qualified name, or a module's type.
func (r *rewriter) replace(n any) any {
	switch n := n.(type) {
	case *syntax.Project:
		if x := r.qualified(n); x != nil {
			return x
		}
	case *syntax.NamedTypeExpr:
		return r.namedType(n)
	case *syntax.OpSection:
		// (m.+^): a module's operator is a function like any other.
		if n.Qual != "" && !builtinModules[n.Qual] {
			v := &syntax.Var{At: n.At, Qual: n.Qual, Name: n.Op}
			r.qualVar(v)
			return v
		}
	}
	return nil
}

// qualified resolves m.x (and a.b.x.field...), which the parser reads as
// field accesses of a variable, when m names a module.
func (r *rewriter) qualified(p *syntax.Project) syntax.Expr {
	var chain []*syntax.Project
	var x syntax.Expr = p
	for {
		pr, ok := x.(*syntax.Project)
		if !ok {
			break
		}
		chain = append(chain, pr)
		x = pr.X
	}
	root, ok := x.(*syntax.Var)
	if !ok || root.Qual != "" {
		return nil
	}
	m := r.sc.mods[root.Name]
	if m == nil {
		return nil
	}
	// chain is outermost first; walk it innermost first.
	path := root.Name
	for i := len(chain) - 1; i >= 0; i-- {
		f := chain[i]
		if f.Name == "" {
			r.e.errorf(f.Pos(), "%s is a module, not a value", path)
			return &syntax.Var{At: root.At, Name: root.Name}
		}
		if sub := m.mods[f.Name]; sub != nil && m.builtin == "" {
			m, path = sub, path+"."+f.Name
			continue
		}
		q, ok := m.memberQual(f.Name)
		if !ok {
			r.e.errorf(f.Pos(), "Unknown name %q", path+"."+f.Name)
			return &syntax.Var{At: f.At, Name: path + "." + f.Name}
		}
		var out syntax.Expr = &syntax.Var{At: f.At, Qual: q, Name: f.Name}
		for j := i - 1; j >= 0; j-- {
			g := *chain[j]
			g.X = out
			out = &g
		}
		return out
	}
	r.e.errorf(p.Pos(), "%s is a module, not a value", path)
	return &syntax.Var{At: root.At, Name: root.Name}
}

// qualVar resolves a variable written qualified by a user module: `m.f`
// in backticks, or a numeric module's member through a functor parameter.
func (r *rewriter) qualVar(v *syntax.Var) {
	if v.Qual == "" || builtinModules[v.Qual] {
		return
	}
	m := r.lookupQual(v.Qual)
	if m == nil {
		r.e.errorf(v.Pos(), "Unknown module %q", v.Qual)
		return
	}
	q, ok := m.memberQual(v.Name)
	if !ok {
		r.e.errorf(v.Pos(), "Unknown name %q", v.Qual+"."+v.Name)
		return
	}
	v.Qual = q
}

// lookupQual finds the module a qualifier names, without reporting.
func (r *rewriter) lookupQual(qual string) *module {
	parts := strings.Split(qual, ".")
	m := r.sc.mods[parts[0]]
	if m == nil {
		return nil
	}
	for _, p := range parts[1:] {
		if m = m.mods[p]; m == nil {
			return nil
		}
	}
	return m
}

// qualOp resolves the qualifier of an operator (BinOp, OpSection,
// LeftSection, RightSection: the nodes with Qual and Op fields).
func (r *rewriter) qualOp(s reflect.Value) {
	if s.Kind() != reflect.Struct {
		return
	}
	qf, of := s.FieldByName("Qual"), s.FieldByName("Op")
	if !qf.IsValid() || !of.IsValid() || qf.Kind() != reflect.String || of.Kind() != reflect.String {
		return
	}
	qual, op := qf.String(), of.String()
	if qual == "" || builtinModules[qual] {
		return
	}
	m := r.lookupQual(qual)
	if m == nil {
		if p, ok := s.Addr().Interface().(syntax.Node); ok {
			r.e.errorf(p.Span().Start, "Unknown module %q", qual)
		}
		return
	}
	q, ok := m.memberQual(op)
	if !ok {
		if p, ok := s.Addr().Interface().(syntax.Node); ok {
			r.e.errorf(p.Span().Start, "Unknown name %q", qual+"."+op)
		}
		return
	}
	qf.SetString(q)
}

// localOpen rewrites m.(e): e's names are m's members first.
func (r *rewriter) localOpen(p *syntax.ParenExpr) {
	m := r.e.lookupMod(r.sc, p.Open, p.Pos())
	if m == nil {
		p.Open = ""
		return
	}
	if m.builtin != "" {
		p.Open = m.builtin
		r.visit(reflect.ValueOf(&p.X).Elem())
		return
	}
	inner := &rewriter{e: r.e, sc: r.sc.openInto(m), tparams: r.tparams}
	inner.visit(reflect.ValueOf(&p.X).Elem())
	names := map[string]string{}
	for k, q := range m.vals {
		names[k] = q
	}
	// Open stays set (to the module's path) so that the checker lets only
	// the bindings inside the open shadow the module's names.
	p.Open, p.Names = m.path, names
}

// namedType resolves a type name: m.t, or t bound by a module or an open.
func (r *rewriter) namedType(t *syntax.NamedTypeExpr) syntax.TypeExpr {
	for i := range t.Args {
		if t.Args[i].Type != nil {
			t.Args[i].Type = r.typ(t.Args[i].Type)
		}
		if t.Args[i].Dim != nil {
			r.visit(reflect.ValueOf(&t.Args[i].Dim).Elem())
		}
	}
	var ref typeRef
	if i := strings.LastIndexByte(t.Name, '.'); i > 0 {
		qual, name := t.Name[:i], t.Name[i+1:]
		var m *module
		if builtinModules[qual] && r.sc.mods[qual] == nil {
			m = builtinModule(qual)
		} else if m = r.lookupQual(qual); m == nil {
			r.e.errorf(t.Pos(), "Unknown module %q", qual)
			return t
		}
		tr, ok := m.typeOf(name)
		if !ok {
			r.e.errorf(t.Pos(), "Unknown type %q", t.Name)
			return t
		}
		ref = tr
	} else {
		if r.tparams[t.Name] {
			return t
		}
		tr, ok := r.sc.types[t.Name]
		if !ok {
			return t
		}
		ref = tr
	}
	if ref.prim != "" {
		if len(t.Args) > 0 {
			r.e.errorf(t.Pos(), "type %s takes no arguments", t.Name)
		}
		return &syntax.PrimTypeExpr{At: t.At, Name: ref.prim}
	}
	nt := *t
	nt.Name = ref.flat
	return &nt
}

// visitTypes calls f on every type expression in t.
func visitTypes(t syntax.TypeExpr, f func(syntax.TypeExpr)) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Ptr:
			if v.IsNil() {
				return
			}
			if v.Type() == typeExprType {
				f(v.Interface().(syntax.TypeExpr))
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(&t).Elem())
}

// deepCopy copies a syntax tree, so that each functor application
// elaborates (and the checker annotates) its own tree. Maps are shared:
// the only ones in a tree are the Names of ParenExpr, never changed.
func deepCopy[T any](x T) T {
	v := reflect.ValueOf(&x).Elem()
	return copyValue(v).Interface().(T)
}

func copyValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Ptr:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Elem().Type())
		n.Elem().Set(copyValue(v.Elem()))
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(copyValue(v.Elem()))
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n.Field(i).Set(copyValue(v.Field(i)))
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(copyValue(v.Index(i)))
		}
		return n
	}
	return v
}
