package syntax

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/alecthomas/participle/v2/lexer"
)

// The lexer is participle's regular-expression lexer (rules tried in order,
// first match wins) followed by one pass over the token list that does what a
// regular expression cannot:
//
//   - a "[" written directly after a name, a literal, ")" or "]" becomes an
//     IndexOpen token, so `a[i]` indexes while `f a [i]` passes an array
//     literal (Futhark's INDEXING token, same rule);
//   - names become Ident, QualIdent (i32.max), QualOp (i32.+) or, for
//     reserved words, Keyword tokens;
//   - whitespace and comments are dropped; comments are kept aside so that
//     `-- |` doc comments can be attached to the declaration below them.
//
// Futhark lexes `x.0.1` as x, .0, .1 (a float literal may not follow a dot);
// here the Proj rule `\.[0-9]+` comes first at a dot, and the float rules all
// start with a digit, which gives the same tokens.

// Participle's lexer tries the rules in order and takes the first that
// matches, so rules that cannot start with the same character may come in
// any order; the most frequent come first, which is what makes the lexer
// fast. Comment must precede Op (both start with "-"), Float must precede
// Int. Names, qualified names (i32.max) and qualified operators (i32.+) are
// one rule, told apart in tokenize.
var baseRules = []lexer.SimpleRule{
	{Name: "Whitespace", Pattern: `[ \t\r\n\f\v]+`},
	{Name: "Name", Pattern: `[a-zA-Z][a-zA-Z0-9_']*(?:\.[a-zA-Z][a-zA-Z0-9_']*)*(?:\.[-+*/%=!><|&^][-+*/%=!><|&^.]*)?` +
		`|_[a-zA-Z0-9][a-zA-Z0-9_']*`},
	{Name: "Punct", Pattern: `[()\[\],:\\_]`},
	{Name: "Comment", Pattern: `--[^\n]*`},
	{Name: "Op", Pattern: `[-+*/%=!><|&^][-+*/%=!><|&^.]*`},
	// Hexadecimal floats (0x1.8p1), decimals with a suffix (2.5f32, 3f64),
	// decimals with a fraction, decimals with an exponent.
	{Name: "Float", Pattern: `0[xX][0-9a-fA-F][0-9a-fA-F_]*\.[0-9a-fA-F][0-9a-fA-F_]*[pP][+-]?[0-9_]+(?:f16|f32|f64)?` +
		`|[0-9][0-9_]*(?:\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9]+)?(?:f16|f32|f64)` +
		`|[0-9][0-9_]*\.[0-9][0-9_]*(?:[eE][+-]?[0-9]+)?` +
		`|[0-9][0-9_]*[eE][+-]?[0-9]+`},
	{Name: "Int", Pattern: `(?:0[xX][0-9a-fA-F][0-9a-fA-F_]*|0[bB][01][01_]*|[0-9][0-9_]*)(?:[iu](?:8|16|32|64))?`},
	{Name: "Proj", Pattern: `\.[0-9]+`},
}

// keywords are the reserved words of Futhark. Those outside the subset are
// reserved too, so that `type t = i32` fails at "type" rather than parsing
// as something else.
var keywords = map[string]bool{
	"if": true, "then": true, "else": true, "let": true, "in": true,
	"loop": true, "for": true, "while": true, "do": true, "with": true,
	"def": true, "entry": true, "true": true, "false": true,
	"val": true, "local": true, "open": true, "include": true, "import": true,
	"type": true, "module": true, "assert": true, "match": true, "case": true,
}

// futLexer is the participle lexer.Definition: the base rules plus the
// token types that the post-pass introduces.
type futLexer struct {
	base    *lexer.StatefulDefinition
	symbols map[string]lexer.TokenType
	// Token types, looked up once.
	tComment, tWhitespace, tFloat, tInt, tProj, tName, tOp, tPunct lexer.TokenType
	// Introduced by tokenize.
	tIdent, tQualIdent, tQualOp, tIndexOpen, tKeyword lexer.TokenType
}

func newFutLexer() *futLexer {
	base := lexer.MustSimple(baseRules)
	syms := map[string]lexer.TokenType{}
	lowest := lexer.EOF
	for name, t := range base.Symbols() {
		syms[name] = t
		if t < lowest {
			lowest = t
		}
	}
	for i, name := range []string{"Ident", "QualIdent", "QualOp", "IndexOpen", "Keyword"} {
		syms[name] = lowest - 1 - lexer.TokenType(i)
	}
	return &futLexer{
		base: base, symbols: syms,
		tComment: syms["Comment"], tWhitespace: syms["Whitespace"], tFloat: syms["Float"],
		tInt: syms["Int"], tProj: syms["Proj"], tName: syms["Name"], tOp: syms["Op"], tPunct: syms["Punct"],
		tIdent: syms["Ident"], tQualIdent: syms["QualIdent"], tQualOp: syms["QualOp"],
		tIndexOpen: syms["IndexOpen"], tKeyword: syms["Keyword"],
	}
}

// Symbols implements lexer.Definition.
func (d *futLexer) Symbols() map[string]lexer.TokenType { return d.symbols }

// Lex implements lexer.Definition; the parser itself calls tokenize.
func (d *futLexer) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	toks, _, err := d.tokenize(filename, string(b))
	if err != nil {
		return nil, err
	}
	return &sliceLexer{toks: toks}, nil
}

// comment is a `--` comment kept aside for doc comments.
type comment struct {
	line     int
	text     string // the whole comment, starting with "--"
	ownsLine bool   // nothing but whitespace before it on its line
}

// lexError is a lexical error at a byte offset.
type lexError struct {
	offset int
	msg    string
}

func (e *lexError) Error() string { return e.msg }

// tokenize lexes text into the token list the grammar sees (ending in EOF)
// and the comments.
func (d *futLexer) tokenize(filename, text string) ([]lexer.Token, []comment, error) {
	l, err := d.base.LexString(filename, text)
	if err != nil {
		return nil, nil, err
	}
	var toks []lexer.Token
	var comments []comment
	lastLine := 0 // line of the last non-comment token
	for {
		t, err := l.Next()
		if err != nil {
			off := len(text)
			if pe, ok := err.(interface{ Position() lexer.Position }); ok {
				off = pe.Position().Offset
			}
			if off < 0 || off > len(text) {
				off = len(text)
			}
			return nil, nil, &lexError{offset: off, msg: describeBadChar(text, off)}
		}
		switch t.Type {
		case d.tWhitespace:
			continue
		case d.tComment:
			comments = append(comments, comment{line: t.Pos.Line, text: t.Value, ownsLine: t.Pos.Line != lastLine})
			continue
		case d.tPunct:
			if t.Value == "[" && t.Pos.Offset > 0 && indexable(text[t.Pos.Offset-1]) {
				t.Type = d.tIndexOpen
			}
		case d.tName:
			switch {
			case strings.ContainsAny(t.Value, opChars):
				t.Type = d.tQualOp
			case strings.Contains(t.Value, "."):
				t.Type = d.tQualIdent
			case keywords[t.Value]:
				t.Type = d.tKeyword
			default:
				t.Type = d.tIdent
			}
		}
		lastLine = t.Pos.Line
		toks = append(toks, t)
		if t.EOF() {
			return toks, comments, nil
		}
	}
}

// indexable reports whether a "[" right after byte c starts an index: after
// a name or literal character, ")" or "]" (Futhark's lexer rule).
func indexable(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '\'' || c == ')' || c == ']'
}

func describeBadChar(text string, off int) string {
	if off >= len(text) {
		return "unexpected end of input"
	}
	r := []rune(text[off:min(len(text), off+4)])
	if len(r) == 0 {
		return "unexpected end of input"
	}
	switch {
	case r[0] == '\'' && len(r) > 1 && (r[1] == '^' || r[1] == '~' || unicode.IsLetter(r[1])) && (len(r) < 3 || r[2] != '\''):
		return "unexpected \"'\": type parameters are not supported by arepl"
	case r[0] == '"' || r[0] == '\'':
		return fmt.Sprintf("unexpected %q: string and character literals are not supported by arepl", string(r[0]))
	case r[0] == '{' || r[0] == '}':
		return fmt.Sprintf("unexpected %q: records are not supported by arepl", string(r[0]))
	case r[0] == '#':
		return `unexpected "#": attributes and sum types are not supported by arepl`
	}
	return fmt.Sprintf("unexpected character %q", string(r[0]))
}

// sliceLexer replays a token list (participle's lexer.Lexer).
type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (s *sliceLexer) Next() (lexer.Token, error) {
	if s.i >= len(s.toks) {
		return s.toks[len(s.toks)-1], nil
	}
	t := s.toks[s.i]
	s.i++
	return t, nil
}

// docAbove returns the doc comment of a declaration starting on line: the
// block of whole-line comments directly above it that begins with `-- |`,
// without the comment markers (Futhark's rule; later `--` lines, such as a
// test block, belong to the doc).
func docAbove(comments []comment, line int) string {
	// Find the whole-line comment on line-1 (comments are in line order),
	// then walk up over consecutive lines.
	j := sort.Search(len(comments), func(i int) bool { return comments[i].line >= line-1 })
	if j == len(comments) || comments[j].line != line-1 || !comments[j].ownsLine {
		return ""
	}
	start := -1
	for i := j; i >= 0; i-- {
		if !comments[i].ownsLine || (i < j && comments[i].line != comments[i+1].line-1) {
			break
		}
		if strings.HasPrefix(comments[i].text, "-- |") {
			start = i
			break
		}
	}
	if start < 0 {
		return ""
	}
	var lines []string
	for i := start; i <= j; i++ {
		s := strings.TrimPrefix(comments[i].text, "--")
		if i == start {
			s = strings.TrimPrefix(s, " |")
		}
		s = strings.TrimPrefix(s, " ")
		lines = append(lines, strings.TrimRight(s, " \t\r"))
	}
	return strings.Join(lines, "\n")
}
