package syntax

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Patterns, types and size parameters:
//
//	pat      = innerPat [":" type]
//	innerPat = name | "_" | "(" [pat ("," pat)* [","]] ")"
//	type     = term ["->" type]
//	term     = "*" term | "[" [name | int] "]" term | name | "(" [type ("," type)* [","]] ")"
//	size     = "[" name "]"
//
// The functions registered with participle.ParseTypeWith return
// participle.NextMatch when the next token cannot start what they parse,
// so that participle tries the next alternative; any other failure is
// hard: they move the lexer to the end of input so that no enclosing
// optional group backtracks over it (see hard).

// hard makes err final for participle: an optional group or repetition
// only gives up on a failed branch when the branch has not progressed, so
// consuming the rest of the input makes it report err as it is. Errors end
// the parse in any case; the caller resumes from its own checkpoint.
func hard[T any](lex *lexer.PeekingLexer, err error) (T, error) {
	var zero T
	if err == participle.NextMatch {
		return zero, err
	}
	for !lex.Peek().EOF() {
		lex.Next()
	}
	return zero, err
}

// parsePatField parses a pattern with optional ascription (let, loop, for).
func (p *parser) parsePatField(lex *lexer.PeekingLexer) (Pat, error) {
	if !p.startsPat(lex.Peek()) {
		return nil, participle.NextMatch
	}
	pat, err := p.pat(lex)
	if err != nil {
		return hard[Pat](lex, err)
	}
	return pat, nil
}

// parseParamField parses a function or lambda parameter.
func (p *parser) parseParamField(lex *lexer.PeekingLexer) (paramSpec, error) {
	if !p.startsPat(lex.Peek()) {
		return nil, participle.NextMatch
	}
	pat, err := p.innerPat(lex)
	if err != nil {
		return hard[paramSpec](lex, err)
	}
	return paramBox{pat}, nil
}

// parseTypeField parses a type, arrows included.
func (p *parser) parseTypeField(lex *lexer.PeekingLexer) (TypeExpr, error) {
	t, err := p.typ(lex)
	if err != nil {
		return hard[TypeExpr](lex, err)
	}
	return t, nil
}

// parseTypeTermField parses a type with no top-level arrow.
func (p *parser) parseTypeTermField(lex *lexer.PeekingLexer) (typeTermSpec, error) {
	t, err := p.typeTerm(lex)
	if err != nil {
		return hard[typeTermSpec](lex, err)
	}
	return termBox{t}, nil
}

// parseSizeField parses a size parameter `[n]`.
func (p *parser) parseSizeField(lex *lexer.PeekingLexer) (sizeSpec, error) {
	open := lex.Peek()
	if open.Type == p.lx.tTParam {
		lex.Next()
		return sizeBox{SizeParam{At: At{p.spanOf(open.Pos.Offset, tokEnd(open))}, Name: strings.TrimLeft(open.Value, "'~^"), Type: true, Lifted: strings.HasPrefix(open.Value, "'^")}}, nil
	}
	if !p.isOpenBracket(open) {
		return nil, participle.NextMatch
	}
	lex.Next()
	name := lex.Peek()
	if name.Type != p.lx.tIdent {
		return hard[sizeSpec](lex, p.unexpected(name, "size name"))
	}
	lex.Next()
	if t := lex.Peek(); !p.isPunct(t, "]") {
		return hard[sizeSpec](lex, p.unexpected(t, `"]"`))
	}
	lex.Next()
	return sizeBox{SizeParam{At: At{p.spanOf(open.Pos.Offset, p.lastEnd(lex))}, Name: name.Value}}, nil
}

// parseExprField is parseExpr for grammar fields: its errors are hard.
func (p *parser) parseExprField(lex *lexer.PeekingLexer) (Expr, error) {
	e, err := p.exp(lex)
	if err != nil {
		return hard[Expr](lex, err)
	}
	return e, nil
}

// parseLetBody parses what follows `let p = e`: `in body`, or another let
// directly (Futhark lets `in` be left out there).
func (p *parser) parseLetBody(lex *lexer.PeekingLexer) (letBodySpec, error) {
	t := lex.Peek()
	switch {
	case p.isKeyword(t, "in"):
		lex.Next()
	case p.isKeyword(t, "let"):
	default:
		return hard[letBodySpec](lex, p.unexpected(t, `"in"`))
	}
	// The body is in tail position: a chain of lets is a sequence, not
	// nesting, so it does not count toward maxDepth (the let itself was
	// entered one level below). It has its own, far larger bound: every
	// pass after the parser still recurses once per let.
	if p.lets >= maxLets {
		return hard[letBodySpec](lex, p.errorf(t, "too many lets in sequence (more than %d)", maxLets))
	}
	p.depth--
	p.lets++
	e, err := p.exp(lex)
	p.lets--
	p.depth++
	if err != nil {
		return hard[letBodySpec](lex, err)
	}
	return exprBox{e}, nil
}

func (p *parser) isOpenBracket(t *lexer.Token) bool {
	return t.Type == p.lx.tIndexOpen || p.isPunct(t, "[")
}

func (p *parser) startsPat(t *lexer.Token) bool {
	return t.Type == p.lx.tIdent || p.isPunct(t, "_") || p.isPunct(t, "(") || p.isPunct(t, "{") || p.isConstrTok(t)
}

// recordFields parses `{f1 sep x1, f2, ...}` for record patterns
// (sep "=", a pattern) and record types (sep ":", a type).
func (p *parser) recordFields(lex *lexer.PeekingLexer, pattern bool) (At, []RecordField, error) {
	start := lex.Next().Pos.Offset
	var fields []RecordField
	for !p.isPunct(lex.Peek(), "}") {
		n := lex.Peek()
		if n.Type != p.lx.tIdent && n.Type != p.lx.tInt {
			return At{}, nil, p.unexpected(n, "field name")
		}
		lex.Next()
		f := RecordField{Name: n.Value}
		switch {
		case pattern && p.isOp(lex.Peek(), "="):
			lex.Next()
			q, err := p.pat(lex)
			if err != nil {
				return At{}, nil, err
			}
			f.Pat = q
		case pattern && p.isPunct(lex.Peek(), ":"):
			lex.Next()
			t, err := p.typ(lex)
			if err != nil {
				return At{}, nil, err
			}
			f.Pat = &AscribedPat{At: At{p.spanOf(n.Pos.Offset, p.lastEnd(lex))},
				Pat: &IdPat{At: At{p.spanOf(n.Pos.Offset, tokEnd(n))}, Name: n.Value}, Type: t}
		case pattern:
			if n.Type != p.lx.tIdent {
				return At{}, nil, p.unexpected(lex.Peek(), `"="`)
			}
			f.Pat = &IdPat{At: At{p.spanOf(n.Pos.Offset, tokEnd(n))}, Name: n.Value}
		default:
			if c := lex.Peek(); !p.isPunct(c, ":") {
				return At{}, nil, p.unexpected(c, `":"`)
			}
			lex.Next()
			t, err := p.typ(lex)
			if err != nil {
				return At{}, nil, err
			}
			f.Type = t
		}
		f.At = At{p.spanOf(n.Pos.Offset, p.lastEnd(lex))}
		fields = append(fields, f)
		t := lex.Peek()
		if p.isPunct(t, ",") {
			lex.Next()
			continue
		}
		if !p.isPunct(t, "}") {
			return At{}, nil, p.unexpected(t, `"," or "}"`)
		}
	}
	lex.Next()
	return At{p.spanOf(start, p.lastEnd(lex))}, fields, nil
}

func (p *parser) pat(lex *lexer.PeekingLexer) (Pat, error) {
	start := lex.Peek().Pos.Offset
	inner, err := p.innerPat(lex)
	if err != nil {
		return nil, err
	}
	if !p.isPunct(lex.Peek(), ":") {
		return inner, nil
	}
	lex.Next()
	t, err := p.typ(lex)
	if err != nil {
		return nil, err
	}
	return &AscribedPat{At: At{p.spanOf(start, p.lastEnd(lex))}, Pat: inner, Type: t}, nil
}

// innerPat parses a pattern without a top-level ascription; `(p)` is p
// itself, and `(p: t)` takes the span of the parentheses.
func (p *parser) innerPat(lex *lexer.PeekingLexer) (Pat, error) {
	if err := p.enter(lex); err != nil {
		return nil, err
	}
	defer p.leave()
	t := lex.Peek()
	at := At{p.spanOf(t.Pos.Offset, tokEnd(t))}
	switch {
	case t.Type == p.lx.tIdent:
		lex.Next()
		return &IdPat{At: at, Name: t.Value}, nil
	case p.isConstrTok(t):
		mp, err := p.constrPat(lex, true)
		if err != nil {
			return nil, err
		}
		return &ConPat{At: mp.at, mp: mp, tok: t.Pos}, nil
	case p.isPunct(t, "_"):
		lex.Next()
		return &WildPat{At: at}, nil
	case p.isPunct(t, "{"):
		rat, fields, err := p.recordFields(lex, true)
		if err != nil {
			return nil, err
		}
		return &RecordPat{At: rat, Fields: fields}, nil
	case p.isPunct(t, "("):
		lex.Next()
		elems, err := commaList(p, lex, ")", p.pat)
		if err != nil {
			return nil, err
		}
		at := At{p.spanOf(t.Pos.Offset, p.lastEnd(lex))}
		if len(elems) == 1 {
			if a, ok := elems[0].(*AscribedPat); ok {
				a.At = at
			}
			return elems[0], nil
		}
		return &TuplePat{At: at, Elems: elems}, nil
	}
	return nil, p.unexpected(t, "pattern")
}

// typ parses a type: a term, or a function type `a -> b` (right
// associative).
func (p *parser) typ(lex *lexer.PeekingLexer) (TypeExpr, error) {
	start := lex.Peek().Pos.Offset
	if p.isConstrTok(lex.Peek()) {
		return p.sumType(lex)
	}
	param, err := p.typeTerm(lex)
	if err != nil {
		return nil, err
	}
	if !p.isOp(lex.Peek(), "->") {
		return param, nil
	}
	lex.Next()
	ret, err := p.typ(lex)
	if err != nil {
		return nil, err
	}
	return &FuncTypeExpr{At: At{p.spanOf(start, p.lastEnd(lex))}, Param: param, Ret: ret}, nil
}

// primTypes are the type names of the subset.
var primTypes = map[string]bool{
	"bool": true, "i8": true, "i16": true, "i32": true, "i64": true,
	"u8": true, "u16": true, "u32": true, "u64": true, "f32": true, "f64": true, "f16": true,
}

func (p *parser) typeTerm(lex *lexer.PeekingLexer) (TypeExpr, error) {
	if err := p.enter(lex); err != nil {
		return nil, err
	}
	defer p.leave()
	t := lex.Peek()
	start := t.Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	switch {
	case p.isOp(t, "*"):
		lex.Next()
		elem, err := p.typeTerm(lex)
		if err != nil {
			return nil, err
		}
		return &UniqueTypeExpr{At: at(), Elem: elem}, nil
	case p.isOpenBracket(t):
		lex.Next()
		dim, err := p.dimExpr(lex)
		if err != nil {
			return nil, err
		}
		if c := lex.Peek(); !p.isPunct(c, "]") {
			return nil, p.unexpected(c, `"]"`)
		}
		lex.Next()
		var elem TypeExpr
		if p.isConstrTok(lex.Peek()) {
			elem, err = p.sumType(lex) // []#foo | #bar, as in Futhark
		} else {
			elem, err = p.typeTerm(lex)
		}
		if err != nil {
			return nil, err
		}
		return &ArrayTypeExpr{At: at(), Dim: dim, Elem: elem}, nil
	case t.Type == p.lx.tIdent || t.Type == p.lx.tQualIdent: // m.t: a module's type
		lex.Next()
		if primTypes[t.Value] {
			return &PrimTypeExpr{At: at(), Name: t.Value}, nil
		}
		var args []TypeArg
		for {
			n := lex.Peek()
			// In argument position a bracket is a size argument
			// (`vec [n] i32`), as in Futhark; an array type argument
			// is written in parentheses.
			if p.isOpenBracket(n) {
				lex.Next()
				d, err := p.dimExpr(lex)
				if err != nil {
					return nil, err
				}
				if c := lex.Peek(); !p.isPunct(c, "]") {
					return nil, p.unexpected(c, `"]"`)
				}
				lex.Next()
				if d == nil {
					d = &DimExpr{At: At{p.spanOf(n.Pos.Offset, p.lastEnd(lex))}, Const: -1}
				}
				args = append(args, TypeArg{Dim: d})
				continue
			}
			if n.Type == p.lx.tIdent || n.Type == p.lx.tQualIdent || p.isPunct(n, "(") {
				a, err := p.typeTerm(lex)
				if err != nil {
					return nil, err
				}
				args = append(args, TypeArg{Type: a})
				continue
			}
			break
		}
		return &NamedTypeExpr{At: at(), Name: t.Value, Args: args}, nil
	case p.isPunct(t, "?"):
		return p.existential(lex)
	case p.isPunct(t, "{"):
		rat, fields, err := p.recordFields(lex, false)
		if err != nil {
			return nil, err
		}
		return &RecordTypeExpr{At: rat, Fields: fields}, nil
	case p.isPunct(t, "(") && p.peek2(lex).Type == p.lx.tIdent && p.isPunct(p.peekAt(lex, 2), ":"):
		return p.namedParamType(lex)
	case p.isPunct(t, "("):
		lex.Next()
		elems, err := commaList(p, lex, ")", p.typ)
		if err != nil {
			return nil, err
		}
		if len(elems) == 1 {
			return elems[0], nil
		}
		return &TupleTypeExpr{At: at(), Elems: elems}, nil
	}
	return nil, p.unexpected(t, "type")
}

// dimExpr parses what is inside the brackets of an array type, up to the
// "]": nothing (nil), a size name, a constant or a size expression.
func (p *parser) dimExpr(lex *lexer.PeekingLexer) (*DimExpr, error) {
	d := lex.Peek()
	dat := At{p.spanOf(d.Pos.Offset, tokEnd(d))}
	if p.isPunct(d, "]") {
		return nil, nil
	}
	if n := p.peek2(lex); p.isPunct(n, "]") {
		switch d.Type {
		case p.lx.tIdent:
			lex.Next()
			return &DimExpr{At: dat, Name: d.Value}, nil
		case p.lx.tInt:
			lex.Next()
			v, err := strconv.ParseInt(strings.TrimSuffix(strings.ReplaceAll(d.Value, "_", ""), "i64"), 10, 64)
			if err != nil {
				return nil, p.errorf(d, "array size %s must be a plain decimal number", d.Value)
			}
			return &DimExpr{At: dat, Const: v}, nil
		}
	}
	start := d.Pos.Offset
	e, err := p.exp2(lex, 0, false)
	if err != nil {
		return nil, err
	}
	return &DimExpr{At: At{p.spanOf(start, p.lastEnd(lex))}, Expr: e}, nil
}

// peekAt is the token k places after the next one (peek2 is peekAt 1).
func (p *parser) peekAt(lex *lexer.PeekingLexer, k int) *lexer.Token {
	i := lex.Cursor() + k
	if i >= len(p.toks) {
		return &p.toks[len(p.toks)-1]
	}
	return &p.toks[i]
}

// namedParamType parses a function type whose parameter is named,
// `(n: i64) -> [n]t`, so that sizes in the result may refer to it. As for
// an existential, sizes are checked loosely: the result's sizes that name
// the parameter become anonymous, `i64 -> []t`.
func (p *parser) namedParamType(lex *lexer.PeekingLexer) (TypeExpr, error) {
	start := lex.Next().Pos.Offset
	name := lex.Next().Value
	lex.Next() // ":"
	param, err := p.typ(lex)
	if err != nil {
		return nil, err
	}
	if c := lex.Peek(); !p.isPunct(c, ")") {
		return nil, p.unexpected(c, `")"`)
	}
	lex.Next()
	if a := lex.Peek(); !p.isOp(a, "->") {
		return nil, p.unexpected(a, `"->" (a named parameter's function type)`)
	}
	lex.Next()
	ret, err := p.typ(lex)
	if err != nil {
		return nil, err
	}
	eraseSizes(ret, map[string]bool{name: true})
	return &FuncTypeExpr{At: At{p.spanOf(start, p.lastEnd(lex))}, Param: param, Ret: ret}, nil
}

// existential parses `?[n][m].t`, a type whose sizes n and m are unknown
// until run time (a function's result whose size it computes). Sizes are
// checked loosely (README), so each such size becomes an anonymous one:
// the type means t with n and m written as [].
func (p *parser) existential(lex *lexer.PeekingLexer) (TypeExpr, error) {
	lex.Next()
	names := map[string]bool{}
	for p.isOpenBracket(lex.Peek()) {
		lex.Next()
		n := lex.Peek()
		if n.Type != p.lx.tIdent {
			return nil, p.unexpected(n, "size name")
		}
		lex.Next()
		if c := lex.Peek(); !p.isPunct(c, "]") {
			return nil, p.unexpected(c, `"]"`)
		}
		lex.Next()
		names[n.Value] = true
	}
	if len(names) == 0 {
		return nil, p.unexpected(lex.Peek(), `"[" (a size name) after "?"`)
	}
	if d := lex.Peek(); !p.isPunct(d, ".") {
		return nil, p.unexpected(d, `"."`)
	}
	lex.Next()
	t, err := p.typeTerm(lex)
	if err != nil {
		return nil, err
	}
	eraseSizes(t, names)
	return t, nil
}

// eraseSizes makes every dimension of t named in names anonymous.
func eraseSizes(t TypeExpr, names map[string]bool) {
	dim := func(d *DimExpr) *DimExpr {
		if d != nil && d.Expr == nil && names[d.Name] {
			return nil
		}
		return d
	}
	switch t := t.(type) {
	case *ArrayTypeExpr:
		t.Dim = dim(t.Dim)
		eraseSizes(t.Elem, names)
	case *TupleTypeExpr:
		for _, e := range t.Elems {
			eraseSizes(e, names)
		}
	case *UniqueTypeExpr:
		eraseSizes(t.Elem, names)
	case *FuncTypeExpr:
		eraseSizes(t.Param, names)
		eraseSizes(t.Ret, names)
	case *RecordTypeExpr:
		for _, f := range t.Fields {
			if f.Type != nil {
				eraseSizes(f.Type, names)
			}
		}
	case *NamedTypeExpr:
		for i, a := range t.Args {
			if a.Type != nil {
				eraseSizes(a.Type, names)
			} else if a.Dim != nil && a.Dim.Expr == nil && names[a.Dim.Name] {
				t.Args[i].Dim = &DimExpr{At: a.Dim.At, Const: -1}
			}
		}
	case *PrimTypeExpr:
	}
}
