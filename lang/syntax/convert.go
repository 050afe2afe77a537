package syntax

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Conversion from participle's grammar structs to the AST. It runs as soon
// as participle returns a struct. The grammar accepts a little more than
// the language where that keeps it free of backtracking (any binding after
// `let name`, any pattern after `for`); the checks made here reject the
// rest, at the offending token.

var declKinds = map[string]DefKind{"def": KindDef, "let": KindLet, "entry": KindEntry}

func (p *parser) convDecl(g *gDecl) (Decl, error) {
	sizes, params := p.convSignature(g.Sizes, g.Params)
	sizes, tparams := splitTypeParams(sizes)
	params, body, err := p.liftConPats(params, g.Body)
	if err != nil {
		return nil, err
	}
	sp := p.tokSpan(g.Tokens)
	return &ValDecl{
		TypeParams: tparams,
		At:         At{sp},
		Kind:       declKinds[g.Kind],
		Name:       g.Name.Name,
		NamePos:    p.tokSpan(g.Name.Tokens).Start,
		SizeParams: sizes,
		Params:     params,
		Ret:        g.Ret,
		Body:       body,
		Doc:        docAbove(p.comments, sp.Start.Line),
	}, nil
}

// splitTypeParams separates the 't type parameters from the [n] size
// parameters.
func splitTypeParams(all []SizeParam) (sizes, tparams []SizeParam) {
	for _, s := range all {
		if s.Type {
			tparams = append(tparams, s)
		} else {
			sizes = append(sizes, s)
		}
	}
	return sizes, tparams
}

func (p *parser) convSignature(gs []sizeSpec, gp []paramSpec) ([]SizeParam, []Pat) {
	var sizes []SizeParam
	for _, s := range gs {
		sizes = append(sizes, s.get())
	}
	var params []Pat
	for _, q := range gp {
		params = append(params, q.get())
	}
	return sizes, params
}

func (p *parser) convLet(g *gLet) (Expr, error) {
	at := At{p.tokSpan(g.Tokens)}
	if g.Pat != nil && len(g.Sizes) > 0 {
		if err := p.noConPat(g.Pat); err != nil {
			return nil, err
		}
		return p.convSizedLet(at, g), nil
	}
	if g.Pat != nil {
		if m, ok, err := p.letConPat(at, g.Pat, g.Val, g.Body.get()); ok || err != nil {
			return m, err
		}
		return &LetIn{At: at, Pat: g.Pat, Val: g.Val, Body: g.Body.get()}, nil
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
		return &LetWith{At: at, Name: name, Indices: n.Indices.get().List, Val: g.Val, Body: g.Body.get()}, nil
	case len(n.Params) == 0 && len(n.Sizes) > 0:
		// Futhark's local functions need a parameter; this is almost
		// always an in-place update written with a space.
		return nil, participle.Errorf(n.Tokens[1].Pos, "a local function needs a parameter; an in-place update is written with no space before the bracket: `let %s[i] = v`", name)
	case len(n.Params) > 0:
		sizes, params := p.convSignature(n.Sizes, n.Params)
		sizes, tparams := splitTypeParams(sizes)
		params, fnBody, err := p.liftConPats(params, g.Val)
		if err != nil {
			return nil, err
		}
		return &LetFun{At: at, Name: name, NamePos: p.tokSpan(n.Name.Tokens).Start, TypeParams: tparams,
			SizeParams: sizes, Params: params, Ret: n.Type, FnBody: fnBody, Body: g.Body.get()}, nil
	}
	var pat Pat = &IdPat{At: At{p.tokSpan(n.Name.Tokens)}, Name: name}
	if n.Type != nil {
		pat = &AscribedPat{At: At{p.tokSpan(n.Tokens)}, Pat: pat, Type: n.Type}
	}
	return &LetIn{At: at, Pat: pat, Val: g.Val, Body: g.Body.get()}, nil
}

// sizedLetFun names the local function that a size-binding let becomes;
// a name no program can write without a leading underscore, and each such
// let's own binding shadows an enclosing one's.
const sizedLetFun = "_let_sizes"

// convSizedLet turns `let [n] p = e in body`, which binds the sizes n of
// e's type by name, into `let f [n] p = body in f e`: a local function's
// size parameters are bound from its argument's shape exactly as the let's
// sizes are, so the checker and lowering need nothing new.
func (p *parser) convSizedLet(at At, g *gLet) Expr {
	sizes, _ := p.convSignature(g.Sizes, nil)
	body := g.Body.get()
	return &LetFun{At: at, Name: sizedLetFun, NamePos: at.Pos(), SizeParams: sizes,
		Params: []Pat{g.Pat}, FnBody: body,
		Body: &Apply{At: At{g.Val.Span()}, Fn: &Var{At: At{g.Val.Span()}, Name: sizedLetFun}, Args: []Expr{g.Val}}}
}

func (p *parser) convLoop(g *gLoop) (Expr, error) {
	var form LoopForm
	switch {
	case g.For != nil && g.For.Bound != nil:
		id, ok := g.For.Pat.(*IdPat)
		if !ok {
			return nil, participle.Errorf(g.For.Tokens[0].Pos, "the counter of `for ... < n` must be a name")
		}
		form = &ForLoop{At: At{p.tokSpan(g.For.Tokens)}, I: id.Name, IPos: id.Pos(), Bound: g.For.Bound}
	case g.For != nil:
		form = &ForInLoop{At: At{p.tokSpan(g.For.Tokens)}, Pat: g.For.Pat, Arr: g.For.Arr}
	case g.While != nil:
		form = &WhileLoop{At: At{p.tokSpan(g.While.Tokens)}, Cond: g.While.Cond}
	default:
		return nil, p.internal(g.Tokens, "loop with no form")
	}
	if err := p.noConPat(g.Pat); err != nil {
		return nil, err
	}
	if fl, ok := form.(*ForInLoop); ok {
		if err := p.noConPat(fl.Pat); err != nil {
			return nil, err
		}
	}
	return &Loop{At: At{p.tokSpan(g.Tokens)}, Pat: g.Pat, Init: g.Init, Form: form, Body: g.Body}, nil
}

func (p *parser) convLambda(g *gLambda) (Expr, error) {
	var ret TypeExpr
	if g.Ret != nil {
		ret = g.Ret.get()
	}
	_, params := p.convSignature(nil, g.Params)
	params, body, err := p.liftConPats(params, g.Body)
	if err != nil {
		return nil, err
	}
	return &Lambda{At: At{p.tokSpan(g.Tokens)}, Params: params, Ret: ret, Body: body}, nil
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
