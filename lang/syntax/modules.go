package syntax

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/arepl/arepl/lang/source"
)

// This file is the syntax of Futhark's module language: module bindings,
// module types, functors, open, local and import. The parser only builds
// the tree; lang/modules elaborates it away (into flat declarations with
// qualified names) before type checking, so no later stage sees these
// nodes.
//
//	dec      ::= ... | "module" name modparam* [":" sigexp] "=" modexp
//	           | "module" "type" name "=" sigexp
//	           | "open" modexp | "local" dec | "import" string
//	modparam ::= "(" name ":" sigexp ")"
//	modexp   ::= modatom+ [":" sigexp] | "\" modparam [":" sigexp] "->" modexp
//	modatom  ::= qualname | "{" dec* "}" | "import" string | "(" modexp ")"
//	sigexp   ::= sigatom ("with" qualname typeparam* "=" type)* ["->" sigexp]
//	           | "(" name ":" sigexp ")" "->" sigexp
//	sigatom  ::= qualname | "{" spec* "}" | "(" sigexp ")"
//	spec     ::= "val" name typeparam* ":" type | "type" name typeparam* ["=" type]
//	           | "module" name ":" sigexp | "include" sigexp

// ModDecl is `module name (p: mt)... [: mt] = body`; with parameters it is
// a parametric module (a functor).
type ModDecl struct {
	At
	Name    string
	NamePos source.Pos
	Params  []ModParam
	Sig     SigExpr // nil when not written
	Body    ModExpr
}

// ModParam is one functor parameter `(name: mt)`.
type ModParam struct {
	At
	Name string
	Sig  SigExpr
}

// ModTypeDecl is `module type name = mt`.
type ModTypeDecl struct {
	At
	Name string
	Sig  SigExpr
}

// OpenDecl is `open m`: m's names are in scope for what follows, and a
// module that opens m exports them too.
type OpenDecl struct {
	At
	Mod ModExpr
}

// LocalDecl is `local dec`: dec's names are in scope for what follows in
// the enclosing module but are not part of its exports.
type LocalDecl struct {
	At
	Decl Decl
}

// ImportDecl is the declaration `import "path"`, Futhark's shorthand for
// `local open import "path"`.
type ImportDecl struct {
	At
	Path string
}

func (*ModDecl) decl()     {}
func (*ModTypeDecl) decl() {}
func (*OpenDecl) decl()    {}
func (*LocalDecl) decl()   {}
func (*ImportDecl) decl()  {}

// ModExpr is a module expression.
type ModExpr interface {
	Node
	modExpr()
}

// ModName names a module: `m` or `a.b`.
type ModName struct {
	At
	Name string
}

// ModStruct is `{ decs }`.
type ModStruct struct {
	At
	Decls []Decl
}

// ModImport is `import "path"` as a module expression: the file's module.
type ModImport struct {
	At
	Path string
}

// ModAscribe is `m : mt`.
type ModAscribe struct {
	At
	Mod ModExpr
	Sig SigExpr
}

// ModApply is the functor application `f m`.
type ModApply struct {
	At
	Fun ModExpr
	Arg ModExpr
}

// ModLambda is the anonymous functor `\(p: mt) [: mt] -> m`.
type ModLambda struct {
	At
	Param ModParam
	Sig   SigExpr // nil when not written
	Body  ModExpr
}

func (*ModName) modExpr()    {}
func (*ModStruct) modExpr()  {}
func (*ModImport) modExpr()  {}
func (*ModAscribe) modExpr() {}
func (*ModApply) modExpr()   {}
func (*ModLambda) modExpr()  {}

// SigExpr is a module type expression.
type SigExpr interface {
	Node
	sigExpr()
}

// SigName names a module type.
type SigName struct {
	At
	Name string
}

// SigSpecs is `{ specs }`.
type SigSpecs struct {
	At
	Specs []Spec
}

// SigWith is `mt with t 'a = type`: the abstract type t of mt made
// concrete.
type SigWith struct {
	At
	Sig    SigExpr
	Type   string // possibly qualified: `n.t`
	Params []SizeParam
	Def    TypeExpr
}

// SigFunctor is the type of a functor, `(p: mt) -> mt` (Param may be "").
type SigFunctor struct {
	At
	Param    string
	ParamSig SigExpr
	Result   SigExpr
}

func (*SigName) sigExpr()    {}
func (*SigSpecs) sigExpr()   {}
func (*SigWith) sigExpr()    {}
func (*SigFunctor) sigExpr() {}

// Spec is one specification of a module type.
type Spec interface {
	Node
	spec()
}

// ValSpec is `val name 'a [n]: type`.
type ValSpec struct {
	At
	Name   string
	Params []SizeParam
	Type   TypeExpr
}

// TypeSpec is `type name params [= type]`; Type is nil for an abstract
// type. Lifted is "", "^" or "~".
type TypeSpec struct {
	At
	Name   string
	Params []SizeParam
	Type   TypeExpr
	Lifted string
}

// ModSpec is `module name: mt`.
type ModSpec struct {
	At
	Name string
	Sig  SigExpr
}

// IncludeSpec is `include mt`.
type IncludeSpec struct {
	At
	Sig SigExpr
}

func (*ValSpec) spec()     {}
func (*TypeSpec) spec()    {}
func (*ModSpec) spec()     {}
func (*IncludeSpec) spec() {}

// moduleKeywords start the declarations of this file.
var moduleKeywords = map[string]bool{"module": true, "open": true, "local": true, "import": true}

// oneDecl parses any declaration, as it may appear inside `{ ... }`.
func (p *parser) oneDecl(lex *lexer.PeekingLexer) (Decl, error) {
	t := lex.Peek()
	switch {
	case t.Type == p.lx.tKeyword && (t.Value == "def" || t.Value == "let" || t.Value == "entry"):
		g, err := p.declP.ParseFromLexer(lex, participle.AllowTrailing(true))
		if err != nil {
			return nil, err
		}
		return p.convDecl(g)
	case p.isKeyword(t, "type"):
		return p.typeDecl(lex)
	case t.Type == p.lx.tKeyword && moduleKeywords[t.Value]:
		return p.moduleLevelDecl(lex)
	}
	return nil, p.unexpected(t, "declaration")
}

// moduleLevelDecl parses a declaration that starts with module, open,
// local or import.
func (p *parser) moduleLevelDecl(lex *lexer.PeekingLexer) (Decl, error) {
	kw := lex.Next()
	start := kw.Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	switch kw.Value {
	case "local":
		d, err := p.oneDecl(lex)
		if err != nil {
			return nil, err
		}
		return &LocalDecl{At: at(), Decl: d}, nil
	case "open":
		m, err := p.modExp(lex)
		if err != nil {
			return nil, err
		}
		return &OpenDecl{At: at(), Mod: m}, nil
	case "import":
		path, err := p.importPath(lex)
		if err != nil {
			return nil, err
		}
		return &ImportDecl{At: at(), Path: path}, nil
	}
	// module
	if p.isKeyword(lex.Peek(), "type") {
		lex.Next()
		name := lex.Peek()
		if name.Type != p.lx.tIdent {
			return nil, p.unexpected(name, "module type name")
		}
		lex.Next()
		if err := p.expectOp(lex, "="); err != nil {
			return nil, err
		}
		s, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		return &ModTypeDecl{At: at(), Name: name.Value, Sig: s}, nil
	}
	name := lex.Peek()
	if name.Type != p.lx.tIdent {
		return nil, p.unexpected(name, "module name")
	}
	lex.Next()
	d := &ModDecl{Name: name.Value, NamePos: p.posAt(name.Pos.Offset)}
	for p.isPunct(lex.Peek(), "(") {
		mp, err := p.modParam(lex)
		if err != nil {
			return nil, err
		}
		d.Params = append(d.Params, mp)
	}
	if p.isPunct(lex.Peek(), ":") {
		lex.Next()
		s, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		d.Sig = s
	}
	if err := p.expectOp(lex, "="); err != nil {
		return nil, err
	}
	body, err := p.modExp(lex)
	if err != nil {
		return nil, err
	}
	d.Body = body
	d.At = at()
	return d, nil
}

func (p *parser) expectOp(lex *lexer.PeekingLexer, op string) error {
	if t := lex.Peek(); !p.isOp(t, op) {
		return p.unexpected(t, strconv.Quote(op))
	}
	lex.Next()
	return nil
}

func (p *parser) expectPunct(lex *lexer.PeekingLexer, s string) error {
	if t := lex.Peek(); !p.isPunct(t, s) {
		return p.unexpected(t, strconv.Quote(s))
	}
	lex.Next()
	return nil
}

// importPath parses the string after import.
func (p *parser) importPath(lex *lexer.PeekingLexer) (string, error) {
	t := lex.Peek()
	if t.Type != p.lx.tString {
		return "", p.unexpected(t, "file name in quotes")
	}
	lex.Next()
	s, err := strconv.Unquote(t.Value)
	if err != nil {
		return "", p.errorf(t, "malformed file name %s", t.Value)
	}
	return s, nil
}

// modParam parses `(name: mt)`.
func (p *parser) modParam(lex *lexer.PeekingLexer) (ModParam, error) {
	open := lex.Next()
	name := lex.Peek()
	if name.Type != p.lx.tIdent {
		return ModParam{}, p.unexpected(name, "module parameter name")
	}
	lex.Next()
	if err := p.expectPunct(lex, ":"); err != nil {
		return ModParam{}, err
	}
	s, err := p.sigExp(lex)
	if err != nil {
		return ModParam{}, err
	}
	if err := p.expectPunct(lex, ")"); err != nil {
		return ModParam{}, err
	}
	return ModParam{At: At{p.spanOf(open.Pos.Offset, p.lastEnd(lex))}, Name: name.Value, Sig: s}, nil
}

// modExp parses a module expression.
func (p *parser) modExp(lex *lexer.PeekingLexer) (ModExpr, error) {
	if err := p.enter(lex); err != nil {
		return nil, err
	}
	defer p.leave()
	start := lex.Peek().Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	var m ModExpr
	if t := lex.Peek(); p.isPunct(t, "\\") {
		lex.Next()
		if !p.isPunct(lex.Peek(), "(") {
			return nil, p.unexpected(lex.Peek(), `"("`)
		}
		mp, err := p.modParam(lex)
		if err != nil {
			return nil, err
		}
		l := &ModLambda{Param: mp}
		if p.isPunct(lex.Peek(), ":") {
			lex.Next()
			if l.Sig, err = p.sigAtomWith(lex); err != nil {
				return nil, err
			}
		}
		if err := p.expectOp(lex, "->"); err != nil {
			return nil, err
		}
		if l.Body, err = p.modExp(lex); err != nil {
			return nil, err
		}
		l.At = at()
		return l, nil
	}
	m, err := p.modAtom(lex)
	if err != nil {
		return nil, err
	}
	for p.startsModAtom(lex.Peek()) {
		arg, err := p.modAtom(lex)
		if err != nil {
			return nil, err
		}
		m = &ModApply{At: at(), Fun: m, Arg: arg}
	}
	if p.isPunct(lex.Peek(), ":") {
		lex.Next()
		s, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		m = &ModAscribe{At: at(), Mod: m, Sig: s}
	}
	return m, nil
}

func (p *parser) startsModAtom(t *lexer.Token) bool {
	// An import argument needs parentheses: `import` also starts the
	// next declaration.
	return t.Type == p.lx.tIdent || t.Type == p.lx.tQualIdent || p.isPunct(t, "{") || p.isPunct(t, "(")
}

func (p *parser) modAtom(lex *lexer.PeekingLexer) (ModExpr, error) {
	t := lex.Peek()
	start := t.Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	switch {
	case t.Type == p.lx.tIdent || t.Type == p.lx.tQualIdent:
		lex.Next()
		return &ModName{At: at(), Name: t.Value}, nil
	case p.isKeyword(t, "import"):
		lex.Next()
		path, err := p.importPath(lex)
		if err != nil {
			return nil, err
		}
		return &ModImport{At: at(), Path: path}, nil
	case p.isPunct(t, "("):
		lex.Next()
		m, err := p.modExp(lex)
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(lex, ")"); err != nil {
			return nil, err
		}
		return m, nil
	case p.isPunct(t, "{"):
		lex.Next()
		var decls []Decl
		for !p.isPunct(lex.Peek(), "}") {
			if lex.Peek().EOF() {
				return nil, p.unexpected(lex.Peek(), `"}"`)
			}
			d, err := p.oneDecl(lex)
			if err != nil {
				return nil, err
			}
			decls = append(decls, d)
		}
		lex.Next()
		return &ModStruct{At: at(), Decls: decls}, nil
	}
	return nil, p.unexpected(t, "module expression")
}

// sigExp parses a module type expression.
func (p *parser) sigExp(lex *lexer.PeekingLexer) (SigExpr, error) {
	if err := p.enter(lex); err != nil {
		return nil, err
	}
	defer p.leave()
	start := lex.Peek().Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	if p.isPunct(lex.Peek(), "(") && p.peek2(lex).Type == p.lx.tIdent && p.isPunct(p.peekAt(lex, 2), ":") {
		mp, err := p.modParam(lex)
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(lex, "->"); err != nil {
			return nil, err
		}
		res, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		return &SigFunctor{At: at(), Param: mp.Name, ParamSig: mp.Sig, Result: res}, nil
	}
	s, err := p.sigAtomWith(lex)
	if err != nil {
		return nil, err
	}
	if p.isOp(lex.Peek(), "->") {
		lex.Next()
		res, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		return &SigFunctor{At: at(), ParamSig: s, Result: res}, nil
	}
	return s, nil
}

// sigAtomWith parses a module type atom and its `with` refinements.
func (p *parser) sigAtomWith(lex *lexer.PeekingLexer) (SigExpr, error) {
	start := lex.Peek().Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	s, err := p.sigAtom(lex)
	if err != nil {
		return nil, err
	}
	for p.isKeyword(lex.Peek(), "with") {
		lex.Next()
		name := lex.Peek()
		if name.Type != p.lx.tIdent && name.Type != p.lx.tQualIdent {
			return nil, p.unexpected(name, "type name")
		}
		lex.Next()
		w := &SigWith{Sig: s, Type: name.Value}
		if w.Params, err = p.typeParams(lex); err != nil {
			return nil, err
		}
		if err := p.expectOp(lex, "="); err != nil {
			return nil, err
		}
		if w.Def, err = p.typ(lex); err != nil {
			return nil, err
		}
		w.At = at()
		s = w
	}
	return s, nil
}

func (p *parser) sigAtom(lex *lexer.PeekingLexer) (SigExpr, error) {
	t := lex.Peek()
	start := t.Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	switch {
	case t.Type == p.lx.tIdent || t.Type == p.lx.tQualIdent:
		lex.Next()
		return &SigName{At: at(), Name: t.Value}, nil
	case p.isPunct(t, "("):
		lex.Next()
		s, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(lex, ")"); err != nil {
			return nil, err
		}
		return s, nil
	case p.isPunct(t, "{"):
		lex.Next()
		var specs []Spec
		for !p.isPunct(lex.Peek(), "}") {
			s, err := p.spec(lex)
			if err != nil {
				return nil, err
			}
			specs = append(specs, s)
		}
		lex.Next()
		return &SigSpecs{At: at(), Specs: specs}, nil
	}
	return nil, p.unexpected(t, "module type")
}

// typeParams parses the 'a and [n] parameters of a type or value spec.
func (p *parser) typeParams(lex *lexer.PeekingLexer) ([]SizeParam, error) {
	var params []SizeParam
	for {
		sp, err := p.parseSizeField(lex)
		if err == participle.NextMatch {
			return params, nil
		}
		if err != nil {
			return nil, err
		}
		params = append(params, sp.get())
	}
}

// spec parses one specification of a module type.
func (p *parser) spec(lex *lexer.PeekingLexer) (Spec, error) {
	t := lex.Peek()
	start := t.Pos.Offset
	at := func() At { return At{p.spanOf(start, p.lastEnd(lex))} }
	if t.Type != p.lx.tKeyword {
		return nil, p.unexpected(t, "specification (val, type, module or include)")
	}
	switch t.Value {
	case "val":
		lex.Next()
		name, err := p.specName(lex)
		if err != nil {
			return nil, err
		}
		params, err := p.typeParams(lex)
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(lex, ":"); err != nil {
			return nil, err
		}
		ty, err := p.typ(lex)
		if err != nil {
			return nil, err
		}
		return &ValSpec{At: at(), Name: name, Params: params, Type: ty}, nil
	case "type":
		lex.Next()
		ts := &TypeSpec{}
		if n := lex.Peek(); n.Type == p.lx.tOp && (n.Value == "^" || n.Value == "~") && n.Pos.Offset == tokEnd(t) {
			lex.Next()
			ts.Lifted = n.Value
		}
		name := lex.Peek()
		if name.Type != p.lx.tIdent {
			return nil, p.unexpected(name, "type name")
		}
		lex.Next()
		ts.Name = name.Value
		var err error
		if ts.Params, err = p.typeParams(lex); err != nil {
			return nil, err
		}
		if p.isOp(lex.Peek(), "=") {
			lex.Next()
			if ts.Type, err = p.typ(lex); err != nil {
				return nil, err
			}
		}
		ts.At = at()
		return ts, nil
	case "module":
		lex.Next()
		name := lex.Peek()
		if name.Type != p.lx.tIdent {
			return nil, p.unexpected(name, "module name")
		}
		lex.Next()
		if err := p.expectPunct(lex, ":"); err != nil {
			return nil, err
		}
		s, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		return &ModSpec{At: at(), Name: name.Value, Sig: s}, nil
	case "include":
		lex.Next()
		s, err := p.sigExp(lex)
		if err != nil {
			return nil, err
		}
		return &IncludeSpec{At: at(), Sig: s}, nil
	}
	return nil, p.unexpected(t, "specification (val, type, module or include)")
}

// specName is the name of a val spec: a name, or an operator in
// parentheses, `(+)`.
func (p *parser) specName(lex *lexer.PeekingLexer) (string, error) {
	t := lex.Peek()
	if t.Type == p.lx.tIdent {
		lex.Next()
		return t.Value, nil
	}
	if p.isPunct(t, "(") {
		if op := p.peek2(lex); op.Type == p.lx.tOp && p.isPunct(p.peekAt(lex, 2), ")") {
			lex.Next()
			lex.Next()
			lex.Next()
			return op.Value, nil
		}
	}
	if t.Type == p.lx.tOp && !notBinOps[t.Value] {
		lex.Next()
		return t.Value, nil
	}
	return "", p.unexpected(t, "name")
}

// QualParts splits a qualified name `a.b.c` into its parts.
func QualParts(name string) []string { return strings.Split(name, ".") }
