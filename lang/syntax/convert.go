package syntax

import (
	"strconv"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Conversion from participle's grammar structs to the AST. It runs as soon
// as participle returns a struct; the few checks that the grammar cannot
// express (type names, sizes) are made here and reported at the offending
// token.

var declKinds = map[string]DefKind{"def": KindDef, "let": KindLet, "entry": KindEntry}

func (p *parser) convDecl(g *gDecl) (Decl, error) {
	sizes, params, ret, err := p.convSignature(g.Sizes, g.Params, g.Ret)
	if err != nil {
		return nil, err
	}
	sp := p.tokSpan(g.Tokens)
	return &ValDecl{
		At:         At{sp},
		Kind:       declKinds[g.Kind],
		Name:       g.Name.Name,
		NamePos:    p.tokSpan(g.Name.Tokens).Start,
		SizeParams: sizes,
		Params:     params,
		Ret:        ret,
		Body:       g.Body,
		Doc:        docAbove(p.comments, sp.Start.Line),
	}, nil
}

func (p *parser) convSignature(gs []*gSize, gp []*gInnerPat, gr *gType) ([]SizeParam, []Pat, TypeExpr, error) {
	var sizes []SizeParam
	for _, s := range gs {
		sizes = append(sizes, SizeParam{At: At{p.tokSpan(s.Tokens)}, Name: s.Name})
	}
	var params []Pat
	for _, q := range gp {
		pat, err := p.convInnerPat(q)
		if err != nil {
			return nil, nil, nil, err
		}
		params = append(params, pat)
	}
	var ret TypeExpr
	if gr != nil {
		var err error
		if ret, err = p.convType(gr); err != nil {
			return nil, nil, nil, err
		}
	}
	return sizes, params, ret, nil
}

func (p *parser) convLet(g *gLet) (Expr, error) {
	at := At{p.tokSpan(g.Tokens)}
	if g.Pat != nil {
		pat, err := p.convPat(g.Pat)
		if err != nil {
			return nil, err
		}
		return &LetIn{At: at, Pat: pat, Val: g.Val, Body: g.Body}, nil
	}
	n := g.Named
	if n == nil {
		return nil, p.internal(g.Tokens, "let with no binding")
	}
	name := n.Name.Name
	switch {
	case n.Indices != nil:
		if len(n.Sizes) > 0 || len(n.Params) > 0 || n.Type != nil {
			return nil, participle.Errorf(n.Tokens[0].Pos, "an in-place update `let %s[...] = v` takes no parameters or type", name)
		}
		return &LetWith{At: at, Name: name, Indices: n.Indices.get().List, Val: g.Val, Body: g.Body}, nil
	case len(n.Sizes) > 0 || len(n.Params) > 0:
		sizes, params, ret, err := p.convSignature(n.Sizes, n.Params, n.Type)
		if err != nil {
			return nil, err
		}
		return &LetFun{At: at, Name: name, NamePos: p.tokSpan(n.Name.Tokens).Start,
			SizeParams: sizes, Params: params, Ret: ret, FnBody: g.Val, Body: g.Body}, nil
	}
	var pat Pat = &IdPat{At: At{p.tokSpan(n.Name.Tokens)}, Name: name}
	if n.Type != nil {
		t, err := p.convType(n.Type)
		if err != nil {
			return nil, err
		}
		pat = &AscribedPat{At: At{p.tokSpan(n.Tokens)}, Pat: pat, Type: t}
	}
	return &LetIn{At: at, Pat: pat, Val: g.Val, Body: g.Body}, nil
}

func (p *parser) convLoop(g *gLoop) (Expr, error) {
	pat, err := p.convPat(g.Pat)
	if err != nil {
		return nil, err
	}
	var form LoopForm
	switch {
	case g.For != nil && g.For.Bound != nil:
		id, ok := p.plainName(g.For.Pat)
		if !ok {
			return nil, participle.Errorf(g.For.Pat.Tokens[0].Pos, "the counter of `for ... < n` must be a name")
		}
		form = &ForLoop{At: At{p.tokSpan(g.For.Tokens)}, I: id.Name, IPos: id.Pos(), Bound: g.For.Bound}
	case g.For != nil:
		x, err := p.convPat(g.For.Pat)
		if err != nil {
			return nil, err
		}
		form = &ForInLoop{At: At{p.tokSpan(g.For.Tokens)}, Pat: x, Arr: g.For.Arr}
	case g.While != nil:
		form = &WhileLoop{At: At{p.tokSpan(g.While.Tokens)}, Cond: g.While.Cond}
	default:
		return nil, p.internal(g.Tokens, "loop with no form")
	}
	return &Loop{At: At{p.tokSpan(g.Tokens)}, Pat: pat, Init: g.Init, Form: form, Body: g.Body}, nil
}

// plainName returns the name a pattern binds when it is just a name.
func (p *parser) plainName(g *gPat) (*IdPat, bool) {
	if g.Type != nil || g.Inner.Name == nil {
		return nil, false
	}
	return &IdPat{At: At{p.tokSpan(g.Inner.Tokens)}, Name: *g.Inner.Name}, true
}

func (p *parser) convLambda(g *gLambda) (Expr, error) {
	var params []Pat
	for _, q := range g.Params {
		pat, err := p.convInnerPat(q)
		if err != nil {
			return nil, err
		}
		params = append(params, pat)
	}
	var ret TypeExpr
	if g.Ret != nil {
		var err error
		if ret, err = p.convTypeTerm(g.Ret); err != nil {
			return nil, err
		}
	}
	return &Lambda{At: At{p.tokSpan(g.Tokens)}, Params: params, Ret: ret, Body: g.Body}, nil
}

func (p *parser) convPat(g *gPat) (Pat, error) {
	inner, err := p.convInnerPat(g.Inner)
	if err != nil || g.Type == nil {
		return inner, err
	}
	t, err := p.convType(g.Type)
	if err != nil {
		return nil, err
	}
	return &AscribedPat{At: At{p.tokSpan(g.Tokens)}, Pat: inner, Type: t}, nil
}

// convInnerPat converts a pattern; `(p)` is p itself, and `(p: t)` keeps
// the span of the parentheses.
func (p *parser) convInnerPat(g *gInnerPat) (Pat, error) {
	at := At{p.tokSpan(g.Tokens)}
	switch {
	case g.Name != nil:
		return &IdPat{At: at, Name: *g.Name}, nil
	case g.Wild:
		return &WildPat{At: at}, nil
	case g.Paren != nil:
		var elems []Pat
		for _, e := range g.Paren.Elems {
			pat, err := p.convPat(e)
			if err != nil {
				return nil, err
			}
			elems = append(elems, pat)
		}
		if len(elems) == 1 {
			if a, ok := elems[0].(*AscribedPat); ok {
				a.At = at
			}
			return elems[0], nil
		}
		return &TuplePat{At: at, Elems: elems}, nil
	}
	return nil, p.internal(g.Tokens, "empty pattern")
}

// primTypes are the type names of the subset.
var primTypes = map[string]bool{
	"bool": true, "i8": true, "i16": true, "i32": true, "i64": true,
	"u8": true, "u16": true, "u32": true, "u64": true, "f32": true, "f64": true,
}

func (p *parser) convType(g *gType) (TypeExpr, error) {
	param, err := p.convTypeTerm(g.Term)
	if err != nil || g.Ret == nil {
		return param, err
	}
	ret, err := p.convType(g.Ret)
	if err != nil {
		return nil, err
	}
	return &FuncTypeExpr{At: At{p.tokSpan(g.Tokens)}, Param: param, Ret: ret}, nil
}

func (p *parser) convTypeTerm(g *gTypeTerm) (TypeExpr, error) {
	at := At{p.tokSpan(g.Tokens)}
	switch {
	case g.Unique != nil:
		elem, err := p.convTypeTerm(g.Unique)
		if err != nil {
			return nil, err
		}
		return &UniqueTypeExpr{At: at, Elem: elem}, nil
	case g.Array != nil:
		elem, err := p.convTypeTerm(g.Array.Elem)
		if err != nil {
			return nil, err
		}
		var dim *DimExpr
		if d := g.Array.Dim; d != nil {
			dim = &DimExpr{At: At{p.tokSpan(d.Tokens)}}
			if d.Name != nil {
				dim.Name = *d.Name
			} else if d.Const != nil {
				n, err := strconv.ParseInt(*d.Const, 10, 64)
				if err != nil || n < 0 {
					return nil, participle.Errorf(d.Tokens[0].Pos, "array size %s must be a plain non-negative decimal number", *d.Const)
				}
				dim.Const = n
			}
		}
		return &ArrayTypeExpr{At: at, Dim: dim, Elem: elem}, nil
	case g.Name != nil:
		if !primTypes[*g.Name] {
			return nil, participle.Errorf(g.Tokens[0].Pos, "unknown type %q", *g.Name)
		}
		return &PrimTypeExpr{At: at, Name: *g.Name}, nil
	case g.Paren != nil:
		var elems []TypeExpr
		for _, e := range g.Paren.Elems {
			t, err := p.convType(e)
			if err != nil {
				return nil, err
			}
			elems = append(elems, t)
		}
		if len(elems) == 1 {
			return elems[0], nil
		}
		return &TupleTypeExpr{At: at, Elems: elems}, nil
	}
	return nil, p.internal(g.Tokens, "empty type")
}

// internal reports a grammar struct that participle filled in a way the
// grammar does not allow: a bug here, reported rather than panicking.
func (p *parser) internal(toks []lexer.Token, what string) error {
	pos := lexer.Position{Offset: len(p.file.Text)}
	if len(toks) > 0 {
		pos = toks[0].Pos
	}
	return participle.Errorf(pos, "internal error in the parser: %s", what)
}
