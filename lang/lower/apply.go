package lower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// fnKind says what a function value is.
type fnKind int

const (
	fnClosure      fnKind = iota // a lambda or a local function, with its scope
	fnGlobal                     // a top-level def with parameters
	fnBuiltin                    // map, reduce, iota, ... (name)
	fnModule                     // a numeric-module function: i32.max, f32.sqrt (name)
	fnOp                         // an operator section (+); a left section (2-) has bound = [2]
	fnRightSection               // (op e): bound = [e], applied as x op e
	fnProject                    // (.0.1)
	fnIndex                      // (.[i, j]): indices, lowered in info and sc
	fnCompose                    // f >-> g: bound = [f, g], applied as g (f x)
	fnBlank                      // an inactive payload of a sum type (sums.go): typ, gives zeros
)

// fnVal is a function value known at lowering time. bound holds the
// arguments of a partial application (or a section's operand); applying
// the value to enough further arguments inlines it (call).
type fnVal struct {
	kind fnKind
	name string
	pos  source.Pos

	// Closures and globals.
	params     []syntax.Pat
	sizeParams []syntax.SizeParam
	body       syntax.Expr
	info       *types.Info
	sc         *scope
	decl       *syntax.ValDecl
	// ret is the declared return type (nil when not written), whose sizes
	// the result is checked against; defPos is where the function is
	// defined, the position of that check's error.
	ret    syntax.TypeExpr
	defPos source.Pos

	op      string            // fnOp, fnRightSection
	fields  []int             // fnProject
	indices []syntax.DimIndex // fnIndex
	typ     types.Type        // builtins and module functions: the instantiated type, when known
	hint    types.Type        // builtins: the checker's type of the application, when known
	sizes   []*types.Object   // unflatten: the objects naming its result sizes (Info.Sizes)
	bound   []value           // arguments already supplied
}

// arity is the number of arguments (bound ones included) a call needs.
func (l *lowerer) arity(f *fnVal) (int, error) {
	switch f.kind {
	case fnClosure, fnGlobal:
		return len(f.params), nil
	case fnBuiltin:
		b, ok := builtins[f.name]
		if !ok {
			return 0, source.Errorf(f.pos, "the builtin %s is not supported", f.name)
		}
		return b.arity, nil
	case fnModule:
		m, err := lookupModuleFun(f.pos, f.name)
		if err != nil {
			return 0, err
		}
		return m.arity, nil
	case fnOp, fnRightSection:
		return 2, nil
	case fnProject, fnIndex:
		return 1, nil
	case fnCompose:
		return 3, nil
	case fnBlank:
		return blankArity(f.typ), nil
	}
	return 0, source.Errorf(f.pos, "internal error: unknown function kind %d", f.kind)
}

// apply applies a function value to arguments: a partial application
// yields a new function value, an over-application applies the result.
func (l *lowerer) apply(f *fnVal, args []value, pos source.Pos) (value, error) {
	all := append(append([]value(nil), f.bound...), args...)
	n, err := l.arity(f)
	if err != nil {
		return value{}, err
	}
	if len(all) < n {
		g := *f
		g.bound = all
		return value{fn: &g}, nil
	}
	r, err := l.call(f, all[:n], pos)
	if err != nil || len(all) == n {
		return r, err
	}
	if r.fn == nil {
		return value{}, source.Errorf(pos, "internal error: too many arguments")
	}
	return l.apply(r.fn, all[n:], pos)
}

// call applies f to exactly its arity's arguments.
func (l *lowerer) call(f *fnVal, args []value, pos source.Pos) (value, error) {
	switch f.kind {
	case fnClosure:
		return l.inline(f, args, pos)
	case fnGlobal:
		rec, err := l.isRecursive(f.decl, f.info)
		if err != nil {
			return value{}, err
		}
		if rec {
			return l.callRecursive(f, args, pos)
		}
		return l.inline(f, args, pos)
	case fnBuiltin:
		b := builtins[f.name]
		return b.lower(l, f, args, pos)
	case fnModule:
		m, err := lookupModuleFun(f.pos, f.name)
		if err != nil {
			return value{}, err
		}
		return m.lower(l, pos, args)
	case fnOp:
		return l.binop(pos, f.op, args[0], args[1])
	case fnRightSection:
		return l.binop(pos, f.op, args[1], args[0])
	case fnCompose:
		if args[0].fn == nil || args[1].fn == nil {
			return value{}, source.Errorf(pos, "internal error: composing a non-function")
		}
		y, err := l.apply(args[0].fn, []value{args[2]}, pos)
		if err != nil {
			return value{}, err
		}
		return l.apply(args[1].fn, []value{y}, pos)
	case fnIndex:
		if args[0].fn != nil {
			return value{}, source.Errorf(pos, "internal error: indexing a function")
		}
		return l.index(ctx{info: f.info, sc: f.sc}, pos, args[0], f.indices)
	case fnProject:
		if args[0].fn != nil {
			return value{}, source.Errorf(pos, "internal error: projecting a function")
		}
		return project(pos, args[0], f.fields)
	case fnBlank:
		return l.zeroValue(ctx{info: f.info, sc: f.sc}, pos, blankResult(f.typ))
	}
	return value{}, source.Errorf(pos, "internal error: unknown function kind %d", f.kind)
}

// inline lowers the body of a closure or non-recursive global with its
// parameters bound to the arguments.
func (l *lowerer) inline(f *fnVal, args []value, pos source.Pos) (value, error) {
	if l.depth >= maxInlineDepth {
		return value{}, source.Errorf(pos, "%s: calls nested too deeply to inline", f.name)
	}
	l.depth++
	defer func() { l.depth-- }()
	sc := newScope(f.sc)
	c := ctx{info: f.info, sc: sc}
	for i := range f.sizeParams {
		sp := &f.sizeParams[i]
		sc.bind(f.info.Binds[sp], sp.Name, value{pending: true})
	}
	for i, p := range f.params {
		if err := l.bindPat(c, p, args[i], pos); err != nil {
			return value{}, err
		}
	}
	v, err := l.expr(c, f.body)
	if err != nil {
		return value{}, err
	}
	return v, l.checkResult(c, f.ret, v, f.defPos)
}

// returnShapeMsg is Futhark's message for a result whose sizes differ from
// those of the declared return type.
const returnShapeMsg = "Function return value does not match shape of declared return type."

// checkResult checks a function's result v against the sizes its declared
// return type ret names, as Futhark's ensureResultShape does: a constant
// size, or a name in scope in c (a size parameter, a size bound by a
// parameter's type, an i64 parameter). A name not in scope there is
// existential: any size is right. The checks are assertions in the IR, so
// every backend makes them; pos is the function's definition.
func (l *lowerer) checkResult(c ctx, ret syntax.TypeExpr, v value, pos source.Pos) error {
	if ret == nil || v.fn != nil {
		return nil
	}
	return l.checkResultSizes(c, ret, v.atoms, 0, pos)
}

func (l *lowerer) checkResultSizes(c ctx, te syntax.TypeExpr, atoms []core.Atom, depth int, pos source.Pos) error {
	switch te := te.(type) {
	case *syntax.PrimTypeExpr, *syntax.FuncTypeExpr, *syntax.NamedTypeExpr, *syntax.SumTypeExpr:
		// Sizes inside a type abbreviation or a type parameter are not
		// written here: like bindSizes, the check does not look inside
		// (nor inside a sum type's payloads).
		return nil
	case *syntax.UniqueTypeExpr:
		return l.checkResultSizes(c, te.Elem, atoms, depth, pos)
	case *syntax.RecordTypeExpr:
		// A record's values are its fields in the order of their names.
		fields := slices.Clone(te.Fields)
		slices.SortStableFunc(fields, func(a, b syntax.RecordField) int { return strings.Compare(a.Name, b.Name) })
		off := 0
		for _, f := range fields {
			n := typeExprWidth(f.Type)
			if n < 0 || off+n > len(atoms) {
				return nil
			}
			if err := l.checkResultSizes(c, f.Type, atoms[off:off+n], depth, pos); err != nil {
				return err
			}
			off += n
		}
		return nil
	case *syntax.TupleTypeExpr:
		off := 0
		for _, e := range te.Elems {
			n := typeExprWidth(e)
			if n < 0 || off+n > len(atoms) {
				// The rest is only known from the checker's types.
				return nil
			}
			if err := l.checkResultSizes(c, e, atoms[off:off+n], depth, pos); err != nil {
				return err
			}
			off += n
		}
		return nil
	case *syntax.ArrayTypeExpr:
		if te.Dim != nil && len(atoms) > 0 {
			if av, ok := atoms[0].(*core.Var); ok && av.Type.Rank > depth {
				if want, ok := l.declaredSize(c, te.Dim); ok {
					n, err := l.size(pos, av, depth)
					if err != nil {
						return err
					}
					l.assertEq(pos, n, want, returnShapeMsg)
				}
			}
		}
		return l.checkResultSizes(c, te.Elem, atoms, depth+1, pos)
	}
	return source.Errorf(pos, "internal error: unknown type expression %T", te)
}

// declaredSize is the value of a size written in a type, when it has one
// in c: false for `[]` and for a name not bound there (existential).
func (l *lowerer) declaredSize(c ctx, d *syntax.DimExpr) (core.Atom, bool) {
	if d.Expr != nil {
		return nil, false // size expressions are not checked (README)
	}
	if d.Name == "" {
		return core.IntConst(core.I64, d.Const), true
	}
	v, ok := c.sc.lookupName(d.Name)
	if !ok || v.pending || v.fn != nil || len(v.atoms) != 1 || v.atoms[0].AtomType() != core.Scalar(core.I64) {
		return nil, false
	}
	return v.atoms[0], true
}

// bindPat binds a pattern to a value in c's scope, binding the sizes its
// type annotations name; size checks report pos (the call or binding site).
func (l *lowerer) bindPat(c ctx, p syntax.Pat, v value, pos source.Pos) error {
	switch p := p.(type) {
	case *syntax.IdPat:
		if v.fn == nil {
			if t := c.info.PatTypes[p]; t != nil && len(Flatten(t)) == len(v.atoms) {
				v.t = normalize(t)
			}
		}
		c.sc.bind(c.info.Binds[p], p.Name, v)
		return nil
	case *syntax.WildPat:
		return nil
	case *syntax.RecordPat:
		return l.bindRecordPat(c, p, v, pos)
	case *syntax.TuplePat:
		if v.fn != nil {
			return source.Errorf(p.Pos(), "internal error: a function bound to a tuple pattern")
		}
		if len(p.Elems) == 0 {
			return nil
		}
		if t := c.info.PatTypes[p]; t != nil && len(Flatten(t)) == len(v.atoms) {
			v.t = normalize(t)
		}
		comps, err := tupleComponents(p.Pos(), v)
		if err != nil {
			return err
		}
		if len(comps) != len(p.Elems) {
			return source.Errorf(p.Pos(), "internal error: pattern of %d elements for %s", len(p.Elems), v.t)
		}
		for i, e := range p.Elems {
			if err := l.bindPat(c, e, comps[i], pos); err != nil {
				return err
			}
		}
		return nil
	case *syntax.AscribedPat:
		if v.fn == nil {
			if err := l.bindSizes(c, p.Type, v.atoms, 0, pos); err != nil {
				return err
			}
			if _, abbrev := p.Type.(*syntax.NamedTypeExpr); abbrev {
				// Sizes named in a type abbreviation's arguments
				// (`vec [n] i32`) are bound from the checker's type.
				if err := l.bindSizesOfType(c, c.info.PatTypes[p], v.atoms, 0, p.At, pos); err != nil {
					return err
				}
			}
		}
		return l.bindPat(c, p.Pat, v, pos)
	}
	return source.Errorf(p.Span().Start, "internal error: unknown pattern %T", p)
}

// bindSizesOfType is bindSizes over a resolved type: each named size of t
// binds (or checks) the matching dimension of atoms.
func (l *lowerer) bindSizesOfType(c ctx, t types.Type, atoms []core.Atom, depth int, at syntax.At, pos source.Pos) error {
	switch t := t.(type) {
	case *types.Tuple:
		for _, e := range t.Elems {
			n := len(Flatten(e))
			if n > len(atoms) {
				return nil
			}
			if err := l.bindSizesOfType(c, e, atoms[:n], depth, at, pos); err != nil {
				return err
			}
			atoms = atoms[n:]
		}
	case *types.Array:
		if len(atoms) == 0 {
			return nil
		}
		av, ok := atoms[0].(*core.Var)
		if !ok {
			return nil
		}
		for i, d := range t.Dims {
			if d.Name == "" || strings.HasPrefix(d.Name, "?") || av.Type.Rank <= depth+i {
				continue
			}
			if err := l.bindSize(c, &syntax.DimExpr{At: at, Name: d.Name}, av, depth+i, pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// typeExprWidth is the number of core values a written type flattens to.
func typeExprWidth(te syntax.TypeExpr) int {
	switch te := te.(type) {
	case *syntax.PrimTypeExpr:
		return 1
	case *syntax.ArrayTypeExpr:
		return typeExprWidth(te.Elem)
	case *syntax.TupleTypeExpr:
		n := 0
		for _, e := range te.Elems {
			n += typeExprWidth(e)
		}
		return n
	case *syntax.UniqueTypeExpr:
		return typeExprWidth(te.Elem)
	case *syntax.NamedTypeExpr, *syntax.SumTypeExpr:
		return -1 // known from the checker's types only
	case *syntax.RecordTypeExpr:
		n := 0
		for _, f := range te.Fields {
			w := typeExprWidth(f.Type)
			if w < 0 {
				return -1
			}
			n += w
		}
		return n
	}
	return 0
}

// bindSizes walks a written type against the atoms of a value of that type
// (depth: how many array dimensions are already outside) and binds each
// named size to the matching dimension: a pending size parameter gets its
// value, a size already known is checked, an unknown name is bound.
func (l *lowerer) bindSizes(c ctx, te syntax.TypeExpr, atoms []core.Atom, depth int, pos source.Pos) error {
	switch te := te.(type) {
	case *syntax.PrimTypeExpr, *syntax.FuncTypeExpr, *syntax.NamedTypeExpr, *syntax.RecordTypeExpr, *syntax.SumTypeExpr:
		// Sizes named inside a type abbreviation or a type parameter
		// (or a sum type's payloads) are not bound by the pattern.
		return nil
	case *syntax.UniqueTypeExpr:
		return l.bindSizes(c, te.Elem, atoms, depth, pos)
	case *syntax.TupleTypeExpr:
		off := 0
		for _, e := range te.Elems {
			n := typeExprWidth(e)
			if n < 0 || off+n > len(atoms) {
				return nil
			}
			if err := l.bindSizes(c, e, atoms[off:off+n], depth, pos); err != nil {
				return err
			}
			off += n
		}
		return nil
	case *syntax.ArrayTypeExpr:
		if te.Dim != nil && te.Dim.Expr == nil && len(atoms) > 0 {
			if av, ok := atoms[0].(*core.Var); ok && av.Type.Rank > depth {
				if err := l.bindSize(c, te.Dim, av, depth, pos); err != nil {
					return err
				}
			}
		}
		return l.bindSizes(c, te.Elem, atoms, depth+1, pos)
	}
	return source.Errorf(pos, "internal error: unknown type expression %T", te)
}

func (l *lowerer) bindSize(c ctx, d *syntax.DimExpr, arr *core.Var, dim int, pos source.Pos) error {
	if d.Name == "" {
		n, err := l.size(pos, arr, dim)
		if err != nil {
			return err
		}
		l.assertEq(pos, n, core.IntConst(core.I64, d.Const), fmt.Sprintf("size mismatch: expected an array of size %d", d.Const))
		return nil
	}
	obj := c.info.Binds[d]
	var known *value
	ok := false
	if obj != nil {
		known, ok = c.sc.lookupObj(obj)
	}
	if !ok {
		known, ok = c.sc.lookupName(d.Name)
	}
	if ok && known.pending {
		n, err := l.size(pos, arr, dim)
		if err != nil {
			return err
		}
		*known = value{t: types.Prim{T: core.I64}, atoms: []core.Atom{n}}
		if obj != nil {
			c.sc.objs[obj] = known
		}
		return nil
	}
	if ok && known.fn == nil && len(known.atoms) == 1 && known.atoms[0].AtomType().Rank == 0 {
		n, err := l.size(pos, arr, dim)
		if err != nil {
			return err
		}
		l.assertEq(pos, n, l.toI64(pos, known.atoms[0]), fmt.Sprintf("size mismatch: arrays of size %s differ", d.Name))
		return nil
	}
	n, err := l.size(pos, arr, dim)
	if err != nil {
		return err
	}
	c.sc.bind(obj, d.Name, value{t: types.Prim{T: core.I64}, atoms: []core.Atom{n}})
	return nil
}

// lambda turns a function value into a core Lambda taking one value of
// each of the source types ins (flattened); the result is the lambda and
// the source type of what it returns.
func (l *lowerer) lambda(f value, ins []types.Type, pos source.Pos) (*core.Lambda, types.Type, error) {
	if f.fn == nil {
		return nil, nil, source.Errorf(pos, "internal error: expected a function argument")
	}
	var params []*core.Var
	args := make([]value, len(ins))
	for i, t := range ins {
		ts := Flatten(t)
		atoms := make([]core.Atom, len(ts))
		for k, ct := range ts {
			v := l.fresh("x", ct)
			params = append(params, v)
			atoms[k] = v
		}
		args[i] = value{t: normalize(t), atoms: atoms}
	}
	var rt types.Type
	b, err := l.body(func() ([]core.Atom, error) {
		r, err := l.apply(f.fn, args, pos)
		if err != nil {
			return nil, err
		}
		if r.fn != nil {
			return nil, source.Errorf(pos, "a function passed to a SOAC must not return a function")
		}
		rt = r.t
		return r.atoms, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &core.Lambda{Params: params, Body: b, Ret: atomTypes(b.Result)}, rt, nil
}

// isRecursive reports whether a global's body refers to the global itself.
func (l *lowerer) isRecursive(d *syntax.ValDecl, info *types.Info) (bool, error) {
	if d == nil {
		return false, nil
	}
	if r, ok := l.recursive[d]; ok {
		return r, nil
	}
	rec := false
	walkExpr(d.Body, func(e syntax.Expr) {
		if v, ok := e.(*syntax.Var); ok {
			if o := info.Uses[v]; o != nil && o.Kind == types.Global && (o.Decl == d || o.Decl == nil && o.Name == d.Name && v.Qual == "") {
				rec = true
			}
		}
	})
	l.recursive[d] = rec
	return rec, nil
}

// callRecursive calls a recursive global through a core Fun, compiling the
// Fun on first use. Its parameters must be first-order.
func (l *lowerer) callRecursive(f *fnVal, args []value, pos source.Pos) (value, error) {
	// Function arguments are not values of the IR: the Fun is specialised
	// to them (one Fun per distinct set of function arguments; a recursive
	// call that passes its own function parameter on reuses the Fun). What
	// they capture is passed as extra arguments, after the first-order ones.
	var fnArgs []*fnVal
	var caps [][]capture
	var atoms, captured []core.Atom
	for _, a := range args {
		if a.parts != nil {
			return value{}, source.Errorf(pos, "recursive function %s: an argument that is a tuple or record holding functions is not supported; pass the functions as separate arguments", f.name)
		}
		if a.fn != nil {
			cs, err := l.captures(a.fn)
			if err != nil {
				return value{}, source.Errorf(pos, "recursive function %s: %v", f.name, err)
			}
			fnArgs = append(fnArgs, a.fn)
			caps = append(caps, cs)
			for _, c := range cs {
				captured = append(captured, c.v.atoms...)
			}
			continue
		}
		atoms = append(atoms, a.atoms...)
	}
	atoms = append(atoms, captured...)
	fun, err := l.recursiveFun(f, args, fnArgs, caps)
	if err != nil {
		return value{}, err
	}
	for _, obj := range l.funExtras[f.decl] {
		v, err := l.sessionValue(pos, obj)
		if err != nil {
			return value{}, err
		}
		atoms = append(atoms, v.atoms...)
	}
	if len(atoms) != len(fun.Params) {
		return value{}, source.Errorf(pos, "internal error: %s takes %d values, given %d", f.name, len(fun.Params), len(atoms))
	}
	// Arguments may be constants or differently-named variables; the Fun's
	// parameter types are what the checker recorded, so they agree.
	out := l.emit(pos, f.name, fun.Ret, &core.ApplyExp{Fun: fun.Name, Args: atoms, Ret: fun.Ret})
	return value{t: normalize(f.info.Types[f.decl.Body]), atoms: varsToAtoms(out)}, nil
}

// funKey identifies one specialisation of a recursive global.
type funKey struct {
	decl *syntax.ValDecl
	fns  string // the identities of its function arguments
}

func specKey(d *syntax.ValDecl, fns []*fnVal) funKey {
	var b strings.Builder
	for _, f := range fns {
		fmt.Fprintf(&b, "%p,", f)
	}
	return funKey{decl: d, fns: b.String()}
}

// capture is a first-order value a function value carries from where it
// was made: an argument of a partial application (bound[index]) or a
// variable of a closure's scope (obj, name).
type capture struct {
	owner *fnVal
	index int // into owner.bound, or -1
	obj   *types.Object
	name  string
	v     value
}

// captures lists, in a deterministic order, the non-constant first-order
// values a function value carries, through the function values it
// carries in turn. A function moved into a Fun's body takes them as
// parameters (rebuild).
func (l *lowerer) captures(f *fnVal) ([]capture, error) {
	var out []capture
	var err error
	seen := map[*fnVal]bool{}
	var visit func(f *fnVal)
	visitValue := func(c capture) {
		switch {
		case c.v.parts != nil:
			if err == nil {
				name := c.name
				if name == "" {
					name = "an argument"
				}
				err = fmt.Errorf("its function argument uses %s, a tuple or record holding functions, which is not supported there", name)
			}
		case c.v.fn != nil:
			visit(c.v.fn)
		case c.v.pending:
		default:
			for _, a := range c.v.atoms {
				if _, ok := a.(core.Const); !ok {
					out = append(out, c)
					return
				}
			}
		}
	}
	visit = func(f *fnVal) {
		if seen[f] {
			return
		}
		seen[f] = true
		for i, v := range f.bound {
			visitValue(capture{owner: f, index: i, v: v})
		}
		if f.kind != fnClosure {
			return
		}
		used := map[*types.Object]bool{}
		walkExpr(f.body, func(e syntax.Expr) {
			x, ok := e.(*syntax.Var)
			if !ok {
				return
			}
			o := f.info.Uses[x]
			if o == nil || used[o] {
				return
			}
			used[o] = true
			switch o.Kind {
			case types.Value:
				if p, ok := f.sc.lookupObj(o); ok {
					visitValue(capture{owner: f, index: -1, obj: o, name: o.Name, v: *p})
					return
				}
				// A session value: the caller's main parameter (or Fun
				// parameter), passed on like a local.
				if v, err := l.sessionValue(x.Pos(), o); err == nil {
					visitValue(capture{owner: f, index: -1, obj: o, name: o.Name, v: v})
				}
			case types.Local, types.LocalFun, types.SizeVar:
				p, ok := f.sc.lookupObj(o)
				if !ok && o.Kind == types.SizeVar {
					p, ok = f.sc.lookupName(o.Name)
				}
				if ok {
					visitValue(capture{owner: f, index: -1, obj: o, name: o.Name, v: *p})
				}
			}
		})
	}
	visit(f)
	return out, err
}

// rebuild copies a function value with its captures replaced by the given
// values (in the order captures lists them), sharing copies where the
// original shares function values, so that captures of the copy list the
// same captures in the same order.
func rebuild(f *fnVal, caps []capture, vals []value) *fnVal {
	copies := map[*fnVal]*fnVal{}
	var cp func(f *fnVal) *fnVal
	cp = func(f *fnVal) *fnVal {
		if g, ok := copies[f]; ok {
			return g
		}
		g := *f
		copies[f] = &g
		g.bound = append([]value(nil), f.bound...)
		for i, b := range g.bound {
			if b.fn != nil {
				g.bound[i] = value{t: b.t, fn: cp(b.fn)}
			}
		}
		if f.kind == fnClosure {
			g.sc = newScope(f.sc)
			// Function values the closure uses from its scope are rebuilt
			// too, since they may carry captures of their own.
			walkExpr(f.body, func(e syntax.Expr) {
				if x, ok := e.(*syntax.Var); ok {
					if o := f.info.Uses[x]; o != nil && (o.Kind == types.Local || o.Kind == types.LocalFun) {
						if p, ok := f.sc.lookupObj(o); ok && p.fn != nil {
							g.sc.bind(o, o.Name, value{t: p.t, fn: cp(p.fn)})
						}
					}
				}
			})
		}
		return &g
	}
	root := cp(f)
	for i, c := range caps {
		g := copies[c.owner]
		if c.index >= 0 {
			g.bound[c.index] = vals[i]
		} else {
			g.sc.bind(c.obj, c.name, vals[i])
		}
	}
	return root
}

// recursiveFun compiles a recursive global to a Fun (once per program).
func (l *lowerer) recursiveFun(f *fnVal, args []value, fnArgs []*fnVal, fnCaps [][]capture) (*core.Fun, error) {
	d := f.decl
	key := specKey(d, fnArgs)
	if fun, ok := l.funs[key]; ok {
		return fun, nil
	}
	info := f.info
	rt := info.Types[d.Body]
	if rt == nil {
		return nil, source.Errorf(d.Pos(), "internal error: no type recorded for the body of %s", d.Name)
	}
	if hasArrow(rt) {
		return nil, source.Errorf(d.Pos(), "Recursive function %q returns type %s which is not first-order.", d.Name, rt)
	}
	// Compiling a Fun's body may compile others; a function argument that
	// is different at every recursive call would need infinitely many.
	if l.funNesting >= maxFunNesting {
		return nil, source.Errorf(d.Pos(), "the recursive function %s is given a different function argument at every call; it cannot be specialised", d.Name)
	}
	l.funNesting++
	defer func() { l.funNesting-- }()
	l.tag++
	fun := &core.Fun{Name: fmt.Sprintf("%s_%d", sanitize(d.Name), l.tag), Ret: Flatten(rt), Pos: d.Pos()}
	l.funs[key] = fun
	sc := newScope(nil)
	c := ctx{info: info, sc: sc}
	for i := range d.SizeParams {
		sp := &d.SizeParams[i]
		sc.bind(info.Binds[sp], sp.Name, value{pending: true})
	}
	extras := sessionValuesOf(d, info)
	l.funExtras[d] = extras
	fc := &funCtx{name: d.Name, vals: map[*types.Object]value{}}
	savedFun, savedDepth, savedSizes, savedConsts, savedAsserted := l.fun, l.depth, l.sizes, l.consts, l.asserted
	l.fun, l.depth, l.sizes, l.consts, l.asserted = fc, 0, nil, nil, nil
	defer func() {
		l.fun, l.depth, l.sizes, l.consts, l.asserted = savedFun, savedDepth, savedSizes, savedConsts, savedAsserted
	}()
	b, err := l.body(func() ([]core.Atom, error) {
		for i, p := range d.Params {
			if args[i].fn != nil {
				continue // bound below, after the first-order parameters
			}
			pt := info.PatTypes[p]
			if pt == nil {
				return nil, source.Errorf(p.Span().Start, "internal error: no type recorded for a parameter of %s", d.Name)
			}
			if hasArrow(pt) {
				return nil, source.Errorf(p.Span().Start, "the recursive function %s cannot take a tuple of functions", d.Name)
			}
			ts := Flatten(pt)
			atoms := make([]core.Atom, len(ts))
			for k, t := range ts {
				v := l.fresh(patBase(p), t)
				fun.Params = append(fun.Params, v)
				atoms[k] = v
			}
			if err := l.bindPat(c, p, value{t: normalize(pt), atoms: atoms}, p.Span().Start); err != nil {
				return nil, err
			}
		}
		// A function parameter is bound to (a copy of) the function
		// itself, whose captures become parameters; the copy is registered
		// under the same Fun so recursive calls passing it on reuse it.
		var rebuilt []*fnVal
		for i, p := range d.Params {
			if args[i].fn == nil {
				continue
			}
			caps := fnCaps[len(rebuilt)]
			vals := make([]value, len(caps))
			for k, cp := range caps {
				atoms := make([]core.Atom, len(cp.v.atoms))
				for j, a := range cp.v.atoms {
					v := l.fresh(cp.name, a.AtomType())
					fun.Params = append(fun.Params, v)
					atoms[j] = v
				}
				vals[k] = value{t: cp.v.t, atoms: atoms}
			}
			g := rebuild(args[i].fn, caps, vals)
			rebuilt = append(rebuilt, g)
			if err := l.bindPat(c, p, value{t: args[i].t, fn: g}, p.Span().Start); err != nil {
				return nil, err
			}
		}
		if len(rebuilt) > 0 {
			l.funs[specKey(d, rebuilt)] = fun
		}
		for _, obj := range extras {
			ts := Flatten(obj.Type)
			atoms := make([]core.Atom, len(ts))
			for k, t := range ts {
				v := l.fresh(obj.Name, t)
				fun.Params = append(fun.Params, v)
				atoms[k] = v
			}
			fc.vals[obj] = value{t: normalize(obj.Type), atoms: atoms}
		}
		r, err := l.exprFO(c, d.Body)
		if err != nil {
			return nil, err
		}
		return r.atoms, l.checkResult(c, d.Ret, r, d.Pos())
	})
	if err != nil {
		delete(l.funs, key)
		return nil, err
	}
	fun.Body = b
	l.prog.Funs = append(l.prog.Funs, fun)
	return fun, nil
}

// hasArrow reports whether a type contains a function type.
func hasArrow(t types.Type) bool {
	switch t := t.(type) {
	case *types.Arrow:
		return true
	case *types.Tuple:
		for _, e := range t.Elems {
			if hasArrow(e) {
				return true
			}
		}
	case *types.Array:
		return hasArrow(t.Elem)
	}
	return false
}

// walkExpr calls f on x and every expression inside it (syntax.Inspect),
// for the walks here that look at every node.
func walkExpr(x syntax.Expr, f func(syntax.Expr)) {
	syntax.Inspect(x, func(e syntax.Expr) bool { f(e); return true })
}

// sessionValuesOf lists the session values a recursive function's body
// uses, directly or through the globals it inlines, in order of first
// occurrence: they become extra parameters of its Fun.
func sessionValuesOf(d *syntax.ValDecl, info *types.Info) []*types.Object {
	var out []*types.Object
	seen := map[*types.Object]bool{}
	visited := map[*syntax.ValDecl]bool{}
	var visit func(d *syntax.ValDecl, info *types.Info)
	visit = func(d *syntax.ValDecl, info *types.Info) {
		if d == nil || info == nil || visited[d] {
			return
		}
		visited[d] = true
		walkExpr(d.Body, func(e syntax.Expr) {
			v, ok := e.(*syntax.Var)
			if !ok {
				return
			}
			o := info.Uses[v]
			switch {
			case o == nil:
			case o.Kind == types.Value && !seen[o]:
				seen[o] = true
				out = append(out, o)
			case o.Kind == types.Global:
				visit(o.Decl, o.Info)
			}
		})
	}
	visit(d, info)
	return out
}
