package fusion

import "github.com/arepl/arepl/lang/core"

// This file holds the small traversals fusion needs over the closed set of
// core expressions: which variables an expression reads directly, which it
// reads inside nested bodies (and whether that body is a loop, a branch or
// a lambda), substitution, and the list of nested bodies to fuse
// recursively.

// where classifies a read of a variable by an expression.
type where int

const (
	direct   where = iota // an operand of the expression itself
	soacIn                // an input array of a SOAC (fusable position)
	inLambda              // inside a lambda of a SOAC
	inLoop                // inside a loop body
	inBranch              // inside an if branch
)

// reads calls f for every variable exp reads, with where it reads it.
// Reads inside nested bodies report the innermost kind of nesting that
// matters for fusion (a loop wins over a lambda inside it).
func reads(exp core.Exp, f func(v *core.Var, w where)) {
	atom := func(a core.Atom, w where) {
		if v, ok := a.(*core.Var); ok {
			f(v, w)
		}
	}
	atoms := func(as []core.Atom, w where) {
		for _, a := range as {
			atom(a, w)
		}
	}
	lambda := func(l *core.Lambda, w where) {
		if l != nil {
			bodyReads(l.Body, w, f)
		}
	}
	idx := func(ds []core.DimIndex) {
		for _, d := range ds {
			if d.Fix != nil {
				atom(*d.Fix, direct)
			} else {
				atom(d.Start, direct)
				atom(d.End, direct)
				atom(d.Stride, direct)
			}
		}
	}
	arrs := func(vs []*core.Var, w where) {
		for _, v := range vs {
			f(v, w)
		}
	}
	switch e := exp.(type) {
	case *core.AtomExp:
		atom(e.A, direct)
	case *core.BinOpExp:
		atom(e.X, direct)
		atom(e.Y, direct)
	case *core.UnOpExp:
		atom(e.X, direct)
	case *core.ConvExp:
		atom(e.X, direct)
	case *core.IfExp:
		atom(e.Cond, direct)
		bodyReads(e.Then, inBranch, f)
		bodyReads(e.Else, inBranch, f)
	case *core.LoopExp:
		atoms(e.Init, direct)
		if fl := core.ForOf(e.Form); fl != nil {
			atom(fl.Bound, direct)
		}
		bodyReads(e.Body, inLoop, f)
	case *core.IndexExp:
		f(e.Arr, direct)
		idx(e.Idx)
	case *core.UpdateExp:
		f(e.Arr, direct)
		idx(e.Idx)
		atom(e.Val, direct)
	case *core.SizeExp:
		f(e.Arr, direct)
	case *core.ArrayLitExp:
		atoms(e.Elems, direct)
	case *core.IotaExp:
		atoms([]core.Atom{e.N, e.Start, e.Step}, direct)
	case *core.ReplicateExp:
		atoms([]core.Atom{e.N, e.V}, direct)
	case *core.ReshapeExp:
		f(e.Arr, direct)
		atoms(e.Shape, direct)
	case *core.TransposeExp:
		f(e.Arr, direct)
	case *core.ReverseExp:
		f(e.Arr, direct)
	case *core.RotateExp:
		atom(e.R, direct)
		f(e.Arr, direct)
	case *core.ConcatExp:
		arrs(e.Arrs, direct)
	case *core.CopyExp:
		f(e.Arr, direct)
	case *core.ApplyExp:
		atoms(e.Args, direct)
	case *core.AssertExp:
		atom(e.Cond, direct)
		atoms(e.Args, direct)
	case *core.Screma:
		atom(e.W, direct)
		arrs(e.Arrs, soacIn)
		lambda(e.Map, inLambda)
		for _, s := range e.Scans {
			lambda(s.Lambda, inLambda)
			atoms(s.Neutral, direct)
		}
		for _, r := range e.Reds {
			lambda(r.Lambda, inLambda)
			atoms(r.Neutral, direct)
		}
		lambda(e.Post, inLambda)
	case *core.Hist:
		atom(e.W, direct)
		arrs(e.Arrs, soacIn)
		lambda(e.Map, inLambda)
		for _, op := range e.Ops {
			arrs(op.Dests, direct)
			lambda(op.Lambda, inLambda)
			atoms(op.Neutral, direct)
		}
	case *core.Scatter:
		atom(e.W, direct)
		arrs(e.Arrs, soacIn)
		lambda(e.Map, inLambda)
		arrs(e.Dests, direct)
	case *core.Filter:
		atom(e.W, direct)
		arrs(e.Arrs, soacIn)
		lambda(e.Map, inLambda)
		lambda(e.Pred, inLambda)
	case *core.Segmented:
		atoms(e.Outer, direct)
		// The rows of a segmented operation's inputs are not fusable
		// element by element with a flat producer.
		reads(e.Op, func(v *core.Var, w where) {
			if w == soacIn {
				w = direct
			}
			f(v, w)
		})
	case *core.MultiScan:
		atom(e.W, direct)
		atom(e.K, direct)
		f(e.Labels, direct)
		arrs(e.Arrs, direct)
		lambda(e.Op.Lambda, inLambda)
		atoms(e.Op.Neutral, direct)
	}
}

// bodyReads reports every read in a nested body as kind w, except that a
// loop inside a lambda or branch is still a loop.
func bodyReads(b *core.Body, w where, f func(*core.Var, where)) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		reads(s.Exp, func(v *core.Var, inner where) {
			if inner == inLoop {
				f(v, inLoop)
				return
			}
			f(v, w)
		})
	}
	for _, a := range b.Result {
		if v, ok := a.(*core.Var); ok {
			f(v, w)
		}
	}
}

// nestedBodies returns the bodies nested directly in exp, so fusion can run
// inside lambdas, loops and branches too.
func nestedBodies(exp core.Exp) []*core.Body {
	var out []*core.Body
	lam := func(ls ...*core.Lambda) {
		for _, l := range ls {
			if l != nil {
				out = append(out, l.Body)
			}
		}
	}
	switch e := exp.(type) {
	case *core.IfExp:
		out = append(out, e.Then, e.Else)
	case *core.LoopExp:
		out = append(out, e.Body)
	case *core.Screma:
		lam(e.Map, e.Post)
		for _, s := range e.Scans {
			lam(s.Lambda)
		}
		for _, r := range e.Reds {
			lam(r.Lambda)
		}
	case *core.Hist:
		lam(e.Map)
		for _, op := range e.Ops {
			lam(op.Lambda)
		}
	case *core.Scatter:
		lam(e.Map)
	case *core.Filter:
		lam(e.Map, e.Pred)
	case *core.Segmented:
		out = append(out, nestedBodies(e.Op)...)
	case *core.MultiScan:
		lam(e.Op.Lambda)
	}
	return out
}

// subst maps variable names to the atoms that replace them.
type subst map[string]core.Atom

func (s subst) atom(a core.Atom) core.Atom {
	if v, ok := a.(*core.Var); ok {
		if r, ok := s[v.Name]; ok {
			return r
		}
	}
	return a
}

func (s subst) atoms(as []core.Atom) []core.Atom {
	out := make([]core.Atom, len(as))
	for i, a := range as {
		out[i] = s.atom(a)
	}
	return out
}

// arr substitutes an array operand; a variable can only be replaced by a
// variable in array position.
func (s subst) arr(v *core.Var) *core.Var {
	if r, ok := s[v.Name].(*core.Var); ok {
		return r
	}
	return v
}

func (s subst) arrs(vs []*core.Var) []*core.Var {
	out := make([]*core.Var, len(vs))
	for i, v := range vs {
		out[i] = s.arr(v)
	}
	return out
}

func (s subst) idx(ds []core.DimIndex) []core.DimIndex {
	out := make([]core.DimIndex, len(ds))
	for i, d := range ds {
		if d.Fix != nil {
			a := s.atom(*d.Fix)
			out[i] = core.DimIndex{Fix: &a}
		} else {
			out[i] = core.DimIndex{Start: s.atom(d.Start), End: s.atom(d.End), Stride: s.atom(d.Stride), Omit: d.Omit}
		}
	}
	return out
}

// body returns a copy of b with the substitution applied everywhere. Bound
// names are kept: they are unique within a function, so no capture occurs.
func (s subst) body(b *core.Body) *core.Body {
	if b == nil {
		return nil
	}
	out := &core.Body{Result: s.atoms(b.Result)}
	for _, st := range b.Stmts {
		out.Stmts = append(out.Stmts, &core.Stmt{Pat: st.Pat, Exp: s.exp(st.Exp), Pos: st.Pos})
	}
	return out
}

func (s subst) lambda(l *core.Lambda) *core.Lambda {
	if l == nil {
		return nil
	}
	return &core.Lambda{Params: l.Params, Body: s.body(l.Body), Ret: l.Ret}
}

func (s subst) exp(exp core.Exp) core.Exp {
	switch e := exp.(type) {
	case *core.AtomExp:
		return &core.AtomExp{A: s.atom(e.A)}
	case *core.BinOpExp:
		return &core.BinOpExp{Op: e.Op, T: e.T, X: s.atom(e.X), Y: s.atom(e.Y)}
	case *core.UnOpExp:
		return &core.UnOpExp{Op: e.Op, T: e.T, X: s.atom(e.X)}
	case *core.ConvExp:
		return &core.ConvExp{From: e.From, To: e.To, X: s.atom(e.X)}
	case *core.IfExp:
		return &core.IfExp{Cond: s.atom(e.Cond), Then: s.body(e.Then), Else: s.body(e.Else), Ret: e.Ret}
	case *core.LoopExp:
		// Lowering builds *ForLoop, tests ForLoop: keep whichever it was.
		form := e.Form
		switch fl := form.(type) {
		case core.ForLoop:
			form = core.ForLoop{I: fl.I, Bound: s.atom(fl.Bound)}
		case *core.ForLoop:
			form = &core.ForLoop{I: fl.I, Bound: s.atom(fl.Bound)}
		}
		return &core.LoopExp{Params: e.Params, Init: s.atoms(e.Init), Form: form, Body: s.body(e.Body)}
	case *core.IndexExp:
		return &core.IndexExp{Arr: s.arr(e.Arr), Idx: s.idx(e.Idx)}
	case *core.UpdateExp:
		return &core.UpdateExp{Arr: s.arr(e.Arr), Idx: s.idx(e.Idx), Val: s.atom(e.Val)}
	case *core.SizeExp:
		return &core.SizeExp{Arr: s.arr(e.Arr), Dim: e.Dim}
	case *core.ArrayLitExp:
		return &core.ArrayLitExp{Elems: s.atoms(e.Elems), Elem: e.Elem}
	case *core.IotaExp:
		return &core.IotaExp{N: s.atom(e.N), Start: s.atom(e.Start), Step: s.atom(e.Step), T: e.T}
	case *core.ReplicateExp:
		return &core.ReplicateExp{N: s.atom(e.N), V: s.atom(e.V)}
	case *core.ReshapeExp:
		return &core.ReshapeExp{Arr: s.arr(e.Arr), Shape: s.atoms(e.Shape)}
	case *core.TransposeExp:
		return &core.TransposeExp{Arr: s.arr(e.Arr)}
	case *core.ReverseExp:
		return &core.ReverseExp{Arr: s.arr(e.Arr)}
	case *core.RotateExp:
		return &core.RotateExp{R: s.atom(e.R), Arr: s.arr(e.Arr)}
	case *core.ConcatExp:
		return &core.ConcatExp{Arrs: s.arrs(e.Arrs)}
	case *core.CopyExp:
		return &core.CopyExp{Arr: s.arr(e.Arr)}
	case *core.ApplyExp:
		return &core.ApplyExp{Fun: e.Fun, Args: s.atoms(e.Args), Ret: e.Ret}
	case *core.AssertExp:
		return &core.AssertExp{Cond: s.atom(e.Cond), Msg: e.Msg, Args: s.atoms(e.Args)}
	case *core.Screma:
		return s.screma(e)
	case *core.Hist:
		out := &core.Hist{W: s.atom(e.W), Arrs: s.arrs(e.Arrs), Index: e.Index, Map: s.lambda(e.Map)}
		for _, op := range e.Ops {
			out.Ops = append(out.Ops, &core.HistOp{Dests: s.arrs(op.Dests), Lambda: s.lambda(op.Lambda), Neutral: s.atoms(op.Neutral)})
		}
		return out
	case *core.Scatter:
		return &core.Scatter{W: s.atom(e.W), Arrs: s.arrs(e.Arrs), Index: e.Index, Map: s.lambda(e.Map), Dests: s.arrs(e.Dests)}
	case *core.Filter:
		return &core.Filter{W: s.atom(e.W), Arrs: s.arrs(e.Arrs), Index: e.Index, Map: s.lambda(e.Map), Pred: s.lambda(e.Pred), Partition: e.Partition}
	case *core.Segmented:
		return &core.Segmented{Outer: s.atoms(e.Outer), Op: s.screma(e.Op)}
	case *core.MultiScan:
		return &core.MultiScan{W: s.atom(e.W), K: s.atom(e.K), Labels: s.arr(e.Labels), Arrs: s.arrs(e.Arrs),
			Op: &core.ScanOp{Lambda: s.lambda(e.Op.Lambda), Neutral: s.atoms(e.Op.Neutral)}}
	}
	panic("fusion: unknown expression in substitution")
}

func (s subst) screma(e *core.Screma) *core.Screma {
	out := &core.Screma{W: s.atom(e.W), Arrs: s.arrs(e.Arrs), Index: e.Index, Map: s.lambda(e.Map), Post: s.lambda(e.Post)}
	for _, sc := range e.Scans {
		out.Scans = append(out.Scans, &core.ScanOp{Lambda: s.lambda(sc.Lambda), Neutral: s.atoms(sc.Neutral)})
	}
	for _, r := range e.Reds {
		out.Reds = append(out.Reds, &core.RedOp{Lambda: s.lambda(r.Lambda), Neutral: s.atoms(r.Neutral), Comm: r.Comm})
	}
	return out
}
