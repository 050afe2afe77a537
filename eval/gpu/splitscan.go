package gpu

// Splitting a scan from the reductions fused beside it. Horizontal fusion
// joins a scan and a reduction over the same array into one screma
// (`scan (+) 0 xs` and `reduce (+) 0 xs`, or radix sort's prefix sums and
// count), and no single kernel family covers both: the scan module takes
// scans (with map-outs and a post-map), the redomap kernels reductions. So
// such a statement runs as two over the same inputs, each with the map
// function cut down to the results it needs: the scan part in the scan
// module, then the reduction part in a redomap kernel. The map runs twice
// and the inputs are read twice; the alternative is the CPU.

import (
	"github.com/arepl/arepl/lang/core"
)

// splitScanReds returns s's scan part and reduction part, or nil when s
// is not a screma with both scans and reductions.
func splitScanReds(s *core.Stmt) []*core.Stmt {
	e, ok := s.Exp.(*core.Screma)
	if !ok || len(e.Scans) == 0 || len(e.Reds) == 0 {
		return nil
	}
	nScan, nRed := 0, 0
	for _, sc := range e.Scans {
		nScan += len(sc.Neutral)
	}
	for _, r := range e.Reds {
		nRed += len(r.Neutral)
	}
	m := e.Map
	if len(m.Body.Result) < nScan+nRed || len(m.Ret) != len(m.Body.Result) {
		return nil
	}
	// sub is the map function returning only the results at idx.
	sub := func(idx []int) *core.Lambda {
		l := &core.Lambda{Params: m.Params, Body: &core.Body{Stmts: m.Body.Stmts}}
		for _, i := range idx {
			l.Body.Result = append(l.Body.Result, m.Body.Result[i])
			l.Ret = append(l.Ret, m.Ret[i])
		}
		return l
	}
	var scanIdx, redIdx []int
	for i := range m.Body.Result {
		if i >= nScan && i < nScan+nRed {
			redIdx = append(redIdx, i)
		} else {
			scanIdx = append(scanIdx, i)
		}
	}
	// Results: without a post-map, scans, reductions, map-outs; with one,
	// the post-map's, then the reductions.
	var scanPat, redPat []*core.Var
	if e.Post == nil {
		if len(s.Pat) != len(m.Body.Result) {
			return nil
		}
		scanPat = append(append(scanPat, s.Pat[:nScan]...), s.Pat[nScan+nRed:]...)
		redPat = s.Pat[nScan : nScan+nRed]
	} else {
		if len(s.Pat) != len(e.Post.Ret)+nRed {
			return nil
		}
		scanPat, redPat = s.Pat[:len(e.Post.Ret)], s.Pat[len(e.Post.Ret):]
	}
	scans := &core.Stmt{Pat: scanPat, Pos: s.Pos,
		Exp: &core.Screma{W: e.W, Arrs: e.Arrs, Index: e.Index, Map: sub(scanIdx), Scans: e.Scans, Post: e.Post}}
	reds := &core.Stmt{Pat: redPat, Pos: s.Pos,
		Exp: &core.Screma{W: e.W, Arrs: e.Arrs, Index: e.Index, Map: sub(redIdx), Reds: e.Reds}}
	return []*core.Stmt{scans, reds}
}

// splitScans tries to run s as its scan part, then its reduction part (see
// the file comment): ok reports whether both have GPU kernels.
func (g *generator) splitScans(s *core.Stmt) (bool, error) {
	parts := splitScanReds(s)
	if parts == nil || !g.scanCovers(parts[0]) {
		return false, nil
	}
	ks, err := g.family(parts[1], parts[1].Exp.(*core.Screma), nil)
	if isUnsupported(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, k := range ks {
		g.kbuf.WriteString(k.src)
	}
	g.m.kernels[parts[1]] = ks
	g.m.split[s] = parts
	return true, nil
}
