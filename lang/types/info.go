package types

import (
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// Info is what the checker learned about a checked declaration or
// expression, recorded beside the AST (after go/types.Info) so the AST
// stays independent of the checker. Lowering reads nothing else.
//
// Every type recorded here is fully resolved: no type variables remain,
// unsuffixed literals have their final type, and the element types of
// polymorphic builtins at each use are visible through the Types of the
// application and its arguments.
type Info struct {
	// Types is the type of every expression (including sub-expressions,
	// function positions and operator sections).
	Types map[syntax.Expr]Type
	// Uses says what each variable occurrence refers to.
	Uses map[*syntax.Var]*Object
	// Binds is the object each binding site introduces: *syntax.IdPat (let,
	// parameters, lambda and loop patterns), *syntax.ForLoop (the index),
	// *syntax.LetFun (the local function), *syntax.SizeParam (a size
	// variable), *syntax.DimExpr (a size variable bound implicitly by a
	// parameter type, `(xs: [n]i32)`), *syntax.LetWith (the updated
	// array), *syntax.ValDecl (a top-level declaration).
	Binds map[syntax.Node]*Object
	// PatTypes is the type of every pattern node.
	PatTypes map[syntax.Pat]Type
	// Updates is, for each in-place update `let a[i] = v in body`, the
	// array variable it reads (Binds holds the new a that body sees).
	Updates map[*syntax.LetWith]*Object
	// Sizes is, for each application of unflatten (the Apply, or the
	// BinOp of a pipe), the objects naming the two result sizes of its
	// type, nil where that size is a constant.
	Sizes map[syntax.Expr][]*Object
	// FieldPath is, for each record field access (*syntax.Project with a
	// Name), projection section with names and record update (Update with
	// a Path), the positions of the fields it goes through, in the
	// records' order (records are tuples sorted by field name).
	FieldPath map[syntax.Expr][]int
	// LocalInstances are, for each polymorphic local function (one with
	// type parameters), the instances its uses refer to: LocalFun objects
	// whose Info holds its body checked at one type each.
	LocalInstances map[*syntax.LetFun][]*Object
}

// NewInfo returns an empty Info with all maps allocated.
func NewInfo() *Info {
	return &Info{
		Types:     map[syntax.Expr]Type{},
		Uses:      map[*syntax.Var]*Object{},
		Binds:     map[syntax.Node]*Object{},
		PatTypes:  map[syntax.Pat]Type{},
		Updates:   map[*syntax.LetWith]*Object{},
		Sizes:     map[syntax.Expr][]*Object{},
		FieldPath: map[syntax.Expr][]int{},

		LocalInstances: map[*syntax.LetFun][]*Object{},
	}
}

// ObjKind says what kind of thing a name denotes.
type ObjKind int

const (
	Local     ObjKind = iota // let/parameter/lambda/loop-bound variable
	LocalFun                 // let-bound local function (LetFun)
	Global                   // top-level def/entry (function or constant)
	Value                    // a value held by the session (REPL `let x = ...`, evaluated constants)
	Builtin                  // map, reduce, iota, ... (Name is the builtin's name)
	ModuleFun                // i32.max, f64.sqrt, f32.pi, ... (Name is "i32.max")
	SizeVar                  // a size parameter or a size bound by a pattern type ([n])
)

// Object is a named entity. Objects are shared: the binding site and all
// uses of a local point at the same *Object, so lowering can key its
// environment by *Object.
type Object struct {
	Kind ObjKind
	Name string
	Type Type       // for builtins, the generic signature as shown by :type
	Pos  source.Pos // where it was declared (zero for builtins)
	Doc  string     // one-line description (builtins, doc comments)
	// Decl is the declaration of a Global, and Fun the local function of a
	// LocalFun; nil otherwise.
	Decl *syntax.ValDecl
	Fun  *syntax.LetFun
	// Info is, for a Global, the Info recorded when its declaration was
	// checked (lowering needs it to inline or compile the body), and for
	// an instance of a polymorphic local function the Info of its body.
	Info *Info
}
