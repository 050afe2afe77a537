// Package syntax parses arepl's Futhark subset into the closed AST of
// ast.go.
//
// The parser is built from three parts:
//
//   - lexer.go: participle's regular-expression lexer plus one pass that
//     makes the whitespace-sensitive decisions Futhark's lexer makes (`a[i]`
//     indexes, `a [i]` passes an array literal) and reserves keywords;
//   - grammar.go: a participle grammar for declarations, patterns, types and
//     the keyword expression forms;
//   - expr.go: operator expressions by precedence climbing over one operator
//     table, registered with participle.ParseTypeWith so that grammar
//     structs can hold expressions and expressions can hold keyword forms.
//
// Every grammar struct is converted to the AST as soon as participle returns
// it (convert.go), so participle's types never leave this package. Errors
// are a source.ErrorList of one-line messages with file:line:col positions;
// IsIncomplete tells a REPL that an error only means the input stopped too
// early. Nothing panics on bad input: the API functions recover and report
// an internal error instead.
package syntax

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/arepl/arepl/lang/source"
)

// Input is one REPL input: declarations, or one expression. Exactly one of
// the two is set.
type Input struct {
	Decls []Decl
	Expr  Expr
}

// ParseFile parses a whole .fut file. The error is a source.ErrorList; after
// an error in one declaration the parser resumes at the next def or entry,
// or let at the start of a line, so one call reports one error per broken
// declaration.
func ParseFile(f *source.File) (file *File, err error) {
	defer recoverTo(&err, f)
	p := getParser(f)
	defer putParser(p)
	if p.lexErr != nil {
		return nil, p.lexErr
	}
	decls, errs := p.decls(true)
	if len(errs) > 0 {
		return nil, errs
	}
	return &File{At: At{p.spanOf(0, len(f.Text))}, Decls: decls}, nil
}

// ParseExpr parses exactly one expression.
func ParseExpr(f *source.File) (e Expr, err error) {
	defer recoverTo(&err, f)
	p := getParser(f)
	defer putParser(p)
	if p.lexErr != nil {
		return nil, p.lexErr
	}
	e, perr := p.wholeExpr()
	if perr != nil {
		return nil, perr
	}
	return e, nil
}

// ParseInput parses one REPL input: declarations, or one expression. A
// top-level `let x = e` with no `in` is a declaration; `let x = e in b` is an
// expression. Input of only whitespace and comments gives an empty,
// non-nil Decls.
func ParseInput(f *source.File) (in *Input, err error) {
	defer recoverTo(&err, f)
	p := getParser(f)
	defer putParser(p)
	if p.lexErr != nil {
		return nil, p.lexErr
	}
	first := p.toks[0]
	if first.EOF() {
		// Only whitespace and comments: nothing to do, and nothing to
		// wait for.
		return &Input{Decls: []Decl{}}, nil
	}
	if first.Type == p.lx.tKeyword && (first.Value == "def" || first.Value == "entry" || first.Value == "type" || moduleKeywords[first.Value]) {
		decls, errs := p.decls(false)
		if len(errs) > 0 {
			return nil, errs
		}
		return &Input{Decls: decls}, nil
	}
	if first.Type == p.lx.tKeyword && first.Value == "let" {
		decls, derrs := p.decls(false)
		if len(derrs) == 0 {
			return &Input{Decls: decls}, nil
		}
		e, eerr := p.wholeExpr()
		if eerr == nil {
			return &Input{Expr: e}, nil
		}
		// Both readings failed. A declaration that stopped at "in" was
		// an expression; otherwise report the reading that got further,
		// which is the one the user meant.
		if eerr[0].Pos.Before(derrs[0].Pos) && !strings.HasPrefix(derrs[0].Msg, `unexpected "in"`) {
			return nil, derrs
		}
		return nil, eerr
	}
	e, perr := p.wholeExpr()
	if perr != nil {
		return nil, perr
	}
	return &Input{Expr: e}, nil
}

// IsIncomplete reports whether err says only that the input ended too
// early (an open bracket, a trailing operator, `let p = e in` with no body,
// `if c then a` with no else, ...), so that a REPL should read another line.
func IsIncomplete(err error) bool {
	var list source.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return false
	}
	for _, e := range list {
		if !strings.HasPrefix(e.Msg, eofPrefix) {
			return false
		}
	}
	return true
}

// eofPrefix starts every message about input that ended too early;
// IsIncomplete relies on it.
const eofPrefix = "unexpected end of input"

// maxDepth bounds the nesting of expressions so that hostile input gets an
// error instead of exhausting the stack. A let's body does not nest (see
// parseLetBody); maxLets bounds a chain of lets, which the checker and
// lowering still walk recursively, well inside the stack Go allows.
const maxDepth = 1000

// maxLets is a variable only so that a test can reach it quickly.
var maxLets = 50000

// parser is the state of one parse. Building participle's parsers costs
// far more than a short REPL input, so parsers are pooled and reused.
type parser struct {
	lx *futLexer

	declP   *participle.Parser[gDecl]
	ifP     *participle.Parser[gIf]
	letP    *participle.Parser[gLet]
	loopP   *participle.Parser[gLoop]
	lambdaP *participle.Parser[gLambda]

	// Per parse:
	file       *source.File
	toks       []lexer.Token // ends with EOF; nothing elided
	tokBuf     []lexer.Token // toks' storage, kept between parses
	comments   []comment
	lineStarts []int
	lexErr     source.ErrorList
	depth      int
	lets       int // lets in sequence being parsed (parseLetBody)
	// shadowed holds the built-in operators that a top-level declaration
	// parsed so far redefines; later uses call the declaration.
	shadowed map[string]bool
}

var (
	sharedLexer = newFutLexer()
	parserPool  = sync.Pool{New: func() any { return newParser() }}
)

func newParser() *parser {
	p := &parser{lx: sharedLexer}
	opts := []participle.Option{
		participle.Lexer(sharedLexer),
		participle.ParseTypeWith(p.parseExprField),
		participle.ParseTypeWith(p.parseIndices),
		participle.ParseTypeWith(p.parsePatField),
		participle.ParseTypeWith(p.parseParamField),
		participle.ParseTypeWith(p.parseTypeField),
		participle.ParseTypeWith(p.parseTypeTermField),
		participle.ParseTypeWith(p.parseSizeField),
		participle.ParseTypeWith(p.parseLetBody),
	}
	p.declP = participle.MustBuild[gDecl](opts...)
	p.ifP = participle.MustBuild[gIf](opts...)
	p.letP = participle.MustBuild[gLet](opts...)
	p.loopP = participle.MustBuild[gLoop](opts...)
	p.lambdaP = participle.MustBuild[gLambda](opts...)
	return p
}

func getParser(f *source.File) *parser {
	p := parserPool.Get().(*parser)
	p.file = f
	p.depth, p.lets = 0, 0
	p.lexErr = nil
	clear(p.shadowed)
	p.lineStarts = p.lineStarts[:0]
	p.lineStarts = append(p.lineStarts, 0)
	for i := 0; i < len(f.Text); i++ {
		if f.Text[i] == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
	toks, comments, err := p.lx.tokenize(f.Name, f.Text, p.tokBuf)
	if err == nil {
		p.tokBuf = toks
	}
	if err != nil {
		off := len(f.Text)
		msg := err.Error()
		var le *lexError
		if errors.As(err, &le) {
			off, msg = le.offset, le.msg
		}
		p.lexErr = source.ErrorList{f.Errorf(p.posAt(off), "%s", msg)}
		toks = []lexer.Token{lexer.EOFToken(lexer.Position{Filename: f.Name, Offset: len(f.Text)})}
	}
	p.toks, p.comments = toks, comments
	return p
}

func putParser(p *parser) {
	p.file, p.toks, p.comments, p.lexErr = nil, nil, nil, nil
	parserPool.Put(p)
}

// recoverTo turns a panic (a bug here or in participle) into an error, so
// that bad input never crashes a REPL. (The parser goes back to the pool;
// getParser resets all per-parse state.)
func recoverTo(err *error, f *source.File) {
	if r := recover(); r != nil {
		name := ""
		if f != nil {
			name = f.Name
		}
		*err = source.ErrorList{source.Errorf(source.Pos{File: name}, "internal error in the parser: %v", r)}
	}
}

// lexerAt returns a fresh peeking lexer over the token list.
func (p *parser) lexerAt() *lexer.PeekingLexer {
	if n := len(p.toks); peekingLayoutOK && n > 0 && p.toks[n-1].EOF() {
		// The grammar only reads the tokens, and the parse ends before
		// the pooled buffer is reused: share it.
		return (*lexer.PeekingLexer)(unsafe.Pointer(&peekingLexer{tokens: p.toks, elide: map[lexer.TokenType]bool{}}))
	}
	pl, err := lexer.Upgrade(&sliceLexer{toks: p.toks})
	if err != nil {
		// sliceLexer never fails; keep the invariant visible.
		panic(err)
	}
	return pl
}

// peekingLexer has the layout of participle's lexer.PeekingLexer, whose
// only constructor, lexer.Upgrade, copies the token list one append at a
// time: on a 100,000-element array literal that copy (and the garbage of
// its growing) was half of the parse. lexerAt builds a PeekingLexer over
// the token list itself through this mirror, when peekingLayoutOK finds
// the two layouts identical field by field (name, type, offset); if a
// participle upgrade changes the layout, it falls back to Upgrade.
type peekingLexer struct {
	lexer.Checkpoint
	tokens []lexer.Token
	elide  map[lexer.TokenType]bool
}

var peekingLayoutOK = func() bool {
	a, b := reflect.TypeFor[lexer.PeekingLexer](), reflect.TypeFor[peekingLexer]()
	if a.Size() != b.Size() || a.NumField() != b.NumField() {
		return false
	}
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Offset != fb.Offset || fa.Anonymous != fb.Anonymous {
			return false
		}
	}
	return true
}()

// decls parses declarations up to the end of input. With recover set, an
// error skips to the next declaration and parsing goes on.
func (p *parser) decls(recoverErrs bool) ([]Decl, source.ErrorList) {
	lex := p.lexerAt()
	var decls []Decl
	var errs source.ErrorList
	for !lex.Peek().EOF() {
		t := lex.Peek()
		var err error
		cp := lex.MakeCheckpoint()
		if t.Type == p.lx.tKeyword && (t.Value == "def" || t.Value == "let" || t.Value == "entry") {
			var g *gDecl
			g, err = p.declP.ParseFromLexer(lex, participle.AllowTrailing(true))
			if err == nil {
				var d Decl
				d, err = p.convDecl(g)
				if err == nil {
					decls = append(decls, d)
					if name := g.Name.Name; builtinOps[name] && name != "&&" && name != "||" {
						// Futhark keeps && and || short-circuiting: they
						// cannot be redefined.
						if p.shadowed == nil {
							p.shadowed = map[string]bool{}
						}
						p.shadowed[name] = true
					}
					continue
				}
			}
		} else if p.isKeyword(t, "type") {
			var d Decl
			if d, err = p.typeDecl(lex); err == nil {
				decls = append(decls, d)
				continue
			}
		} else if t.Type == p.lx.tKeyword && moduleKeywords[t.Value] {
			var d Decl
			if d, err = p.moduleLevelDecl(lex); err == nil { // modules.go
				decls = append(decls, d)
				continue
			}
		} else if t.Type == p.lx.tKeyword && unsupportedKeywords[t.Value] {
			err = p.errorf(t, "%q declarations are not supported by arepl", t.Value)
		} else {
			err = p.unexpected(t, "declaration (def, let or entry)")
		}
		errs = append(errs, p.toSourceError(err))
		if !recoverErrs {
			break
		}
		// A failed parse may have consumed the rest of the input (see
		// hard); resume after the start of the broken declaration.
		lex.LoadCheckpoint(cp)
		p.skipToDecl(lex)
	}
	errs.Sort()
	return decls, errs
}

// skipToDecl moves past the broken declaration: to the next def or entry,
// or the next let at the start of a line.
func (p *parser) skipToDecl(lex *lexer.PeekingLexer) {
	lex.Next()
	for {
		t := lex.Peek()
		if t.EOF() {
			return
		}
		if t.Type == p.lx.tKeyword {
			switch t.Value {
			case "def", "entry", "type", "module", "open", "import", "local":
				return
			case "let":
				if p.posAt(t.Pos.Offset).Col == 1 {
					return
				}
			}
		}
		lex.Next()
	}
}

// wholeExpr parses one expression that must span the whole input.
func (p *parser) wholeExpr() (Expr, source.ErrorList) {
	lex := p.lexerAt()
	e, err := p.exp(lex)
	if err == nil && !lex.Peek().EOF() {
		err = p.unexpected(lex.Peek(), "end of expression")
	}
	if err != nil {
		return nil, source.ErrorList{p.toSourceError(err)}
	}
	return e, nil
}

// ---------------------------------------------------------------------------
// Positions and errors

// posAt converts a byte offset to a position.
func (p *parser) posAt(off int) source.Pos {
	i := sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return source.Pos{File: p.file.Name, Line: i + 1, Col: off - p.lineStarts[i] + 1}
}

func (p *parser) spanOf(start, end int) source.Span {
	return source.Span{Start: p.posAt(start), End: p.posAt(end)}
}

func tokEnd(t *lexer.Token) int { return t.Pos.Offset + len(t.Value) }

// tokSpan is the span of a token list as participle fills Tokens fields.
func (p *parser) tokSpan(toks []lexer.Token) source.Span {
	if len(toks) == 0 {
		return source.Span{}
	}
	return p.spanOf(toks[0].Pos.Offset, tokEnd(&toks[len(toks)-1]))
}

// commaList parses the items of a parenthesised or bracketed list after
// its opening punctuation: items separated by commas up to close, which it
// takes too (tuples of patterns, types and match patterns share it).
func commaList[T any](p *parser, lex *lexer.PeekingLexer, close string, item func(*lexer.PeekingLexer) (T, error)) ([]T, error) {
	var out []T
	for !p.isPunct(lex.Peek(), close) {
		e, err := item(lex)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if n := lex.Peek(); p.isPunct(n, ",") {
			lex.Next()
		} else if !p.isPunct(n, close) {
			return nil, p.unexpected(n, `"`+close+`" or ","`)
		}
	}
	lex.Next()
	return out, nil
}

// lastEnd is the end offset of the last token consumed from lex.
func (p *parser) lastEnd(lex *lexer.PeekingLexer) int {
	i := lex.Cursor() - 1
	if i < 0 || i >= len(p.toks) {
		return 0
	}
	return tokEnd(&p.toks[i])
}

// describe names a token for messages: `"then"`, or "end of input".
func describe(t *lexer.Token) string {
	if t.EOF() {
		return "end of input"
	}
	return fmt.Sprintf("%q", t.Value)
}

// unexpected is the error for token t where want was expected.
func (p *parser) unexpected(t *lexer.Token, want string) error {
	return participle.Errorf(t.Pos, "unexpected %s, expected %s", describe(t), want)
}

// errorf is an error at token t.
func (p *parser) errorf(t *lexer.Token, format string, args ...any) error {
	return participle.Errorf(t.Pos, format, args...)
}

var firstLiteralRE = regexp.MustCompile(`^"[^"]*"`)

var expectedRE = regexp.MustCompile(`^unexpected token "(.*)" \(expected (.*)\)$`)

// toSourceError converts a participle error (ours or participle's own) to a
// positioned source error with a message in our style.
func (p *parser) toSourceError(err error) *source.Error {
	var se *source.Error
	if errors.As(err, &se) {
		return se
	}
	var perr participle.Error
	if !errors.As(err, &perr) {
		return p.file.Errorf(source.Pos{File: p.file.Name}, "%v", err)
	}
	off := perr.Position().Offset
	if off < 0 || off > len(p.file.Text) {
		off = len(p.file.Text)
	}
	msg := perr.Message()
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		want := ""
		if m := expectedRE.FindStringSubmatch(msg); m != nil {
			want = m[2]
		}
		msg = "unexpected " + describe(&ute.Unexpected)
		if want != "" {
			msg += ", expected " + expectation(want)
		}
	}
	return p.file.Errorf(p.posAt(off), "%s", msg)
}

// expectation rewrites participle's description of what it expected
// (the rest of the production, in grammar notation) as the first thing
// that was missing, in words.
func expectation(s string) string {
	if m := firstLiteralRE.FindString(s); m != "" {
		return m
	}
	word := strings.TrimLeft(strings.Fields(s + " ")[0], "(")
	word = strings.TrimRight(word, "*+?)")
	if w, ok := grammarWords[word]; ok {
		return w
	}
	return word
}

// grammarWords names the grammar's symbols in messages.
var grammarWords = map[string]string{
	"<ident>": "name", "GName": "name", "GLetNamed": "binding", "GFor": `"for"`, "GWhile": `"while"`,
	"Expr": "expression", "Pat": "pattern", "ParamSpec": "parameter", "TypeExpr": "type",
	"TypeTermSpec": "type", "SizeSpec": "size parameter", "IndexSpec": `"["`, "LetBodySpec": `"in"`,
}

// typeDecl parses a type abbreviation:
//
//	"type" ["^" | "~"] name ("'" name | "[" name "]")* "=" type
func (p *parser) typeDecl(lex *lexer.PeekingLexer) (Decl, error) {
	kw := lex.Next()
	lifted := ""
	if n := lex.Peek(); n.Type == p.lx.tOp && (n.Value == "^" || n.Value == "~") && n.Pos.Offset == tokEnd(kw) {
		lex.Next()
		lifted = n.Value
	}
	name := lex.Peek()
	if name.Type != p.lx.tIdent {
		return nil, p.unexpected(name, "type name")
	}
	lex.Next()
	d := &TypeDecl{Name: name.Value, NamePos: p.posAt(name.Pos.Offset), Lifted: lifted}
	for {
		sp, err := p.parseSizeField(lex)
		if err == participle.NextMatch {
			break
		}
		if err != nil {
			return nil, err
		}
		d.Params = append(d.Params, sp.get())
	}
	if eq := lex.Peek(); !p.isOp(eq, "=") {
		return nil, p.unexpected(eq, `"="`)
	}
	lex.Next()
	t, err := p.typ(lex)
	if err != nil {
		return nil, err
	}
	d.Type = t
	d.At = At{p.spanOf(kw.Pos.Offset, p.lastEnd(lex))}
	return d, nil
}
