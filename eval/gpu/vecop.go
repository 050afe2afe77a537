package gpu

// Reductions and scans over rows with a vector operator,
// `reduce (map2 op) (replicate m ne) xss` and `scan (map2 op) (replicate m
// ne) xss` for xss of shape [n][m] (issue 15). A map2 of a binary operator
// over two rows is the operator applied per column, so the reduction is
// the column reduction of xss and the scan the scan of every column: the
// column kernels of segred.go run them, a thread per column reading xss in
// place, neighbouring threads at neighbouring addresses (segred_cols.cu,
// scan_cols.cu). What is recognised:
//
//   - the Screma's map is the identity (the rows themselves), after size
//     checks;
//   - every operator is a lambda over 2k rows whose result is one map over
//     exactly those rows, in order, by a scalar lambda that reads nothing
//     the outer lambda binds; the outer lambda's other statements are the
//     size checks of map2, which hold here: every row and the neutral
//     element have xss's width;
//   - every neutral element is `replicate w v` with v a scalar, or a map
//     over w elements that returns v whatever its argument (vecsplit.go's
//     replicated: lang/ad's zeros). w is the
//     number of columns the kernel runs; with no rows the result is the
//     replicate itself, which the column kernels give (each column starts
//     at v), and otherwise every input must have w columns, which the host
//     checks before the launch, failing as map2's size check does
//     (launchSegRed, segInfo.rowCheck).

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// vectorOp recognises s, a reduce or scan over the rows of one rank-2
// array with vector operators, and generates its column kernel; ok is
// false, and nothing is kept, where s is not of that shape or the kernel
// does not cover it.
func (g *generator) vectorOp(s *core.Stmt, e *core.Screma, defs map[string]*core.Stmt) (bool, error) {
	if e.Index != nil || e.Post != nil || len(e.Arrs) == 0 || (len(e.Reds) == 0) == (len(e.Scans) == 0) {
		return false, nil
	}
	// The map: the identity on rows of rank-2 arrays, after size checks
	// (zip's), which hold where every input has the neutral element's
	// width (checkRows).
	m := e.Map
	if len(m.Params) != len(e.Arrs) || len(m.Body.Result) != len(m.Params) {
		return false, nil
	}
	for _, st := range m.Body.Stmts {
		switch st.Exp.(type) {
		case *core.SizeExp, *core.BinOpExp, *core.AssertExp:
		default:
			return false, nil
		}
	}
	for i, p := range m.Params {
		if v, ok := m.Body.Result[i].(*core.Var); !ok || v.Name != p.Name {
			return false, nil
		}
	}
	for _, a := range e.Arrs {
		if a.Type.Rank != 2 {
			return false, nil
		}
	}
	type vecOp struct {
		l       *core.Lambda
		neutral []core.Atom
	}
	var ops []vecOp
	for _, r := range e.Reds {
		ops = append(ops, vecOp{r.Lambda, r.Neutral})
	}
	for _, sc := range e.Scans {
		ops = append(ops, vecOp{sc.Lambda, sc.Neutral})
	}
	// The width every row must have: the replicates' length.
	var width core.Atom
	var reds []*core.RedOp
	var rowCheck *core.Stmt
	j := 0 // the input the next neutral element stands for
	for _, o := range ops {
		scalar, check := elementwise(o.l)
		if rowCheck == nil {
			rowCheck = check
		}
		if scalar == nil || len(o.neutral) != len(scalar.Ret) {
			return false, nil
		}
		red := &core.RedOp{Lambda: scalar}
		for _, ne := range o.neutral {
			v, ok := ne.(*core.Var)
			if !ok || defs[v.Name] == nil {
				return false, nil
			}
			n, elem, ok := replicated(defs[v.Name]) // vecsplit.go
			if !ok || j >= len(e.Arrs) || width != nil && !sameAtom(width, n) {
				return false, nil
			}
			width = n
			red.Neutral = append(red.Neutral, elem)
			j++
		}
		reds = append(reds, red)
	}
	// Every input must have the same width (the map2 size check).
	if j != len(e.Arrs) || width == nil {
		return false, nil
	}
	var params []*core.Var
	var res []core.Atom
	var ret []core.Type
	for _, a := range e.Arrs {
		p := &core.Var{Name: "ar_col_" + a.Name, Type: core.Scalar(a.Type.Elem)}
		params = append(params, p)
		res = append(res, p)
		ret = append(ret, p.Type)
	}
	op := &core.Screma{W: e.W, Arrs: e.Arrs, Reds: reds,
		Map: &core.Lambda{Params: params, Body: &core.Body{Result: res}, Ret: ret}}
	si := segInfo{strategy: segCols, cols: e.Arrs, rowCheck: rowCheck}
	if rowCheck == nil {
		si.rowCheck = s
	}
	if len(e.Scans) > 0 {
		si.strategy = segColScan
	}
	return g.columnKernelOf(s, op, []core.Atom{width}, si)
}

// elementwise returns the scalar operator of a vector operator l, a lambda
// over 2k rows whose result is `map f` over exactly those rows in order
// (map2 op, map3 ...), or nil if l is not of that form, and l's first
// assertion (map2's size check) if it has one. l's other statements must
// bind nothing f reads (they are the size checks).
func elementwise(l *core.Lambda) (f *core.Lambda, check *core.Stmt) {
	if len(l.Params)%2 != 0 || len(l.Params) == 0 {
		return nil, nil
	}
	bound := map[string]bool{}
	for _, p := range l.Params {
		if p.Type.Rank != 1 {
			return nil, nil
		}
		bound[p.Name] = true
	}
	var inner *core.Screma
	var at *core.Stmt
	for _, st := range l.Body.Stmts {
		for _, v := range st.Pat {
			bound[v.Name] = true
		}
		switch x := st.Exp.(type) {
		case *core.Screma:
			if inner != nil {
				return nil, nil
			}
			inner, at = x, st
		case *core.AssertExp:
			if check == nil {
				check = st
			}
		case *core.SizeExp, *core.BinOpExp:
		default:
			return nil, nil
		}
	}
	if inner == nil || inner.Index != nil || inner.Post != nil || len(inner.Reds) > 0 || len(inner.Scans) > 0 ||
		len(inner.Arrs) != len(l.Params) || len(at.Pat) != len(l.Body.Result) || len(at.Pat) != len(l.Params)/2 {
		return nil, nil
	}
	// The map may take the rows in another order (`map2 (*) y x`, as
	// lang/ad's suffix products are written): the scalar operator takes
	// its parameters in the order of l's.
	order := make([]int, len(l.Params)) // order[k]: the map parameter l.Params[k] binds
	used := make([]bool, len(inner.Arrs))
	for k, p := range l.Params {
		order[k] = -1
		for j, a := range inner.Arrs {
			if a.Name == p.Name && !used[j] {
				order[k], used[j] = j, true
				break
			}
		}
		if order[k] < 0 {
			return nil, nil
		}
	}
	for i, r := range l.Body.Result {
		if v, ok := r.(*core.Var); !ok || v.Name != at.Pat[i].Name {
			return nil, nil
		}
	}
	f = inner.Map
	if len(f.Ret) != len(at.Pat) || len(f.Params) != len(order) {
		return nil, nil
	}
	permuted := &core.Lambda{Body: f.Body, Ret: f.Ret}
	moved := false
	for k, j := range order {
		permuted.Params = append(permuted.Params, f.Params[j])
		moved = moved || j != k
	}
	if moved {
		f = permuted
	}
	for _, t := range f.Ret {
		if t.IsArray() {
			return nil, nil
		}
	}
	fs := newFreeSet()
	fs.lambda(f, nil, map[string]bool{})
	if fs.err != nil {
		return nil, nil
	}
	for _, v := range fs.order {
		if bound[v.Name] {
			return nil, nil
		}
	}
	return f, check
}

// sameAtom reports whether a and b are the same variable or constant.
func sameAtom(a, b core.Atom) bool {
	if x, ok := a.(*core.Var); ok {
		y, ok := b.(*core.Var)
		return ok && x.Name == y.Name
	}
	return core.AtomString(a) == core.AtomString(b)
}

// checkRows fails, as the CPU interpreter's map2 does, where an input of
// column kernel k has rows of other than segs elements (the neutral
// element's length).
func (r *run) checkRows(k *kernel, segs int64, env map[string]eval.Value) error {
	for _, a := range k.seg.cols {
		v, err := r.value(a, env)
		if err != nil {
			return err
		}
		if len(v.Shape) == 2 && v.Shape[1] == segs {
			continue
		}
		if as, ok := k.seg.rowCheck.Exp.(*core.AssertExp); ok {
			vals := make([]string, len(as.Args))
			for i := range vals {
				vals[i] = "?"
			}
			return source.Errorf(k.seg.rowCheck.Pos, "%s", as.Message(vals))
		}
		return source.Errorf(k.seg.rowCheck.Pos, "rows of %d elements combined with a neutral element of %d", v.Shape[len(v.Shape)-1], segs)
	}
	return nil
}
