// Package futtest reads the test blocks of Futhark programs and runs them
// through an eval.Session: it is `arepl test`, and the Go test that runs
// the whole corpus (testdata/ and examples/) fused and unfused.
//
// The format is Futhark's (futhark test). A test block is a run of comment
// lines that starts with `-- ==`; the comment lines just above it are its
// description. Inside a block, after the leading `--` of each line is
// removed, the text is a sequence of items:
//
//	tags { name ... }                  block tags (disable and notest skip the program)
//	entry: name ...                    the entry points the cases apply to (default main)
//	error: regex                       as the first item: the program must fail to load
//	["desc"] {tag} input { values }    a case, followed by one of
//	    output { values }                the expected results
//	    error: regex                     an expected run-time error (regex to end of line)
//	    auto output                      the results of the reference: the CPU
//	                                     interpreter without fusion
//	    (nothing)                        the call must merely succeed
//	structure [pipeline] { Op n ... }  Futhark's IR checks (skipped with a note)
//	warning: regex                     (skipped with a note)
//	plan { redomap 1 scanomap 0 ... }  arepl's fusion-plan check (see Options.PlanCheck)
//
// `input @ file` and `output @ file` read values from a file beside the
// program (text or binary, maybe gzipped; data.go); `script input { e }`
// runs the FutharkScript expression e for the input (script.go); `random
// input { [n]t ... }` generates values of those types; compiled cases run
// like others; `property:` lines are skipped with a note. A regex is
// searched for anywhere in the error text (Go regexp syntax, which agrees
// with Futhark's POSIX regexes on the patterns tests use, in multiline
// mode as Futhark's); an empty regex accepts any error. A run-time
// error's text is arepl's report followed by the report of a program
// Futhark compiled (`Error: message` and a backtrace; runtimeErrorText).
// A load error's regex ignores case (Expect.MatchesLoad). A file may hold several blocks, typically one per
// entry point.
//
// Run gives every file a fresh session and loads it once. A file without
// blocks must load (one passed case); a file that fails to load when no
// block expects it counts as one failure, as does a malformed block.
// Plans are checked only when fusion is on.
//
// Values are read with eval.ReadValues against the entry point's parameter
// and result types, and compared as `futhark test` does: integers and
// booleans exactly, floats within Futhark's tolerance (compare.go), shapes
// exactly.
package futtest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/arepl/arepl/lang/source"
)

// Spec is everything the test blocks of one file ask for.
type Spec struct {
	Path   string
	Blocks []*Block
}

// Block is one `-- ==` block.
type Block struct {
	Line    int      // line of the `-- ==`
	Entries []string // entry points its cases apply to
	// LoadError, when set, says the program must fail to load with an error
	// matching it; such a block has no cases.
	LoadError *Expect
	Cases     []*Case
	// Plan holds the kind counts of a `plan { ... }` item (nil when absent).
	Plan     map[string]int
	PlanLine int
	// Skipped lists items that are not run (structure, warning, property),
	// each with its line, for the report's notes.
	Skipped []Skip
	// Disabled is the tag (disable or notest) that makes futhark test
	// ignore the whole program, or "".
	Disabled string
}

// Case is one input with its expectation.
type Case struct {
	Line   int    // line of the `input` keyword
	Index  int    // position among the block's cases, from 0
	Name   string // the optional quoted description
	Input  string // the value text between the braces
	Output string // the expected values' text (HasOutput tells whether there is one)
	// HasOutput is set by `output { ... }`.
	HasOutput bool
	// Error is set by `error: regex`.
	Error *Expect
	// Skip, when not empty, says why the case is not run.
	Skip string
	// Auto is set by `auto output`: the expected results are those of
	// the reference implementation, the CPU interpreter with fusion off
	// (Futhark's reference is its sequential backend).
	Auto bool
	// Random is set by the random tag: Input lists types whose values
	// are generated.
	Random bool
	// Script is set by the script tag: Input is a FutharkScript
	// expression whose value is the input (script.go).
	Script bool
	// InputFile and OutputFile name the files of `input @ file` and
	// `output @ file`, relative to the program's folder (data.go).
	InputFile, OutputFile string
}

// Expect is an expected error: a regex searched for in the error's text.
type Expect struct {
	Text  string // as written; "" accepts any error
	Regex *regexp.Regexp
	// Folded is Regex ignoring case, for load errors (MatchesLoad).
	Folded *regexp.Regexp
}

// Matches reports whether msg satisfies e.
func (e *Expect) Matches(msg string) bool {
	return e.Regex == nil || e.Regex.MatchString(msg)
}

// MatchesLoad reports whether the load error msg satisfies e, ignoring
// case: arepl's checker starts its messages in lower case (`unknown name
// "x"`, `cannot unify ...`) where Futhark's capitalises the first word
// (`Unknown name "x"`, `Cannot unify ...`).
func (e *Expect) MatchesLoad(msg string) bool {
	return e.Folded == nil || e.Folded.MatchString(msg)
}

// Skip is an item that is recognised but not run.
type Skip struct {
	Line int
	What string
}

// Label names a case in messages: `#2 ("name")` or `#2`.
func (c *Case) Label() string {
	if c.Name != "" {
		return fmt.Sprintf("#%d (%q)", c.Index, c.Name)
	}
	return fmt.Sprintf("#%d", c.Index)
}

// Parse reads the test blocks of the program text src from file path. A
// file without blocks gives a Spec with none. Errors are *source.Error
// values naming the line of the malformed item.
func Parse(path, src string) (*Spec, error) {
	spec := &Spec{Path: path}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		if !isBlockStart(lines[i]) {
			continue
		}
		start := i
		// The block is the run of comment lines after `-- ==`.
		var text strings.Builder
		var lineOf []int // lineOf[k]: file line of the k-th line of text
		for i++; i < len(lines) && strings.HasPrefix(lines[i], "--") && !isBlockStart(lines[i]); i++ {
			text.WriteString(strings.TrimRight(lines[i][2:], "\r"))
			text.WriteByte('\n')
			lineOf = append(lineOf, i+1)
		}
		i-- // the outer loop's i++ revisits the line that ended the block
		b, err := parseBlock(path, start+1, text.String(), lineOf)
		if err != nil {
			return nil, err
		}
		spec.Blocks = append(spec.Blocks, b)
	}
	return spec, nil
}

func isBlockStart(line string) bool {
	return strings.TrimRight(line, " \t\r") == "-- =="
}

// scanner walks the text of one block.
type scanner struct {
	path   string
	text   string
	pos    int
	lineOf []int
	first  int // file line of `-- ==`, for a block with no text
}

func (s *scanner) line() int {
	n := strings.Count(s.text[:s.pos], "\n")
	if n < len(s.lineOf) {
		return s.lineOf[n]
	}
	if len(s.lineOf) > 0 {
		return s.lineOf[len(s.lineOf)-1]
	}
	return s.first
}

func (s *scanner) errorf(format string, args ...any) error {
	return &source.Error{Pos: source.Pos{File: s.path, Line: s.line(), Col: 1}, Msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.text) && unicode.IsSpace(rune(s.text[s.pos])) {
		s.pos++
	}
}

func (s *scanner) eof() bool {
	s.skipSpace()
	return s.pos >= len(s.text)
}

// peekWord returns the word at the cursor: letters, digits, '_', '-', and
// a trailing ':' (so `entry:` and `error:` are single words).
func (s *scanner) peekWord() string {
	s.skipSpace()
	j := s.pos
	for j < len(s.text) {
		c := rune(s.text[j])
		if unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || c == '-' {
			j++
			continue
		}
		if c == ':' {
			j++
		}
		break
	}
	return s.text[s.pos:j]
}

func (s *scanner) word() string {
	w := s.peekWord()
	s.pos += len(w)
	return w
}

// restOfLine returns the rest of the current line, trimmed.
func (s *scanner) restOfLine() string {
	j := strings.IndexByte(s.text[s.pos:], '\n')
	if j < 0 {
		j = len(s.text) - s.pos
	}
	r := strings.TrimSpace(s.text[s.pos : s.pos+j])
	s.pos += j
	return r
}

// braced reads `{ ... }` (with nested braces) and returns what is inside.
func (s *scanner) braced(what string) (string, error) {
	s.skipSpace()
	if s.pos >= len(s.text) || s.text[s.pos] != '{' {
		return "", s.errorf("expected { after %s", what)
	}
	depth := 0
	for j := s.pos; j < len(s.text); j++ {
		switch s.text[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				inner := s.text[s.pos+1 : j]
				s.pos = j + 1
				return inner, nil
			}
		}
	}
	return "", s.errorf("unclosed { after %s", what)
}

// fileRef reads `@ path` and returns the path.
func (s *scanner) fileRef() string {
	s.skipSpace()
	s.pos++ // '@'
	s.skipSpace()
	j := s.pos
	for j < len(s.text) && !unicode.IsSpace(rune(s.text[j])) {
		j++
	}
	p := s.text[s.pos:j]
	s.pos = j
	return p
}

func (s *scanner) peekByte() byte {
	s.skipSpace()
	if s.pos < len(s.text) {
		return s.text[s.pos]
	}
	return 0
}

func (s *scanner) expect(rx string) (*Expect, error) {
	if rx == "" {
		return &Expect{}, nil
	}
	// Futhark matches with regex-tdfa's default options, multiline
	// among them: ^ and $ match at line breaks too.
	re, err := regexp.Compile("(?m)" + rx)
	if err != nil {
		return nil, s.errorf("bad error regex %q: %v", rx, err)
	}
	return &Expect{Text: rx, Regex: re, Folded: regexp.MustCompile("(?mi)" + rx)}, nil
}

func parseBlock(path string, line int, text string, lineOf []int) (*Block, error) {
	s := &scanner{path: path, text: text, lineOf: lineOf, first: line}
	b := &Block{Line: line, Entries: []string{"main"}}
	for !s.eof() {
		if s.peekByte() == '"' {
			if err := parseCase(s, b); err != nil {
				return nil, err
			}
			continue
		}
		w := s.peekWord()
		switch w {
		case "tags":
			s.word()
			inner, err := s.braced("tags")
			if err != nil {
				return nil, err
			}
			for _, t := range strings.Fields(inner) {
				if t == "disable" || t == "notest" {
					b.Disabled = t
				}
			}
		case "entry:":
			s.word()
			names := strings.Fields(s.restOfLine())
			if len(names) == 0 {
				return nil, s.errorf("entry: names no entry point")
			}
			b.Entries = names
		case "error:":
			if len(b.Cases) > 0 {
				return nil, s.errorf("error: must follow an input, or open the block for a load error")
			}
			s.word()
			e, err := s.expect(s.restOfLine())
			if err != nil {
				return nil, err
			}
			b.LoadError = e
		case "structure":
			l := s.line()
			s.word()
			if s.peekByte() != '{' {
				s.word() // the pipeline: gpu, mc, seq-mem, ...
			}
			if _, err := s.braced("structure"); err != nil {
				return nil, err
			}
			b.Skipped = append(b.Skipped, Skip{l, "structure block (Futhark's IR checks)"})
		case "plan":
			l := s.line()
			s.word()
			inner, err := s.braced("plan")
			if err != nil {
				return nil, err
			}
			m, err := parseCounts(inner)
			if err != nil {
				return nil, s.errorf("plan: %v", err)
			}
			b.Plan, b.PlanLine = m, l
		case "warning:", "property:":
			l := s.line()
			s.word()
			s.restOfLine()
			b.Skipped = append(b.Skipped, Skip{l, strings.TrimSuffix(w, ":") + " check"})
		default:
			if err := parseCase(s, b); err != nil {
				return nil, err
			}
		}
	}
	if b.LoadError != nil && len(b.Cases) > 0 {
		return nil, &source.Error{Pos: source.Pos{File: path, Line: line, Col: 1},
			Msg: "a block that expects a load error cannot have input cases"}
	}
	return b, nil
}

func parseCase(s *scanner, b *Block) error {
	c := &Case{Index: len(b.Cases)}
	if s.peekByte() == '"' {
		j := strings.IndexByte(s.text[s.pos+1:], '"')
		if j < 0 {
			return s.errorf("unterminated case description")
		}
		name, err := strconv.Unquote(s.text[s.pos : s.pos+j+2])
		if err != nil {
			name = s.text[s.pos+1 : s.pos+j+1]
		}
		c.Name = name
		s.pos += j + 2
	}
	var tags []string
	for {
		w := s.peekWord()
		if w == "" {
			return s.errorf("expected input, entry:, plan or another test item")
		}
		if w == "input" {
			break
		}
		if strings.HasSuffix(w, ":") || len(tags) > 8 {
			return s.errorf("unexpected %q in test block", w)
		}
		tags = append(tags, s.word())
	}
	c.Line = s.line()
	s.word() // input
	if s.peekByte() == '@' {
		c.InputFile = s.fileRef()
	} else {
		in, err := s.braced("input")
		if err != nil {
			return err
		}
		c.Input = in
	}
	for _, t := range tags {
		switch t {
		case "random":
			c.Random = true
		case "script":
			c.Script = true
		}
	}
	if c.Random && c.InputFile != "" {
		return s.errorf("random input cannot come from a file")
	}
	switch s.peekWord() {
	case "output":
		s.word()
		if s.peekByte() == '@' {
			c.OutputFile = s.fileRef()
			c.HasOutput = true
			break
		}
		out, err := s.braced("output")
		if err != nil {
			return err
		}
		c.Output, c.HasOutput = out, true
	case "auto":
		s.word()
		if s.word() != "output" {
			return s.errorf("expected output after auto")
		}
		c.Auto = true
	case "error:":
		s.word()
		e, err := s.expect(s.restOfLine())
		if err != nil {
			return err
		}
		c.Error = e
	}
	b.Cases = append(b.Cases, c)
	return nil
}

// parseCounts reads `name n name n ...`.
func parseCounts(text string) (map[string]int, error) {
	f := strings.Fields(text)
	if len(f)%2 != 0 {
		return nil, fmt.Errorf("want pairs of a kind and a count, got %q", strings.Join(f, " "))
	}
	m := map[string]int{}
	for i := 0; i < len(f); i += 2 {
		n, err := strconv.Atoi(f[i+1])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("count of %s is %q, not a number", f[i], f[i+1])
		}
		m[f[i]] = n
	}
	return m, nil
}
