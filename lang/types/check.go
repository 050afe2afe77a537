package types

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// scope is the persistent list of local bindings: adding a binding makes a
// new head, so sibling sub-expressions never see each other's names.
type scope struct {
	parent *scope
	obj    *Object
}

func (sc *scope) add(o *Object) *scope { return &scope{parent: sc, obj: o} }

// litUse is a literal whose range is checked once its type is known.
type litUse struct {
	e   syntax.Expr
	neg bool // the operand of a prefix minus: -128i8 fits
	t   Type // its type (read back through the solver, not Info.Types)
}

// unflattenUse is an application of unflatten; its result sizes must be
// known when the declaration is finished (lowering evaluates them).
type unflattenUse struct {
	call syntax.Expr
	sc   *scope
	name string // unflatten, unflatten_3d or unflatten_4d
	rank int    // of the result: 2, 3 or 4
}

// checker checks one CheckDecls or CheckExpr call. Each top-level
// declaration is a separate inference problem (a fresh solver); finish
// defaults and resolves it, so Globals only ever carry resolved types.
type checker struct {
	src     *source.File
	env     *Env
	globals map[string]*Object // declarations of this call, over env
	info    *Info
	s       *solver
	errs    source.ErrorList

	// Per declaration.
	errsAtStart int
	exprs       []syntax.Expr
	pats        []syntax.Pat
	objs        []*Object
	lits        []litUse
	negLits     map[syntax.Expr]bool
	localSizes  map[*Object]map[string]bool
	instDims    map[*syntax.Var]map[string]Dim
	unflatVars  map[*syntax.Var]bool
	unflattens  []unflattenUse
	eqUses      []eqUse // equality.go
	// indexVars are the types of index expressions; those still
	// undecided at the end take i64, Futhark's default for indices.
	indexVars []Type
	// typeNames are the type parameters in scope ('t), polyUses the uses
	// of polymorphic globals (poly.go), generalize the declaration whose
	// unconstrained type variables become type parameters.
	typeNames map[string]Type
	// opened are the enclosing local opens i32.(e), innermost last.
	opened     []openScope
	abbrevDims map[string]Dim
	polyUses   []polyUse
	generalize *syntax.ValDecl
	matches    []*syntax.Match // matches with constructors (sums.go)
	sumUses    []sumUse        // constructor applications (sums.go)

	// localPolys are the polymorphic local functions, localUses their
	// uses, localInsts their instances by type (localpoly.go).
	localPolys map[*Object]*localPoly
	localUses  []polyUse
	localInsts map[localKey]*Object

	// Per call.
	typeDecls map[string]*syntax.TypeDecl
	expanding map[*syntax.TypeDecl]bool
	instances map[string]*Object
	depth     int
}

func newChecker(src *source.File, env *Env) *checker {
	info := NewInfo()
	if src != nil {
		// About one expression per three bytes of dense code: sized up
		// front, the map of expression types is not rehashed as a long
		// generated program fills it.
		info.Types = make(map[syntax.Expr]Type, min(len(src.Text)/3, 1<<20))
	}
	c := &checker{src: src, env: env, globals: map[string]*Object{}, info: info, instances: map[string]*Object{}}
	c.begin()
	return c
}

func (c *checker) begin() {
	c.s = newSolver()
	c.errsAtStart = len(c.errs)
	c.exprs, c.pats, c.objs, c.lits, c.unflattens = nil, nil, nil, nil, nil
	c.eqUses = nil
	c.negLits = map[syntax.Expr]bool{}
	c.localSizes = map[*Object]map[string]bool{}
	c.localPolys, c.localUses, c.localInsts = map[*Object]*localPoly{}, nil, map[localKey]*Object{}
	c.instDims = map[*syntax.Var]map[string]Dim{}
	c.unflatVars = map[*syntax.Var]bool{}
	c.indexVars, c.typeNames, c.polyUses, c.generalize = nil, nil, nil, nil
	c.matches, c.sumUses = nil, nil
}

func (c *checker) lookupGlobal(name string) *Object {
	if o, ok := c.globals[name]; ok {
		return o
	}
	if o, ok := c.env.Lookup(name); ok {
		return o
	}
	return nil
}

// openScope is a local open: its module, and the scope where it starts.
type openScope struct {
	mod   string
	sc    *scope
	names map[string]string // lang/modules' names in scope (ParenExpr.Names)
}

// openedMember returns the module of the innermost enclosing local open
// i32.(e) that has a member called name and no local binding of name
// inside it (a module's names shadow those bound outside the open, as in
// Futhark), or "".
func (c *checker) openedMember(sc *scope, name string) string {
	for i := len(c.opened) - 1; i >= 0; i-- {
		o := c.opened[i]
		for s := sc; s != nil && s != o.sc; s = s.parent {
			if s.obj.Name == name {
				return ""
			}
		}
		if o.names != nil {
			if q, ok := o.names[name]; ok {
				return q
			}
		} else if c.lookupGlobal(o.mod+"."+name) != nil {
			return o.mod
		}
		sc = o.sc
	}
	return ""
}

func (c *checker) lookup(sc *scope, name string) *Object {
	for ; sc != nil; sc = sc.parent {
		if sc.obj.Name == name {
			return sc.obj
		}
	}
	return c.lookupGlobal(name)
}

func (c *checker) newObj(kind ObjKind, name string, t Type, pos source.Pos) *Object {
	o := &Object{Kind: kind, Name: name, Type: t, Pos: pos}
	c.objs = append(c.objs, o)
	return o
}

func (c *checker) record(e syntax.Expr, t Type) Type {
	// One map operation: the map grows only for an expression not seen
	// before (a long literal records 100,000 of them).
	n := len(c.info.Types)
	c.info.Types[e] = t
	if len(c.info.Types) > n {
		c.exprs = append(c.exprs, e)
	}
	return t
}

func (c *checker) recordPat(p syntax.Pat, t Type) {
	if _, seen := c.info.PatTypes[p]; !seen {
		c.pats = append(c.pats, p)
	}
	c.info.PatTypes[p] = t
}

func pos(n syntax.Node) source.Pos { return n.Span().Start }

// ---------------------------------------------------------------------------
// Unification with messages

// mustUnify unifies want with got and reports a failure as
// "cannot unify want with got in what".
func (c *checker) mustUnify(p source.Pos, want, got Type, what string) bool {
	return c.unifyMsg(p, want, got, true, func(a, b string) string {
		return fmt.Sprintf("cannot unify %s with %s in %s", a, b, what)
	})
}

func (c *checker) unifyMsg(p source.Pos, a, b Type, strict bool, msg func(a, b string) string) bool {
	return c.unifyChecking(p, a, b, strict, nil, msg)
}

// unifyChecking is unifyMsg where a size mismatch is reported as Futhark
// does in the context that checking names (Futhark's first line, "Function
// body does not have expected type."; made only for a message, as an
// argument's quotes its source text), followed by the two types and the
// sizes that differ, on one line; with no checking it is reported after
// msg. a is the type expected, b the type found.
func (c *checker) unifyChecking(p source.Pos, a, b Type, strict bool, checking func() string, msg func(a, b string) string) bool {
	m := c.s.unify(a, b, strict)
	if m == nil {
		return true
	}
	sa, sb := showTypes(c.s.zonk(a), c.s.zonk(b))
	switch {
	case m.dims:
		sa, sb = c.showSized(a, b)
		c.sizeError(p, checking, msg(sa, sb), sa, sb, m.da, m.db)
	case m.fun:
		c.errorf(p, "%s (a function is not allowed here: cannot instantiate with a functional type)", msg(sa, sb))
	case m.occurs:
		c.errorf(p, "Occurs check: cannot instantiate a type variable with a type that contains it: %s", msg(sa, sb))
	default:
		c.errorf(p, "%s%s", msg(sa, sb), c.unsharedFields(a, b))
	}
	return false
}

// unsharedFields names the fields that only one of two record types has
// (Futhark's "unshared fields"), for a message about their mismatch, or
// is empty where a and b are not both records (or arrays of them).
func (c *checker) unsharedFields(a, b Type) string {
	for {
		aa, ok1 := c.s.shallow(a).(*Array)
		ba, ok2 := c.s.shallow(b).(*Array)
		if !ok1 || !ok2 {
			break
		}
		a, b = aa.Elem, ba.Elem
	}
	if s := c.unsharedCons(a, b); s != "" {
		return s
	}
	ra, ok1 := c.s.shallow(a).(*Tuple)
	rb, ok2 := c.s.shallow(b).(*Tuple)
	if !ok1 || !ok2 || ra.Names == nil || rb.Names == nil {
		return ""
	}
	in := func(name string, names []string) bool {
		for _, n := range names {
			if n == name {
				return true
			}
		}
		return false
	}
	var only []string
	for _, n := range ra.Names {
		if !in(n, rb.Names) {
			only = append(only, n)
		}
	}
	for _, n := range rb.Names {
		if !in(n, ra.Names) {
			only = append(only, n)
		}
	}
	if len(only) == 0 {
		return ""
	}
	sort.Strings(only)
	return " (unshared fields: " + strings.Join(only, ", ") + ".)"
}

// inferenceVar is how an unsolved type variable prints (tyVar.String).
var inferenceVar = regexp.MustCompile(`\bt[0-9]+\b`)

var typeWord = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_']*`)

// showTypes prints types for a message with their unsolved type
// variables named 'a, 'b, 'c, ... in order of appearance, as a user
// declares type parameters, rather than by the solver's numbering
// ("[3]t1"); the quote keeps them apart from the user's own names.
func showTypes(a, b Type) (string, string) {
	s := showTypeList(a, b)
	return s[0], s[1]
}

// showType is showTypes for one type.
func showType(t Type) string { return showTypeList(t)[0] }

func showTypeList(ts ...Type) []string {
	out := make([]string, len(ts))
	taken := map[string]bool{}
	for i, t := range ts {
		out[i] = t.String()
		for _, w := range typeWord.FindAllString(out[i], -1) {
			taken[w] = true
		}
	}
	names := map[string]string{}
	next := 0
	rename := func(v string) string {
		if n, ok := names[v]; ok {
			return n
		}
		for {
			n := "'" + string(rune('a'+next%26))
			if next >= 26 {
				n += strconv.Itoa(next / 26)
			}
			next++
			if !taken[n] {
				names[v] = n
				return n
			}
		}
	}
	for i := range out {
		out[i] = inferenceVar.ReplaceAllStringFunc(out[i], rename)
	}
	return out
}

func dimText(d Dim) string {
	if d.Name != "" {
		return d.Name
	}
	return fmt.Sprint(d.Const)
}

// sizeError reports two rigid sizes da and db that must be equal, in a
// and b, the types expected and found: `Sizes "n" and "m" do not match.`
// after Futhark's header for the context, or after what (arepl's "cannot
// unify ... in ...") where there is none. An existential size is named by
// the if or loop it comes from.
func (c *checker) sizeError(p source.Pos, checking func() string, what, a, b string, da, db Dim) {
	sizes := fmt.Sprintf("Sizes %q and %q do not match.", c.sizeName(da), c.sizeName(db))
	for _, d := range []Dim{da, db} {
		if e, ok := c.s.exists[d.Name]; ok {
			sizes += fmt.Sprintf(" %s is the size of "+e.of.describe()+".",
				c.sizeName(d), e.at.Line, e.at.Col, dimText(e.a), dimText(e.b))
		}
	}
	if checking == nil {
		c.errorf(p, "%s: %s", what, sizes)
		return
	}
	c.errorf(p, "%s Expected: %s Actual: %s %s", checking(), a, b, sizes)
}

// sizeName is a rigid size as a message names it.
func (c *checker) sizeName(d Dim) string {
	if isExist(d) {
		return existName(d)
	}
	return dimText(d)
}

// showSized prints a and b for a message about their sizes, naming
// existential sizes rather than showing them unknown.
func (c *checker) showSized(a, b Type) (string, string) {
	c.s.showExist = true
	defer func() { c.s.showExist = false }()
	return showTypes(c.s.zonk(a), c.s.zonk(b))
}

// clashIn finds two different rigid sizes at the same place of want and
// got without unifying anything: where a loop's sizes may change between
// iterations, only the sizes its pattern declares are checked.
func (s *solver) clashIn(want, got Type) (Dim, Dim, bool) {
	return s.clashIn1(want, got, map[[2]Type]bool{})
}

func (s *solver) clashIn1(want, got Type, done map[[2]Type]bool) (Dim, Dim, bool) {
	if memoizable(want) && memoizable(got) {
		if done[[2]Type{want, got}] {
			return Dim{}, Dim{}, false
		}
		done[[2]Type{want, got}] = true
	}
	switch w := s.shallow(want).(type) {
	case *Array:
		g, ok := s.shallow(got).(*Array)
		if !ok {
			return Dim{}, Dim{}, false
		}
		for i := 0; i < len(w.Dims) && i < len(g.Dims); i++ {
			if a, b := s.dim(w.Dims[i]), s.dim(g.Dims[i]); s.clash(a, b) {
				return a, b, true
			}
		}
		if len(w.Dims) == len(g.Dims) {
			return s.clashIn1(w.Elem, g.Elem, done)
		}
	case *Tuple:
		g, ok := s.shallow(got).(*Tuple)
		if !ok || len(g.Elems) != len(w.Elems) {
			return Dim{}, Dim{}, false
		}
		for i := range w.Elems {
			if a, b, bad := s.clashIn1(w.Elems[i], g.Elems[i], done); bad {
				return a, b, true
			}
		}
	}
	return Dim{}, Dim{}, false
}

// checkDeclaredSizes reports, in Futhark's words for checking, the first
// rigid size of got that differs from the one want has at its place.
func (c *checker) checkDeclaredSizes(p source.Pos, want, got Type, checking func() string) bool {
	da, db, bad := c.s.clashIn(want, got)
	if !bad {
		return true
	}
	sa, sb := c.showSized(want, got)
	c.sizeError(p, checking, "", sa, sb, da, db)
	return false
}

// Futhark's headers for the contexts that require equal sizes.
var (
	checkingReturn    = header("Function body does not have expected type.")
	checkingAscribe   = header("Expression does not have expected type from explicit ascription.")
	checkingLoopInit  = header("Initial loop values do not have expected type.")
	checkingLoopBody  = header("Loop body does not have expected type.")
	checkingLambdaRet = header("Lambda body does not have expected type.")
)

func header(text string) func() string { return func() string { return text } }

// sizedLet is the local function that the parser makes of a size-binding
// let, `let [n] p = e in body` (syntax.convSizedLet): an argument of the
// wrong size is a pattern that cannot match its value.
const sizedLet = "_let_sizes"

// checkingApply is Futhark's header for an argument of the wrong type:
// `Cannot apply "f" to "ys" (invalid type).`
func (c *checker) checkingApply(name string, arg syntax.Expr) func() string {
	return func() string {
		if name == sizedLet {
			return "Pattern cannot match value of type."
		}
		if name == "function" || name == "" {
			return fmt.Sprintf("Cannot apply function to %q (invalid type).", c.snippet(arg))
		}
		return fmt.Sprintf("Cannot apply %q to %q (invalid type).", name, c.snippet(arg))
	}
}

// snippet is the source text of e when it is short and on one line, or
// an ellipsis.
func (c *checker) snippet(e syntax.Expr) string {
	sp := e.Span()
	if c.src == nil || sp.Start.Line != sp.End.Line || sp.Start.Line < 1 {
		return "..."
	}
	line := c.src.Line(sp.Start.Line)
	from, to := sp.Start.Col-1, sp.End.Col-1
	if from < 0 || to > len(line) || from >= to {
		return "..."
	}
	if t := strings.TrimSpace(line[from:to]); t != "" && len(t) <= 40 {
		return t
	}
	return "..."
}

// noFun reports a type holding a function where Futhark forbids one
// (array elements, if results, loop parameters; tuples and records may
// hold functions), so that lowering can always resolve function values
// statically. msg is Futhark's text, with %s for the type.
func (c *checker) noFun(p source.Pos, t Type, msg string) bool {
	if c.s.forbidFun(t) {
		return true
	}
	c.errorf(p, msg, showType(c.s.zonk(t)))
	return false
}

// Futhark's messages for a function type where none may be.
const (
	funInIf    = "If-expression returns type %s, but if-results may not be of function type."
	funInArray = "Type %s found to be functional: arrays cannot contain functions."
	funInLoop  = "Loop parameter inferred to have type %s, but a loop parameter may not be of function type."
)

// ---------------------------------------------------------------------------
// Finishing a declaration

// finish gives unsolved literal and operator types their defaults, replaces
// every recorded type by its resolved form, checks literal ranges and
// reports types that are still ambiguous.
//
// When result is a function type (a REPL expression such as `map` or
// `zip [1]`), its remaining type variables are generalised to type
// parameters instead, so that :type can show `(a -> b) -> [n]a -> [n]b`;
// such a value is shown, never lowered.
func (c *checker) finish(result Type) {
	for _, t := range c.indexVars {
		if v, ok := c.s.shallow(t).(*tyVar); ok {
			c.s.unify(v, Prim{T: core.I64}, false)
		}
	}
	c.closeSums()
	for _, v := range c.s.vars {
		if v.ref == nil && v.prims != 0 {
			v.ref = Prim{T: v.prims.defaultPrim()}
		}
	}
	if result != nil && IsFunction(c.s.shallow(result)) {
		c.generalizeVars(result, new(int), map[Type]bool{}, nil)
	}
	if d := c.generalize; d != nil {
		if o := c.info.Binds[d]; o != nil {
			taken := map[string]bool{}
			for _, p := range d.TypeParams {
				taken[p.Name] = true
			}
			c.generalizeVars(o.Type, new(int), map[Type]bool{}, taken)
		}
	}
	for _, u := range c.unflattens {
		c.unflattenSizes(u)
	}
	clean := len(c.errs) == c.errsAtStart
	reported := false
	ambiguous := func(p source.Pos, t Type, what string) {
		if clean && !reported && c.s.unsolved(t) != nil {
			c.errorf(p, "cannot infer the type of %s (%s); add a type annotation", what, t)
			reported = true
		}
	}
	for _, p := range c.pats {
		t := c.s.zonk(c.info.PatTypes[p])
		c.info.PatTypes[p] = t
		what := "this pattern"
		if id, ok := p.(*syntax.IdPat); ok {
			what = fmt.Sprintf("%q", id.Name)
		}
		ambiguous(pos(p), t, what)
	}
	for _, e := range c.exprs {
		t := c.s.zonk(c.info.Types[e])
		c.info.Types[e] = t
		ambiguous(pos(e), t, "this expression")
	}
	c.checkMatches()
	// What is still unsolved was reported (or follows from an error):
	// make it an error type so that no variable outlives its declaration.
	for _, v := range c.s.vars {
		if v.ref == nil {
			v.ref = errT
		}
	}
	for _, o := range c.objs {
		o.Type = c.s.zonk(o.Type)
	}
	if len(c.errs) > c.errsAtStart {
		for _, e := range c.exprs {
			c.info.Types[e] = c.s.zonk(c.info.Types[e])
		}
		for _, p := range c.pats {
			c.info.PatTypes[p] = c.s.zonk(c.info.PatTypes[p])
		}
	}
	for _, l := range c.lits {
		c.checkLiteral(l)
	}
	for v := range c.unflatVars {
		c.errorf(v.Pos(), "%s must be applied to an argument", v.Name)
	}
	c.equalityTypes()
	if len(c.errs) == c.errsAtStart {
		c.instantiatePolyUses(c.polyUses)
		c.instantiateLocalUses()
	}
	c.begin()
}

// generalizeVars binds the unconstrained unsolved variables of t to type
// parameters a, b, ... (skipping the names in taken).
func (c *checker) generalizeVars(t Type, next *int, seen map[Type]bool, taken map[string]bool) {
	if visited(seen, t) {
		return
	}
	switch t := c.s.shallow(t).(type) {
	case *tyVar:
		if t.prims != 0 {
			return
		}
		for {
			name := string(rune('a' + *next%26))
			if *next >= 26 {
				name += fmt.Sprint(*next / 26)
			}
			*next++
			if !taken[name] {
				t.ref = &tyParam{name: name}
				return
			}
		}
	case *Array:
		c.generalizeVars(t.Elem, next, seen, taken)
	case *Tuple:
		for _, e := range t.Elems {
			c.generalizeVars(e, next, seen, taken)
		}
	case *Arrow:
		c.generalizeVars(t.Param, next, seen, taken)
		c.generalizeVars(t.Ret, next, seen, taken)
	}
}

func (c *checker) checkLiteral(l litUse) {
	p, ok := c.s.shallow(l.t).(Prim)
	if !ok {
		return
	}
	switch e := l.e.(type) {
	case *syntax.IntLit:
		if p.T.IsFloat() || intFits(e.Value, l.neg, p.T) {
			return
		}
		text := strings.TrimSuffix(e.Text, e.Suffix)
		if l.neg {
			text = "-" + text
		}
		c.errorf(e.Pos(), "literal %s is out of bounds for type %s", text, p.T)
	case *syntax.FloatLit:
		// What rounds to the largest f32 fits (f32.highest prints as
		// 3.4028235e38f32); what rounds to infinity does not, as in
		// Futhark (1e400 in f64 too).
		v := e.Value
		if p.T == core.F32 {
			v = float64(float32(v))
		}
		if math.IsInf(v, 0) {
			c.errorf(e.Pos(), "literal %s is out of bounds for type %s", e.Text, p.T)
		}
		if p.T == core.F16 && !math.IsInf(e.Value, 0) && math.IsInf(core.RoundHalf(e.Value), 0) {
			c.errorf(e.Pos(), "literal %s does not fit in f16", e.Text)
		}
	}
}

// intFits reports whether the magnitude v (negated when neg) is a value of
// integer type t. A negated unsigned literal is out of bounds, as in
// Futhark (`-4 : u8`; the operator applied to a value, `-x`, wraps).
func intFits(v uint64, neg bool, t core.PrimType) bool {
	bits := uint(t.Bits())
	switch {
	case t == core.Bool:
		return false
	case t.IsSigned():
		lim := uint64(1) << (bits - 1)
		if neg {
			return v <= lim
		}
		return v < lim
	case neg && v != 0:
		return false
	case bits == 64:
		return true
	}
	return v < uint64(1)<<bits
}

// unflattenSizes records the objects that name the result sizes of an
// unflatten, for lowering; a size that is neither a constant nor a name in
// scope cannot be evaluated.
func (c *checker) unflattenSizes(u unflattenUse) {
	t, _ := c.s.shallow(c.info.Types[u.call]).(*Array)
	if t == nil || len(t.Dims) < u.rank {
		return
	}
	unknown := func() {
		if u.name == "rep" {
			c.errorf(pos(u.call), "rep: the result size must be known; use it where the size is fixed, or ascribe it, as in `rep x : [n]t`")
			return
		}
		c.errorf(pos(u.call), "%s: the result sizes must be known: give the argument a type [%s]t, or ascribe the result, as in `%s xs : [%s]t`",
			u.name, strings.Join(flattenNames[:u.rank], "*"), u.name, strings.Join(flattenNames[:u.rank], "]["))
	}
	objs := make([]*Object, u.rank)
	for i, d := range t.Dims[:u.rank] {
		d = c.s.dim(d)
		switch {
		case isDimVar(d) || isExist(d):
			unknown()
			return
		case d.Name != "":
			o := c.lookup(u.sc, d.Name)
			if o == nil || !isI64(c.s.shallow(c.declaredType(o))) {
				c.errorf(pos(u.call), "%s: size %s is not an i64 in scope", u.name, d.Name)
				return
			}
			objs[i] = o
		case d.Const < 0:
			unknown()
			return
		}
	}
	c.info.Sizes[u.call] = objs
}

func isI64(t Type) bool {
	p, ok := t.(Prim)
	return ok && p.T == core.I64
}

// ---------------------------------------------------------------------------
// Declarations

func (c *checker) valDecl(d *syntax.ValDecl) *Object {
	obj := &Object{Kind: Global, Name: d.Name, Pos: d.NamePos, Doc: d.Doc, Decl: d, Info: c.info}
	c.notRedefinable(d.Name, d.NamePos)
	c.info.Binds[d] = obj
	c.objs = append(c.objs, obj)
	// Recursion (an arepl extension: Futhark's defs are not recursive): the
	// function's own name is in scope in its body only where no earlier
	// binding of the name is, that is where Futhark would reject the use.
	// Where there is one, the name means it, as in Futhark, so that
	// `def g x = g x * 2` wraps the g declared before.
	var self *Object
	if len(d.Params) > 0 && c.lookupGlobal(d.Name) == nil {
		self = obj
	}
	if len(d.TypeParams) > 0 {
		c.typeNames = map[string]Type{}
		seen := map[string]source.Pos{}
		for i := range d.TypeParams {
			p := &d.TypeParams[i]
			if prev, dup := seen[p.Name]; dup {
				c.errorf(p.Pos(), "Name %q also bound at %d:%d: %s has two type parameters named %s.", p.Name, prev.Line, prev.Col, d.Name, p.Name)
			} else {
				seen[p.Name] = p.Pos()
			}
			c.typeNames[p.Name] = &tyParam{name: p.Name, lifted: p.Lifted}
			c.info.Binds[p] = &Object{Kind: Local, Name: p.Name, Type: c.typeNames[p.Name], Pos: p.Pos()}
		}
	}
	obj.Type = c.funDef(nil, d.SizeParams, d.Params, d.Ret, d.Body, self, map[string]bool{}, d.Name, nil)
	if d.Kind != syntax.KindEntry && len(d.Params) > 0 {
		c.generalize = d
	}
	c.finish(nil)
	if self != nil && len(c.errs) == c.errsAtStart {
		c.recursionCheck(d, self)
	}
	if len(c.errs) == c.errsAtStart && d.NamePos.File != preludeFile {
		c.consumption(d)
	}
	if d.Kind == syntax.KindEntry && len(c.errs) == c.errsAtStart && containsParam(obj.Type) {
		c.errorf(d.NamePos, "Entry point functions may not be polymorphic: entry point %s cannot be polymorphic (type %s)", d.Name, obj.Type)
	}
	if d.Kind == syntax.KindEntry && len(c.errs) == c.errsAtStart {
		c.entrySizes(d, obj)
	}
	if d.Kind == syntax.KindEntry && len(c.errs) == c.errsAtStart {
		t := obj.Type
		for {
			a, ok := t.(*Arrow)
			if !ok {
				break
			}
			if containsArrow(a.Param) {
				c.errorf(d.NamePos, "Entry point functions may not be higher-order: %s takes %s", d.Name, a.Param)
				t = nil
				break
			}
			t = a.Ret
		}
		if t != nil && containsArrow(t) {
			c.errorf(d.NamePos, "Entry point functions may not be higher-order: %s returns %s", d.Name, t)
		}
	}
	return obj
}

// distinctNames reports a name bound twice by one group of patterns (a
// function's parameters, a let or loop pattern), as Futhark does.
func (c *checker) distinctNames(pats ...syntax.Pat) {
	seen := map[string]source.Pos{}
	var walk func(p syntax.Pat)
	walk = func(p syntax.Pat) {
		switch p := p.(type) {
		case *syntax.IdPat:
			if prev, dup := seen[p.Name]; dup {
				c.errorf(p.Pos(), "Name %q also bound at %d:%d.", p.Name, prev.Line, prev.Col)
				return
			}
			seen[p.Name] = p.Pos()
		case *syntax.TuplePat:
			for _, e := range p.Elems {
				walk(e)
			}
		case *syntax.AscribedPat:
			walk(p.Pat)
		case *syntax.RecordPat:
			for _, f := range p.Fields {
				if f.Pat != nil {
					walk(f.Pat)
				}
			}
		}
	}
	for _, p := range pats {
		walk(p)
	}
}

// containsArrow reports whether a resolved type contains a function type.
func containsArrow(t Type) bool { return containsArrow1(t, map[Type]bool{}) }

func containsArrow1(t Type, seen map[Type]bool) bool {
	if visited(seen, t) {
		return false
	}
	switch t := t.(type) {
	case *Arrow:
		return true
	case *Array:
		return containsArrow1(t.Elem, seen)
	case *Tuple:
		for _, e := range t.Elems {
			if containsArrow1(e, seen) {
				return true
			}
		}
	}
	return false
}

// funDef checks a function definition (top-level or local) and returns its
// type. Size parameters and sizes named in parameter types are i64 values
// in the body; sizes collects their names so that uses can instantiate
// them.
//
// When want is not nil, the function is checked at that type (an instance
// of a polymorphic function). The function's own name (self) is in scope
// in its body, below its parameters, which may shadow it.
func (c *checker) funDef(sc *scope, sizeParams []syntax.SizeParam, params []syntax.Pat, ret syntax.TypeExpr,
	body syntax.Expr, self *Object, sizes map[string]bool, name string, want Type) Type {
	if self != nil {
		sc = sc.add(self)
	}
	for i := range sizeParams {
		sp := &sizeParams[i]
		o := c.newObj(SizeVar, sp.Name, Prim{T: core.I64}, sp.Pos())
		c.info.Binds[sp] = o
		sc = sc.add(o)
		sizes[sp.Name] = true
	}
	c.distinctNames(params...)
	c.sizeParamsDistinct(sizeParams, params)
	// Earlier parameters are in scope in the types of later ones:
	// `(n: i64) (xs: [n]f32)`.
	ctx := &tyCtx{sc: sc, implicit: true, sizes: sizes}
	pts := make([]Type, len(params))
	for i, p := range params {
		pts[i] = c.patType(ctx, p)
		ctx.sc = c.declarePat(ctx.sc, p, pts[i])
	}
	sc = ctx.sc
	var rt Type
	if ret != nil {
		rt = c.typeExpr(&tyCtx{sc: sc}, ret)
	} else {
		rt = c.s.fresh()
	}
	ft := rt
	for i := len(pts) - 1; i >= 0; i-- {
		ft = &Arrow{Param: pts[i], Ret: ft}
	}
	if self != nil {
		self.Type = ft
	}
	if want != nil {
		c.mustUnify(pos(body), want, ft, "instance of "+name)
	}
	bt := c.expr(sc, body, rt)
	c.unifyChecking(pos(body), rt, bt, true, checkingReturn, func(a, b string) string {
		return fmt.Sprintf("Function body does not have expected type: %s returns %s but its body has type %s", name, a, b)
	})
	return ft
}

// ---------------------------------------------------------------------------
// Expressions

// expr checks e and records its type. hint, when not nil, is the type the
// context expects; it only shapes lambdas and sections (their parameter
// types come from it), and the caller still unifies the result.
func (c *checker) expr(sc *scope, e syntax.Expr, hint Type) Type {
	return c.record(e, c.expr1(sc, e, hint))
}

func (c *checker) expr1(sc *scope, e syntax.Expr, hint Type) Type {
	switch e := e.(type) {
	case *syntax.IntLit:
		if e.Suffix == "" {
			v := c.s.freshConstrained(numSet)
			v.lit = true
			c.lits = append(c.lits, litUse{e: e, neg: c.negLits[e], t: v})
			return v
		}
		if pt, ok := core.PrimByName(e.Suffix); ok && pt.IsInt() {
			c.lits = append(c.lits, litUse{e: e, neg: c.negLits[e], t: Prim{T: pt}})
			return Prim{T: pt}
		}
		c.errorf(e.Pos(), "invalid suffix %q on integer literal", e.Suffix)
		return errT
	case *syntax.FloatLit:
		if e.Suffix == "" {
			v := c.s.freshConstrained(floatSet)
			v.lit = true
			c.lits = append(c.lits, litUse{e: e, t: v})
			return v
		}
		if pt, ok := core.PrimByName(e.Suffix); ok && pt.IsFloat() {
			c.lits = append(c.lits, litUse{e: e, t: Prim{T: pt}})
			return Prim{T: pt}
		}
		c.errorf(e.Pos(), "invalid suffix %q on decimal literal", e.Suffix)
		return errT
	case *syntax.BoolLit:
		return Prim{T: core.Bool}
	case *syntax.Var:
		c.underscoreUse(sc, e)
		return c.varRef(sc, e)
	case *syntax.ParenExpr:
		if e.Open != "" || e.Names != nil {
			// Inside a local open only the bindings made inside it
			// shadow the module's names; around a declaration's body
			// (Names alone) its parameters do too.
			o := openScope{mod: e.Open, names: e.Names}
			if e.Open != "" {
				o.sc = sc
			}
			c.opened = append(c.opened, o)
			defer func() { c.opened = c.opened[:len(c.opened)-1] }()
		}
		return c.expr(sc, e.X, hint)
	case *syntax.TupleExpr:
		elems := make([]Type, len(e.Elems))
		var hs []Type
		if h, ok := c.hintOf(hint).(*Tuple); ok && len(h.Elems) == len(e.Elems) {
			hs = h.Elems
		}
		for i, x := range e.Elems {
			var h Type
			if hs != nil {
				h = hs[i]
			}
			elems[i] = c.expr(sc, x, h)
		}
		return &Tuple{Elems: elems}
	case *syntax.ArrayLit:
		return c.arrayLit(sc, e)
	case *syntax.Project:
		if e.Name != "" {
			return c.fieldAccess(sc, e)
		}
		return c.project(c.expr(sc, e.X, nil), e.Field, e.Pos())
	case *syntax.RecordExpr:
		return c.recordExpr(sc, e)
	case *syntax.Index:
		xt := c.expr(sc, e.X, nil)
		return c.index(sc, xt, e.Indices, e.Pos())
	case *syntax.Apply:
		return c.call(sc, e, e.Fn, e.Args, nil, hint)
	case *syntax.BinOp:
		return c.binOp(sc, e, hint)
	case *syntax.Negate:
		if lit, ok := e.X.(*syntax.IntLit); ok {
			c.negLits[lit] = true
		}
		t := c.expr(sc, e.X, nil)
		if !c.s.constrain(t, numSet) {
			c.errorf(e.Pos(), "unary - is not defined on %s", showType(c.s.zonk(t)))
			return errT
		}
		return t
	case *syntax.Not:
		t := c.expr(sc, e.X, nil)
		if !c.s.constrain(t, intSet|boolSet) {
			c.errorf(e.Pos(), "operator ! is not defined on %s", showType(c.s.zonk(t)))
			return errT
		}
		return t
	case *syntax.OpSection:
		return c.opType(e.Op, e.Qual, e.Pos())
	case *syntax.LeftSection:
		return c.section(sc, e.Op, e.Qual, e.X, true, e.Pos())
	case *syntax.RightSection:
		return c.section(sc, e.Op, e.Qual, e.X, false, e.Pos())
	case *syntax.ProjectSection:
		param := c.s.fresh()
		if h, ok := c.hintOf(hint).(*Arrow); ok {
			c.s.unify(param, h.Param, true)
		}
		return &Arrow{Param: param, Ret: c.projectSection(e, param)}
	case *syntax.Ascribe:
		dt := c.typeExpr(&tyCtx{sc: sc}, e.Type)
		t := c.expr(sc, e.X, dt)
		if e.Coerce {
			if m := c.s.unify(dt, c.s.eraseDims(t), false); m != nil {
				c.mustUnify(e.Pos(), dt, t, "size coercion")
			}
			return dt
		}
		c.unifyChecking(e.Pos(), dt, t, true, checkingAscribe, func(a, b string) string {
			return fmt.Sprintf("cannot unify %s with %s in type ascription", a, b)
		})
		return t
	case *syntax.Range:
		return c.rangeExpr(sc, e)
	case *syntax.Assert:
		c.mustUnify(pos(e.Cond), Prim{T: core.Bool}, c.expr(sc, e.Cond, nil), "assert condition")
		return c.expr(sc, e.X, hint)
	case *syntax.Hole:
		return c.s.fresh()
	case *syntax.IndexSection:
		param := c.s.fresh()
		if h, ok := c.hintOf(hint).(*Arrow); ok {
			c.s.unify(param, h.Param, true)
		}
		return &Arrow{Param: param, Ret: c.index(sc, param, e.Indices, e.Pos())}
	case *syntax.If:
		ct := c.expr(sc, e.Cond, nil)
		c.mustUnify(pos(e.Cond), Prim{T: core.Bool}, ct, "if condition")
		tt := c.expr(sc, e.Then, c.s.hintCopy(hint))
		et := c.expr(sc, e.Else, c.s.hintCopy(hint))
		if !c.unifyMsg(e.Pos(), tt, et, false, func(a, b string) string {
			return fmt.Sprintf("if branches have types %s and %s", a, b)
		}) {
			return errT
		}
		if !c.noFun(e.Pos(), tt, funInIf) {
			return errT
		}
		return c.s.join(tt, et, e.Pos(), joinIf)
	case *syntax.LetIn:
		c.distinctNames(e.Pat)
		pt := c.patType(&tyCtx{sc: sc}, e.Pat)
		vt := c.expr(sc, e.Val, pt)
		c.mustUnify(pos(e.Val), pt, vt, "let binding")
		return c.expr(c.declarePat(sc, e.Pat, pt), e.Body, hint)
	case *syntax.LetFun:
		o := &Object{Kind: LocalFun, Name: e.Name, Pos: e.NamePos, Fun: e}
		c.objs = append(c.objs, o)
		c.info.Binds[e] = o
		sizes := map[string]bool{}
		saved := c.typeNames
		var own []*tyParam
		if len(e.TypeParams) > 0 {
			// A local function with type parameters ('t) is polymorphic,
			// as a top-level one is: its body is checked with them rigid,
			// and again at each type it is used at (localpoly.go).
			c.typeNames = maps.Clone(saved)
			if c.typeNames == nil {
				c.typeNames = map[string]Type{}
			}
			for i := range e.TypeParams {
				p := &e.TypeParams[i]
				tp := &tyParam{name: p.Name, lifted: p.Lifted}
				own = append(own, tp)
				c.typeNames[p.Name] = tp
				c.info.Binds[p] = c.newObj(Local, p.Name, tp, p.Pos())
			}
		}
		o.Type = c.funDef(sc, e.SizeParams, e.Params, e.Ret, e.FnBody, nil, sizes, e.Name, nil)
		c.typeNames = saved
		c.localSizes[o] = sizes
		if len(own) > 0 {
			c.localPolys[o] = &localPoly{sc: sc, typeNames: saved, params: own}
		}
		t := c.expr(sc.add(o), e.Body, hint)
		return t
	case *syntax.LetWith:
		old := c.lookup(sc, e.Name)
		if old == nil {
			c.errorf(e.Pos(), "unknown name %q", e.Name)
			return c.expr(sc, e.Body, hint)
		}
		at := c.useType(old, nil)
		c.info.Updates[e] = old
		st := c.index(sc, at, e.Indices, e.Pos())
		vt := c.expr(sc, e.Val, st)
		c.mustUnify(pos(e.Val), st, vt, "in-place update")
		n := c.newObj(Local, e.Name, at, e.Pos())
		c.info.Binds[e] = n
		return c.expr(sc.add(n), e.Body, hint)
	case *syntax.Update:
		if e.Path != nil {
			return c.recordUpdate(sc, e)
		}
		xt := c.expr(sc, e.X, nil)
		st := c.index(sc, xt, e.Indices, e.Pos())
		vt := c.expr(sc, e.Val, st)
		c.mustUnify(pos(e.Val), st, vt, "in-place update")
		return xt
	case *syntax.Lambda:
		return c.lambda(sc, e, hint)
	case *syntax.Loop:
		return c.loop(sc, e)
	case *syntax.Constr, *syntax.ConTest, *syntax.ConField, *syntax.Match:
		return c.sumExpr(sc, e, hint)
	case nil:
		c.errorf(source.Pos{}, "internal error: missing expression")
		return errT
	default:
		c.errorf(pos(e), "internal error: unknown expression %T", e)
		return errT
	}
}

// hintOf follows solved variables in a hint (nil stays nil).
func (c *checker) hintOf(h Type) Type {
	if h == nil {
		return nil
	}
	return c.s.shallow(h)
}

func (c *checker) varRef(sc *scope, v *syntax.Var) Type {
	var obj *Object
	name := v.Name
	if v.Qual != "" {
		name = v.Qual + "." + v.Name
		obj = c.lookupGlobal(name)
	} else if m := c.openedMember(sc, name); m != "" {
		// Inside i32.(e) the module's member: qualify the use, so that
		// lowering sees i32.max as if it were written so.
		v.Qual, name = m, m+"."+name
		obj = c.lookup(sc, name) // a module's recursive function is in scope in its body
	} else {
		obj = c.lookup(sc, name)
	}
	if obj == nil {
		if strings.ContainsRune("+-*/%=!><|&^", rune(name[0])) {
			// A user-defined operator, which the parser writes as an
			// application of its name.
			c.errorf(v.Pos(), "unknown operator %s", name)
			return errT
		}
		c.errorf(v.Pos(), "unknown name %q", name)
		return errT
	}
	if obj.Type == nil {
		// A function's own name in its parameter or result types, which
		// are checked before the function has a type (its body may call
		// it): as in Futhark, where a definition is not in its own scope.
		c.errorf(v.Pos(), "unknown name %q (a function cannot be used in its own parameter or result types)", name)
		return errT
	}
	c.info.Uses[v] = obj
	if obj.Kind == Builtin && sizedResultRank(obj.Name) > 0 {
		c.unflatVars[v] = true
	}
	return c.useType(obj, v)
}

// useType is the type of one use of obj: builtins are instantiated, and
// the sizes of functions get fresh size variables so that each call can
// have its own.
func (c *checker) useType(obj *Object, v *syntax.Var) Type {
	if obj.Type == nil {
		return errT
	}
	switch obj.Kind {
	case Builtin, ModuleFun:
		dims := map[string]Dim{}
		t := c.s.instantiate(obj.Type, map[string]*tyVar{}, dims)
		if v != nil {
			c.instDims[v] = dims
		}
		return t
	case Global:
		if containsParam(obj.Type) {
			if v != nil {
				c.polyUses = append(c.polyUses, polyUse{v: v, obj: obj})
			}
			return c.s.instantiate(c.s.renameDims(obj.Type, nil, map[string]Dim{}), map[string]*tyVar{}, map[string]Dim{})
		}
		return c.s.renameDims(obj.Type, nil, map[string]Dim{})
	case LocalFun:
		// Its own sizes, and those inference left open, are fresh at
		// each use: Futhark generalises a local function's sizes.
		t := c.s.freshenDims(c.s.renameDims(obj.Type, c.localSizes[obj], map[string]Dim{}))
		if lp := c.localPolys[obj]; lp != nil {
			t = c.instantiateLocal(lp, t)
			if v != nil {
				c.localUses = append(c.localUses, polyUse{v: v, obj: obj})
			}
		}
		return t
	case Value:
		// A session value's sizes are not rigid in a later input.
		return c.s.renameDims(obj.Type, nil, map[string]Dim{})
	case Local:
		if IsFunction(c.s.shallow(obj.Type)) {
			return c.s.freshenDims(obj.Type)
		}
		return obj.Type
	case SizeVar:
		return obj.Type
	default:
		c.errorf(source.Pos{}, "internal error: unknown object kind %d", obj.Kind)
		return errT
	}
}

func (c *checker) arrayLit(sc *scope, e *syntax.ArrayLit) Type {
	elem := Type(c.s.freshElem())
	// The unsuffixed integer (decimal) literals among the elements all
	// have the element type: once one is unified with it, the others share
	// its type variable (a long literal makes one variable, not 100,000).
	var shared [2]Type
	litKind := func(x syntax.Expr) int {
		switch l := x.(type) {
		case *syntax.IntLit:
			if l.Suffix == "" {
				return 0
			}
		case *syntax.FloatLit:
			if l.Suffix == "" {
				return 1
			}
		}
		return -1
	}
	for i, x := range e.Elems {
		k := litKind(x)
		if k >= 0 && shared[k] != nil {
			c.record(x, shared[k])
			c.lits = append(c.lits, litUse{e: x, t: shared[k]})
			continue
		}
		t := c.expr(sc, x, elem)
		if !c.noFun(pos(x), t, funInArray) {
			continue
		}
		ok := true
		if i == 0 {
			ok = c.s.unify(elem, t, true) == nil
		} else {
			ok = c.unifyMsg(pos(x), elem, t, true, func(a, b string) string {
				return fmt.Sprintf("array elements have types %s and %s", a, b)
			})
		}
		if ok && k >= 0 {
			shared[k] = t
		}
	}
	return arrayOf(elem, []Dim{{Const: int64(len(e.Elems))}})
}

func (c *checker) project(t Type, field int, p source.Pos) Type {
	switch u := c.s.shallow(t).(type) {
	case errType:
		return errT
	case *Tuple:
		if IsSum(u) {
			c.errorf(p, "cannot take field %d of a value of sum type %s (not a tuple): use match", field, showType(c.s.zonk(u)))
			return errT
		}
		if field < 0 || field >= len(u.Elems) {
			c.errorf(p, "tuple of type %s has no field %d", showType(c.s.zonk(u)), field)
			return errT
		}
		return u.Elems[field]
	case *tyVar:
		if u.prims == 0 && u.cons == nil {
			// Resolved when u is bound to a tuple (solver.bind);
			// otherwise the result stays ambiguous and is reported.
			r := c.s.fresh()
			if c.s.projs == nil {
				c.s.projs = map[*tyVar][]pendingProj{}
			}
			c.s.projs[u] = append(c.s.projs[u], pendingProj{field: field, res: r})
			return r
		}
		c.errorf(p, "cannot take field %d of a value of type %s (not a tuple)", field, u)
		return errT
	default:
		c.errorf(p, "cannot take field %d of a value of type %s (not a tuple)", field, showType(c.s.zonk(u)))
		return errT
	}
}

// indexType requires an index to be an integer of any type (Futhark
// converts it); one nothing else decides becomes i64.
func (c *checker) indexType(e syntax.Expr, t Type, what string) {
	if !c.s.constrain(t, intSet) {
		c.errorf(pos(e), "%s must be an integer, not %s", what, showType(c.s.zonk(t)))
		return
	}
	if _, ok := c.s.shallow(t).(*tyVar); ok {
		c.indexVars = append(c.indexVars, t)
	}
}

// index checks an index or slice of a value of type xt and returns the type
// of the result: one dimension less per index, one kept per slice.
func (c *checker) index(sc *scope, xt Type, idx []syntax.DimIndex, p source.Pos) Type {
	for _, ix := range idx {
		switch ix := ix.(type) {
		case *syntax.DimFix:
			c.indexType(ix.I, c.expr(sc, ix.I, nil), "an index")
		case *syntax.DimSlice:
			for _, part := range []syntax.Expr{ix.Start, ix.End, ix.Stride} {
				if part != nil {
					c.indexType(part, c.expr(sc, part, nil), "a slice bound")
				}
			}
		default:
			c.errorf(p, "internal error: unknown index %T", ix)
			return errT
		}
	}
	t := xt
	var kept []Dim
	for _, ix := range idx {
		var d Dim
		switch u := c.s.shallow(t).(type) {
		case errType:
			return errT
		case *Array:
			d, t = u.Dims[0], rowOf(u)
		case *tyVar:
			a := &Array{Elem: c.s.freshElem(), Dims: []Dim{c.s.freshDim()}}
			if c.s.bind(u, a) != nil {
				c.errorf(p, "cannot index a value of type %s", showType(c.s.zonk(xt)))
				return errT
			}
			d, t = a.Dims[0], a.Elem
		default:
			c.errorf(p, "cannot index a value of type %s with %d indices", showType(c.s.zonk(xt)), len(idx))
			return errT
		}
		if sl, ok := ix.(*syntax.DimSlice); ok {
			if sl.Start != nil || sl.End != nil || sl.Stride != nil {
				d = AnyDim
			}
			kept = append(kept, d)
		}
	}
	return arrayOf(t, kept)
}

// ---------------------------------------------------------------------------
// Application

// partial is an expression whose type is the function's type after its
// first n arguments: the inner application of a pipe, `xs |> map f`.
type partial struct {
	e syntax.Expr
	n int
}

// call checks fn applied to args. Arguments that are lambdas or sections
// are checked after the others, so that `map (\p -> p.0) xs` knows the
// type of p from xs (Futhark's checker does the same).
func (c *checker) call(sc *scope, whole syntax.Expr, fn syntax.Expr, args []syntax.Expr, parts []partial, hint Type) Type {
	name := "function"
	fv, _ := unparen(fn).(*syntax.Var)
	switch f := unparen(fn).(type) {
	case *syntax.Var:
		name = f.Name
		if f.Qual != "" {
			name = f.Qual + "." + f.Name
		}
	case *syntax.OpSection:
		name = "(" + f.Op + ")"
		if f.Qual != "" {
			name = "(" + f.Qual + "." + f.Op + ")"
		}
	}
	var pre []Type
	var fnHint Type
	if isFunLiteral(fn) {
		// `(.0) (1, 2)`, `(\x -> x.1) p`: the function takes its
		// parameter types from the arguments, which are checked first.
		pre = make([]Type, len(args))
		var res Type = c.s.fresh()
		for i := len(args) - 1; i >= 0; i-- {
			if !isFunLiteral(args[i]) {
				pre[i] = c.expr(sc, args[i], nil)
			}
		}
		if hint != nil {
			res = hint
		}
		fnHint = res
		for i := len(args) - 1; i >= 0; i-- {
			p := pre[i]
			if p == nil {
				p = c.s.fresh()
			}
			fnHint = &Arrow{Param: p, Ret: fnHint}
		}
	}
	ft := c.expr(sc, fn, fnHint)
	rt := c.applyType(sc, ft, name, pos(fn), args, pre, parts, hint)
	if fv != nil {
		if o := c.info.Uses[fv]; o != nil && o.Kind == Builtin {
			c.builtinSizes(fv, o, args)
			c.builtinProducts(fv, o)
			if k := sizedResultRank(o.Name); k > 0 && len(args) >= 1 {
				delete(c.unflatVars, fv)
				target := whole
				if len(args) > 1 {
					c.errorf(pos(whole), "%s must be applied to one array", o.Name)
				}
				c.unflattens = append(c.unflattens, unflattenUse{call: target, sc: sc, name: o.Name, rank: k})
			}
		}
	}
	return rt
}

// applyType applies a function of type ft to args; pre holds the types of
// arguments already checked (or is nil).
//
// Arguments that are lambdas or sections, or that are passed for a
// function parameter, are checked last: by then the other arguments and
// the type the context expects (hint) have fixed their parameter types, so
// `map (map (.0)) xss` knows what (.0) projects from (Futhark's checker
// does the same).
func (c *checker) applyType(sc *scope, ft Type, name string, fnPos source.Pos, args []syntax.Expr, pre []Type, parts []partial, hint Type) Type {
	params := make([]Type, len(args))
	rest := ft
	for i := range args {
		switch u := c.s.shallow(rest).(type) {
		case *Arrow:
			params[i], rest = u.Param, u.Ret
		case *tyVar:
			a := &Arrow{Param: c.s.fresh(), Ret: c.s.fresh()}
			if m := c.s.bind(u, a); m != nil {
				// The variable's constraints rule out a function: it is
				// an array element, a loop parameter or compared for
				// equality, which Futhark reports as non-functional.
				why := "is not a function type"
				if m.fun {
					why = "was inferred to be non-functional, but is used as a function type here"
				}
				c.errorf(fnPos, "Cannot apply expression as function: its type %s %s", showType(c.s.zonk(u)), why)
				return c.skipArgs(sc, args, pre)
			}
			params[i], rest = a.Param, a.Ret
		case errType:
			params[i], rest = errT, errT
		default:
			if i == 0 {
				c.errorf(fnPos, "Cannot apply expression as function: its type %s is not a function type", showType(c.s.zonk(u)))
			} else {
				c.errorf(fnPos, "function expects %s, got %d", describeArity(i), len(args))
			}
			return c.skipArgs(sc, args, pre)
		}
		for _, p := range parts {
			if p.n == i+1 {
				c.record(p.e, rest)
			}
		}
	}
	deferred := make([]bool, len(args))
	for i, a := range args {
		_, fun := c.s.shallow(params[i]).(*Arrow)
		deferred[i] = fun || isFunLiteral(a)
	}
	order := make([]int, 0, len(args))
	for _, late := range []bool{false, true} {
		for i := range args {
			if deferred[i] == late {
				order = append(order, i)
			}
		}
	}
	for k, i := range order {
		if hint != nil && deferred[i] && (k == 0 || !deferred[order[k-1]]) {
			c.s.unify(rest, hint, false)
		}
		var at Type
		if pre != nil && pre[i] != nil {
			at = pre[i]
		} else {
			at = c.expr(sc, args[i], params[i])
		}
		checking := c.checkingApply(name, args[i])
		c.unifyChecking(pos(args[i]), params[i], at, true, checking, func(a, b string) string {
			if name == sizedLet { // the parser's function, not the user's
				return fmt.Sprintf("%s cannot unify %s with %s in a size-binding let", checking(), a, b)
			}
			return fmt.Sprintf("%s cannot unify %s with %s in argument %d of %s", checking(), a, b, i+1, name)
		})
	}
	return rest
}

// skipArgs checks the arguments of a failed application (those not in
// pre) for their own errors.
func (c *checker) skipArgs(sc *scope, args []syntax.Expr, pre []Type) Type {
	for i, a := range args {
		if pre == nil || pre[i] == nil {
			c.expr(sc, a, nil)
		}
	}
	return errT
}

func unparen(e syntax.Expr) syntax.Expr {
	for {
		p, ok := e.(*syntax.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

func isFunLiteral(e syntax.Expr) bool {
	switch unparen(e).(type) {
	case *syntax.Lambda, *syntax.OpSection, *syntax.LeftSection, *syntax.RightSection, *syntax.ProjectSection:
		return true
	}
	return false
}

// builtinSizes gives the result of `iota 5` the size 5 and of `iota n` the
// size n, for builtins whose result size is an argument.
func (c *checker) builtinSizes(v *syntax.Var, o *Object, args []syntax.Expr) {
	def := builtinByName[o.Name]
	dims := c.instDims[v]
	if def == nil || dims == nil {
		return
	}
	for name, i := range def.sizeArgs {
		if i >= len(args) {
			continue
		}
		var d Dim
		switch a := unparen(args[i]).(type) {
		case *syntax.IntLit:
			if a.Value >= 1<<62 {
				continue
			}
			d = Dim{Name: "", Const: int64(a.Value)}
		case *syntax.Var:
			ao := c.info.Uses[a]
			if a.Qual != "" || ao == nil || !isI64(c.s.shallow(c.declaredType(ao))) {
				continue
			}
			d = Dim{Name: a.Name}
		default:
			p, ok := c.argProduct(a)
			if !ok {
				continue
			}
			d = p
		}
		c.s.unifyDim(dims[name], d, false)
	}
}

// flattenNames are the sizes of flatten's (and unflatten's) many
// dimensions in the builtins' signatures, outermost first.
var flattenNames = []string{"n", "m", "l", "k"}

// unflattenRank is the rank of the result of an unflatten builtin, or 0.
func unflattenRank(name string) int {
	switch name {
	case "unflatten":
		return 2
	case "unflatten_3d":
		return 3
	case "unflatten_4d":
		return 4
	}
	return 0
}

// sizedResultRank is, for a builtin whose result sizes come from its
// context (the unflattens, rep), how many of them; 0 for any other.
func sizedResultRank(name string) int {
	if name == "rep" {
		return 1
	}
	return unflattenRank(name)
}

// flattenRank is the rank of the argument of a flatten builtin, or 0.
func flattenRank(name string) int {
	switch name {
	case "flatten":
		return 2
	case "flatten_3d":
		return 3
	case "flatten_4d":
		return 4
	}
	return 0
}

// builtinProducts gives the flattens their result size as a product of
// their argument's sizes, [n][m]t to [n*m]t, and the unflattens their
// result sizes from such a product, [n*m]t to [n][m]t, as Futhark's types
// for them do. A size the context ascribes wins (the count is checked at
// run time).
func (c *checker) builtinProducts(v *syntax.Var, o *Object) {
	dims := c.instDims[v]
	if dims == nil {
		return
	}
	if k := flattenRank(o.Name); k > 0 {
		acc := dims[flattenNames[0]]
		for i := 1; i < k-1; i++ {
			acc = c.s.freshProduct(acc, dims[flattenNames[i]])
		}
		if p := dims["p"]; isDimVar(p) {
			c.s.products[p.Name] = [2]Dim{acc, dims[flattenNames[k-1]]}
		}
		return
	}
	k := unflattenRank(o.Name)
	if k == 0 {
		return
	}
	fs, ok := c.s.factors(dims["p"], k)
	if !ok {
		return
	}
	for i, f := range fs {
		// Only where the context left the size open: an ascribed size
		// must not bind a factor that other uses share.
		if d := dims[flattenNames[i]]; isDimVar(c.s.dim(d)) {
			c.s.unifyDim(d, f, false)
		}
	}
}

// declaredType is the type an object was declared with, uninstantiated.
func (c *checker) declaredType(o *Object) Type {
	if o.Type == nil {
		return errT
	}
	return o.Type
}

// pipe checks `x |> f` and `f <| x` as the application f x; when f is
// itself an application, x becomes its last argument so that lambdas in f
// see x's type.
func (c *checker) pipe(sc *scope, whole syntax.Expr, fn, x syntax.Expr, hint Type) Type {
	var parens []syntax.Expr
	inner := fn
	for {
		p, ok := inner.(*syntax.ParenExpr)
		if !ok {
			break
		}
		parens = append(parens, p)
		inner = p.X
	}
	if ap, ok := inner.(*syntax.Apply); ok {
		parts := []partial{{ap, len(ap.Args)}}
		for _, p := range parens {
			parts = append(parts, partial{p, len(ap.Args)})
		}
		args := append(append([]syntax.Expr{}, ap.Args...), x)
		return c.call(sc, whole, ap.Fn, args, parts, hint)
	}
	return c.call(sc, whole, fn, []syntax.Expr{x}, nil, hint)
}

// ---------------------------------------------------------------------------
// Operators

func (c *checker) binOp(sc *scope, e *syntax.BinOp, hint Type) Type {
	switch e.Op {
	case "|>":
		return c.pipe(sc, e, e.Rhs, e.Lhs, hint)
	case "<|":
		return c.pipe(sc, e, e.Lhs, e.Rhs, hint)
	}
	if e.Qual == "" && e.Op != "|>" && e.Op != "<|" {
		if m := c.openedMember(nil, e.Op); m != "" {
			e.Qual = m // i32.(a + b) adds with i32.+
		}
	}
	if e.Qual != "" {
		name := e.Qual + "." + e.Op
		o := c.lookupGlobal(name)
		if o == nil {
			c.errorf(e.OpPos, "unknown operator %s", name)
			return c.skipArgs(sc, []syntax.Expr{e.Lhs, e.Rhs}, nil)
		}
		return c.applyType(sc, c.useType(o, nil), name, e.OpPos, []syntax.Expr{e.Lhs, e.Rhs}, nil, nil, nil)
	}
	rule, ok := binOps[e.Op]
	if !ok {
		c.errorf(e.OpPos, "unknown operator %s", e.Op)
		return c.skipArgs(sc, []syntax.Expr{e.Lhs, e.Rhs}, nil)
	}
	if rule.class == opCompose {
		return c.applyType(sc, c.opType(e.Op, "", e.OpPos), e.Op, e.OpPos, []syntax.Expr{e.Lhs, e.Rhs}, nil, nil, hint)
	}
	if rule.class == opConcat {
		return c.applyType(sc, c.useType(baseNames["concat"], nil), e.Op, e.OpPos, []syntax.Expr{e.Lhs, e.Rhs}, nil, nil, nil)
	}
	// A left-nested chain `a + b - c + ...` (a long sum in a generated
	// program) is checked along its spine in a loop, not by recursion on
	// the left operand, whose depth would grow the stack with the chain.
	spine := []*syntax.BinOp{e}
	for {
		l, ok := spine[len(spine)-1].Lhs.(*syntax.BinOp)
		if !ok || !isPlainOp(l) {
			break
		}
		spine = append(spine, l)
	}
	lt := c.expr(sc, spine[len(spine)-1].Lhs, nil)
	for i := len(spine) - 1; i >= 1; i-- {
		n := spine[i]
		lt = c.record(n, c.plainOp(sc, n, binOps[n.Op], lt))
	}
	return c.plainOp(sc, e, rule, lt)
}

// isPlainOp reports whether binOp checks e as an arithmetic, comparison,
// logical or bitwise operator: an unqualified operator of the table that
// is not a pipe, a composition or a concatenation.
func isPlainOp(e *syntax.BinOp) bool {
	if e.Qual != "" || e.Op == "|>" || e.Op == "<|" {
		return false
	}
	rule, ok := binOps[e.Op]
	return ok && rule.class != opCompose && rule.class != opConcat
}

// plainOp checks the operator application e whose left operand has type
// lt: the right operand, then the operator's constraints.
func (c *checker) plainOp(sc *scope, e *syntax.BinOp, rule opRule, lt Type) Type {
	rt := c.expr(sc, e.Rhs, nil)
	switch rule.class {
	case opEq:
		if !c.s.forbidFun(lt) || !c.s.forbidFun(rt) {
			t := lt
			if c.s.forbidFun(lt) {
				t = rt
			}
			c.errorf(e.OpPos, "Comparing equality of values of type %s which does not support equality (operator %s on functions).", c.s.zonk(t), e.Op)
			return errT
		}
		c.eqUses = append(c.eqUses, eqUse{at: e.OpPos, op: e.Op, t: lt})
	default:
		if !c.s.constrain(lt, rule.operands) {
			c.errorf(e.OpPos, "operator %s is not defined on %s", e.Op, showType(c.s.zonk(lt)))
			return errT
		}
		if !c.s.constrain(rt, rule.operands) {
			c.errorf(e.OpPos, "operator %s is not defined on %s", e.Op, showType(c.s.zonk(rt)))
			return errT
		}
	}
	if !c.mustUnify(e.OpPos, lt, rt, "operands of "+e.Op) {
		return errT
	}
	if rule.boolResult {
		return Prim{T: core.Bool}
	}
	return lt
}

// opType is the function type of an operator used as a value: `(+)`,
// `(i32.+)`, and the operator of a section.
func (c *checker) opType(op, qual string, p source.Pos) Type {
	if qual != "" {
		o := c.lookupGlobal(qual + "." + op)
		if o == nil {
			c.errorf(p, "unknown operator %s.%s", qual, op)
			return errT
		}
		return c.useType(o, nil)
	}
	rule, ok := binOps[op]
	if !ok {
		c.errorf(p, "unknown operator %s", op)
		return errT
	}
	var t *tyVar
	switch rule.class {
	case opConcat:
		return c.useType(baseNames["concat"], nil)
	case opPipe:
		c.errorf(p, "operator %s cannot be used as a section", op)
		return errT
	case opCompose:
		// f >-> g is \x -> g (f x); f <-< g is \x -> f (g x).
		a, b, r := c.s.fresh(), c.s.fresh(), c.s.fresh()
		first, second := Type(&Arrow{Param: a, Ret: b}), Type(&Arrow{Param: b, Ret: r})
		if op == "<-<" {
			first, second = second, first
		}
		return &Arrow{Param: first, Ret: &Arrow{Param: second, Ret: &Arrow{Param: a, Ret: r}}}
	case opEq:
		t = c.s.freshElem()
	default:
		t = c.s.freshConstrained(rule.operands)
	}
	var r Type = t
	if rule.boolResult {
		r = Prim{T: core.Bool}
	}
	return &Arrow{Param: t, Ret: &Arrow{Param: t, Ret: r}}
}

// section checks `(x op)` (left) and `(op y)` (right).
func (c *checker) section(sc *scope, op, qual string, x syntax.Expr, left bool, p source.Pos) Type {
	ft := c.opType(op, qual, p)
	xt := c.expr(sc, x, nil)
	a, ok := c.s.shallow(ft).(*Arrow)
	if !ok {
		return errT
	}
	b, ok := c.s.shallow(a.Ret).(*Arrow)
	if !ok {
		return errT
	}
	if left {
		c.mustUnify(pos(x), a.Param, xt, "left operand of "+op)
		return b
	}
	c.mustUnify(pos(x), b.Param, xt, "right operand of "+op)
	return &Arrow{Param: a.Param, Ret: b.Ret}
}

// ---------------------------------------------------------------------------
// Lambdas and loops

func (c *checker) lambda(sc *scope, e *syntax.Lambda, hint Type) Type {
	c.distinctNames(e.Params...)
	ctx := &tyCtx{sc: sc, implicit: true, sizes: map[string]bool{}}
	pts := make([]Type, len(e.Params))
	h := c.hintOf(hint)
	for i, p := range e.Params {
		pts[i] = c.patType(ctx, p)
		// A size a lambda's parameter binds (`\(xs: [k]i32) -> ...`)
		// is whatever the argument's is: not a rigid size.
		for k := range ctx.sizes {
			c.s.loose[k] = true
		}
		// Take the parameter type from the context where there is one;
		// a failure is reported by the caller's unification.
		if a, ok := h.(*Arrow); ok {
			c.s.unify(pts[i], a.Param, true)
			h = c.s.shallow(a.Ret)
		} else {
			h = nil
		}
		ctx.sc = c.declarePat(ctx.sc, p, pts[i])
	}
	sc = ctx.sc
	var rt Type
	if e.Ret != nil {
		rt = c.typeExpr(&tyCtx{sc: sc}, e.Ret)
		bt := c.expr(sc, e.Body, rt)
		c.unifyChecking(pos(e.Body), rt, bt, true, checkingLambdaRet, func(a, b string) string {
			return fmt.Sprintf("cannot unify %s with %s in lambda result", a, b)
		})
	} else {
		rt = c.expr(sc, e.Body, h)
	}
	ft := rt
	for i := len(pts) - 1; i >= 0; i-- {
		ft = &Arrow{Param: pts[i], Ret: ft}
	}
	return ft
}

func (c *checker) loop(sc *scope, l *syntax.Loop) Type {
	c.distinctNames(l.Pat)
	pt := c.patType(&tyCtx{sc: sc}, l.Pat)
	if l.Init == nil {
		// `loop x for ...` starts from the variables of the same names in
		// scope; the shorthand is expanded in the AST so that lowering sees
		// an ordinary initial value.
		init, ok := patAsExpr(l.Pat)
		if !ok {
			c.errorf(l.Pos(), "a loop without an initial value needs named loop parameters")
			return errT
		}
		l.Init = init
	}
	it := c.expr(sc, l.Init, nil)
	// The loop parameter's sizes may change from one iteration to the
	// next, so only the sizes its pattern declares are checked, against
	// the initial value and the body's result, as Futhark does.
	if c.mustUnify(pos(l.Init), pt, c.s.eraseDims(it), "loop initial value") {
		c.checkDeclaredSizes(pos(l.Init), pt, it, checkingLoopInit)
	}
	if !c.noFun(pos(l.Pat), pt, funInLoop) {
		return errT
	}
	bodySc := sc
	var cond syntax.Expr
	switch f := l.Form.(type) {
	case *syntax.ForLoop:
		bt := c.expr(sc, f.Bound, nil)
		if !c.s.constrain(bt, intSet) {
			c.errorf(pos(f.Bound), "loop bound must be an integer, not %s", showType(c.s.zonk(bt)))
			bt = errT
		}
		io := c.newObj(Local, f.I, bt, f.IPos)
		c.info.Binds[f] = io
		bodySc = bodySc.add(io)
	case *syntax.ForInLoop:
		at := c.expr(sc, f.Arr, nil)
		elem := c.s.freshElem()
		c.mustUnify(pos(f.Arr), &Array{Elem: elem, Dims: []Dim{c.s.freshDim()}}, at, "for-in loop")
		ept := c.patType(&tyCtx{sc: sc}, f.Pat)
		c.mustUnify(pos(f.Pat), ept, elem, "for-in loop pattern")
		bodySc = c.declarePat(bodySc, f.Pat, ept)
	case *syntax.WhileLoop:
		cond = f.Cond
	default:
		c.errorf(l.Pos(), "internal error: unknown loop form %T", l.Form)
		return errT
	}
	bodySc = c.declarePat(bodySc, l.Pat, pt)
	if cond != nil {
		c.mustUnify(pos(cond), Prim{T: core.Bool}, c.expr(bodySc, cond, nil), "while condition")
	}
	bt := c.expr(bodySc, l.Body, pt)
	if !c.checkDeclaredSizes(pos(l.Body), pt, bt, checkingLoopBody) {
		return pt
	}
	if !c.unifyMsg(pos(l.Body), pt, bt, false, func(a, b string) string {
		return fmt.Sprintf("loop parameter has type %s but the loop body returns %s", a, b)
	}) {
		return pt
	}
	// With no iteration the loop's result is the initial value: where
	// the body's size is rigid and differs from the initial value's, the
	// result's is an existential (joinLoop); elsewhere it is the
	// parameter's, which the body's result has become.
	return c.s.join(pt, it, l.Pos(), joinLoop)
}

// patAsExpr turns a loop pattern into the expression that reads the
// variables it names.
func patAsExpr(p syntax.Pat) (syntax.Expr, bool) {
	switch p := p.(type) {
	case *syntax.IdPat:
		return &syntax.Var{At: p.At, Name: p.Name}, true
	case *syntax.AscribedPat:
		return patAsExpr(p.Pat)
	case *syntax.TuplePat:
		elems := make([]syntax.Expr, len(p.Elems))
		for i, q := range p.Elems {
			e, ok := patAsExpr(q)
			if !ok {
				return nil, false
			}
			elems[i] = e
		}
		return &syntax.TupleExpr{At: p.At, Elems: elems}, true
	}
	return nil, false
}

// rangeExpr checks `a..<b` and the other ranges: the bounds (and the
// second element) are one integer type, and the result an array of it.
func (c *checker) rangeExpr(sc *scope, e *syntax.Range) Type {
	t := c.expr(sc, e.Start, nil)
	if !c.s.constrain(t, intSet) {
		c.errorf(pos(e.Start), "a range must be of integers, not %s", showType(c.s.zonk(t)))
		return errT
	}
	for _, x := range []syntax.Expr{e.Second, e.End} {
		if x != nil {
			c.mustUnify(pos(x), t, c.expr(sc, x, nil), "range")
		}
	}
	return &Array{Elem: t, Dims: []Dim{AnyDim}}
}
