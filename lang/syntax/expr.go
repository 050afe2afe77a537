package syntax

import (
	"math"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Operator expressions, by precedence climbing.
//
// The table follows the precedence declarations of Futhark's parser
// (src/Language/Futhark/Parser/Parser.y), loosest first:
//
//	level  assoc   operators
//	  -    left    e with [i] = v   (the value extends over every operator)
//	  1    left    `f` `i32.max`     (a function name in backticks, infix)
//	  2    left    |>
//	  3    right   <|
//	  4    left    ||
//	  5    left    &&
//	  6    left    == != < <= > >=
//	  7    left    & ^ |
//	  8    left    << >>
//	  9    left    + -
//	 10    left    * / % // %%
//	 11    left    **
//	  -    prefix  - and !          (tighter than any infix operator: -x % y is (-x) % y)
//	  -    left    juxtaposition    (f a b; f x ** 2 is (f x) ** 2)
//	  -    postfix a[i] and x.0     (tighter than juxtaposition: f a[i] is f (a[i]))
//
// An operator that is not in the table binds like the longest table entry
// it starts with (`++` like `+`, `>>=` like `>>`), as in Futhark; the
// checker decides whether it exists.
//
// Type ascription `e : t` is looser than all of these and is not allowed
// inside an index, where `:` makes a slice.
//
// The table in Futhark's language reference agrees with its parser except
// for |> and <|, which it lists just below `**`; Futhark's parser, which
// decides what programs mean, puts |> lowest and <| next (so
// `xs |> map f |> reduce (+) 0` pipes whole applications), and so does
// this table.
//
// The bodies of if, let, loop and lambdas extend as far right as possible,
// so `x + if c then a else b + 1` adds x to the whole conditional.
type opInfo struct {
	prec  int
	right bool
}

var binOps = map[string]opInfo{
	"`":  {1, false},
	"|>": {2, false},
	"<|": {3, true},
	"||": {4, false},
	"&&": {5, false},
	"==": {6, false}, "!=": {6, false}, "<": {6, false}, "<=": {6, false}, ">": {6, false}, ">=": {6, false},
	"&": {7, false}, "^": {7, false}, "|": {7, false},
	"<<": {8, false}, ">>": {8, false},
	"+": {9, false}, "-": {9, false},
	"*": {10, false}, "/": {10, false}, "%": {10, false}, "//": {10, false}, "%%": {10, false},
	"**": {11, false},
	// Longer operators starting with ! or = (such as !==) bind like
	// comparisons; alone, ! is prefix not and = is binding syntax.
	"!": {6, false}, "=": {6, false},
}

// builtinOps are the operators the language defines; the checker gives
// them their meaning. Any other operator (`+^`, declared with `def (+^) a
// b = ...`) and any backticked name is a function: the parser writes its
// uses as applications of the name (see opApply), so user operators need
// nothing from the checker beyond ordinary names.
var builtinOps = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "**": true, "//": true, "%%": true,
	"&": true, "|": true, "^": true, "<<": true, ">>": true, ">>>": true, "&&": true, "||": true,
	"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true,
	"++": true, "|>": true, "<|": true, ">->": true, "<-<": true,
}

// isFunOp reports whether the infix operator op (unqualified when qual
// is "") stands for a function named op: a user-defined operator, a
// backticked name, or a built-in operator that an earlier top-level
// declaration of this parse redefined (`def (+) x y = x - y`, which
// Futhark allows; p.shadowed).
func (p *parser) isFunOp(op, qual string) bool {
	return qual == "" && (!builtinOps[op] || p.shadowed[op])
}

// opFun is the function that the user operator op names, as a variable:
// `f` for the backticked `f`, i32.max for `i32.max`, +^ for +^.
func opFun(op string, at At) *Var {
	if name, ok := strings.CutPrefix(op, "`"); ok {
		name = strings.TrimSuffix(name, "`")
		if i := strings.LastIndexByte(name, '.'); i > 0 {
			return &Var{At: at, Qual: name[:i], Name: name[i+1:]}
		}
		return &Var{At: at, Name: name}
	}
	return &Var{At: at, Name: op}
}

// sectionParam names the parameter of the lambda that a right section of
// a user operator, (+^ y), becomes: \x -> x +^ y. A leading underscore
// keeps it out of the way of the user's names.
const sectionParam = "_section_x"

// opFixity returns the precedence of an operator: that of the longest
// entry of binOps that starts it, as in Futhark, where `++` binds like `+`
// and `>>=` like `>>`. Every operator character starts some entry.
func opFixity(op string) opInfo {
	if op[0] == '`' {
		return binOps["`"]
	}
	for n := min(len(op), 2); n > 0; n-- {
		if info, ok := binOps[op[:n]]; ok {
			return info
		}
	}
	return opInfo{prec: 1}
}

// unsupportedKeywords are Futhark keywords that cannot start an
// expression, nor (val, include) a declaration at the top level; they get
// a message saying so.
var unsupportedKeywords = map[string]bool{
	"val": true, "local": true, "open": true, "include": true, "import": true,
	"type": true, "module": true,
}

// notBinOps are operator-character tokens with another role: binding,
// function arrows, prefix not.
var notBinOps = map[string]bool{"=": true, "->": true, "!": true}

// enter guards recursion depth. Every path of the mutual recursion of
// expressions passes through unary, except the right operand of an
// operator; those two places count.
func (p *parser) enter(lex *lexer.PeekingLexer) error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf(lex.Peek(), "expression nested too deeply (more than %d levels)", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// exp is a full expression: operators, then optional ascriptions.
func (p *parser) exp(lex *lexer.PeekingLexer) (Expr, error) {
	start := lex.Peek().Pos.Offset
	e, err := p.exp2(lex, 0, false)
	if err != nil {
		return nil, err
	}
	if e, err = p.rangeRest(lex, e, start); err != nil {
		return nil, err
	}
	return p.ascriptions(lex, e, start)
}

// rangeRest parses the rest of a range whose start e has been parsed:
// `..< end`, `... end`, `..> end`, or `.. second` followed by one of them.
// Ranges bind more loosely than every operator (Futhark's precedence).
func (p *parser) rangeRest(lex *lexer.PeekingLexer, e Expr, start int) (Expr, error) {
	t := lex.Peek()
	if t.Type != p.lx.tRange {
		return e, nil
	}
	lex.Next()
	r := &Range{Start: e, Op: t.Value}
	operand := func() (Expr, error) { return p.exp2(lex, 0, false) }
	x, err := operand()
	if err != nil {
		return nil, err
	}
	if t.Value == ".." {
		if n := lex.Peek(); n.Type == p.lx.tRange && n.Value != ".." {
			lex.Next()
			r.Second, r.Op = x, n.Value
			if x, err = operand(); err != nil {
				return nil, err
			}
		} else {
			r.Op = "..."
		}
	}
	r.End = x
	r.At = At{p.spanOf(start, p.lastEnd(lex))}
	return r, nil
}

// ascriptions parses any `: t` after e.
func (p *parser) ascriptions(lex *lexer.PeekingLexer, e Expr, start int) (Expr, error) {
	for p.isPunct(lex.Peek(), ":") {
		colon := lex.Next()
		coerce := false
		if n := lex.Peek(); n.Type == p.lx.tOp && n.Value == ">" && n.Pos.Offset == tokEnd(colon) {
			lex.Next()
			coerce = true
		}
		t, err := p.typ(lex)
		if err != nil {
			return nil, err
		}
		e = &Ascribe{At: At{p.spanOf(start, p.lastEnd(lex))}, X: e, Type: t, Coerce: coerce}
	}
	return e, nil
}

// binOp reports whether t is an infix operator, and which.
func (p *parser) binOp(t *lexer.Token) (op, qual string, ok bool) {
	switch t.Type {
	case p.lx.tOp:
		if notBinOps[t.Value] {
			return "", "", false
		}
		return t.Value, "", true
	case p.lx.tQualOp:
		i := strings.IndexAny(t.Value, opChars)
		return t.Value[i:], t.Value[:i-1], true
	}
	return "", "", false
}

// opChars are the characters an operator starts with; in a qualified
// operator `i32.+` the first of them ends the qualifier.
const opChars = "+-*/%=!><|&^"

// Within a declaration, `def (+^) a b` and `def a +^ b` name the operator
// +^; the lexer's pass rewriteOpDecls turns both into `def +^ a b`, with
// the operator as a name token, so that the grammar sees an ordinary
// function declaration.

// exp2 parses operators of level minPrec and above. In a section context
// (directly inside parentheses), an operator followed by ")" ends the
// expression so that the caller can build a left section `(e op)`.
func (p *parser) exp2(lex *lexer.PeekingLexer, minPrec int, section bool) (Expr, error) {
	startTok := lex.Peek()
	start := startTok.Pos.Offset
	lhs, err := p.unary(lex)
	if err != nil {
		return nil, err
	}
	for {
		t := lex.Peek()
		if minPrec == 0 && t.Type == p.lx.tKeyword && t.Value == "with" {
			lex.Next()
			steps, err := p.updateSteps(lex, nil)
			if err != nil {
				return nil, err
			}
			if eq := lex.Peek(); !p.isOp(eq, "=") {
				return nil, p.unexpected(eq, `"="`)
			}
			lex.Next()
			val, err := p.exp2(lex, 1, section)
			if err != nil {
				return nil, err
			}
			lhs = updateChain(At{p.spanOf(start, p.lastEnd(lex))}, lhs, steps, val)
			continue
		}
		op, qual, ok := p.binOp(t)
		if !ok {
			return lhs, nil
		}
		info := opFixity(op)
		if info.prec < minPrec {
			return lhs, nil
		}
		if section && p.isPunct(p.peek2(lex), ")") {
			return lhs, nil
		}
		lex.Next()
		next := info.prec + 1
		if info.right {
			next = info.prec
		}
		// A right-associative chain recurses here, not through unary.
		if err := p.enter(lex); err != nil {
			return nil, err
		}
		rhs, err := p.exp2(lex, next, section)
		p.leave()
		if err != nil {
			return nil, err
		}
		at := At{p.spanOf(start, p.lastEnd(lex))}
		if p.isFunOp(op, qual) {
			opAt := At{p.spanOf(t.Pos.Offset, tokEnd(t))}
			lhs = &Apply{At: at, Fn: opFun(op, opAt), Args: []Expr{lhs, rhs}}
			continue
		}
		lhs = &BinOp{At: at, Op: op, Qual: qual, OpPos: p.posAt(t.Pos.Offset), Lhs: lhs, Rhs: rhs}
	}
}

// peek2 is the token after the next one.
func (p *parser) peek2(lex *lexer.PeekingLexer) *lexer.Token {
	i := lex.Cursor() + 1
	if i >= len(p.toks) {
		return &p.toks[len(p.toks)-1]
	}
	return &p.toks[i]
}

func (p *parser) isPunct(t *lexer.Token, s string) bool { return t.Type == p.lx.tPunct && t.Value == s }
func (p *parser) isOp(t *lexer.Token, s string) bool    { return t.Type == p.lx.tOp && t.Value == s }
func (p *parser) isKeyword(t *lexer.Token, s string) bool {
	return t.Type == p.lx.tKeyword && t.Value == s
}

// unary parses prefix operators, keyword forms and applications.
func (p *parser) unary(lex *lexer.PeekingLexer) (Expr, error) {
	if err := p.enter(lex); err != nil {
		return nil, err
	}
	defer p.leave()
	t := lex.Peek()
	start := t.Pos.Offset
	switch {
	case p.isOp(t, "-"), p.isOp(t, "!"):
		lex.Next()
		x, err := p.unary(lex)
		if err != nil {
			return nil, err
		}
		at := At{p.spanOf(start, p.lastEnd(lex))}
		if t.Value == "-" {
			return &Negate{At: at, X: x}, nil
		}
		return &Not{At: at, X: x}, nil
	case t.Type == p.lx.tKeyword:
		switch t.Value {
		case "if":
			g, err := p.ifP.ParseFromLexer(lex, participle.AllowTrailing(true))
			if err != nil {
				return nil, err
			}
			return &If{At: At{p.tokSpan(g.Tokens)}, Cond: g.Cond, Then: g.Then, Else: g.Else}, nil
		case "let":
			if n := p.peek2(lex); n.Type == p.lx.tQualIdent && !primTypes[n.Value[:strings.IndexByte(n.Value, '.')]] || p.mixedLetPath(lex) {
				return p.letField(lex)
			}
			g, err := p.letP.ParseFromLexer(lex, participle.AllowTrailing(true))
			if err != nil {
				return nil, err
			}
			return p.convLet(g)
		case "loop":
			g, err := p.loopP.ParseFromLexer(lex, participle.AllowTrailing(true))
			if err != nil {
				return nil, err
			}
			return p.convLoop(g)
		case "match":
			return p.match(lex)
		}
	case p.isPunct(t, "\\"):
		return p.lambda(lex)
	}
	return p.apply(lex)
}

func (p *parser) lambda(lex *lexer.PeekingLexer) (Expr, error) {
	g, err := p.lambdaP.ParseFromLexer(lex, participle.AllowTrailing(true))
	if err != nil {
		return nil, err
	}
	return p.convLambda(g)
}

// startsAtom reports whether t can begin an atom, an argument of
// juxtaposition.
func (p *parser) startsAtom(t *lexer.Token) bool {
	switch t.Type {
	case p.lx.tInt, p.lx.tFloat, p.lx.tIdent, p.lx.tQualIdent, p.lx.tIndexOpen, p.lx.tChar, p.lx.tString:
		return true
	case p.lx.tKeyword:
		return t.Value == "true" || t.Value == "false"
	case p.lx.tPunct:
		// "?" starts an atom only as ??? (a hole); "#name" is a constructor.
		return t.Value == "(" || t.Value == "[" || t.Value == "{" || t.Value == "?" || p.isConstrTok(t)
	}
	return false
}

// apply parses `f a b ...`; a lambda may be the last argument.
func (p *parser) apply(lex *lexer.PeekingLexer) (Expr, error) {
	start := lex.Peek().Pos.Offset
	if t := lex.Peek(); p.isKeyword(t, "assert") {
		lex.Next()
		c := lex.Peek()
		cond, err := p.atom(lex)
		if err != nil {
			return nil, err
		}
		text := p.file.Text[c.Pos.Offset:p.lastEnd(lex)]
		if _, ok := cond.(*ParenExpr); ok {
			text = strings.TrimSpace(text[1 : len(text)-1])
		}
		x, err := p.atom(lex)
		if err != nil {
			return nil, err
		}
		return &Assert{At: At{p.spanOf(start, p.lastEnd(lex))}, Cond: cond, X: x, CondText: text}, nil
	}
	if p.isConstrTok(lex.Peek()) {
		return p.constr(lex, true)
	}
	fn, err := p.atom(lex)
	if err != nil {
		return nil, err
	}
	var args []Expr
	for {
		t := lex.Peek()
		if p.isPunct(t, "\\") {
			lam, err := p.lambda(lex)
			if err != nil {
				return nil, err
			}
			args = append(args, lam)
			break
		}
		if !p.startsAtom(t) {
			break
		}
		a, err := p.atom(lex)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	if len(args) == 0 {
		return fn, nil
	}
	return &Apply{At: At{p.spanOf(start, p.lastEnd(lex))}, Fn: fn, Args: args}, nil
}

// atom parses a primary expression and its postfix indexing and
// projections.
func (p *parser) atom(lex *lexer.PeekingLexer) (Expr, error) {
	start := lex.Peek().Pos.Offset
	e, err := p.primary(lex)
	if err != nil {
		return nil, err
	}
	for {
		t := lex.Peek()
		switch t.Type {
		case p.lx.tIndexOpen:
			idx, err := p.bracketIndices(lex, false)
			if err != nil {
				return nil, err
			}
			e = &Index{At: At{p.spanOf(start, p.lastEnd(lex))}, X: e, Indices: idx.List}
			continue
		case p.lx.tProj:
			lex.Next()
			if name := t.Value[1:]; !isDigit(name[0]) {
				e = &Project{At: At{p.spanOf(start, p.lastEnd(lex))}, X: e, Field: -1, Name: name}
				continue
			}
			n, err := p.fieldNumber(t)
			if err != nil {
				return nil, err
			}
			e = &Project{At: At{p.spanOf(start, p.lastEnd(lex))}, X: e, Field: n}
			continue
		}
		return e, nil
	}
}

func (p *parser) fieldNumber(t *lexer.Token) (int, error) {
	n, err := strconv.Atoi(t.Value[1:])
	if err != nil || n > math.MaxInt32 {
		return 0, p.errorf(t, "tuple field number %s is too large", t.Value[1:])
	}
	return n, nil
}

// hole parses `???` (three adjacent question marks), a typed hole.
func (p *parser) hole(lex *lexer.PeekingLexer) (Expr, bool) {
	i := lex.Cursor()
	if i+2 >= len(p.toks) {
		return nil, false
	}
	for k := 0; k < 3; k++ {
		t := &p.toks[i+k]
		if !p.isPunct(t, "?") || k > 0 && t.Pos.Offset != p.toks[i+k-1].Pos.Offset+1 {
			return nil, false
		}
	}
	start := p.toks[i].Pos.Offset
	lex.Next()
	lex.Next()
	lex.Next()
	return &Hole{At: At{p.spanOf(start, start+3)}}, true
}

func (p *parser) primary(lex *lexer.PeekingLexer) (Expr, error) {
	if hole, ok := p.hole(lex); ok {
		return hole, nil
	}
	t := lex.Peek()
	at := At{p.spanOf(t.Pos.Offset, tokEnd(t))}
	switch t.Type {
	case p.lx.tInt:
		lex.Next()
		return p.intLit(t, at)
	case p.lx.tFloat:
		lex.Next()
		return p.floatLit(t, at)
	case p.lx.tChar:
		lex.Next()
		return p.charLit(t, at), nil
	case p.lx.tString:
		lex.Next()
		return p.stringLit(t, at), nil
	case p.lx.tIdent:
		lex.Next()
		if dot := lex.Peek(); p.isPunct(dot, ".") && dot.Pos.Offset == tokEnd(t) {
			// i32.(e), m.(e): a local open of a module.
			if open := p.peek2(lex); p.isPunct(open, "(") && open.Pos.Offset == tokEnd(dot) {
				lex.Next()
				x, err := p.paren(lex)
				if err != nil {
					return nil, err
				}
				return &ParenExpr{At: At{p.spanOf(t.Pos.Offset, p.lastEnd(lex))}, X: x, Open: t.Value}, nil
			}
		}
		return &Var{At: at, Name: t.Value}, nil
	case p.lx.tQualIdent:
		lex.Next()
		if dot := lex.Peek(); p.isPunct(dot, ".") && dot.Pos.Offset == tokEnd(t) && p.isPunct(p.peek2(lex), "(") {
			lex.Next() // a.b.(e): a local open of a nested module
			x, err := p.paren(lex)
			if err != nil {
				return nil, err
			}
			return &ParenExpr{At: At{p.spanOf(t.Pos.Offset, p.lastEnd(lex))}, X: x, Open: t.Value}, nil
		}
		parts := strings.Split(t.Value, ".")
		if !primTypes[parts[0]] {
			// r.a.b: field accesses of the variable r (only the numeric
			// modules qualify names).
			off := t.Pos.Offset
			var e Expr = &Var{At: At{p.spanOf(off, off+len(parts[0]))}, Name: parts[0]}
			end := off + len(parts[0])
			for _, f := range parts[1:] {
				end += 1 + len(f)
				e = &Project{At: At{p.spanOf(off, end)}, X: e, Field: -1, Name: f}
			}
			return e, nil
		}
		i := strings.LastIndexByte(t.Value, '.')
		return &Var{At: at, Qual: t.Value[:i], Name: t.Value[i+1:]}, nil
	case p.lx.tKeyword:
		if t.Value == "true" || t.Value == "false" {
			lex.Next()
			return &BoolLit{At: at, Value: t.Value == "true"}, nil
		}
		if unsupportedKeywords[t.Value] {
			return nil, p.errorf(t, "%q starts a declaration, not an expression", t.Value)
		}
	case p.lx.tIndexOpen:
		return p.arrayLit(lex)
	case p.lx.tPunct:
		switch t.Value {
		case "(":
			return p.paren(lex)
		case "[":
			return p.arrayLit(lex)
		case "{":
			return p.recordLit(lex)
		}
		if p.isConstrTok(t) {
			return p.constr(lex, false)
		}
	}
	return nil, p.unexpected(t, "expression")
}

// arrayLit parses `[e1, e2, ...]` (a trailing comma is allowed).
func (p *parser) arrayLit(lex *lexer.PeekingLexer) (Expr, error) {
	start := lex.Next().Pos.Offset
	var elems []Expr
	for !p.isPunct(lex.Peek(), "]") {
		e, err := p.exp(lex)
		if err != nil {
			return nil, err
		}
		elems = append(elems, e)
		t := lex.Peek()
		if p.isPunct(t, ",") {
			lex.Next()
			continue
		}
		if !p.isPunct(t, "]") {
			return nil, p.unexpected(t, `"," or "]"`)
		}
	}
	lex.Next()
	return &ArrayLit{At: At{p.spanOf(start, p.lastEnd(lex))}, Elems: elems}, nil
}

// paren parses everything that starts with "(": unit, parenthesised
// expressions, tuples, and the sections (+) (i32.+) (*2) (2-) (.0).
func (p *parser) paren(lex *lexer.PeekingLexer) (Expr, error) {
	open := lex.Next()
	start := open.Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	t := lex.Peek()
	if p.isPunct(t, ")") {
		lex.Next()
		return &TupleExpr{At: at()}, nil
	}
	if t.Type == p.lx.tProj {
		var fields []int
		var names []string
		named := false
		for t := lex.Peek(); t.Type == p.lx.tProj; t = lex.Peek() {
			lex.Next()
			if name := t.Value[1:]; !isDigit(name[0]) {
				fields, names, named = append(fields, -1), append(names, name), true
				continue
			}
			n, err := p.fieldNumber(t)
			if err != nil {
				return nil, err
			}
			fields, names = append(fields, n), append(names, "")
		}
		if !named {
			names = nil
		}
		sec, err := p.sectionPath(lex, at(), &ProjectSection{At: at(), Fields: fields, Names: names})
		if err != nil {
			return nil, err
		}
		if err := p.closeParen(lex); err != nil {
			return nil, err
		}
		return sec, nil
	}
	if p.isPunct(t, ".") {
		// (.[i]) is an index section.
		lex.Next()
		idx, err := p.bracketIndices(lex, true)
		if err != nil {
			return nil, err
		}
		sec, err := p.sectionPath(lex, at(), &IndexSection{At: at(), Indices: idx.List})
		if err != nil {
			return nil, err
		}
		if err := p.closeParen(lex); err != nil {
			return nil, err
		}
		return sec, nil
	}
	if op, qual, ok := p.binOp(t); ok {
		// (-x) negates and (- x) too; only (-) is a section. `!` is
		// never an infix operator.
		closes := p.isPunct(p.peek2(lex), ")")
		if closes || op != "-" || qual != "" {
			lex.Next()
			if closes {
				lex.Next()
				if p.isFunOp(op, qual) {
					return opFun(op, at()), nil
				}
				return &OpSection{At: at(), Op: op, Qual: qual}, nil
			}
			x, err := p.exp2(lex, 0, false)
			if err != nil {
				return nil, err
			}
			if err := p.closeParen(lex); err != nil {
				return nil, err
			}
			if p.isFunOp(op, qual) {
				// (+^ y) is \x -> x +^ y.
				a := at()
				param := &Var{At: a, Name: sectionParam}
				return &Lambda{At: a, Params: []Pat{&IdPat{At: a, Name: sectionParam}},
					Body: &Apply{At: a, Fn: opFun(op, a), Args: []Expr{param, x}}}, nil
			}
			return &RightSection{At: at(), Op: op, Qual: qual, X: x}, nil
		}
	}
	e, err := p.exp2(lex, 0, true)
	if err != nil {
		return nil, err
	}
	if op, qual, ok := p.binOp(lex.Peek()); ok && p.isPunct(p.peek2(lex), ")") {
		lex.Next()
		lex.Next()
		if p.isFunOp(op, qual) {
			// (x +^) is the partial application (+^) x.
			return &Apply{At: at(), Fn: opFun(op, at()), Args: []Expr{e}}, nil
		}
		return &LeftSection{At: at(), Op: op, Qual: qual, X: e}, nil
	}
	if e, err = p.rangeRest(lex, e, t.Pos.Offset); err != nil {
		return nil, err
	}
	e, err = p.ascriptions(lex, e, t.Pos.Offset)
	if err != nil {
		return nil, err
	}
	if !p.isPunct(lex.Peek(), ",") {
		if err := p.closeParen(lex); err != nil {
			return nil, err
		}
		return &ParenExpr{At: at(), X: e}, nil
	}
	elems := []Expr{e}
	for p.isPunct(lex.Peek(), ",") {
		lex.Next()
		if p.isPunct(lex.Peek(), ")") && len(elems) > 1 {
			break // trailing comma
		}
		e, err := p.exp(lex)
		if err != nil {
			return nil, err
		}
		elems = append(elems, e)
	}
	if err := p.closeParen(lex); err != nil {
		return nil, err
	}
	return &TupleExpr{At: at(), Elems: elems}, nil
}

func (p *parser) closeParen(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if !p.isPunct(t, ")") {
		if _, _, ok := p.binOp(t); ok {
			return p.unexpected(t, `")"`)
		}
		return p.unexpected(t, `")" or ","`)
	}
	lex.Next()
	return nil
}

// parseIndices is registered with participle.ParseTypeWith for `let a[i] =
// v`, where the bracket must follow the name directly.
func (p *parser) parseIndices(lex *lexer.PeekingLexer) (indexSpec, error) {
	if lex.Peek().Type != p.lx.tIndexOpen {
		return nil, participle.NextMatch
	}
	idx, err := p.bracketIndices(lex, false)
	if err != nil {
		return nil, err
	}
	return &idx, nil
}

// bracketIndices parses `[i, j:k:s]`. After `with`, a space before the
// bracket is allowed.
func (p *parser) bracketIndices(lex *lexer.PeekingLexer, spaced bool) (indices, error) {
	open := lex.Peek()
	if open.Type != p.lx.tIndexOpen && !(spaced && p.isPunct(open, "[")) {
		return indices{}, p.unexpected(open, `"["`)
	}
	lex.Next()
	var list []DimIndex
	for {
		d, err := p.dimIndex(lex)
		if err != nil {
			return indices{}, err
		}
		list = append(list, d)
		t := lex.Peek()
		if p.isPunct(t, ",") {
			lex.Next()
			if !p.isPunct(lex.Peek(), "]") { // a trailing comma is allowed
				continue
			}
			t = lex.Peek()
		}
		if p.isPunct(t, "]") {
			lex.Next()
			return indices{Sp: spanOffsets{open.Pos.Offset, p.lastEnd(lex)}, List: list}, nil
		}
		return indices{}, p.unexpected(t, `"," or "]"`)
	}
}

// dimIndex parses one index `i` or slice `i:j:s` (each part optional).
func (p *parser) dimIndex(lex *lexer.PeekingLexer) (DimIndex, error) {
	t := lex.Peek()
	start := t.Pos.Offset
	if p.isPunct(t, "]") || p.isPunct(t, ",") {
		return nil, p.unexpected(t, "index")
	}
	var parts [3]Expr
	if !p.isPunct(t, ":") {
		e, err := p.exp2(lex, 0, false)
		if err != nil {
			return nil, err
		}
		if !p.isPunct(lex.Peek(), ":") {
			return &DimFix{At: At{p.spanOf(start, p.lastEnd(lex))}, I: e}, nil
		}
		parts[0] = e
	}
	// At the first ":".
	for i := 1; i <= 2 && p.isPunct(lex.Peek(), ":"); i++ {
		lex.Next()
		t := lex.Peek()
		if p.isPunct(t, ":") || p.isPunct(t, ",") || p.isPunct(t, "]") {
			continue
		}
		e, err := p.exp2(lex, 0, false)
		if err != nil {
			return nil, err
		}
		parts[i] = e
	}
	return &DimSlice{At: At{p.spanOf(start, p.lastEnd(lex))}, Start: parts[0], End: parts[1], Stride: parts[2]}, nil
}

// ---------------------------------------------------------------------------
// Literals

var intSuffixes = []string{"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}

func (p *parser) intLit(t *lexer.Token, at At) (Expr, error) {
	text := t.Value
	suffix := ""
	for _, s := range intSuffixes {
		if strings.HasSuffix(text, s) {
			suffix = s
			break
		}
	}
	digits := strings.ReplaceAll(strings.TrimSuffix(text, suffix), "_", "")
	base := 10
	switch {
	case strings.HasPrefix(digits, "0x"), strings.HasPrefix(digits, "0X"):
		base, digits = 16, digits[2:]
	case strings.HasPrefix(digits, "0b"), strings.HasPrefix(digits, "0B"):
		base, digits = 2, digits[2:]
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return nil, p.errorf(t, "integer literal %s does not fit in 64 bits", text)
	}
	return &IntLit{At: at, Text: text, Value: v, Suffix: suffix}, nil
}

func (p *parser) floatLit(t *lexer.Token, at At) (Expr, error) {
	text := t.Value
	suffix := ""
	hex := strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X")
	for _, s := range []string{"f16", "f32", "f64"} {
		if strings.HasSuffix(text, s) {
			suffix = s
		}
	}
	digits := strings.ReplaceAll(strings.TrimSuffix(text, suffix), "_", "")
	if hex && !strings.ContainsAny(digits, "pP") {
		return nil, p.errorf(t, "malformed hexadecimal float literal %s", text)
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		// Out of range: ParseFloat has rounded to ±Inf or 0, which is
		// what the literal means in IEEE arithmetic.
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return nil, p.errorf(t, "malformed float literal %s", text)
		}
	}
	return &FloatLit{At: at, Text: text, Value: v, Suffix: suffix}, nil
}

// recordLit parses `{a = e, b, ...}` (a trailing comma is allowed).
func (p *parser) recordLit(lex *lexer.PeekingLexer) (Expr, error) {
	start := lex.Next().Pos.Offset
	var fields []RecordField
	for !p.isPunct(lex.Peek(), "}") {
		n := lex.Peek()
		if n.Type != p.lx.tIdent && n.Type != p.lx.tInt {
			return nil, p.unexpected(n, "field name")
		}
		lex.Next()
		f := RecordField{Name: n.Value}
		if p.isOp(lex.Peek(), "=") {
			lex.Next()
			v, err := p.exp(lex)
			if err != nil {
				return nil, err
			}
			f.Value = v
		} else if n.Type != p.lx.tIdent {
			return nil, p.unexpected(lex.Peek(), `"="`)
		} else {
			// {x} takes the variable x.
			f.Value = &Var{At: At{p.spanOf(n.Pos.Offset, tokEnd(n))}, Name: n.Value}
		}
		f.At = At{p.spanOf(n.Pos.Offset, p.lastEnd(lex))}
		fields = append(fields, f)
		t := lex.Peek()
		if p.isPunct(t, ",") {
			lex.Next()
			continue
		}
		if !p.isPunct(t, "}") {
			return nil, p.unexpected(t, `"," or "}"`)
		}
	}
	lex.Next()
	return &RecordExpr{At: At{p.spanOf(start, p.lastEnd(lex))}, Fields: fields}, nil
}

// charLit is a character literal: as in Futhark, an integer literal whose
// value is the character's code point (so its type is decided like any
// integer literal's, i32 by default).
func (p *parser) charLit(t *lexer.Token, at At) Expr {
	r, _, _ := scanQuoted(t.Value, 0, '\'')
	return &IntLit{At: at, Text: t.Value, Value: uint64(r[0])}
}

// stringLit is a string literal: as in Futhark, the array of its UTF-8
// bytes, of type []u8.
func (p *parser) stringLit(t *lexer.Token, at At) Expr {
	runes, _, _ := scanQuoted(t.Value, 0, '"')
	b := []byte(string(runes))
	elems := make([]Expr, len(b))
	for i, c := range b {
		elems[i] = &IntLit{At: at, Text: strconv.Itoa(int(c)) + "u8", Value: uint64(c), Suffix: "u8"}
	}
	u8 := &ArrayTypeExpr{At: at, Elem: &PrimTypeExpr{At: at, Name: "u8"}}
	return &Ascribe{At: at, X: &ArrayLit{At: at, Elems: elems}, Type: u8}
}

// letField parses `let r.a.b = v in body`, the in-place update of a record
// field, which means `let r = r with a.b = v in body`, and the other
// update paths that mix fields and indices (`let r.xs[0] = v`, `let
// rs[1].a = v`, `let a[0][1] = v`), which mean `let a = a with path = v`.
func (p *parser) letField(lex *lexer.PeekingLexer) (Expr, error) {
	kw := lex.Next()
	name := lex.Next()
	path := strings.Split(name.Value, ".")
	var first []updateStep
	if len(path) > 1 {
		first = []updateStep{{fields: path[1:]}}
	}
	steps, err := p.updateSteps(lex, first)
	if err != nil {
		return nil, err
	}
	if eq := lex.Peek(); !p.isOp(eq, "=") {
		return nil, p.unexpected(eq, `"="`)
	}
	lex.Next()
	val, err := p.exp(lex)
	if err != nil {
		return nil, err
	}
	valEnd := p.lastEnd(lex)
	body, err := p.parseLetBody(lex)
	if err != nil {
		return nil, err
	}
	nameAt := At{p.spanOf(name.Pos.Offset, name.Pos.Offset+len(path[0]))}
	upd := updateChain(At{p.spanOf(name.Pos.Offset, valEnd)}, &Var{At: nameAt, Name: path[0]}, steps, val)
	return &LetIn{At: At{p.spanOf(kw.Pos.Offset, p.lastEnd(lex))}, Pat: &IdPat{At: nameAt, Name: path[0]}, Val: upd, Body: body.get()}, nil
}

// mixedLetPath reports whether the let at the cursor is `let a[...]`
// followed by another index or a field: an update path the let grammar
// (`let a[i] = v`) does not cover.
func (p *parser) mixedLetPath(lex *lexer.PeekingLexer) bool {
	i := lex.Cursor() + 1
	if i+1 >= len(p.toks) || p.toks[i].Type != p.lx.tIdent || p.toks[i+1].Type != p.lx.tIndexOpen {
		return false
	}
	depth := 0
	for j := i + 1; j < len(p.toks); j++ {
		t := &p.toks[j]
		switch {
		case t.Type == p.lx.tIndexOpen || p.isPunct(t, "["):
			depth++
		case p.isPunct(t, "]"):
			depth--
			if depth == 0 {
				if j+1 >= len(p.toks) {
					return false
				}
				n := &p.toks[j+1]
				if n.Type == p.lx.tIndexOpen {
					return true
				}
				return n.Type == p.lx.tProj && !isDigit(n.Value[1])
			}
		}
	}
	return false
}

// updateStep is one step of an update path: indices `[i, j]`, or fields
// `.a.b`.
type updateStep struct {
	indices []DimIndex
	fields  []string
}

// updateSteps parses an update path: after `with`, a first step that is
// field names (`a.b`) or indices (`[i]`, a space allowed before it), then
// any number of indices (`[j]`) and fields (`.c`), in any order; after
// `let a`, the steps already read are first.
func (p *parser) updateSteps(lex *lexer.PeekingLexer, steps []updateStep) ([]updateStep, error) {
	if steps == nil {
		if n := lex.Peek(); n.Type == p.lx.tIdent || n.Type == p.lx.tQualIdent {
			lex.Next()
			steps = append(steps, updateStep{fields: strings.Split(n.Value, ".")})
		} else if fields, ok := tupleFieldPath(p, n); ok {
			// A tuple's fields are numbered: `t with 0 = v`, and `0.1`
			// (which lexes as a float) is the path 0, 1.
			lex.Next()
			steps = append(steps, updateStep{fields: fields})
		} else {
			idx, err := p.bracketIndices(lex, true)
			if err != nil {
				return nil, err
			}
			steps = append(steps, updateStep{indices: idx.List})
		}
	}
	for {
		t := lex.Peek()
		switch {
		case t.Type == p.lx.tIndexOpen:
			idx, err := p.bracketIndices(lex, false)
			if err != nil {
				return nil, err
			}
			// a[i][j] is a[i, j] when i is a single element: one update.
			if last := &steps[len(steps)-1]; last.indices != nil && allFixed(last.indices) {
				last.indices = append(last.indices, idx.List...)
				continue
			}
			steps = append(steps, updateStep{indices: idx.List})
		case t.Type == p.lx.tProj:
			lex.Next()
			if last := &steps[len(steps)-1]; last.fields != nil {
				last.fields = append(last.fields, t.Value[1:])
			} else {
				steps = append(steps, updateStep{fields: []string{t.Value[1:]}})
			}
		default:
			return steps, nil
		}
	}
}

// tupleFieldPath is the field path that a number after `with` names:
// digits (`0`), or two runs of digits joined by a dot (`0.1`).
func tupleFieldPath(p *parser, t *lexer.Token) ([]string, bool) {
	if t.Type != p.lx.tInt && t.Type != p.lx.tFloat {
		return nil, false
	}
	fields := strings.Split(t.Value, ".")
	if len(fields) > 2 || (len(fields) == 2) != (t.Type == p.lx.tFloat) {
		return nil, false
	}
	for _, f := range fields {
		if f == "" || strings.TrimLeft(f, "0123456789") != "" {
			return nil, false
		}
	}
	return fields, true
}

func allFixed(idx []DimIndex) bool {
	for _, d := range idx {
		if _, ok := d.(*DimFix); !ok {
			return false
		}
	}
	return true
}

// updateChain is `x with steps = v`: one Update per step, each inner one
// updating the part of x that the outer one replaces, as Futhark
// desugars `r with xs[i] = v` to `r with xs = (r.xs with [i] = v)`. A
// source that is not a variable is bound to a name first, so that it is
// evaluated once.
func updateChain(at At, x Expr, steps []updateStep, v Expr) Expr {
	if len(steps) > 1 {
		if _, isVar := x.(*Var); !isVar {
			src := &Var{At: At{x.Span()}, Name: "(updated)"}
			return &LetIn{At: at, Pat: &IdPat{At: src.At, Name: src.Name}, Val: x, Body: updateChain(at, src, steps, v)}
		}
	}
	s := steps[0]
	if len(steps) > 1 {
		// The part of x this step reaches, read through a fresh copy of
		// the variable node (every node is checked once).
		xv := x.(*Var)
		var part Expr = &Var{At: xv.At, Qual: xv.Qual, Name: xv.Name}
		if s.fields != nil {
			for _, f := range s.fields {
				if n, err := strconv.Atoi(f); err == nil {
					part = &Project{At: at, X: part, Field: n} // a tuple's element
					continue
				}
				part = &Project{At: at, X: part, Field: -1, Name: f}
			}
		} else {
			part = &Index{At: at, X: part, Indices: s.indices}
		}
		v = updateChain(at, part, steps[1:], v)
	}
	if s.fields != nil {
		return &Update{At: at, X: x, Path: s.fields, Val: v}
	}
	return &Update{At: at, X: x, Indices: s.indices, Val: v}
}
