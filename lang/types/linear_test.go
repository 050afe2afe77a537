package types_test

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

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

// TestLongLiteralLinear checks that checking a long literal takes memory
// linear in its length (without path compression the chains of literal
// type variables made checking quadratic: issue 14, item 13, 9.5 s for
// 50,000 elements). It bounds work by allocation, not wall time, which a
// loaded machine makes flaky: doubling the literal must about double the
// bytes allocated. BenchmarkLongLiteral has the times.
func TestLongLiteralLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		src := source.NewFile("expr", arrayLiteral(n))
		x, err := syntax.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		typ, _, err := types.NewEnv().CheckExpr(src, x)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := typ.String(), "["+strconv.Itoa(n)+"]i32"; got != want {
			t.Errorf("type %s, want %s", got, want)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(25000), alloc(50000)
	if ratio := float64(large) / float64(small); ratio > 2.6 {
		t.Errorf("checking 25,000 elements allocates %d bytes, 50,000 elements %d: ratio %.2f, want about 2 (linear)", small, large, ratio)
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
