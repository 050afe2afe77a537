package fusion

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// consumer gives uniform access to the parts of the SOACs a producer can
// be fused into: the width, the input arrays, the index variable and the
// map lambda over one element of each input.
type consumer struct {
	kind  string
	arrs  *[]*core.Var
	index **core.Var
	mapf  **core.Lambda
}

func consumerOf(exp core.Exp) (consumer, bool) {
	switch e := exp.(type) {
	case *core.Screma:
		return consumer{kindOf(e), &e.Arrs, &e.Index, &e.Map}, true
	case *core.Hist:
		return consumer{"hist", &e.Arrs, &e.Index, &e.Map}, true
	case *core.Scatter:
		return consumer{"scatter", &e.Arrs, &e.Index, &e.Map}, true
	case *core.Filter:
		k := "filter"
		if e.Partition {
			k = "partition"
		}
		return consumer{k, &e.Arrs, &e.Index, &e.Map}, true
	}
	return consumer{}, false
}

// refusal is a reason not to fuse, with the Figure 3 case it instances (0
// when it is none of them).
type refusal struct {
	reason string
	fig3   int
}

func (r *refusal) Error() string { return r.reason }

// vertical performs one producer-consumer fusion in b, if any is possible,
// and reports whether it did.
func (f *fuser) vertical(b *core.Body) bool {
	for ci := len(b.Stmts) - 1; ci >= 0; ci-- {
		c, ok := consumerOf(b.Stmts[ci].Exp)
		if !ok {
			continue
		}
		info := analyze(b)
		for _, x := range *c.arrs {
			pi, ok := info.defs[x.Name]
			if !ok || pi >= ci {
				continue
			}
			if f.tryVertical(b, info, pi, ci) == nil {
				return true
			}
		}
	}
	return false
}

// tryVertical fuses statement pi into statement ci of b, or says why not.
func (f *fuser) tryVertical(b *core.Body, info *bodyInfo, pi, ci int) *refusal {
	ps, cs := b.Stmts[pi], b.Stmts[ci]
	switch p := ps.Exp.(type) {
	case *core.IotaExp:
		f.fuseIota(b, info, pi, ci, p)
		return nil
	case *core.ReplicateExp:
		f.fuseReplicate(b, info, pi, ci, p)
		return nil
	case *core.Screma:
		if !isMapOnly(p) {
			if len(p.Scans) > 0 {
				return f.fusePostMap(b, info, pi, ci, p)
			}
			return &refusal{fmt.Sprintf("a %s produces no per-element array a consumer could take", kindOf(p)), 2}
		}
		if r := f.checkProducer(b, info, pi, ci); r != nil {
			return r
		}
		f.fuseMap(b, info, pi, ci, p)
		return nil
	case *core.Filter:
		return &refusal{fmt.Sprintf("%s has a data-dependent size, so its result cannot be computed inside %s", soacName(ps), soacName(cs)), 2}
	case *core.Hist, *core.Scatter, *core.Segmented, *core.MultiScan:
		return &refusal{fmt.Sprintf("%s is not a map: its elements are not available one per iteration of %s", soacName(ps), soacName(cs)), 2}
	}
	return &refusal{"the producer is not a SOAC", 0}
}

// checkProducer applies the don't-fuse cases to moving the map at pi into
// the consumer at ci.
func (f *fuser) checkProducer(b *core.Body, info *bodyInfo, pi, ci int) *refusal {
	ps, cs := b.Stmts[pi], b.Stmts[ci]
	_, cIsScrema := cs.Exp.(*core.Screma)
	for _, o := range ps.Pat {
		for _, u := range info.uses[o.Name] {
			switch {
			case u.w == inLoop:
				return &refusal{fmt.Sprintf("%s is used inside a loop: fusing its map there would recompute it in every iteration", o.Name), 3}
			case u.w == inLambda && u.stmt != ci:
				return &refusal{fmt.Sprintf("%s is used inside the lambda of %s: fusing would recompute it for every element", o.Name, soacName(b.Stmts[u.stmt])), 3}
			case u.w == inBranch:
				return &refusal{fmt.Sprintf("%s is used inside an if branch: fusing into both paths would duplicate the map", o.Name), 4}
			case u.stmt == ci && u.w != soacIn:
				return &refusal{fmt.Sprintf("%s is used by %s other than as an input array", o.Name, soacName(cs)), 5}
			case u.stmt == ci:
			case u.stmt < ci && u.w == soacIn:
				return &refusal{fmt.Sprintf("%s is also consumed by %s before %s: fusing would duplicate the map", o.Name, soacName(b.Stmts[u.stmt]), soacName(cs)), 6}
			case u.stmt < ci:
				return &refusal{fmt.Sprintf("%s is used outside SOAC inputs before %s", o.Name, soacName(cs)), 5}
			case !cIsScrema && u.w == soacIn:
				return &refusal{fmt.Sprintf("%s is also consumed by %s, and %s cannot pass it on as a map-out: fusing would duplicate the map", o.Name, soacName(b.Stmts[u.stmt]), soacName(cs)), 6}
			case !cIsScrema:
				return &refusal{fmt.Sprintf("%s is used outside SOAC inputs after %s, which cannot pass it on as a map-out", o.Name, soacName(cs)), 5}
			}
		}
	}
	// Case 1: an in-place update of an array the producer reads, between
	// the producer and the consumer, would happen before the moved reads.
	read := map[string]bool{}
	reads(ps.Exp, func(v *core.Var, _ where) { read[v.Name] = true })
	for k := pi + 1; k < ci; k++ {
		if up, ok := b.Stmts[k].Exp.(*core.UpdateExp); ok && read[up.Arr.Name] {
			return &refusal{fmt.Sprintf("%s is updated in place between %s and %s; fusing would move its use across the update", up.Arr.Name, soacName(ps), soacName(cs)), 1}
		}
	}
	return nil
}

// neededLater reports which outputs of the producer at pi are read by
// statements after ci (or the result), and so must leave the fused SOAC
// as map-outs.
func neededLater(info *bodyInfo, pat []*core.Var, ci int) []bool {
	out := make([]bool, len(pat))
	for i, o := range pat {
		for _, u := range info.uses[o.Name] {
			if u.stmt > ci {
				out[i] = true
			}
		}
	}
	return out
}

// fuseMap moves the map at pi into the consumer at ci.
func (f *fuser) fuseMap(b *core.Body, info *bodyInfo, pi, ci int, p *core.Screma) {
	ps, cs := b.Stmts[pi], b.Stmts[ci]
	c, _ := consumerOf(cs.Exp)
	f.ensureMap(c)
	cm := *c.mapf

	// Inputs of the fused SOAC: the consumer's own inputs that the producer
	// does not make, then the producer's inputs, each array once.
	produced := map[string]int{}
	for i, o := range ps.Pat {
		produced[o.Name] = i
	}
	pSub := subst{}
	var arrs []*core.Var
	var params []*core.Var
	paramOf := map[string]*core.Var{}
	cSub := subst{}
	for j, a := range *c.arrs {
		if _, ok := produced[a.Name]; ok {
			continue
		}
		if prev, ok := paramOf[a.Name]; ok {
			cSub[cm.Params[j].Name] = prev
			continue
		}
		paramOf[a.Name] = cm.Params[j]
		arrs = append(arrs, a)
		params = append(params, cm.Params[j])
	}
	for k, a := range p.Arrs {
		if prev, ok := paramOf[a.Name]; ok {
			pSub[p.Map.Params[k].Name] = prev
			continue
		}
		paramOf[a.Name] = p.Map.Params[k]
		arrs = append(arrs, a)
		params = append(params, p.Map.Params[k])
	}
	switch {
	case p.Index != nil && *c.index != nil:
		pSub[p.Index.Name] = *c.index
	case p.Index != nil:
		*c.index = p.Index
	}
	pBody := pSub.body(p.Map.Body)
	for j, a := range *c.arrs {
		if i, ok := produced[a.Name]; ok {
			cSub[cm.Params[j].Name] = pBody.Result[i]
		}
	}
	cBody := cSub.body(cm.Body)
	fused := &core.Lambda{Params: params, Ret: cm.Ret,
		Body: &core.Body{Stmts: append(pBody.Stmts, cBody.Stmts...), Result: cBody.Result}}
	*c.arrs, *c.mapf = arrs, fused

	var mapouts []*core.Var
	for i, need := range neededLater(info, ps.Pat, ci) {
		if need {
			f.addMapOut(cs, pBody.Result[i], ps.Pat[i])
			mapouts = append(mapouts, ps.Pat[i])
		}
	}
	note := ""
	if len(mapouts) > 0 {
		note = "kept as map-out: " + varNames(mapouts)
	}
	f.applied("vertical", soacName(ps), soacName(cs), kindOf(p)+" into "+c.kind, note)
	b.Stmts = append(b.Stmts[:pi], b.Stmts[pi+1:]...)
}

// ensureMap gives a consumer without a map lambda (a filter) the identity
// map, so a producer has a lambda to move into.
func (f *fuser) ensureMap(c consumer) {
	if *c.mapf != nil {
		return
	}
	l := &core.Lambda{Body: &core.Body{}}
	for _, a := range *c.arrs {
		p := f.fresh("x", a.Type.Row())
		l.Params = append(l.Params, p)
		l.Ret = append(l.Ret, p.Type)
		l.Body.Result = append(l.Body.Result, p)
	}
	*c.mapf = l
}

// addMapOut makes the Screma statement s also return the per-element value
// v as the array out (the redomap paper's map-out arrays).
func (f *fuser) addMapOut(s *core.Stmt, v core.Atom, out *core.Var) {
	e := s.Exp.(*core.Screma)
	e.Map.Body.Result = append(e.Map.Body.Result, v)
	e.Map.Ret = append(e.Map.Ret, out.Type.Row())
	if e.Post == nil {
		s.Pat = append(s.Pat, out)
		return
	}
	// With a post-map the new map-out enters the post-map and passes
	// through it; post outputs come before the reduced scalars.
	p := f.fresh(out.Name+"_elem", out.Type.Row())
	e.Post.Params = append(e.Post.Params, p)
	e.Post.Ret = append(e.Post.Ret, p.Type)
	e.Post.Body.Result = append(e.Post.Body.Result, p)
	n := len(e.Post.Ret) - 1
	pat := append([]*core.Var{}, s.Pat[:n]...)
	pat = append(pat, out)
	s.Pat = append(pat, s.Pat[n:]...)
}

// fuseIota turns an iota input of the consumer into index arithmetic.
func (f *fuser) fuseIota(b *core.Body, info *bodyInfo, pi, ci int, p *core.IotaExp) {
	ps, cs := b.Stmts[pi], b.Stmts[ci]
	c, _ := consumerOf(cs.Exp)
	f.ensureMap(c)
	if *c.index == nil {
		*c.index = f.fresh("i", core.Scalar(core.I64))
	}
	idx := *c.index
	x := ps.Pat[0]
	var stmts []*core.Stmt
	sub := subst{}
	// element = start + T(i) * step, with the arithmetic left out where
	// start is 0 and step is 1.
	elem := func() core.Atom {
		var cur core.Atom = idx
		if p.T != core.I64 {
			v := f.fresh(x.Name+"_i", core.Scalar(p.T))
			stmts = append(stmts, &core.Stmt{Pat: []*core.Var{v}, Exp: &core.ConvExp{From: core.I64, To: p.T, X: cur}, Pos: ps.Pos})
			cur = v
		}
		if k, ok := p.Step.(core.Const); !ok || k.Int() != 1 {
			v := f.fresh(x.Name+"_s", core.Scalar(p.T))
			stmts = append(stmts, &core.Stmt{Pat: []*core.Var{v}, Exp: &core.BinOpExp{Op: core.Mul, T: p.T, X: cur, Y: p.Step}, Pos: ps.Pos})
			cur = v
		}
		if k, ok := p.Start.(core.Const); !ok || k.Int() != 0 {
			v := f.fresh(x.Name+"_o", core.Scalar(p.T))
			stmts = append(stmts, &core.Stmt{Pat: []*core.Var{v}, Exp: &core.BinOpExp{Op: core.Add, T: p.T, X: cur, Y: p.Start}, Pos: ps.Pos})
			cur = v
		}
		return cur
	}()
	f.dropInput(c, x, elem, sub)
	m := *c.mapf
	body := sub.body(m.Body)
	m.Body = &core.Body{Stmts: append(stmts, body.Stmts...), Result: body.Result}
	f.applied("iota", soacName(ps), soacName(cs), "iota into "+c.kind, "the array becomes the index "+idx.Name)
	f.dropIfDead(b, pi, ci)
}

// fuseReplicate turns a replicate input of the consumer into the
// replicated value itself.
func (f *fuser) fuseReplicate(b *core.Body, info *bodyInfo, pi, ci int, p *core.ReplicateExp) {
	ps, cs := b.Stmts[pi], b.Stmts[ci]
	c, _ := consumerOf(cs.Exp)
	f.ensureMap(c)
	sub := subst{}
	f.dropInput(c, ps.Pat[0], p.V, sub)
	m := *c.mapf
	m.Body = sub.body(m.Body)
	f.applied("replicate", soacName(ps), soacName(cs), "replicate into "+c.kind, "the array becomes the value "+atomString(p.V))
	f.dropIfDead(b, pi, ci)
}

// dropInput removes array x from the consumer's inputs, recording in sub
// that the lambda parameters that received its elements now read elem.
func (f *fuser) dropInput(c consumer, x *core.Var, elem core.Atom, sub subst) {
	m := *c.mapf
	var arrs, params []*core.Var
	for j, a := range *c.arrs {
		if a.Name == x.Name {
			sub[m.Params[j].Name] = elem
			continue
		}
		arrs = append(arrs, a)
		params = append(params, m.Params[j])
	}
	*c.arrs = arrs
	m.Params = params
}

// dropIfDead removes the producer at pi when nothing reads it any more.
func (f *fuser) dropIfDead(b *core.Body, pi, ci int) {
	info := analyze(b)
	for _, v := range b.Stmts[pi].Pat {
		if len(info.uses[v.Name]) > 0 {
			return
		}
	}
	b.Stmts = append(b.Stmts[:pi], b.Stmts[pi+1:]...)
}

// fusePostMap moves a map over the results of a scan into the scan's
// post-map (map-scan-map fusion, the scanomap paper's future work).
func (f *fuser) fusePostMap(b *core.Body, info *bodyInfo, pi, ci int, p *core.Screma) *refusal {
	if r := checkPostMap(b, pi, ci); r != nil {
		return r
	}
	ps, cs := b.Stmts[pi], b.Stmts[ci]
	c := cs.Exp.(*core.Screma)
	pName, cName, pKind := soacName(ps), soacName(cs), kindOf(p)
	_, reds, arrays := postInputs(p, ps.Pat)
	pos := map[string]int{}
	for i, a := range arrays {
		pos[a.Name] = i
	}
	if r := f.checkProducer(b, info, pi, ci); r != nil {
		return r
	}
	pp := f.postOf(p)
	sub := subst{}
	for j, a := range c.Arrs {
		sub[c.Map.Params[j].Name] = pp.Body.Result[pos[a.Name]]
	}
	cBody := sub.body(c.Map.Body)
	newPost := &core.Lambda{Params: pp.Params, Ret: append([]core.Type{}, c.Map.Ret...),
		Body: &core.Body{Stmts: append(pp.Body.Stmts, cBody.Stmts...), Result: cBody.Result}}
	pat := append([]*core.Var{}, cs.Pat...)
	later := neededLater(info, arrays, ci)
	var kept []*core.Var
	for i, need := range later {
		if need {
			newPost.Body.Result = append(newPost.Body.Result, pp.Body.Result[i])
			newPost.Ret = append(newPost.Ret, pp.Ret[i])
			pat = append(pat, arrays[i])
			kept = append(kept, arrays[i])
		}
	}
	p.Post = newPost
	ps.Pat = append(pat, reds...)
	note := ""
	if len(kept) > 0 {
		note = "kept: " + varNames(kept)
	}
	f.applied("post-map", cName, pName, "map into the post-map of "+pKind, note)
	// The fused statement must sit where the map was, after everything the
	// map's lambda reads.
	b.Stmts[ci] = ps
	b.Stmts = append(b.Stmts[:pi], b.Stmts[pi+1:]...)
	return nil
}

func varNames(vs []*core.Var) string {
	s := ""
	for i, v := range vs {
		if i > 0 {
			s += ", "
		}
		s += v.Name
	}
	return s
}

func atomString(a core.Atom) string {
	switch a := a.(type) {
	case *core.Var:
		return a.Name
	case core.Const:
		return a.String()
	}
	return "?"
}

// postInputs returns the arrays a scan's post-map stage produces (its
// post outputs, or the scanned and map-out arrays) and its reduced scalars.
func postInputs(p *core.Screma, pat []*core.Var) (scanned, reds, arrays []*core.Var) {
	scanned, reds, mapouts, post := patGroups(p, pat)
	if p.Post != nil {
		return scanned, reds, post
	}
	return scanned, reds, append(append([]*core.Var{}, scanned...), mapouts...)
}

// checkPostMap says whether the map at ci can become the post-map of the
// scan at pi: it must be a plain map, without the index, over arrays the
// scan produces.
func checkPostMap(b *core.Body, pi, ci int) *refusal {
	ps, cs := b.Stmts[pi], b.Stmts[ci]
	p := ps.Exp.(*core.Screma)
	c, ok := cs.Exp.(*core.Screma)
	if !ok || !isMapOnly(c) {
		return &refusal{fmt.Sprintf("only a map can follow %s as its post-map, not a %s", soacName(ps), kindOfExp(cs.Exp)), 2}
	}
	if c.Index != nil {
		return &refusal{fmt.Sprintf("%s uses the element index, which a post-map does not have", soacName(cs)), 2}
	}
	_, _, arrays := postInputs(p, ps.Pat)
	have := map[string]bool{}
	for _, a := range arrays {
		have[a.Name] = true
	}
	for _, a := range c.Arrs {
		if !have[a.Name] {
			return &refusal{fmt.Sprintf("%s also reads %s, which %s does not produce", soacName(cs), a.Name, soacName(ps)), 2}
		}
	}
	return nil
}
