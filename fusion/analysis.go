package fusion

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// use is one read of a variable within a body: the index of the reading
// statement (len(Stmts) for the body's result) and how it is read.
type use struct {
	stmt int
	w    where
}

// bodyInfo is the def-use picture of one body that every fusion decision
// consults: where each variable is defined and where it is read.
type bodyInfo struct {
	defs map[string]int
	uses map[string][]use
}

func analyze(b *core.Body) *bodyInfo {
	info := &bodyInfo{defs: map[string]int{}, uses: map[string][]use{}}
	for i, s := range b.Stmts {
		for _, v := range s.Pat {
			info.defs[v.Name] = i
		}
		reads(s.Exp, func(v *core.Var, w where) {
			info.uses[v.Name] = append(info.uses[v.Name], use{i, w})
		})
	}
	for _, a := range b.Result {
		if v, ok := a.(*core.Var); ok {
			info.uses[v.Name] = append(info.uses[v.Name], use{len(b.Stmts), direct})
		}
	}
	return info
}

// sizes groups atoms known to denote the same array size: SOAC widths and
// the outer sizes of the arrays they produce, iota and replicate counts,
// and variables bound by `length`-style SizeExp statements or copies. It
// is what lets horizontal fusion see that two SOACs run over the same
// width even when lowering computed that width twice.
type sizes struct{ parent map[string]string }

func newSizes(b *core.Body) *sizes {
	s := &sizes{parent: map[string]string{}}
	equal := map[string][2]core.Atom{} // bool variable -> the sizes it compares
	for _, st := range b.Stmts {
		switch e := st.Exp.(type) {
		case *core.BinOpExp:
			if e.Op == core.Eq && e.T == core.I64 && len(st.Pat) == 1 {
				equal[st.Pat[0].Name] = [2]core.Atom{e.X, e.Y}
			}
		case *core.AssertExp:
			// After `assert (n == m)` (how lowering checks size parameters)
			// the two sizes are the same.
			if c, ok := e.Cond.(*core.Var); ok {
				if xy, ok := equal[c.Name]; ok {
					s.union(atomKey(xy[0]), atomKey(xy[1]))
				}
			}
		case *core.SizeExp:
			if e.Dim == 0 && len(st.Pat) == 1 {
				s.union(varKey(st.Pat[0]), "size:"+e.Arr.Name)
			}
		case *core.AtomExp:
			if len(st.Pat) == 1 && st.Pat[0].Type.Rank == 0 {
				s.union(varKey(st.Pat[0]), atomKey(e.A))
			}
		case *core.IotaExp:
			s.union("size:"+st.Pat[0].Name, atomKey(e.N))
		case *core.ReplicateExp:
			s.union("size:"+st.Pat[0].Name, atomKey(e.N))
		case *core.Screma:
			w := atomKey(e.W)
			for _, a := range e.Arrs {
				s.union(w, "size:"+a.Name)
			}
			for _, v := range widthResults(st.Pat, e) {
				s.union(w, "size:"+v.Name)
			}
		}
	}
	return s
}

// widthResults are the results of a Screma statement whose outer size is
// its width: scanned values, map-outs and post-map outputs, not the
// reductions' results (an array, for a vector operator, of any size).
// core.Screma documents the order of the results.
func widthResults(pat []*core.Var, e *core.Screma) []*core.Var {
	lay := layoutOf(e)
	redFrom := lay.nScan
	if e.Post != nil {
		redFrom = len(pat) - lay.nRed
	}
	var out []*core.Var
	for i, v := range pat {
		if v.Type.Rank > 0 && (i < redFrom || i >= redFrom+lay.nRed) {
			out = append(out, v)
		}
	}
	return out
}

func varKey(v *core.Var) string { return "var:" + v.Name }

func atomKey(a core.Atom) string {
	switch a := a.(type) {
	case *core.Var:
		return varKey(a)
	case core.Const:
		return fmt.Sprintf("const:%d", a.Int())
	}
	return "?"
}

func (s *sizes) find(k string) string {
	for {
		p, ok := s.parent[k]
		if !ok || p == k {
			return k
		}
		k = p
	}
}

func (s *sizes) union(a, b string) {
	ra, rb := s.find(a), s.find(b)
	if ra != rb {
		s.parent[ra] = rb
	}
}

func (s *sizes) same(a, b core.Atom) bool { return s.find(atomKey(a)) == s.find(atomKey(b)) }

// layout splits the results of a Screma (its pattern, or its map lambda's
// results) into the groups core.Screma documents.
type layout struct {
	nScan, nRed, nMapOut int
}

func layoutOf(e *core.Screma) layout {
	l := layout{}
	for _, s := range e.Scans {
		l.nScan += len(s.Neutral)
	}
	for _, r := range e.Reds {
		l.nRed += len(r.Neutral)
	}
	l.nMapOut = len(e.Map.Ret) - l.nScan - l.nRed
	return l
}

// patGroups splits a Screma's pattern: without a post-map it is scanned
// arrays, reduced scalars, map-out arrays; with one, the post-map's
// outputs then the reduced scalars.
func patGroups(e *core.Screma, pat []*core.Var) (scanned, reds, mapouts, post []*core.Var) {
	l := layoutOf(e)
	if e.Post != nil {
		n := len(e.Post.Ret)
		return nil, pat[n : n+l.nRed], nil, pat[:n]
	}
	return pat[:l.nScan], pat[l.nScan : l.nScan+l.nRed], pat[l.nScan+l.nRed:], nil
}

// isMapOnly reports whether e is a plain map (no scans, reductions or
// post-map).
func isMapOnly(e *core.Screma) bool {
	return len(e.Scans) == 0 && len(e.Reds) == 0 && e.Post == nil
}
