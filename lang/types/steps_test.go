package types

import (
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// TestSolverStepsLinear bounds the links the solver follows through chains
// of solved variables while checking long inputs: unifying each element of
// a literal (each term of a sum) with the ones before builds such chains,
// and without path compression following them was quadratic in the length
// (issue 14, item 13; issue 17's long programs). Doubling the input must
// about double the count. A count, not a time, so a loaded machine cannot
// make it flaky.
func TestSolverStepsLinear(t *testing.T) {
	for _, c := range []struct {
		name string
		gen  func(n int) string
	}{
		{"array literal", func(n int) string { return "[" + strings.Repeat("1, ", n-1) + "1]" }},
		{"sum", func(n int) string { return strings.Repeat("1 + ", n-1) + "1" }},
		{"array of pairs", func(n int) string { return "[" + strings.Repeat("(1, 2.5), ", n-1) + "(1, 2.5)]" }},
		{"nested arrays", func(n int) string { return "[" + strings.Repeat("[1, 2], ", n-1) + "[1, 2]]" }},
	} {
		small, large := solverSteps(t, c.gen(10000)), solverSteps(t, c.gen(20000))
		if ratio := float64(large) / float64(small); ratio > 2.5 {
			t.Errorf("%s: %d steps for 10,000 elements, %d for 20,000: ratio %.2f, want about 2 (linear)", c.name, small, large, ratio)
		}
	}
}

// solverSteps checks the expression text and returns its solver's steps.
func solverSteps(t *testing.T, text string) int {
	src := source.NewFile("expr", text)
	x, err := syntax.ParseExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	c := newChecker(src, NewEnv())
	c.expr(nil, x, nil)
	s := c.s
	c.finish(c.info.Types[x])
	if err := c.result(); err != nil {
		t.Fatal(err)
	}
	return s.steps
}
