package types

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// This file holds the inference machinery: unification variables, the
// primitive-set constraints that make literals and operators overloaded,
// dimension variables, unification and zonking (replacing solved variables
// by their solutions).

// primSet is a set of primitive types, one bit per core.PrimType.
type primSet uint16

func setOf(ts ...core.PrimType) primSet {
	var s primSet
	for _, t := range ts {
		s |= 1 << t
	}
	return s
}

func (s primSet) has(t core.PrimType) bool { return s&(1<<t) != 0 }

var (
	intSet   = setOf(core.I8, core.I16, core.I32, core.I64, core.U8, core.U16, core.U32, core.U64)
	floatSet = setOf(core.F32, core.F64, core.F16)
	numSet   = intSet | floatSet
	boolSet  = setOf(core.Bool)
	allPrims = numSet | boolSet
)

// describe names a constraint for messages about a still-unsolved variable.
func (s primSet) describe() string {
	switch s {
	case numSet:
		return "numeric type"
	case intSet:
		return "integer type"
	case floatSet:
		return "float type"
	case intSet | boolSet:
		return "integer or bool type"
	case allPrims:
		return "primitive type"
	}
	var names []string
	for _, t := range core.PrimTypes {
		if s.has(t) {
			names = append(names, t.String())
		}
	}
	return "one of " + strings.Join(names, ", ")
}

// defaultPrim is the type an unsolved constrained variable gets when
// nothing else decides it: i32 for integer literals and integer operators,
// f64 for decimal literals (Futhark's defaults).
func (s primSet) defaultPrim() core.PrimType {
	switch {
	case s.has(core.I32):
		return core.I32
	case s.has(core.F64):
		return core.F64
	case s.has(core.Bool):
		return core.Bool
	}
	for _, t := range core.PrimTypes {
		if s.has(t) {
			return t
		}
	}
	return core.I32
}

// tyVar is a unification variable. A variable with a non-empty prims set
// may only become a primitive of that set (overloaded literals and
// operators); a noFun variable may not become or contain a function type
// (array elements, builtin type parameters, if results, loop parameters).
type tyVar struct {
	id    int
	ref   Type
	prims primSet
	noFun bool
	lit   bool // created for an unsuffixed literal: messages show its default

	cons map[string][]Type // an open sum type's known constructors (sums.go)
}

func (*tyVar) isType() {}

func (v *tyVar) String() string {
	if v.ref != nil {
		return v.ref.String()
	}
	if v.cons != nil {
		return describeCons(v.cons)
	}
	if v.prims != 0 {
		if v.lit {
			return v.prims.defaultPrim().String()
		}
		return v.prims.describe()
	}
	return fmt.Sprintf("t%d", v.id)
}

// tyParam is a type parameter of a builtin's generic signature (the `a` of
// `map : (a -> b) -> [n]a -> [n]b`). It only appears in Object.Type of
// builtins; every use instantiates it with a fresh tyVar.
type tyParam struct {
	name string
	// lifted ('^t) parameters may stand for function types.
	lifted bool
}

func (*tyParam) isType()          {}
func (p *tyParam) String() string { return p.name }

// errType is the type of an expression that already produced an error. It
// unifies with everything, so one mistake gives one message.
type errType struct{}

func (errType) isType()        {}
func (errType) String() string { return "<error>" }

var errT Type = errType{}

// dimVarPrefix starts the names of dimension variables; source size names
// are identifiers, so they never clash.
const dimVarPrefix = "?"

func isDimVar(d Dim) bool { return strings.HasPrefix(d.Name, dimVarPrefix) }

// existPrefix starts the names of existential sizes: the size of an if
// whose branches have different rigid sizes ([n] and [m], [3] and [4]), or
// of a loop whose body and initial value do.
// Such a size is unknown but fixed, as in Futhark: it is rigid, and equal
// only to itself. Zonk makes it unknown ([]), so no name of this form
// leaves the solver.
const existPrefix = "!"

func isExist(d Dim) bool { return strings.HasPrefix(d.Name, existPrefix) }

// existName is how a message names an existential size: d1, d2, ...
func existName(d Dim) string { return "d" + strings.TrimPrefix(d.Name, existPrefix) }

// existential is what a message says of an existential size: the two
// sizes it is one of, and the if (or loop) whose size it is.
type existential struct {
	a, b Dim
	at   source.Pos
	of   joinKind
}

// joinKind is what makes a value of one of two types: an if's branches, or
// a loop's body and initial value.
type joinKind int

const (
	joinIf joinKind = iota
	joinLoop
)

func (k joinKind) describe() string {
	switch k {
	case joinIf:
		return "the if at %d:%d, whose branches have sizes [%s] and [%s]"
	case joinLoop:
		return "the loop at %d:%d, whose body and initial value have sizes [%s] and [%s]"
	}
	return "the expression at %d:%d, of size [%s] or [%s]"
}

// solver holds the state of one inference problem.
type solver struct {
	vars    []*tyVar
	dims    map[string]Dim // solutions of dimension variables
	nextDim int
	// projs are projections of variables not yet known to be tuples
	// (`let first p = p.0`): each is resolved when its variable is bound.
	projs map[*tyVar][]pendingProj
	// products are dimension variables known to be the product of two
	// sizes: the result of flatten, and a size expression `[n*m]`. They
	// let unflatten find its result sizes as Futhark's checker does, by
	// matching its argument's `[n*m]` (bug 9 of issue 17).
	products map[string][2]Dim
	// steps counts the links followed in chains of solved variables (a
	// test bounds it: without path compression it grows quadratically).
	steps int

	// Static size checking (see rigid). loose are the size names bound
	// implicitly by lambda parameters (`\(xs: [k]i32) -> ...`), which
	// stand for whatever size the lambda is applied to, so they are not
	// compared; lax is set while an instance of a polymorphic function is
	// checked at a use's type, whose sizes were checked where the
	// function was declared and where it is used (only two constants are
	// still compared, as before static size checking). exists describes
	// the existential sizes.
	loose  map[string]bool
	lax    bool
	exists map[string]existential
	// showExist makes zonk name existential sizes (d1, d2, ...) rather
	// than make them unknown, for messages about them.
	showExist bool
}

// pendingProj is field `field` of a variable, whose type is res.
type pendingProj struct {
	field int
	res   Type
}

func newSolver() *solver {
	return &solver{dims: map[string]Dim{}, products: map[string][2]Dim{}, loose: map[string]bool{}, exists: map[string]existential{}}
}

// rigid reports whether the (solved) size d is fixed: a constant, a size
// name in scope (a size parameter, an i64 variable) or an existential.
// Two different rigid sizes that must be equal are a type error, as in
// Futhark, where a size parameter is rigid inside its function. Unknown
// sizes ([], filter's result, a size expression other than a product)
// and dimension variables are not rigid; neither are the names in loose,
// nor any name while lax is set. Being conservative where arepl cannot
// tell is the point: a valid program wrongly rejected is worse than a
// mismatch left to the run-time check that lowering generates.
func (s *solver) rigid(d Dim) bool {
	switch {
	case d.Name == "":
		return d.Const >= 0
	case isDimVar(d):
		return false
	}
	return !s.lax && !s.loose[d.Name]
}

// clash reports whether the solved sizes a and b are rigid and differ.
func (s *solver) clash(a, b Dim) bool { return a != b && s.rigid(a) && s.rigid(b) }

// freshExist is a new existential size: the size of an if (or loop) at p
// that has the size a or b.
func (s *solver) freshExist(a, b Dim, p source.Pos, of joinKind) Dim {
	s.nextDim++
	d := Dim{Name: fmt.Sprintf("%s%d", existPrefix, s.nextDim)}
	s.exists[d.Name] = existential{a: a, b: b, at: p, of: of}
	return d
}

// freshProduct is a dimension variable standing for the size a*b.
func (s *solver) freshProduct(a, b Dim) Dim {
	d := s.freshDimFor(productBase)
	s.products[d.Name] = [2]Dim{a, b}
	return d
}

// productBase names product variables. Zonk makes every product an
// unknown size (`[]`) rather than a size parameter, since the size it
// stands for is not a name.
const productBase = "*"

// product is the pair of sizes whose product d is, if it is known to be
// one: every variable on d's chain of solutions is tried, since unifying a
// product variable with another variable moves the solution past it.
func (s *solver) product(d Dim) ([2]Dim, bool) {
	for i := 0; isDimVar(d) && i < 1<<20; i++ {
		if p, ok := s.products[d.Name]; ok {
			return p, true
		}
		next, ok := s.dims[d.Name]
		if !ok {
			break
		}
		d = next
	}
	return [2]Dim{}, false
}

// factors is d written as a product of k sizes, splitting the first factor
// of a product further as flatten (flatten xs) builds it: [n*m*l] is
// ((n*m)*l).
func (s *solver) factors(d Dim, k int) ([]Dim, bool) {
	if k == 1 {
		return []Dim{s.dim(d)}, true
	}
	p, ok := s.product(d)
	if !ok {
		return nil, false
	}
	first, ok := s.factors(p[0], k-1)
	if !ok {
		return nil, false
	}
	return append(first, s.dim(p[1])), true
}

func (s *solver) fresh() *tyVar {
	v := &tyVar{id: len(s.vars)}
	s.vars = append(s.vars, v)
	return v
}

func (s *solver) freshConstrained(set primSet) *tyVar {
	v := s.fresh()
	v.prims = set
	v.noFun = true
	return v
}

func (s *solver) freshElem() *tyVar {
	v := s.fresh()
	v.noFun = true
	return v
}

func (s *solver) freshDim() Dim { return s.freshDimFor("") }

// freshDimFor is a dimension variable standing for the size called name
// (kept for showing the types of size-polymorphic functions).
func (s *solver) freshDimFor(name string) Dim {
	s.nextDim++
	return Dim{Name: fmt.Sprintf("%s%d:%s", dimVarPrefix, s.nextDim, name)}
}

// dim follows dimension-variable solutions.
func (s *solver) dim(d Dim) Dim {
	start := d
	for i := 0; isDimVar(d) && i < 1<<20; i++ {
		r, ok := s.dims[d.Name]
		if !ok {
			break
		}
		d = r
		s.steps++
	}
	// Path compression, as for type variables (resolve): every variable
	// on the chain now names the end directly.
	for v := start; isDimVar(v) && v != d; {
		next, ok := s.dims[v.Name]
		if !ok {
			break
		}
		s.dims[v.Name] = d
		v = next
	}
	return d
}

// resolve follows a chain of solved type variables to its end and points
// every variable on it at the end (path compression): unifying each
// element of a long literal with the last builds such chains, and walking
// them again for every element made checking quadratic.
func (s *solver) resolve(v *tyVar) Type {
	var t Type = v
	for {
		w, ok := t.(*tyVar)
		if !ok || w.ref == nil {
			break
		}
		t = w.ref
		s.steps++
	}
	for w := v; w != t; {
		next, ok := w.ref.(*tyVar)
		w.ref = t
		if !ok {
			break
		}
		w = next
	}
	return t
}

// arrayOf builds an array of elem with the given outer dims, merging when
// elem is itself an array so that Elem is never an Array.
func arrayOf(elem Type, dims []Dim) Type {
	if len(dims) == 0 {
		return elem
	}
	if a, ok := elem.(*Array); ok {
		ds := make([]Dim, 0, len(dims)+len(a.Dims))
		ds = append(append(ds, dims...), a.Dims...)
		return &Array{Elem: a.Elem, Dims: ds}
	}
	return &Array{Elem: elem, Dims: dims}
}

// rowOf is the type of one element of a.
func rowOf(a *Array) Type {
	if len(a.Dims) == 1 {
		return a.Elem
	}
	return &Array{Elem: a.Elem, Dims: a.Dims[1:]}
}

// shallow follows solved variables at the top of t and normalises an array
// whose element variable was solved to an array.
func (s *solver) shallow(t Type) Type {
	if v, ok := t.(*tyVar); ok && v.ref != nil {
		t = s.resolve(v)
	}
	if a, ok := t.(*Array); ok {
		if len(a.Dims) == 0 {
			return s.shallow(a.Elem)
		}
		e := s.shallow(a.Elem)
		if e != a.Elem {
			return arrayOf(e, a.Dims)
		}
	}
	return t
}

// zonk replaces every solved variable in t by its solution. An unsolved
// dimension variable that occurs in a parameter type is a size the
// function is polymorphic in, so it takes back the name it was
// instantiated from (`[n]i32 -> i32`); any other becomes unknown (`[]`).
func (s *solver) zonk(t Type) Type {
	switch u := s.shallow(t).(type) {
	case Prim, errType:
		return u // most expressions: no maps to make
	}
	names := map[string]string{}
	s.paramDims(t, false, names, map[string]bool{}, map[memoKey]bool{})
	return s.zonk1(t, names, map[Type]Type{})
}

func (s *solver) paramDims(t Type, inParam bool, names map[string]string, used map[string]bool, seen map[memoKey]bool) {
	if memoizable(t) {
		k := memoKey{t, inParam}
		if seen[k] {
			return
		}
		seen[k] = true
	}
	switch t := s.shallow(t).(type) {
	case *Array:
		for _, d := range t.Dims {
			d = s.dim(d)
			if !inParam || !isDimVar(d) || names[d.Name] != "" {
				continue
			}
			base := d.Name[strings.LastIndexByte(d.Name, ':')+1:]
			if _, isProduct := s.products[d.Name]; isProduct {
				continue
			}
			if base == "" || strings.HasPrefix(base, dimVarPrefix) {
				base = "n"
			}
			name := base
			for i := 1; used[name]; i++ {
				name = fmt.Sprintf("%s%d", base, i)
			}
			used[name] = true
			names[d.Name] = name
		}
		s.paramDims(t.Elem, inParam, names, used, seen)
	case *Tuple:
		for _, e := range t.Elems {
			s.paramDims(e, inParam, names, used, seen)
		}
	case *Arrow:
		s.paramDims(t.Param, true, names, used, seen)
		s.paramDims(t.Ret, inParam, names, used, seen)
	}
}

func (s *solver) zonk1(t Type, names map[string]string, memo map[Type]Type) Type {
	if r, ok := memo[t]; ok {
		return r
	}
	r := s.zonk2(t, names, memo)
	if memoizable(t) {
		memo[t] = r
	}
	return r
}

func (s *solver) zonk2(t Type, names map[string]string, memo map[Type]Type) Type {
	switch t := s.shallow(t).(type) {
	case Prim, *tyParam, errType:
		return t
	case *tyVar:
		return t
	case *Array:
		dims := make([]Dim, len(t.Dims))
		for i, d := range t.Dims {
			d = s.dim(d)
			switch {
			case isDimVar(d):
				if n := names[d.Name]; n != "" {
					d = Dim{Name: n}
				} else {
					d = AnyDim
				}
			case isExist(d) && s.showExist:
				d = Dim{Name: existName(d)}
			case isExist(d):
				d = AnyDim
			}
			dims[i] = d
		}
		return arrayOf(s.zonk1(t.Elem, names, memo), dims)
	case *Tuple:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = s.zonk1(e, names, memo)
		}
		return &Tuple{Elems: elems, Names: t.Names}
	case *Arrow:
		return &Arrow{Param: s.zonk1(t.Param, names, memo), Ret: s.zonk1(t.Ret, names, memo)}
	case nil:
		return errT
	default:
		return errT
	}
}

// unsolved returns an unsolved variable in t, or nil. Like every walk
// here it visits a shared sub-type once: types are DAGs, and
// `let b = (a, a)` doubles a type's tree size at each step.
func (s *solver) unsolved(t Type) *tyVar { return s.unsolved1(t, map[Type]bool{}) }

func (s *solver) unsolved1(t Type, seen map[Type]bool) *tyVar {
	if visited(seen, t) {
		return nil
	}
	switch t := s.shallow(t).(type) {
	case *tyVar:
		return t
	case *Array:
		return s.unsolved1(t.Elem, seen)
	case *Tuple:
		for _, e := range t.Elems {
			if v := s.unsolved1(e, seen); v != nil {
				return v
			}
		}
	case *Arrow:
		if v := s.unsolved1(t.Param, seen); v != nil {
			return v
		}
		return s.unsolved1(t.Ret, seen)
	}
	return nil
}

// visited reports whether the compound type t was seen before, and marks
// it seen.
func visited(seen map[Type]bool, t Type) bool {
	switch t.(type) {
	case *Array, *Tuple, *Arrow, *tyVar:
		if seen[t] {
			return true
		}
		seen[t] = true
	}
	return false
}

// memoKey is the cache key of the type-building walks: a compound type
// and, for paramDims, whether it is in a parameter.
type memoKey struct {
	t    Type
	flag bool
}

func memoizable(t Type) bool {
	switch t.(type) {
	case *Array, *Tuple, *Arrow, *tyVar:
		return true
	}
	return false
}

// mismatch says why unification failed.
type mismatch struct {
	dims   bool // two known sizes differ
	da, db Dim
	fun    bool // a function type where none is allowed
	occurs bool // a variable would contain itself
}

// unify makes a and b equal. When strict is set, two different rigid
// sizes are a mismatch (Futhark's "Sizes "n" and "m" do not match"): a
// context that requires equal sizes (an argument, an ascription, a
// function's result) sets it. Unknown sizes agree with anything (lowering
// checks sizes at run time), and a dimension variable becomes whatever
// size it meets.
func (s *solver) unify(a, b Type, strict bool) *mismatch {
	return s.unify1(a, b, strict, map[[2]Type]bool{})
}

// unify1 remembers the pairs of compound types it has unified, so that
// shared sub-types are unified once.
func (s *solver) unify1(a, b Type, strict bool, done map[[2]Type]bool) *mismatch {
	if memoizable(a) && memoizable(b) {
		if done[[2]Type{a, b}] {
			return nil
		}
		done[[2]Type{a, b}] = true
	}
	a, b = s.shallow(a), s.shallow(b)
	if memoizable(a) && a == b {
		return nil // one shared type is equal to itself
	}
	_, aerr := a.(errType)
	_, berr := b.(errType)
	if aerr || berr {
		// Whatever meets an error becomes an error, so that it is not
		// reported again as ambiguous or mismatched later.
		if v, ok := a.(*tyVar); ok {
			v.ref = errT
		}
		if v, ok := b.(*tyVar); ok {
			v.ref = errT
		}
		return nil
	}
	if va, ok := a.(*tyVar); ok {
		return s.bind(va, b)
	}
	if vb, ok := b.(*tyVar); ok {
		return s.bind(vb, a)
	}
	switch a := a.(type) {
	case Prim:
		if bp, ok := b.(Prim); ok && bp.T == a.T {
			return nil
		}
	case *Tuple:
		bt, ok := b.(*Tuple)
		if !ok || len(bt.Elems) != len(a.Elems) || !sameNames(a.Names, bt.Names) {
			break
		}
		for i := range a.Elems {
			if m := s.unify1(a.Elems[i], bt.Elems[i], strict, done); m != nil {
				return m
			}
		}
		return nil
	case *Arrow:
		bt, ok := b.(*Arrow)
		if !ok {
			break
		}
		if m := s.unify1(a.Param, bt.Param, strict, done); m != nil {
			return m
		}
		return s.unify1(a.Ret, bt.Ret, strict, done)
	case *Array:
		bt, ok := b.(*Array)
		if !ok {
			break
		}
		if m := s.unifyDim(a.Dims[0], bt.Dims[0], strict); m != nil {
			return m
		}
		return s.unify1(rowOf(a), rowOf(bt), strict, done)
	case *tyParam:
		if bp, ok := b.(*tyParam); ok && bp.name == a.name {
			return nil
		}
	}
	return &mismatch{}
}

func (s *solver) unifyDim(a, b Dim, strict bool) *mismatch {
	a, b = s.dim(a), s.dim(b)
	switch {
	case a == b:
		return nil
	case isDimVar(a):
		s.dims[a.Name] = b
		if p, ok := s.products[a.Name]; ok && isDimVar(b) {
			if _, has := s.products[b.Name]; !has {
				s.products[b.Name] = p
			}
		}
		return nil
	case isDimVar(b):
		s.dims[b.Name] = a
		if p, ok := s.products[b.Name]; ok && isDimVar(a) {
			if _, has := s.products[a.Name]; !has {
				s.products[a.Name] = p
			}
		}
		return nil
	case strict && s.clash(a, b):
		return &mismatch{dims: true, da: a, db: b}
	}
	return nil
}

// bind solves v := t, merging v's constraints into t.
func (s *solver) bind(v *tyVar, t Type) *mismatch {
	if w, ok := t.(*tyVar); ok {
		if w == v {
			return nil
		}
		set := w.prims
		if v.prims != 0 {
			if set == 0 {
				set = v.prims
			} else {
				set &= v.prims
			}
			if set == 0 {
				return &mismatch{}
			}
		}
		if m := s.bindCons(v, w); m != nil {
			return m
		}
		w.prims = set
		w.noFun = w.noFun || v.noFun
		w.lit = w.lit || v.lit
		v.ref = w
		if ps := s.projs[v]; ps != nil {
			delete(s.projs, v)
			s.projs[w] = append(s.projs[w], ps...)
		}
		return nil
	}
	if s.occurs(v, t) {
		return &mismatch{occurs: true}
	}
	if v.prims != 0 {
		p, ok := t.(Prim)
		if !ok || !v.prims.has(p.T) {
			return &mismatch{}
		}
	}
	if v.noFun && !s.forbidFun(t) {
		return &mismatch{fun: true}
	}
	if m := s.bindCons(v, t); m != nil {
		return m
	}
	if u, ok := t.(*Tuple); ok {
		t = sharpenSum(v, u)
	}
	v.ref = t
	if ps := s.projs[v]; ps != nil {
		delete(s.projs, v)
		if tup, ok := t.(*Tuple); ok {
			for _, p := range ps {
				if p.field < len(tup.Elems) {
					s.unify(tup.Elems[p.field], p.res, true)
				}
			}
		}
	}
	return nil
}

func (s *solver) occurs(v *tyVar, t Type) bool { return s.occurs1(v, t, map[Type]bool{}) }

func (s *solver) occurs1(v *tyVar, t Type, seen map[Type]bool) bool {
	if visited(seen, t) {
		return false
	}
	switch t := s.shallow(t).(type) {
	case *tyVar:
		return t == v
	case *Array:
		return s.occurs1(v, t.Elem, seen)
	case *Tuple:
		for _, e := range t.Elems {
			if s.occurs1(v, e, seen) {
				return true
			}
		}
	case *Arrow:
		return s.occurs1(v, t.Param, seen) || s.occurs1(v, t.Ret, seen)
	}
	return false
}

// forbidFun reports whether t contains no function type, and marks its
// unsolved variables so that they never become one.
func (s *solver) forbidFun(t Type) bool { return s.forbidFun1(t, map[Type]bool{}) }

func (s *solver) forbidFun1(t Type, seen map[Type]bool) bool {
	if visited(seen, t) {
		return true
	}
	switch t := s.shallow(t).(type) {
	case *Arrow:
		return false
	case *tyVar:
		t.noFun = true
	case *tyParam:
		return !t.lifted
	case *Array:
		return s.forbidFun1(t.Elem, seen)
	case *Tuple:
		ok := true
		for _, e := range t.Elems {
			ok = s.forbidFun1(e, seen) && ok
		}
		return ok
	}
	return true
}

// constrain requires t to be a primitive in set.
func (s *solver) constrain(t Type, set primSet) bool {
	switch u := s.shallow(t).(type) {
	case errType:
		return true
	case *tyVar:
		nv := s.freshConstrained(set)
		return s.bind(u, nv) == nil
	case Prim:
		return set.has(u.T)
	}
	return false
}

// hintCopy is the hint t for one branch of an if: its known structure, with
// fresh variables for its unsolved type variables and sizes, so that what
// one branch's calls take from the hint (`map f xs` unifies its result
// with it) does not fix the type or size of the if, which is the join of
// both branches.
func (s *solver) hintCopy(t Type) Type {
	if t == nil {
		return nil
	}
	return s.freshen(t, true, map[Type]Type{})
}

// eraseDims replaces every dimension of t by a fresh dimension variable;
// loop parameters use it because their sizes may change between iterations.
func (s *solver) eraseDims(t Type) Type { return s.freshen(t, false, map[Type]Type{}) }

// freshen copies t with a fresh variable for every dimension and, with
// vars, for every unsolved type variable (keeping its constraints).
func (s *solver) freshen(t Type, vars bool, memo map[Type]Type) Type {
	if r, ok := memo[t]; ok {
		return r
	}
	var r Type
	switch u := s.shallow(t).(type) {
	case *tyVar:
		if !vars {
			r = u
			break
		}
		v := s.fresh()
		v.prims, v.noFun, v.lit = u.prims, u.noFun, u.lit
		if u.cons != nil {
			v.cons = map[string][]Type{}
			for n, ps := range u.cons {
				v.cons[n] = append([]Type{}, ps...)
			}
		}
		r = v
	case *Array:
		dims := make([]Dim, len(u.Dims))
		for i := range dims {
			dims[i] = s.freshDim()
		}
		r = arrayOf(s.freshen(u.Elem, vars, memo), dims)
	case *Tuple:
		elems := make([]Type, len(u.Elems))
		for i, e := range u.Elems {
			elems[i] = s.freshen(e, vars, memo)
		}
		r = &Tuple{Elems: elems, Names: u.Names}
	case *Arrow:
		r = &Arrow{Param: s.freshen(u.Param, vars, memo), Ret: s.freshen(u.Ret, vars, memo)}
	default:
		r = u
	}
	if memoizable(t) {
		memo[t] = r
	}
	return r
}

// join is the type of a value that is either a or b, which have been
// unified: where their sizes differ the size is unknown, as for
// `if c then iota 3 else iota 4`. Where both are rigid it is an
// existential, unknown but fixed as Futhark makes it, so that the if
// cannot then pass for an array of either size; p is the if (or the loop,
// as of says).
func (s *solver) join(a, b Type, p source.Pos, of joinKind) Type {
	return s.join1(a, b, p, of, &joinMemo{types: map[[2]Type]Type{}, exists: map[[2]Dim]Dim{}})
}

// joinMemo is what one join remembers: the pairs of compound types it has
// joined (types are DAGs, and walking a shared sub-type once per path is
// exponential), and the existential it made for each pair of sizes, so
// that `if b then ([1, 2, 3], [4, 5, 6]) else ([1, 2], [3, 4])` gives its
// two arrays one size, as Futhark does: they are the same size in either
// branch.
type joinMemo struct {
	types  map[[2]Type]Type
	exists map[[2]Dim]Dim
}

func (s *solver) join1(a, b Type, p source.Pos, of joinKind, memo *joinMemo) Type {
	key := [2]Type{a, b}
	if memoizable(a) && memoizable(b) {
		if r, ok := memo.types[key]; ok {
			return r
		}
	}
	r := s.join2(a, b, p, of, memo)
	if memoizable(a) && memoizable(b) {
		memo.types[key] = r
	}
	return r
}

func (s *solver) join2(a, b Type, p source.Pos, of joinKind, memo *joinMemo) Type {
	if a == b {
		return a // the same (shared) type: nothing differs
	}
	a, b = s.shallow(a), s.shallow(b)
	if a == b {
		return a
	}
	switch at := a.(type) {
	case *Array:
		bt, ok := b.(*Array)
		if !ok || len(bt.Dims) != len(at.Dims) {
			return a
		}
		dims := make([]Dim, len(at.Dims))
		for i := range dims {
			da, db := s.dim(at.Dims[i]), s.dim(bt.Dims[i])
			switch {
			case da == db:
				dims[i] = da
			case s.clash(da, db):
				e, ok := memo.exists[[2]Dim{da, db}]
				if !ok {
					e = s.freshExist(da, db, p, of)
					memo.exists[[2]Dim{da, db}] = e
				}
				dims[i] = e
			case of == joinLoop:
				// The body's size where it is not known to differ
				// from the initial one (a dimension variable may
				// still be fixed by a later use: a declared result).
				dims[i] = da
			default:
				dims[i] = AnyDim
			}
		}
		return arrayOf(s.join1(at.Elem, bt.Elem, p, of, memo), dims)
	case *Tuple:
		bt, ok := b.(*Tuple)
		if !ok || len(bt.Elems) != len(at.Elems) {
			return a
		}
		elems := make([]Type, len(at.Elems))
		for i := range elems {
			elems[i] = s.join1(at.Elems[i], bt.Elems[i], p, of, memo)
		}
		return &Tuple{Elems: elems, Names: at.Names}
	}
	return a
}

// freshenDims gives every unsolved dimension variable of t (but product
// variables, which unflatten reads) a fresh one, consistently: the sizes of
// a let-bound function value (`let inc = map (+1)`) or a local function
// (`let inc zs = map (+1) zs`) that nothing has fixed are its own at each
// use, as Futhark generalises them, so that `(inc xs, inc ys)` may take
// arrays of two sizes.
func (s *solver) freshenDims(t Type) Type {
	return s.freshenDims1(t, map[string]Dim{}, map[Type]Type{})
}

func (s *solver) freshenDims1(t Type, sub map[string]Dim, memo map[Type]Type) Type {
	if r, ok := memo[t]; ok {
		return r
	}
	var r Type
	switch u := s.shallow(t).(type) {
	case *Array:
		dims := make([]Dim, len(u.Dims))
		for i, d := range u.Dims {
			d = s.dim(d)
			if _, isProduct := s.products[d.Name]; isDimVar(d) && !isProduct {
				nd, ok := sub[d.Name]
				if !ok {
					nd = s.freshDim()
					sub[d.Name] = nd
				}
				d = nd
			}
			dims[i] = d
		}
		r = arrayOf(s.freshenDims1(u.Elem, sub, memo), dims)
	case *Tuple:
		elems := make([]Type, len(u.Elems))
		for i, e := range u.Elems {
			elems[i] = s.freshenDims1(e, sub, memo)
		}
		r = &Tuple{Elems: elems, Names: u.Names}
	case *Arrow:
		r = &Arrow{Param: s.freshenDims1(u.Param, sub, memo), Ret: s.freshenDims1(u.Ret, sub, memo)}
	default:
		r = u
	}
	if memoizable(t) {
		memo[t] = r
	}
	return r
}

// renameDims gives every named size of t (those in names, or all of them
// when names is nil) a fresh dimension variable, consistently: the
// instantiation of a function's size parameters at a use.
func (s *solver) renameDims(t Type, names map[string]bool, sub map[string]Dim) Type {
	return s.renameDims1(t, names, sub, map[Type]Type{})
}

func (s *solver) renameDims1(t Type, names map[string]bool, sub map[string]Dim, memo map[Type]Type) Type {
	if r, ok := memo[t]; ok {
		return r
	}
	r := s.renameDims2(t, names, sub, memo)
	if memoizable(t) {
		memo[t] = r
	}
	return r
}

func (s *solver) renameDims2(t Type, names map[string]bool, sub map[string]Dim, memo map[Type]Type) Type {
	switch t := s.shallow(t).(type) {
	case *Array:
		dims := make([]Dim, len(t.Dims))
		for i, d := range t.Dims {
			d = s.dim(d)
			if d.Name != "" && !isDimVar(d) && !isExist(d) && (names == nil || names[d.Name]) {
				nd, ok := sub[d.Name]
				if !ok {
					nd = s.freshDimFor(d.Name)
					sub[d.Name] = nd
				}
				d = nd
			}
			dims[i] = d
		}
		return arrayOf(s.renameDims1(t.Elem, names, sub, memo), dims)
	case *Tuple:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = s.renameDims1(e, names, sub, memo)
		}
		return &Tuple{Elems: elems, Names: t.Names}
	case *Arrow:
		return &Arrow{Param: s.renameDims1(t.Param, names, sub, memo), Ret: s.renameDims1(t.Ret, names, sub, memo)}
	default:
		return t
	}
}

// instantiate replaces the type parameters of a builtin's signature by
// fresh variables and its sizes by fresh dimension variables. Builtin type
// parameters may not become functions (Futhark's `'a`, not `'^a`).
func (s *solver) instantiate(t Type, tvs map[string]*tyVar, dims map[string]Dim) Type {
	switch t := t.(type) {
	case *tyParam:
		v, ok := tvs[t.name]
		if !ok && t.lifted {
			v = s.fresh()
			tvs[t.name] = v
		}
		if !ok && !t.lifted {
			v = s.freshElem()
			tvs[t.name] = v
		}
		return v
	case *Array:
		ds := make([]Dim, len(t.Dims))
		for i, d := range t.Dims {
			if d.Name != "" {
				nd, ok := dims[d.Name]
				if !ok {
					nd = s.freshDimFor(d.Name)
					dims[d.Name] = nd
				}
				d = nd
			}
			ds[i] = d
		}
		return arrayOf(s.instantiate(t.Elem, tvs, dims), ds)
	case *Tuple:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = s.instantiate(e, tvs, dims)
		}
		return &Tuple{Elems: elems, Names: t.Names}
	case *Arrow:
		return &Arrow{Param: s.instantiate(t.Param, tvs, dims), Ret: s.instantiate(t.Ret, tvs, dims)}
	default:
		return t
	}
}

// IsFunction reports whether t is a function type.
func IsFunction(t Type) bool {
	for {
		v, ok := t.(*tyVar)
		if !ok || v.ref == nil {
			break
		}
		t = v.ref
	}
	_, ok := t.(*Arrow)
	return ok
}

// sameNames reports whether two tuples are both plain or both records
// with the same fields.
func sameNames(a, b []string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
