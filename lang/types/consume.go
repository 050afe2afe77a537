package types

import (
	"sort"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// Uniqueness: Futhark's consumption rules, checked on each top-level
// declaration once its types are known (after Futhark's
// TypeChecker/Consumption).
//
// An in-place update `a with [i] = v` (or `let a[i] = v`) consumes a, and
// so does passing a to a consuming parameter (`*[]t`, or scatter's and
// reduce_by_index's destination). Only a consumable variable may be
// consumed: a let-bound one, a loop parameter, or a parameter of unique
// type; not an observing (non-unique) parameter, a top-level constant, or
// a variable bound outside the lambda, local function or loop body doing
// the consuming. After its consumption neither the variable nor anything
// aliasing it may be used again on that execution path.
//
// Aliases are sets of the variables an array value may share memory
// with, kept per component of a tuple. A variable aliases itself and what
// it was bound to; slices, projections and indexing that yields an array
// alias their source; if and loop results alias their branches' or initial
// values; a function's result aliases the arguments of its observing
// parameters unless its return type is unique (`*[]t`). Everything else
// (map, iota, literals, arithmetic, ...) is fresh.
//
// arepl's values are immutable, so these rules change no result: they
// reject what Futhark rejects, with Futhark's messages.

// aliasSet is a set of variables (roots) a value may alias.
type aliasSet map[*Object]bool

// aval is a value's aliases: comps for a tuple value, else set.
type aval struct {
	set   aliasSet
	comps []aval
}

func fresh() aval { return aval{} }

// flat is the union of every component's aliases.
func (a aval) flat() aliasSet {
	if a.comps == nil {
		return a.set
	}
	out := aliasSet{}
	for _, c := range a.comps {
		for o := range c.flat() {
			out[o] = true
		}
	}
	return out
}

func union(a, b aval) aval {
	if a.comps != nil && b.comps != nil && len(a.comps) == len(b.comps) {
		out := aval{comps: make([]aval, len(a.comps))}
		for i := range a.comps {
			out.comps[i] = union(a.comps[i], b.comps[i])
		}
		return out
	}
	out := aliasSet{}
	for o := range a.flat() {
		out[o] = true
	}
	for o := range b.flat() {
		out[o] = true
	}
	return aval{set: out}
}

// without is a with o removed from every component's aliases.
func without(a aval, o *Object) aval {
	if a.comps != nil {
		out := aval{comps: make([]aval, len(a.comps))}
		for i, c := range a.comps {
			out.comps[i] = without(c, o)
		}
		return out
	}
	set := aliasSet{}
	for x := range a.set {
		if x != o {
			set[x] = true
		}
	}
	return aval{set: set}
}

// component is the i-th component of a value (a leaf stands for all of
// its components).
func (a aval) component(i int) aval {
	if a.comps != nil && i < len(a.comps) {
		return a.comps[i]
	}
	return aval{set: a.set}
}

// binding is what the consumption check knows of a variable.
type binding struct {
	consumable bool
	fence      int // the function or loop body it was bound in
	val        aval
}

type consumer struct {
	c        *checker
	info     *Info
	env      map[*Object]*binding
	consumed map[*Object]source.Pos
	fence    int
	// uses, while a loop body is walked, collects the aliases of every
	// variable it reads.
	uses aliasSet
}

// consumption checks Futhark's uniqueness rules on a checked declaration.
func (c *checker) consumption(d *syntax.ValDecl) {
	k := &consumer{c: c, info: c.info, env: map[*Object]*binding{}, consumed: map[*Object]source.Pos{}}
	k.params(d.Params)
	result := k.expr(d.Body)
	k.returnAliases(d.Params, d.Ret, result, pos(d.Body))
	if len(d.Params) > 0 {
		// A function's result may not alias a top-level constant.
		for _, o := range sorted(result.flat()) {
			if k.env[o] == nil && o.Kind == Global {
				k.c.errorf(pos(d.Body), "Function result aliases the free variable %q.  Use \"copy\" to break the aliasing.%s", o.Name, indexLink("alias-free-variable"))
				break
			}
		}
	}
}

// params binds function parameters: consumable when their type is unique
// anywhere (Futhark: a `*` inside a tuple parameter makes all of it
// consuming), observing otherwise.
func (k *consumer) params(ps []syntax.Pat) {
	for _, p := range ps {
		k.bindPat(p, fresh(), uniquePat(p))
	}
}

// returnAliases rejects a unique return value that aliases an observing
// parameter.
func (k *consumer) returnAliases(ps []syntax.Pat, ret syntax.TypeExpr, result aval, at source.Pos) {
	if ret == nil {
		return
	}
	// seen are the aliases of the components already checked, unique
	// ones marked true: a unique component may share none of them.
	seen := map[*Object]bool{}
	reported := false
	var check func(t syntax.TypeExpr, v aval)
	check = func(t syntax.TypeExpr, v aval) {
		switch t := t.(type) {
		case *syntax.UniqueTypeExpr:
			for _, o := range sorted(v.flat()) {
				if _, dup := seen[o]; dup && !reported {
					k.c.errorf(at, "A unique-typed component of the return value is aliased to some other component.%s", indexLink("unique-return-aliased"))
					reported = true
				}
				seen[o] = true
			}
			for _, o := range sorted(v.flat()) {
				if b := k.env[o]; b != nil && !b.consumable && b.fence == 0 && isParamObj(k.info, ps, o) {
					k.c.errorf(at, "Unique-typed return value is aliased to %q, which is not consumable.%s", o.Name, indexLink("return-aliased"))
					return
				}
			}
		case *syntax.TupleTypeExpr:
			for i, e := range t.Elems {
				check(e, v.component(i))
			}
		default:
			for o := range v.flat() {
				if seen[o] && !reported {
					k.c.errorf(at, "A unique-typed component of the return value is aliased to some other component.%s", indexLink("unique-return-aliased"))
					reported = true
				}
				if _, ok := seen[o]; !ok {
					seen[o] = false
				}
			}
		}
	}
	check(ret, result)
}

func isParamObj(info *Info, ps []syntax.Pat, o *Object) bool {
	found := false
	for _, p := range ps {
		walkIdPats(p, func(id *syntax.IdPat) {
			if info.Binds[id] == o {
				found = true
			}
		})
	}
	return found
}

func walkIdPats(p syntax.Pat, fn func(*syntax.IdPat)) {
	switch p := p.(type) {
	case *syntax.IdPat:
		fn(p)
	case *syntax.TuplePat:
		for _, e := range p.Elems {
			walkIdPats(e, fn)
		}
	case *syntax.AscribedPat:
		walkIdPats(p.Pat, fn)
	case *syntax.RecordPat:
		for _, f := range p.Fields {
			if f.Pat != nil {
				walkIdPats(f.Pat, fn)
			}
		}
	}
}

// uniquePat reports whether a parameter's written type is unique anywhere.
func uniquePat(p syntax.Pat) bool {
	switch p := p.(type) {
	case *syntax.AscribedPat:
		return uniqueType(p.Type) || uniquePat(p.Pat)
	case *syntax.TuplePat:
		for _, e := range p.Elems {
			if uniquePat(e) {
				return true
			}
		}
	case *syntax.RecordPat:
		for _, f := range p.Fields {
			if f.Type != nil && uniqueType(f.Type) || f.Pat != nil && uniquePat(f.Pat) {
				return true
			}
		}
	}
	return false
}

func uniqueType(t syntax.TypeExpr) bool {
	switch t := t.(type) {
	case *syntax.UniqueTypeExpr:
		return true
	case *syntax.TupleTypeExpr:
		for _, e := range t.Elems {
			if uniqueType(e) {
				return true
			}
		}
	case *syntax.RecordTypeExpr:
		for _, f := range t.Fields {
			if f.Type != nil && uniqueType(f.Type) {
				return true
			}
		}
	}
	return false
}

// bindPat binds the variables of a pattern to the components of v.
func (k *consumer) bindPat(p syntax.Pat, v aval, consumable bool) {
	switch p := p.(type) {
	case *syntax.IdPat:
		o := k.info.Binds[p]
		if o == nil {
			return
		}
		set := aliasSet{o: true}
		for a := range v.flat() {
			set[a] = true
		}
		bv := aval{set: set}
		if v.comps != nil {
			bv = aval{comps: v.comps}
			// A tuple-typed variable aliases itself in every component.
			bv.comps = make([]aval, len(v.comps))
			for i, c := range v.comps {
				bv.comps[i] = union(c, aval{set: aliasSet{o: true}})
			}
		}
		k.env[o] = &binding{consumable: consumable, fence: k.fence, val: bv}
	case *syntax.TuplePat:
		for i, e := range p.Elems {
			k.bindPat(e, v.component(i), consumable)
		}
	case *syntax.AscribedPat:
		k.bindPat(p.Pat, v, consumable)
	case *syntax.RecordPat:
		for _, f := range p.Fields {
			if f.Pat != nil {
				k.bindPat(f.Pat, aval{set: v.flat()}, consumable)
			}
		}
	}
}

// carries reports whether values of type t can alias anything (arrays,
// and type parameters that may stand for arrays).
func carries(t Type) bool {
	switch t := t.(type) {
	case nil:
		return true
	case Prim:
		return false
	case *Arrow:
		return false
	case *Tuple:
		for _, e := range t.Elems {
			if carries(e) {
				return true
			}
		}
		return false
	}
	return true
}

// observe checks that no alias of v has been consumed, at the use p.
func (k *consumer) observe(v aval, p source.Pos) {
	if len(k.consumed) == 0 {
		return
	}
	set := v.flat()
	hit := false
	for o := range set {
		if _, ok := k.consumed[o]; ok {
			hit = true
			break
		}
	}
	if !hit {
		return
	}
	for _, o := range sorted(set) {
		if at, ok := k.consumed[o]; ok {
			k.c.errorf(p, "Using variable %q, but this was consumed at %d:%d.  (Possibly through aliases.)%s", o.Name, at.Line, at.Col, indexLink("use-after-consume"))
			return
		}
	}
}

// consume consumes every alias of v at p, each of which must be
// consumable and not consumed already.
func (k *consumer) consume(v aval, p source.Pos) {
	k.observe(v, p)
	for _, o := range sorted(v.flat()) {
		b := k.env[o]
		if b == nil || !b.consumable || b.fence != k.fence {
			what := ""
			if o.Kind == Global {
				what = " (it is a top-level constant)"
			}
			k.c.errorf(p, "Consuming variable %q, which is not consumable%s.%s", o.Name, what, indexLink("not-consumable"))
			break
		}
	}
	for o := range v.flat() {
		if _, done := k.consumed[o]; !done {
			k.consumed[o] = p
		}
	}
}

// indexLink is the pointer to Futhark's error index that Futhark's
// messages end with (tests match its anchor).
func indexLink(anchor string) string {
	return " (See https://futhark.readthedocs.io/en/latest/error-index.html#" + anchor + ")"
}

func sorted(s aliasSet) []*Object {
	out := make([]*Object, 0, len(s))
	for o := range s {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// enter starts a lambda, local function or loop body: what was bound
// outside it cannot be consumed inside.
func (k *consumer) enter() func() {
	k.fence++
	return func() { k.fence-- }
}

// isolated runs f and forgets what it consumed (a function body is
// checked where it is defined; its consumption happens where it is
// applied).
func (k *consumer) isolated(f func()) {
	saved := make(map[*Object]source.Pos, len(k.consumed))
	for o, p := range k.consumed {
		saved[o] = p
	}
	f()
	k.consumed = saved
}

func (k *consumer) exprs(es ...syntax.Expr) {
	for _, e := range es {
		if e != nil {
			k.expr(e)
		}
	}
}

func (k *consumer) dims(idx []syntax.DimIndex) {
	for _, d := range idx {
		switch d := d.(type) {
		case *syntax.DimFix:
			k.exprs(d.I)
		case *syntax.DimSlice:
			k.exprs(d.Start, d.End, d.Stride)
		}
	}
}

// expr walks e in evaluation order and returns its aliases.
func (k *consumer) expr(e syntax.Expr) aval {
	v := k.expr1(e)
	if t, ok := k.info.Types[e]; ok && !carries(t) {
		return fresh()
	}
	return v
}

func (k *consumer) expr1(e syntax.Expr) aval {
	switch e := e.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit:
		return fresh()
	case *syntax.Var:
		return k.varRef(e)
	case *syntax.ParenExpr:
		return k.expr(e.X)
	case *syntax.TupleExpr:
		out := aval{comps: make([]aval, len(e.Elems))}
		for i, x := range e.Elems {
			out.comps[i] = k.expr(x)
		}
		return out
	case *syntax.RecordExpr:
		out := aval{set: aliasSet{}}
		for _, f := range e.Fields {
			var v aval
			if f.Value != nil {
				v = k.expr(f.Value)
			}
			for o := range v.flat() {
				out.set[o] = true
			}
		}
		return out
	case *syntax.ArrayLit:
		k.exprs(e.Elems...)
		return fresh()
	case *syntax.Project:
		v := k.expr(e.X)
		if e.Field >= 0 {
			return v.component(e.Field)
		}
		return aval{set: v.flat()}
	case *syntax.Index:
		v := k.expr(e.X)
		k.dims(e.Indices)
		return aval{set: v.flat()}
	case *syntax.Apply:
		return k.call(e, e.Fn, e.Args)
	case *syntax.BinOp:
		switch e.Op {
		case "|>":
			return k.pipe(e, e.Rhs, e.Lhs)
		case "<|":
			return k.pipe(e, e.Lhs, e.Rhs)
		}
		// A left-nested chain (a long generated sum) is walked along its
		// spine in a loop: recursion would grow the stack with the chain.
		spine := []*syntax.BinOp{e}
		for {
			l, ok := spine[len(spine)-1].Lhs.(*syntax.BinOp)
			if !ok || l.Op == "|>" || l.Op == "<|" {
				break
			}
			spine = append(spine, l)
		}
		k.expr(spine[len(spine)-1].Lhs)
		for i := len(spine) - 1; i >= 0; i-- {
			k.expr(spine[i].Rhs)
		}
		return fresh()
	case *syntax.Negate:
		k.expr(e.X)
		return fresh()
	case *syntax.Not:
		k.expr(e.X)
		return fresh()
	case *syntax.OpSection, *syntax.ProjectSection:
		return fresh()
	case *syntax.LeftSection:
		k.expr(e.X)
		return fresh()
	case *syntax.RightSection:
		k.expr(e.X)
		return fresh()
	case *syntax.IndexSection:
		k.dims(e.Indices)
		return fresh()
	case *syntax.Ascribe:
		return k.expr(e.X)
	case *syntax.Range:
		k.exprs(e.Start, e.Second, e.End)
		return fresh()
	case *syntax.Assert:
		k.expr(e.Cond)
		return k.expr(e.X)
	case *syntax.If:
		k.expr(e.Cond)
		before := k.snapshot()
		t := k.expr(e.Then)
		afterThen := k.consumed
		k.consumed = before
		f := k.expr(e.Else)
		for o, p := range afterThen {
			if _, ok := k.consumed[o]; !ok {
				k.consumed[o] = p
			}
		}
		return union(t, f)
	case *syntax.LetIn:
		before := len(k.consumed)
		v := k.expr(e.Val)
		if len(k.consumed) > before && containsArrow(k.info.Types[e.Val]) {
			k.c.errorf(pos(e.Val), "Let-bound expression of higher-order type contains consumption, which is not allowed.%s", indexLink("contains-consumption"))
		}
		k.bindPat(e.Pat, v, true)
		return k.expr(e.Body)
	case *syntax.LetFun:
		k.function(e.Params, e.FnBody)
		return k.expr(e.Body)
	case *syntax.Lambda:
		k.function(e.Params, e.Body)
		return fresh()
	case *syntax.LetWith:
		k.dims(e.Indices)
		val := k.expr(e.Val)
		if old := k.info.Updates[e]; old != nil {
			src := k.varAliases(old)
			k.sourceAliasesValue(e.Name, src, val, e.Pos())
			k.consume(src, e.Pos())
		}
		if o := k.info.Binds[e]; o != nil {
			k.env[o] = &binding{consumable: true, fence: k.fence, val: aval{set: aliasSet{o: true}}}
		}
		return k.expr(e.Body)
	case *syntax.Update:
		if e.Path == nil {
			// Futhark's order: the indices, the new value, then the
			// array it goes into (`(xs with [0] = v) with [1] = xs[1]`
			// reads xs before the inner update consumes it).
			k.dims(e.Indices)
			val := k.expr(e.Val)
			src := k.expr(e.X)
			name := "array"
			if x, ok := unparen(e.X).(*syntax.Var); ok {
				name = x.Name
			}
			k.sourceAliasesValue(name, src, val, e.Pos())
			k.consume(src, e.Pos())
			return fresh()
		}
		src := k.expr(e.X)
		k.dims(e.Indices)
		before := k.snapshot()
		val := k.expr(e.Val)
		// A record update copies the record: it aliases what the
		// record and the new value alias, less what the new value
		// consumed (`r with xs = (r.xs with [i] = v)` replaces r.xs).
		out := union(src, val)
		for o := range out.flat() {
			if _, old := before[o]; !old {
				if _, now := k.consumed[o]; now {
					out = without(out, o)
				}
			}
		}
		return out
	case *syntax.Loop:
		return k.loop(e)
	case *syntax.Constr:
		// A sum value is a record of its payloads (sums.go).
		out := aval{set: aliasSet{}}
		for _, a := range e.Args {
			for o := range k.expr(a).flat() {
				out.set[o] = true
			}
		}
		return out
	case *syntax.ConTest:
		k.expr(e.X)
		return fresh()
	case *syntax.ConField:
		return aval{set: k.expr(e.X).flat()}
	case *syntax.Match:
		return k.expr(e.Body)
	}
	return fresh()
}

func (k *consumer) snapshot() map[*Object]source.Pos {
	out := make(map[*Object]source.Pos, len(k.consumed))
	for o, p := range k.consumed {
		out[o] = p
	}
	return out
}

// sourceAliasesValue rejects an in-place update whose value may alias the
// array it updates.
func (k *consumer) sourceAliasesValue(name string, src, val aval, p source.Pos) {
	vs := val.flat()
	for o := range src.flat() {
		if vs[o] {
			k.c.errorf(p, "Source array for in-place update %q might alias update value.  Hint: use \"copy\" to remove aliases from the value.", name)
			return
		}
	}
}

// varAliases is what a variable aliases (itself, for one the check does
// not track: a top-level constant).
func (k *consumer) varAliases(o *Object) aval {
	if b := k.env[o]; b != nil {
		return b.val
	}
	if o.Kind == Global && o.Type != nil && carries(o.Type) {
		if _, fn := o.Type.(*Arrow); !fn {
			return aval{set: aliasSet{o: true}}
		}
	}
	return fresh()
}

func (k *consumer) varRef(v *syntax.Var) aval {
	o := k.info.Uses[v]
	if o == nil {
		return fresh()
	}
	val := k.varAliases(o)
	k.observe(val, v.Pos())
	if k.uses != nil {
		for a := range val.flat() {
			k.uses[a] = true
		}
	}
	return val
}

// function checks a lambda's or local function's body: its parameters
// are consumable when unique, nothing bound outside it is, and what it
// consumes is consumed where it is applied, not here.
func (k *consumer) function(params []syntax.Pat, body syntax.Expr) {
	leave := k.enter()
	defer leave()
	k.isolated(func() {
		k.params(params)
		k.expr(body)
	})
}

// loop follows Futhark's inference of loop parameters' uniqueness: the
// body may consume its parameters (and nothing bound outside it); the
// initial value of each parameter the body consumed is consumed by the
// loop.
func (k *consumer) loop(l *syntax.Loop) aval {
	init := k.expr(l.Init)
	switch f := l.Form.(type) {
	case *syntax.ForLoop:
		k.expr(f.Bound)
	case *syntax.ForInLoop:
		k.expr(f.Arr)
	}
	var bodyConsumed map[*Object]source.Pos
	var bodyVal aval
	var bodyUses aliasSet
	loopFence := k.fence + 1
	func() {
		leave := k.enter()
		defer leave()
		before := k.snapshot()
		savedUses := k.uses
		k.uses = aliasSet{}
		k.bindPat(l.Pat, fresh(), true)
		switch f := l.Form.(type) {
		case *syntax.ForInLoop:
			k.bindPat(f.Pat, fresh(), false)
		case *syntax.WhileLoop:
			k.expr(f.Cond)
		}
		bodyVal = k.expr(l.Body)
		bodyUses = k.uses
		k.uses = savedUses
		for o := range bodyUses {
			if k.uses != nil {
				k.uses[o] = true
			}
		}
		bodyConsumed = k.consumed
		k.consumed = before
		// What the body consumed of the outside stays consumed (the
		// body's own check reported it).
		for o, p := range bodyConsumed {
			if b := k.env[o]; b != nil && b.fence < k.fence {
				if _, ok := k.consumed[o]; !ok {
					k.consumed[o] = p
				}
			}
		}
	}()
	// A parameter the body consumed is consuming: the loop consumes its
	// initial value, which the body may then not use, and the body's new
	// value for it may not alias anything the loop does not own.
	var match func(p syntax.Pat, iv, bv aval) aval
	match = func(p syntax.Pat, iv, bv aval) aval {
		switch p := p.(type) {
		case *syntax.IdPat:
			o := k.info.Binds[p]
			if _, consumed := bodyConsumed[o]; o == nil || !consumed {
				return iv
			}
			for _, a := range sorted(bv.flat()) {
				if b := k.env[a]; b == nil && a.Kind == Global || b != nil && b.fence < loopFence {
					k.c.errorf(l.Pos(), "Return value for consuming loop parameter %q aliases %q.%s", o.Name, a.Name, indexLink("consuming-loop-param-aliases"))
					break
				}
			}
			for _, a := range sorted(iv.flat()) {
				if bodyUses[a] {
					k.c.errorf(l.Pos(), "Loop body uses variable %q (or an alias), but this is consumed by the initial loop argument.", a.Name)
					break
				}
			}
			k.consume(iv, l.Pos())
			return fresh()
		case *syntax.TuplePat:
			out := aval{comps: make([]aval, len(p.Elems))}
			for i, e := range p.Elems {
				out.comps[i] = match(e, iv.component(i), bv.component(i))
			}
			return out
		case *syntax.AscribedPat:
			return match(p.Pat, iv, bv)
		}
		return iv
	}
	return match(l.Pat, init, bodyVal)
}

func unparenPat(p syntax.Pat) syntax.Pat {
	if a, ok := p.(*syntax.AscribedPat); ok {
		return unparenPat(a.Pat)
	}
	return p
}

// pipe is `x |> f` and `f <| x`: the application of f to x.
func (k *consumer) pipe(whole, fn, x syntax.Expr) aval {
	if app, ok := unparen(fn).(*syntax.Apply); ok {
		return k.call(whole, app.Fn, append(append([]syntax.Expr{}, app.Args...), x))
	}
	return k.call(whole, fn, []syntax.Expr{x})
}

// call walks an application: the arguments from the last to the first,
// each consumed, if its parameter consumes, before the next is walked. Its result aliases the arguments of the
// observing parameters, unless the function's result is unique.
func (k *consumer) call(whole, fn syntax.Expr, args []syntax.Expr) aval {
	sig := k.signature(fn)
	if sig == nil {
		k.expr(fn)
		for _, a := range args {
			k.noConsumingFunction(a)
			k.expr(a)
		}
		return fresh()
	}
	if v, ok := unparen(fn).(*syntax.Var); ok {
		k.varRef(v)
	} else {
		k.expr(fn)
	}
	out := aval{set: aliasSet{}}
	// Right to left, as Futhark evaluates an application: an argument
	// passed for a consuming parameter is consumed after the arguments to
	// its right have been observed (`scatter xs is (copy xs)`), and before
	// those to its left are.
	var later []syntax.Expr
	var prev []aval
	for i := len(args) - 1; i >= 0; i-- {
		a := args[i]
		k.noConsumingFunction(a)
		v := k.expr(a)
		if sig.consumes(i) {
			k.consumeArg(a, v, later, prev)
		} else if !sig.freshResult {
			for o := range v.flat() {
				out.set[o] = true
			}
		}
		later, prev = append(later, a), append(prev, v)
	}
	if len(args) < sig.arity {
		return fresh() // a partial application is a function
	}
	if sig.uniqueComps != nil {
		// A tuple result: its unique components are fresh.
		comps := make([]aval, len(sig.uniqueComps))
		for i, u := range sig.uniqueComps {
			if !u {
				comps[i] = out
			}
		}
		return aval{comps: comps}
	}
	return out
}

// noConsumingFunction rejects a named function that consumes its argument
// passed as an argument: nothing says how often the callee applies it.
// (A lambda with a unique parameter is left alone: whether Futhark
// accepts one for map is not settled here, and rejecting a valid program
// is the worse mistake.)
func (k *consumer) noConsumingFunction(a syntax.Expr) {
	consuming := false
	switch f := unparen(a).(type) {
	case *syntax.Var:
		if sig := k.signature(f); sig != nil && len(sig.consuming) > 0 {
			consuming = true
		}
	}
	if consuming {
		k.c.errorf(pos(a), "Argument of functional type %s contains consumption, which is not allowed.%s", k.info.Types[a], indexLink("consuming-argument"))
	}
}

// consumeArg consumes the argument a (with aliases v) passed for a
// consuming parameter; its components must not alias each other, nor the
// earlier arguments.
func (k *consumer) consumeArg(a syntax.Expr, v aval, prevArgs []syntax.Expr, prev []aval) {
	p := pos(a)
	if v.comps != nil {
		seen := aliasSet{}
		for _, c := range v.comps {
			for o := range c.flat() {
				if seen[o] {
					k.c.errorf(p, "Argument passed for consuming parameter is self-aliased.%s", indexLink("self-aliasing-arg"))
					return
				}
			}
			for o := range c.flat() {
				seen[o] = true
			}
		}
	}
	for _, o := range sorted(v.flat()) {
		for j, pv := range prev {
			if pv.flat()[o] {
				at := pos(prevArgs[j])
				k.c.errorf(p, "Argument is consumed, but aliases %q which is also aliased by other argument at %d:%d.", o.Name, at.Line, at.Col)
				return
			}
		}
	}
	k.consume(v, p)
}

// callSig is what the check needs of a function: its arity, which
// parameters consume their arguments, and whether its result is fresh.
type callSig struct {
	arity       int
	consuming   []int
	freshResult bool
	// uniqueComps, for a function returning a tuple type written out,
	// says which components are unique (fresh).
	uniqueComps []bool
}

func (s *callSig) consumes(i int) bool {
	for _, j := range s.consuming {
		if i == j {
			return true
		}
	}
	return false
}

// preludeConsumers are the builtins and prelude functions with a
// consuming parameter (Futhark's `dest: *[k]t`), by argument position.
var preludeConsumers = map[string]int{
	"scatter": 0, "scatter_2d": 0, "scatter_3d": 0,
	"reduce_by_index": 0, "reduce_by_index_2d": 0, "reduce_by_index_3d": 0,
}

// preludeAliasing are the builtins and prelude functions whose result may
// alias their arguments (no `*` on the result in Futhark's prelude); every
// other one returns a fresh value.
var preludeAliasing = map[string]bool{
	"head": true, "last": true, "tail": true, "init": true, "take": true, "drop": true,
	"split": true, "sized": true, "reverse": true, "rotate": true, "transpose": true,
	"flatten": true, "flatten_3d": true, "flatten_4d": true,
	"unflatten": true, "unflatten_3d": true, "unflatten_4d": true,
	"foldl": true, "foldr": true, "reduce": true, "reduce_comm": true,
	"unzip": true, "unzip2": true, "unzip3": true, "unzip4": true, "unzip5": true,
	"partition": true, "id": true, "const": true, "flip": true, "curry": true, "uncurry": true,
	"iterate": true, "iterate_until": true, "iterate_while": true,
	"opaque": true, "trace": true, "break": true,
}

// signature is the callSig of the function fn names, or nil when it is
// not statically known (a function-typed parameter, a lambda, a section).
func (k *consumer) signature(fn syntax.Expr) *callSig {
	v, ok := unparen(fn).(*syntax.Var)
	if !ok {
		return nil
	}
	o := k.info.Uses[v]
	if o == nil {
		return nil
	}
	arity := 0
	for t := o.Type; ; arity++ {
		a, ok := t.(*Arrow)
		if !ok {
			break
		}
		t = a.Ret
	}
	sig := &callSig{arity: arity}
	switch {
	case o.Kind == Builtin || o.Kind == ModuleFun || o.Kind == Global && isPreludeDecl(o):
		if i, ok := preludeConsumers[o.Name]; ok {
			sig.consuming = []int{i}
		}
		sig.freshResult = !preludeAliasing[o.Name]
		return sig
	case o.Kind == Global && o.Decl != nil:
		return funSig(sig, o.Decl.Params, o.Decl.Ret)
	case o.Kind == LocalFun && o.Fun != nil:
		return funSig(sig, o.Fun.Params, o.Fun.Ret)
	}
	return nil
}

func funSig(sig *callSig, params []syntax.Pat, ret syntax.TypeExpr) *callSig {
	for i, p := range params {
		if uniquePat(p) {
			sig.consuming = append(sig.consuming, i)
		}
	}
	_, sig.freshResult = ret.(*syntax.UniqueTypeExpr)
	if t, ok := ret.(*syntax.TupleTypeExpr); ok {
		for _, e := range t.Elems {
			_, u := e.(*syntax.UniqueTypeExpr)
			sig.uniqueComps = append(sig.uniqueComps, u)
		}
	}
	return sig
}

// isPreludeDecl reports whether a global (or an instance of one) is
// declared in the prelude.
func isPreludeDecl(o *Object) bool {
	return InPrelude(o) || o.Pos.File == preludeFile
}

const preludeFile = "prelude.fut"
