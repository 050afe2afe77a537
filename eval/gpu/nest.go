package gpu

// Nest analysis: from a SOAC statement to a segmented map.
//
// Futhark's moderate flattening (the segmented-scan seed, its SegMap code
// generation) runs a perfect nest of maps as one kernel over the nest's
// multi-dimensional index space, and the innermost body as sequential code
// per point of that space. nestOf finds that nest in one core statement:
//
//	map (\row -> map (\col -> f32.sum (map2 (*) row col)) (transpose b)) a
//
// is two parallel levels, [n][p], whose parameters are row i of a and row j
// of transpose b, and an innermost body (a redomap over the rows) that each
// of the n*p threads runs sequentially.
//
// A level is a map-only Screma (no scan, reduction or post-map) whose
// lambda ends in the next level's map, whose results are the lambda's
// results; the statements before it (its prelude) must be cheap and
// allocation-free (sizes, transposes, slices, scalar arithmetic), because
// every thread of the inner levels repeats them. Each level's width must be
// computable on the host before the launch: a host variable or constant, or
// a dimension of a host array reached through row parameters and
// transposes. Where either fails the nest stops, and the rest runs
// sequentially in the thread: `map (\row -> let s = f32.sum row in map (/s)
// row) xss` is a thread per row, not a thread per element that sums its
// whole row again.
//
// A core.Segmented statement (the fusion pass's rows form) contributes its
// outer dimensions as levels whose parameters are rows of the segment
// arrays; its per-row operation is another level when it is a map, and the
// sequential body (a thread per segment) otherwise.

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

// A nest is a perfectly nested map of one statement: Levels run in
// parallel, outermost first, and Body runs sequentially per point.
type nest struct {
	Stmt   *core.Stmt
	Levels []*level
	Body   *core.Body  // the innermost code; its results are one element of each result
	Ret    []core.Type // the innermost element types
	// ResultDims are the dimensions of array results as far as the host
	// knows them before the launch (nil where it does not): an empty
	// index space runs no thread to report them.
	ResultDims [][]*hostDim
}

// A level is one parallel dimension of a nest.
type level struct {
	W      core.Atom   // the width as the program writes it (plans show it)
	Dim    hostDim     // how the host computes it
	Params []*core.Var // bound to element i of Arrs
	Arrs   []*core.Var // the arrays indexed, visible where the level starts
	Index  *core.Var   // bound to i, or nil
	Pre    []*core.Stmt
	// Iotas are the arrays of Arrs that the enclosing prelude makes with
	// iota and uses for nothing else: their elements are index arithmetic,
	// and the prelude does not make them (the unfused form of
	// map (\i -> map (\j -> ...) (iota m)) (iota n)).
	Iotas map[string]*core.IotaExp
}

// hostDim is a size the host knows before the launch: a host-level atom, or
// dimension D of the host array Arr.
type hostDim struct {
	Atom core.Atom
	Arr  *core.Var
	D    int
	Sum  []hostDim // when non-empty: the sum of these (a concatenation)
}

func (d hostDim) String() string {
	if len(d.Sum) > 0 {
		var ts []string
		for _, t := range d.Sum {
			ts = append(ts, t.String())
		}
		return strings.Join(ts, " + ")
	}
	if d.Arr != nil {
		return fmt.Sprintf("size(%s, %d)", d.Arr.Name, d.D)
	}
	return core.AtomString(d.Atom)
}

// Space renders the index space as the plans show it: [n][m].
func (n *nest) Space() string {
	var b strings.Builder
	for _, l := range n.Levels {
		if l.W == nil {
			fmt.Fprintf(&b, "[%s]", l.Dim)
			continue
		}
		fmt.Fprintf(&b, "[%s]", core.AtomString(l.W))
	}
	return b.String()
}

// Sequential names what each thread runs on its own, for plans: the
// constructs of the innermost body that are not scalar arithmetic.
func (n *nest) Sequential() []string {
	seen := map[string]bool{}
	var out []string
	var walk func(b *core.Body)
	walk = func(b *core.Body) {
		for _, s := range b.Stmts {
			name := ""
			switch e := s.Exp.(type) {
			case *core.LoopExp:
				name = "loop"
				if core.WhileOf(e.Form) != nil {
					name = "loop while"
				}
				walk(e.Body)
			case *core.IfExp:
				walk(e.Then)
				walk(e.Else)
			case *core.UpdateExp:
				name = "in-place update"
			case *core.Screma, *core.Hist, *core.Scatter, *core.Filter, *core.Segmented:
				name = expName(e)
			case *core.IotaExp, *core.ReplicateExp, *core.ArrayLitExp, *core.CopyExp, *core.ConcatExp:
				name = "thread-local array"
			}
			if name != "" && !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	walk(n.Body)
	return out
}

// nestOf finds the nest of s, or says why s is not one.
func nestOf(s *core.Stmt) (*nest, error) {
	a := &nestAnalysis{sizes: map[string]hostDim{}, shapes: map[string][]*hostDim{}, bound: map[string]bool{}}
	markBound(s.Exp, a.bound)
	n := &nest{Stmt: s}
	var op *core.Screma
	switch e := s.Exp.(type) {
	case *core.Screma:
		if !isMapOnly(e) {
			return nil, unsup("%s is not a map", e.Kind())
		}
		op = e
	case *core.Segmented:
		if e.Op == nil {
			return nil, fmt.Errorf("internal error: segmented statement without an operation")
		}
		rows := append([]*core.Var(nil), e.Op.Arrs...)
		for d, w := range e.Outer {
			l := &level{W: w, Dim: a.dim(w)}
			if l.Dim.Atom == nil && l.Dim.Arr == nil {
				return nil, unsup("the segment count %s is not known before the launch", core.AtomString(w))
			}
			for k, arr := range rows {
				p := &core.Var{Name: fmt.Sprintf("ar_row%d_%d", d, k), Type: arr.Type.Row()}
				l.Arrs, l.Params = append(l.Arrs, arr), append(l.Params, p)
				a.bindRow(p, arr)
				rows[k] = p
			}
			n.Levels = append(n.Levels, l)
		}
		inner := *e.Op
		inner.Arrs = rows
		if !isMapOnly(&inner) {
			// A thread per segment runs the whole row operation.
			var pat []*core.Var
			var res []core.Atom
			for i, v := range s.Pat {
				r := &core.Var{Name: fmt.Sprintf("ar_seg_%d", i), Type: v.Type}
				for range e.Outer {
					r.Type = r.Type.Row()
				}
				pat, res = append(pat, r), append(res, r)
			}
			n.Body = &core.Body{Stmts: []*core.Stmt{{Pat: pat, Exp: &inner, Pos: s.Pos}}, Result: res}
			n.Ret = core.TypesOf(pat)
			a.results(n)
			return n, nil
		}
		op = &inner
	default:
		return nil, unsup("%s is not a map", expName(s.Exp))
	}
	// The first map level always counts; inner ones while the nest is perfect.
	var pre []*core.Stmt
	var iotas map[string]*core.IotaExp
	for {
		l := &level{W: op.W, Dim: a.dim(op.W), Params: op.Map.Params, Arrs: op.Arrs, Index: op.Index, Pre: pre, Iotas: iotas}
		if l.Dim.Atom == nil && l.Dim.Arr == nil {
			return nil, unsup("the width %s is not known before the launch", core.AtomString(op.W))
		}
		for k, p := range op.Map.Params {
			if p.Type.IsArray() {
				a.bindRow(p, op.Arrs[k])
			}
		}
		n.Levels = append(n.Levels, l)
		body := op.Map.Body
		next, nextPre, nextIotas := a.perfect(body)
		if next == nil {
			n.Body = body
			n.Ret = op.Map.Ret
			a.results(n)
			return n, nil
		}
		op, pre, iotas = next, nextPre, nextIotas
	}
}

// nestAnalysis tracks what the host knows about sizes inside a nest.
type nestAnalysis struct {
	sizes  map[string]hostDim    // scalar variable -> the host size it equals
	shapes map[string][]*hostDim // array variable -> its dimensions (nil: unknown)
	bound  map[string]bool       // variables bound inside the statement
}

// dim is the host form of a width atom; zero when the host cannot know it.
func (a *nestAnalysis) dim(w core.Atom) hostDim {
	switch w := w.(type) {
	case *core.Var:
		if d, ok := a.sizes[w.Name]; ok {
			return d
		}
		if !a.bound[w.Name] {
			return hostDim{Atom: w}
		}
		return hostDim{}
	case core.Const, *core.Const:
		return hostDim{Atom: w}
	}
	return hostDim{}
}

// shape is what the host knows of arr's dimensions.
func (a *nestAnalysis) shape(arr *core.Var) []*hostDim {
	if sh, ok := a.shapes[arr.Name]; ok {
		return sh
	}
	sh := make([]*hostDim, arr.Type.Rank)
	if !a.bound[arr.Name] {
		for d := range sh {
			sh[d] = &hostDim{Arr: arr, D: d}
		}
	}
	return sh
}

func (a *nestAnalysis) bindRow(p, arr *core.Var) {
	sh := a.shape(arr)
	if len(sh) > 0 {
		a.shapes[p.Name] = sh[1:]
	}
}

// perfect returns the inner map of a level's body and the prelude before
// it, when the body is a perfect nest; nil otherwise. It records the sizes
// and shapes the prelude defines.
func (a *nestAnalysis) perfect(b *core.Body) (*core.Screma, []*core.Stmt, map[string]*core.IotaExp) {
	if len(b.Stmts) == 0 {
		return nil, nil, nil
	}
	last := b.Stmts[len(b.Stmts)-1]
	op, ok := last.Exp.(*core.Screma)
	if seg, isSeg := last.Exp.(*core.Segmented); isSeg && seg.Op != nil && isMapOnly(seg.Op) && len(seg.Outer) == 1 {
		op, ok = segmentedAsMap(last, seg), true
	}
	if !ok || !isMapOnly(op) || len(last.Pat) != len(b.Result) {
		return nil, nil, nil
	}
	for i, v := range last.Pat {
		r, ok := b.Result[i].(*core.Var)
		if !ok || r.Name != v.Name {
			return nil, nil, nil
		}
	}
	var pre []*core.Stmt
	var iotas map[string]*core.IotaExp
	for k, s := range b.Stmts[:len(b.Stmts)-1] {
		if io, ok := s.Exp.(*core.IotaExp); ok && len(s.Pat) == 1 && onlyInput(s.Pat[0], b.Stmts[k+1:], op) {
			if iotas == nil {
				iotas = map[string]*core.IotaExp{}
			}
			iotas[s.Pat[0].Name] = io
			a.record(s)
			continue
		}
		if !cheap(s.Exp) {
			return nil, nil, nil
		}
		a.record(s)
		pre = append(pre, s)
	}
	if d := a.dim(op.W); d.Atom == nil && d.Arr == nil {
		return nil, nil, nil
	}
	return op, pre, iotas
}

// onlyInput reports whether v is used by the statements after its
// definition (the last of which is op's) only as one of op's input arrays
// or through its size.
func onlyInput(v *core.Var, after []*core.Stmt, op *core.Screma) bool {
	for _, s := range after[:len(after)-1] {
		if _, isSize := s.Exp.(*core.SizeExp); isSize {
			continue
		}
		if reads(s, v.Name) {
			return false
		}
	}
	fs := newFreeSet()
	fs.lambda(op.Map, nil, map[string]bool{})
	if fs.seen[v.Name] {
		return false
	}
	if w, ok := op.W.(*core.Var); ok && w.Name == v.Name {
		return false
	}
	for _, x := range op.Arrs {
		if x.Name == v.Name {
			return true
		}
	}
	return false
}

// results works out what the host knows of the shapes of n's array
// results.
func (a *nestAnalysis) results(n *nest) {
	a.body(n.Body)
	n.ResultDims = make([][]*hostDim, len(n.Body.Result))
	for i, r := range n.Body.Result {
		if v, ok := r.(*core.Var); ok && v.Type.IsArray() {
			n.ResultDims[i] = a.shape(v)
		}
	}
}

// body records the shapes a body's statements define, so far as they are
// known on the host.
func (a *nestAnalysis) body(b *core.Body) {
	for _, s := range b.Stmts {
		a.record(s)
	}
}

// lambdaResults are the shapes of l's results with its parameters bound to
// rows of arrs.
func (a *nestAnalysis) lambdaResults(l *core.Lambda, arrs []*core.Var) [][]*hostDim {
	for k, p := range l.Params {
		if p.Type.IsArray() && k < len(arrs) {
			a.bindRow(p, arrs[k])
		}
	}
	a.body(l.Body)
	out := make([][]*hostDim, len(l.Body.Result))
	for i, r := range l.Body.Result {
		if v, ok := r.(*core.Var); ok && v.Type.IsArray() {
			out[i] = a.shape(v)
		}
	}
	return out
}

// known is d if the host knows it, else nil.
func known(d hostDim) *hostDim {
	if d.Atom == nil && d.Arr == nil && len(d.Sum) == 0 {
		return nil
	}
	return &d
}

// record notes the sizes and shapes a statement defines.
func (a *nestAnalysis) record(s *core.Stmt) {
	switch e := s.Exp.(type) {
	case *core.Screma:
		a.recordScrema(s, e)
		return
	case *core.Scatter:
		// Each result is a copy of its destination.
		for j, d := range e.Dests {
			if j < len(s.Pat) {
				a.shapes[s.Pat[j].Name] = a.shape(d)
			}
		}
		return
	case *core.Hist:
		// The results are the operators' destinations, in order.
		j := 0
		for _, op := range e.Ops {
			for _, d := range op.Dests {
				if j < len(s.Pat) {
					a.shapes[s.Pat[j].Name] = a.shape(d)
				}
				j++
			}
		}
		return
	case *core.LoopExp:
		for i, p := range e.Params {
			if x, ok := e.Init[i].(*core.Var); ok && p.Type.IsArray() && i < len(s.Pat) {
				a.shapes[s.Pat[i].Name] = a.shape(x)
			}
		}
		return
	case *core.Segmented:
		a.recordSegmented(s, e)
		return
	}
	if len(s.Pat) != 1 {
		return
	}
	v := s.Pat[0]
	switch e := s.Exp.(type) {
	case *core.SizeExp:
		if sh := a.shape(e.Arr); e.Dim < len(sh) && sh[e.Dim] != nil {
			a.sizes[v.Name] = *sh[e.Dim]
		}
	case *core.AtomExp:
		if x, ok := e.A.(*core.Var); ok {
			if d, ok := a.sizes[x.Name]; ok {
				a.sizes[v.Name] = d
			}
			if x.Type.IsArray() {
				a.shapes[v.Name] = a.shape(x)
			}
		}
	case *core.TransposeExp:
		sh := append([]*hostDim(nil), a.shape(e.Arr)...)
		if len(sh) >= 2 {
			sh[0], sh[1] = sh[1], sh[0]
		}
		a.shapes[v.Name] = sh
	case *core.CopyExp:
		a.shapes[v.Name] = a.shape(e.Arr)
	case *core.UpdateExp:
		a.shapes[v.Name] = a.shape(e.Arr)
	case *core.IndexExp:
		if v.Type.IsArray() {
			a.shapes[v.Name] = a.sliceShape(e)
		}
	case *core.ConcatExp:
		if len(e.Arrs) > 0 {
			sum := &hostDim{}
			for _, x := range e.Arrs {
				d := a.shape(x)
				if len(d) == 0 || d[0] == nil {
					sum = nil
					break
				}
				sum.Sum = append(sum.Sum, *d[0])
			}
			a.shapes[v.Name] = append([]*hostDim{sum}, a.shape(e.Arrs[0])[1:]...)
		}
	case *core.ReverseExp:
		a.shapes[v.Name] = a.shape(e.Arr)
	case *core.RotateExp:
		a.shapes[v.Name] = a.shape(e.Arr)
	case *core.IotaExp:
		a.shapes[v.Name] = []*hostDim{known(a.dim(e.N))}
	case *core.ReplicateExp:
		sh := []*hostDim{known(a.dim(e.N))}
		if x, ok := e.V.(*core.Var); ok && x.Type.IsArray() {
			sh = append(sh, a.shape(x)...)
		}
		a.shapes[v.Name] = sh
	case *core.ArrayLitExp:
		sh := []*hostDim{{Atom: core.IntConst(core.I64, int64(len(e.Elems)))}}
		if x, ok := firstVar(e.Elems); ok && e.Elem.IsArray() {
			sh = append(sh, a.shape(x)...)
		} else {
			for k := 0; k < e.Elem.Rank; k++ {
				sh = append(sh, nil)
			}
		}
		a.shapes[v.Name] = sh
	}
}

// recordSegmented notes the shapes of a segmented operation's results: the
// outer dimensions, then what its operation gives one segment, found by
// recording the operation over the inputs' segments.
func (a *nestAnalysis) recordSegmented(s *core.Stmt, e *core.Segmented) {
	if e.Op == nil {
		return
	}
	outer := make([]*hostDim, len(e.Outer))
	for d, w := range e.Outer {
		outer[d] = known(a.dim(w))
	}
	saved := map[string][]*hostDim{}
	for _, x := range e.Op.Arrs {
		if _, done := saved[x.Name]; done {
			continue
		}
		sh, had := a.shapes[x.Name]
		saved[x.Name] = sh
		if !had {
			saved[x.Name] = nil
		}
		if full := a.shape(x); len(full) >= len(outer) {
			a.shapes[x.Name] = full[len(outer):]
		}
	}
	a.recordScrema(s, e.Op)
	for name, sh := range saved {
		if sh == nil {
			delete(a.shapes, name)
		} else {
			a.shapes[name] = sh
		}
	}
	for _, v := range s.Pat {
		if !v.Type.IsArray() {
			continue
		}
		// recordScrema padded the segment's shape to the rank of v,
		// which counts the outer dimensions too: keep the segment's.
		want := v.Type.Rank - len(outer)
		inner := a.shapes[v.Name]
		if want < 0 || len(inner) < want {
			inner = make([]*hostDim, max(want, 0))
		}
		inner = inner[:max(want, 0)]
		a.shapes[v.Name] = append(append([]*hostDim{}, outer...), inner...)
	}
}

// recordScrema notes the shapes of a screma's array results: a scanned or
// mapped-out array has the screma's width outside the shape of the
// lambda's result, a reduced value the lambda result's shape; the
// post-map's results have the width outside (their rows' shapes are not
// followed).
func (a *nestAnalysis) recordScrema(s *core.Stmt, e *core.Screma) {
	w := known(a.dim(e.W))
	res := a.lambdaResults(e.Map, e.Arrs)
	ns, nr := e.NumScanned(), e.NumReduced()
	set := func(v *core.Var, outer bool, sh []*hostDim) {
		if !v.Type.IsArray() {
			return
		}
		var full []*hostDim
		if outer {
			full = []*hostDim{w}
		}
		if sh == nil {
			sh = make([]*hostDim, v.Type.Rank-len(full))
		}
		a.shapes[v.Name] = append(full, sh...)
	}
	elem := func(i int) []*hostDim {
		if i < len(res) {
			return res[i]
		}
		return nil
	}
	if e.Post != nil {
		np := len(e.Post.Ret)
		for i, v := range s.Pat {
			if i < np {
				set(v, true, nil)
			} else {
				set(v, false, elem(ns+i-np))
			}
		}
		return
	}
	for i, v := range s.Pat {
		set(v, i < ns || i >= ns+nr, elem(i))
	}
}

// sliceShape is what the host knows of the shape of a slice of an array:
// a fixed index drops its dimension; a slice with constant bounds has
// their count, one from 0 with stride 1 its end; a dimension not indexed
// is the array's.
func (a *nestAnalysis) sliceShape(e *core.IndexExp) []*hostDim {
	sh := a.shape(e.Arr)
	var out []*hostDim
	for _, d := range e.Idx {
		if d.Fix != nil {
			continue
		}
		out = append(out, a.sliceDim(d))
	}
	if len(e.Idx) < len(sh) {
		out = append(out, sh[len(e.Idx):]...)
	}
	return out
}

// sliceDim is the length of the slice d when the host knows it, else nil.
func (a *nestAnalysis) sliceDim(d core.DimIndex) *hostDim {
	i, iok := d.Start.(core.Const)
	j, jok := d.End.(core.Const)
	q, qok := d.Stride.(core.Const)
	switch {
	case iok && jok && qok && q.Int() != 0:
		// Futhark's count, as the kernel computes it (inkernel.go's slice).
		n := int64(0)
		if q.Int() > 0 {
			n = (j.Int() - i.Int() + q.Int() - 1) / q.Int()
		} else {
			n = (i.Int() - j.Int() - q.Int() - 1) / -q.Int()
		}
		return &hostDim{Atom: core.IntConst(core.I64, max(n, 0))}
	case iok && i.Int() == 0 && qok && q.Int() == 1:
		return known(a.dim(d.End))
	}
	return nil
}

func firstVar(as []core.Atom) (*core.Var, bool) {
	if len(as) == 0 {
		return nil, false
	}
	v, ok := as[0].(*core.Var)
	return v, ok
}

// cheap reports whether every thread of the inner levels may repeat e: it
// reads or views memory, or computes a scalar, but allocates and loops
// nothing.
func cheap(e core.Exp) bool {
	switch e := e.(type) {
	case *core.AtomExp, *core.BinOpExp, *core.UnOpExp, *core.ConvExp, *core.SizeExp,
		*core.TransposeExp, *core.ReverseExp, *core.AssertExp:
		return true
	case *core.IndexExp:
		return true
	case *core.IfExp:
		for _, b := range []*core.Body{e.Then, e.Else} {
			for _, s := range b.Stmts {
				if !cheap(s.Exp) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// segmentedAsMap is a segmented SOAC over one outer dimension as the map
// over rows it came from: map (\rows -> op rows) arrs.
func segmentedAsMap(s *core.Stmt, x *core.Segmented) *core.Screma {
	var params []*core.Var
	for k, a := range x.Op.Arrs {
		params = append(params, &core.Var{Name: fmt.Sprintf("ar_segrow%d_%s", k, s.Pat[0].Name), Type: a.Type.Row()})
	}
	inner := *x.Op
	inner.Arrs = params
	var pat []*core.Var
	var res []core.Atom
	for i, v := range s.Pat {
		r := &core.Var{Name: fmt.Sprintf("ar_segres%d_%s", i, s.Pat[0].Name), Type: v.Type.Row()}
		pat, res = append(pat, r), append(res, r)
	}
	lam := &core.Lambda{Params: params, Ret: core.TypesOf(pat),
		Body: &core.Body{Stmts: []*core.Stmt{{Pat: pat, Exp: &inner, Pos: s.Pos}}, Result: res}}
	return &core.Screma{W: x.Outer[0], Arrs: x.Op.Arrs, Map: lam}
}

// isMapOnly reports whether op is a plain map.
func isMapOnly(op *core.Screma) bool {
	return len(op.Scans) == 0 && len(op.Reds) == 0 && op.Post == nil
}

// markBound adds every variable e binds anywhere inside it.
func markBound(e core.Exp, bound map[string]bool) {
	var body func(b *core.Body)
	var lambda func(l *core.Lambda)
	body = func(b *core.Body) {
		for _, s := range b.Stmts {
			for _, v := range s.Pat {
				bound[v.Name] = true
			}
			markBound(s.Exp, bound)
		}
	}
	lambda = func(l *core.Lambda) {
		if l == nil {
			return
		}
		for _, p := range l.Params {
			bound[p.Name] = true
		}
		body(l.Body)
	}
	v := visitor{
		atom:   func(core.Atom) {},
		lambda: func(l *core.Lambda, extra []*core.Var) { lambda(l); markVars(extra, bound) },
		body:   func(b *core.Body, binds []*core.Var) { markVars(binds, bound); body(b) },
	}
	_ = v.exp(e)
}

func markVars(vs []*core.Var, bound map[string]bool) {
	for _, v := range vs {
		bound[v.Name] = true
	}
}
