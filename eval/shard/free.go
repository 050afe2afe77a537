package shard

import "github.com/arepl/arepl/lang/core"

// Free variables. A statement run on every shard becomes a function of its
// own whose parameters are the variables it reads and does not bind; since
// names are unique within a Fun, those are the names referred to minus the
// names bound inside. (The same walk as eval/cpu's: the two backends may
// not import each other, and this package imports neither.)

// freeVars returns the variables e refers to that it does not bind, each
// once, in order of first reference.
func freeVars(e core.Exp) []*core.Var {
	w := &varWalk{bound: map[string]bool{}, seen: map[string]bool{}}
	w.exp(e)
	var out []*core.Var
	for _, v := range w.refs {
		if !w.bound[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

type varWalk struct {
	bound map[string]bool
	seen  map[string]bool
	refs  []*core.Var
}

func (w *varWalk) ref(v *core.Var) {
	if v != nil && !w.seen[v.Name] {
		w.seen[v.Name] = true
		w.refs = append(w.refs, v)
	}
}

func (w *varWalk) bind(vs ...*core.Var) {
	for _, v := range vs {
		if v != nil {
			w.bound[v.Name] = true
		}
	}
}

func (w *varWalk) atom(a core.Atom) {
	if v, ok := a.(*core.Var); ok {
		w.ref(v)
	}
}

func (w *varWalk) atoms(as []core.Atom) {
	for _, a := range as {
		w.atom(a)
	}
}

func (w *varWalk) vars(vs []*core.Var) {
	for _, v := range vs {
		w.ref(v)
	}
}

func (w *varWalk) body(b *core.Body) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		w.exp(s.Exp)
		w.bind(s.Pat...)
	}
	w.atoms(b.Result)
}

func (w *varWalk) lambda(l *core.Lambda) {
	if l == nil {
		return
	}
	w.bind(l.Params...)
	w.body(l.Body)
}

func (w *varWalk) dims(idx []core.DimIndex) {
	for _, d := range idx {
		if d.Fix != nil {
			w.atom(*d.Fix)
			continue
		}
		w.atom(d.Start)
		w.atom(d.End)
		w.atom(d.Stride)
	}
}

func (w *varWalk) screma(e *core.Screma) {
	w.atom(e.W)
	w.vars(e.Arrs)
	w.bind(e.Index)
	w.lambda(e.Map)
	for _, op := range e.Scans {
		w.atoms(op.Neutral)
		w.lambda(op.Lambda)
	}
	for _, op := range e.Reds {
		w.atoms(op.Neutral)
		w.lambda(op.Lambda)
	}
	w.lambda(e.Post)
}

func (w *varWalk) exp(e core.Exp) {
	switch e := e.(type) {
	case *core.AtomExp:
		w.atom(e.A)
	case *core.BinOpExp:
		w.atom(e.X)
		w.atom(e.Y)
	case *core.UnOpExp:
		w.atom(e.X)
	case *core.ConvExp:
		w.atom(e.X)
	case *core.IfExp:
		w.atom(e.Cond)
		w.body(e.Then)
		w.body(e.Else)
	case *core.LoopExp:
		w.atoms(e.Init)
		if fl := core.ForOf(e.Form); fl != nil {
			w.atom(fl.Bound)
			w.bind(fl.I)
		}
		w.bind(e.Params...)
		w.body(e.Body)
	case *core.IndexExp:
		w.ref(e.Arr)
		w.dims(e.Idx)
	case *core.UpdateExp:
		w.ref(e.Arr)
		w.dims(e.Idx)
		w.atom(e.Val)
	case *core.SizeExp:
		w.ref(e.Arr)
	case *core.ArrayLitExp:
		w.atoms(e.Elems)
	case *core.IotaExp:
		w.atom(e.N)
		w.atom(e.Start)
		w.atom(e.Step)
	case *core.ReplicateExp:
		w.atom(e.N)
		w.atom(e.V)
	case *core.ReshapeExp:
		w.ref(e.Arr)
		w.atoms(e.Shape)
	case *core.TransposeExp:
		w.ref(e.Arr)
	case *core.ReverseExp:
		w.ref(e.Arr)
	case *core.RotateExp:
		w.atom(e.R)
		w.ref(e.Arr)
	case *core.ConcatExp:
		w.vars(e.Arrs)
	case *core.CopyExp:
		w.ref(e.Arr)
	case *core.ApplyExp:
		w.atoms(e.Args)
	case *core.AssertExp:
		w.atom(e.Cond)
		w.atoms(e.Args)
	case *core.Screma:
		w.screma(e)
	case *core.Segmented:
		w.atoms(e.Outer)
		w.screma(e.Op)
	case *core.Hist:
		w.atom(e.W)
		w.vars(e.Arrs)
		w.bind(e.Index)
		w.lambda(e.Map)
		for _, op := range e.Ops {
			w.vars(op.Dests)
			w.atoms(op.Neutral)
			w.lambda(op.Lambda)
		}
	case *core.Scatter:
		w.atom(e.W)
		w.vars(e.Arrs)
		w.vars(e.Dests)
		w.bind(e.Index)
		w.lambda(e.Map)
	case *core.Filter:
		w.atom(e.W)
		w.vars(e.Arrs)
		w.bind(e.Index)
		w.lambda(e.Map)
		w.lambda(e.Pred)
	case *core.MultiScan:
		w.atom(e.W)
		w.atom(e.K)
		w.ref(e.Labels)
		w.vars(e.Arrs)
		if e.Op != nil {
			w.atoms(e.Op.Neutral)
			w.lambda(e.Op.Lambda)
		}
	default:
		panic("shard: freeVars of an unknown expression")
	}
}

// freeVarsStmts is freeVars of a run of statements: what they read that
// none of them binds.
func freeVarsStmts(stmts []*core.Stmt) []*core.Var {
	w := &varWalk{bound: map[string]bool{}, seen: map[string]bool{}}
	for _, s := range stmts {
		w.exp(s.Exp)
		w.bind(s.Pat...)
	}
	var out []*core.Var
	for _, v := range w.refs {
		if !w.bound[v.Name] {
			out = append(out, v)
		}
	}
	return out
}
