package syntax

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/lang/source"
)

// The checks run on a goroutine of their own (see the timeout in
// FuzzParse), so they report with Errorf, never FailNow.

// FuzzParse feeds mutated programs to ParseFile, ParseInput and ParseExpr.
// None may panic or report an internal error (a recovered panic or a
// grammar struct the conversion did not expect), every error must be a
// source.ErrorList whose positions lie in the input, and every node of a
// successful parse must have a span inside the input. Crashers that the
// fuzzer finds stay in testdata/fuzz/FuzzParse and replay on go test.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/files/*.fut")
	for _, path := range seeds {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{
		"def f [n] (xs: [n]i32) : [n]i32 = map (\\x -> x + 1) xs",
		"let a[i] = v in a with [j] = 2",
		"loop (x, y) = (0, 1) for i < n do (y, x + y)",
		"(+) (.0) (*2) (2-) (i32.+) x.0.1 a[1:2:3] f a [i] -1 0x1.8p1f32",
		"if c then a else b : i32 |> f <| g",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// A parse that runs away (exponential backtracking, a loop that
		// does not advance) fails here with its input rather than hanging
		// the fuzzer.
		done := make(chan struct{})
		go func() {
			defer close(done)
			parseAll(t, src)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("parsing %q took more than 5s", src)
		}
	})
}

func parseAll(t *testing.T, src string) {
	{
		file := source.NewFile("fuzz.fut", src)
		fl, err := ParseFile(file)
		checkResult(t, src, fl, err)
		in, err := ParseInput(file)
		if err == nil && (in.Expr == nil) == (in.Decls == nil) {
			t.Errorf("ParseInput(%q): exactly one of Expr and Decls must be set", src)
		}
		if err == nil && in.Expr != nil {
			checkResult(t, src, in.Expr, nil)
		}
		checkResult(t, src, nil, err)
		e, err := ParseExpr(file)
		checkResult(t, src, e, err)
	}
}

func checkResult(t *testing.T, src string, n Node, err error) {
	t.Helper()
	lines := strings.Count(src, "\n") + 1
	if err != nil {
		var list source.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%q: error %v is not a source.ErrorList", src, err)
			return
		}
		for _, e := range list {
			if strings.Contains(e.Msg, "internal error") {
				t.Errorf("%q: %v", src, e)
			}
			if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
				t.Errorf("%q: error position %v outside the input", src, e.Pos)
			}
		}
		return
	}
	if n == nil || isNil(n) {
		return
	}
	_ = Dump(n)
	sp := n.Span()
	if !sp.Start.IsValid() || sp.End.Before(sp.Start) || sp.End.Line > lines {
		t.Errorf("%q: bad span %v-%v for %s", src, sp.Start, sp.End, Dump(n))
	}
}
