package syntax

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/arepl/arepl/lang/source"
)

var update = flag.Bool("update", false, "rewrite the expected results in testdata/*.txt")

// A case file holds cases separated by blank lines. A case is one or more
// lines of REPL input followed by one expectation line:
//
//	=> DUMP     ParseInput succeeds; declarations are joined with " ; "
//	!> ERROR    ParseInput fails with this error and the input is complete
//	?> ERROR    ParseInput fails with this error and IsIncomplete is true
//
// Lines starting with # are comments. With -update the expectation lines
// are rewritten from what the parser does now.
type parseCase struct {
	line  int // of the first input line
	input string
	want  string // the whole expectation line
}

func readCases(t testing.TB, path string) (cases []parseCase, lines []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	var cur []string
	start := 0
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "#") && len(cur) == 0:
		case strings.HasPrefix(l, "=> ") || strings.HasPrefix(l, "!> ") || strings.HasPrefix(l, "?> "):
			if len(cur) == 0 {
				t.Fatalf("%s:%d: expectation with no input", path, i+1)
			}
			cases = append(cases, parseCase{line: start + 1, input: strings.Join(cur, "\n"), want: l})
			cur = nil
		case l == "" && len(cur) == 0:
		default:
			if len(cur) == 0 {
				start = i
			}
			cur = append(cur, l)
		}
	}
	if len(cur) > 0 {
		t.Fatalf("%s:%d: input with no expectation", path, start+1)
	}
	return cases, lines
}

// outcome describes what ParseInput does with input, in the form of an
// expectation line.
func outcome(input string) string {
	in, err := ParseInput(source.NewFile("<in>", input))
	if err != nil {
		if IsIncomplete(err) {
			return "?> " + err.Error()
		}
		return "!> " + err.Error()
	}
	if in.Expr != nil {
		if in.Decls != nil {
			return "!> both Decls and Expr set"
		}
		return "=> " + Dump(in.Expr)
	}
	parts := make([]string, len(in.Decls))
	for i, d := range in.Decls {
		parts[i] = Dump(d)
	}
	return "=> " + strings.Join(parts, " ; ")
}

func TestCases(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files: %v", err)
	}
	for _, path := range files {
		cases, lines := readCases(t, path)
		changed := false
		for _, c := range cases {
			got := outcome(c.input)
			if got == c.want {
				continue
			}
			if *update {
				for i := c.line - 1; i < len(lines); i++ {
					if lines[i] == c.want {
						lines[i] = got
						break
					}
				}
				changed = true
				continue
			}
			t.Errorf("%s:%d: %s\n got: %s\nwant: %s", path, c.line, c.input, got, c.want)
		}
		if changed {
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSharedPeekingLexer checks the layout mirror lexerAt uses to share
// the token list with participle (the fast path must be on with the
// participle version in go.mod), and that the shared lexer reads the same
// tokens as lexer.Upgrade's copy.
func TestSharedPeekingLexer(t *testing.T) {
	if !peekingLayoutOK {
		t.Fatal("lexer.PeekingLexer's layout differs from peekingLexer's: update the mirror in parse.go")
	}
	p := getParser(source.NewFile("t.fut", "def main (xs: []i32) = map (\\x -> x + 1) xs -- c\n"))
	defer putParser(p)
	shared := p.lexerAt()
	copied, err := lexer.Upgrade(&sliceLexer{toks: p.toks})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		a, b := shared.Next(), copied.Next()
		if *a != *b {
			t.Fatalf("token %d: shared %v, copied %v", i, *a, *b)
		}
		if a.EOF() {
			break
		}
	}
}
