package types_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

func parseDecls(t *testing.T, text string) (*source.File, []syntax.Decl) {
	t.Helper()
	src := source.NewFile("test.fut", text)
	f, err := syntax.ParseFile(src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return src, f.Decls
}

func checkExpr(t *testing.T, env *types.Env, text string) (types.Type, error) {
	t.Helper()
	src := source.NewFile("expr", text)
	x, err := syntax.ParseExpr(src)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	typ, _, err := env.CheckExpr(src, x)
	return typ, err
}

// A failed input leaves the environment as it was; a good one extends a
// new environment and leaves the old one alone.
func TestEnvIsPersistent(t *testing.T) {
	base := types.NewEnv()
	src, decls := parseDecls(t, "def a = 1\ndef b = a + true")
	env, _, err := base.CheckDecls(src, decls)
	if err == nil || env != base {
		t.Fatalf("CheckDecls with an error: env changed or no error (%v)", err)
	}
	if _, ok := base.Lookup("a"); ok {
		t.Fatalf("a leaked into the base environment")
	}
	src, decls = parseDecls(t, "def a = 1i8")
	env, _, err = base.CheckDecls(src, decls)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := env.Lookup("a")
	if !ok || o.Kind != types.Global || o.Type.String() != "i8" || o.Decl == nil || o.Info == nil {
		t.Fatalf("a = %+v", o)
	}
	if _, ok := base.Lookup("a"); ok {
		t.Fatalf("CheckDecls changed its receiver")
	}
}

func TestBindValue(t *testing.T) {
	env := types.NewEnv().BindValue("xs", &types.Array{Elem: types.Prim{T: core.F32}, Dims: []types.Dim{{Const: 3}}})
	typ, err := checkExpr(t, env, "map (* 2) xs")
	if err != nil || typ.String() != "[3]f32" {
		t.Fatalf("map (* 2) xs: %v, %v", typ, err)
	}
	o, ok := env.Lookup("xs")
	if !ok || o.Kind != types.Value {
		t.Fatalf("xs = %+v", o)
	}
	if _, ok := types.NewEnv().Lookup("xs"); ok {
		t.Fatalf("BindValue changed the base environment")
	}
}

// Every builtin, module function and prelude function is in Objects with
// a one-line Doc.
func TestObjectsHaveDocs(t *testing.T) {
	objs := types.NewEnv().Objects()
	names := map[string]bool{}
	for _, o := range objs {
		names[o.Name] = true
		if o.Doc == "" || strings.Contains(o.Doc, "\n") {
			t.Errorf("%s: doc %q", o.Name, o.Doc)
		}
		prelude := o.Kind == types.Global && o.Pos.File == "prelude.fut"
		if o.Kind != types.Builtin && o.Kind != types.ModuleFun && !prelude {
			t.Errorf("%s: kind %v", o.Name, o.Kind)
		}
	}
	for _, n := range []string{"map", "reduce", "multiscan", "i32.max", "f64.sqrt", "i64.i32", "u8.popc", "bool.f32", "f32.pi", "i8.+"} {
		if !names[n] {
			t.Errorf("%s missing from Objects", n)
		}
	}
	for i := 1; i < len(objs); i++ {
		if objs[i-1].Name >= objs[i].Name {
			t.Fatalf("Objects not sorted: %s before %s", objs[i-1].Name, objs[i].Name)
		}
	}
}

// All errors of an input are reported, sorted, each with its source line.
func TestAllErrorsReported(t *testing.T) {
	src, decls := parseDecls(t, "def a = 1 + true\ndef b = foo\ndef c (x: i32) = x 1\ndef d = if 1 then 2 else 3")
	_, _, err := types.NewEnv().CheckDecls(src, decls)
	list, ok := err.(source.ErrorList)
	if !ok || len(list) != 4 {
		t.Fatalf("want 4 errors, got %v", source.Detail(err))
	}
	for i, e := range list {
		if e.Pos.Line != i+1 || e.Line == "" {
			t.Errorf("error %d: %s", i, e.Detail())
		}
	}
}

func TestIsFunction(t *testing.T) {
	env := types.NewEnv()
	for text, want := range map[string]bool{"map": true, "(+ 1)": true, "1": false, "[1]": false, "i32.max 1": true} {
		typ, err := checkExpr(t, env, text)
		if err != nil || types.IsFunction(typ) != want {
			t.Errorf("%s: IsFunction(%v) = %v (%v)", text, typ, !want, err)
		}
	}
}

// The loop shorthand `loop x for ...` is given its initial value in the AST.
func TestLoopShorthandInit(t *testing.T) {
	src := source.NewFile("e", "let x = 0 in loop x for i < 3 do x + 1")
	e, err := syntax.ParseExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := types.NewEnv().CheckExpr(src, e)
	if err != nil {
		t.Fatal(err)
	}
	l := e.(*syntax.LetIn).Body.(*syntax.Loop)
	v, ok := l.Init.(*syntax.Var)
	if !ok || info.Uses[v] == nil || info.Uses[v] != info.Binds[e.(*syntax.LetIn).Pat] {
		t.Fatalf("loop init %#v does not read the outer x", l.Init)
	}
}

// A declaration's doc comment is its object's Doc.
func TestDocComment(t *testing.T) {
	src, decls := parseDecls(t, "-- | The answer.\ndef answer = 42i64\n")
	env, _, err := types.NewEnv().CheckDecls(src, decls)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := env.Lookup("answer")
	if o == nil || !strings.Contains(o.Doc, "The answer.") {
		t.Fatalf("answer = %+v", o)
	}
}

// Lowering reads the objects behind unflatten's result sizes and the array
// an in-place update reads from the Info.
func TestInfoSizesAndUpdates(t *testing.T) {
	src, decls := parseDecls(t, `
def f [n] [m] (xs: [n][m]i32) = unflatten (flatten xs) : [n][m]i32
def g (xs: []i32) = let k = 2i64 in (xs |> unflatten) : [k][3]i32
def h (xs: *[]i32) = let xs[0] = 1 in xs`)
	_, info, err := types.NewEnv().CheckDecls(src, decls)
	if err != nil {
		t.Fatal(source.Detail(err))
	}
	var got []string
	for e, objs := range info.Sizes {
		s := source.Pos.String(e.Span().Start) + ":"
		for _, o := range objs {
			if o == nil {
				s += " const"
			} else {
				s += " " + o.Name
				if o.Kind != types.SizeVar && o.Kind != types.Local {
					t.Errorf("size %s has kind %v", o.Name, o.Kind)
				}
			}
		}
		got = append(got, s)
	}
	if len(got) != 2 {
		t.Errorf("Sizes = %v, want entries for f and g", got)
	}
	for _, s := range got {
		if !strings.HasSuffix(s, ": n m") && !strings.HasSuffix(s, ": k const") {
			t.Errorf("Sizes entry %q", s)
		}
	}
	body := decls[2].(*syntax.ValDecl).Body.(*syntax.LetWith)
	old, upd := info.Updates[body], info.Binds[body]
	param := info.Binds[decls[2].(*syntax.ValDecl).Params[0].(*syntax.AscribedPat).Pat]
	if old == nil || old != param || upd == nil || upd == old || upd.Name != "xs" {
		t.Errorf("update: reads %+v (param %+v), binds %+v", old, param, upd)
	}
}

// Types are DAGs: `let b = (a, a)` doubles the size of a type's tree, so
// every walk over types must visit shared parts once. Sixty doublings
// (a tree of 2^60 leaves) finish only if they do.
func TestSharedTypesStayLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("let x0 = (1, 1) in ")
	const n = 60
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "let x%d = (x%d, x%d) in ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "let y = if true then x%d else x%d in (y == x%d, loop z = y for i < 2 do z)", n-1, n-1, n-1)
	src := source.NewFile("e", b.String())
	x, err := syntax.ParseExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := types.NewEnv().CheckExpr(src, x)
	if err != nil {
		t.Fatal(err)
	}
	checkInfo(t, x, info)
}

// A session binds hundreds of names over its life: the environment's
// layers (a small map of recent names over a shared flat one, folded every
// so often) must give the newest binding of a name, list each name once,
// keep earlier environments unchanged, and say which values are still in
// use exactly as one map would.
func TestBindValueLayers(t *testing.T) {
	i32 := types.Prim{T: core.I32}
	envs := []*types.Env{types.NewEnv()}
	base := len(types.NewEnv().Objects())
	for i := range 300 {
		// Every third bind shadows a name bound before (x0, x1, ...).
		name := fmt.Sprintf("x%d", i-i/3)
		envs = append(envs, envs[len(envs)-1].BindValue(name, i32))
	}
	for i, env := range envs {
		if i == 0 {
			continue
		}
		want := map[string]*types.Object{} // the newest object of each name, as one map would hold it
		for j := 0; j < i; j++ {
			name := fmt.Sprintf("x%d", j-j/3)
			o, ok := envs[j+1].Lookup(name)
			if !ok {
				t.Fatalf("env %d: %s not bound", j+1, name)
			}
			want[name] = o
		}
		for name, o := range want {
			if got, _ := env.Lookup(name); got != o {
				t.Fatalf("env %d: %s is %p, want the newest binding %p", i, name, got, o)
			}
		}
		objs := env.Objects()
		if len(objs) != base+len(want) {
			t.Fatalf("env %d: %d objects, want %d (the prelude's %d and %d names)", i, len(objs), base+len(want), base, len(want))
		}
		live := env.ValuesInUse()
		if len(live) != len(want) {
			t.Fatalf("env %d: %d values in use, want %d", i, len(live), len(want))
		}
		for _, o := range want {
			if !live[o] {
				t.Fatalf("env %d: %s is not in use", i, o.Name)
			}
		}
	}
	if _, ok := envs[0].Lookup("x0"); ok {
		t.Fatal("binding changed the base environment")
	}
}

// A repeated REPL `let` binds one name in an environment that holds the
// prelude's ~700: it must not copy them all.
func BenchmarkBindValue(b *testing.B) {
	env := types.NewEnv()
	i32 := types.Prim{T: core.I32}
	for i := 0; b.Loop(); i++ {
		env = env.BindValue(fmt.Sprintf("z%d", i%8), i32)
		_ = env.ValuesInUse()
	}
}
