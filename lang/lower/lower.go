// Package lower translates checked source programs (lang/syntax plus the
// checker's types.Info) into the core IR (lang/core).
//
// The translation is a single recursive walk that produces A-normal form
// directly: every sub-expression is lowered to a list of atoms, and any
// computation on the way is emitted as a statement with a fresh, unique
// name ("xs_12") and the source position of the node it came from, so that
// run-time errors name the user's line and column.
//
// Three source features disappear on the way:
//
//   - Tuples. A source value is lowered to a flat list of atoms, one per
//     primitive component (Flatten). An array of tuples becomes one array
//     per component, so zip and unzip cost nothing and projections are free.
//
//   - Higher-order functions. Function values (lambdas, operator sections,
//     named functions, partial applications, builtins used as values) never
//     reach the IR: a function value is a static description (fnVal) held
//     by the lowering environment, and applying it inlines its body at the
//     application site. A SOAC's function argument becomes a core Lambda by
//     applying the function value to fresh parameter variables. Recursive
//     top-level functions cannot be inlined; they become core Funs called
//     with ApplyExp, specialised to their function arguments (one Fun per
//     distinct function argument, whose captured values and session values
//     become extra parameters), so every Fun is first-order.
//
//   - Sizes. Size parameters (`[n]`) and sizes in parameter types are bound
//     to SizeExp of the argument they come from; where two arguments claim
//     the same size, an AssertExp checks it at run time.
//
// Two per-scope caches keep the output small without a separate pass: the
// size of an array is computed once (and SOAC, iota and replicate results
// are known to have their width as size, so fusion sees equal widths as
// one atom), and a global constant is computed once where all its uses can
// see it.
//
// The environment is keyed by *types.Object (the checker shares one Object
// between a binding and its uses); names are kept beside the objects for
// the few constructs whose AST carries a bare name (loop patterns without
// an initial value, `let a[i] = v`, sizes in type expressions).
package lower

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// Param is a session value that became a parameter of the lowered program's
// "main", in main's parameter order. Its core parameters are
// Flatten(Type), consecutively.
type Param struct {
	Name string
	Type types.Type
	// Obj is the binding the value belongs to: two generations of one
	// name (a declaration that still uses a value rebound since, beside
	// the new one) are two Params with the same Name.
	Obj *types.Object
}

// MainName is the name of the function Expr produces.
const MainName = "main"

// maxInlineDepth bounds nested inlining, which only a bug in recursion
// detection could exceed; it turns a would-be stack overflow into an error.
const maxInlineDepth = 200

// maxFunNesting bounds recursive Funs compiled while compiling another,
// which only specialisation on ever-new function arguments can exceed.
const maxFunNesting = 64

// Expr lowers a checked expression to a program whose function "main"
// computes it. Free names that are session values (Object.Kind ==
// types.Value) become main's parameters: params lists them in order of
// first use, each flattened to one or more core parameters (Flatten).
// Globals used by the expression are inlined, or compiled to core Funs when
// recursive. Everything lowering needs is in info and in the Objects it
// refers to; env is the environment the expression was checked in.
func Expr(env *types.Env, x syntax.Expr, info *types.Info) (prog *core.Program, params []Param, err error) {
	if x == nil || info == nil {
		return nil, nil, fmt.Errorf("lower: internal error: nil expression or info")
	}
	l := newLowerer()
	defer func() {
		// Lowering reports errors as values; a panic here is a bug, but it
		// must not take the REPL down with it.
		if r := recover(); r != nil {
			prog, params, err = nil, nil, source.Errorf(x.Span().Start, "internal error in lowering: %v", r)
		}
	}()
	var v value
	b, err := l.body(func() ([]core.Atom, error) {
		var err error
		v, err = l.expr(ctx{info: info}, x)
		if err != nil {
			return nil, err
		}
		if v.fn != nil {
			return nil, source.Errorf(x.Span().Start, "a function value cannot be computed; apply it to arguments")
		}
		return v.atoms, nil
	})
	if err != nil {
		return nil, nil, err
	}
	main := &core.Fun{
		Name:   MainName,
		Params: l.paramVars,
		Ret:    atomTypes(b.Result),
		Body:   b,
		Entry:  true,
		Pos:    x.Span().Start,
	}
	l.prog.Funs = append([]*core.Fun{main}, l.prog.Funs...)
	return l.prog, l.params, nil
}

// Flatten returns the core types that represent a value of source type t:
// a primitive is one scalar, a tuple is its components in order, and an
// array of tuples is one array per component (tuple of arrays), in order.
// Function types have no core representation and flatten to nothing.
func Flatten(t types.Type) []core.Type {
	switch t := t.(type) {
	case types.Prim:
		return []core.Type{core.Scalar(t.T)}
	case *types.Prim:
		return []core.Type{core.Scalar(t.T)}
	case *types.Tuple:
		var out []core.Type
		for _, e := range t.Elems {
			out = append(out, Flatten(e)...)
		}
		return out
	case *types.Array:
		inner := Flatten(t.Elem)
		out := make([]core.Type, len(inner))
		for i, c := range inner {
			out[i] = core.ArrayOf(c.Elem, c.Rank+len(t.Dims))
		}
		return out
	}
	return nil
}

// lowerer holds the state of one lowering: the program being built, the
// statements of the body under construction and the session parameters.
type lowerer struct {
	prog  *core.Program
	stmts []*core.Stmt
	tag   int
	depth int

	// Session values used so far, as main's parameters.
	params    []Param
	paramVars []*core.Var
	paramVals map[*types.Object]value

	// Recursive globals compiled to Funs, and the recursion test's cache.
	funs      map[funKey]*core.Fun
	recursive map[*syntax.ValDecl]bool
	// fun is the recursive function whose body is being lowered (nil in
	// main): main's parameters are out of reach there, so the session
	// values it uses are extra parameters of the Fun (funExtras), passed at
	// every call.
	// sizes caches SizeExp results of the body under construction (and of
	// the bodies around it), so one array's size is computed once and
	// equal sizes need no assertion.
	sizes map[sizeKey]core.Atom
	// asserted holds the pairs of sizes already asserted equal where the
	// body under construction can see it, so a size checked at a call's
	// parameters is not checked again at its result.
	asserted map[[2]core.Atom]bool
	// consts caches the values of global constants the same way: a
	// constant used twice is computed once where both uses can see it.
	consts map[*syntax.ValDecl]value

	fun        *funCtx
	funNesting int // recursive Funs being compiled, one inside another
	funExtras  map[*syntax.ValDecl][]*types.Object
}

type sizeKey struct {
	arr *core.Var
	dim int
}

// funCtx is the lowering state of one recursive function's body.
type funCtx struct {
	name string
	vals map[*types.Object]value
}

func newLowerer() *lowerer {
	return &lowerer{
		prog:      &core.Program{},
		paramVals: map[*types.Object]value{},
		funs:      map[funKey]*core.Fun{},
		recursive: map[*syntax.ValDecl]bool{},
		funExtras: map[*syntax.ValDecl][]*types.Object{},
	}
}

// ctx is where an expression is lowered: the Info its nodes are recorded in
// (each global declaration has its own) and the lexical scope.
type ctx struct {
	info *types.Info
	sc   *scope
}

// value is a lowered source value: either first-order (atoms, one per
// component of Flatten(t)) or a function value (fn).
type value struct {
	t     types.Type
	atoms []core.Atom
	fn    *fnVal
	// parts are the components of a tuple or record that holds function
	// values (Futhark allows them there, though not in arrays, if results
	// or loops): functions are not values of the IR, so such a tuple keeps
	// its components, and atoms has only their first-order atoms.
	parts []value
	// pending marks a size parameter whose argument has not been seen yet.
	pending bool
}

// scope is one level of the lexical environment.
type scope struct {
	parent *scope
	objs   map[*types.Object]*value
	names  map[string]*value
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent, objs: map[*types.Object]*value{}, names: map[string]*value{}}
}

// bind binds obj (which may be nil when the checker recorded none) and name.
func (s *scope) bind(obj *types.Object, name string, v value) *value {
	p := &v
	if obj != nil {
		s.objs[obj] = p
	}
	if name != "" {
		s.names[name] = p
	}
	return p
}

func (s *scope) lookupObj(obj *types.Object) (*value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.objs[obj]; ok {
			return v, true
		}
	}
	return nil, false
}

func (s *scope) lookupName(name string) (*value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.names[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// fresh returns a new variable whose name is base with a unique tag.
func (l *lowerer) fresh(base string, t core.Type) *core.Var {
	l.tag++
	return &core.Var{Name: fmt.Sprintf("%s_%d", sanitize(base), l.tag), Type: t}
}

// sanitize keeps identifier characters only (Futhark allows x' names).
func sanitize(s string) string {
	if s == "" {
		return "t"
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// emit appends a statement binding fresh variables of types ts to e.
func (l *lowerer) emit(pos source.Pos, base string, ts []core.Type, e core.Exp) []*core.Var {
	pat := make([]*core.Var, len(ts))
	for i, t := range ts {
		pat[i] = l.fresh(base, t)
	}
	l.stmts = append(l.stmts, &core.Stmt{Pat: pat, Exp: e, Pos: pos})
	return pat
}

// emit1 emits a statement with one result.
func (l *lowerer) emit1(pos source.Pos, base string, t core.Type, e core.Exp) *core.Var {
	return l.emit(pos, base, []core.Type{t}, e)[0]
}

// body lowers into a fresh statement list and returns it as a Body whose
// result is what f returns.
func (l *lowerer) body(f func() ([]core.Atom, error)) (*core.Body, error) {
	saved, savedSizes, savedConsts, savedAsserted := l.stmts, l.sizes, l.consts, l.asserted
	l.stmts = nil
	// What is computed inside the new body is not visible after it.
	l.sizes = make(map[sizeKey]core.Atom, len(savedSizes))
	for k, v := range savedSizes {
		l.sizes[k] = v
	}
	l.asserted = make(map[[2]core.Atom]bool, len(savedAsserted))
	for k, v := range savedAsserted {
		l.asserted[k] = v
	}
	l.consts = make(map[*syntax.ValDecl]value, len(savedConsts))
	for k, v := range savedConsts {
		l.consts[k] = v
	}
	res, err := f()
	b := &core.Body{Stmts: l.stmts, Result: res}
	l.stmts, l.sizes, l.consts, l.asserted = saved, savedSizes, savedConsts, savedAsserted
	return b, err
}

// assertEq emits a run-time check that two i64 atoms are equal.
func (l *lowerer) assertEq(pos source.Pos, a, b core.Atom, msg string) {
	if ca, ok := a.(core.Const); ok {
		if cb, ok := b.(core.Const); ok && ca == cb {
			return
		}
	}
	if a == b || l.asserted[[2]core.Atom{a, b}] || l.asserted[[2]core.Atom{b, a}] {
		return
	}
	if l.asserted == nil {
		l.asserted = map[[2]core.Atom]bool{}
	}
	l.asserted[[2]core.Atom{a, b}] = true
	c := l.emit1(pos, "eq", core.Scalar(core.Bool), &core.BinOpExp{Op: core.Eq, T: core.I64, X: a, Y: b})
	l.stmts = append(l.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: c, Msg: msg}, Pos: pos})
}

// toI64 converts an integer atom to i64 (indices, sizes).
func (l *lowerer) toI64(pos source.Pos, a core.Atom) core.Atom {
	t := a.AtomType().Elem
	if t == core.I64 {
		return a
	}
	if c, ok := a.(core.Const); ok && t.IsInt() {
		if t.IsUnsigned() {
			return core.Const{T: core.I64, Bits: c.Bits}
		}
		return core.IntConst(core.I64, c.Int())
	}
	return l.emit1(pos, "i", core.Scalar(core.I64), &core.ConvExp{From: t, To: core.I64, X: a})
}

// size emits the size of dimension d of arr.
func (l *lowerer) size(pos source.Pos, arr core.Atom, d int) (core.Atom, error) {
	v, ok := arr.(*core.Var)
	if !ok || v.Type.Rank <= d {
		return nil, source.Errorf(pos, "internal error: size of dimension %d of a non-array", d)
	}
	k := sizeKey{v, d}
	if n, ok := l.sizes[k]; ok {
		return n, nil
	}
	n := l.emit1(pos, "n", core.Scalar(core.I64), &core.SizeExp{Arr: v, Dim: d})
	if l.sizes == nil {
		l.sizes = map[sizeKey]core.Atom{}
	}
	l.sizes[k] = n
	return n, nil
}

// knowSizes records that the outer size of every array in vs is n (the
// width of the SOAC or the count of the iota that made them), so that
// consumers use n itself and fusion sees equal widths as one atom.
func (l *lowerer) knowSizes(vs []*core.Var, n core.Atom) {
	if n.AtomType() != core.Scalar(core.I64) {
		return
	}
	if l.sizes == nil {
		l.sizes = map[sizeKey]core.Atom{}
	}
	for _, v := range vs {
		if v.Type.Rank > 0 {
			l.sizes[sizeKey{v, 0}] = n
		}
	}
}

// outerSize is the outer size of an array value (the first component's).
func (l *lowerer) outerSize(pos source.Pos, v value) (core.Atom, error) {
	if len(v.atoms) == 0 {
		return nil, source.Errorf(pos, "arrays of empty tuples are not supported")
	}
	return l.size(pos, v.atoms[0], 0)
}

// arrayVars returns the components of an array value as variables.
func arrayVars(pos source.Pos, v value) ([]*core.Var, error) {
	out := make([]*core.Var, len(v.atoms))
	for i, a := range v.atoms {
		av, ok := a.(*core.Var)
		if !ok || !av.Type.IsArray() {
			return nil, source.Errorf(pos, "internal error: expected an array, got %v", a)
		}
		out[i] = av
	}
	return out, nil
}

func atomTypes(as []core.Atom) []core.Type {
	ts := make([]core.Type, len(as))
	for i, a := range as {
		ts[i] = a.AtomType()
	}
	return ts
}

func varsToAtoms(vs []*core.Var) []core.Atom {
	as := make([]core.Atom, len(vs))
	for i, v := range vs {
		as[i] = v
	}
	return as
}

// Source-type helpers. Lowering derives the source type of intermediate
// values structurally; for AST nodes it takes the checker's (Info.Types).

// rowType is the type of one element of an array type.
func rowType(t types.Type) types.Type {
	a, ok := t.(*types.Array)
	if !ok {
		return t
	}
	if len(a.Dims) <= 1 {
		return a.Elem
	}
	return &types.Array{Elem: a.Elem, Dims: a.Dims[1:]}
}

// liftType is the type of an array of values of type t with outer dim d.
func liftType(t types.Type, d types.Dim) types.Type {
	if a, ok := t.(*types.Array); ok {
		return &types.Array{Elem: a.Elem, Dims: append([]types.Dim{d}, a.Dims...)}
	}
	return &types.Array{Elem: t, Dims: []types.Dim{d}}
}

// outerDim is the outer dimension of an array type (AnyDim otherwise).
func outerDim(t types.Type) types.Dim {
	if a, ok := t.(*types.Array); ok && len(a.Dims) > 0 {
		return a.Dims[0]
	}
	return types.AnyDim
}

// tupleComponents splits a value of tuple type (or an array of tuples) into
// its components, using the flattened sizes of the component types.
func tupleComponents(pos source.Pos, v value) ([]value, error) {
	if v.parts != nil {
		return append([]value(nil), v.parts...), nil
	}
	var elems []types.Type
	switch t := v.t.(type) {
	case *types.Tuple:
		elems = t.Elems
	case *types.Array:
		tt, ok := t.Elem.(*types.Tuple)
		if !ok {
			return nil, source.Errorf(pos, "internal error: %s is not a tuple", v.t)
		}
		for _, e := range tt.Elems {
			elems = append(elems, &types.Array{Elem: e, Dims: t.Dims})
		}
	default:
		return nil, source.Errorf(pos, "internal error: %v is not a tuple", v.t)
	}
	out := make([]value, len(elems))
	off := 0
	for i, e := range elems {
		n := len(Flatten(e))
		if off+n > len(v.atoms) {
			return nil, source.Errorf(pos, "internal error: tuple %s has %d components", v.t, len(v.atoms))
		}
		out[i] = value{t: normalize(e), atoms: v.atoms[off : off+n]}
		off += n
	}
	return out, nil
}

// normalize turns an array of arrays (as produced by splitting an array of
// tuples whose component is an array) into one multi-dimensional array.
func normalize(t types.Type) types.Type {
	a, ok := t.(*types.Array)
	if !ok {
		return t
	}
	if inner, ok := a.Elem.(*types.Array); ok {
		return &types.Array{Elem: inner.Elem, Dims: append(append([]types.Dim{}, a.Dims...), inner.Dims...)}
	}
	return t
}

// tupleValue builds a tuple value from its components.
func tupleValue(vs []value) value {
	t := &types.Tuple{Elems: make([]types.Type, len(vs))}
	var atoms []core.Atom
	higher := false
	for i, v := range vs {
		t.Elems[i] = v.t
		atoms = append(atoms, v.atoms...)
		higher = higher || v.higherOrder()
	}
	if higher {
		return value{t: t, atoms: atoms, parts: append([]value(nil), vs...)}
	}
	return value{t: t, atoms: atoms}
}

// higherOrder reports whether v is or holds a function value.
func (v value) higherOrder() bool { return v.fn != nil || v.parts != nil }
