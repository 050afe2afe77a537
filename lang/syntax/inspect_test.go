package syntax

import (
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/source"
)

// TestInspectReachesEveryVar parses an expression that puts the variable v
// inside every expression form and checks that Inspect visits each of its
// occurrences: a form whose case is missing hides the v's inside it.
func TestInspectReachesEveryVar(t *testing.T) {
	src := `(v, (v), [v], v.0, v[v], v[v:v:v], f v, v + v, -v, !v, (v +), (+ v), (v : i32),
	  if v then v else v, let a = v in v, let g x = v in v, let a[v] = v in v, v with [v] = v,
	  \x -> v, loop a = v for i < v do v, loop a = v for x in v do v, loop a = v while v do v,
	  v..v...v, {a = v}, assert v v, #some v, match v case #some x -> v case #none -> v,
	  (.[v]))`
	e, err := ParseExpr(source.NewFile("inspect.fut", src))
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	Inspect(e, func(x Expr) bool {
		if v, ok := x.(*Var); ok && v.Name == "v" {
			got++
		}
		return true
	})
	want := 0
	for _, f := range strings.FieldsFunc(src, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) {
		if f == "v" {
			want++
		}
	}
	// A match is walked through the expression it is written as, which
	// names its scrutinee once per case that tests it.
	if got < want {
		t.Errorf("Inspect visited %d occurrences of v, want at least %d", got, want)
	}
}
