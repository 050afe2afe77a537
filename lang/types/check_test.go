package types_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// The tests are data: testdata/*.fut files made of chunks separated by a
// line "---". A chunk is a program that is checked in a fresh environment,
// with expectations written as comments (starlark-go and go/parser style):
//
//	def f (x: i32) = x + 1.0   -- ERROR "cannot unify i32 with f64"
//	-- expr f 2 => i32
//	-- expr f true => ERROR "argument 1 of f"
//
// `-- ERROR "regex"` expects an error on its own line whose message matches
// regex; every error must be expected. `-- expr E => T` checks expression E
// in the environment the chunk's declarations built and expects type T (or
// an error matching the regex). After every successful check the Info is
// verified to be complete and resolved.

var (
	errorRx = regexp.MustCompile(`--\s*ERROR\s+"((?:[^"\\]|\\.)*)"`)
	exprRx  = regexp.MustCompile(`^--\s*expr\s+(.*?)\s+=>\s+(.*)$`)
)

func TestFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/*.fut")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range chunks(file, string(data)) {
			t.Run(fmt.Sprintf("%s:%d", filepath.Base(file), ch.line), func(t *testing.T) {
				runChunk(t, file, ch)
			})
		}
	}
}

type chunk struct {
	line int // first line of the chunk in the file
	text string
}

// chunks splits a file at "---" lines, padding each chunk with blank lines
// so that positions are the file's.
func chunks(file, data string) []chunk {
	var out []chunk
	lines := strings.Split(data, "\n")
	start := 0
	flush := func(end int) {
		text := strings.Repeat("\n", start) + strings.Join(lines[start:end], "\n")
		if strings.TrimSpace(text) != "" {
			out = append(out, chunk{line: start + 1, text: text})
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "---" {
			flush(i)
			start = i + 1
		}
	}
	flush(len(lines))
	return out
}

func runChunk(t *testing.T, file string, ch chunk) {
	src := source.NewFile(file, ch.text)
	want := map[int][]*regexp.Regexp{} // line -> expected error patterns
	var exprs []string
	var exprLines []int
	for i, l := range strings.Split(ch.text, "\n") {
		trimmed := strings.TrimSpace(l)
		if m := exprRx.FindStringSubmatch(trimmed); m != nil {
			exprs = append(exprs, trimmed)
			exprLines = append(exprLines, i+1)
			continue
		}
		if m := errorRx.FindStringSubmatch(l); m != nil {
			want[i+1] = append(want[i+1], regexp.MustCompile(unquote(m[1])))
		}
	}
	f, err := syntax.ParseFile(src)
	if err != nil {
		t.Fatalf("parse: %s", source.Detail(err))
	}
	env, info, err := types.NewEnv().CheckDecls(src, f.Decls)
	matchErrors(t, err, want)
	if err == nil {
		checkInfo(t, f, info)
	}
	for i, e := range exprs {
		checkExprLine(t, env, e, exprLines[i])
	}
}

func unquote(s string) string { return strings.ReplaceAll(s, `\"`, `"`) }

func matchErrors(t *testing.T, err error, want map[int][]*regexp.Regexp) {
	t.Helper()
	var got source.ErrorList
	if err != nil {
		list, ok := err.(source.ErrorList)
		if !ok {
			t.Fatalf("error is %T, not source.ErrorList: %v", err, err)
		}
		got = list
	}
	for _, e := range got {
		if strings.Contains(e.Msg, "internal error") {
			t.Errorf("%s", e.Detail())
			continue
		}
		found := false
		for i, rx := range want[e.Pos.Line] {
			if rx != nil && rx.MatchString(e.Msg) {
				want[e.Pos.Line][i] = nil
				found = true
				break
			}
		}
		if !found {
			t.Errorf("unexpected error %s", e.Detail())
		}
	}
	for line, rxs := range want {
		for _, rx := range rxs {
			if rx != nil {
				t.Errorf("line %d: no error matching %q", line, rx)
			}
		}
	}
}

func checkExprLine(t *testing.T, env *types.Env, line string, n int) {
	t.Helper()
	m := exprRx.FindStringSubmatch(line)
	text, want := m[1], m[2]
	src := source.NewFile(fmt.Sprintf("line %d", n), text)
	x, err := syntax.ParseExpr(src)
	if err != nil {
		t.Errorf("line %d: parse %q: %s", n, text, source.Detail(err))
		return
	}
	typ, info, err := env.CheckExpr(src, x)
	if em := errorRx.FindStringSubmatch("-- " + want); em != nil {
		rx := regexp.MustCompile(unquote(em[1]))
		if err == nil {
			t.Errorf("line %d: %s has type %s, want an error matching %q", n, text, typ, rx)
		} else if !rx.MatchString(err.Error()) {
			t.Errorf("line %d: %s: error %s, want one matching %q", n, text, source.Detail(err), rx)
		}
		return
	}
	if err != nil {
		t.Errorf("line %d: %s: %s", n, text, source.Detail(err))
		return
	}
	if typ.String() != want {
		t.Errorf("line %d: %s has type %s, want %s", n, text, typ, want)
	}
	// A function-typed expression may be generic (it is shown, never
	// lowered); everything else must be fully resolved.
	if !types.IsFunction(typ) {
		checkInfo(t, x, info)
	}
}

// checkInfo walks every AST node under root and verifies the Info contract
// of info.go: each expression, pattern, variable and binding site has a
// resolved entry.
func checkInfo(t *testing.T, root any, info *types.Info) {
	t.Helper()
	var walk func(v reflect.Value)
	seen := map[any]bool{}
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if v.Kind() == reflect.Pointer {
				if seen[v.Interface()] {
					return
				}
				seen[v.Interface()] = true
				visit(t, v.Interface(), info)
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if !v.Type().Field(i).IsExported() {
					continue // not part of the tree (syntax.Match's cases)
				}
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				if v.Index(i).Kind() == reflect.Struct && v.Index(i).CanAddr() {
					walk(v.Index(i).Addr())
					continue
				}
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(root))
}

func visit(t *testing.T, n any, info *types.Info) {
	t.Helper()
	if e, ok := n.(syntax.Expr); ok {
		typ, ok := info.Types[e]
		if !ok {
			t.Errorf("no type for %T at %v", e, e.Span().Start)
		} else if !resolved(typ) {
			t.Errorf("unresolved type %s for %T at %v", typ, e, e.Span().Start)
		}
	}
	if p, ok := n.(syntax.Pat); ok {
		if typ, ok := info.PatTypes[p]; !ok || !resolved(typ) {
			t.Errorf("no resolved type for pattern %T at %v", p, p.Span().Start)
		}
	}
	switch n := n.(type) {
	case *syntax.Var:
		if info.Uses[n] == nil {
			t.Errorf("no object for %s at %v", n.Name, n.Pos())
		}
	case *syntax.IdPat, *syntax.ForLoop, *syntax.LetFun, *syntax.SizeParam, *syntax.ValDecl, *syntax.LetWith:
		if o := info.Binds[n.(syntax.Node)]; o == nil || !resolved(o.Type) {
			t.Errorf("no resolved binding for %T at %v", n, n.(syntax.Node).Span().Start)
		}
	}
}

// resolved reports whether a type contains only the exported type forms,
// so no inference variable or error type leaked. Types are DAGs; each
// shared part is checked once.
func resolved(t types.Type) bool { return resolved1(t, map[types.Type]bool{}) }

func resolved1(t types.Type, seen map[types.Type]bool) bool {
	switch t.(type) {
	case *types.Array, *types.Tuple, *types.Arrow:
		if seen[t] {
			return true
		}
		seen[t] = true
	}
	switch t := t.(type) {
	case types.Prim:
		return true
	case *types.Array:
		if _, nested := t.Elem.(*types.Array); nested || len(t.Dims) == 0 {
			return false
		}
		return resolved1(t.Elem, seen)
	case *types.Tuple:
		for _, e := range t.Elems {
			if !resolved1(e, seen) {
				return false
			}
		}
		return true
	case *types.Arrow:
		return resolved1(t.Param, seen) && resolved1(t.Ret, seen)
	}
	return types.IsTypeParam(t)
}
