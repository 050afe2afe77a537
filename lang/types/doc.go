// Package types resolves names and infers types for the Futhark subset
// (Futhark's rules), and records what it learned in an Info beside the AST
// for lowering (info.go is that contract; type.go the source types).
//
// Inference is Hindley-Milner-style unification over the source types of
// type.go plus three internal forms (infer.go): unification variables
// (tyVar), the type parameters of builtin signatures (tyParam), and an
// error type that unifies with everything, so that one mistake gives one
// message and checking goes on to report every independent error.
//
// Overloading is a constraint on a variable: the set of primitive types it
// may become. An unsuffixed integer literal is a variable over all numeric
// types, a decimal literal one over f32 and f64; `+` requires its operands
// to be one numeric type, `&` one integer type, and so on (ops.go). What
// remains undecided at the end of a declaration takes Futhark's default,
// i32 or f64, and only then are literal ranges checked. There are no
// implicit conversions.
//
// Polymorphism: builtins (their signatures are written as text in
// builtins.go and instantiated at each use), sizes, and top-level
// functions with type parameters, declared ('t) or left unconstrained by
// inference (`def id x = x`); such a function is checked at each type it
// is used at, as an instance with an Info of its own (poly.go), so that
// lowering only ever sees monomorphic code. The prelude's array functions
// (prelude.fut) are such functions. A local function with type parameters
// is polymorphic the same way (localpoly.go); one without is monomorphic,
// with unannotated parameters inferred from its uses, as Futhark does not
// generalise local functions. A user function's sizes
// ([n], or a name in a parameter type) are instantiated at each use, so
// `dup [1, 2, 3]` has type [3]f32 while :type dup shows [n]f32 -> [n]f32.
// Sizes are checked as Futhark checks them where both are known (infer.go,
// solver.rigid): a size name in scope (a size parameter, rigid in its
// function, or an i64 variable), a constant, or the existential size of an
// if or loop whose two sizes differ is rigid, and two different rigid
// sizes that a context requires equal (arguments, array elements,
// ascriptions, declared results and loop patterns) are an error in
// Futhark's words. A use of a function instantiates its sizes with
// dimension variables, which become whatever they meet. Unknown sizes
// ([], filter's) are left, conservatively, to the run-time checks that
// lowering generates.
//
// Function values may be passed, bound by let and returned from lambdas,
// but never stored in arrays or tuples, returned from if, or carried by a
// loop: each function value is then statically known where it is applied,
// which is what lets lowering inline all of them.
//
// Uniqueness (consume.go) is checked on each declaration once its types
// are known: what an in-place update or a consuming (`*`) parameter
// consumes, what aliases what, and that nothing consumed is used again.
//
// Each top-level declaration is one inference problem: when it is done,
// every type recorded in the Info is resolved, and a Global object carries
// its final type, its declaration and its Info. An Env is immutable;
// CheckDecls returns a new one, so a REPL input that fails to check leaves
// the session's names as they were.
package types
