package ad

import (
	"github.com/arepl/arepl/lang/core"
)

// Tangents through control flow, function calls and SOACs. Each new
// statement computes the primal values and the tangents together: the
// tangents become extra results (of a branch, a loop's state, a function,
// a SOAC's lambda), placed after the primal ones.

func (f *fwd) ifExp(s *core.Stmt, e *core.IfExp) {
	cond := f.atom(e.Cond)
	var tt, et []core.Atom
	then := f.nested(func() []core.Atom { r, t := f.body(e.Then); tt = t; return r })
	els := f.nested(func() []core.Atom { r, t := f.body(e.Else); et = t; return r })
	want := make([]bool, len(e.Ret))
	for i, t := range e.Ret {
		want[i] = differentiable(t.Elem) && (tt[i] != nil || et[i] != nil)
	}
	f.results(then, tt, want)
	ret := f.results(els, et, want)
	out := f.bindTypes("if", ret, &core.IfExp{Cond: cond, Then: then, Else: els, Ret: ret})
	f.bindResults(s.Pat, out, want)
}

// loop differentiates a loop. Which parts of the state carry a tangent is
// a fixed point: those whose initial value has one, and those the body
// gives one once the others do.
func (f *fwd) loop(s *core.Stmt, e *core.LoopExp) {
	init := f.atoms(e.Init)
	has := make([]bool, len(e.Params))
	for i, p := range e.Params {
		has[i] = differentiable(p.Type.Elem) && f.tanOf(e.Init[i]) != nil
	}
	for {
		saved := f.stmts
		f.stmts = nil
		params := f.rebindAll(e.Params)
		dparams := make([]*core.Var, len(params))
		for i, p := range e.Params {
			if has[i] {
				dparams[i] = f.fresh("d"+baseName(p.Name), p.Type)
				f.setTan(p, dparams[i])
			}
		}
		var form core.LoopForm
		if fl := core.ForOf(e.Form); fl != nil {
			bound := f.atom(fl.Bound)
			form = &core.ForLoop{I: f.rebind(fl.I), Bound: bound}
		} else if wl := core.WhileOf(e.Form); wl != nil {
			form = &core.WhileLoop{Cond: f.vr(wl.Cond)}
		}
		var tans []core.Atom
		body := f.nested(func() []core.Atom { r, t := f.body(e.Body); tans = t; return r })
		f.stmts = saved
		grown := false
		for i, t := range tans {
			if t != nil && !has[i] && differentiable(e.Params[i].Type.Elem) {
				has[i], grown = true, true
			}
		}
		if grown {
			continue
		}
		f.results(body, tans, has)
		allParams := append([]*core.Var{}, params...)
		allInit := append([]core.Atom{}, init...)
		for i, d := range dparams {
			if d != nil {
				allParams = append(allParams, d)
				allInit = append(allInit, f.orZero(f.tanOf(e.Init[i]), init[i]))
			}
		}
		out := f.bindTypes("loop", core.TypesOf(allParams), &core.LoopExp{Params: allParams, Init: allInit, Form: form, Body: body})
		f.bindResults(s.Pat, out, has)
		return
	}
}

// apply calls the forward-mode version of a function (made on first use:
// every differentiable parameter and result has a tangent), or the
// function itself where no argument has a tangent.
func (f *fwd) apply(s *core.Stmt, e *core.ApplyExp) {
	args := f.atoms(e.Args)
	nz := false
	for _, a := range e.Args {
		nz = nz || f.tanOf(a) != nil
	}
	if !nz {
		out := f.bindTypes(e.Fun, e.Ret, &core.ApplyExp{Fun: e.Fun, Args: args, Ret: e.Ret})
		f.bindResults(s.Pat, out, make([]bool, len(s.Pat)))
		return
	}
	jf := f.jvpFun(e.Fun)
	if jf == nil {
		return
	}
	all := append([]core.Atom{}, args...)
	for i, a := range e.Args {
		if differentiable(a.AtomType().Elem) {
			all = append(all, f.orZero(f.tanOf(a), args[i]))
		}
	}
	out := f.bindTypes(e.Fun, jf.Ret, &core.ApplyExp{Fun: jf.Name, Args: all, Ret: jf.Ret})
	f.bindResults(s.Pat, out, wantAll(e.Ret))
}

// jvpFun returns the forward-mode version of the function called name,
// adding it to the program the first time (before its body is made, so
// that a recursive call finds it).
func (f *fwd) jvpFun(name string) *core.Fun {
	jname := name + "_jvp"
	if jf := f.prog.Fun(jname); jf != nil {
		return jf
	}
	fn := f.prog.Fun(name)
	if fn == nil {
		// Lowering adds a recursive function to the program once its
		// body is complete: a derivative taken inside that body cannot
		// see the body yet.
		f.fail(f.pos, "cannot differentiate a call of %s inside its own definition", baseName(name))
		return nil
	}
	g := newFwd(f.prog, f.fresh, fn.Pos)
	params := g.rebindAll(fn.Params)
	for i, p := range fn.Params {
		if differentiable(p.Type.Elem) {
			d := g.fresh("d"+baseName(p.Name), p.Type)
			params = append(params, d)
			g.setTan(fn.Params[i], d)
		}
	}
	want := wantAll(fn.Ret)
	jf := &core.Fun{Name: jname, Params: params, Ret: append(append([]core.Type{}, fn.Ret...), tangentTypes(fn.Ret, want)...), Pos: fn.Pos}
	f.prog.Funs = append(f.prog.Funs, jf)
	var tans []core.Atom
	body := g.nested(func() []core.Atom { r, t := g.body(fn.Body); tans = t; return r })
	g.results(body, tans, want)
	jf.Body = body
	if g.err != nil && f.err == nil {
		f.err = g.err
	}
	return jf
}

// screma differentiates map, reduce, scan and their fusions: the map
// lambda gets the tangents of the elements and returns the tangents of its
// results; each scan or reduction operator works on (value, tangent)
// pairs with its own forward-mode version, which is the same associative
// operator on dual numbers; the neutral elements' tangents are zero.
func (f *fwd) screma(s *core.Stmt, e *core.Screma) {
	if e.Post != nil {
		f.fail(s.Pos, "internal error: cannot differentiate a fused post-map")
		return
	}
	w, arrs, index, ml := f.mapInputs(e.W, e.Arrs, e.Index, e.Map)
	// Which of the map's results get a tangent: every value of a scan or
	// reduction one of whose values has one, and every map-out value that
	// has one.
	want := whereNonZero(ml.tans, e.Map.Ret)
	k := 0
	groups := func(ops [][]core.Atom) {
		for _, ne := range ops {
			some := false
			for j := range ne {
				some = some || want[k+j]
			}
			for j := range ne {
				want[k+j] = some && differentiable(e.Map.Ret[k+j].Elem)
			}
			k += len(ne)
		}
	}
	var scanNes, redNes [][]core.Atom
	for _, op := range e.Scans {
		scanNes = append(scanNes, op.Neutral)
	}
	for _, op := range e.Reds {
		redNes = append(redNes, op.Neutral)
	}
	groups(scanNes)
	groups(redNes)

	// The new map returns, per operator, its values then their tangents,
	// and after them the map-out values then their tangents.
	prim := ml.body.Result
	saved := f.stmts
	f.stmts = ml.body.Stmts
	var res []core.Atom
	k = 0
	opResults := func(n int) {
		res = append(res, prim[k:k+n]...)
		for j := k; j < k+n; j++ {
			if want[j] {
				res = append(res, f.orZero(ml.tans[j], prim[j]))
			}
		}
		k += n
	}
	for _, ne := range scanNes {
		opResults(len(ne))
	}
	for _, ne := range redNes {
		opResults(len(ne))
	}
	opResults(len(prim) - k)
	ml.body.Stmts = f.stmts
	f.stmts = saved
	ml.body.Result = res

	ns := &core.Screma{W: w, Arrs: arrs, Index: index,
		Map: &core.Lambda{Params: ml.allParams(), Body: ml.body, Ret: core.AtomTypes(res)}}
	for i, d := range ml.dparams {
		if d != nil {
			ns.Arrs = append(ns.Arrs, f.tanOf(e.Arrs[i]).(*core.Var))
		}
	}
	k = 0
	for _, op := range e.Scans {
		l, ne := f.operator(op.Lambda, f.atoms(op.Neutral), want[k:k+len(op.Neutral)])
		ns.Scans = append(ns.Scans, &core.ScanOp{Lambda: l, Neutral: ne})
		k += len(op.Neutral)
	}
	for _, op := range e.Reds {
		l, ne := f.operator(op.Lambda, f.atoms(op.Neutral), want[k:k+len(op.Neutral)])
		ns.Reds = append(ns.Reds, &core.RedOp{Lambda: l, Neutral: ne, Comm: op.Comm})
		k += len(op.Neutral)
	}
	ts, err := core.ExpTypes(ns)
	if err != nil {
		f.fail(s.Pos, "internal error: %v", err)
		return
	}
	out := f.bindTypes(baseName(s.Pat[0].Name), ts, ns)
	// Results: scanned values (with tangents), reduced values (with
	// tangents), map-out values then their tangents; s.Pat has the same
	// order without the tangents.
	k = 0
	o := 0
	bindGroup := func(n int) {
		j0 := k
		for j := 0; j < n; j++ {
			f.names[s.Pat[k+j].Name] = out[o+j]
			delete(f.tan, s.Pat[k+j].Name)
		}
		o += n
		for j := 0; j < n; j++ {
			if want[j0+j] {
				f.setTan(s.Pat[k+j], out[o])
				o++
			}
		}
		k += n
	}
	for _, ne := range scanNes {
		bindGroup(len(ne))
	}
	for _, ne := range redNes {
		bindGroup(len(ne))
	}
	bindGroup(len(s.Pat) - k)
}

// operator transforms a 2k-parameter operator (accumulator, element) so
// that the values want selects carry tangents: parameters (a, da, b, db),
// results (r, dr). It returns the new lambda and neutral elements.
func (f *fwd) operator(l *core.Lambda, ne []core.Atom, want []bool) (*core.Lambda, []core.Atom) {
	n := len(ne)
	has := append(append([]bool{}, want...), want...)
	ol := f.lambda(l, has)
	ret := f.results(ol.body, ol.tans, want)
	var params []*core.Var
	for half := 0; half < 2; half++ {
		params = append(params, ol.params[half*n:(half+1)*n]...)
		for j := 0; j < n; j++ {
			if d := ol.dparams[half*n+j]; d != nil {
				params = append(params, d)
			}
		}
	}
	nes := append([]core.Atom{}, ne...)
	for j, w := range want {
		if w {
			nes = append(nes, f.zero(ne[j]))
		}
	}
	return &core.Lambda{Params: params, Body: ol.body, Ret: ret}, nes
}

// hist differentiates reduce_by_index as a histogram of (value, tangent)
// pairs with the operator's forward-mode version; the destinations'
// tangents are the initial bins of the tangent histogram.
func (f *fwd) hist(s *core.Stmt, e *core.Hist) {
	w, arrs, index, ml := f.mapInputs(e.W, e.Arrs, e.Index, e.Map)
	prim := ml.body.Result
	// Per op: the bucket index, then the values.
	wants := make([][]bool, len(e.Ops))
	k := 0
	for i, op := range e.Ops {
		n := len(op.Neutral)
		some := false
		for j := 0; j < n; j++ {
			some = some || ml.tans[k+1+j] != nil || f.tanOf(op.Dests[j]) != nil
		}
		wants[i] = make([]bool, n)
		for j := 0; j < n; j++ {
			wants[i][j] = some && differentiable(op.Dests[j].Type.Elem)
		}
		k += 1 + n
	}
	saved := f.stmts
	f.stmts = ml.body.Stmts
	var res []core.Atom
	k = 0
	for i, op := range e.Ops {
		n := len(op.Neutral)
		res = append(res, prim[k:k+1+n]...)
		for j := 0; j < n; j++ {
			if wants[i][j] {
				res = append(res, f.orZero(ml.tans[k+1+j], prim[k+1+j]))
			}
		}
		k += 1 + n
	}
	ml.body.Stmts = f.stmts
	f.stmts = saved
	ml.body.Result = res
	nh := &core.Hist{W: w, Arrs: arrs, Index: index,
		Map: &core.Lambda{Params: ml.allParams(), Body: ml.body, Ret: core.AtomTypes(res)}}
	for i, d := range ml.dparams {
		if d != nil {
			nh.Arrs = append(nh.Arrs, f.tanOf(e.Arrs[i]).(*core.Var))
		}
	}
	var allWant []bool
	for i, op := range e.Ops {
		dests := f.vars(op.Dests)
		l, ne := f.operator(op.Lambda, f.atoms(op.Neutral), wants[i])
		for j, d := range op.Dests {
			if wants[i][j] {
				t := f.tanOf(d)
				if t != nil {
					t = f.let("d", &core.CopyExp{Arr: t.(*core.Var)})
				}
				dests = append(dests, f.orZero(t, dests[j]).(*core.Var))
			}
		}
		nh.Ops = append(nh.Ops, &core.HistOp{Dests: dests, Lambda: l, Neutral: ne})
		allWant = append(allWant, wants[i]...)
	}
	ts, _ := core.ExpTypes(nh)
	out := f.bindTypes("hist", ts, nh)
	// Results per op: dests then their tangents.
	o, k2 := 0, 0
	for i, op := range e.Ops {
		n := len(op.Dests)
		for j := 0; j < n; j++ {
			f.names[s.Pat[k2+j].Name] = out[o+j]
			delete(f.tan, s.Pat[k2+j].Name)
		}
		o += n
		for j := 0; j < n; j++ {
			if wants[i][j] {
				f.setTan(s.Pat[k2+j], out[o])
				o++
			}
		}
		k2 += n
	}
}

// scatter differentiates scatter: a destination with a tangent (its own,
// or from the values written) gets a tangent destination written at the
// same indices with the values' tangents.
func (f *fwd) scatter(s *core.Stmt, e *core.Scatter) {
	w, arrs, index, ml := f.mapInputs(e.W, e.Arrs, e.Index, e.Map)
	prim := ml.body.Result
	dests := f.vars(e.Dests)
	want := make([]bool, len(e.Dests))
	for j, d := range e.Dests {
		want[j] = differentiable(d.Type.Elem) && (f.tanOf(d) != nil || ml.tans[2*j+1] != nil)
	}
	saved := f.stmts
	f.stmts = ml.body.Stmts
	res := append([]core.Atom{}, prim...)
	for j := range e.Dests {
		if want[j] {
			res = append(res, prim[2*j], f.orZero(ml.tans[2*j+1], prim[2*j+1]))
		}
	}
	ml.body.Stmts = f.stmts
	f.stmts = saved
	ml.body.Result = res
	ns := &core.Scatter{W: w, Arrs: arrs, Index: index, Dests: dests,
		Map: &core.Lambda{Params: ml.allParams(), Body: ml.body, Ret: core.AtomTypes(res)}}
	for i, d := range ml.dparams {
		if d != nil {
			ns.Arrs = append(ns.Arrs, f.tanOf(e.Arrs[i]).(*core.Var))
		}
	}
	for j, d := range e.Dests {
		if want[j] {
			t := f.tanOf(d)
			if t != nil {
				t = f.let("d", &core.CopyExp{Arr: t.(*core.Var)})
			}
			ns.Dests = append(ns.Dests, f.orZero(t, dests[j]).(*core.Var))
		}
	}
	out := f.bindTypes("scatter", core.TypesOf(ns.Dests), ns)
	f.bindResults(s.Pat, out, want)
}

// filter differentiates filter and partition: the tangents of the
// elements travel as extra arrays the predicate ignores.
func (f *fwd) filter(s *core.Stmt, e *core.Filter) {
	w := f.atom(e.W)
	arrs := f.vars(e.Arrs)
	var index *core.Var
	if e.Index != nil {
		index = f.rebind(e.Index)
	}
	nf := &core.Filter{W: w, Arrs: arrs, Index: index, Partition: e.Partition}
	var mapRet []core.Type
	var tans []core.Atom
	var prims []core.Atom
	if e.Map != nil {
		has := make([]bool, len(e.Arrs))
		for i, a := range e.Arrs {
			has[i] = f.tanOf(a) != nil
		}
		ml := f.lambda(e.Map, has)
		if anyTrue(has) || anyTrue(whereNonZero(ml.tans, e.Map.Ret)) {
			f.fail(s.Pos, "cannot differentiate a filter with a fused map")
		}
		nf.Map = &core.Lambda{Params: ml.params, Body: ml.body, Ret: e.Map.Ret}
		mapRet = e.Map.Ret
		tans = make([]core.Atom, len(mapRet))
	} else {
		for i, a := range e.Arrs {
			mapRet = append(mapRet, a.Type.Row())
			tans = append(tans, f.tanOf(a))
			prims = append(prims, arrs[i])
		}
	}
	want := whereNonZero(tans, mapRet)
	pl := f.lambda(e.Pred, make([]bool, len(e.Pred.Params)))
	params := pl.params
	for i, wt := range want {
		if wt {
			nf.Arrs = append(nf.Arrs, f.orZero(tans[i], prims[i]).(*core.Var))
			params = append(params, f.fresh("unused", mapRet[i]))
		}
	}
	nf.Pred = &core.Lambda{Params: params, Body: pl.body, Ret: e.Pred.Ret}
	ts, _ := core.ExpTypes(nf)
	out := f.bindTypes("filter", ts, nf)
	n := len(mapRet)
	nt := len(tangentTypes(mapRet, want))
	f.bindResults(s.Pat[:n], out[:n+nt], want)
	if e.Partition {
		f.bindResults(s.Pat[n:], out[n+nt:], want)
	}
}

// segmented and multiScan are copied; arrepl does not differentiate them
// (lowering makes neither from differentiable code: fusion makes
// Segmented after lowering, and multiscan is an arepl extension).
func (f *fwd) segmented(s *core.Stmt, _ *core.Segmented) {
	f.fail(s.Pos, "internal error: cannot differentiate a segmented operation (fusion makes them after differentiation)")
}

func (f *fwd) multiScan(s *core.Stmt, e *core.MultiScan) {
	f.noTangents(s, e)
	ol := f.lambda(e.Op.Lambda, make([]bool, len(e.Op.Lambda.Params)))
	ns := &core.MultiScan{W: f.atom(e.W), K: f.atom(e.K), Labels: f.vr(e.Labels), Arrs: f.vars(e.Arrs),
		Op: &core.ScanOp{Lambda: &core.Lambda{Params: ol.params, Body: ol.body, Ret: e.Op.Lambda.Ret}, Neutral: f.atoms(e.Op.Neutral)}}
	out := f.bindTypes("multiscan", core.TypesOf(s.Pat), ns)
	f.bindResults(s.Pat, out, make([]bool, len(s.Pat)))
}

// noTangents fails where one of e's free variables has a tangent.
func (f *fwd) noTangents(s *core.Stmt, e core.Exp) {
	for _, v := range core.FreeVars(e) {
		if f.tanOf(v) != nil {
			f.fail(s.Pos, "cannot differentiate %s: arrepl has no derivative rule for it", expName(e))
			return
		}
	}
}

func expName(e core.Exp) string {
	switch e.(type) {
	case *core.MultiScan:
		return "multiscan"
	case *core.Segmented:
		return "a segmented operation"
	}
	return "this expression"
}

// mapInputs renames the inputs of a SOAC's map part (its width, its input
// arrays and its index variable) and differentiates its lambda, giving a
// tangent parameter to each element whose array has a tangent. Screma,
// Hist and Scatter share this front.
func (f *fwd) mapInputs(width core.Atom, inputs []*core.Var, idx *core.Var, m *core.Lambda) (w core.Atom, arrs []*core.Var, index *core.Var, ml *lam) {
	w = f.atom(width)
	arrs = f.vars(inputs)
	has := make([]bool, len(inputs))
	for i, a := range inputs {
		has[i] = f.tanOf(a) != nil
	}
	if idx != nil {
		index = f.rebind(idx)
	}
	return w, arrs, index, f.lambda(m, has)
}
