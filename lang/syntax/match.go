package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/arepl/arepl/lang/source"
)

// Pattern matching: `match e case p -> a case q -> b`, where a pattern is a
// name, `_`, a literal (`1`, `-2`, `1.5f32`, `true`), a tuple or record of
// patterns, a constructor with argument patterns (`#some x`, sums.go), or
// a pattern with a type ascription, as in Futhark. The parser writes it
// as what it means:
//
//	let _match_v = e in
//	if <p matches _match_v> then (let p' = _match_v in a)
//	else (let q' = _match_v in b)
//
// where "p matches v" is the conjunction of `v.path == literal` over p's
// literals and of a ConTest over its constructors, and p' is p with its
// literals and constructors replaced by `_` (a constructor's arguments
// are bound by lets of its payload's components, ConFields, around a).
// The last case is taken without a test: a match that is not exhaustive
// is rejected, as Futhark rejects it (exhaustive.go), so the last case
// matches whatever reaches it. A case without literals or constructors
// matches everything, and the cases after it are never reached. Without
// constructors exhaustiveness is decided here; with them it needs the
// types, and the expansion is wrapped in a Match for the checker.
//
//	match   = "match" exp ("case" mpat "->" exp)+
//	mpat    = minner [":" type]
//	minner  = name | "_" | literal | "-" number | char | "(" [mpat ("," mpat)*] ")"
//	        | "{" [field ["=" mpat] ("," field ["=" mpat])*] "}" | constr marg*

// matchScrutinee names the matched value in the expansion; a leading
// underscore keeps it out of the way of the user's names.
const matchScrutinee = "_match_v"

// mpat is a parsed match pattern, before expansion. Exactly one of its
// shapes is used: a binding (name or wildcard), a literal, a tuple, a
// record, or an ascription of an inner pattern.
type mpat struct {
	at     At
	bind   Pat     // a name or wildcard
	lit    Expr    // a literal, compared with ==
	elems  []*mpat // a tuple's components (tuple is set)
	tuple  bool
	fields []mfield // a record's fields (record is set)
	record bool
	inner  *mpat // ascription: inner : typ
	typ    TypeExpr
	con    string   // a constructor pattern (sums.go): its name,
	args   []*mpat  // its arguments,
	test   *ConTest // and the test the expansion made for it
}

type mfield struct {
	at   At
	name string
	pat  *mpat
}

// match parses a match expression at the "match" keyword.
func (p *parser) match(lex *lexer.PeekingLexer) (Expr, error) {
	kw := lex.Next()
	start := kw.Pos.Offset
	scrut, err := p.exp(lex)
	if err != nil {
		return nil, err
	}
	var arms []matchArm
	for p.isKeyword(lex.Peek(), "case") {
		lex.Next()
		mp, err := p.matchPat(lex)
		if err != nil {
			return nil, err
		}
		if a := lex.Peek(); !p.isOp(a, "->") {
			return nil, p.unexpected(a, `"->"`)
		}
		lex.Next()
		body, err := p.exp(lex)
		if err != nil {
			return nil, err
		}
		arms = append(arms, matchArm{mp, body})
	}
	if len(arms) == 0 {
		return nil, p.unexpected(lex.Peek(), `"case"`)
	}
	return p.expandMatch(kw, At{p.spanOf(start, p.lastEnd(lex))}, scrut, arms)
}

// matchArm is one case of a match.
type matchArm struct {
	pat  *mpat
	body Expr
}

// expandMatch writes the match of scrut against arms (at the keyword kw,
// spanning at) as what it means.
func (p *parser) expandMatch(kw *lexer.Token, at At, scrut Expr, arms []matchArm) (Expr, error) {
	pats := make([]*mpat, len(arms))
	for i, a := range arms {
		pats[i] = a.pat
	}
	withCons := false
	for _, mp := range pats {
		withCons = withCons || hasConstr(mp)
	}
	if w := unmatched(pats); !withCons && w != "" && kw != nil {
		return nil, p.errorf(kw, "Unmatched cases in match expression: %s", w)
	}
	v := func(a At) Expr { return &Var{At: a, Name: matchScrutinee} }
	// Build the chain of ifs from the last case back.
	var chain Expr
	for i := len(arms) - 1; i >= 0; i-- {
		a := arms[i]
		conds, bind, lets := expandMatchPatLets(a.pat, v(a.pat.at))
		armAt := At{source.Span{Start: a.pat.at.Span().Start, End: a.body.Span().End}}
		body := a.body
		for k := len(lets) - 1; k >= 0; k-- {
			body = &LetIn{At: armAt, Pat: lets[k].pat, Val: lets[k].val, Body: body}
		}
		taken := &LetIn{At: armAt, Pat: bind, Val: v(a.pat.at), Body: body}
		if chain == nil && withCons && len(conds) > 0 {
			// The last case is taken untested, but its constructors
			// must still be checked against the scrutinee's type:
			// its test is bound and unused.
			taken = &LetIn{At: armAt, Pat: &WildPat{At: a.pat.at}, Val: andAll(conds, a.pat.at), Body: taken}
		}
		if chain == nil || len(conds) == 0 {
			chain = taken
			continue
		}
		chain = &If{At: at, Cond: andAll(conds, a.pat.at), Then: taken, Else: chain}
	}
	whole := &LetIn{At: at, Pat: &IdPat{At: At{scrut.Span()}, Name: matchScrutinee}, Val: scrut, Body: chain}
	if withCons {
		return &Match{At: at, Body: whole, Scrut: scrut, cases: pats}, nil
	}
	return whole, nil
}

// expandMatchPat returns the tests that decide whether x matches mp, and
// the binding pattern that then destructures x. The tests' nodes take x's
// span (the whole case pattern), inside which every node of them lies.
//
// A constructor pattern binds nothing in that pattern (a wildcard): its
// arguments are bound to its payload's components by the lets returned,
// which the case's body is put inside, in order.
func expandMatchPatLets(mp *mpat, x Expr) ([]Expr, Pat, []matchLet) {
	xat := At{x.Span()}
	switch {
	case mp.bind != nil:
		return nil, mp.bind, nil
	case mp.lit != nil:
		eq := &BinOp{At: xat, Op: "==", OpPos: mp.at.Pos(), Lhs: x, Rhs: mp.lit}
		return []Expr{eq}, &WildPat{At: mp.at}, nil
	case mp.con != "":
		conds, lets := expandConstr(mp, x)
		return conds, &WildPat{At: mp.at}, lets
	case mp.tuple:
		var conds []Expr
		var elems []Pat
		var lets []matchLet
		for i, e := range mp.elems {
			c, b, ls := expandMatchPatLets(e, &Project{At: xat, X: x, Field: i})
			conds = append(conds, c...)
			elems = append(elems, b)
			lets = append(lets, ls...)
		}
		return conds, &TuplePat{At: mp.at, Elems: elems}, lets
	case mp.record:
		var conds []Expr
		var fields []RecordField
		var lets []matchLet
		for _, f := range mp.fields {
			c, b, ls := expandMatchPatLets(f.pat, &Project{At: xat, X: x, Field: -1, Name: f.name})
			conds = append(conds, c...)
			fields = append(fields, RecordField{At: f.at, Name: f.name, Pat: b})
			lets = append(lets, ls...)
		}
		return conds, &RecordPat{At: mp.at, Fields: fields}, lets
	default: // ascription
		conds, b, lets := expandMatchPatLets(mp.inner, x)
		return conds, &AscribedPat{At: mp.at, Pat: b, Type: mp.typ}, lets
	}
}

// matchPat parses a match pattern with an optional ascription.
func (p *parser) matchPat(lex *lexer.PeekingLexer) (*mpat, error) {
	start := lex.Peek().Pos.Offset
	inner, err := p.matchInner(lex)
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
	return &mpat{at: At{p.spanOf(start, p.lastEnd(lex))}, inner: inner, typ: t}, nil
}

func (p *parser) matchInner(lex *lexer.PeekingLexer) (*mpat, error) {
	if err := p.enter(lex); err != nil {
		return nil, err
	}
	defer p.leave()
	t := lex.Peek()
	start := t.Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	switch {
	case p.isConstrTok(t):
		return p.constrPat(lex, true)
	case t.Type == p.lx.tIdent:
		lex.Next()
		return &mpat{at: at(), bind: &IdPat{At: at(), Name: t.Value}}, nil
	case p.isPunct(t, "_"):
		lex.Next()
		return &mpat{at: at(), bind: &WildPat{At: at()}}, nil
	case t.Type == p.lx.tInt, t.Type == p.lx.tFloat, t.Type == p.lx.tChar, p.isKeyword(t, "true"), p.isKeyword(t, "false"):
		lit, err := p.primary(lex)
		if err != nil {
			return nil, err
		}
		return &mpat{at: at(), lit: lit}, nil
	case p.isOp(t, "-"):
		lex.Next()
		n := lex.Peek()
		if n.Type != p.lx.tInt && n.Type != p.lx.tFloat {
			return nil, p.unexpected(n, "number")
		}
		lit, err := p.primary(lex)
		if err != nil {
			return nil, err
		}
		return &mpat{at: at(), lit: &Negate{At: at(), X: lit}}, nil
	case p.isPunct(t, "("):
		lex.Next()
		elems, err := commaList(p, lex, ")", p.matchPat)
		if err != nil {
			return nil, err
		}
		if len(elems) == 1 {
			return elems[0], nil
		}
		return &mpat{at: at(), tuple: true, elems: elems}, nil
	case p.isPunct(t, "{"):
		lex.Next()
		mp := &mpat{record: true}
		for !p.isPunct(lex.Peek(), "}") {
			n := lex.Peek()
			if n.Type != p.lx.tIdent && n.Type != p.lx.tInt {
				return nil, p.unexpected(n, "field name")
			}
			lex.Next()
			nat := At{p.spanOf(n.Pos.Offset, tokEnd(n))}
			f := mfield{name: n.Value}
			if p.isOp(lex.Peek(), "=") {
				lex.Next()
				q, err := p.matchPat(lex)
				if err != nil {
					return nil, err
				}
				f.pat = q
			} else if n.Type == p.lx.tIdent {
				f.pat = &mpat{at: nat, bind: &IdPat{At: nat, Name: n.Value}}
			} else {
				return nil, p.unexpected(lex.Peek(), `"="`)
			}
			f.at = At{p.spanOf(n.Pos.Offset, p.lastEnd(lex))}
			mp.fields = append(mp.fields, f)
			if c := lex.Peek(); p.isPunct(c, ",") {
				lex.Next()
			} else if !p.isPunct(c, "}") {
				return nil, p.unexpected(c, `"," or "}"`)
			}
		}
		lex.Next()
		mp.at = at()
		return mp, nil
	}
	return nil, p.unexpected(t, "pattern")
}

// andAll is the conjunction of a case's tests.
func andAll(conds []Expr, at At) Expr {
	cond := conds[0]
	for _, c := range conds[1:] {
		cond = &BinOp{At: at, Op: "&&", OpPos: at.Pos(), Lhs: cond, Rhs: c}
	}
	return cond
}
