package syntax

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/source"
)

// TestFiles parses testdata/files/*.fut with ParseFile and compares with
// the .golden file beside it: the dump and doc of each declaration, or the
// errors with their quoted source lines. -update rewrites the golden files.
func TestFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/files/*.fut")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, path := range files {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := fileOutcome(path, string(text))
		golden := strings.TrimSuffix(path, ".fut") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s: got\n%s\nwant\n%s", path, got, want)
		}
	}
}

func fileOutcome(path, text string) string {
	f, err := ParseFile(source.NewFile(filepath.Base(path), text))
	if err != nil {
		return "error:\n" + source.Detail(err) + "\n"
	}
	var b strings.Builder
	for _, d := range f.Decls {
		fmt.Fprintf(&b, "%s\n", Dump(d))
		if vd, ok := d.(*ValDecl); ok && vd.Doc != "" {
			fmt.Fprintf(&b, "  doc: %q\n", vd.Doc)
		}
	}
	return b.String()
}

// TestSpans checks the positions recorded on nodes: start and end of the
// whole expression and of selected sub-nodes.
func TestSpans(t *testing.T) {
	tests := []struct {
		src  string
		pick func(Expr) Node
		want string // start-end as line:col-line:col
	}{
		{"1 + 2", func(e Expr) Node { return e }, "1:1-1:6"},
		{"1 + 2", func(e Expr) Node { return e.(*BinOp).Rhs }, "1:5-1:6"},
		{"f a[i]", func(e Expr) Node { return e.(*Apply).Args[0] }, "1:3-1:7"},
		{"x.0.1", func(e Expr) Node { return e.(*Project).X }, "1:1-1:4"},
		{"  (a, b)", func(e Expr) Node { return e }, "1:3-1:9"},
		{"if c\nthen a\nelse bb", func(e Expr) Node { return e }, "1:1-3:8"},
		{"let x = 1\nin x", func(e Expr) Node { return e.(*LetIn).Pat }, "1:5-1:6"},
		{"let (x: i32) = 1 in x", func(e Expr) Node { return e.(*LetIn).Pat }, "1:5-1:13"},
		{"\\x -> x + 1", func(e Expr) Node { return e.(*Lambda).Body }, "1:7-1:12"},
		{"loop s = 0 for i < n do s", func(e Expr) Node { return e.(*Loop).Form }, "1:12-1:21"},
		{"a[1:2]", func(e Expr) Node { return e.(*Index).Indices[0] }, "1:3-1:6"},
		{"(e : [n]i32)", func(e Expr) Node { return e.(*ParenExpr).X.(*Ascribe).Type }, "1:6-1:12"},
		{"-x", func(e Expr) Node { return e }, "1:1-1:3"},
		{"(+)", func(e Expr) Node { return e }, "1:1-1:4"},
	}
	for _, tt := range tests {
		e, err := ParseExpr(source.NewFile("t", tt.src))
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		sp := tt.pick(e).Span()
		got := fmt.Sprintf("%d:%d-%d:%d", sp.Start.Line, sp.Start.Col, sp.End.Line, sp.End.Col)
		if got != tt.want || sp.Start.File != "t" {
			t.Errorf("%q: span %s in %q, want %s", tt.src, got, sp.Start.File, tt.want)
		}
	}
}

func TestDeclPositions(t *testing.T) {
	f, err := ParseFile(source.NewFile("p.fut", "\ndef  f [n] (x: [n]i32) = x\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := f.Decls[0].(*ValDecl)
	if got := d.NamePos.String(); got != "p.fut:2:6" {
		t.Errorf("NamePos = %s", got)
	}
	if got := d.SizeParams[0].Pos().String(); got != "p.fut:2:8" {
		t.Errorf("size param at %s", got)
	}
	if got := d.Pos().String(); got != "p.fut:2:1" {
		t.Errorf("decl at %s", got)
	}
}

func TestParseExprRejectsTrailing(t *testing.T) {
	for _, src := range []string{"1 2 )", "def x = 1", "x in y", ""} {
		if _, err := ParseExpr(source.NewFile("t", src)); err == nil {
			t.Errorf("ParseExpr(%q) succeeded", src)
		}
	}
}

func TestErrorsArePositionedLists(t *testing.T) {
	_, err := ParseFile(source.NewFile("e.fut", "def x =\n  if c then\n"))
	var list source.ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("error %v is not a one-element source.ErrorList", err)
	}
	e := list[0]
	if e.Pos.String() != "e.fut:3:1" || e.Msg != `unexpected end of input, expected expression` {
		t.Errorf("got %s", e)
	}
	if !IsIncomplete(err) {
		t.Errorf("IsIncomplete(%v) = false", err)
	}
	if IsIncomplete(errors.New("unexpected end of input")) {
		t.Errorf("IsIncomplete accepts a plain error")
	}
	if IsIncomplete(nil) {
		t.Errorf("IsIncomplete(nil)")
	}
}

func TestDetailQuotesLine(t *testing.T) {
	_, err := ParseExpr(source.NewFile("d", "let x = 1 +\n  * 2 in x"))
	want := "d:2:3: unexpected \"*\", expected expression\n  |   * 2 in x\n  |   ^"
	if got := source.Detail(err); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDeepNesting checks that pathological nesting is an error, not a
// stack overflow.
func TestDeepNesting(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 5000),
		strings.Repeat("[", 5000),
		strings.Repeat("- ", 5000) + "1",
		strings.Repeat("\\x -> ", 5000) + "x",
		strings.Repeat("if c then 1 else ", 5000) + "2",
		strings.Repeat("let x = ", 5000) + "1",
		"def f " + strings.Repeat("(", 5000),
		"def f (x: " + strings.Repeat("[]", 5000) + "i32) = x",
		strings.Repeat("1 <| ", 5000) + "1",
	} {
		_, err := ParseInput(source.NewFile("deep", src))
		if err == nil {
			t.Errorf("%.20s...: no error", src)
			continue
		}
		if !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("%.20s...: %v", src, err)
		}
	}
}

func TestNestingWithinLimit(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 900) + "1" + strings.Repeat(")", 900),
		strings.Repeat("let x = 1\n", 900) + "in x",
		strings.Repeat("- ", 900) + "1",
		strings.Repeat("1 <| ", 400) + "1",
	} {
		if _, err := ParseExpr(source.NewFile("n", src)); err != nil {
			t.Errorf("%.20s: %v", src, err)
		}
	}
}

// TestSequentialLets checks that lets in sequence are not nesting: a
// function body of 5,000 lets parses, with or without `in` between them,
// nested inside the real-nesting limit; a longer chain than maxLets gets
// its own error.
func TestSequentialLets(t *testing.T) {
	chain := func(sep string) string {
		var b strings.Builder
		b.WriteString("def f (x: i32) : i32 =")
		for i := range 5000 {
			fmt.Fprintf(&b, "\n  let x = x + %d%s", i, sep)
		}
		return b.String() + "\n  in x"
	}
	for _, src := range []string{
		chain(""),
		chain(" in")[:len(chain(" in"))-len("\n  in x")-len(" in")] + "\n  in x",
		"def f (x: i32) : i32 = " + strings.Repeat("(", 900) + strings.Repeat("let y = x in ", 5000) + "y" + strings.Repeat(")", 900),
	} {
		if _, err := ParseInput(source.NewFile("lets", src)); err != nil {
			t.Errorf("%.30q...: %v", src, err)
		}
	}
	defer func(n int) { maxLets = n }(maxLets)
	maxLets = 100
	_, err := ParseInput(source.NewFile("lets", "def f = "+strings.Repeat("let x = 1 ", maxLets+1)+"in x"))
	if err == nil || !strings.Contains(err.Error(), "too many lets in sequence (more than 100)") {
		t.Errorf("a chain of %d lets: %v", maxLets+1, err)
	}
	if _, err := ParseInput(source.NewFile("lets", "def f = "+strings.Repeat("let x = 1 ", maxLets)+"in x")); err != nil {
		t.Errorf("a chain of %d lets: %v", maxLets, err)
	}
}

func TestInputExclusive(t *testing.T) {
	for _, src := range []string{"", "-- a comment", "def x = 1", "let x = 1", "let x = 1 in x", "1 + 2", "def a = 1\ndef b = 2"} {
		in, err := ParseInput(source.NewFile("i", src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if (in.Expr == nil) == (in.Decls == nil) {
			t.Errorf("%q: Expr %v, Decls %v: exactly one must be set", src, in.Expr, in.Decls)
		}
	}
}

// TestConcurrent runs parses in parallel; the parser pool must not share
// state between them (run with -race).
func TestConcurrent(t *testing.T) {
	done := make(chan string)
	for i := range 8 {
		go func() {
			src := fmt.Sprintf("let x = %d in x + [1, 2][0]", i)
			e, err := ParseExpr(source.NewFile("c", src))
			if err != nil {
				done <- err.Error()
				return
			}
			done <- Dump(e)
		}()
	}
	for range 8 {
		if got := <-done; !strings.HasPrefix(got, "(let x (int ") {
			t.Errorf("got %s", got)
		}
	}
}

// TestAllSpans checks, for every test program and case, that each node's
// span lies inside its parent's.
func TestAllSpans(t *testing.T) {
	files, _ := filepath.Glob("testdata/files/*.fut")
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ParseFile(source.NewFile(path, string(b)))
		checkResult(t, string(b), f, err)
	}
	cases, _ := filepath.Glob("testdata/*.txt")
	for _, path := range cases {
		cs, _ := readCases(t, path)
		for _, c := range cs {
			in, err := ParseInput(source.NewFile("c", c.input))
			if err != nil {
				checkResult(t, c.input, nil, err)
				continue
			}
			checkResult(t, c.input, in.Expr, nil)
			for _, d := range in.Decls {
				checkResult(t, c.input, d, nil)
			}
		}
	}
}

func TestNilFile(t *testing.T) {
	if _, err := ParseFile(nil); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("ParseFile(nil) = %v", err)
	}
}
