package syntax

import "github.com/arepl/arepl/lang/source"

// This file is the closed AST that every later stage consumes. The parser
// builds participle's grammar structs and converts them to these types at
// once; nothing outside this package sees participle.
//
// Every node records its source span. Sum types are sealed interfaces (Expr,
// Decl, Pat, TypeExpr, LoopForm, DimIndex) so that consumers can switch over
// them exhaustively.

// Node is any AST node.
type Node interface {
	Span() source.Span
}

// At is embedded in every node; it carries the node's span.
type At struct{ Sp source.Span }

// Span returns the node's span.
func (a At) Span() source.Span { return a.Sp }

// Pos returns the start of the node's span.
func (a At) Pos() source.Pos { return a.Sp.Start }

// ---------------------------------------------------------------------------
// Programs and declarations

// File is a parsed .fut file (or one REPL input of declarations).
type File struct {
	At
	Decls []Decl
}

// Decl is a top-level declaration.
type Decl interface {
	Node
	decl()
}

// DefKind says how a value declaration was introduced.
type DefKind int

const (
	KindDef   DefKind = iota // def
	KindLet                  // top-level let (deprecated Futhark spelling of def)
	KindEntry                // entry
)

// ValDecl is `def name [n] (p: t) ... : ret = body` (also `let` and
// `entry`). With no parameters it is a constant.
type ValDecl struct {
	At
	Kind       DefKind
	Name       string
	NamePos    source.Pos
	SizeParams []SizeParam
	TypeParams []SizeParam // 't type parameters
	Params     []Pat
	Ret        TypeExpr // nil when not written
	Body       Expr
	Doc        string // the -- | doc comment above it, if any
}

// SizeParam is one `[n]` size parameter, or (Type set, only while
// parsing and in TypeParams) one `'t` type parameter.
type SizeParam struct {
	At
	Name string
	Type bool
	// Lifted marks a type parameter written '^t, which may stand for a
	// function type (Futhark's lifted type parameters).
	Lifted bool
}

// TypeDecl is a type abbreviation `type name 'a [n] = t`. Params are the
// type parameters ('a, Type set) and size parameters ([n]) in order.
type TypeDecl struct {
	At
	Name    string
	NamePos source.Pos
	Params  []SizeParam
	Type    TypeExpr
	Lifted  string // "^" for type^, "~" for type~ (module types compare them)
}

func (*ValDecl) decl()  {}
func (*TypeDecl) decl() {}

// ---------------------------------------------------------------------------
// Types as written

// TypeExpr is a type in source syntax.
type TypeExpr interface {
	Node
	typeExpr()
}

// PrimTypeExpr is a primitive type name: bool i8 ... f64.
type PrimTypeExpr struct {
	At
	Name string
}

// ArrayTypeExpr is `[d]elem`. Dim is nil for `[]`.
type ArrayTypeExpr struct {
	At
	Dim  *DimExpr
	Elem TypeExpr
}

// DimExpr is the size inside `[...]` of an array type: a size name, a
// constant, or a size expression (`[n*m]`, Expr set; its size is checked
// at run time only where a value is produced, so the checker treats it as
// unknown).
type DimExpr struct {
	At
	Name  string // size variable, or "" when Const or Expr is used
	Const int64
	Expr  Expr
}

// NamedTypeExpr is a type written as a name that is not primitive: a type
// parameter (`t`) or an abbreviation declared with `type`, applied to its
// arguments (`pair i32 f64`, `vec [3]`).
type NamedTypeExpr struct {
	At
	Name string
	Args []TypeArg
}

// TypeArg is one argument of a type abbreviation: a type, or a size `[n]`.
type TypeArg struct {
	Type TypeExpr // nil for a size argument
	Dim  *DimExpr
}

// TupleTypeExpr is `(t1, t2, ...)` with two or more components; `()` is
// the empty tuple (unit).
type TupleTypeExpr struct {
	At
	Elems []TypeExpr
}

// UniqueTypeExpr is `*t`. Uniqueness is accepted and ignored.
type UniqueTypeExpr struct {
	At
	Elem TypeExpr
}

// FuncTypeExpr is `a -> b` (for higher-order parameters).
type FuncTypeExpr struct {
	At
	Param TypeExpr
	Ret   TypeExpr
}

func (*PrimTypeExpr) typeExpr()   {}
func (*ArrayTypeExpr) typeExpr()  {}
func (*TupleTypeExpr) typeExpr()  {}
func (*UniqueTypeExpr) typeExpr() {}
func (*FuncTypeExpr) typeExpr()   {}
func (*RecordTypeExpr) typeExpr() {}
func (*NamedTypeExpr) typeExpr()  {}

// ---------------------------------------------------------------------------
// Patterns (parameters, let, loop)

// Pat is a binding pattern.
type Pat interface {
	Node
	pat()
}

// IdPat binds a name.
type IdPat struct {
	At
	Name string
}

// WildPat is `_`.
type WildPat struct{ At }

// TuplePat is `(p1, p2, ...)`; `()` binds the empty tuple.
type TuplePat struct {
	At
	Elems []Pat
}

// AscribedPat is `(p : t)`.
type AscribedPat struct {
	At
	Pat  Pat
	Type TypeExpr
}

func (*IdPat) pat()       {}
func (*WildPat) pat()     {}
func (*TuplePat) pat()    {}
func (*AscribedPat) pat() {}
func (*RecordPat) pat()   {}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// IntLit is an integer literal. Suffix is "" or a type name ("i8", "u32",
// ...). Value holds the literal's magnitude; the checker decides its type
// from the suffix or from context and reports literals that do not fit.
type IntLit struct {
	At
	Text   string // as written, for messages
	Value  uint64
	Suffix string
}

// FloatLit is a decimal literal (`2.5`, `1e3`, `2.5f32`, `3f64`).
type FloatLit struct {
	At
	Text   string
	Value  float64
	Suffix string // "", "f16", "f32" or "f64"
}

// BoolLit is `true` or `false`.
type BoolLit struct {
	At
	Value bool
}

// Var is a (possibly qualified) name: `x`, `map`, `i32.max`, `f64.inf`.
type Var struct {
	At
	Qual string // module qualifier ("i32", "f64", ...), or ""
	Name string
}

// TupleExpr is `(e1, e2, ...)` with zero or two-plus components.
type TupleExpr struct {
	At
	Elems []Expr
}

// ParenExpr is `(e)`; kept so that `f (-1)` and juxtaposition rules can be
// checked, and for positions. The checker treats it as its content.
type ParenExpr struct {
	At
	X Expr
	// Open is set for the local open `i32.(e)`: inside e the names and
	// operators of the numeric module Open mean its members (i32.max,
	// i32.+), unless a local binding has the name. The checker qualifies
	// them in the AST.
	Open string
	// Names, set by lang/modules around a declaration's body, maps the
	// names of module members in scope to their module (the qualifier of
	// their flat name): the checker qualifies a use as it does inside
	// Open, unless a local binding, parameters included, has the name.
	Names map[string]string
}

// ArrayLit is `[e1, e2, ...]`.
type ArrayLit struct {
	At
	Elems []Expr
}

// Project is `e.0`, `e.1`, ... (tuple projection), or with Name set the
// record field access `e.name` (Field is then -1; the checker records the
// field's position in Info.FieldIndex).
type Project struct {
	At
	X     Expr
	Field int
	Name  string
}

// RecordExpr is the record literal `{a = e1, b}` (`b` alone takes the
// variable b).
type RecordExpr struct {
	At
	Fields []RecordField
}

// RecordField is one field of a record literal, pattern or type; Value,
// Pat or Type is nil when the field is written as its name alone.
type RecordField struct {
	At
	Name  string
	Value Expr
	Pat   Pat
	Type  TypeExpr
}

// RecordPat is the pattern `{a, b = p}`.
type RecordPat struct {
	At
	Fields []RecordField
}

// RecordTypeExpr is the record type `{a: t1, b: t2}`.
type RecordTypeExpr struct {
	At
	Fields []RecordField
}

// Index is `a[i]`, `a[i, j]`, `a[i:j:s]` — written with no space before `[`.
type Index struct {
	At
	X       Expr
	Indices []DimIndex
}

// DimIndex is one component of an index: a position or a slice.
type DimIndex interface {
	Node
	dimIndex()
}

// DimFix is a single index `i`.
type DimFix struct {
	At
	I Expr
}

// DimSlice is `i:j:s`; each part may be nil.
type DimSlice struct {
	At
	Start, End, Stride Expr
}

func (*DimFix) dimIndex()   {}
func (*DimSlice) dimIndex() {}

// Apply is function application by juxtaposition, `f a b`. Nested
// applications are flattened: `f a b` is one Apply with two Args.
type Apply struct {
	At
	Fn   Expr
	Args []Expr
}

// BinOp is an infix operator application, including `|>` and `<|`.
// Op is the operator as written ("+", "==", "&&", "|>", "<<", "//", ...).
// Qual is set for qualified operators written infix (rare; `x i32.+ y`).
type BinOp struct {
	At
	Op    string
	OpPos source.Pos
	Qual  string
	Lhs   Expr
	Rhs   Expr
}

// Negate is prefix `-e` (numeric negation).
type Negate struct {
	At
	X Expr
}

// Not is prefix `!e` (logical not on bool, bitwise complement on integers).
type Not struct {
	At
	X Expr
}

// OpSection is an operator used as a function: `(+)`, `(i32.+)`.
type OpSection struct {
	At
	Op   string
	Qual string
}

// LeftSection is `(e op)`, the function `\y -> e op y`, e.g. `(2-)`.
type LeftSection struct {
	At
	Op   string
	Qual string
	X    Expr
}

// RightSection is `(op e)`, the function `\x -> x op e`, e.g. `(*2)`.
type RightSection struct {
	At
	Op   string
	Qual string
	X    Expr
}

// ProjectSection is `(.0)`, the function `\t -> t.0`; Fields holds the
// chain for `(.0.1)`.
type ProjectSection struct {
	At
	Fields []int
	Names  []string // beside Fields: a record field's name, or ""
}

// Ascribe is `e : t`, or with Coerce the size coercion `e :> t`, whose
// sizes need not agree with e's.
type Ascribe struct {
	At
	X      Expr
	Type   TypeExpr
	Coerce bool
}

// Range is `start..<end`, `start...end`, `start..>end`, or with Second
// `start..second...end` (and ..< ..>): End's operator is Op ("...",
// "..<" or "..>"; Futhark's older `start..end` reads as "...").
type Range struct {
	At
	Start, Second, End Expr
	Op                 string
}

// Assert is `assert cond e`: e when cond holds, a run-time error naming
// cond otherwise.
type Assert struct {
	At
	Cond, X Expr
	// CondText is the condition as written, for the error message.
	CondText string
}

// Hole is `???`, a typed hole: it takes whatever type its context needs,
// and evaluating it is a run-time error.
type Hole struct{ At }

// IndexSection is `(.[i, j])`, the function ` -> a[i, j]`.
type IndexSection struct {
	At
	Indices []DimIndex
}

// If is `if c then a else b`.
type If struct {
	At
	Cond, Then, Else Expr
}

// LetIn is `let p = e in body`. When `in` is omitted before another `let`,
// the parser nests the following let as the body.
type LetIn struct {
	At
	Pat  Pat
	Val  Expr
	Body Expr
}

// LetFun is a local function `let f [n] (x: t) : r = e in body`.
type LetFun struct {
	At
	Name       string
	NamePos    source.Pos
	TypeParams []SizeParam // 't parameters (Type set)
	SizeParams []SizeParam
	Params     []Pat
	Ret        TypeExpr // nil when not written
	FnBody     Expr
	Body       Expr
}

// LetWith is the in-place update `let a[i] = v in body`, sugar for
// `let a = a with [i] = v in body`.
type LetWith struct {
	At
	Name    string
	Indices []DimIndex
	Val     Expr
	Body    Expr
}

// Update is `a with [i] = v` (a copy of a with one element or slice
// replaced), or with Path set the record update `r with a.b = v`.
type Update struct {
	At
	X       Expr
	Indices []DimIndex
	Path    []string
	Val     Expr
}

// Lambda is `\p1 p2 : t -> body`.
type Lambda struct {
	At
	Params []Pat
	Ret    TypeExpr // nil when not written
	Body   Expr
}

// Loop is `loop p = init for i < n do body` or `loop p = init while c do
// body`. Init is nil for `loop p for ...`, where the pattern's names are
// taken from the enclosing scope (Futhark's shorthand).
type Loop struct {
	At
	Pat  Pat
	Init Expr
	Form LoopForm
	Body Expr
}

// LoopForm is the `for` or `while` part of a loop.
type LoopForm interface {
	Node
	loopForm()
}

// ForLoop is `for i < n`.
type ForLoop struct {
	At
	I     string
	IPos  source.Pos
	Bound Expr
}

// ForInLoop is `for x in xs`.
type ForInLoop struct {
	At
	Pat Pat
	Arr Expr
}

// WhileLoop is `while c`.
type WhileLoop struct {
	At
	Cond Expr
}

func (*ForLoop) loopForm()   {}
func (*ForInLoop) loopForm() {}
func (*WhileLoop) loopForm() {}

func (*IntLit) expr()         {}
func (*FloatLit) expr()       {}
func (*BoolLit) expr()        {}
func (*Var) expr()            {}
func (*TupleExpr) expr()      {}
func (*ParenExpr) expr()      {}
func (*ArrayLit) expr()       {}
func (*Project) expr()        {}
func (*Index) expr()          {}
func (*Apply) expr()          {}
func (*BinOp) expr()          {}
func (*Negate) expr()         {}
func (*Not) expr()            {}
func (*OpSection) expr()      {}
func (*LeftSection) expr()    {}
func (*RightSection) expr()   {}
func (*ProjectSection) expr() {}
func (*Ascribe) expr()        {}
func (*If) expr()             {}
func (*LetIn) expr()          {}
func (*LetFun) expr()         {}
func (*LetWith) expr()        {}
func (*Update) expr()         {}
func (*Lambda) expr()         {}
func (*Loop) expr()           {}
func (*Range) expr()          {}
func (*RecordExpr) expr()     {}
func (*Assert) expr()         {}
func (*IndexSection) expr()   {}
func (*Hole) expr()           {}
