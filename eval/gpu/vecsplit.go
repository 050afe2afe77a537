package gpu

// Redomaps and scanomaps with vector operators, `reduce (map2 op) ne (map
// f xs)` fused into one statement whose map makes a row per element, as
// users write it and as lang/ad's return sweep writes adjoint sums (a
// one-hot adjoint per element, summed by `map2 (+)`). The interchange that
// vecop.go applies to a reduction over rows, a map over columns of a
// scalar reduction, needs the rows in memory, so such a statement runs as
// split.go's two: the segmented map computes every row into an [n][m]
// array, and the reduction (or scan) of that array with the identity map
// runs as vecop.go's column kernel, a thread per column. The rows cost one
// write and one read; the alternative is the CPU.
//
// The neutral element may be written `replicate m v`, `[v, v, ...]`, or,
// as lang/ad's zeros are, a map whose function ignores its arguments and
// returns a value bound outside it (replicated).

import "github.com/arepl/arepl/lang/core"

// vectorReduce reports whether s is a Screma without a post-map with at
// least one reduction or scan whose neutral element is an array: one with
// a vector operator. split.go's map may then return arrays (the rows).
func vectorReduce(s *core.Stmt) bool {
	e, ok := s.Exp.(*core.Screma)
	if !ok || e.Post != nil {
		return false
	}
	var neutrals []core.Atom
	for _, r := range e.Reds {
		neutrals = append(neutrals, r.Neutral...)
	}
	for _, sc := range e.Scans {
		neutrals = append(neutrals, sc.Neutral...)
	}
	for _, ne := range neutrals {
		if ne.AtomType().IsArray() {
			return true
		}
	}
	return false
}

// replicated recognises def as the definition of an array whose elements
// are all one scalar: `replicate n v` with v a scalar, a literal [v, v,
// ...] of n elements, or `map (\_ -> v) xs` over n elements with v a constant or a variable the map's function
// does not bind. It returns n and v.
func replicated(def *core.Stmt) (n, v core.Atom, ok bool) {
	if def == nil {
		return nil, nil, false
	}
	switch e := def.Exp.(type) {
	case *core.ReplicateExp:
		if e.V.AtomType().IsArray() {
			return nil, nil, false
		}
		return e.N, e.V, true
	case *core.ArrayLitExp:
		// [v, v, ...]: a neutral element written out, as in
		// `reduce (map2 (+)) [0, 0]`.
		if len(e.Elems) == 0 || e.Elem.IsArray() {
			return nil, nil, false
		}
		for _, x := range e.Elems[1:] {
			if !sameAtom(x, e.Elems[0]) {
				return nil, nil, false
			}
		}
		return core.IntConst(core.I64, int64(len(e.Elems))), e.Elems[0], true
	case *core.Screma:
		if len(def.Pat) != 1 || len(e.Scans) > 0 || len(e.Reds) > 0 || e.Post != nil ||
			len(e.Map.Body.Stmts) > 0 || len(e.Map.Body.Result) != 1 {
			return nil, nil, false
		}
		r := e.Map.Body.Result[0]
		if r.AtomType().IsArray() {
			return nil, nil, false
		}
		if x, isVar := r.(*core.Var); isVar {
			if e.Index != nil && x.Name == e.Index.Name {
				return nil, nil, false
			}
			for _, p := range e.Map.Params {
				if p.Name == x.Name {
					return nil, nil, false
				}
			}
		}
		return e.W, r, true
	}
	return nil, nil, false
}
