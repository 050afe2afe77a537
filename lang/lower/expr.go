package lower

import (
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
	"strings"
)

// expr lowers one expression. The source type of a first-order result is
// the checker's type of the node, so that later projections and pattern
// matches see the exact tuple structure.
func (l *lowerer) expr(c ctx, x syntax.Expr) (value, error) {
	v, err := l.expr1(c, x)
	if err != nil {
		return v, err
	}
	return typed(c, x, v), nil
}

// typed gives the value of x the checker's type of x (which names its
// sizes), where it describes the same atoms.
func typed(c ctx, x syntax.Expr, v value) value {
	if v.fn == nil {
		if t, ok := c.info.Types[x]; ok && t != nil && len(Flatten(t)) == len(v.atoms) {
			v.t = normalize(t)
		}
	}
	return v
}

// exprFO lowers an expression that must be first-order.
func (l *lowerer) exprFO(c ctx, x syntax.Expr) (value, error) {
	v, err := l.expr(c, x)
	if err == nil && v.fn != nil {
		err = source.Errorf(x.Span().Start, "a function value is not allowed here")
	}
	return v, err
}

// exprAtom lowers an expression of primitive type to one atom.
func (l *lowerer) exprAtom(c ctx, x syntax.Expr) (core.Atom, error) {
	v, err := l.exprFO(c, x)
	if err != nil {
		return nil, err
	}
	if len(v.atoms) != 1 {
		return nil, source.Errorf(x.Span().Start, "internal error: expected one value, got %d", len(v.atoms))
	}
	return v.atoms[0], nil
}

func (l *lowerer) expr1(c ctx, x syntax.Expr) (value, error) {
	pos := x.Span().Start
	switch x := x.(type) {
	case *syntax.IntLit:
		p, err := l.primOf(c, x)
		if err != nil {
			return value{}, err
		}
		return value{t: types.Prim{T: p}, atoms: []core.Atom{intLit(p, x.Value, false)}}, nil
	case *syntax.FloatLit:
		p, err := l.primOf(c, x)
		if err != nil {
			return value{}, err
		}
		return value{t: types.Prim{T: p}, atoms: []core.Atom{core.FloatConst(p, x.Value)}}, nil
	case *syntax.BoolLit:
		return value{t: types.Prim{T: core.Bool}, atoms: []core.Atom{core.BoolConst(x.Value)}}, nil
	case *syntax.Var:
		return l.variable(c, x)
	case *syntax.TupleExpr:
		vs := make([]value, len(x.Elems))
		for i, e := range x.Elems {
			v, err := l.expr(c, e)
			if err != nil {
				return value{}, err
			}
			vs[i] = v
		}
		return tupleValue(vs), nil
	case *syntax.ParenExpr:
		return l.expr(c, x.X)
	case *syntax.Ascribe:
		v, err := l.expr(c, x.X)
		if err != nil || !x.Coerce {
			return v, err
		}
		return v, l.checkCoerce(c, x.Type, v, x.Pos())
	case *syntax.ArrayLit:
		return l.arrayLit(c, x)
	case *syntax.Project:
		v, err := l.exprFO(c, x.X)
		if err != nil {
			return value{}, err
		}
		if x.Name != "" {
			path, err := fieldPath(c, x)
			if err != nil {
				return value{}, err
			}
			return project(pos, v, path)
		}
		return project(pos, v, []int{x.Field})
	case *syntax.RecordExpr:
		return l.recordExpr(c, x)
	case *syntax.Index:
		arr, err := l.exprFO(c, x.X)
		if err != nil {
			return value{}, err
		}
		return l.index(c, pos, arr, x.Indices)
	case *syntax.Update:
		if x.Path != nil {
			return l.recordUpdate(c, x)
		}
		arr, err := l.exprFO(c, x.X)
		if err != nil {
			return value{}, err
		}
		return l.update(c, pos, arr, x.Indices, x.Val)
	case *syntax.LetWith:
		return l.letWith(c, x)
	case *syntax.Apply:
		f, err := l.expr(c, x.Fn)
		if err != nil {
			return value{}, err
		}
		if f.fn == nil {
			return value{}, source.Errorf(pos, "internal error: applying a non-function")
		}
		if f.fn.kind == fnBuiltin {
			g := *f.fn
			g.hint = c.info.Types[x]
			g.sizes = c.info.Sizes[x]
			f.fn = &g
		}
		args := make([]value, len(x.Args))
		for i, a := range x.Args {
			if args[i], err = l.expr(c, a); err != nil {
				return value{}, err
			}
		}
		return l.apply(f.fn, args, pos)
	case *syntax.BinOp:
		return l.binOpExpr(c, x)
	case *syntax.Negate:
		if lit, ok := x.X.(*syntax.IntLit); ok {
			p, err := l.primOf(c, x)
			if err != nil {
				return value{}, err
			}
			return value{t: types.Prim{T: p}, atoms: []core.Atom{intLit(p, lit.Value, true)}}, nil
		}
		if lit, ok := x.X.(*syntax.FloatLit); ok {
			p, err := l.primOf(c, x)
			if err != nil {
				return value{}, err
			}
			return value{t: types.Prim{T: p}, atoms: []core.Atom{core.FloatConst(p, -lit.Value)}}, nil
		}
		a, err := l.exprAtom(c, x.X)
		if err != nil {
			return value{}, err
		}
		return l.unop(pos, core.Neg, a)
	case *syntax.Not:
		a, err := l.exprAtom(c, x.X)
		if err != nil {
			return value{}, err
		}
		return l.unop(pos, core.Not, a)
	case *syntax.OpSection:
		return value{fn: &fnVal{kind: fnOp, op: x.Op, pos: pos}}, nil
	case *syntax.LeftSection:
		v, err := l.exprFO(c, x.X)
		if err != nil {
			return value{}, err
		}
		return value{fn: &fnVal{kind: fnOp, op: x.Op, bound: []value{v}, pos: pos}}, nil
	case *syntax.RightSection:
		v, err := l.exprFO(c, x.X)
		if err != nil {
			return value{}, err
		}
		return value{fn: &fnVal{kind: fnRightSection, op: x.Op, bound: []value{v}, pos: pos}}, nil
	case *syntax.ProjectSection:
		fields := x.Fields
		if x.Names != nil {
			var err error
			if fields, err = fieldPath(c, x); err != nil {
				return value{}, err
			}
		}
		return value{fn: &fnVal{kind: fnProject, fields: fields, pos: pos}}, nil
	case *syntax.IndexSection:
		return value{fn: &fnVal{kind: fnIndex, indices: x.Indices, info: c.info, sc: c.sc, pos: pos}}, nil
	case *syntax.Hole:
		return l.hole(c, x, pos)
	case *syntax.Range:
		return l.rangeExpr(c, x)
	case *syntax.Assert:
		cond, err := l.exprAtom(c, x.Cond)
		if err != nil {
			return value{}, err
		}
		l.stmts = append(l.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: cond, Msg: "Assertion is false: " + x.CondText}, Pos: pos})
		return l.expr(c, x.X)
	case *syntax.If:
		return l.ifExpr(c, x)
	case *syntax.Constr, *syntax.ConTest, *syntax.ConField, *syntax.Match:
		return l.sumExpr(c, x)
	case *syntax.LetIn:
		v, err := l.expr(c, x.Val)
		if err != nil {
			return value{}, err
		}
		sc := newScope(c.sc)
		inner := ctx{info: c.info, sc: sc}
		if err := l.bindPat(inner, x.Pat, v, pos); err != nil {
			return value{}, err
		}
		return l.expr(inner, x.Body)
	case *syntax.LetFun:
		sc := newScope(c.sc)
		f := &fnVal{kind: fnClosure, name: x.Name, params: x.Params, sizeParams: x.SizeParams,
			body: x.FnBody, info: c.info, sc: sc, pos: pos, ret: x.Ret, defPos: pos}
		sc.bind(c.info.Binds[x], x.Name, value{fn: f})
		// A polymorphic local function's uses refer to its instances,
		// each with the Info of its body at one type.
		for _, inst := range c.info.LocalInstances[x] {
			g := *f
			g.info = inst.Info
			sc.bind(inst, "", value{fn: &g})
		}
		return l.expr(ctx{info: c.info, sc: sc}, x.Body)
	case *syntax.Lambda:
		return value{fn: &fnVal{kind: fnClosure, name: "lambda", params: x.Params, body: x.Body,
			info: c.info, sc: c.sc, pos: pos, ret: x.Ret, defPos: pos}}, nil
	case *syntax.Loop:
		return l.loop(c, x)
	}
	return value{}, source.Errorf(pos, "internal error: unknown expression %T", x)
}

// primOf is the primitive type the checker gave a node.
// literalAtom is the constant of a literal of type t, as expr1 lowers it.
func literalAtom(e syntax.Expr, t core.PrimType) (core.Atom, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return intLit(t, e.Value, false), true
	case *syntax.FloatLit:
		if t.IsFloat() {
			return core.FloatConst(t, e.Value), true
		}
	case *syntax.BoolLit:
		if t == core.Bool {
			return core.BoolConst(e.Value), true
		}
	}
	return nil, false
}

func (l *lowerer) primOf(c ctx, x syntax.Expr) (core.PrimType, error) {
	switch t := c.info.Types[x].(type) {
	case types.Prim:
		return t.T, nil
	case *types.Prim:
		return t.T, nil
	}
	return 0, source.Errorf(x.Span().Start, "internal error: no primitive type recorded for %T", x)
}

// intLit is the constant of an integer literal of type p (which may be a
// float type: Futhark lets `1` be an f32 where context asks for one).
func intLit(p core.PrimType, v uint64, neg bool) core.Const {
	if p.IsFloat() {
		f := float64(v)
		if neg {
			f = -f
		}
		return core.FloatConst(p, f)
	}
	if neg {
		v = -v
	}
	return core.Const{T: p, Bits: core.Wrap(p, v)}
}

// variable lowers a name according to what it denotes.
func (l *lowerer) variable(c ctx, x *syntax.Var) (value, error) {
	pos := x.Pos()
	obj := c.info.Uses[x]
	if obj == nil {
		return value{}, source.Errorf(pos, "internal error: unresolved name %s", qualName(x))
	}
	return l.object(c, pos, obj, c.info.Types[x])
}

// object is the value of what a name denotes; t is the type of the use.
func (l *lowerer) object(c ctx, pos source.Pos, obj *types.Object, t types.Type) (value, error) {
	switch obj.Kind {
	case types.Local, types.LocalFun:
		if v, ok := c.sc.lookupObj(obj); ok {
			return *v, nil
		}
		if v, ok := c.sc.lookupName(obj.Name); ok && !v.pending {
			return *v, nil
		}
		return value{}, source.Errorf(pos, "internal error: %s is not bound", obj.Name)
	case types.SizeVar:
		v, ok := c.sc.lookupObj(obj)
		if !ok {
			v, ok = c.sc.lookupName(obj.Name)
		}
		if !ok || v.pending {
			return value{}, source.Errorf(pos, "size %s is not bound by any parameter", obj.Name)
		}
		return *v, nil
	case types.Value:
		// A function moved into a recursive Fun carries the session values
		// it uses in its scope (rebuild); elsewhere they are parameters.
		if v, ok := c.sc.lookupObj(obj); ok {
			return *v, nil
		}
		return l.sessionValue(pos, obj)
	case types.Global:
		return l.global(pos, obj)
	case types.Builtin:
		return value{fn: &fnVal{kind: fnBuiltin, name: obj.Name, typ: t, sc: c.sc, pos: pos}}, nil
	case types.ModuleFun:
		return l.moduleValue(pos, obj.Name, t)
	}
	return value{}, source.Errorf(pos, "internal error: unknown object kind %d for %s", obj.Kind, obj.Name)
}

func qualName(x *syntax.Var) string {
	if x.Qual != "" {
		return x.Qual + "." + x.Name
	}
	return x.Name
}

// sessionValue is a value the session holds: a parameter of main.
func (l *lowerer) sessionValue(pos source.Pos, obj *types.Object) (value, error) {
	if l.fun != nil {
		if v, ok := l.fun.vals[obj]; ok {
			return v, nil
		}
		return value{}, source.Errorf(pos, "internal error: recursive function %s uses the session value %s unexpectedly", l.fun.name, obj.Name)
	}
	if v, ok := l.paramVals[obj]; ok {
		return v, nil
	}
	if _, ok := obj.Type.(*types.Arrow); ok {
		return value{}, source.Errorf(pos, "internal error: session value %s is a function", obj.Name)
	}
	ts := Flatten(obj.Type)
	atoms := make([]core.Atom, len(ts))
	for i, t := range ts {
		v := l.fresh(obj.Name, t)
		l.paramVars = append(l.paramVars, v)
		atoms[i] = v
	}
	l.params = append(l.params, Param{Name: obj.Name, Type: obj.Type, Obj: obj})
	v := value{t: normalize(obj.Type), atoms: atoms}
	l.paramVals[obj] = v
	return v, nil
}

// global is a top-level declaration: a function value when it has
// parameters, otherwise its body, inlined.
func (l *lowerer) global(pos source.Pos, obj *types.Object) (value, error) {
	d := obj.Decl
	if d == nil || obj.Info == nil {
		return value{}, source.Errorf(pos, "internal error: declaration of %s is missing", obj.Name)
	}
	if len(d.Params) > 0 {
		return value{fn: &fnVal{kind: fnGlobal, name: d.Name, params: d.Params, sizeParams: d.SizeParams,
			body: d.Body, info: obj.Info, decl: d, pos: pos, ret: d.Ret, defPos: d.Pos()}}, nil
	}
	if v, ok := l.consts[d]; ok {
		return v, nil
	}
	if l.depth >= maxInlineDepth {
		return value{}, source.Errorf(pos, "%s: definitions nested too deeply", obj.Name)
	}
	l.depth++
	defer func() { l.depth-- }()
	c := ctx{info: obj.Info, sc: newScope(nil)}
	v, err := l.expr(c, d.Body)
	if err == nil {
		err = l.checkResult(c, d.Ret, v, d.Pos())
	}
	if err == nil {
		if l.consts == nil {
			l.consts = map[*syntax.ValDecl]value{}
		}
		l.consts[d] = v
	}
	return v, err
}

// arrayLit lowers `[e1, e2, ...]`: one ArrayLitExp per component.
func (l *lowerer) arrayLit(c ctx, x *syntax.ArrayLit) (value, error) {
	pos := x.Pos()
	t := c.info.Types[x]
	if t == nil {
		return value{}, source.Errorf(pos, "internal error: no type recorded for array literal")
	}
	t = normalize(t)
	rowTs := Flatten(rowType(t))
	if len(x.Elems) == 0 {
		if v, ok := l.emptyWithShape(c, pos, t, rowTs); ok {
			return v, nil
		}
	}
	elems := make([][]core.Atom, len(rowTs))
	scalar := len(rowTs) == 1 && rowTs[0].Rank == 0
	for _, e := range x.Elems {
		if scalar {
			// A literal element has the array's element type (the
			// checker unified them): a long literal looks up no
			// per-element types.
			if a, ok := literalAtom(e, rowTs[0].Elem); ok {
				elems[0] = append(elems[0], a)
				continue
			}
		}
		v, err := l.exprFO(c, e)
		if err != nil {
			return value{}, err
		}
		if len(v.atoms) != len(rowTs) {
			return value{}, source.Errorf(e.Span().Start, "internal error: array element has %d components, want %d", len(v.atoms), len(rowTs))
		}
		for i, a := range v.atoms {
			elems[i] = append(elems[i], a)
		}
	}
	atoms := make([]core.Atom, len(rowTs))
	for i, rt := range rowTs {
		atoms[i] = l.emit1(pos, "arr", rt.Lift(), &core.ArrayLitExp{Elems: elems[i], Elem: rt})
	}
	return value{t: t, atoms: atoms}, nil
}

// emptyWithShape builds an empty literal whose type gives the sizes of its
// inner dimensions (`[] : [0][3]i32`, or [0][d]i32 with d in scope) as
// replicate 0 of a row of those sizes, so that the value has them (an
// ArrayLitExp with no elements cannot know them).
func (l *lowerer) emptyWithShape(c ctx, pos source.Pos, t types.Type, rowTs []core.Type) (value, bool) {
	a, ok := t.(*types.Array)
	if !ok || len(a.Dims) < 2 {
		return value{}, false
	}
	var inner []core.Atom
	for _, d := range a.Dims[1:] {
		switch {
		case d.Name == "" && d.Const >= 0:
			inner = append(inner, core.IntConst(core.I64, d.Const))
		case d.Name != "" && !strings.HasPrefix(d.Name, "?"):
			v, ok := c.sc.lookupName(d.Name)
			if !ok || v.pending || v.fn != nil || len(v.atoms) != 1 || v.atoms[0].AtomType() != core.Scalar(core.I64) {
				return value{}, false
			}
			inner = append(inner, v.atoms[0])
		default:
			return value{}, false
		}
	}
	atoms := make([]core.Atom, len(rowTs))
	for i, rt := range rowTs {
		var cur core.Atom = zeroOf(rt.Elem)
		for k := len(inner) - 1; k >= 0; k-- {
			cur = l.emit1(pos, "rep", cur.AtomType().Lift(), &core.ReplicateExp{N: inner[k], V: cur})
		}
		atoms[i] = l.emit1(pos, "arr", cur.AtomType().Lift(), &core.ReplicateExp{N: core.IntConst(core.I64, 0), V: cur})
	}
	return value{t: t, atoms: atoms}, true
}

// hole lowers `???` to a failing assertion with Futhark's message, then a
// value of the hole's type that is never used (zeros; arrays with no
// elements).
func (l *lowerer) hole(c ctx, x *syntax.Hole, pos source.Pos) (value, error) {
	t := c.info.Types[x]
	if containsFunction(t) {
		return value{}, source.Errorf(pos, "a hole (???) of function type %s is not supported", t)
	}
	l.stmts = append(l.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: core.BoolConst(false), Msg: "Reached hole of type: " + t.String()}, Pos: pos})
	var atoms []core.Atom
	for _, ct := range Flatten(t) {
		var a core.Atom = zeroOf(ct.Elem)
		for k := 0; k < ct.Rank; k++ {
			a = l.emit1(pos, "hole", a.AtomType().Lift(), &core.ReplicateExp{N: core.IntConst(core.I64, 0), V: a})
		}
		atoms = append(atoms, a)
	}
	return value{t: t, atoms: atoms}, nil
}

func containsFunction(t types.Type) bool {
	switch t := t.(type) {
	case *types.Arrow:
		return true
	case *types.Tuple:
		for _, e := range t.Elems {
			if containsFunction(e) {
				return true
			}
		}
	case *types.Array:
		return containsFunction(t.Elem)
	}
	return false
}

// zeroOf is the zero (or false) of a primitive type.
func zeroOf(t core.PrimType) core.Const {
	switch {
	case t == core.Bool:
		return core.BoolConst(false)
	case t.IsFloat():
		return core.FloatConst(t, 0)
	}
	return core.IntConst(t, 0)
}

// project selects tuple fields, in order (`e.0`, `(.0.1)`).
func project(pos source.Pos, v value, fields []int) (value, error) {
	for _, f := range fields {
		comps, err := tupleComponents(pos, v)
		if err != nil {
			return value{}, err
		}
		if f < 0 || f >= len(comps) {
			return value{}, source.Errorf(pos, "internal error: field %d of %s", f, v.t)
		}
		v = comps[f]
	}
	return v, nil
}

// dimIndices lowers index components against arr, whose first component
// provides the sizes that slice defaults need.
func (l *lowerer) dimIndices(c ctx, pos source.Pos, arr value, idx []syntax.DimIndex) ([]core.DimIndex, int, error) {
	out := make([]core.DimIndex, len(idx))
	fixed := 0
	for d, di := range idx {
		switch di := di.(type) {
		case *syntax.DimFix:
			a, err := l.exprAtom(c, di.I)
			if err != nil {
				return nil, 0, err
			}
			a = l.toI64(di.Pos(), a)
			out[d] = core.DimIndex{Fix: &a}
			fixed++
		case *syntax.DimSlice:
			s, err := l.slice(c, di, arr, d)
			if err != nil {
				return nil, 0, err
			}
			out[d] = s
		default:
			return nil, 0, source.Errorf(pos, "internal error: unknown index %T", di)
		}
	}
	return out, fixed, nil
}

// slice makes Futhark's slice defaults explicit: with a positive stride
// start 0 and end n, with a negative one start n-1 and end -1. A stride
// whose sign is unknown until run time selects between them with IfExp.
func (l *lowerer) slice(c ctx, s *syntax.DimSlice, arr value, d int) (core.DimIndex, error) {
	pos := s.Pos()
	opt := func(e syntax.Expr) (core.Atom, error) {
		if e == nil {
			return nil, nil
		}
		a, err := l.exprAtom(c, e)
		if err != nil {
			return nil, err
		}
		return l.toI64(e.Span().Start, a), nil
	}
	start, err := opt(s.Start)
	if err != nil {
		return core.DimIndex{}, err
	}
	end, err := opt(s.End)
	if err != nil {
		return core.DimIndex{}, err
	}
	stride, err := opt(s.Stride)
	if err != nil {
		return core.DimIndex{}, err
	}
	var omit core.Omitted
	for _, part := range []struct {
		e    syntax.Expr
		flag core.Omitted
	}{{s.Start, core.OmitStart}, {s.End, core.OmitEnd}, {s.Stride, core.OmitStride}} {
		if part.e == nil {
			omit |= part.flag
		}
	}
	if stride == nil {
		stride = core.IntConst(core.I64, 1)
	}
	if start != nil && end != nil {
		return core.DimIndex{Start: start, End: end, Stride: stride, Omit: omit}, nil
	}
	if len(arr.atoms) == 0 {
		return core.DimIndex{}, source.Errorf(pos, "arrays of empty tuples are not supported")
	}
	n, err := l.size(pos, arr.atoms[0], d)
	if err != nil {
		return core.DimIndex{}, err
	}
	one := core.IntConst(core.I64, 1)
	nMinus1 := l.emit1(pos, "n", core.Scalar(core.I64), &core.BinOpExp{Op: core.Sub, T: core.I64, X: n, Y: one})
	posStart, negStart := core.Atom(core.IntConst(core.I64, 0)), core.Atom(nMinus1)
	posEnd, negEnd := n, core.Atom(core.IntConst(core.I64, -1))
	pick := func(p, q core.Atom) core.Atom {
		if k, ok := stride.(core.Const); ok {
			if k.Int() < 0 {
				return q
			}
			return p
		}
		cond := l.emit1(pos, "up", core.Scalar(core.Bool), &core.BinOpExp{Op: core.Ge, T: core.I64, X: stride, Y: core.IntConst(core.I64, 0)})
		return l.emit1(pos, "bound", core.Scalar(core.I64), &core.IfExp{Cond: cond,
			Then: &core.Body{Result: []core.Atom{p}}, Else: &core.Body{Result: []core.Atom{q}},
			Ret: []core.Type{core.Scalar(core.I64)}})
	}
	if start == nil {
		start = pick(posStart, negStart)
	}
	if end == nil {
		end = pick(posEnd, negEnd)
	}
	return core.DimIndex{Start: start, End: end, Stride: stride, Omit: omit}, nil
}

// index lowers `a[...]`, applying the same index to every component.
func (l *lowerer) index(c ctx, pos source.Pos, arr value, idx []syntax.DimIndex) (value, error) {
	vars, err := arrayVars(pos, arr)
	if err != nil {
		return value{}, err
	}
	di, fixed, err := l.dimIndices(c, pos, arr, idx)
	if err != nil {
		return value{}, err
	}
	atoms := make([]core.Atom, len(vars))
	for i, v := range vars {
		t := core.ArrayOf(v.Type.Elem, v.Type.Rank-fixed)
		atoms[i] = l.emit1(pos, v.Name, t, &core.IndexExp{Arr: v, Idx: di})
	}
	t := arr.t
	for i := 0; i < fixed; i++ {
		t = rowType(t)
	}
	return value{t: t, atoms: atoms}, nil
}

// update lowers `a with [i] = v`.
func (l *lowerer) update(c ctx, pos source.Pos, arr value, idx []syntax.DimIndex, val syntax.Expr) (value, error) {
	vars, err := arrayVars(pos, arr)
	if err != nil {
		return value{}, err
	}
	di, _, err := l.dimIndices(c, pos, arr, idx)
	if err != nil {
		return value{}, err
	}
	v, err := l.exprFO(c, val)
	if err != nil {
		return value{}, err
	}
	if len(v.atoms) != len(vars) {
		return value{}, source.Errorf(pos, "internal error: update value has %d components, array %d", len(v.atoms), len(vars))
	}
	atoms := make([]core.Atom, len(vars))
	for i, a := range vars {
		atoms[i] = l.emit1(pos, a.Name, a.Type, &core.UpdateExp{Arr: a, Idx: di, Val: v.atoms[i]})
	}
	return value{t: arr.t, atoms: atoms}, nil
}

// letWith lowers `let a[i] = v in body`, which rebinds a.
func (l *lowerer) letWith(c ctx, x *syntax.LetWith) (value, error) {
	pos := x.Pos()
	var old *value
	if obj := c.info.Updates[x]; obj != nil {
		v, err := l.object(c, pos, obj, obj.Type)
		if err != nil {
			return value{}, err
		}
		old = &v
		if p, ok := c.sc.lookupObj(obj); ok {
			old = p
		}
	} else if p, ok := c.sc.lookupName(x.Name); ok {
		old = p
	} else {
		return value{}, source.Errorf(pos, "internal error: %s is not bound", x.Name)
	}
	nv, err := l.update(c, pos, *old, x.Indices, x.Val)
	if err != nil {
		return value{}, err
	}
	sc := newScope(c.sc)
	sc.bind(c.info.Binds[x], x.Name, nv)
	// Uses in the body may resolve to the original object; shadow it too.
	for s := c.sc; s != nil; s = s.parent {
		if s.names[x.Name] == old {
			for o, p := range s.objs {
				if p == old {
					sc.objs[o] = sc.names[x.Name]
				}
			}
			break
		}
	}
	return l.expr(ctx{info: c.info, sc: sc}, x.Body)
}

// ifExpr lowers a conditional to IfExp.
func (l *lowerer) ifExpr(c ctx, x *syntax.If) (value, error) {
	pos := x.Pos()
	cond, err := l.exprAtom(c, x.Cond)
	if err != nil {
		return value{}, err
	}
	var tv, ev value
	thenB, err := l.body(func() ([]core.Atom, error) {
		var err error
		tv, err = l.exprFO(c, x.Then)
		return tv.atoms, err
	})
	if err != nil {
		return value{}, err
	}
	elseB, err := l.body(func() ([]core.Atom, error) {
		var err error
		ev, err = l.exprFO(c, x.Else)
		return ev.atoms, err
	})
	if err != nil {
		return value{}, err
	}
	if len(tv.atoms) != len(ev.atoms) {
		return value{}, source.Errorf(pos, "internal error: branches have %d and %d components", len(tv.atoms), len(ev.atoms))
	}
	ret := atomTypes(tv.atoms)
	pat := l.emit(pos, "if", ret, &core.IfExp{Cond: cond, Then: thenB, Else: elseB, Ret: ret})
	return value{t: tv.t, atoms: varsToAtoms(pat)}, nil
}

// binOpExpr lowers an infix operator: pipes apply, && and || short-circuit,
// the rest are strict (binop).
func (l *lowerer) binOpExpr(c ctx, x *syntax.BinOp) (value, error) {
	pos := x.OpPos
	if !pos.IsValid() {
		pos = x.Pos()
	}
	switch x.Op {
	case "|>", "<|":
		fx, ax := x.Rhs, x.Lhs
		if x.Op == "<|" {
			fx, ax = x.Lhs, x.Rhs
		}
		a, err := l.expr(c, ax)
		if err != nil {
			return value{}, err
		}
		f, err := l.expr(c, fx)
		if err != nil {
			return value{}, err
		}
		if f.fn == nil {
			return value{}, source.Errorf(pos, "internal error: piping into a non-function")
		}
		if f.fn.kind == fnBuiltin {
			g := *f.fn
			g.hint, g.sizes = c.info.Types[x], c.info.Sizes[x]
			f.fn = &g
		}
		return l.apply(f.fn, []value{a}, pos)
	case "&&", "||":
		a, err := l.exprAtom(c, x.Lhs)
		if err != nil {
			return value{}, err
		}
		rhs, err := l.body(func() ([]core.Atom, error) {
			b, err := l.exprAtom(c, x.Rhs)
			return []core.Atom{b}, err
		})
		if err != nil {
			return value{}, err
		}
		short := &core.Body{Result: []core.Atom{core.BoolConst(x.Op == "||")}}
		ie := &core.IfExp{Cond: a, Then: rhs, Else: short, Ret: []core.Type{core.Scalar(core.Bool)}}
		if x.Op == "||" {
			ie.Then, ie.Else = short, rhs
		}
		r := l.emit1(pos, "b", core.Scalar(core.Bool), ie)
		return value{t: types.Prim{T: core.Bool}, atoms: []core.Atom{r}}, nil
	}
	// A left-nested chain `a + b - c + ...` is lowered along its spine in
	// a loop (as the checker checks it), so that its depth does not grow
	// the stack.
	spine := []*syntax.BinOp{x}
	for {
		n, ok := spine[len(spine)-1].Lhs.(*syntax.BinOp)
		if !ok || n.Op == "|>" || n.Op == "<|" || n.Op == "&&" || n.Op == "||" {
			break
		}
		spine = append(spine, n)
	}
	a, err := l.expr(c, spine[len(spine)-1].Lhs)
	if err != nil {
		return value{}, err
	}
	for i := len(spine) - 1; i >= 0; i-- {
		n := spine[i]
		b, err := l.expr(c, n.Rhs)
		if err != nil {
			return value{}, err
		}
		p := n.OpPos
		if !p.IsValid() {
			p = n.Pos()
		}
		if a, err = l.binop(p, n.Op, a, b); err != nil {
			return value{}, err
		}
		if i > 0 {
			a = typed(c, n, a)
		}
	}
	return a, nil
}

// loop lowers `loop p = init for/while ... do body` to LoopExp.
func (l *lowerer) loop(c ctx, x *syntax.Loop) (value, error) {
	pos := x.Pos()
	var init value
	var err error
	if x.Init != nil {
		init, err = l.exprFO(c, x.Init)
	} else {
		init, err = l.patValue(c, x.Pat)
	}
	if err != nil {
		return value{}, err
	}
	mt := c.info.PatTypes[x.Pat]
	if mt == nil || len(Flatten(mt)) != len(init.atoms) {
		mt = init.t
	}
	mt = normalize(mt)
	ts := atomTypes(init.atoms)
	params := make([]*core.Var, len(ts))
	for i, t := range ts {
		params[i] = l.fresh(patBase(x.Pat), t)
	}
	merge := value{t: mt, atoms: varsToAtoms(params)}
	// bindMerge binds the loop pattern to v in a new scope.
	bindMerge := func(v value) (ctx, error) {
		inner := ctx{info: c.info, sc: newScope(c.sc)}
		return inner, l.bindPat(inner, x.Pat, v, pos)
	}
	switch f := x.Form.(type) {
	case *syntax.ForLoop:
		bound, err := l.exprAtom(c, f.Bound)
		if err != nil {
			return value{}, err
		}
		iv := l.fresh(f.I, core.Scalar(bound.AtomType().Elem))
		b, err := l.body(func() ([]core.Atom, error) {
			inner, err := bindMerge(merge)
			if err != nil {
				return nil, err
			}
			inner.sc.bind(c.info.Binds[f], f.I, value{t: types.Prim{T: iv.Type.Elem}, atoms: []core.Atom{iv}})
			r, err := l.exprFO(inner, x.Body)
			return r.atoms, err
		})
		if err != nil {
			return value{}, err
		}
		out := l.emit(pos, "loop", ts, &core.LoopExp{Params: params, Init: init.atoms,
			Form: &core.ForLoop{I: iv, Bound: bound}, Body: b})
		return value{t: mt, atoms: varsToAtoms(out)}, nil
	case *syntax.ForInLoop:
		arr, err := l.exprFO(c, f.Arr)
		if err != nil {
			return value{}, err
		}
		vars, err := arrayVars(f.Pos(), arr)
		if err != nil {
			return value{}, err
		}
		n, err := l.outerSize(f.Pos(), arr)
		if err != nil {
			return value{}, err
		}
		iv := l.fresh("i", core.Scalar(core.I64))
		b, err := l.body(func() ([]core.Atom, error) {
			inner, err := bindMerge(merge)
			if err != nil {
				return nil, err
			}
			var i core.Atom = iv
			elem := make([]core.Atom, len(vars))
			for k, a := range vars {
				elem[k] = l.emit1(f.Pos(), a.Name, a.Type.Row(), &core.IndexExp{Arr: a, Idx: []core.DimIndex{{Fix: &i}}})
			}
			if err := l.bindPat(inner, f.Pat, value{t: rowType(arr.t), atoms: elem}, f.Pos()); err != nil {
				return nil, err
			}
			r, err := l.exprFO(inner, x.Body)
			return r.atoms, err
		})
		if err != nil {
			return value{}, err
		}
		out := l.emit(pos, "loop", ts, &core.LoopExp{Params: params, Init: init.atoms,
			Form: &core.ForLoop{I: iv, Bound: n}, Body: b})
		return value{t: mt, atoms: varsToAtoms(out)}, nil
	case *syntax.WhileLoop:
		// The condition is a loop parameter: computed once from the initial
		// values and again at the end of every iteration.
		cond := func(v value) (core.Atom, error) {
			inner, err := bindMerge(v)
			if err != nil {
				return nil, err
			}
			return l.exprAtom(inner, f.Cond)
		}
		c0, err := cond(init)
		if err != nil {
			return value{}, err
		}
		cv := l.fresh("cond", core.Scalar(core.Bool))
		b, err := l.body(func() ([]core.Atom, error) {
			inner, err := bindMerge(merge)
			if err != nil {
				return nil, err
			}
			r, err := l.exprFO(inner, x.Body)
			if err != nil {
				return nil, err
			}
			r.t = mt
			c1, err := cond(r)
			if err != nil {
				return nil, err
			}
			return append([]core.Atom{c1}, r.atoms...), nil
		})
		if err != nil {
			return value{}, err
		}
		out := l.emit(pos, "loop", append([]core.Type{core.Scalar(core.Bool)}, ts...), &core.LoopExp{
			Params: append([]*core.Var{cv}, params...), Init: append([]core.Atom{c0}, init.atoms...),
			Form: &core.WhileLoop{Cond: cv}, Body: b})
		return value{t: mt, atoms: varsToAtoms(out[1:])}, nil
	}
	return value{}, source.Errorf(pos, "internal error: unknown loop form %T", x.Form)
}

// patValue is the current value of the names in a pattern (`loop acc for`).
func (l *lowerer) patValue(c ctx, p syntax.Pat) (value, error) {
	switch p := p.(type) {
	case *syntax.IdPat:
		if obj := c.info.Binds[p]; obj != nil {
			if v, ok := c.sc.lookupObj(obj); ok {
				return *v, nil
			}
		}
		if v, ok := c.sc.lookupName(p.Name); ok && !v.pending && v.fn == nil {
			return *v, nil
		}
		return value{}, source.Errorf(p.Pos(), "loop variable %s has no initial value", p.Name)
	case *syntax.TuplePat:
		vs := make([]value, len(p.Elems))
		for i, e := range p.Elems {
			v, err := l.patValue(c, e)
			if err != nil {
				return value{}, err
			}
			vs[i] = v
		}
		return tupleValue(vs), nil
	case *syntax.AscribedPat:
		return l.patValue(c, p.Pat)
	case *syntax.WildPat:
		return value{}, source.Errorf(p.Pos(), "a loop pattern without initial value cannot contain _")
	}
	return value{}, source.Errorf(p.Span().Start, "internal error: unknown pattern %T", p)
}

// patBase is a readable base name for variables bound by a pattern.
func patBase(p syntax.Pat) string {
	switch p := p.(type) {
	case *syntax.IdPat:
		return p.Name
	case *syntax.AscribedPat:
		return patBase(p.Pat)
	}
	return "acc"
}
