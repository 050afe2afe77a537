package lower_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/lower"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// A test file in testdata/ is a Futhark file whose declarations are
// checked first, followed by directives in comments, run in order:
//
//	-- value: NAME = EXPR   evaluate nothing, but bind NAME as a session
//	                        value of EXPR's type (it becomes a parameter)
//	-- def: DECL            check one more declaration (after session values)
//	-- lower: EXPR          lower EXPR; print the program, or the error
//
// The printed programs of every directive of NAME.fut are compared with
// NAME.golden. Every program that lowers must pass core.Verify.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.fut")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".fut")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := runFile(t, filepath.Base(path), string(text))
			golden := strings.TrimSuffix(path, ".fut") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update after checking):\n%s", golden, diff(string(want), got))
			}
		})
	}
}

// runFile checks the declarations of a test file and runs its directives.
func runFile(t *testing.T, name, text string) string {
	t.Helper()
	file := source.NewFile(name, text)
	f, err := syntax.ParseFile(file)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	env, _, err := types.NewEnv().CheckDecls(file, f.Decls)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	var out strings.Builder
	for i, line := range strings.Split(text, "\n") {
		directive, arg, ok := strings.Cut(strings.TrimPrefix(line, "-- "), ": ")
		if !ok || !strings.HasPrefix(line, "-- ") {
			continue
		}
		src := source.NewFile(fmt.Sprintf("%s:%d", name, i+1), arg)
		switch directive {
		case "value":
			vname, expr, ok := strings.Cut(arg, " = ")
			if !ok {
				t.Fatalf("line %d: want `-- value: NAME = EXPR`", i+1)
			}
			src = source.NewFile(src.Name, expr)
			x, err := syntax.ParseExpr(src)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			typ, _, err := env.CheckExpr(src, x)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			env = env.BindValue(strings.TrimSpace(vname), typ)
		case "def":
			df, err := syntax.ParseFile(src)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			if env, _, err = env.CheckDecls(src, df.Decls); err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
		case "lower":
			fmt.Fprintf(&out, "-- lower: %s\n%s\n", arg, lowerOne(t, env, src))
		}
	}
	return out.String()
}

// lowerOne lowers one expression and renders the result or the error.
func lowerOne(t *testing.T, env *types.Env, src *source.File) string {
	t.Helper()
	x, err := syntax.ParseExpr(src)
	if err != nil {
		t.Fatalf("%s: %v", src.Name, err)
	}
	_, info, err := env.CheckExpr(src, x)
	if err != nil {
		t.Fatalf("%s: %v", src.Name, err)
	}
	prog, params, err := lower.Expr(env, x, info)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	if err := core.Verify(prog); err != nil {
		t.Errorf("%s: %s does not verify: %v\n%s", src.Name, src.Text, err, core.Print(prog))
	}
	if s := missingPos(prog); s != "" {
		t.Errorf("%s: %s: statement without a position: %s", src.Name, src.Text, s)
	}
	var b strings.Builder
	for _, p := range params {
		fmt.Fprintf(&b, "-- param %s: %s -> %v\n", p.Name, p.Type, lower.Flatten(p.Type))
	}
	b.WriteString(core.Print(prog))
	return b.String()
}

// diff shows the first differing line of two texts with some context.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n want: %s\n  got: %s", i+1, wl, gl)
		}
	}
	return "(no difference)"
}

// TestFlatten pins the tuple-of-arrays representation that the session and
// the backends rely on to split and reassemble values.
func TestFlatten(t *testing.T) {
	i32, f32 := types.Prim{T: core.I32}, types.Prim{T: core.F32}
	dims := []types.Dim{types.AnyDim}
	cases := []struct {
		t    types.Type
		want string
	}{
		{i32, "[i32]"},
		{&types.Tuple{}, "[]"},
		{&types.Tuple{Elems: []types.Type{i32, &types.Tuple{Elems: []types.Type{f32, i32}}}}, "[i32 f32 i32]"},
		{&types.Array{Elem: i32, Dims: []types.Dim{types.AnyDim, {Name: "n"}}}, "[[][]i32]"},
		{&types.Array{Elem: &types.Tuple{Elems: []types.Type{i32, f32}}, Dims: dims}, "[[]i32 []f32]"},
		{&types.Array{Elem: &types.Tuple{Elems: []types.Type{i32, &types.Array{Elem: f32, Dims: dims}}}, Dims: dims}, "[[]i32 [][]f32]"},
		{&types.Arrow{Param: i32, Ret: i32}, "[]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(lower.Flatten(c.t)); got != c.want {
			t.Errorf("Flatten(%s) = %s, want %s", c.t, got, c.want)
		}
	}
}

// TestPrograms lowers every entry point of the repository's .fut programs
// (testdata/, examples/, other packages' testdata), applied to session values
// of its parameter types, and verifies the result. Programs that do not
// parse or check are error tests of earlier stages and are left out.
func TestPrograms(t *testing.T) {
	var paths []string
	filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != "../.." {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".fut") {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Fatal("found no test programs in the repository")
	}
	lowered := 0
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		file := source.NewFile(p, string(text))
		f, err := syntax.ParseFile(file)
		if err != nil {
			continue
		}
		env, _, err := types.NewEnv().CheckDecls(file, f.Decls)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			vd, ok := d.(*syntax.ValDecl)
			if !ok || vd.Kind != syntax.KindEntry {
				continue
			}
			obj, ok := env.Lookup(vd.Name)
			if !ok {
				t.Errorf("%s: entry %s not in the environment", p, vd.Name)
				continue
			}
			call := vd.Name
			e := env
			typ := obj.Type
			for i := 0; ; i++ {
				a, ok := typ.(*types.Arrow)
				if !ok {
					break
				}
				arg := fmt.Sprintf("arg_%d", i)
				e = e.BindValue(arg, a.Param)
				call += " " + arg
				typ = a.Ret
			}
			src := source.NewFile(p+":"+vd.Name, call)
			x, err := syntax.ParseExpr(src)
			if err != nil {
				t.Errorf("%s: %v", src.Name, err)
				continue
			}
			_, info, err := e.CheckExpr(src, x)
			if err != nil {
				t.Errorf("%s: %v", src.Name, err)
				continue
			}
			prog, _, err := lower.Expr(e, x, info)
			if err != nil {
				t.Errorf("%s: %v", src.Name, err)
				continue
			}
			if err := core.Verify(prog); err != nil {
				t.Errorf("%s: does not verify: %v\n%s", src.Name, err, core.Print(prog))
				continue
			}
			if s := missingPos(prog); s != "" {
				t.Errorf("%s: statement without a position: %s", src.Name, s)
			}
			lowered++
		}
	}
	t.Logf("lowered and verified %d entry points of %d programs", lowered, len(paths))
}

// TestModuleFuns lowers every numeric-module function and constant the
// checker knows, applied to session values of its parameter types, so no
// entry of the checker's tables is missing from lowering's.
func TestModuleFuns(t *testing.T) {
	base := types.NewEnv()
	n := 0
	for _, obj := range base.Objects() {
		if obj.Kind != types.ModuleFun {
			continue
		}
		env, call := base, obj.Name
		if op := call[strings.IndexByte(call, '.')+1:]; !isIdent(op) {
			call = "(" + call + ")" // an operator: use it as a section
		}
		typ := obj.Type
		for i := 0; ; i++ {
			a, ok := typ.(*types.Arrow)
			if !ok {
				break
			}
			arg := fmt.Sprintf("arg_%d", i)
			env = env.BindValue(arg, a.Param)
			call += " " + arg
			typ = a.Ret
		}
		src := source.NewFile(obj.Name, call)
		x, err := syntax.ParseExpr(src)
		if err != nil {
			t.Errorf("%s: %v", call, err)
			continue
		}
		_, info, err := env.CheckExpr(src, x)
		if err != nil {
			t.Errorf("%s: %v", call, err)
			continue
		}
		prog, _, err := lower.Expr(env, x, info)
		if err != nil {
			t.Errorf("%s: %v", call, err)
			continue
		}
		if err := core.Verify(prog); err != nil {
			t.Errorf("%s: does not verify: %v\n%s", call, err, core.Print(prog))
			continue
		}
		n++
	}
	if n == 0 {
		t.Fatal("no module functions in the environment")
	}
}

func isIdent(s string) bool {
	for _, r := range s {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// missingPos returns the first statement of prog without a source
// position: every statement must name where it came from, so that run-time
// errors can.
func missingPos(prog *core.Program) string {
	var inBody func(b *core.Body) string
	inLambda := func(ls ...*core.Lambda) string {
		for _, l := range ls {
			if l != nil {
				if s := inBody(l.Body); s != "" {
					return s
				}
			}
		}
		return ""
	}
	inBody = func(b *core.Body) string {
		if b == nil {
			return ""
		}
		for _, s := range b.Stmts {
			if !s.Pos.IsValid() {
				return core.PrintStmt(s)
			}
			var sub string
			switch e := s.Exp.(type) {
			case *core.IfExp:
				sub = inBody(e.Then) + inBody(e.Else)
			case *core.LoopExp:
				sub = inBody(e.Body)
			case *core.Screma:
				sub = inLambda(e.Map, e.Post)
				for _, op := range e.Scans {
					sub += inLambda(op.Lambda)
				}
				for _, op := range e.Reds {
					sub += inLambda(op.Lambda)
				}
			case *core.Hist:
				sub = inLambda(e.Map)
				for _, op := range e.Ops {
					sub += inLambda(op.Lambda)
				}
			case *core.Scatter:
				sub = inLambda(e.Map)
			case *core.Filter:
				sub = inLambda(e.Map, e.Pred)
			case *core.MultiScan:
				sub = inLambda(e.Op.Lambda)
			}
			if sub != "" {
				return sub
			}
		}
		return ""
	}
	for _, f := range prog.Funs {
		if s := inBody(f.Body); s != "" {
			return s
		}
	}
	return ""
}
