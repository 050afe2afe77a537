package syntax

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/arepl/arepl/lang/source"
)

// Sum types, Futhark's way: a sum type is written as its constructors,
// `#circle f32 | #rect f32 f32 | #empty`, and is structural, so the
// parser only records what it reads. A constructor is one token, `#name`,
// which the lexer gives the Punct class (no other Punct token starts with
// "#"). Matching on constructors needs the scrutinee's type (which
// constructors exist, in which order), so the parser expands such a match
// into tests and projections that the checker types and lowering turns
// into tag comparisons (match.go), and wraps it in a Match node whose
// exhaustiveness the checker decides once the types are known.
//
//	sumtype = constr payload* ("|" constr payload*)*
//	payload = name | "(" ... ")" | "[" ... "]" ... | "{" ... "}"
//	exp     = ... | constr atom*            (at the head of an application)
//	mpat    = ... | constr mpatArg*

// SumTypeExpr is a sum type written out: its constructors, as written.
type SumTypeExpr struct {
	At
	Cons []SumCon
}

// SumCon is one constructor of a sum type and its payload types.
type SumCon struct {
	At
	Name    string // without the "#"
	Payload []TypeExpr
}

func (*SumTypeExpr) typeExpr() {}

// Constr is a constructor applied to its payload, `#some 3` (Args empty
// for a constructor without one).
type Constr struct {
	At
	Name string
	Args []Expr
}

// ConTest is true when X, a value of a sum type, was made by constructor
// Name, which has Arity payload components. Only the expansion of a match
// writes it.
type ConTest struct {
	At
	X     Expr
	Name  string
	Arity int
}

// ConField is payload component Field of X, a value of a sum type that
// the constructor Name (of Arity components) made. Only the expansion of
// a match writes it, under a ConTest of the same constructor.
type ConField struct {
	At
	X     Expr
	Name  string
	Arity int
	Field int
}

// Match is a match with constructor patterns: Body is its expansion (a let
// of the scrutinee and a chain of ifs, as for any match), Scrut the
// matched expression inside it. The checker decides exhaustiveness with
// Unmatched once the types are known; walkers only see Body.
type Match struct {
	At
	Body  Expr
	Scrut Expr
	cases []*mpat
}

func (*Constr) expr()   {}
func (*ConTest) expr()  {}
func (*ConField) expr() {}
func (*Match) expr()    {}

// ConSig is a constructor of a sum type and its number of payload
// components, as the checker reports them to Unmatched.
type ConSig struct {
	Name  string
	Arity int
}

// Unmatched returns a value that no case of m matches, as Futhark prints
// it, or "" when the cases are exhaustive. sigs gives the constructors of
// the sum type of a path into the scrutinee (the X of a ConTest: a
// variable, projections and ConFields), nil where it is unknown (after a
// type error, when nothing is reported).
func (m *Match) Unmatched(sigs func(path Expr) []ConSig) string {
	rows := make([][]*mpat, len(m.cases))
	for i, c := range m.cases {
		rows[i] = []*mpat{c}
	}
	w, ok := missingWith(rows, 1, sigs)
	if !ok {
		return ""
	}
	return w[0]
}

// isConstrTok reports whether t is a constructor, `#name`.
func (p *parser) isConstrTok(t *lexer.Token) bool {
	return t.Type == p.lx.tPunct && len(t.Value) > 1 && t.Value[0] == '#'
}

// constrName is the constructor's name without the "#".
func constrName(t *lexer.Token) string { return strings.TrimPrefix(t.Value, "#") }

// sumType parses a sum type at its first constructor.
func (p *parser) sumType(lex *lexer.PeekingLexer) (TypeExpr, error) {
	start := lex.Peek().Pos.Offset
	st := &SumTypeExpr{}
	for {
		t := lex.Peek()
		if !p.isConstrTok(t) {
			if t.EOF() {
				return nil, p.unexpected(t, "constructor")
			}
			// Futhark's wording, which its tests match.
			return nil, p.errorf(t, "Unexpected token: '%s' (a constructor of a sum type is #name)", t.Value)
		}
		lex.Next()
		con := SumCon{Name: constrName(t)}
		for {
			n := lex.Peek()
			if n.Type != p.lx.tIdent && !p.isPunct(n, "(") && !p.isPunct(n, "{") && !p.isOpenBracket(n) && !p.isOp(n, "*") {
				break
			}
			pt, err := p.payloadType(lex)
			if err != nil {
				return nil, err
			}
			con.Payload = append(con.Payload, pt)
		}
		con.At = At{p.spanOf(t.Pos.Offset, p.lastEnd(lex))}
		st.Cons = append(st.Cons, con)
		if !p.isOp(lex.Peek(), "|") {
			break
		}
		lex.Next()
	}
	st.At = At{p.spanOf(start, p.lastEnd(lex))}
	return st, nil
}

// payloadType parses one payload type of a constructor: a type atom, so a
// type name takes no arguments there (`#foo some i32` has two payloads),
// as in Futhark.
func (p *parser) payloadType(lex *lexer.PeekingLexer) (TypeExpr, error) {
	t := lex.Peek()
	if t.Type != p.lx.tIdent {
		return p.typeTerm(lex)
	}
	lex.Next()
	at := At{p.spanOf(t.Pos.Offset, tokEnd(t))}
	if primTypes[t.Value] {
		return &PrimTypeExpr{At: at, Name: t.Value}, nil
	}
	return &NamedTypeExpr{At: at, Name: t.Value}, nil
}

// constr parses a constructor at the head of an application with its
// payload arguments (atoms, as a function's arguments are).
func (p *parser) constr(lex *lexer.PeekingLexer, withArgs bool) (Expr, error) {
	t := lex.Next()
	start := t.Pos.Offset
	c := &Constr{Name: constrName(t)}
	for withArgs {
		n := lex.Peek()
		if p.isPunct(n, "\\") {
			lam, err := p.lambda(lex)
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, lam)
			break
		}
		if !p.startsAtom(n) {
			break // a constructor argument is a bare (nullary) one, as #none in `#pair 1 #none`
		}
		a, err := p.atom(lex)
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
	}
	c.At = At{p.spanOf(start, p.lastEnd(lex))}
	return c, nil
}

// constrPat parses a constructor pattern, `#some x` (withArgs) or a bare
// `#none` (an argument of another constructor pattern).
func (p *parser) constrPat(lex *lexer.PeekingLexer, withArgs bool) (*mpat, error) {
	t := lex.Next()
	start := t.Pos.Offset
	mp := &mpat{con: constrName(t)}
	for withArgs {
		n := lex.Peek()
		if !p.startsMatchArg(n) {
			break
		}
		var a *mpat
		var err error
		if p.isConstrTok(n) {
			a, err = p.constrPat(lex, false)
		} else {
			a, err = p.matchInner(lex)
		}
		if err != nil {
			return nil, err
		}
		mp.args = append(mp.args, a)
	}
	mp.at = At{p.spanOf(start, p.lastEnd(lex))}
	return mp, nil
}

// startsMatchArg reports whether t starts an argument of a constructor
// pattern.
func (p *parser) startsMatchArg(t *lexer.Token) bool {
	switch {
	case t.Type == p.lx.tIdent, t.Type == p.lx.tInt, t.Type == p.lx.tFloat, t.Type == p.lx.tChar:
		return true
	case p.isKeyword(t, "true"), p.isKeyword(t, "false"):
		return true
	case p.isPunct(t, "_"), p.isPunct(t, "("), p.isPunct(t, "{"), p.isConstrTok(t):
		return true
	}
	return false
}

// hasConstr reports whether a match pattern contains a constructor.
func hasConstr(mp *mpat) bool {
	switch {
	case mp == nil:
		return false
	case mp.con != "":
		return true
	case mp.inner != nil:
		return hasConstr(mp.inner)
	}
	for _, e := range mp.elems {
		if hasConstr(e) {
			return true
		}
	}
	for _, f := range mp.fields {
		if hasConstr(f.pat) {
			return true
		}
	}
	return false
}

// matchLet is a binding the expansion of a constructor pattern adds inside
// its case: a payload component bound to the argument's pattern.
type matchLet struct {
	pat Pat
	val Expr
}

// expandConstr is expandMatchPat's answer for a constructor pattern under
// x: the constructor's test and its arguments' tests on the payload, and
// the bindings of the payload's components.
func expandConstr(mp *mpat, x Expr) ([]Expr, []matchLet) {
	xat := At{x.Span()}
	test := &ConTest{At: xat, X: x, Name: mp.con, Arity: len(mp.args)}
	mp.test = test
	conds := []Expr{test}
	var lets []matchLet
	for i, a := range mp.args {
		f := &ConField{At: xat, X: x, Name: mp.con, Arity: len(mp.args), Field: i}
		c, b, ls := expandMatchPatLets(a, f)
		conds = append(conds, c...)
		if _, wild := b.(*WildPat); !wild {
			lets = append(lets, matchLet{pat: b, val: f})
		}
		lets = append(lets, ls...)
	}
	return conds, lets
}

// missingWith extends missing (exhaustive.go) with constructor columns:
// a column whose heads are constructors is complete when every
// constructor of its type appears (then each is specialised in turn), and
// otherwise a constructor that does not appear is unmatched.
func missingWith(rows [][]*mpat, n int, sigs func(Expr) []ConSig) ([]string, bool) {
	if n == 0 {
		return nil, len(rows) == 0
	}
	var con *mpat
	for _, r := range rows {
		if h := bare(r[0]); h.con != "" && h.test != nil {
			con = h
			break
		}
	}
	if con == nil {
		return missing1(rows, n, sigs)
	}
	all := sigs(con.test.X)
	if all == nil {
		return nil, false
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if h := bare(r[0]); h.con != "" {
			seen[h.con] = true
		}
	}
	rest := func(r []*mpat) []*mpat { return r[1:] }
	complete := true
	for _, s := range all {
		complete = complete && seen[s.Name]
	}
	if !complete {
		var def [][]*mpat
		for _, r := range rows {
			if isWild(r[0]) {
				def = append(def, rest(r))
			}
		}
		w, ok := missingWith(def, n-1, sigs)
		if !ok {
			return nil, false
		}
		for _, s := range all {
			if !seen[s.Name] {
				return append([]string{conText(s.Name, wildTexts(s.Arity))}, w...), true
			}
		}
		return nil, false
	}
	for _, s := range all {
		var spec [][]*mpat
		for _, r := range rows {
			h := bare(r[0])
			switch {
			case h.con == s.Name && len(h.args) == s.Arity:
				spec = append(spec, append(append([]*mpat{}, h.args...), rest(r)...))
			case isWild(h):
				spec = append(spec, append(wilds(s.Arity), rest(r)...))
			}
		}
		if w, ok := missingWith(spec, s.Arity+n-1, sigs); ok {
			return append([]string{conText(s.Name, w[:s.Arity])}, w[s.Arity:]...), true
		}
	}
	return nil, false
}

func wildTexts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "_"
	}
	return out
}

// conText writes a constructor and its arguments as a value.
func conText(name string, args []string) string {
	parts := []string{"#" + name}
	for _, a := range args {
		if strings.Contains(a, " ") && !strings.HasPrefix(a, "(") && !strings.HasPrefix(a, "{") {
			a = "(" + a + ")"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// dumpSum is dump's case for the sum-type nodes; w writes a parenthesised
// node as dump does.
func dumpSum(b *strings.Builder, n Node, w func(parts ...any)) {
	switch n := n.(type) {
	case *Constr:
		w(append([]any{"#" + n.Name}, exprs(n.Args)...)...)
	case *ConTest:
		w("is", n.X, "#"+n.Name)
	case *ConField:
		w("payload", n.X, "#"+n.Name, strconv.Itoa(n.Field))
	case *Match:
		w("match", n.Body)
	}
}

// sumTypeString writes a sum type as in source.
func sumTypeString(t *SumTypeExpr) string {
	cons := make([]string, len(t.Cons))
	for i, c := range t.Cons {
		parts := []string{"#" + c.Name}
		for _, pt := range c.Payload {
			s := TypeString(pt)
			if strings.ContainsAny(s, " ") && !strings.HasPrefix(s, "(") && !strings.HasPrefix(s, "{") {
				s = "(" + s + ")"
			}
			parts = append(parts, s)
		}
		cons[i] = strings.Join(parts, " ")
	}
	return strings.Join(cons, " | ")
}

// ConPat is a constructor pattern outside match, `let #x y = e` or
// `def f ((#x y): t)`: irrefutable where the type has that one
// constructor. It never leaves the parser: a let or parameter bound by
// one is rewritten into a match of one case (liftConPats), whose
// exhaustiveness check rejects a type with other constructors, as
// Futhark does; anywhere else it is an error.
type ConPat struct {
	At
	mp  *mpat
	tok lexer.Position // for errors, which participle positions
}

func (*ConPat) pat() {}

// conPatOf returns the constructor pattern that p is, possibly ascribed,
// with the ascription's type (nil when none).
func conPatOf(p Pat) (*ConPat, TypeExpr) {
	switch q := p.(type) {
	case *ConPat:
		return q, nil
	case *AscribedPat:
		if c, ok := q.Pat.(*ConPat); ok {
			return c, q.Type
		}
	}
	return nil, nil
}

// conParamName names the value a constructor parameter binds; the
// leading underscore keeps it out of the way of the user's names.
const conParamName = "_con_param"

// liftConPats rewrites the parameters among params that are constructor
// patterns into names, and body into a match of each such name against
// its pattern; what remains may hold no constructor pattern.
func (p *parser) liftConPats(params []Pat, body Expr) ([]Pat, Expr, error) {
	out := append([]Pat{}, params...)
	for i := len(params) - 1; i >= 0; i-- {
		cp, typ := conPatOf(params[i])
		if cp == nil {
			continue
		}
		name := &IdPat{At: cp.At, Name: conParamName + strconv.Itoa(i)}
		out[i] = name
		if typ != nil {
			out[i] = &AscribedPat{At: At{params[i].Span()}, Pat: name, Type: typ}
		}
		if body == nil {
			return nil, nil, p.conPatError(cp)
		}
		at := At{spanJoin(params[i].Span(), body.Span())}
		m, err := p.expandMatch(nil, at, &Var{At: cp.At, Name: name.Name}, []matchArm{{cp.mp, body}})
		if err != nil {
			return nil, nil, err
		}
		body = m
	}
	for _, q := range out {
		if err := p.noConPat(q); err != nil {
			return nil, nil, err
		}
	}
	return out, body, nil
}

// letConPat rewrites `let #x y = val in body` into a match of one case.
func (p *parser) letConPat(at At, pat Pat, val, body Expr) (Expr, bool, error) {
	cp, typ := conPatOf(pat)
	if cp == nil {
		return nil, false, p.noConPat(pat)
	}
	if typ != nil {
		val = &Ascribe{At: At{val.Span()}, X: val, Type: typ}
	}
	m, err := p.expandMatch(nil, at, val, []matchArm{{cp.mp, body}})
	return m, true, err
}

// noConPat reports a constructor pattern inside p, where none may be.
func (p *parser) noConPat(q Pat) error {
	switch q := q.(type) {
	case *ConPat:
		return p.conPatError(q)
	case *AscribedPat:
		return p.noConPat(q.Pat)
	case *TuplePat:
		for _, e := range q.Elems {
			if err := p.noConPat(e); err != nil {
				return err
			}
		}
	case *RecordPat:
		for _, f := range q.Fields {
			if f.Pat != nil {
				if err := p.noConPat(f.Pat); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (p *parser) conPatError(cp *ConPat) error {
	return participle.Errorf(cp.tok,
		"a constructor pattern (#%s) is allowed in match, and as a whole let or parameter pattern, not here", cp.mp.con)
}

// spanJoin is the span from a's start to b's end.
func spanJoin(a, b source.Span) source.Span { return source.Span{Start: a.Start, End: b.End} }
