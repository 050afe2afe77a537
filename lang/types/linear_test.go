package types_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// arrayLiteral is "[0, 1, ..., n-1]".
func arrayLiteral(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString("]")
	return b.String()
}

// TestLongLiteralLinear checks a 50,000-element literal in well under a
// second (parsing excluded): each element's literal type variable is unified with the
// previous ones, and without path compression the chains of variables made
// checking quadratic (issue 14, item 13: 9.5 s). The bound is generous for
// a loaded machine but far below quadratic time.
func TestLongLiteralLinear(t *testing.T) {
	src := source.NewFile("expr", arrayLiteral(50000))
	x, err := syntax.ParseExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	typ, _, err := types.NewEnv().CheckExpr(src, x)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("checking a 50,000-element literal took %v", d)
	}
	if got := typ.String(); got != "[50000]i32" {
		t.Errorf("type %s", got)
	}
}

func BenchmarkLongLiteral(b *testing.B) {
	for _, n := range []int{10000, 50000} {
		src := source.NewFile("expr", arrayLiteral(n))
		x, err := syntax.ParseExpr(src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := types.NewEnv().CheckExpr(src, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
