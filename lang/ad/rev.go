package ad

import (
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Reverse mode proper: a forward sweep copies the lambda's statements
// (every intermediate stays in scope: the body is one sequence of
// statements, so the "tape" is the copied statements themselves), then the
// return sweep walks the statements backwards and accumulates the adjoint
// of every variable from the adjoints of the statements that use it, with
// the partial derivatives of rules.go. Nested bodies (the branches of an
// if, the lambda of a map) are recomputed in the return sweep and
// reversed there, their free variables' adjoints becoming results (of the
// branch; of the map, summed over its elements by a reduction).
//
// A reduction with a general operator uses the exclusive prefix and
// suffix of its operands: element i contributes op(op(pre_i, x_i), suf_i),
// whose pullback at x_i (small: the operator's arity) is computed by
// forward passes. Loops are taped: a loop runs again recording its state
// at every iteration, and a reverse loop sweeps the iterations back.
// Scans and histograms with + and scatters have direct rules. Recursive
// calls, filters and scans or histograms with other operators have no
// return-sweep rule here: for them VJP falls back to one forward pass per
// component of the argument (ad.go).

// errUnsupported marks a construct the return sweep has no rule for.
type errUnsupported struct{ pos source.Pos }

func (e errUnsupported) Error() string { return "unsupported in reverse mode" }

// rev is the state of one return sweep.
type rev struct {
	*fwd
	adj map[string]core.Atom // old name -> adjoint (nil: zero)
	// active names the variables whose adjoints are wanted: those the
	// differentiated lambda binds (free variables of the lambda are
	// constants).
	active      map[string]bool
	unsupported bool
}

func (r *rev) unsup() { r.unsupported = true }

// addAdj adds c to the adjoint of the old atom a.
func (r *rev) addAdj(a core.Atom, c core.Atom) {
	v, ok := a.(*core.Var)
	if !ok || c == nil || !r.active[v.Name] || !differentiable(v.Type.Elem) {
		return
	}
	if old := r.adj[v.Name]; old != nil {
		c = r.addV(old, c)
	}
	r.adj[v.Name] = c
}

// addV adds two values of the same shape, elementwise.
func (r *rev) addV(a, b core.Atom) core.Atom {
	t := a.AtomType()
	if t.Rank == 0 {
		return r.add(a, b)
	}
	av, bv := a.(*core.Var), b.(*core.Var)
	w := r.let("n", &core.SizeExp{Arr: av, Dim: 0})
	p, q := r.fresh("a", t.Row()), r.fresh("b", t.Row())
	body := r.nested(func() []core.Atom { return []core.Atom{r.addV(p, q)} })
	return r.let("adj", &core.Screma{W: w, Arrs: []*core.Var{av, bv},
		Map: &core.Lambda{Params: []*core.Var{p, q}, Body: body, Ret: []core.Type{t.Row()}}})
}

// adjOf is the adjoint of an old atom, nil for zero.
func (r *rev) adjOf(a core.Atom) core.Atom {
	if v, ok := a.(*core.Var); ok {
		return r.adj[v.Name]
	}
	return nil
}

// markActive marks the variables b binds (not inside nested bodies: their
// names are out of scope outside).
func (r *rev) markActive(stmts []*core.Stmt) {
	for _, s := range stmts {
		for _, p := range s.Pat {
			r.active[p.Name] = true
		}
	}
}

// forward copies stmts (primal only) and marks what they bind active.
func (r *rev) forward(stmts []*core.Stmt) {
	r.markActive(stmts)
	for _, s := range stmts {
		r.stmt(s)
	}
}

// backward is the return sweep over stmts, whose forward copies exist.
func (r *rev) backward(stmts []*core.Stmt) {
	for i := len(stmts) - 1; i >= 0 && !r.unsupported && r.err == nil; i-- {
		s := stmts[i]
		some := false
		for _, p := range s.Pat {
			some = some || r.adj[p.Name] != nil
		}
		if !some {
			continue
		}
		saved := r.pos
		r.pos = s.Pos
		r.stmtRev(s)
		r.pos = saved
	}
}

// revVJP is VJP by a return sweep: params (x..., dy...), results (y...,
// dx...). It reports false where the sweep meets a construct it has no
// rule for.
func revVJP(prog *core.Program, fresh Fresh, l *core.Lambda, pos source.Pos) (*core.Lambda, bool, error) {
	r := &rev{fwd: newFwd(prog, fresh, pos), adj: map[string]core.Atom{}, active: map[string]bool{}}
	xs := make([]*core.Var, len(l.Params))
	for i, p := range l.Params {
		xs[i] = fresh(baseName(p.Name), p.Type)
		r.names[p.Name] = xs[i]
		r.active[p.Name] = true
	}
	dys := make([]*core.Var, len(l.Ret))
	for i, t := range l.Ret {
		dys[i] = fresh("dy", t)
	}
	body := r.nested(func() []core.Atom {
		r.forward(l.Body.Stmts)
		y := r.atoms(l.Body.Result)
		for i, res := range l.Body.Result {
			r.addAdj(res, dys[i])
		}
		r.backward(l.Body.Stmts)
		out := append([]core.Atom{}, y...)
		for i, p := range l.Params {
			out = append(out, r.orZero(r.adj[p.Name], xs[i]))
		}
		return out
	})
	if r.err != nil {
		return nil, false, r.err
	}
	if r.unsupported {
		return nil, false, nil
	}
	params := append(append([]*core.Var{}, xs...), dys...)
	return &core.Lambda{Params: params, Body: body, Ret: core.AtomTypes(body.Result)}, true, nil
}

// stmtRev propagates the adjoints of s's results to its operands.
func (r *rev) stmtRev(s *core.Stmt) {
	res := s.Pat
	switch e := s.Exp.(type) {
	case *core.AtomExp:
		r.addAdj(e.A, r.adjOf(res[0]))
	case *core.BinOpExp:
		if !differentiable(e.T) || core.BinOps[e.Op].Comparison {
			return
		}
		rule, ok := binRules[e.Op]
		if !ok {
			return
		}
		d := r.adjOf(res[0])
		px, py := rule(r.fwd, e.T, r.atom(e.X), r.atom(e.Y), r.atom(res[0]))
		if px != nil {
			r.addAdj(e.X, r.mul(d, px))
		}
		if py != nil {
			r.addAdj(e.Y, r.mul(d, py))
		}
	case *core.UnOpExp:
		if !differentiable(e.T) || !differentiable(core.UnOpResult(e.Op, e.T)) {
			return
		}
		if notDifferentiable[e.Op] {
			r.fail(s.Pos, "cannot differentiate %s: its derivative is not available", e.Op)
			return
		}
		if rule, ok := unRules[e.Op]; ok {
			r.addAdj(e.X, r.mul(r.adjOf(res[0]), rule(r.fwd, e.T, r.atom(e.X), r.atom(res[0]))))
		}
	case *core.ConvExp:
		if differentiable(e.From) && differentiable(e.To) {
			r.addAdj(e.X, r.let("adj", &core.ConvExp{From: e.To, To: e.From, X: r.adjOf(res[0])}))
		}
	case *core.IndexExp:
		if !r.active[e.Arr.Name] {
			return
		}
		d := r.adjOf(res[0])
		arr := r.vr(e.Arr)
		base := r.orZero(r.adjOf(e.Arr), arr).(*core.Var)
		base = r.let("adj", &core.CopyExp{Arr: base})
		idx := r.dims(e.Idx)
		cur := r.let("adj", &core.IndexExp{Arr: base, Idx: idx})
		sum := r.addV(cur, d)
		r.adj[e.Arr.Name] = nil
		r.addAdj(e.Arr, r.let("adj", &core.UpdateExp{Arr: base, Idx: idx, Val: sum}))
	case *core.UpdateExp:
		d := r.adjOf(res[0]).(*core.Var)
		idx := r.dims(e.Idx)
		r.addAdj(e.Val, r.let("adj", &core.IndexExp{Arr: d, Idx: idx}))
		val := r.atom(e.Val)
		dc := r.let("adj", &core.CopyExp{Arr: d})
		r.addAdj(e.Arr, r.let("adj", &core.UpdateExp{Arr: dc, Idx: idx, Val: r.zero(val)}))
	case *core.ArrayLitExp:
		d := r.adjOf(res[0]).(*core.Var)
		for i, el := range e.Elems {
			r.addAdj(el, r.let("adj", &core.IndexExp{Arr: d, Idx: []core.DimIndex{core.Fix(core.IntConst(core.I64, int64(i)))}}))
		}
	case *core.ReplicateExp:
		d := r.adjOf(res[0]).(*core.Var)
		r.addAdj(e.V, r.sumRows(d))
	case *core.ReshapeExp:
		d := r.adjOf(res[0]).(*core.Var)
		arr := r.vr(e.Arr)
		shape := make([]core.Atom, arr.Type.Rank)
		for k := range shape {
			shape[k] = r.let("n", &core.SizeExp{Arr: arr, Dim: k})
		}
		r.addAdj(e.Arr, r.let("adj", &core.ReshapeExp{Arr: d, Shape: shape}))
	case *core.TransposeExp:
		r.addAdj(e.Arr, r.let("adj", &core.TransposeExp{Arr: r.adjOf(res[0]).(*core.Var)}))
	case *core.ReverseExp:
		r.addAdj(e.Arr, r.let("adj", &core.ReverseExp{Arr: r.adjOf(res[0]).(*core.Var)}))
	case *core.RotateExp:
		neg := r.un(core.Neg, r.atom(e.R))
		r.addAdj(e.Arr, r.let("adj", &core.RotateExp{R: neg, Arr: r.adjOf(res[0]).(*core.Var)}))
	case *core.CopyExp:
		r.addAdj(e.Arr, r.adjOf(res[0]))
	case *core.ConcatExp:
		d := r.adjOf(res[0]).(*core.Var)
		var start core.Atom = core.IntConst(core.I64, 0)
		one := core.IntConst(core.I64, 1)
		for _, a := range e.Arrs {
			n := r.let("n", &core.SizeExp{Arr: r.vr(a), Dim: 0})
			end := r.add(start, n)
			r.addAdj(a, r.let("adj", &core.IndexExp{Arr: d, Idx: []core.DimIndex{{Start: start, End: end, Stride: one}}}))
			start = end
		}
	case *core.SizeExp, *core.IotaExp, *core.AssertExp:
	case *core.IfExp:
		r.ifRev(s, e)
	case *core.Screma:
		r.scremaRev(s, e)
	case *core.LoopExp:
		r.loopRev(s, e)
	case *core.Hist:
		r.histRev(s, e)
	case *core.Scatter:
		r.scatterRev(s, e)
	case *core.ApplyExp, *core.Filter, *core.Segmented, *core.MultiScan:
		r.unsup()
	default:
		r.unsup()
	}
}

// sumRows is the sum of the rows of an array (the adjoint of replicate).
func (r *rev) sumRows(d *core.Var) core.Atom {
	row := d.Type.Row()
	w := r.let("n", &core.SizeExp{Arr: d, Dim: 0})
	x, y := r.fresh("x", row), r.fresh("y", row)
	ob := r.nested(func() []core.Atom { return []core.Atom{r.addV(x, y)} })
	p := r.fresh("p", row)
	var ne core.Atom
	if row.Rank == 0 {
		ne = r.num(row.Elem, 0)
	} else {
		first := r.let("row", &core.IndexExp{Arr: d, Idx: []core.DimIndex{core.Fix(core.IntConst(core.I64, 0))}})
		ne = r.zero(first)
	}
	return r.let("sum", &core.Screma{W: w, Arrs: []*core.Var{d},
		Map:  &core.Lambda{Params: []*core.Var{p}, Body: &core.Body{Result: []core.Atom{p}}, Ret: []core.Type{row}},
		Reds: []*core.RedOp{{Lambda: &core.Lambda{Params: []*core.Var{x, y}, Body: ob, Ret: []core.Type{row}}, Neutral: []core.Atom{ne}, Comm: true}}})
}

// nestedRev reverses a nested body: it recomputes the body's statements
// (their names are out of scope here), seeds the adjoints of its results
// with seeds, sweeps back, and returns the adjoints of the active
// variables in free (nil where zero). The outer adjoints are untouched.
func (r *rev) nestedRev(b *core.Body, seeds []core.Atom, free []*core.Var) []core.Atom {
	savedAdj := r.adj
	r.adj = map[string]core.Atom{}
	r.forward(b.Stmts)
	for i, res := range b.Result {
		if seeds[i] != nil {
			r.addAdj(res, seeds[i])
		}
	}
	r.backward(b.Stmts)
	out := make([]core.Atom, len(free))
	for i, v := range free {
		out[i] = r.adj[v.Name]
	}
	r.adj = savedAdj
	return out
}

// activeFree is the free variables of e whose adjoints are wanted.
func (r *rev) activeFree(e core.Exp) []*core.Var {
	var out []*core.Var
	for _, v := range core.FreeVars(e) {
		if r.active[v.Name] && differentiable(v.Type.Elem) {
			out = append(out, v)
		}
	}
	return out
}

// lambdaFree is the free variables of l whose adjoints are wanted.
func (r *rev) lambdaFree(l *core.Lambda) []*core.Var {
	params := map[string]bool{}
	for _, p := range l.Params {
		params[p.Name] = true
	}
	var out []*core.Var
	for _, v := range r.activeFree(&core.IfExp{Cond: core.BoolConst(true), Then: l.Body, Else: &core.Body{}}) {
		if !params[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

func (r *rev) ifRev(s *core.Stmt, e *core.IfExp) {
	free := r.activeFree(e)
	seeds := make([]core.Atom, len(s.Pat))
	for i, p := range s.Pat {
		seeds[i] = r.adjOf(p)
	}
	branch := func(b *core.Body) *core.Body {
		return r.nested(func() []core.Atom {
			adjs := r.nestedRev(b, seeds, free)
			out := make([]core.Atom, len(free))
			for i, v := range free {
				out[i] = r.orZero(adjs[i], r.vr(v))
			}
			return out
		})
	}
	then, els := branch(e.Then), branch(e.Else)
	if len(free) == 0 {
		return
	}
	out := r.bindTypes("adj", core.AtomTypes(then.Result), &core.IfExp{Cond: r.atom(e.Cond), Then: then, Else: els, Ret: core.AtomTypes(then.Result)})
	for i, v := range free {
		r.addAdj(v, out[i])
	}
}

// scremaRev reverses a Screma without scans: the reductions' operands are
// recomputed as arrays by the map, their adjoints come from the reduction
// rules, and then the map is reversed.
func (r *rev) scremaRev(s *core.Stmt, e *core.Screma) {
	if e.Post != nil {
		r.unsup()
		return
	}
	for _, op := range e.Scans {
		if !isAddLambda(op.Lambda, len(op.Neutral)) {
			r.unsup()
			return
		}
	}
	w := r.atom(e.W)
	ns, nr := e.NumScanned(), e.NumReduced()
	// The adjoints of the map's results: the scans' and reductions'
	// operands, then the map-out arrays (the statement's results are in
	// the same order).
	mapAdj := make([]core.Atom, len(e.Map.Ret))
	for j := ns + nr; j < len(e.Map.Ret); j++ {
		mapAdj[j] = r.adjOf(s.Pat[j])
	}
	// A scan with + : the adjoint of operand i is the sum of the result
	// adjoints from i on, a scan of the reversed adjoints.
	k := 0
	for _, op := range e.Scans {
		for j, ne := range op.Neutral {
			if d := r.adjOf(s.Pat[k+j]); d != nil {
				rd := r.let("rev", &core.ReverseExp{Arr: d.(*core.Var)})
				t := ne.AtomType()
				x, y := r.fresh("x", t), r.fresh("y", t)
				ob := r.nested(func() []core.Atom { return []core.Atom{r.addV(x, y)} })
				p := r.fresh("p", t)
				sc := r.let("adj", &core.Screma{W: w, Arrs: []*core.Var{rd},
					Map:   &core.Lambda{Params: []*core.Var{p}, Body: &core.Body{Result: []core.Atom{p}}, Ret: []core.Type{t}},
					Scans: []*core.ScanOp{{Lambda: &core.Lambda{Params: []*core.Var{x, y}, Body: ob, Ret: []core.Type{t}}, Neutral: []core.Atom{r.zero(r.atom(ne))}}}})
				mapAdj[k+j] = r.let("adj", &core.ReverseExp{Arr: sc})
			}
		}
		k += len(op.Neutral)
	}
	if nr > 0 {
		// Recompute the reductions' operands as arrays.
		var index *core.Var
		if e.Index != nil {
			index = r.rebind(e.Index)
		}
		ml := r.lambda(e.Map, make([]bool, len(e.Arrs)))
		ml.body.Result = ml.body.Result[ns : ns+nr]
		ys := r.bindTypes("red_in", liftTypes(e.Map.Ret[ns:ns+nr]), &core.Screma{W: w, Arrs: r.vars(e.Arrs), Index: index,
			Map: &core.Lambda{Params: ml.params, Body: ml.body, Ret: e.Map.Ret[ns : ns+nr]}})
		k := 0
		for _, op := range e.Reds {
			n := len(op.Neutral)
			seeds := make([]core.Atom, n)
			some := false
			for j := 0; j < n; j++ {
				seeds[j] = r.adjOf(s.Pat[ns+k+j])
				some = some || seeds[j] != nil
			}
			if some {
				adjs := r.reduceRev(w, op, r.atoms(op.Neutral), ys[k:k+n], seeds)
				copy(mapAdj[ns+k:ns+k+n], adjs)
			}
			k += n
		}
	}
	r.mapRev(w, e, mapAdj)
}

func liftTypes(ts []core.Type) []core.Type {
	out := make([]core.Type, len(ts))
	for i, t := range ts {
		out[i] = t.Lift()
	}
	return out
}

// mapRev reverses the map of e given the adjoints of its results (arrays;
// nil where zero): a map over the elements and their results' adjoints
// recomputes each element's body and sweeps it back, giving the adjoints
// of the element (arrays) and those of the active free variables, which a
// reduction with + sums over the elements.
func (r *rev) mapRev(w core.Atom, e *core.Screma, adjs []core.Atom) {
	some := false
	for _, a := range adjs {
		some = some || a != nil
	}
	if !some {
		return
	}
	free := r.lambdaFree(e.Map)
	arrs := r.vars(e.Arrs)
	params := make([]*core.Var, len(e.Map.Params))
	for i, p := range e.Map.Params {
		params[i] = r.fresh(baseName(p.Name), p.Type)
		r.names[p.Name] = params[i]
		r.active[p.Name] = true
	}
	var index *core.Var
	if e.Index != nil {
		index = r.rebind(e.Index)
	}
	inArrs := append([]*core.Var{}, arrs...)
	seeds := make([]core.Atom, len(adjs))
	var seedParams []*core.Var
	for j, a := range adjs {
		if a != nil {
			av := a.(*core.Var)
			inArrs = append(inArrs, av)
			p := r.fresh("adj", av.Type.Row())
			seedParams = append(seedParams, p)
			seeds[j] = p
		}
	}
	// Wanted: the adjoints of the map's parameters (arrays of them), then
	// those of the free variables (summed).
	wantVars := append(append([]*core.Var{}, e.Map.Params...), free...)
	var freeNe []core.Atom
	for _, v := range free {
		freeNe = append(freeNe, r.zero(r.vr(v)))
	}
	body := r.nested(func() []core.Atom {
		got := r.nestedRev(e.Map.Body, seeds, wantVars)
		var out []core.Atom
		np := len(e.Map.Params)
		for i, v := range free {
			out = append(out, r.orZero(got[np+i], r.vr(v)))
		}
		for i := range e.Map.Params {
			out = append(out, r.orZero(got[i], params[i]))
		}
		return out
	})
	ns := &core.Screma{W: w, Arrs: inArrs, Index: index,
		Map: &core.Lambda{Params: append(append([]*core.Var{}, params...), seedParams...), Body: body, Ret: core.AtomTypes(body.Result)}}
	for i, v := range free {
		t := v.Type
		x, y := r.fresh("x", t), r.fresh("y", t)
		ob := r.nested(func() []core.Atom { return []core.Atom{r.addV(x, y)} })
		ns.Reds = append(ns.Reds, &core.RedOp{Lambda: &core.Lambda{Params: []*core.Var{x, y}, Body: ob, Ret: []core.Type{t}},
			Neutral: []core.Atom{freeNe[i]}, Comm: true})
	}
	ts, err := core.ExpTypes(ns)
	if err != nil {
		r.fail(r.pos, "internal error: %v", err)
		return
	}
	out := r.bindTypes("adj", ts, ns)
	for i, v := range free {
		r.addAdj(v, out[i])
	}
	for i, a := range e.Arrs {
		r.addAdj(a, out[len(free)+i])
	}
}

// isAddLambda reports whether op adds its two tuples componentwise:
// `(+)` on scalars or tuples of scalars, or `map2 (+)` (nested) on arrays.
func isAddLambda(op *core.Lambda, k int) bool {
	// Size checks (map2's assertion that the rows match) compute nothing.
	var stmts []*core.Stmt
	for _, st := range op.Body.Stmts {
		switch e := st.Exp.(type) {
		case *core.SizeExp, *core.AssertExp:
			continue
		case *core.BinOpExp:
			if core.BinOps[e.Op].Comparison {
				continue
			}
		}
		stmts = append(stmts, st)
	}
	if len(stmts) != k || len(op.Params) != 2*k || len(op.Body.Result) != k {
		return false
	}
	for j, st := range stmts {
		if len(st.Pat) != 1 {
			return false
		}
		if v, ok := op.Body.Result[j].(*core.Var); !ok || v.Name != st.Pat[0].Name {
			return false
		}
		a, b := op.Params[j], op.Params[k+j]
		switch e := st.Exp.(type) {
		case *core.BinOpExp:
			x, xok := e.X.(*core.Var)
			y, yok := e.Y.(*core.Var)
			if e.Op != core.Add || !xok || !yok || x.Name != a.Name || y.Name != b.Name {
				return false
			}
		case *core.Screma:
			if len(e.Scans)+len(e.Reds) > 0 || e.Post != nil || e.Index != nil || len(e.Arrs) != 2 ||
				e.Arrs[0].Name != a.Name || e.Arrs[1].Name != b.Name || !isAddLambda(e.Map, 1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// reduceRev gives the adjoints of a reduction's operand arrays ys from
// the adjoints of its results (seeds, nil where zero).
func (r *rev) reduceRev(w core.Atom, op *core.RedOp, ne []core.Atom, ys []*core.Var, seeds []core.Atom) []core.Atom {
	k := len(ne)
	out := make([]core.Atom, k)
	if isAddLambda(op.Lambda, k) {
		for j, sd := range seeds {
			if sd != nil {
				out[j] = r.let("adj", &core.ReplicateExp{N: w, V: sd})
			}
		}
		return out
	}
	for j := range seeds {
		if seeds[j] == nil {
			seeds[j] = r.zero(ne[j])
		}
	}
	ts := core.AtomTypes(ne)
	// Inclusive scans from the left, and from the right with the operands
	// swapped (op is associative, not necessarily commutative).
	ident := func() *core.Lambda {
		ps := make([]*core.Var, k)
		for j, t := range ts {
			ps[j] = r.fresh("x", t)
		}
		return &core.Lambda{Params: ps, Body: &core.Body{Result: varAtoms(ps)}, Ret: ts}
	}
	copyOp := func(swap bool) *core.Lambda {
		ps := make([]*core.Var, 2*k)
		for j := range ps {
			ps[j] = r.fresh("p", ts[j%k])
		}
		args := varAtoms(ps)
		if swap {
			args = append(append([]core.Atom{}, args[k:]...), args[:k]...)
		}
		body := r.nested(func() []core.Atom {
			res, _ := r.inline(op.Lambda, args, make([]core.Atom, 2*k))
			return res
		})
		return &core.Lambda{Params: ps, Body: body, Ret: ts}
	}
	left := r.bindTypes("pre", liftTypes(ts), &core.Screma{W: w, Arrs: ys, Map: ident(),
		Scans: []*core.ScanOp{{Lambda: copyOp(false), Neutral: ne}}})
	rys := make([]*core.Var, k)
	for j, y := range ys {
		rys[j] = r.let("rev", &core.ReverseExp{Arr: y})
	}
	right := r.bindTypes("suf", liftTypes(ts), &core.Screma{W: w, Arrs: rys, Map: ident(),
		Scans: []*core.ScanOp{{Lambda: copyOp(true), Neutral: ne}}})
	is := r.let("i", &core.IotaExp{N: w, Start: core.IntConst(core.I64, 0), Step: core.IntConst(core.I64, 1), T: core.I64})
	i := r.fresh("i", core.Scalar(core.I64))
	xs := make([]*core.Var, k)
	for j, t := range ts {
		xs[j] = r.fresh("x", t)
	}
	one := core.IntConst(core.I64, 1)
	body := r.nested(func() []core.Atom {
		// pre = i == 0 ? ne : left[i-1]; suf = i == w-1 ? ne : right[w-2-i].
		pick := func(arrs []*core.Var, at, edge core.Atom) []core.Atom {
			c := r.bin(core.Eq, i, edge)
			then := &core.Body{Result: ne}
			els := r.nested(func() []core.Atom {
				var vs []core.Atom
				for _, a := range arrs {
					vs = append(vs, r.let("e", &core.IndexExp{Arr: a, Idx: []core.DimIndex{core.Fix(at)}}))
				}
				return vs
			})
			return varAtoms(r.bindTypes("edge", ts, &core.IfExp{Cond: c, Then: then, Else: els, Ret: ts}))
		}
		im1 := r.sub(i, one)
		last := r.sub(w, one)
		pre := pick(left, im1, core.IntConst(core.I64, 0))
		suf := pick(right, r.sub(r.sub(w, core.IntConst(core.I64, 2)), i), last)
		// g x = op (op pre x) suf, pulled back at x by forward passes.
		gx := make([]*core.Var, k)
		for j, t := range ts {
			gx[j] = r.fresh("g", t)
		}
		gb := r.nested(func() []core.Atom {
			r1, _ := r.inline(op.Lambda, append(append([]core.Atom{}, pre...), varAtoms(gx)...), make([]core.Atom, 2*k))
			r2, _ := r.inline(op.Lambda, append(append([]core.Atom{}, r1...), suf...), make([]core.Atom, 2*k))
			return r2
		})
		vl, err := basisVJP(r.prog, r.fresh, &core.Lambda{Params: gx, Body: gb, Ret: ts}, r.pos)
		if err != nil {
			if r.err == nil {
				r.err = err
			}
			return seeds
		}
		res := r.inlineLambda(vl, append(varAtoms(xs), seeds...))
		return res[k:]
	})
	m := &core.Lambda{Params: append([]*core.Var{i}, xs...), Body: body, Ret: ts}
	adj := r.bindTypes("adj", liftTypes(ts), &core.Screma{W: w, Arrs: append([]*core.Var{is}, ys...), Map: m})
	for j := range out {
		out[j] = adj[j]
	}
	return out
}

// inlineLambda emits the statements of l, whose variables are fresh, with
// its parameters bound to args, and returns its results.
func (f *fwd) inlineLambda(l *core.Lambda, args []core.Atom) []core.Atom {
	for i, p := range l.Params {
		f.stmts = append(f.stmts, &core.Stmt{Pat: []*core.Var{p}, Exp: &core.AtomExp{A: args[i]}, Pos: f.pos})
	}
	f.stmts = append(f.stmts, l.Body.Stmts...)
	return l.Body.Result
}

// loopRev reverses a for loop with a tape: the loop runs again recording
// its state at the start of every iteration (an array of n states), then
// a loop from the last iteration to the first recomputes each iteration's
// body from its recorded state and sweeps it back, carrying the adjoints
// of the state and accumulating those of the body's free variables.
func (r *rev) loopRev(s *core.Stmt, e *core.LoopExp) {
	fl := core.ForOf(e.Form)
	if wl := core.WhileOf(e.Form); wl != nil {
		// A while loop runs again counting its iterations, and is then
		// reversed as a for loop of that many.
		params := r.rebindAll(e.Params)
		c := r.fresh("count", core.Scalar(core.I64))
		body := r.nested(func() []core.Atom {
			res, _ := r.body(e.Body)
			return append(res, r.add(c, core.IntConst(core.I64, 1)))
		})
		out := r.bindTypes("count", append(core.TypesOf(e.Params), c.Type), &core.LoopExp{
			Params: append(params, c), Init: append(r.atoms(e.Init), core.IntConst(core.I64, 0)),
			Form: &core.WhileLoop{Cond: r.vr(wl.Cond)}, Body: body})
		fl = &core.ForLoop{I: r.fresh("i", core.Scalar(core.I64)), Bound: out[len(out)-1]}
	}
	if fl == nil {
		r.unsup()
		return
	}
	n := r.atom(fl.Bound)
	if n.AtomType().Elem != core.I64 {
		n = r.let("n", &core.ConvExp{From: n.AtomType().Elem, To: core.I64, X: n})
	}
	// The taping loop: state, then one tape per state variable.
	init := r.atoms(e.Init)
	params := make([]*core.Var, len(e.Params))
	for i, p := range e.Params {
		params[i] = r.fresh(baseName(p.Name), p.Type)
		r.names[p.Name] = params[i]
		r.active[p.Name] = true
	}
	tapes := make([]*core.Var, len(e.Params))
	tapeInit := make([]core.Atom, len(e.Params))
	for i, p := range e.Params {
		tapes[i] = r.fresh("tape", p.Type.Lift())
		tapeInit[i] = r.let("tape", &core.ReplicateExp{N: n, V: init[i]})
	}
	iv := r.fresh("i", fl.I.Type)
	r.names[fl.I.Name] = iv
	i64 := func(a core.Atom) core.Atom {
		if a.AtomType().Elem == core.I64 {
			return a
		}
		return r.let("i", &core.ConvExp{From: a.AtomType().Elem, To: core.I64, X: a})
	}
	tbody := r.nested(func() []core.Atom {
		var rec []core.Atom
		ii := i64(iv)
		for k, t := range tapes {
			rec = append(rec, r.let("tape", &core.UpdateExp{Arr: t, Idx: []core.DimIndex{core.Fix(ii)}, Val: params[k]}))
		}
		res, _ := r.body(e.Body)
		return append(res, rec...)
	})
	allParams := append(append([]*core.Var{}, params...), tapes...)
	allInit := append(append([]core.Atom{}, init...), tapeInit...)
	out := r.bindTypes("taped", core.TypesOf(allParams), &core.LoopExp{Params: allParams, Init: allInit,
		Form: &core.ForLoop{I: iv, Bound: r.atom(fl.Bound)}, Body: tbody})
	recorded := out[len(e.Params):]

	// The reverse loop: the state's adjoints, then the free variables'.
	free := r.lambdaFree(&core.Lambda{Params: append([]*core.Var{fl.I}, e.Params...), Body: e.Body})
	adjParams := make([]*core.Var, len(e.Params))
	adjInit := make([]core.Atom, len(e.Params))
	for i, p := range e.Params {
		adjParams[i] = r.fresh("adj", p.Type)
		adjInit[i] = r.orZero(r.adjOf(s.Pat[i]), r.vr(s.Pat[i]))
	}
	freeParams := make([]*core.Var, len(free))
	freeInit := make([]core.Atom, len(free))
	for i, v := range free {
		freeParams[i] = r.fresh("adj", v.Type)
		freeInit[i] = r.zero(r.vr(v))
	}
	jv := r.fresh("j", core.Scalar(core.I64))
	rbody := r.nested(func() []core.Atom {
		// Iteration i = n-1-j, from its recorded state.
		last := r.sub(n, core.IntConst(core.I64, 1))
		i := r.sub(last, jv)
		var iOld core.Atom = i
		if fl.I.Type.Elem != core.I64 {
			iOld = r.let("i", &core.ConvExp{From: core.I64, To: fl.I.Type.Elem, X: i})
		}
		r.names[fl.I.Name] = iOld
		for k, p := range e.Params {
			r.names[p.Name] = r.let(baseName(p.Name), &core.IndexExp{Arr: recorded[k], Idx: []core.DimIndex{core.Fix(i)}})
		}
		want := append(append([]*core.Var{}, e.Params...), free...)
		got := r.nestedRev(e.Body, varAtoms(adjParams), want)
		var res []core.Atom
		for k, p := range e.Params {
			res = append(res, r.orZero(got[k], r.vr(p)))
		}
		for k := range free {
			g := got[len(e.Params)+k]
			if g == nil {
				res = append(res, freeParams[k])
			} else {
				res = append(res, r.addV(freeParams[k], g))
			}
		}
		return res
	})
	// nestedRev seeds with adjParams as atoms; a zero seed is still a
	// variable here, which is correct (it holds zeros).
	rp := append(append([]*core.Var{}, adjParams...), freeParams...)
	ri := append(append([]core.Atom{}, adjInit...), freeInit...)
	adj := r.bindTypes("adj", core.TypesOf(rp), &core.LoopExp{Params: rp, Init: ri,
		Form: &core.ForLoop{I: jv, Bound: n}, Body: rbody})
	for k := range e.Params {
		r.addAdj(e.Init[k], adj[k])
	}
	for k, v := range free {
		r.addAdj(v, adj[len(e.Params)+k])
	}
}

// recomputeMap runs a SOAC's map lambda again as a map, giving all its
// results as arrays.
func (r *rev) recomputeMap(w core.Atom, arrs []*core.Var, index *core.Var, m *core.Lambda) []*core.Var {
	var ni *core.Var
	if index != nil {
		ni = r.rebind(index)
	}
	ml := r.lambda(m, make([]bool, len(arrs)))
	return r.bindTypes("recomputed", liftTypes(m.Ret), &core.Screma{W: w, Arrs: r.vars(arrs), Index: ni,
		Map: &core.Lambda{Params: ml.params, Body: ml.body, Ret: m.Ret}})
}

// gatherAdj is, for every index of is, the row of adj at that index, or
// zero where the index is outside adj (the writes a scatter or histogram
// ignored).
//
// With winner non-nil (a scatter's), element k gets the adjoint only where
// winner at its index is k: of several writes to one position, only the
// one that took effect gets its adjoint.
func (r *rev) gatherAdj(w core.Atom, is *core.Var, adj *core.Var, winner *core.Var) *core.Var {
	row := adj.Type.Row()
	n := r.let("n", &core.SizeExp{Arr: adj, Dim: 0})
	var zero core.Atom
	if row.Rank == 0 {
		zero = r.zero(r.fresh("z", row))
	} else {
		// A zero row shaped like adj's rows (adj has at least one row
		// wherever an index is inside it).
		zero = nil
	}
	ix := r.fresh("ix", core.Scalar(core.I64))
	k := r.fresh("k", core.Scalar(core.I64))
	body := r.nested(func() []core.Atom {
		in := r.bin(core.LogAnd, r.bin(core.Ge, ix, core.IntConst(core.I64, 0)), r.bin(core.Lt, ix, n))
		if winner != nil {
			// Bounds first: winner is indexed only inside them.
			in = r.let("won", &core.IfExp{Cond: in, Ret: []core.Type{core.Scalar(core.Bool)},
				Then: r.nested(func() []core.Atom {
					wk := r.let("w", &core.IndexExp{Arr: winner, Idx: []core.DimIndex{core.Fix(ix)}})
					return []core.Atom{r.bin(core.Eq, wk, k)}
				}),
				Else: &core.Body{Result: []core.Atom{core.BoolConst(false)}}})
		}
		then := r.nested(func() []core.Atom {
			return []core.Atom{r.let("adj", &core.IndexExp{Arr: adj, Idx: []core.DimIndex{core.Fix(ix)}})}
		})
		els := r.nested(func() []core.Atom {
			if zero != nil {
				return []core.Atom{zero}
			}
			first := r.let("row", &core.IndexExp{Arr: adj, Idx: []core.DimIndex{core.Fix(core.IntConst(core.I64, 0))}})
			return []core.Atom{r.zero(first)}
		})
		return []core.Atom{r.let("adj", &core.IfExp{Cond: in, Then: then, Else: els, Ret: []core.Type{row}})}
	})
	ks := r.let("k", &core.IotaExp{N: w, Start: core.IntConst(core.I64, 0), Step: core.IntConst(core.I64, 1), T: core.I64})
	return r.let("adj", &core.Screma{W: w, Arrs: []*core.Var{is, ks},
		Map: &core.Lambda{Params: []*core.Var{ix, k}, Body: body, Ret: []core.Type{row}}})
}

// histRev reverses reduce_by_index with + : a bin's adjoint flows to its
// initial value and to every value that landed in it.
func (r *rev) histRev(s *core.Stmt, e *core.Hist) {
	for _, op := range e.Ops {
		if !isAddLambda(op.Lambda, len(op.Neutral)) {
			r.unsup()
			return
		}
	}
	w := r.atom(e.W)
	outs := r.recomputeMap(w, e.Arrs, e.Index, e.Map)
	mapAdj := make([]core.Atom, len(e.Map.Ret))
	k, o := 0, 0
	for _, op := range e.Ops {
		is := outs[k]
		for j, d := range op.Dests {
			adj := r.adjOf(s.Pat[o+j])
			if adj == nil {
				continue
			}
			r.addAdj(d, adj)
			mapAdj[k+1+j] = r.gatherAdj(w, is, adj.(*core.Var), nil)
		}
		k += 1 + len(op.Dests)
		o += len(op.Dests)
	}
	r.mapRev(w, &core.Screma{W: e.W, Arrs: e.Arrs, Index: e.Index, Map: e.Map}, mapAdj)
}

// scatterRev reverses scatter: the written positions of a destination
// lose their adjoint, which flows to the values written there.
func (r *rev) scatterRev(s *core.Stmt, e *core.Scatter) {
	w := r.atom(e.W)
	outs := r.recomputeMap(w, e.Arrs, e.Index, e.Map)
	mapAdj := make([]core.Atom, len(e.Map.Ret))
	for j, d := range e.Dests {
		adj := r.adjOf(s.Pat[j])
		if adj == nil {
			continue
		}
		av := adj.(*core.Var)
		is, vals := outs[2*j], outs[2*j+1]
		n := r.let("n", &core.SizeExp{Arr: av, Dim: 0})
		ks := r.let("k", &core.IotaExp{N: w, Start: core.IntConst(core.I64, 0), Step: core.IntConst(core.I64, 1), T: core.I64})
		ix, kv := r.fresh("ix", core.Scalar(core.I64)), r.fresh("k", core.Scalar(core.I64))
		none := r.let("winner", &core.ReplicateExp{N: n, V: core.IntConst(core.I64, -1)})
		winner := r.let("winner", &core.Scatter{W: w, Arrs: []*core.Var{is, ks},
			Map:   &core.Lambda{Params: []*core.Var{ix, kv}, Body: &core.Body{Result: []core.Atom{ix, kv}}, Ret: []core.Type{ix.Type, kv.Type}},
			Dests: []*core.Var{none}})
		mapAdj[2*j+1] = r.gatherAdj(w, is, av, winner)
		// The destination's adjoint with the written positions zeroed.
		ix = r.fresh("ix", core.Scalar(core.I64))
		v := r.fresh("v", vals.Type.Row())
		zb := r.nested(func() []core.Atom { return []core.Atom{ix, r.zero(v)} })
		cleared := r.let("adj", &core.Scatter{W: w, Arrs: []*core.Var{is, vals},
			Map:   &core.Lambda{Params: []*core.Var{ix, v}, Body: zb, Ret: []core.Type{ix.Type, v.Type}},
			Dests: []*core.Var{r.let("adj", &core.CopyExp{Arr: av})}})
		r.addAdj(d, cleared)
	}
	r.mapRev(w, &core.Screma{W: e.W, Arrs: e.Arrs, Index: e.Index, Map: e.Map}, mapAdj)
}
