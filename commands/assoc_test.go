package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/backends"
)

// countingSession counts the evaluations the operator checks make.
type countingSession struct {
	*eval.Session
	evals int
}

func (c *countingSession) Eval(ctx context.Context, name, src string) (*eval.Result, error) {
	c.evals++
	return c.Session.Eval(ctx, name, src)
}

// TestBuiltinOperatorChecksOnce: a reduce or scan whose operator is a
// builtin operator's section and whose neutral element is a literal is
// checked once per process, and warns every time it should; any other
// operator is checked every time, since what its names mean can change
// (issue 16: the check cost a notebook cell more than its evaluation). An
// input made only of remembered applications is remembered whole.
func TestBuiltinOperatorChecksOnce(t *testing.T) {
	s := &countingSession{Session: backends.NewSession(eval.Options{Backend: "cpu"})}
	ctx := context.Background()
	if _, err := s.Session.Eval(ctx, "d", "def sub (a: i32) (b: i32) : i32 = a - b"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src      string
		warns    string // a substring of the warnings, "" for none
		memoised bool
	}{
		{"reduce (-) 0 [1, 2, 3]", "(-) is not associative", true},
		{"scan (+) 0i64 [1, 2, 3]", "", true},
		{"reduce (*) 2 [1, 2, 3]", "2 is not neutral", true},
		{"reduce (-) (-0) [1, 2, 3]", "(-) is not associative", true},
		{"reduce sub 0 [1, 2, 3]", "sub is not associative", false},
		{"reduce (\\a b -> a - b) 0 [1, 2, 3]", "not associative", false},
		{"let z = 0 in reduce (+) z [1, 2, 3]", "", false},
	} {
		for i := range 3 {
			s.evals = 0
			w := strings.Join(OperatorWarnings(ctx, s, tc.src), "\n")
			if tc.warns == "" && w != "" || !strings.Contains(w, tc.warns) {
				t.Errorf("%s (time %d): warnings %q, want %q", tc.src, i+1, w, tc.warns)
			}
			if i > 0 && tc.memoised && s.evals != 0 {
				t.Errorf("%s (time %d): checked again (%d evaluations)", tc.src, i+1, s.evals)
			}
			if !tc.memoised && s.evals == 0 && tc.warns != "" {
				t.Errorf("%s (time %d): not checked", tc.src, i+1)
			}
		}
	}
	// A repeated input whose applications are all remembered is not even
	// parsed again: parsing it allocates dozens of times.
	src := "reduce (+) 0 (map (\\x -> x*7+1) (scan (*) 1 [1, 2, 3]))"
	OperatorWarnings(ctx, s, src)
	if a := testing.AllocsPerRun(20, func() { OperatorWarnings(ctx, s, src) }); a > 2 {
		t.Errorf("%s repeated: %v allocations, want at most 2 (parsed again?)", src, a)
	}
}
