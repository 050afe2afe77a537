package eval

import (
	"reflect"
	"strings"

	"github.com/arepl/arepl/fusion"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// LetNames finds, in the syntax trees given, every `let p = e` and every
// definition `def f ... = e`, and maps where e starts to the names p binds
// (or to f): the names plans give the statements lowered from e
// (fusion.Plan.SetNames). The walk goes through every field of every node
// by reflection, so a node kind added to the syntax tree is walked without
// a change here.
func LetNames(nodes ...syntax.Node) fusion.LetNames {
	lets := fusion.LetNames{}
	for _, n := range nodes {
		walkLets(reflect.ValueOf(n), lets)
	}
	return lets
}

// declsNames are the let names of x and of every declaration in env (the
// prelude's too, whose functions inline into the user's).
func declsNames(env *types.Env, x syntax.Node) fusion.LetNames {
	nodes := []syntax.Node{x}
	for _, o := range env.Objects() {
		if o.Decl != nil {
			nodes = append(nodes, o.Decl)
		}
	}
	return LetNames(nodes...)
}

var (
	letInType   = reflect.TypeFor[*syntax.LetIn]()
	letFunType  = reflect.TypeFor[*syntax.LetFun]()
	valDeclType = reflect.TypeFor[*syntax.ValDecl]()
	spanType    = reflect.TypeFor[source.Span]()
)

func walkLets(v reflect.Value, lets fusion.LetNames) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walkLets(v.Elem(), lets)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		switch v.Type() {
		case letInType:
			l := v.Interface().(*syntax.LetIn)
			names := patNames(l.Pat)
			for x := l.Val; x != nil; x = transparent(x) {
				lets[x.Span().Start] = names
			}
		case letFunType:
			l := v.Interface().(*syntax.LetFun)
			if l.FnBody != nil {
				lets[l.FnBody.Span().Start] = []string{l.Name}
			}
		case valDeclType:
			d := v.Interface().(*syntax.ValDecl)
			if d.Body != nil {
				lets[d.Body.Span().Start] = []string{d.Name}
			}
		}
		walkLets(v.Elem(), lets)
	case reflect.Struct:
		if v.Type() == spanType {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkLets(v.Field(i), lets)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkLets(v.Index(i), lets)
		}
	}
}

// patNames lists the names a pattern binds in the order the IR flattens
// its components; "_" for a wildcard. A pattern whose shape the IR does
// not keep (a record) gives no names, and its statements are described
// instead.
func patNames(p syntax.Pat) []string {
	switch p := p.(type) {
	case *syntax.IdPat:
		return []string{p.Name}
	case *syntax.WildPat:
		return []string{"_"}
	case *syntax.AscribedPat:
		return patNames(p.Pat)
	case *syntax.TuplePat:
		var out []string
		for _, e := range p.Elems {
			ns := patNames(e)
			if ns == nil {
				return nil
			}
			out = append(out, ns...)
		}
		return out
	case *syntax.RecordPat:
		return nil
	}
	return nil
}

// transparent is the expression inside x that lowers to x's statements
// (x itself lowers to none): `(e)`, `unzip e`, `e :> t`. Its position
// takes the let's names too, so `let (a, b) = unzip (map f xs)` names the
// map's results a and b.
func transparent(x syntax.Expr) syntax.Expr {
	switch x := x.(type) {
	case *syntax.ParenExpr:
		return x.X
	case *syntax.Apply:
		if f, ok := x.Fn.(*syntax.Var); ok && f.Qual == "" && len(x.Args) == 1 && strings.HasPrefix(f.Name, "unzip") {
			return x.Args[0]
		}
	}
	return nil
}
