package syntax

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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

// The token classes, in the order of the rules that the hand-written
// scanner (scan) implements. They were once participle regular-expression
// rules; a scanner that dispatches on the first byte lexes in one pass with
// no backtracking, which keeps parsing linear and fast on long inputs (a
// 100,000-element literal). The rules, as regular expressions, first match
// wins:
//
//	Whitespace  [ \t\r\n\f\v]+
//	Name        [a-zA-Z][a-zA-Z0-9_']*(\.[a-zA-Z][a-zA-Z0-9_']*)*(\.[-+*/%=!><|&^][-+*/%=!><|&^.]*)?
//	            | _[a-zA-Z0-9][a-zA-Z0-9_']*
//	Punct       [()\[\],:\\_{}?]
//	Comment     --[^\n]*
//	Op          [-+*/%=!><|&^][-+*/%=!><|&^.]*
//	Float       0[xX]hex.hex[pP][+-]?[0-9_]+(f16|f32|f64)?
//	            | [0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9]+)?(f16|f32|f64)
//	            | [0-9][0-9_]*\.[0-9][0-9_]*([eE][+-]?[0-9]+)?
//	            | [0-9][0-9_]*[eE][+-]?[0-9]+
//	Int         (0[xX][0-9a-fA-F][0-9a-fA-F_]*|0[bB][01][01_]*|[0-9][0-9_]*)([iu](8|16|32|64))?
//	Proj        \.[0-9]+ | \.[a-zA-Z][a-zA-Z0-9_']*   (tuple and record fields)
//	Range       \.\.\. | \.\.< | \.\.> | \.\.
//	TParam      '[~^]?[a-zA-Z][a-zA-Z0-9_']*               (type parameters)
//	Char        '(char|\\escape)'                            (an integer: the code point)
//	String      "(char|\\escape)*"                           (UTF-8 bytes, a []u8)
//
// An escape is Haskell's, as Futhark reads it: \n \t \r \\ \' \" \0 \a
// \b \f \v, \xHH (hexadecimal) or \DDD (decimal code point).
//
// Attributes `#[...]` are accepted and ignored: the scanner drops them, as
// Futhark's compiler ignores the ones that do not concern it.
var tokenClasses = []string{"Whitespace", "Name", "Punct", "Comment", "Op", "Float", "Int", "Proj", "Range", "TParam", "Char", "String"}

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
	symbols map[string]lexer.TokenType
	// Token types, looked up once (tWhitespace is never produced).
	tComment, tWhitespace, tFloat, tInt, tProj, tName, tOp, tPunct, tRange, tTParam, tChar, tString lexer.TokenType
	// Introduced by tokenize.
	tIdent, tQualIdent, tQualOp, tIndexOpen, tKeyword lexer.TokenType
}

func newFutLexer() *futLexer {
	syms := map[string]lexer.TokenType{"EOF": lexer.EOF}
	for i, name := range append(tokenClasses, "Ident", "QualIdent", "QualOp", "IndexOpen", "Keyword") {
		syms[name] = lexer.EOF - 1 - lexer.TokenType(i)
	}
	return &futLexer{
		symbols:  syms,
		tComment: syms["Comment"], tWhitespace: syms["Whitespace"], tFloat: syms["Float"],
		tInt: syms["Int"], tProj: syms["Proj"], tName: syms["Name"], tOp: syms["Op"], tPunct: syms["Punct"],
		tRange: syms["Range"], tTParam: syms["TParam"], tChar: syms["Char"], tString: syms["String"],
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
	toks, _, err := d.tokenize(filename, string(b), nil)
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
// and the comments, appending the tokens to buf[:0] (a pooled parser's
// buffer, so that long inputs are not copied as the list grows).
func (d *futLexer) tokenize(filename, text string, buf []lexer.Token) ([]lexer.Token, []comment, error) {
	toks := buf[:0]
	if want := len(text)*2/3 + 2; cap(toks) < want {
		// At most two tokens per three bytes in practice ("1, ").
		toks = make([]lexer.Token, 0, want)
	}
	var comments []comment
	lastLine := 0 // line of the last non-comment token
	line, lineStart := 1, 0
	for off := 0; off < len(text); {
		c := text[off]
		if c == '\n' {
			line, lineStart = line+1, off+1
			off++
			continue
		}
		if isSpace(c) {
			off++
			continue
		}
		if c == '#' && off+1 < len(text) && text[off+1] == '[' {
			end, ok := skipAttribute(text, off)
			if !ok {
				return nil, nil, &lexError{offset: off, msg: "unterminated attribute #[...]"}
			}
			for i := off; i < end; i++ {
				if text[i] == '\n' {
					line, lineStart = line+1, i+1
				}
			}
			off = end
			continue
		}
		typ, n := d.scan(text, off)
		if n == 0 {
			return nil, nil, &lexError{offset: off, msg: describeBadChar(text, off)}
		}
		t := lexer.Token{Type: typ, Value: text[off : off+n],
			Pos: lexer.Position{Filename: filename, Offset: off, Line: line, Column: off - lineStart + 1}}
		off += n
		switch t.Type {
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
	}
	toks = d.rewriteOpDecls(toks)
	toks = append(toks, lexer.Token{Type: lexer.EOF,
		Pos: lexer.Position{Filename: filename, Offset: len(text), Line: line, Column: len(text) - lineStart + 1}})
	return toks, comments, nil
}

// rewriteOpDecls turns the operator declarations `def (op) a b`, `let (op)
// a b` and the infix form `def a op b` (a and b each a name or a
// parenthesised pattern) into `def op a b`, where op is a name token with
// the operator as its value. The declared operator is then an ordinary
// function to the grammar, and the parser writes each use of it as an
// application (expr.go).
func (d *futLexer) rewriteOpDecls(toks []lexer.Token) []lexer.Token {
	isDeclKw := func(t lexer.Token) bool {
		return t.Type == d.tKeyword && (t.Value == "def" || t.Value == "let")
	}
	punct := func(i int, v string) bool { return i < len(toks) && toks[i].Type == d.tPunct && toks[i].Value == v }
	userOp := func(i int) bool {
		return i < len(toks) && toks[i].Type == d.tOp && !notBinOps[toks[i].Value] && toks[i].Value[0] != '`'
	}
	// param returns the index after the parameter starting at i: a name,
	// or a group of balanced parentheses; or -1.
	param := func(i int) int {
		switch {
		case i < len(toks) && toks[i].Type == d.tIdent:
			return i + 1
		case punct(i, "("):
			depth := 0
			for j := i; j < len(toks); j++ {
				if toks[j].Type != d.tPunct {
					continue
				}
				switch toks[j].Value {
				case "(":
					depth++
				case ")":
					depth--
					if depth == 0 {
						return j + 1
					}
				}
			}
		}
		return -1
	}
	asName := func(t lexer.Token) lexer.Token {
		t.Type = d.tIdent
		return t
	}
	for i := 0; i+1 < len(toks); i++ {
		if !isDeclKw(toks[i]) {
			continue
		}
		k := i + 1
		if punct(k, "(") && userOp(k+1) && punct(k+2, ")") {
			name := asName(toks[k+1])
			name.Pos = toks[k].Pos
			toks = append(toks[:k], append([]lexer.Token{name}, toks[k+3:]...)...)
			continue
		}
		if end := param(k); end > 0 && userOp(end) && param(end+1) > 0 {
			op := asName(toks[end])
			copy(toks[k+1:end+1], toks[k:end])
			toks[k] = op
		}
	}
	return toks
}

// skipAttribute returns the offset after the attribute `#[...]` starting
// at off (brackets nest), or false when it is not closed.
func skipAttribute(text string, off int) (int, bool) {
	depth := 0
	for i := off + 1; i < len(text); i++ {
		switch text[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isNameChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '\''
}
func isOpChar(c byte) bool { return strings.IndexByte(opChars, c) >= 0 }

// span counts the bytes of text from off that satisfy ok.
func span(text string, off int, ok func(byte) bool) int {
	n := 0
	for off+n < len(text) && ok(text[off+n]) {
		n++
	}
	return n
}

// scan returns the class and length of the token at off (not whitespace),
// or length 0 when no rule matches; see tokenClasses for the rules.
func (d *futLexer) scan(text string, off int) (lexer.TokenType, int) {
	c := text[off]
	at := func(i int) byte {
		if off+i < len(text) {
			return text[off+i]
		}
		return 0
	}
	switch {
	case isLetter(c):
		n := 1 + span(text, off+1, isNameChar)
		for at(n) == '.' && isLetter(at(n+1)) {
			n += 2 + span(text, off+n+2, isNameChar)
		}
		if at(n) == '.' && isOpChar(at(n+1)) {
			n += 2 + span(text, off+n+2, func(c byte) bool { return isOpChar(c) || c == '.' })
		}
		return d.tName, n
	case c == '_' && (isLetter(at(1)) || isDigit(at(1))):
		return d.tName, 2 + span(text, off+2, isNameChar)
	case strings.IndexByte("()[],:\\_{}?", c) >= 0:
		return d.tPunct, 1
	case c == '-' && at(1) == '-':
		return d.tComment, 2 + span(text, off+2, func(c byte) bool { return c != '\n' })
	case isOpChar(c):
		return d.tOp, 1 + span(text, off+1, func(c byte) bool { return isOpChar(c) || c == '.' })
	case isDigit(c):
		if n := scanFloat(text, off); n > 0 {
			return d.tFloat, n
		}
		return d.tInt, scanInt(text, off)
	case c == '.':
		switch {
		case isDigit(at(1)):
			return d.tProj, 1 + span(text, off+1, isDigit)
		case isLetter(at(1)):
			return d.tProj, 2 + span(text, off+2, isNameChar)
		case at(1) == '.' && (at(2) == '.' || at(2) == '<' || at(2) == '>'):
			return d.tRange, 3
		case at(1) == '.':
			return d.tRange, 2
		default:
			return d.tPunct, 1 // the index section (.[i]), or ?[n].t
		}
	case c == '#' && isLetter(at(1)):
		return d.tPunct, 1 + span(text, off+1, isNameChar) // a constructor (sums.go)
	case c == '~':
		return d.tOp, 1 // type~ (a size-lifted type abbreviation)
	case c == '`':
		// A backticked name, `f` or `i32.max`: an infix operator.
		n := 1 + span(text, off+1, func(c byte) bool { return isNameChar(c) || c == '.' })
		if n > 1 && isLetter(at(1)) && at(n) == '`' {
			return d.tOp, n + 1
		}
	case c == '\'':
		n := 1
		if at(1) == '~' || at(1) == '^' {
			n = 2
		}
		if isLetter(at(n)) && at(n+1) != '\'' {
			return d.tTParam, n + 1 + span(text, off+n+1, isNameChar)
		}
		if _, k, ok := scanQuoted(text, off, '\''); ok {
			return d.tChar, k
		}
	case c == '"':
		if _, k, ok := scanQuoted(text, off, '"'); ok {
			return d.tString, k
		}
	}
	return 0, 0
}

// scanQuoted reads the character (q is ') or string (q is ") literal at
// off: its characters' code points, its length, and whether it is well
// formed (closed on its line, escapes valid, a character literal holding
// exactly one character).
func scanQuoted(text string, off int, q byte) ([]rune, int, bool) {
	var runes []rune
	i := off + 1
	for i < len(text) && text[i] != q {
		c := text[i]
		if c == '\n' {
			return nil, 0, false
		}
		if c != '\\' {
			r, size := utf8.DecodeRuneInString(text[i:])
			runes = append(runes, r)
			i += size
			continue
		}
		i++
		if i >= len(text) {
			return nil, 0, false
		}
		switch e := text[i]; {
		case strings.IndexByte(simpleEscapes, e) >= 0:
			runes = append(runes, rune(escapeValues[strings.IndexByte(simpleEscapes, e)]))
			i++
		case e == 'x':
			k := span(text, i+1, isHex)
			v, err := strconv.ParseUint(text[i+1:i+1+k], 16, 32)
			if k == 0 || err != nil || v > unicode.MaxRune {
				return nil, 0, false
			}
			runes = append(runes, rune(v))
			i += 1 + k
		case isDigit(e):
			k := span(text, i, isDigit)
			v, err := strconv.ParseUint(text[i:i+k], 10, 32)
			if err != nil || v > unicode.MaxRune {
				return nil, 0, false
			}
			runes = append(runes, rune(v))
			i += k
		default:
			return nil, 0, false
		}
	}
	if i >= len(text) || (q == '\'' && len(runes) != 1) {
		return nil, 0, false
	}
	return runes, i + 1 - off, true
}

// simpleEscapes are the one-letter escapes and escapeValues their values.
const (
	simpleEscapes = "ntr\\'\"abfv"
	escapeValues  = "\n\t\r\\'\"\a\b\f\v"
)

// scanFloat returns the length of the float literal at off, or 0.
func scanFloat(text string, off int) int {
	at := func(i int) byte {
		if off+i < len(text) {
			return text[off+i]
		}
		return 0
	}
	if at(0) == '0' && (at(1) == 'x' || at(1) == 'X') && isHex(at(2)) {
		n := 3 + span(text, off+3, func(c byte) bool { return isHex(c) || c == '_' })
		if at(n) != '.' || !isHex(at(n+1)) {
			return 0
		}
		n += 2 + span(text, off+n+2, func(c byte) bool { return isHex(c) || c == '_' })
		if at(n) != 'p' && at(n) != 'P' {
			return 0
		}
		n++
		if at(n) == '+' || at(n) == '-' {
			n++
		}
		k := span(text, off+n, func(c byte) bool { return isDigit(c) || c == '_' })
		if k == 0 {
			return 0
		}
		n += k
		return n + floatSuffix(text[off+n:])
	}
	n := 1 + span(text, off+1, func(c byte) bool { return isDigit(c) || c == '_' })
	float := false
	if at(n) == '.' && isDigit(at(n+1)) {
		n += 2 + span(text, off+n+2, func(c byte) bool { return isDigit(c) || c == '_' })
		float = true
	}
	if e := at(n); e == 'e' || e == 'E' {
		k := n + 1
		if at(k) == '+' || at(k) == '-' {
			k++
		}
		if d := span(text, off+k, isDigit); d > 0 {
			n, float = k+d, true
		}
	}
	if s := floatSuffix(text[off+n:]); s > 0 {
		return n + s
	}
	if float {
		return n
	}
	return 0
}

func floatSuffix(s string) int {
	if strings.HasPrefix(s, "f16") || strings.HasPrefix(s, "f32") || strings.HasPrefix(s, "f64") {
		return 3
	}
	return 0
}

// scanInt returns the length of the integer literal at off (at least 1).
func scanInt(text string, off int) int {
	var n int
	switch {
	case text[off] == '0' && off+2 < len(text) && (text[off+1] == 'x' || text[off+1] == 'X') && isHex(text[off+2]):
		n = 3 + span(text, off+3, func(c byte) bool { return isHex(c) || c == '_' })
	case text[off] == '0' && off+2 < len(text) && (text[off+1] == 'b' || text[off+1] == 'B') && (text[off+2] == '0' || text[off+2] == '1'):
		n = 3 + span(text, off+3, func(c byte) bool { return c == '0' || c == '1' || c == '_' })
	default:
		n = 1 + span(text, off+1, func(c byte) bool { return isDigit(c) || c == '_' })
	}
	rest := text[off+n:]
	if len(rest) > 1 && (rest[0] == 'i' || rest[0] == 'u') {
		for _, w := range []string{"8", "16", "32", "64"} {
			if strings.HasPrefix(rest[1:], w) {
				return n + 1 + len(w)
			}
		}
	}
	return n
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
	case r[0] == '"':
		return "malformed string literal: unclosed on its line, or with an unknown escape"
	case r[0] == '\'':
		return "malformed character literal: one character (or escape) between single quotes"
	case r[0] == '#':
		return `unexpected "#": a constructor is "#" and a name (#some)`
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
