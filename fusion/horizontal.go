package fusion

import (
	"github.com/arepl/arepl/lang/core"
)

// horizontal merges one pair of independent Scremas over the same width,
// if any, and reports whether it did. A plain map whose results other
// SOACs consume is left alone: it is a producer that vertical fusion will
// move into its consumers, and merging it beside them would instead turn
// its output into a map-out that is written and read back.
func (f *fuser) horizontal(b *core.Body) bool {
	info := analyze(b)
	sz := newSizes(b)
	producer := func(i int, e *core.Screma) bool {
		if !isMapOnly(e) {
			return false
		}
		for _, v := range b.Stmts[i].Pat {
			for _, u := range info.uses[v.Name] {
				if u.w == soacIn {
					return true
				}
			}
		}
		return false
	}
	for j := len(b.Stmts) - 1; j >= 0; j-- {
		bj, ok := b.Stmts[j].Exp.(*core.Screma)
		if !ok || producer(j, bj) {
			continue
		}
		for i := j - 1; i >= 0; i-- {
			bi, ok := b.Stmts[i].Exp.(*core.Screma)
			if !ok || producer(i, bi) || !sz.same(bi.W, bj.W) || !independent(b, info, i, j) {
				continue
			}
			f.merge(b, i, j)
			return true
		}
	}
	return false
}

// independent reports whether the statement at j reads nothing the one at
// i produces, directly or through the statements between them, and
// nothing between them reads i's results (the merged SOAC takes j's place).
func independent(b *core.Body, info *bodyInfo, i, j int) bool {
	tainted := map[string]bool{}
	for _, v := range b.Stmts[i].Pat {
		tainted[v.Name] = true
	}
	for k := i + 1; k <= j; k++ {
		dep := false
		reads(b.Stmts[k].Exp, func(v *core.Var, _ where) {
			if tainted[v.Name] {
				dep = true
			}
		})
		if dep {
			return false
		}
	}
	return true
}

// merge fuses the Screma at i into the one at j (horizontal fusion) and
// removes statement i.
func (f *fuser) merge(b *core.Body, i, j int) {
	si, sj := b.Stmts[i], b.Stmts[j]
	a, c := si.Exp.(*core.Screma), sj.Exp.(*core.Screma)
	la, lc := layoutOf(a), layoutOf(c)

	// Inputs: a's, then c's not already present.
	sub := subst{}
	arrs := append([]*core.Var{}, a.Arrs...)
	params := append([]*core.Var{}, a.Map.Params...)
	paramOf := map[string]*core.Var{}
	for k, x := range a.Arrs {
		paramOf[x.Name] = a.Map.Params[k]
	}
	for k, x := range c.Arrs {
		if prev, ok := paramOf[x.Name]; ok {
			sub[c.Map.Params[k].Name] = prev
			continue
		}
		paramOf[x.Name] = c.Map.Params[k]
		arrs = append(arrs, x)
		params = append(params, c.Map.Params[k])
	}
	index := a.Index
	switch {
	case a.Index != nil && c.Index != nil:
		sub[c.Index.Name] = a.Index
	case c.Index != nil:
		index = c.Index
	}
	cBody := sub.body(c.Map.Body)
	ar, cr := a.Map.Body.Result, cBody.Result
	split := func(r []core.Atom, t []core.Type, l layout) (sc, rd, mo []core.Atom, tsc, trd, tmo []core.Type) {
		return r[:l.nScan], r[l.nScan : l.nScan+l.nRed], r[l.nScan+l.nRed:],
			t[:l.nScan], t[l.nScan : l.nScan+l.nRed], t[l.nScan+l.nRed:]
	}
	asc, ard, amo, tasc, tard, tamo := split(ar, a.Map.Ret, la)
	csc, crd, cmo, tcsc, tcrd, tcmo := split(cr, c.Map.Ret, lc)
	result := cat(asc, csc, ard, crd, amo, cmo)
	ret := catT(tasc, tcsc, tard, tcrd, tamo, tcmo)
	m := &core.Lambda{Params: params, Ret: ret,
		Body: &core.Body{Stmts: append(append([]*core.Stmt{}, a.Map.Body.Stmts...), cBody.Stmts...), Result: result}}
	fused := &core.Screma{W: c.W, Arrs: arrs, Index: index, Map: m,
		Scans: append(append([]*core.ScanOp{}, a.Scans...), c.Scans...),
		Reds:  append(append([]*core.RedOp{}, a.Reds...), c.Reds...)}

	aScan, aRed, aOut, aPost := patGroups(a, si.Pat)
	cScan, cRed, cOut, cPost := patGroups(c, sj.Pat)
	var pat []*core.Var
	if a.Post == nil && c.Post == nil {
		pat = catV(aScan, cScan, aRed, cRed, aOut, cOut)
	} else {
		// One post-map over (a's scanned, c's scanned, a's map-outs, c's
		// map-outs), computing a's post outputs then c's.
		pa, pc := f.postOf(a), f.postOf(c)
		nsa := la.nScan
		nsc := lc.nScan
		post := &core.Lambda{
			Params: catV(pa.Params[:nsa], pc.Params[:nsc], pa.Params[nsa:], pc.Params[nsc:]),
			Ret:    append(append([]core.Type{}, pa.Ret...), pc.Ret...),
			Body: &core.Body{Stmts: append(append([]*core.Stmt{}, pa.Body.Stmts...), pc.Body.Stmts...),
				Result: cat(pa.Body.Result, pc.Body.Result)},
		}
		fused.Post = post
		outA := aPost
		if a.Post == nil {
			outA = catV(aScan, aOut)
		}
		outC := cPost
		if c.Post == nil {
			outC = catV(cScan, cOut)
		}
		pat = catV(outA, outC, aRed, cRed)
	}
	sj.Exp, sj.Pat = fused, pat
	f.applied("horizontal", soacName(si), soacName(sj), kindOf(a)+" + "+kindOf(c)+" over the same width", "")
	b.Stmts = append(b.Stmts[:i], b.Stmts[i+1:]...)
}

// postOf returns e's post-map, or the identity over (scanned values,
// map-out values) when it has none.
func (f *fuser) postOf(e *core.Screma) *core.Lambda {
	if e.Post != nil {
		return e.Post
	}
	l := layoutOf(e)
	id := &core.Lambda{Body: &core.Body{}}
	for k, t := range e.Map.Ret {
		if k >= l.nScan && k < l.nScan+l.nRed {
			continue
		}
		v := f.fresh("e", t)
		id.Params = append(id.Params, v)
		id.Ret = append(id.Ret, t)
		id.Body.Result = append(id.Body.Result, v)
	}
	return id
}

func cat(parts ...[]core.Atom) []core.Atom {
	var out []core.Atom
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func catT(parts ...[]core.Type) []core.Type {
	var out []core.Type
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func catV(parts ...[]*core.Var) []*core.Var {
	var out []*core.Var
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
