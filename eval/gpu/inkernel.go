package gpu

// Arrays and sequential SOACs inside a kernel (the innermost body of a
// segmented map, nest.go).
//
// In this mode (emitter.arrays) an array variable x of rank r is a strided
// view: C variables v_x (element pointer), v_x_d0.. (dimensions) and
// v_x_s0.. (strides in elements). Slices, transposes and reversals only
// make new views. Arrays a thread makes (iota, replicate, literals, copies,
// the results of inner SOACs) live in the thread's column of a global
// scratch buffer of 8-byte slots: slot k of thread t is
// ar_scratch[k*ar_nt + t], so neighbouring threads touch neighbouring words
// (the layout Futhark's memory expansion gives private arrays). A bump
// pointer (ar_top) allocates; a thread that would pass ar_cap slots
// records what it needs in *ar_need and stops, and the host relaunches
// with more. Loops and inner SOACs reset the pointer after each iteration,
// so memory is bounded by one iteration's arrays.
//
// In-place updates: a loop's array parameters get storage of their own at
// loop entry; an update of such a parameter writes in place when nothing
// later in the body reads it (the CPU interpreter's rule, eval/cpu's
// inplace.go); any other update copies first.

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

func dimName(base string, k int) string    { return fmt.Sprintf("%s_d%d", base, k) }
func strideName(base string, k int) string { return fmt.Sprintf("%s_s%d", base, k) }

// arrayDecl declares the view variables of an array.
func (e *emitter) arrayDecl(base string, t core.Type) {
	var parts []string
	for k := 0; k < t.Rank; k++ {
		parts = append(parts, dimName(base, k), strideName(base, k))
	}
	e.line("%s *%s; i64 %s;", ctype(t.Elem), base, strings.Join(parts, ", "))
}

// setView assigns a view: ptr is a C pointer expression.
func (e *emitter) setView(base string, elem core.PrimType, ptr string, dims, strides []string) {
	e.line("%s = (%s *)(%s);", base, ctype(elem), ptr)
	for k := range dims {
		e.line("%s = %s; %s = %s;", dimName(base, k), dims[k], strideName(base, k), strides[k])
	}
}

func viewDims(base string, rank int) []string {
	out := make([]string, rank)
	for k := range out {
		out[k] = dimName(base, k)
	}
	return out
}

func viewStrides(base string, rank int) []string {
	out := make([]string, rank)
	for k := range out {
		out[k] = strideName(base, k)
	}
	return out
}

// arrayVar is the view of an array atom.
func arrayVar(a core.Atom) (*core.Var, bool) {
	v, ok := a.(*core.Var)
	return v, ok && v.Type.IsArray()
}

// alloc gives base fresh scratch storage of the given dimensions (C
// expressions), row-major.
func (e *emitter) alloc(base string, elem core.PrimType, dims []string) {
	e.scratch = true
	r := len(dims)
	for k, d := range dims {
		e.line("%s = %s;", dimName(base, k), d)
	}
	e.line("%s = ar_nt * %d;", strideName(base, r-1), 8/elem.Size())
	for k := r - 2; k >= 0; k-- {
		e.line("%s = %s * %s;", strideName(base, k), strideName(base, k+1), dimName(base, k+1))
	}
	cnt := "(i64)1"
	for k := range dims {
		cnt += " * " + dimName(base, k)
	}
	e.line("{")
	e.line("  const i64 ar_c = max((i64)0, %s);", cnt)
	e.line("  if (ar_top + ar_c > ar_cap) { atomicMax((unsigned long long *)ar_aux, (unsigned long long)(ar_top + ar_c)); return; }")
	e.line("  %s = (%s *)(ar_scratch + ar_top * ar_nt + ar_tid);", base, ctype(elem))
	e.line("  ar_top += ar_c;")
	// The probe (one thread) reports its high-water mark: the slots an
	// element needs, which the full launch then gives every thread.
	e.line("  if (ar_probe && ar_top > ar_aux[0]) ar_aux[0] = ar_top;")
	e.line("}")
}

// forAll opens nested loops over dims and returns the index names; close
// with endAll.
func (e *emitter) forAll(dims []string) []string {
	idx := make([]string, len(dims))
	for k, d := range dims {
		idx[k] = e.fresh("k")
		e.line("for (i64 %s = 0; %s < %s; %s++) {", idx[k], idx[k], d, idx[k])
		e.indent++
	}
	return idx
}

func (e *emitter) endAll(n int) {
	for range n {
		e.indent--
		e.line("}")
	}
}

// at is the element of view base at indices idx.
func at(base string, idx []string) string {
	if len(idx) == 0 {
		return base + "[0]"
	}
	var terms []string
	for k, i := range idx {
		terms = append(terms, fmt.Sprintf("(%s) * %s", i, strideName(base, k)))
	}
	return fmt.Sprintf("%s[%s]", base, strings.Join(terms, " + "))
}

// copyView copies view src into view dst of the same shape.
func (e *emitter) copyView(dst, src string, rank int) {
	idx := e.forAll(viewDims(dst, rank))
	e.line("%s = %s;", at(dst, idx), at(src, idx))
	e.endAll(rank)
}

// sameShape fails with msg unless views a and b (rank r) agree.
func (e *emitter) sameShape(a, b string, rank int, s *core.Stmt, msg string) {
	if rank == 0 {
		return
	}
	var conds []string
	for k := 0; k < rank; k++ {
		conds = append(conds, fmt.Sprintf("%s != %s", dimName(a, k), dimName(b, k)))
	}
	code := e.site(s.Pos, msg)
	e.line("if (%s) { ar_fail(ar_err, %d); return; }", strings.Join(conds, " || "), code)
}

// arrayStmt renders the statements that make or view arrays, in array
// mode; ok is false when s is none of them.
func (e *emitter) arrayStmt(s *core.Stmt) (bool, error) {
	var dst string
	var dt core.Type
	if len(s.Pat) == 1 {
		dst, dt = cname(s.Pat[0].Name), s.Pat[0].Type
	}
	switch x := s.Exp.(type) {
	case *core.AtomExp:
		src, ok := arrayVar(x.A)
		if !ok {
			return false, nil
		}
		b := cname(src.Name)
		e.setView(dst, dt.Elem, b, viewDims(b, dt.Rank), viewStrides(b, dt.Rank))
	case *core.IndexExp:
		return e.slice(s, x)
	case *core.TransposeExp:
		b := cname(x.Arr.Name)
		ds, ss := viewDims(b, dt.Rank), viewStrides(b, dt.Rank)
		if dt.Rank >= 2 {
			ds[0], ds[1], ss[0], ss[1] = ds[1], ds[0], ss[1], ss[0]
		}
		e.setView(dst, dt.Elem, b, ds, ss)
	case *core.ReverseExp:
		b := cname(x.Arr.Name)
		ds, ss := viewDims(b, dt.Rank), viewStrides(b, dt.Rank)
		ptr := fmt.Sprintf("%s + (%s > 0 ? (%s - 1) * %s : 0)", b, ds[0], ds[0], ss[0])
		ss[0] = "-" + ss[0]
		e.setView(dst, dt.Elem, ptr, ds, ss)
	case *core.CopyExp:
		b := cname(x.Arr.Name)
		e.alloc(dst, dt.Elem, viewDims(b, dt.Rank))
		e.copyView(dst, b, dt.Rank)
	case *core.RotateExp:
		b := cname(x.Arr.Name)
		r, err := atom(x.R)
		if err != nil {
			return true, err
		}
		e.alloc(dst, dt.Elem, viewDims(b, dt.Rank))
		e.line("if (%s > 0) {", dimName(b, 0))
		e.indent++
		rot := e.fresh("rot")
		e.line("const i64 %s = (((i64)(%s) %% %s) + %s) %% %s;", rot, r, dimName(b, 0), dimName(b, 0), dimName(b, 0))
		idx := e.forAll(viewDims(b, dt.Rank))
		src := append([]string{fmt.Sprintf("((%s + %s) %% %s)", idx[0], rot, dimName(b, 0))}, idx[1:]...)
		e.line("%s = %s;", at(dst, idx), at(b, src))
		e.endAll(dt.Rank)
		e.indent--
		e.line("}")
	case *core.ConcatExp:
		first := cname(x.Arrs[0].Name)
		total := "(i64)0"
		for _, a := range x.Arrs {
			total += " + " + dimName(cname(a.Name), 0)
		}
		dims := append([]string{total}, viewDims(first, dt.Rank)[1:]...)
		e.alloc(dst, dt.Elem, dims)
		off := e.fresh("off")
		e.line("i64 %s = 0;", off)
		for _, a := range x.Arrs {
			b := cname(a.Name)
			for k := 1; k < dt.Rank; k++ {
				code := e.site(s.Pos, "concat: arrays of different shapes")
				e.line("if (%s != %s) { ar_fail(ar_err, %d); return; }", dimName(b, k), dimName(first, k), code)
			}
			idx := e.forAll(viewDims(b, dt.Rank))
			didx := append([]string{off + " + " + idx[0]}, idx[1:]...)
			e.line("%s = %s;", at(dst, didx), at(b, idx))
			e.endAll(dt.Rank)
			e.line("%s += %s;", off, dimName(b, 0))
		}
	case *core.ReshapeExp:
		b := cname(x.Arr.Name)
		var dims []string
		for _, a := range x.Shape {
			c, err := atom(a)
			if err != nil {
				return true, err
			}
			dims = append(dims, fmt.Sprintf("(i64)(%s)", c))
		}
		e.alloc(dst, dt.Elem, dims)
		src := "(i64)1"
		for k := 0; k < x.Arr.Type.Rank; k++ {
			src += " * " + dimName(b, k)
		}
		want := "(i64)1"
		for k := range dims {
			want += " * " + dimName(dst, k)
		}
		code := e.site(s.Pos, "reshape: the new shape has a different number of elements")
		e.line("if (%s != %s) { ar_fail(ar_err, %d); return; }", src, want, code)
		flat := e.fresh("f")
		e.line("i64 %s = 0;", flat)
		idx := e.forAll(viewDims(b, x.Arr.Type.Rank))
		e.line("%s[%s * %s] = %s; %s++;", dst, flat, strideName(dst, dt.Rank-1), at(b, idx), flat)
		e.endAll(x.Arr.Type.Rank)
	case *core.IotaExp:
		n, err := atom(x.N)
		if err != nil {
			return true, err
		}
		start, err := atom(x.Start)
		if err != nil {
			return true, err
		}
		step, err := atom(x.Step)
		if err != nil {
			return true, err
		}
		e.alloc(dst, dt.Elem, []string{fmt.Sprintf("(i64)(%s)", n)})
		idx := e.forAll([]string{dimName(dst, 0)})
		t := ctype(x.T)
		e.line("%s = (%s)(%s + (%s)%s * %s);", at(dst, idx), t, start, t, idx[0], step)
		e.endAll(1)
	case *core.ReplicateExp:
		n, err := atom(x.N)
		if err != nil {
			return true, err
		}
		dims := []string{fmt.Sprintf("(i64)(%s)", n)}
		if v, ok := arrayVar(x.V); ok {
			b := cname(v.Name)
			dims = append(dims, viewDims(b, v.Type.Rank)...)
			e.alloc(dst, dt.Elem, dims)
			idx := e.forAll(viewDims(dst, dt.Rank))
			e.line("%s = %s;", at(dst, idx), at(b, idx[1:]))
			e.endAll(dt.Rank)
			break
		}
		v, err := atom(x.V)
		if err != nil {
			return true, err
		}
		e.alloc(dst, dt.Elem, dims)
		idx := e.forAll(dims[:1])
		e.line("%s = %s;", at(dst, idx), v)
		e.endAll(1)
	case *core.ArrayLitExp:
		n := fmt.Sprintf("(i64)%d", len(x.Elems))
		if !x.Elem.IsArray() {
			e.alloc(dst, dt.Elem, []string{n})
			for i, a := range x.Elems {
				c, err := atom(a)
				if err != nil {
					return true, err
				}
				e.line("%s = %s;", at(dst, []string{fmt.Sprint(i)}), c)
			}
			break
		}
		if len(x.Elems) == 0 {
			dims := []string{"(i64)0"}
			for k := 0; k < x.Elem.Rank; k++ {
				dims = append(dims, "(i64)0")
			}
			e.alloc(dst, dt.Elem, dims)
			break
		}
		first := cname(x.Elems[0].(*core.Var).Name)
		e.alloc(dst, dt.Elem, append([]string{n}, viewDims(first, x.Elem.Rank)...))
		for i, a := range x.Elems {
			v, ok := arrayVar(a)
			if !ok {
				return true, fmt.Errorf("internal error: array literal of arrays with a scalar element")
			}
			b := cname(v.Name)
			e.sameShape(b, first, x.Elem.Rank, s, "array literal: irregular array")
			idx := e.forAll(viewDims(b, x.Elem.Rank))
			e.line("%s = %s;", at(dst, append([]string{fmt.Sprint(i)}, idx...)), at(b, idx))
			e.endAll(x.Elem.Rank)
		}
	case *core.UpdateExp:
		return true, e.update(s, x)
	default:
		return false, nil
	}
	return true, nil
}

// slice renders an index that leaves an array: a view.
func (e *emitter) slice(s *core.Stmt, x *core.IndexExp) (bool, error) {
	if len(s.Pat) != 1 || !s.Pat[0].Type.IsArray() {
		return false, nil
	}
	b := cname(x.Arr.Name)
	dst, dt := cname(s.Pat[0].Name), s.Pat[0].Type
	off := e.fresh("off")
	e.line("i64 %s = 0;", off)
	var dims, strides []string
	var conds, record []string
	slice := make([]bool, len(x.Idx))
	omit := make([]core.Omitted, len(x.Idx))
	for k, d := range x.Idx {
		dk, sk := dimName(b, k), strideName(b, k)
		if d.Fix != nil {
			a, err := atom(*d.Fix)
			if err != nil {
				return true, err
			}
			i := e.fresh("i")
			e.line("const i64 %s = (i64)(%s);", i, a)
			conds = append(conds, fmt.Sprintf("(u64)%s < (u64)%s", i, dk))
			if k < maxDetail {
				record = append(record, fmt.Sprintf("((i64 *)ar_err)[%d] = %s;", 1+k, i))
			}
			e.line("%s += %s * %s;", off, i, sk)
			continue
		}
		slice[k] = true
		omit[k] = d.Omit
		st, err := atom(d.Start)
		if err != nil {
			return true, err
		}
		en, err := atom(d.End)
		if err != nil {
			return true, err
		}
		sr, err := atom(d.Stride)
		if err != nil {
			return true, err
		}
		i, j, q, n, last := e.fresh("i"), e.fresh("j"), e.fresh("q"), e.fresh("n"), e.fresh("last")
		e.line("const i64 %s = (i64)(%s), %s = (i64)(%s), %s = (i64)(%s);", i, st, j, en, q, sr)
		e.line("const i64 %s = %s > 0 ? (%s - %s + %s - 1) / %s : %s < 0 ? (%s - %s - %s - 1) / (-%s) : 0;", n, q, j, i, q, q, q, i, j, q, q)
		e.line("const i64 %s = %s + (%s - 1) * %s;", last, i, n, q)
		// Futhark's rule, as the CPU interpreter has it (eval/cpu's
		// region): an empty slice is valid; a nonempty one when its first
		// and last elements are in bounds; a zero stride never.
		conds = append(conds, fmt.Sprintf("(%[1]s > 0 ? %[2]s == 0 || 0 <= %[3]s && %[3]s <= %[4]s && 0 <= %[5]s && %[5]s < %[6]s : %[1]s < 0 ? %[2]s == 0 || -1 <= %[4]s && %[4]s <= %[3]s && 0 <= %[5]s && %[5]s <= %[6]s && %[3]s < %[6]s : false)",
			q, n, i, j, last, dk))
		if k < maxDetail {
			record = append(record, fmt.Sprintf("((i64 *)ar_err)[%d] = %s; ((i64 *)ar_err)[%d] = %s; ((i64 *)ar_err)[%d] = %s;", 1+k, i, 1+2*maxDetail+k, j, 1+3*maxDetail+k, q))
		}
		e.line("%s += %s * %s;", off, i, sk)
		dims = append(dims, n)
		strides = append(strides, fmt.Sprintf("%s * %s", q, sk))
	}
	for k := len(x.Idx); k < x.Arr.Type.Rank; k++ {
		dims = append(dims, dimName(b, k))
		strides = append(strides, strideName(b, k))
	}
	if len(conds) > 0 {
		*e.sites = append(*e.sites, errSite{Pos: s.Pos, Msg: "index out of bounds (slice)", Rank: x.Arr.Type.Rank, Slice: slice, Omit: omit})
		code := len(*e.sites)
		for q := 0; q < x.Arr.Type.Rank && q < maxDetail; q++ {
			record = append(record, fmt.Sprintf("((i64 *)ar_err)[%d] = %s;", 1+maxDetail+q, dimName(b, q)))
		}
		e.line("if (!(%s)) {", strings.Join(conds, " && "))
		e.line("  if (atomicCAS(ar_err, 0, %d) == 0) {", code)
		for _, r := range record {
			e.line("    %s", r)
		}
		e.line("  }")
		e.line("  return;")
		e.line("}")
	}
	e.setView(dst, dt.Elem, fmt.Sprintf("%s + %s", b, off), dims, strides)
	return true, nil
}

// update renders `a with [idx] = v`, in place where the enclosing loop
// allows it (e.inPlace), into a copy otherwise.
func (e *emitter) update(s *core.Stmt, x *core.UpdateExp) error {
	dst, dt := cname(s.Pat[0].Name), s.Pat[0].Type
	src := cname(x.Arr.Name)
	if e.inPlace[s] {
		e.setView(dst, dt.Elem, src, viewDims(src, dt.Rank), viewStrides(src, dt.Rank))
	} else {
		e.alloc(dst, dt.Elem, viewDims(src, dt.Rank))
		e.copyView(dst, src, dt.Rank)
	}
	// The destination region as a view of dst, then a store or a copy.
	region := e.fresh("reg")
	rt := dt.Rank
	for _, d := range x.Idx {
		if d.Fix != nil {
			rt--
		}
	}
	view := &core.Var{Name: region, Type: core.ArrayOf(dt.Elem, rt)}
	if rt == 0 {
		var ixs, conds []string
		for k, d := range x.Idx {
			a, err := atom(*d.Fix)
			if err != nil {
				return err
			}
			i := e.fresh("i")
			e.line("const i64 %s = (i64)(%s);", i, a)
			ixs = append(ixs, i)
			conds = append(conds, fmt.Sprintf("%s >= 0 && %s < %s", i, i, dimName(dst, k)))
		}
		v, err := atom(x.Val)
		if err != nil {
			return err
		}
		*e.sites = append(*e.sites, errSite{Pos: s.Pos, Msg: "index out of bounds", Rank: len(ixs)})
		code := len(*e.sites)
		e.line("if (!(%s)) {", strings.Join(conds, " && "))
		e.line("  if (atomicCAS(ar_err, 0, %d) == 0) {", code)
		for k := 0; k < len(ixs) && k < maxDetail; k++ {
			e.line("    ((i64 *)ar_err)[%d] = %s; ((i64 *)ar_err)[%d] = %s;", 1+k, ixs[k], 1+maxDetail+k, dimName(dst, k))
		}
		e.line("  }")
		e.line("  return;")
		e.line("}")
		e.line("%s = %s;", at(dst, ixs), v)
		return nil
	}
	// A slice: view the region, check shapes, copy.
	e.arrayDecl(cname(region), view.Type)
	tmp := &core.Var{Name: dst + "_view", Type: dt}
	_ = tmp
	idxStmt := &core.Stmt{Pat: []*core.Var{view}, Exp: &core.IndexExp{Arr: &core.Var{Name: s.Pat[0].Name, Type: dt}, Idx: x.Idx}, Pos: s.Pos}
	if _, err := e.slice(idxStmt, idxStmt.Exp.(*core.IndexExp)); err != nil {
		return err
	}
	val, ok := arrayVar(x.Val)
	if !ok {
		return fmt.Errorf("internal error: slice update with a scalar")
	}
	e.sameShape(cname(region), cname(val.Name), rt, s, "Shape of slice does not match shape of value.")
	e.copyView(cname(region), cname(val.Name), rt)
	return nil
}

// bindElem binds lambda parameter p to element i of array arr (a view):
// a scalar read or a row view.
func (e *emitter) bindElem(p *core.Var, arr *core.Var, i string) {
	b := cname(arr.Name)
	if !p.Type.IsArray() {
		e.line("const %s %s = %s[%s * %s];", ctype(p.Type.Elem), cname(p.Name), b, i, strideName(b, 0))
		return
	}
	e.arrayDecl(cname(p.Name), p.Type)
	r := p.Type.Rank
	dims := viewDims(b, r+1)[1:]
	strides := viewStrides(b, r+1)[1:]
	e.setView(cname(p.Name), p.Type.Elem, fmt.Sprintf("%s + %s * %s", b, i, strideName(b, 0)), dims, strides)
}

// applyOp renders an operator lambda on scalar arguments into dst.
func (e *emitter) applyOp(l *core.Lambda, args []string, dst []string) error {
	e.line("{")
	e.indent++
	for i, p := range l.Params {
		if p.Type.IsArray() {
			return unsup("an operator on arrays (vectorised) inside a kernel")
		}
		e.line("const %s %s = %s;", ctype(p.Type.Elem), cname(p.Name), args[i])
	}
	if err := e.body(l.Body, dst); err != nil {
		return err
	}
	e.indent--
	e.line("}")
	return nil
}

// seqScrema runs a Screma sequentially in the thread.
func (e *emitter) seqScrema(s *core.Stmt, x *core.Screma) error {
	w, err := atom(x.W)
	if err != nil {
		return err
	}
	e.line("{")
	e.indent++
	n := e.fresh("w")
	e.line("const i64 %s = (i64)(%s);", n, w)
	nScan, nRed := 0, 0
	for _, sc := range x.Scans {
		nScan += len(sc.Neutral)
	}
	for _, r := range x.Reds {
		nRed += len(r.Neutral)
	}
	nOut := len(x.Map.Ret) - nScan - nRed
	if nOut < 0 {
		return fmt.Errorf("internal error: map returns %d values for %d scanned and %d reduced", len(x.Map.Ret), nScan, nRed)
	}
	// Where the scanned values and the map-outs go: the pattern, or (with
	// a post-map) temporaries.
	var scanDst, outDst []string
	var redDst []string
	if x.Post == nil {
		for i := 0; i < nScan; i++ {
			scanDst = append(scanDst, cname(s.Pat[i].Name))
		}
		for i := 0; i < nRed; i++ {
			redDst = append(redDst, cname(s.Pat[nScan+i].Name))
		}
		for i := 0; i < nOut; i++ {
			outDst = append(outDst, cname(s.Pat[nScan+nRed+i].Name))
		}
	} else {
		npost := len(x.Post.Ret)
		for i := 0; i < nRed; i++ {
			redDst = append(redDst, cname(s.Pat[npost+i].Name))
		}
		for i := 0; i < nScan+nOut; i++ {
			b := e.fresh("pre")
			t := x.Map.Ret[i]
			if i >= nScan {
				t = x.Map.Ret[nRed+i]
			}
			if t.IsArray() {
				return unsup("a post-map over arrays inside a kernel")
			}
			e.arrayDecl(b, t.Lift())
			if i < nScan {
				scanDst = append(scanDst, b)
			} else {
				outDst = append(outDst, b)
			}
		}
	}
	// Accumulators.
	var accs []string
	var elems []core.PrimType
	var neutrals []string
	for _, ops := range [][]*core.ScanOp{x.Scans} {
		for _, sc := range ops {
			for _, ne := range sc.Neutral {
				c, err := atom(ne)
				if err != nil {
					return err
				}
				neutrals = append(neutrals, c)
				elems = append(elems, ne.AtomType().Elem)
			}
		}
	}
	for _, r := range x.Reds {
		for _, ne := range r.Neutral {
			c, err := atom(ne)
			if err != nil {
				return err
			}
			neutrals = append(neutrals, c)
			elems = append(elems, ne.AtomType().Elem)
		}
	}
	for i, t := range elems {
		a := e.fresh("acc")
		accs = append(accs, a)
		e.line("%s %s = %s;", ctype(t), a, neutrals[i])
	}
	for i := 0; i < nScan; i++ {
		if x.Map.Ret[i].IsArray() {
			return unsup("a scan of arrays (vectorised) inside a kernel")
		}
		e.alloc(scanDst[i], elems[i], []string{n})
	}
	lazy := false
	for i := 0; i < nOut; i++ {
		t := x.Map.Ret[nScan+nRed+i]
		if t.IsArray() {
			lazy = true
			continue
		}
		e.alloc(outDst[i], t.Elem, []string{n})
	}
	mark, i := e.openElemLoop(n, x.Index, x.Map.Params, x.Arrs)
	ys := make([]string, len(x.Map.Ret))
	for j, t := range x.Map.Ret {
		ys[j] = e.fresh("y")
		if t.IsArray() {
			e.arrayDecl(ys[j], t)
		} else {
			e.line("%s %s;", ctype(t.Elem), ys[j])
		}
	}
	if err := e.body(x.Map.Body, ys); err != nil {
		return err
	}
	// Scans and reductions fold the element into their accumulators.
	off := 0
	fold := func(l *core.Lambda, width int, yoff int) error {
		args := append(append([]string{}, accs[off:off+width]...), ys[yoff:yoff+width]...)
		tmps := make([]string, width)
		for j := range tmps {
			tmps[j] = e.fresh("nx")
			e.line("%s %s;", ctype(elems[off+j]), tmps[j])
		}
		if err := e.applyOp(l, args, tmps); err != nil {
			return err
		}
		for j := range tmps {
			e.line("%s = %s;", accs[off+j], tmps[j])
		}
		off += width
		return nil
	}
	for _, sc := range x.Scans {
		if err := fold(sc.Lambda, len(sc.Neutral), off); err != nil {
			return err
		}
	}
	for j := 0; j < nScan; j++ {
		e.line("%s = %s;", at(scanDst[j], []string{i}), accs[j])
	}
	for _, r := range x.Reds {
		if err := fold(r.Lambda, len(r.Neutral), off); err != nil {
			return err
		}
	}
	for j := 0; j < nOut; j++ {
		t := x.Map.Ret[nScan+nRed+j]
		y := ys[nScan+nRed+j]
		if !t.IsArray() {
			e.line("%s = %s;", at(outDst[j], []string{i}), y)
			continue
		}
		e.line("if (%s == 0) {", i)
		e.indent++
		e.alloc(outDst[j], t.Elem, append([]string{n}, viewDims(y, t.Rank)...))
		e.indent--
		e.line("}")
		row := e.fresh("row")
		e.arrayDecl(row, t)
		e.setView(row, t.Elem, fmt.Sprintf("%s + %s * %s", outDst[j], i, strideName(outDst[j], 0)),
			viewDims(outDst[j], t.Rank+1)[1:], viewStrides(outDst[j], t.Rank+1)[1:])
		e.sameShape(row, y, t.Rank, s, "map: the function's results have different shapes (irregular array)")
		e.copyView(row, y, t.Rank)
	}
	if lazy {
		e.line("if (%s == 0) %s = ar_top;", i, mark)
	}
	e.line("ar_top = %s;", mark)
	e.indent--
	e.line("}")
	if lazy {
		// An empty map still has results, of unknown row shape: empty rows.
		for j := 0; j < nOut; j++ {
			t := x.Map.Ret[nScan+nRed+j]
			if !t.IsArray() {
				continue
			}
			e.line("if (%s == 0) {", n)
			e.indent++
			dims := []string{"(i64)0"}
			for k := 0; k < t.Rank; k++ {
				dims = append(dims, "(i64)0")
			}
			e.alloc(outDst[j], t.Elem, dims)
			e.indent--
			e.line("}")
		}
	}
	for j := range redDst {
		e.line("%s = %s;", redDst[j], accs[nScan+j])
	}
	if x.Post != nil {
		for j, t := range x.Post.Ret {
			if t.IsArray() {
				return unsup("a post-map producing arrays inside a kernel")
			}
			e.alloc(cname(s.Pat[j].Name), t.Elem, []string{n})
		}
		e.line("for (i64 %s = 0; %s < %s; %s++) {", i, i, n, i)
		e.indent++
		var args []string
		for _, b := range append(append([]string{}, scanDst...), outDst...) {
			args = append(args, at(b, []string{i}))
		}
		tmps := make([]string, len(x.Post.Ret))
		for j, t := range x.Post.Ret {
			tmps[j] = e.fresh("p")
			e.line("%s %s;", ctype(t.Elem), tmps[j])
		}
		if err := e.applyOp(x.Post, args, tmps); err != nil {
			return err
		}
		for j := range tmps {
			e.line("%s = %s;", at(cname(s.Pat[j].Name), []string{i}), tmps[j])
		}
		e.indent--
		e.line("}")
	}
	e.indent--
	e.line("}")
	return nil
}

// seqSegmented runs a segmented SOAC in the thread as a map over its rows.
func (e *emitter) seqSegmented(s *core.Stmt, x *core.Segmented) error {
	if len(x.Outer) != 1 {
		return unsup("a segmented SOAC over %d outer dimensions inside a kernel", len(x.Outer))
	}
	outer := segmentedAsMap(s, x)
	return e.seqScrema(&core.Stmt{Pat: s.Pat, Exp: outer, Pos: s.Pos}, outer)
}

// seqLoop renders a loop whose parameters may be arrays.
func (e *emitter) seqLoop(s *core.Stmt, x *core.LoopExp) error {
	e.line("{")
	e.indent++
	for i, p := range x.Params {
		c := cname(p.Name)
		if !p.Type.IsArray() {
			a, err := atom(x.Init[i])
			if err != nil {
				return err
			}
			e.line("%s %s = %s;", ctype(p.Type.Elem), c, a)
			continue
		}
		init, ok := arrayVar(x.Init[i])
		if !ok {
			return fmt.Errorf("internal error: array loop parameter initialised by a scalar")
		}
		// The parameter's own storage, so updates in place touch nothing
		// else.
		e.arrayDecl(c, p.Type)
		e.alloc(c, p.Type.Elem, viewDims(cname(init.Name), p.Type.Rank))
		e.copyView(c, cname(init.Name), p.Type.Rank)
	}
	mark := e.fresh("mark")
	e.line("const i64 %s = ar_top;", mark)
	tmps := make([]string, len(x.Params))
	for i := range tmps {
		tmps[i] = e.fresh("next")
	}
	if f := core.ForOf(x.Form); f != nil {
		b, err := atom(f.Bound)
		if err != nil {
			return err
		}
		t := ctype(f.I.Type.Elem)
		e.line("for (%s %s = 0; %s < %s; %s++) {", t, cname(f.I.Name), cname(f.I.Name), b, cname(f.I.Name))
	} else if w := core.WhileOf(x.Form); w != nil {
		e.line("while (%s) {", cname(w.Cond.Name))
	} else {
		return fmt.Errorf("internal error: unknown loop form %T", x.Form)
	}
	e.indent++
	for i, p := range x.Params {
		if p.Type.IsArray() {
			e.arrayDecl(tmps[i], p.Type)
		} else {
			e.line("%s %s;", ctype(p.Type.Elem), tmps[i])
		}
	}
	saved := e.inPlace
	e.inPlace = map[*core.Stmt]bool{}
	for k, v := range saved {
		e.inPlace[k] = v
	}
	for st := range inPlaceUpdates(x) {
		e.inPlace[st] = true
	}
	if err := e.body(x.Body, tmps); err != nil {
		return err
	}
	e.inPlace = saved
	for i, p := range x.Params {
		c := cname(p.Name)
		if !p.Type.IsArray() {
			e.line("%s = %s;", c, tmps[i])
			continue
		}
		e.line("if (%s != %s) {", tmps[i], c)
		e.indent++
		e.sameShape(tmps[i], c, p.Type.Rank, s, "loop: an array parameter changes shape (not supported on the GPU)")
		e.copyView(c, tmps[i], p.Type.Rank)
		e.indent--
		e.line("}")
	}
	e.line("ar_top = %s;", mark)
	e.indent--
	e.line("}")
	for i, p := range x.Params {
		c := cname(p.Name)
		if p.Type.IsArray() {
			e.setView(cname(s.Pat[i].Name), p.Type.Elem, c, viewDims(c, p.Type.Rank), viewStrides(c, p.Type.Rank))
			continue
		}
		e.line("%s = %s;", cname(s.Pat[i].Name), c)
	}
	e.indent--
	e.line("}")
	return nil
}

// inPlaceUpdates are the updates of a loop body that may write into the
// loop parameter's storage: the parameter is not read after the update
// (nor viewed before it), and the update's result is used only as the
// body's result for that parameter.
func inPlaceUpdates(x *core.LoopExp) map[*core.Stmt]bool {
	out := map[*core.Stmt]bool{}
	params := map[string]int{}
	for i, p := range x.Params {
		if p.Type.IsArray() {
			params[p.Name] = i
		}
	}
	stmts := x.Body.Stmts
	done := map[int]bool{}
	for k, s := range stmts {
		u, ok := s.Exp.(*core.UpdateExp)
		if !ok || len(s.Pat) != 1 {
			continue
		}
		pi, ok := params[u.Arr.Name]
		if !ok || done[pi] {
			continue
		}
		name, res := u.Arr.Name, s.Pat[0].Name
		if reads(&core.Stmt{Exp: &core.AtomExp{A: u.Val}}, name) || dimsRead(u.Idx, name) {
			continue
		}
		safe := true
		for _, t := range stmts[:k] {
			if reads(t, name) && !scalarUse(t, name) {
				safe = false
			}
		}
		for _, t := range stmts[k+1:] {
			if reads(t, name) || reads(t, res) {
				safe = false
			}
		}
		for j, r := range x.Body.Result {
			if v, ok := r.(*core.Var); ok && (v.Name == name || v.Name == res && j != pi) {
				safe = false
			}
		}
		if safe {
			out[s] = true
			done[pi] = true
		}
	}
	return out
}

// reads reports whether s mentions variable name anywhere.
func reads(s *core.Stmt, name string) bool {
	fs := newFreeSet()
	fs.stmts([]*core.Stmt{s}, nil, map[string]bool{})
	return fs.seen[name]
}

func dimsRead(idx []core.DimIndex, name string) bool {
	for _, d := range idx {
		for _, a := range []*core.Atom{d.Fix, &d.Start, &d.End, &d.Stride} {
			if a != nil && *a != nil {
				if v, ok := (*a).(*core.Var); ok && v.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// scalarUse reports whether s reads name only as a scalar element or a size.
func scalarUse(s *core.Stmt, name string) bool {
	switch e := s.Exp.(type) {
	case *core.SizeExp:
		return true
	case *core.IndexExp:
		return len(s.Pat) == 1 && !s.Pat[0].Type.IsArray() && !dimsRead(e.Idx, name)
	}
	return false
}

// openElemLoop opens the sequential loop of a SOAC run inside a thread
// (a map or a scatter): the scratch mark its iterations reset to, the loop
// over n elements, the index variable and the lambda's parameters bound to
// element i of the inputs. The caller emits the body and closes the loop.
func (e *emitter) openElemLoop(n string, index *core.Var, params, arrs []*core.Var) (mark, i string) {
	mark = e.fresh("mark")
	e.line("i64 %s = ar_top;", mark)
	i = e.fresh("i")
	e.line("for (i64 %s = 0; %s < %s; %s++) {", i, i, n, i)
	e.indent++
	if index != nil {
		e.line("const i64 %s = %s;", cname(index.Name), i)
	}
	for k, p := range params {
		e.bindElem(p, arrs[k], i)
	}
	return mark, i
}

// inlineCall renders a call of a function with array parameters or
// results in place (the kernel has no calling convention for views).
func (e *emitter) inlineCall(s *core.Stmt, x *core.ApplyExp, f *core.Fun) error {
	for _, name := range e.inlining {
		if name == f.Name {
			return unsup("recursive function %s takes or returns arrays", f.Name)
		}
	}
	e.inlining = append(e.inlining, f.Name)
	defer func() { e.inlining = e.inlining[:len(e.inlining)-1] }()
	// The callee's names may be the caller's: arguments and results pass
	// through fresh temporaries, and the body runs in a block of its own.
	args := make([]string, len(f.Params))
	for i, p := range f.Params {
		args[i] = e.fresh("arg")
		if v, ok := arrayVar(x.Args[i]); ok {
			e.arrayDecl(args[i], p.Type)
			b := cname(v.Name)
			e.setView(args[i], p.Type.Elem, b, viewDims(b, p.Type.Rank), viewStrides(b, p.Type.Rank))
			continue
		}
		a, err := atom(x.Args[i])
		if err != nil {
			return err
		}
		e.line("const %s %s = %s;", ctype(p.Type.Elem), args[i], a)
	}
	res := make([]string, len(s.Pat))
	for i, v := range s.Pat {
		res[i] = e.fresh("res")
		if v.Type.IsArray() {
			e.arrayDecl(res[i], v.Type)
		} else {
			e.line("%s %s;", ctype(v.Type.Elem), res[i])
		}
	}
	e.line("{")
	e.indent++
	for i, p := range f.Params {
		c := cname(p.Name)
		if p.Type.IsArray() {
			e.arrayDecl(c, p.Type)
			e.setView(c, p.Type.Elem, args[i], viewDims(args[i], p.Type.Rank), viewStrides(args[i], p.Type.Rank))
			continue
		}
		e.line("const %s %s = %s;", ctype(p.Type.Elem), c, args[i])
	}
	if err := e.body(f.Body, res); err != nil {
		return err
	}
	e.indent--
	e.line("}")
	for i, v := range s.Pat {
		c := cname(v.Name)
		if v.Type.IsArray() {
			e.setView(c, v.Type.Elem, res[i], viewDims(res[i], v.Type.Rank), viewStrides(res[i], v.Type.Rank))
			continue
		}
		e.line("%s = %s;", c, res[i])
	}
	return nil
}

// seqScatter runs a scatter sequentially in the thread: the results are
// copies of the destinations (thread-local arrays), then each element's
// value is stored at its index, in element order (so the last of several
// writes to one index wins, as on the CPU); indices outside the
// destination are ignored (Futhark's scatter).
func (e *emitter) seqScatter(s *core.Stmt, x *core.Scatter) error {
	if len(x.Map.Ret) != 2*len(x.Dests) || len(s.Pat) != len(x.Dests) {
		return fmt.Errorf("internal error: scatter into %d arrays with %d results and %d variables", len(x.Dests), len(x.Map.Ret), len(s.Pat))
	}
	for j, d := range x.Dests {
		if d.Type.Rank != 1 || x.Map.Ret[2*j+1].IsArray() {
			return unsup("a scatter into arrays of rank %d inside a kernel", d.Type.Rank)
		}
	}
	w, err := atom(x.W)
	if err != nil {
		return err
	}
	e.line("{")
	e.indent++
	n := e.fresh("w")
	e.line("const i64 %s = (i64)(%s);", n, w)
	for j, d := range x.Dests {
		dst, src := cname(s.Pat[j].Name), cname(d.Name)
		e.alloc(dst, d.Type.Elem, viewDims(src, 1))
		e.copyView(dst, src, 1)
	}
	mark, _ := e.openElemLoop(n, x.Index, x.Map.Params, x.Arrs)
	ys := make([]string, len(x.Map.Ret))
	for j, t := range x.Map.Ret {
		ys[j] = e.fresh("y")
		e.line("%s %s;", ctype(t.Elem), ys[j])
	}
	if err := e.body(x.Map.Body, ys); err != nil {
		return err
	}
	for j := range x.Dests {
		dst, at0 := cname(s.Pat[j].Name), ys[2*j]
		e.line("if (%s >= 0 && %s < %s) %s = %s;", at0, at0, dimName(dst, 0), at(dst, []string{at0}), ys[2*j+1])
	}
	e.line("ar_top = %s;", mark)
	e.indent--
	e.line("}")
	e.indent--
	e.line("}")
	return nil
}
