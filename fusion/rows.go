package fusion

import (
	"github.com/arepl/arepl/lang/core"
)

// rows turns `map (\row -> soac row) xss` into core.Segmented: a map over
// the rows of matrices whose lambda does nothing but run one Screma over
// its row parameters is the regular segmented form of the segmented-scan
// thesis (segmented scan, segmented reduce, or a flattened map).
func (f *fuser) rows(b *core.Body) {
	var out []*core.Stmt
	for _, s := range b.Stmts {
		outer, ok := s.Exp.(*core.Screma)
		if !ok || !isMapOnly(outer) || outer.Index != nil {
			out = append(out, s)
			continue
		}
		inner, widthFrom, ok := rowSOAC(outer)
		if !ok {
			out = append(out, s)
			continue
		}
		// The segment width, computed outside from the input the inner
		// width was measured on (all rows of a regular array are alike).
		seg := inner.W
		if widthFrom >= 0 {
			w := f.fresh("seg", core.Scalar(core.I64))
			out = append(out, &core.Stmt{Pat: []*core.Var{w},
				Exp: &core.SizeExp{Arr: outer.Arrs[widthFrom], Dim: 1}, Pos: s.Pos})
			seg = w
		}
		rowArr := map[string]*core.Var{}
		for k, p := range outer.Map.Params {
			rowArr[p.Name] = outer.Arrs[k]
		}
		op := &core.Screma{W: seg, Map: inner.Map, Scans: inner.Scans, Reds: inner.Reds, Post: inner.Post}
		for _, a := range inner.Arrs {
			op.Arrs = append(op.Arrs, rowArr[a.Name])
		}
		out = append(out, &core.Stmt{Pat: s.Pat, Exp: &core.Segmented{Outer: []core.Atom{outer.W}, Op: op}, Pos: s.Pos})
		f.applied("rows", soacName(s), soacName(s), "map ("+kindOf(inner)+") over rows into a segmented "+kindOf(inner), "")
	}
	b.Stmts = out
}

// rowSOAC recognises the lambda of a row-wise map: statements that are
// only `length row` of its parameters and one Screma over its parameters,
// whose results are the lambda's results. widthFrom is the index of the
// outer input whose row length is the inner width (-1 when the width is a
// constant or a free variable).
func rowSOAC(outer *core.Screma) (inner *core.Screma, widthFrom int, ok bool) {
	lam := outer.Map
	isParam := map[string]int{}
	for k, p := range lam.Params {
		if p.Type.Rank == 0 {
			return nil, 0, false
		}
		isParam[p.Name] = k
	}
	lengthOf := map[string]int{} // size variable -> parameter index
	var innerStmt *core.Stmt
	for _, s := range lam.Body.Stmts {
		switch e := s.Exp.(type) {
		case *core.SizeExp:
			k, ok := isParam[e.Arr.Name]
			if !ok || e.Dim != 0 {
				return nil, 0, false
			}
			lengthOf[s.Pat[0].Name] = k
		case *core.Screma:
			if innerStmt != nil {
				return nil, 0, false
			}
			innerStmt = s
		default:
			return nil, 0, false
		}
	}
	if innerStmt == nil {
		return nil, 0, false
	}
	inner = innerStmt.Exp.(*core.Screma)
	if inner.Index != nil || len(inner.Arrs) == 0 {
		return nil, 0, false
	}
	for _, a := range inner.Arrs {
		if _, ok := isParam[a.Name]; !ok {
			return nil, 0, false
		}
	}
	if len(lam.Body.Result) != len(innerStmt.Pat) {
		return nil, 0, false
	}
	for k, r := range lam.Body.Result {
		if v, ok := r.(*core.Var); !ok || v.Name != innerStmt.Pat[k].Name {
			return nil, 0, false
		}
	}
	widthFrom = -1
	switch w := inner.W.(type) {
	case *core.Var:
		k, ok := lengthOf[w.Name]
		if !ok {
			return nil, 0, false
		}
		widthFrom = k
	case core.Const:
	}
	// The inner operators must not read the row parameters or the lengths
	// other than through the inner SOAC's inputs and width.
	local := map[string]bool{}
	for name := range isParam {
		local[name] = true
	}
	for name := range lengthOf {
		local[name] = true
	}
	clean := true
	reads(inner, func(v *core.Var, w where) {
		if local[v.Name] && w != soacIn && !(w == direct && v.Name == atomString(inner.W)) {
			clean = false
		}
	})
	if !clean {
		return nil, 0, false
	}
	return inner, widthFrom, true
}
