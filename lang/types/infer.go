package types

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
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
	floatSet = setOf(core.F32, core.F64)
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
}

func (*tyVar) isType() {}

func (v *tyVar) String() string {
	if v.ref != nil {
		return v.ref.String()
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
type tyParam struct{ name string }

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

// solver holds the state of one inference problem.
type solver struct {
	vars    []*tyVar
	dims    map[string]Dim // solutions of dimension variables
	nextDim int
}

func newSolver() *solver { return &solver{dims: map[string]Dim{}} }

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
	for i := 0; isDimVar(d) && i < 1<<20; i++ {
		r, ok := s.dims[d.Name]
		if !ok {
			return d
		}
		d = r
	}
	return d
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
	for {
		v, ok := t.(*tyVar)
		if !ok || v.ref == nil {
			break
		}
		t = v.ref
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
	names := map[string]string{}
	used := map[string]bool{}
	s.paramDims(t, false, names, used)
	return s.zonk1(t, names)
}

func (s *solver) paramDims(t Type, inParam bool, names map[string]string, used map[string]bool) {
	switch t := s.shallow(t).(type) {
	case *Array:
		for _, d := range t.Dims {
			d = s.dim(d)
			if !inParam || !isDimVar(d) || names[d.Name] != "" {
				continue
			}
			base := d.Name[strings.LastIndexByte(d.Name, ':')+1:]
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
		s.paramDims(t.Elem, inParam, names, used)
	case *Tuple:
		for _, e := range t.Elems {
			s.paramDims(e, inParam, names, used)
		}
	case *Arrow:
		s.paramDims(t.Param, true, names, used)
		s.paramDims(t.Ret, inParam, names, used)
	}
}

func (s *solver) zonk1(t Type, names map[string]string) Type {
	switch t := s.shallow(t).(type) {
	case Prim, *tyParam, errType:
		return t
	case *tyVar:
		return t
	case *Array:
		dims := make([]Dim, len(t.Dims))
		for i, d := range t.Dims {
			d = s.dim(d)
			if isDimVar(d) {
				if n := names[d.Name]; n != "" {
					d = Dim{Name: n}
				} else {
					d = AnyDim
				}
			}
			dims[i] = d
		}
		return arrayOf(s.zonk1(t.Elem, names), dims)
	case *Tuple:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = s.zonk1(e, names)
		}
		return &Tuple{Elems: elems}
	case *Arrow:
		return &Arrow{Param: s.zonk1(t.Param, names), Ret: s.zonk1(t.Ret, names)}
	case nil:
		return errT
	default:
		return errT
	}
}

// unsolved returns an unsolved variable in t, or nil.
func (s *solver) unsolved(t Type) *tyVar {
	switch t := s.shallow(t).(type) {
	case *tyVar:
		return t
	case *Array:
		return s.unsolved(t.Elem)
	case *Tuple:
		for _, e := range t.Elems {
			if v := s.unsolved(e); v != nil {
				return v
			}
		}
	case *Arrow:
		if v := s.unsolved(t.Param); v != nil {
			return v
		}
		return s.unsolved(t.Ret)
	}
	return nil
}

// hasError reports whether t contains the error type.
func (s *solver) hasError(t Type) bool {
	switch t := s.shallow(t).(type) {
	case errType:
		return true
	case *Array:
		return s.hasError(t.Elem)
	case *Tuple:
		for _, e := range t.Elems {
			if s.hasError(e) {
				return true
			}
		}
	case *Arrow:
		return s.hasError(t.Param) || s.hasError(t.Ret)
	}
	return false
}

// mismatch says why unification failed.
type mismatch struct {
	dims   bool // two known sizes differ
	da, db Dim
	fun    bool // a function type where none is allowed
}

// unify makes a and b equal. Sizes are tracked loosely: two different
// constant sizes are a mismatch when strict is set; named sizes and unknown
// sizes agree with anything (lowering checks sizes at run time).
func (s *solver) unify(a, b Type, strict bool) *mismatch {
	a, b = s.shallow(a), s.shallow(b)
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
		if !ok || len(bt.Elems) != len(a.Elems) {
			break
		}
		for i := range a.Elems {
			if m := s.unify(a.Elems[i], bt.Elems[i], strict); m != nil {
				return m
			}
		}
		return nil
	case *Arrow:
		bt, ok := b.(*Arrow)
		if !ok {
			break
		}
		if m := s.unify(a.Param, bt.Param, strict); m != nil {
			return m
		}
		return s.unify(a.Ret, bt.Ret, strict)
	case *Array:
		bt, ok := b.(*Array)
		if !ok {
			break
		}
		if m := s.unifyDim(a.Dims[0], bt.Dims[0], strict); m != nil {
			return m
		}
		return s.unify(rowOf(a), rowOf(bt), strict)
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
		return nil
	case isDimVar(b):
		s.dims[b.Name] = a
		return nil
	case strict && a.Name == "" && b.Name == "" && a.Const >= 0 && b.Const >= 0:
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
		w.prims = set
		w.noFun = w.noFun || v.noFun
		w.lit = w.lit || v.lit
		v.ref = w
		return nil
	}
	if s.occurs(v, t) {
		return &mismatch{}
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
	v.ref = t
	return nil
}

func (s *solver) occurs(v *tyVar, t Type) bool {
	switch t := s.shallow(t).(type) {
	case *tyVar:
		return t == v
	case *Array:
		return s.occurs(v, t.Elem)
	case *Tuple:
		for _, e := range t.Elems {
			if s.occurs(v, e) {
				return true
			}
		}
	case *Arrow:
		return s.occurs(v, t.Param) || s.occurs(v, t.Ret)
	}
	return false
}

// forbidFun reports whether t contains no function type, and marks its
// unsolved variables so that they never become one.
func (s *solver) forbidFun(t Type) bool {
	switch t := s.shallow(t).(type) {
	case *Arrow:
		return false
	case *tyVar:
		t.noFun = true
	case *Array:
		return s.forbidFun(t.Elem)
	case *Tuple:
		ok := true
		for _, e := range t.Elems {
			ok = s.forbidFun(e) && ok
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

// eraseDims replaces every dimension of t by a fresh dimension variable;
// loop parameters use it because their sizes may change between iterations.
func (s *solver) eraseDims(t Type) Type {
	switch t := s.shallow(t).(type) {
	case *Array:
		dims := make([]Dim, len(t.Dims))
		for i := range dims {
			dims[i] = s.freshDim()
		}
		return arrayOf(s.eraseDims(t.Elem), dims)
	case *Tuple:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = s.eraseDims(e)
		}
		return &Tuple{Elems: elems}
	case *Arrow:
		return &Arrow{Param: s.eraseDims(t.Param), Ret: s.eraseDims(t.Ret)}
	default:
		return t
	}
}

// join is the type of a value that is either a or b, which have been
// unified: where their sizes differ the size is unknown, as for
// `if c then iota 3 else iota 4`.
func (s *solver) join(a, b Type) Type {
	a, b = s.shallow(a), s.shallow(b)
	switch at := a.(type) {
	case *Array:
		bt, ok := b.(*Array)
		if !ok || len(bt.Dims) != len(at.Dims) {
			return a
		}
		dims := make([]Dim, len(at.Dims))
		for i := range dims {
			da, db := s.dim(at.Dims[i]), s.dim(bt.Dims[i])
			if da == db {
				dims[i] = da
			} else {
				dims[i] = AnyDim
			}
		}
		return arrayOf(s.join(at.Elem, bt.Elem), dims)
	case *Tuple:
		bt, ok := b.(*Tuple)
		if !ok || len(bt.Elems) != len(at.Elems) {
			return a
		}
		elems := make([]Type, len(at.Elems))
		for i := range elems {
			elems[i] = s.join(at.Elems[i], bt.Elems[i])
		}
		return &Tuple{Elems: elems}
	}
	return a
}

// renameDims gives every named size of t (those in names, or all of them
// when names is nil) a fresh dimension variable, consistently: the
// instantiation of a function's size parameters at a use.
func (s *solver) renameDims(t Type, names map[string]bool, sub map[string]Dim) Type {
	switch t := s.shallow(t).(type) {
	case *Array:
		dims := make([]Dim, len(t.Dims))
		for i, d := range t.Dims {
			d = s.dim(d)
			if d.Name != "" && !isDimVar(d) && (names == nil || names[d.Name]) {
				nd, ok := sub[d.Name]
				if !ok {
					nd = s.freshDimFor(d.Name)
					sub[d.Name] = nd
				}
				d = nd
			}
			dims[i] = d
		}
		return arrayOf(s.renameDims(t.Elem, names, sub), dims)
	case *Tuple:
		elems := make([]Type, len(t.Elems))
		for i, e := range t.Elems {
			elems[i] = s.renameDims(e, names, sub)
		}
		return &Tuple{Elems: elems}
	case *Arrow:
		return &Arrow{Param: s.renameDims(t.Param, names, sub), Ret: s.renameDims(t.Ret, names, sub)}
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
		if !ok {
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
		return &Tuple{Elems: elems}
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
