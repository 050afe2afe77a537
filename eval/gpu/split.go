package gpu

// Splitting the map off a SOAC. A reduction, scan, histogram, scatter or
// filter whose map function holds nested parallelism (an inner reduction,
// loops over rows, thread-local arrays) has no kernel of its own family,
// since those render the function as scalar code. Such a statement runs as
// two: a segmented map (segmap.go) that computes the function's results
// into arrays, then the same SOAC over those arrays with an identity
// function, which the flat families (or the scan and histogram modules)
// cover. The intermediate arrays cost one write and one read of the
// function's results; the alternative is the CPU.

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// splitMap returns the two statements of s, or nil when s has no map to
// split off.
func splitMap(s *core.Stmt) []*core.Stmt {
	var w core.Atom
	var arrs []*core.Var
	var index *core.Var
	var lam *core.Lambda
	switch e := s.Exp.(type) {
	case *core.Screma:
		w, arrs, index, lam = e.W, e.Arrs, e.Index, e.Map
	case *core.Hist:
		w, arrs, index, lam = e.W, e.Arrs, e.Index, e.Map
	case *core.Scatter:
		w, arrs, index, lam = e.W, e.Arrs, e.Index, e.Map
	case *core.Filter:
		if e.Map == nil {
			return nil
		}
		w, arrs, index, lam = e.W, e.Arrs, e.Index, e.Map
	default:
		return nil
	}
	name := "ar_split"
	if len(s.Pat) > 0 {
		name += "_" + s.Pat[0].Name
	}
	outs := make([]*core.Var, len(lam.Ret))
	for i, t := range lam.Ret {
		if t.IsArray() && !vectorReduce(s) {
			return nil
		}
		outs[i] = &core.Var{Name: fmt.Sprintf("%s_%d", name, i), Type: t.Lift()}
	}
	// The identity function over the intermediate arrays' elements.
	ident := func(vs []*core.Var) *core.Lambda {
		l := &core.Lambda{Body: &core.Body{}}
		for i, v := range vs {
			p := &core.Var{Name: fmt.Sprintf("%s_x%d", name, i), Type: v.Type.Row()}
			l.Params = append(l.Params, p)
			l.Body.Result = append(l.Body.Result, p)
			l.Ret = append(l.Ret, p.Type)
		}
		return l
	}
	first := &core.Stmt{Pat: outs, Exp: &core.Screma{W: w, Arrs: arrs, Index: index, Map: lam}, Pos: s.Pos}
	var second *core.Stmt
	switch e := s.Exp.(type) {
	case *core.Screma:
		if isMapOnly(e) {
			return nil
		}
		nIn := 0
		for _, sc := range e.Scans {
			nIn += len(sc.Neutral)
		}
		for _, r := range e.Reds {
			nIn += len(r.Neutral)
		}
		op := &core.Screma{W: w, Scans: e.Scans, Reds: e.Reds, Post: e.Post}
		pat := s.Pat
		if e.Post == nil {
			// Map-outs come straight from the first statement.
			nScan := 0
			for _, sc := range e.Scans {
				nScan += len(sc.Neutral)
			}
			nRed := nIn - nScan
			for i := nIn; i < len(outs); i++ {
				outs[i] = s.Pat[nScan+nRed+(i-nIn)]
			}
			op.Arrs = outs[:nIn]
			pat = s.Pat[:nIn]
		} else {
			op.Arrs = outs
		}
		op.Map = ident(op.Arrs)
		second = &core.Stmt{Pat: pat, Exp: op, Pos: s.Pos}
	case *core.Hist:
		second = &core.Stmt{Pat: s.Pat, Exp: &core.Hist{W: w, Arrs: outs, Map: ident(outs), Ops: e.Ops}, Pos: s.Pos}
	case *core.Scatter:
		second = &core.Stmt{Pat: s.Pat, Exp: &core.Scatter{W: w, Arrs: outs, Map: ident(outs), Dests: e.Dests}, Pos: s.Pos}
	case *core.Filter:
		second = &core.Stmt{Pat: s.Pat, Exp: &core.Filter{W: w, Arrs: outs, Pred: e.Pred, Partition: e.Partition}, Pos: s.Pos}
	}
	return []*core.Stmt{first, second}
}

// split tries to run s as its map, then its SOAC (see the file comment):
// ok reports whether both halves have GPU kernels.
func (g *generator) split(s *core.Stmt) (bool, error) {
	parts := splitMap(s)
	if parts == nil {
		return false, nil
	}
	first, second := parts[0], parts[1]
	k, err := g.segmap(first)
	if isUnsupported(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var ks []*kernel
	switch e := second.Exp.(type) {
	case *core.Screma:
		if vectorReduce(second) { // vecsplit.go
			if ok, err := g.vectorOp(second, e, g.defs); !ok || err != nil {
				return false, err
			}
			break
		}
		if g.scanCovers(second) {
			break
		}
		ks, err = g.family(second, e, nil)
		if isUnsupported(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	case *core.Hist, *core.Scatter:
		if _, err := genHist(g.prog, second, g.lim); err != nil {
			return false, nil
		}
	case *core.Filter:
		if _, err := genScan(g.prog, second, g.lim); err != nil {
			return false, nil
		}
	}
	g.kbuf.WriteString(k.src)
	g.m.kernels[first] = []*kernel{k}
	for _, k2 := range ks {
		g.kbuf.WriteString(k2.src)
	}
	if ks != nil {
		g.m.kernels[second] = ks
	}
	g.m.split[s] = parts
	return true, nil
}
