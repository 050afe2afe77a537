package lower_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/lower"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// FuzzLower lowers every expression that parses and checks (with a few
// session values in scope): lowering must not report an internal error,
// and what it produces must verify. The seeds are the expressions of the
// golden tests.
func FuzzLower(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.fut")
	for _, p := range files {
		text, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(text), "\n") {
			if e, ok := strings.CutPrefix(line, "-- lower: "); ok {
				f.Add(e)
			}
		}
	}
	env := types.NewEnv()
	for _, v := range []struct{ name, expr string }{
		{"xs", "[1i32, 2, 3]"}, {"ys", "[1f32, 2, 3]"}, {"m", "[[1i64, 2], [3, 4]]"}, {"k", "5i32"},
	} {
		src := source.NewFile(v.name, v.expr)
		x, err := syntax.ParseExpr(src)
		if err != nil {
			f.Fatal(err)
		}
		t, _, err := env.CheckExpr(src, x)
		if err != nil {
			f.Fatal(err)
		}
		env = env.BindValue(v.name, t)
	}
	f.Fuzz(func(t *testing.T, text string) {
		src := source.NewFile("fuzz", text)
		x, err := syntax.ParseExpr(src)
		if err != nil {
			return
		}
		_, info, err := env.CheckExpr(src, x)
		if err != nil {
			return
		}
		prog, _, err := lower.Expr(env, x, info)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%q: %v", text, err)
			}
			return
		}
		if err := core.Verify(prog); err != nil {
			t.Fatalf("%q does not verify: %v\n%s", text, err, core.Print(prog))
		}
	})
}
