package lower

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// builtin is how one builtin function is lowered once applied to all its
// arguments.
type builtin struct {
	arity int
	lower builtinImpl
}

// builtinImpl lowers one builtin applied to all its arguments.
type builtinImpl = func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error)

// builtins is the builtin table, filled by init because the lowering
// functions refer back to it through apply.
var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"map":             {2, mapN("map")},
		"map1":            {2, mapN("map1")},
		"map2":            {3, mapN("map2")},
		"map3":            {4, mapN("map3")},
		"map4":            {5, mapN("map4")},
		"map5":            {6, mapN("map5")},
		"reduce":          {3, reduceB(false)},
		"reduce_comm":     {3, reduceB(true)},
		"scan":            {3, scanB},
		"filter":          {2, filterB(false)},
		"partition":       {2, filterB(true)},
		"hist":            {5, histB},
		"reduce_by_index": {5, reduceByIndexB},
		"scatter":         {3, scatterB},
		"multiscan":       {5, multiscanB},
		"iota":            {1, iotaB},
		"replicate":       {2, replicateB},
		"length":          {1, lengthB},
		"reverse":         {1, perComponent("rev", func(a *core.Var, _ []value) core.Exp { return &core.ReverseExp{Arr: a} })},
		"transpose":       {1, transposeB},
		"rotate":          {2, rotateB},
		"flatten":         {1, flattenB},
		"flatten_3d":      {1, flattenNB(3)},
		"flatten_4d":      {1, flattenNB(4)},
		"rep":             {1, repB},
		"unflatten":       {1, unflattenB(2)},
		"unflatten_3d":    {1, unflattenB(3)},
		"unflatten_4d":    {1, unflattenB(4)},
		"concat":          {2, func(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) { return concat(l, pos, args) }},
		"zip":             {2, zipB("zip")},
		"zip3":            {3, zipB("zip3")},
		"unzip":           {1, unzipB},
		"unzip3":          {1, unzipB},
		"indices":         {1, indicesB},
		"and":             {1, boolReduce(core.LogAnd, true)},
		"or":              {1, boolReduce(core.LogOr, false)},
		"all":             {2, boolMapReduce(core.LogAnd, true)},
		"any":             {2, boolMapReduce(core.LogOr, false)},
	}
	addADBuiltins()
}

// soacInput is the arrays of a SOAC: their width, the component variables
// and the source row type of each argument.
type soacInput struct {
	w    core.Atom
	arrs []*core.Var
	rows []types.Type
}

// soacInputs checks that every argument array has the same outer size (the
// message is what Futhark's size-equality requirement becomes at run time)
// and collects their components.
func (l *lowerer) soacInputs(pos source.Pos, name string, args []value) (soacInput, error) {
	var in soacInput
	for i, a := range args {
		if a.fn != nil {
			return in, source.Errorf(pos, "internal error: %s given a function for an array", name)
		}
		vars, err := arrayVars(pos, a)
		if err != nil {
			return in, err
		}
		n, err := l.outerSize(pos, a)
		if err != nil {
			return in, err
		}
		if i == 0 {
			in.w = n
		} else {
			l.assertEq(pos, in.w, n, fmt.Sprintf("%s: arrays of different sizes", name))
		}
		in.arrs = append(in.arrs, vars...)
		in.rows = append(in.rows, rowType(a.t))
	}
	return in, nil
}

func mapN(name string) func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	return func(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
		in, err := l.soacInputs(pos, name, args[1:])
		if err != nil {
			return value{}, err
		}
		lam, rt, err := l.lambda(args[0], in.rows, pos)
		if err != nil {
			return value{}, err
		}
		out := l.emit(pos, "map", liftAll(lam.Ret), &core.Screma{W: in.w, Arrs: in.arrs, Map: lam})
		l.knowSizes(out, in.w)
		return value{t: liftType(rt, outerDim(args[1].t)), atoms: varsToAtoms(out)}, nil
	}
}

func liftAll(ts []core.Type) []core.Type {
	out := make([]core.Type, len(ts))
	for i, t := range ts {
		out[i] = t.Lift()
	}
	return out
}

// identity is the lambda returning its parameters, of the given types.
func (l *lowerer) identity(ts []core.Type) *core.Lambda {
	ps := make([]*core.Var, len(ts))
	for i, t := range ts {
		ps[i] = l.fresh("x", t)
	}
	return &core.Lambda{Params: ps, Body: &core.Body{Result: varsToAtoms(ps)}, Ret: ts}
}

// operator turns a binary function value on elements of type t into a
// 2k-parameter core lambda, and checks its neutral element's shape.
func (l *lowerer) operator(pos source.Pos, op, ne value, t types.Type) (*core.Lambda, []core.Atom, error) {
	lam, _, err := l.lambda(op, []types.Type{t, t}, pos)
	if err != nil {
		return nil, nil, err
	}
	if ne.fn != nil || len(ne.atoms) != len(lam.Ret) {
		return nil, nil, source.Errorf(pos, "internal error: neutral element does not match the operator")
	}
	return lam, ne.atoms, nil
}

func reduceB(comm bool) func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		in, err := l.soacInputs(pos, f.name, args[2:])
		if err != nil {
			return value{}, err
		}
		lam, ne, err := l.operator(pos, args[0], args[1], in.rows[0])
		if err != nil {
			return value{}, err
		}
		s := &core.Screma{W: in.w, Arrs: in.arrs, Map: l.identity(rowTypes(in.arrs)),
			Reds: []*core.RedOp{{Lambda: lam, Neutral: ne, Comm: comm}}}
		out := l.emit(pos, "red", lam.Ret, s)
		return value{t: in.rows[0], atoms: varsToAtoms(out)}, nil
	}
}

func rowTypes(vs []*core.Var) []core.Type {
	ts := make([]core.Type, len(vs))
	for i, v := range vs {
		ts[i] = v.Type.Row()
	}
	return ts
}

func scanB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	in, err := l.soacInputs(pos, f.name, args[2:])
	if err != nil {
		return value{}, err
	}
	lam, ne, err := l.operator(pos, args[0], args[1], in.rows[0])
	if err != nil {
		return value{}, err
	}
	s := &core.Screma{W: in.w, Arrs: in.arrs, Map: l.identity(rowTypes(in.arrs)),
		Scans: []*core.ScanOp{{Lambda: lam, Neutral: ne}}}
	out := l.emit(pos, "scan", liftAll(lam.Ret), s)
	l.knowSizes(out, in.w)
	return value{t: args[2].t, atoms: varsToAtoms(out)}, nil
}

// reduceOp reduces an array with a core operator (`i32.sum`, `and`, ...).
func (l *lowerer) reduceOp(pos source.Pos, op core.BinOp, ne core.Const, arr value) (value, error) {
	in, err := l.soacInputs(pos, "reduce", []value{arr})
	if err != nil {
		return value{}, err
	}
	if len(in.arrs) != 1 || in.arrs[0].Type.Rank != 1 {
		return value{}, source.Errorf(pos, "internal error: reduction over %s", arr.t)
	}
	red := l.scalarOperator(pos, op, ne.T)
	s := &core.Screma{W: in.w, Arrs: in.arrs, Map: l.identity(rowTypes(in.arrs)),
		Reds: []*core.RedOp{{Lambda: red, Neutral: []core.Atom{ne}, Comm: core.BinOps[op].Commutative}}}
	out := l.emit1(pos, "red", core.Scalar(ne.T), s)
	return primValue(out), nil
}

// scalarOperator is the lambda \x y -> x op y on scalars of type t.
func (l *lowerer) scalarOperator(pos source.Pos, op core.BinOp, t core.PrimType) *core.Lambda {
	x, y := l.fresh("x", core.Scalar(t)), l.fresh("y", core.Scalar(t))
	rt := core.Scalar(core.BinOpResult(op, t))
	r := l.fresh(core.BinOps[op].Name, rt)
	return &core.Lambda{
		Params: []*core.Var{x, y},
		Body: &core.Body{
			Stmts:  []*core.Stmt{{Pat: []*core.Var{r}, Exp: &core.BinOpExp{Op: op, T: t, X: x, Y: y}, Pos: pos}},
			Result: []core.Atom{r},
		},
		Ret: []core.Type{rt},
	}
}

func boolReduce(op core.BinOp, ne bool) func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	return func(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
		return l.reduceOp(pos, op, core.BoolConst(ne), args[0])
	}
}

// boolMapReduce is all/any: a map of the predicate into a reduction.
func boolMapReduce(op core.BinOp, ne bool) func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		in, err := l.soacInputs(pos, f.name, args[1:])
		if err != nil {
			return value{}, err
		}
		pred, _, err := l.lambda(args[0], in.rows, pos)
		if err != nil {
			return value{}, err
		}
		s := &core.Screma{W: in.w, Arrs: in.arrs, Map: pred,
			Reds: []*core.RedOp{{Lambda: l.scalarOperator(pos, op, core.Bool), Neutral: []core.Atom{core.BoolConst(ne)}, Comm: true}}}
		out := l.emit1(pos, f.name, core.Scalar(core.Bool), s)
		return primValue(out), nil
	}
}

func filterB(partition bool) func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		in, err := l.soacInputs(pos, f.name, args[1:])
		if err != nil {
			return value{}, err
		}
		pred, _, err := l.lambda(args[0], in.rows, pos)
		if err != nil {
			return value{}, err
		}
		ts := make([]core.Type, len(in.arrs))
		for i, a := range in.arrs {
			ts[i] = a.Type
		}
		rt := liftType(in.rows[0], types.AnyDim)
		s := &core.Filter{W: in.w, Arrs: in.arrs, Pred: pred, Partition: partition}
		if !partition {
			out := l.emit(pos, "filter", ts, s)
			return value{t: rt, atoms: varsToAtoms(out)}, nil
		}
		out := l.emit(pos, "part", append(append([]core.Type{}, ts...), ts...), s)
		k := len(ts)
		return tupleValue([]value{{t: rt, atoms: varsToAtoms(out[:k])}, {t: rt, atoms: varsToAtoms(out[k:])}}), nil
	}
}

// histogram lowers the common part of hist and reduce_by_index: dests are
// the initial destination arrays.
func (l *lowerer) histogram(pos source.Pos, name string, dests []*core.Var, destT types.Type, op, ne, is, vs value) (value, error) {
	in, err := l.soacInputs(pos, name, []value{is, vs})
	if err != nil {
		return value{}, err
	}
	if len(in.arrs) < 1 || in.arrs[0].Type != core.ArrayOf(core.I64, 1) {
		return value{}, source.Errorf(pos, "internal error: %s indices must be []i64", name)
	}
	lam, neAtoms, err := l.operator(pos, op, ne, in.rows[1])
	if err != nil {
		return value{}, err
	}
	if len(dests) != len(lam.Ret) {
		return value{}, source.Errorf(pos, "internal error: %s destination has %d components", name, len(dests))
	}
	h := &core.Hist{W: in.w, Arrs: in.arrs, Map: l.identity(rowTypes(in.arrs)),
		Ops: []*core.HistOp{{Dests: dests, Lambda: lam, Neutral: neAtoms}}}
	ts := make([]core.Type, len(dests))
	for i, d := range dests {
		ts[i] = d.Type
	}
	out := l.emit(pos, "hist", ts, h)
	return value{t: destT, atoms: varsToAtoms(out)}, nil
}

// histB is `hist op ne k is vs`: the destination is k copies of ne.
func histB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	op, ne, k, is, vs := args[0], args[1], args[2], args[3], args[4]
	ka, err := scalarOf(pos, k)
	if err != nil {
		return value{}, err
	}
	ka = l.toI64(pos, ka)
	dests := make([]*core.Var, len(ne.atoms))
	for i, a := range ne.atoms {
		dests[i] = l.emit1(pos, "dest", a.AtomType().Lift(), &core.ReplicateExp{N: ka, V: a})
		l.knowSizes(dests[i:i+1], ka)
	}
	return l.histogram(pos, f.name, dests, liftType(ne.t, types.AnyDim), op, ne, is, vs)
}

// reduceByIndexB is `reduce_by_index dest op ne is vs`.
func reduceByIndexB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	dests, err := arrayVars(pos, args[0])
	if err != nil {
		return value{}, err
	}
	return l.histogram(pos, f.name, dests, args[0].t, args[1], args[2], args[3], args[4])
}

// scatterB is `scatter dest is vs`: Map yields (index, value) per
// destination component.
func scatterB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	dests, err := arrayVars(pos, args[0])
	if err != nil {
		return value{}, err
	}
	in, err := l.soacInputs(pos, f.name, args[1:])
	if err != nil {
		return value{}, err
	}
	if len(in.arrs) != 1+len(dests) {
		return value{}, source.Errorf(pos, "internal error: scatter values do not match the destination")
	}
	ps := make([]*core.Var, len(in.arrs))
	for i, a := range in.arrs {
		ps[i] = l.fresh("x", a.Type.Row())
	}
	var res []core.Atom
	var ret []core.Type
	for k := range dests {
		res = append(res, ps[0], ps[1+k])
		ret = append(ret, ps[0].Type, ps[1+k].Type)
	}
	lam := &core.Lambda{Params: ps, Body: &core.Body{Result: res}, Ret: ret}
	ts := make([]core.Type, len(dests))
	for i, d := range dests {
		ts[i] = d.Type
	}
	out := l.emit(pos, "scatter", ts, &core.Scatter{W: in.w, Arrs: in.arrs, Map: lam, Dests: dests})
	// The result is the destination updated: it has the destination's
	// size, where that is known already.
	if len(dests) > 0 {
		if n, ok := l.sizes[sizeKey{dests[0], 0}]; ok {
			l.knowSizes(out, n)
		}
	}
	return value{t: args[0].t, atoms: varsToAtoms(out)}, nil
}

// multiscanB is `multiscan op ne k labels vs`.
func multiscanB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	op, ne, k, labels, vs := args[0], args[1], args[2], args[3], args[4]
	ka, err := scalarOf(pos, k)
	if err != nil {
		return value{}, err
	}
	in, err := l.soacInputs(pos, f.name, []value{labels, vs})
	if err != nil {
		return value{}, err
	}
	lam, neAtoms, err := l.operator(pos, op, ne, in.rows[1])
	if err != nil {
		return value{}, err
	}
	arrs := in.arrs[1:]
	ts := make([]core.Type, len(arrs))
	for i, a := range arrs {
		ts[i] = a.Type
	}
	out := l.emit(pos, "mscan", ts, &core.MultiScan{W: in.w, K: l.toI64(pos, ka), Labels: in.arrs[0], Arrs: arrs,
		Op: &core.ScanOp{Lambda: lam, Neutral: neAtoms}})
	return value{t: vs.t, atoms: varsToAtoms(out)}, nil
}

func iotaB(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
	n, err := scalarOf(pos, args[0])
	if err != nil {
		return value{}, err
	}
	return l.iota(pos, n), nil
}

func (l *lowerer) iota(pos source.Pos, n core.Atom) value {
	l.checkCount(pos, n)
	t := n.AtomType().Elem
	r := l.emit1(pos, "iota", core.ArrayOf(t, 1), &core.IotaExp{N: n, Start: core.IntConst(t, 0), Step: core.IntConst(t, 1), T: t})
	l.knowSizes([]*core.Var{r}, n)
	return value{t: &types.Array{Elem: types.Prim{T: t}, Dims: []types.Dim{types.AnyDim}}, atoms: []core.Atom{r}}
}

// checkCount asserts that the count of an iota or a replicate is not
// negative. Futhark's prelude defines both through the range 0..1..<n,
// so the message is that range's (`Range 0..1..<-3 is invalid.`), on
// every backend. A constant count, or one known to be an array's size,
// needs no check.
func (l *lowerer) checkCount(pos source.Pos, n core.Atom) {
	if k, ok := n.(core.Const); ok && k.Int() >= 0 {
		return
	}
	for _, known := range l.sizes {
		if known == n {
			return
		}
	}
	n64 := l.toI64(pos, n)
	ok := l.emit1(pos, "nonneg", core.Scalar(core.Bool), &core.BinOpExp{Op: core.Ge, T: core.I64, X: n64, Y: core.IntConst(core.I64, 0)})
	msg, args := "Range 0..1..<%v is invalid.", []core.Atom{n64}
	if k, isConst := n64.(core.Const); isConst {
		msg, args = fmt.Sprintf("Range 0..1..<%d is invalid.", k.Int()), nil
	}
	l.stmts = append(l.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: ok, Msg: msg, Args: args}, Pos: pos})
}

func replicateB(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
	n, err := scalarOf(pos, args[0])
	if err != nil {
		return value{}, err
	}
	n = l.toI64(pos, n)
	v := args[1]
	if v.fn != nil {
		return value{}, source.Errorf(pos, "cannot replicate a function")
	}
	l.checkCount(pos, n)
	atoms := make([]core.Atom, len(v.atoms))
	for i, a := range v.atoms {
		r := l.emit1(pos, "rep", a.AtomType().Lift(), &core.ReplicateExp{N: n, V: a})
		l.knowSizes([]*core.Var{r}, n)
		atoms[i] = r
	}
	return value{t: liftType(v.t, types.AnyDim), atoms: atoms}, nil
}

func lengthB(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
	n, err := l.outerSize(pos, args[0])
	if err != nil {
		return value{}, err
	}
	return primValue(n), nil
}

func indicesB(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
	n, err := l.outerSize(pos, args[0])
	if err != nil {
		return value{}, err
	}
	return l.iota(pos, n), nil
}

// perComponent applies an array operation to every component; the source
// type is unchanged.
func perComponent(base string, mk func(a *core.Var, args []value) core.Exp) func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	return func(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
		arr := args[len(args)-1]
		vars, err := arrayVars(pos, arr)
		if err != nil {
			return value{}, err
		}
		atoms := make([]core.Atom, len(vars))
		for i, a := range vars {
			atoms[i] = l.emit1(pos, base, a.Type, mk(a, args))
		}
		return value{t: arr.t, atoms: atoms}, nil
	}
}

func transposeB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	v, err := perComponent("tr", func(a *core.Var, _ []value) core.Exp { return &core.TransposeExp{Arr: a} })(l, f, args, pos)
	if err != nil {
		return v, err
	}
	if a, ok := v.t.(*types.Array); ok && len(a.Dims) >= 2 {
		dims := append([]types.Dim{a.Dims[1], a.Dims[0]}, a.Dims[2:]...)
		v.t = &types.Array{Elem: a.Elem, Dims: dims}
	}
	return v, nil
}

func rotateB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	r, err := scalarOf(pos, args[0])
	if err != nil {
		return value{}, err
	}
	r = l.toI64(pos, r)
	return perComponent("rot", func(a *core.Var, _ []value) core.Exp { return &core.RotateExp{R: r, Arr: a} })(l, f, args, pos)
}

// flattenB merges the two outer dimensions.
func flattenB(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
	vars, err := arrayVars(pos, args[0])
	if err != nil {
		return value{}, err
	}
	atoms := make([]core.Atom, len(vars))
	for i, a := range vars {
		if a.Type.Rank < 2 {
			return value{}, source.Errorf(pos, "internal error: flatten of rank %d", a.Type.Rank)
		}
		shape, err := l.shape(pos, a)
		if err != nil {
			return value{}, err
		}
		nm := l.emit1(pos, "n", core.Scalar(core.I64), &core.BinOpExp{Op: core.Mul, T: core.I64, X: shape[0], Y: shape[1]})
		r := l.emit1(pos, "flat", core.ArrayOf(a.Type.Elem, a.Type.Rank-1), &core.ReshapeExp{Arr: a, Shape: append([]core.Atom{nm}, shape[2:]...)})
		l.knowSizes([]*core.Var{r}, nm)
		atoms[i] = r
	}
	t := args[0].t
	if a, ok := t.(*types.Array); ok && len(a.Dims) >= 2 {
		t = &types.Array{Elem: a.Elem, Dims: append([]types.Dim{types.AnyDim}, a.Dims[2:]...)}
	}
	return value{t: t, atoms: atoms}, nil
}

// shape emits the size of every dimension of a.
func (l *lowerer) shape(pos source.Pos, a *core.Var) ([]core.Atom, error) {
	out := make([]core.Atom, a.Type.Rank)
	for d := range out {
		n, err := l.size(pos, a, d)
		if err != nil {
			return nil, err
		}
		out[d] = n
	}
	return out, nil
}

// flattenNB is flatten_3d (k=3) or flatten_4d (k=4): flatten k-1 times.
func flattenNB(k int) builtinImpl {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		v := args[0]
		for range k - 1 {
			var err error
			if v, err = flattenB(l, f, []value{v}, pos); err != nil {
				return value{}, err
			}
		}
		return v, nil
	}
}

// unflattenB is `unflatten xs` (k=2), unflatten_3d (k=3) or unflatten_4d
// (k=4), whose sizes come from the type the checker gave the application
// (Futhark: the argument's [n*m]t, or `unflatten xs : [n][m]t`), with the
// element count checked at run time.
func unflattenB(k int) builtinImpl {
	return func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
		dims, sizes, err := resultSizes(l, f, k, pos)
		if err != nil {
			return value{}, err
		}
		vars, err := arrayVars(pos, args[0])
		if err != nil {
			return value{}, err
		}
		mul := func(x, y core.Atom) core.Atom {
			return l.emit1(pos, "n", core.Scalar(core.I64), &core.BinOpExp{Op: core.Mul, T: core.I64, X: x, Y: y})
		}
		atoms := make([]core.Atom, len(vars))
		for i, a := range vars {
			shape, err := l.shape(pos, a)
			if err != nil {
				return value{}, err
			}
			if i == 0 {
				// As Futhark's unflatten_3d, unflatten (unflatten xs):
				// [n*m*l] splits into [n*m][l], then [n*m] into [n][m].
				outers := make([]core.Atom, k)
				outers[0] = sizes[0]
				for j := 1; j < k; j++ {
					outers[j] = mul(outers[j-1], sizes[j])
				}
				length := shape[0]
				for j := k - 1; j >= 1; j-- {
					l.unflattenCheck(pos, []core.Atom{outers[j-1], sizes[j]}, outers[j], length)
					length = outers[j-1]
				}
			}
			atoms[i] = l.emit1(pos, "unflat", core.ArrayOf(a.Type.Elem, a.Type.Rank+k-1), &core.ReshapeExp{Arr: a, Shape: append(append([]core.Atom{}, sizes...), shape[1:]...)})
		}
		t := args[0].t
		if a, ok := t.(*types.Array); ok {
			t = &types.Array{Elem: a.Elem, Dims: append(append([]types.Dim{}, dims...), a.Dims[1:]...)}
		}
		return value{t: t, atoms: atoms}, nil
	}
}

// resultSizes are the first k sizes of the type the checker gave a
// builtin's application (unflatten's, rep's), where the context fixes
// them, and their values.
func resultSizes(l *lowerer, f *fnVal, k int, pos source.Pos) ([]types.Dim, []core.Atom, error) {
	var dims []types.Dim
	for _, t := range []types.Type{f.hint, arrowResult(f.typ)} {
		if a, ok := t.(*types.Array); ok && len(a.Dims) >= k {
			dims = a.Dims[:k]
			break
		}
	}
	if dims == nil {
		return nil, nil, source.Errorf(pos, "%s: the result sizes are unknown; ascribe the result type", f.name)
	}
	sizes := make([]core.Atom, k)
	for i, d := range dims {
		var obj *types.Object
		if i < len(f.sizes) {
			obj = f.sizes[i]
		}
		switch {
		case obj != nil || d.Name != "":
			var v *value
			ok := false
			if obj != nil {
				v, ok = f.sc.lookupObj(obj)
				if !ok {
					d.Name = obj.Name
				}
			}
			if !ok {
				v, ok = f.sc.lookupName(d.Name)
			}
			if !ok || v.pending || len(v.atoms) != 1 {
				return nil, nil, source.Errorf(pos, "%s: the size %s is not known here", f.name, d.Name)
			}
			sizes[i] = l.toI64(pos, v.atoms[0])
		case d.Const >= 0:
			sizes[i] = core.IntConst(core.I64, d.Const)
		default:
			return nil, nil, source.Errorf(pos, "%s: the result sizes are unknown; ascribe the result type", f.name)
		}
	}
	return dims, sizes, nil
}

// repB is `rep x`, Futhark's replicate whose size comes from the context.
func repB(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	dims, sizes, err := resultSizes(l, f, 1, pos)
	if err != nil {
		return value{}, err
	}
	v, err := replicateB(l, f, []value{primValue(sizes[0]), args[0]}, pos)
	if err == nil {
		v.t = liftType(args[0].t, dims[0])
	}
	return v, err
}

// unflattenCheck asserts that n*m is the length and that neither size is
// negative (-2 by -2 has the right product), with Futhark's message.
func (l *lowerer) unflattenCheck(pos source.Pos, nm []core.Atom, prod, length core.Atom) {
	b := func(op core.BinOp, t core.PrimType, x, y core.Atom) core.Atom {
		return l.emit1(pos, core.BinOps[op].Name, core.Scalar(core.Bool), &core.BinOpExp{Op: op, T: t, X: x, Y: y})
	}
	zero := core.IntConst(core.I64, 0)
	ok := b(core.Eq, core.I64, prod, length)
	for _, d := range nm {
		if c, isConst := d.(core.Const); isConst && int64(c.Bits) >= 0 {
			continue
		}
		ok = b(core.LogAnd, core.Bool, ok, b(core.Ge, core.I64, d, zero))
	}
	if c, isConst := ok.(core.Const); isConst && c.Bits != 0 {
		return
	}
	l.stmts = append(l.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: ok,
		Msg:  "Cannot unflatten array of shape [%v] to array of shape [%v][%v]",
		Args: []core.Atom{length, nm[0], nm[1]}}, Pos: pos})
}

// arrowResult is the final result type of a function type.
func arrowResult(t types.Type) types.Type {
	for {
		a, ok := t.(*types.Arrow)
		if !ok {
			return t
		}
		t = a.Ret
	}
}

// concat is `concat xs ys` and `xs ++ ys`, component by component.
func concat(l *lowerer, pos source.Pos, args []value) (value, error) {
	var comps [][]*core.Var
	for _, a := range args {
		vars, err := arrayVars(pos, a)
		if err != nil {
			return value{}, err
		}
		if len(comps) > 0 && len(vars) != len(comps[0]) {
			return value{}, source.Errorf(pos, "internal error: concatenating arrays of different element types")
		}
		comps = append(comps, vars)
	}
	atoms := make([]core.Atom, len(comps[0]))
	for i := range atoms {
		arrs := make([]*core.Var, len(comps))
		for k := range comps {
			arrs[k] = comps[k][i]
		}
		atoms[i] = l.emit1(pos, "cat", arrs[0].Type, &core.ConcatExp{Arrs: arrs})
	}
	t := args[0].t
	if a, ok := t.(*types.Array); ok {
		t = &types.Array{Elem: a.Elem, Dims: append([]types.Dim{types.AnyDim}, a.Dims[1:]...)}
	}
	return value{t: t, atoms: atoms}, nil
}

// zipB costs nothing but a size check: an array of tuples is already a
// tuple of arrays.
func zipB(name string) func(l *lowerer, f *fnVal, args []value, pos source.Pos) (value, error) {
	return func(l *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
		in, err := l.soacInputs(pos, name, args)
		if err != nil {
			return value{}, err
		}
		elems := make([]types.Type, len(args))
		for i := range args {
			elems[i] = in.rows[i]
		}
		return value{t: liftType(&types.Tuple{Elems: elems}, outerDim(args[0].t)), atoms: varsToAtoms(in.arrs)}, nil
	}
}

func unzipB(_ *lowerer, _ *fnVal, args []value, pos source.Pos) (value, error) {
	comps, err := tupleComponents(pos, args[0])
	if err != nil {
		return value{}, err
	}
	return tupleValue(comps), nil
}
