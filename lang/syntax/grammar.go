package syntax

import "github.com/alecthomas/participle/v2/lexer"

// The participle grammar. Declarations and the keyword forms of
// expressions (if, let, loop, lambda) are structs with grammar tags. The
// fields holding expressions, patterns, types, parameters, size parameters
// and let bodies are parsed by hand-written functions registered with
// participle.ParseTypeWith (expr.go, pattern.go): expressions by precedence
// climbing over the operator table in expr.go, which calls back into these
// productions when it meets a keyword. Each struct carries Tokens so that
// convert.go can give every AST node its span; nothing here leaves the
// package.
//
// A declaration list is parsed one gDecl at a time (parser.decls), so that
// an error in one declaration does not hide the others.
//
//	decl      = ("def" | "let" | "entry") name size* innerPat* [":" type] "=" exp
//	size      = "[" name "]"
//	pat       = innerPat [":" type]
//	innerPat  = name | "_" | "(" [pat ("," pat)*] ")"
//	type      = typeTerm ["->" type]
//	typeTerm  = "*" typeTerm | "[" [name | int] "]" typeTerm | name | "(" [type ("," type)*] ")"
//	          | "?" ("[" name "]")+ "." typeTerm
//	if        = "if" exp "then" exp "else" exp
//	let       = "let" (name [index] size* innerPat* [":" type] | size* pat) "=" exp letBody
//	letBody   = "in" exp | &"let" exp
//	loop      = "loop" pat ["=" exp] ("for" pat ("<" exp | "in" exp) | "while" exp) "do" exp
//	lambda    = "\" innerPat+ [":" typeTerm] "->" exp

type gDecl struct {
	Tokens []lexer.Token
	Kind   string      `parser:"@('def' | 'let' | 'entry')"`
	Name   *gName      `parser:"@@"`
	Sizes  []sizeSpec  `parser:"@@*"`
	Params []paramSpec `parser:"@@*"`
	Ret    TypeExpr    `parser:"( ':' @@ )?"`
	Body   Expr        `parser:"'=' @@"`
}

type gName struct {
	Tokens []lexer.Token
	Name   string `parser:"@Ident"`
}

type gIf struct {
	Tokens []lexer.Token
	Cond   Expr `parser:"'if' @@"`
	Then   Expr `parser:"'then' @@"`
	Else   Expr `parser:"'else' @@"`
}

type gLet struct {
	Tokens []lexer.Token
	Named  *gLetNamed  `parser:"'let' (  @@"`
	Sizes  []sizeSpec  `parser:"       | @@*"`
	Pat    Pat         `parser:"         @@ )"`
	Val    Expr        `parser:"'=' @@"`
	Body   letBodySpec `parser:"@@"`
}

// gLetNamed is what follows `let` when it starts with a name: `x`, `x: t`,
// `a[i]` (in-place update) or `f [n] x y : t` (local function). One
// production with the choice made in convert.go keeps the grammar free of
// backtracking, so that errors inside a parameter are reported where they
// are.
type gLetNamed struct {
	Tokens  []lexer.Token
	Name    *gName      `parser:"@@"`
	Indices indexSpec   `parser:"@@?"`
	Sizes   []sizeSpec  `parser:"@@*"`
	Params  []paramSpec `parser:"@@*"`
	Type    TypeExpr    `parser:"( ':' @@ )?"`
}

type gLoop struct {
	Tokens []lexer.Token
	Pat    Pat     `parser:"'loop' @@"`
	Init   Expr    `parser:"( '=' @@ )?"`
	For    *gFor   `parser:"(  @@"`
	While  *gWhile `parser:" | @@ )"`
	Body   Expr    `parser:"'do' @@"`
}

// gFor is `for i < n` or `for p in xs`; convert.go checks that the first
// form binds a plain name.
type gFor struct {
	Tokens []lexer.Token
	Pat    Pat  `parser:"'for' @@"`
	Bound  Expr `parser:"(  '<' @@"`
	Arr    Expr `parser:" | 'in' @@ )"`
}

type gWhile struct {
	Tokens []lexer.Token
	Cond   Expr `parser:"'while' @@"`
}

type gLambda struct {
	Tokens []lexer.Token
	Params []paramSpec  `parser:"'\\\\' @@+"`
	Ret    typeTermSpec `parser:"( ':' @@ )?"`
	Body   Expr         `parser:"'->' @@"`
}

// Patterns, types, parameters and size parameters are parsed by
// hand-written functions in pattern.go (registered with ParseTypeWith):
// after `:` or inside a parameter an error must be reported where it
// happens, while participle's optional groups would backtrack over a
// failure one token deep and report a vaguer error earlier. Grammar fields
// that need a different parse of the same AST type use these wrappers.

// paramSpec holds a parameter pattern (no ascription without parentheses).
type paramSpec interface{ get() Pat }

// typeTermSpec holds a type with no top-level arrow (a lambda's return
// type, where `->` starts the body).
type typeTermSpec interface{ get() TypeExpr }

// sizeSpec holds a size parameter `[n]`.
type sizeSpec interface{ get() SizeParam }

// letBodySpec holds the body of a let: `in e`, or directly another let.
type letBodySpec interface{ get() Expr }

type exprBox struct{ e Expr }

func (b exprBox) get() Expr { return b.e }

type paramBox struct{ p Pat }
type termBox struct{ t TypeExpr }
type sizeBox struct{ s SizeParam }

func (b paramBox) get() Pat      { return b.p }
func (b termBox) get() TypeExpr  { return b.t }
func (b sizeBox) get() SizeParam { return b.s }

// indexSpec holds an *indices; participle.ParseTypeWith needs an interface
// type.
type indexSpec interface{ get() *indices }

func (i *indices) get() *indices { return i }

// indices is a bracketed index list `[i, j:k]` written with no space before
// the bracket, parsed by parser.parseIndices; it appears in `let a[i] = v`.
type indices struct {
	Sp   spanOffsets
	List []DimIndex
}

// spanOffsets is a byte range, turned into a source.Span by the parser.
type spanOffsets struct{ start, end int }
