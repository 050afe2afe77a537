package gpu

// Redomaps with vector operators, `reduce (map2 op) ne (map f xs)` fused
// into one statement whose map makes a row per element, as users write it
// and as lang/ad's return sweep writes adjoint sums (a one-hot adjoint per
// element, summed by `map2 (+)`). The interchange that vecop.go applies to
// a reduction over rows, a map over columns of a scalar reduction, needs
// the rows in memory, so such a statement runs as split.go's two: the
// segmented map computes every row into an [n][m] array, and the reduction
// of that array with the identity map runs as vecop.go's column kernel, a
// thread per column. The rows cost one write and one read; the alternative
// is the CPU.
//
// The neutral element may be written `replicate m v` or, as lang/ad's
// zeros are, a map whose function ignores its arguments and returns a
// value bound outside it (replicated).

import "github.com/arepl/arepl/lang/core"

// vectorReduce reports whether s is a Screma with at least one reduction
// whose neutral element is an array: a reduction with a vector operator.
// split.go's map may then return arrays (the rows).
func vectorReduce(s *core.Stmt) bool {
	e, ok := s.Exp.(*core.Screma)
	if !ok || len(e.Scans) > 0 || e.Post != nil {
		return false
	}
	for _, r := range e.Reds {
		for _, ne := range r.Neutral {
			if ne.AtomType().IsArray() {
				return true
			}
		}
	}
	return false
}

// replicated recognises def as the definition of an array whose elements
// are all one scalar: `replicate n v` with v a scalar, or `map (\_ -> v)
// xs` over n elements with v a constant or a variable the map's function
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
