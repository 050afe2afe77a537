package core

// Free variables. Code that runs a piece of a Fun on its own (a loop the
// CPU backend compiles apart, a statement run on every shard) takes as
// parameters the variables the piece reads and does not bind; since names
// are unique within a Fun, those are the names referred to minus the names
// bound inside. Both backends use this one walk.

// FreeVars returns the variables e refers to that it does not bind, each
// once, in order of first reference.
func FreeVars(e Exp) []*Var {
	w := &freeWalk{bound: map[string]bool{}, seen: map[string]bool{}}
	w.exp(e)
	var out []*Var
	for _, v := range w.refs {
		if !w.bound[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

type freeWalk struct {
	bound map[string]bool
	seen  map[string]bool
	refs  []*Var
}

func (w *freeWalk) ref(v *Var) {
	if v != nil && !w.seen[v.Name] {
		w.seen[v.Name] = true
		w.refs = append(w.refs, v)
	}
}

func (w *freeWalk) bind(vs ...*Var) {
	for _, v := range vs {
		if v != nil {
			w.bound[v.Name] = true
		}
	}
}

func (w *freeWalk) atom(a Atom) {
	if v, ok := a.(*Var); ok {
		w.ref(v)
	}
}

func (w *freeWalk) atoms(as []Atom) {
	for _, a := range as {
		w.atom(a)
	}
}

func (w *freeWalk) vars(vs []*Var) {
	for _, v := range vs {
		w.ref(v)
	}
}

func (w *freeWalk) body(b *Body) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		w.exp(s.Exp)
		w.bind(s.Pat...)
	}
	w.atoms(b.Result)
}

func (w *freeWalk) lambda(l *Lambda) {
	if l == nil {
		return
	}
	w.bind(l.Params...)
	w.body(l.Body)
}

func (w *freeWalk) dims(idx []DimIndex) {
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

func (w *freeWalk) screma(e *Screma) {
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

func (w *freeWalk) exp(e Exp) {
	switch e := e.(type) {
	case *AtomExp:
		w.atom(e.A)
	case *BinOpExp:
		w.atom(e.X)
		w.atom(e.Y)
	case *UnOpExp:
		w.atom(e.X)
	case *ConvExp:
		w.atom(e.X)
	case *IfExp:
		w.atom(e.Cond)
		w.body(e.Then)
		w.body(e.Else)
	case *LoopExp:
		w.atoms(e.Init)
		if fl := ForOf(e.Form); fl != nil {
			w.atom(fl.Bound)
			w.bind(fl.I)
		}
		w.bind(e.Params...)
		w.body(e.Body)
	case *IndexExp:
		w.ref(e.Arr)
		w.dims(e.Idx)
	case *UpdateExp:
		w.ref(e.Arr)
		w.dims(e.Idx)
		w.atom(e.Val)
	case *SizeExp:
		w.ref(e.Arr)
	case *ArrayLitExp:
		w.atoms(e.Elems)
	case *IotaExp:
		w.atom(e.N)
		w.atom(e.Start)
		w.atom(e.Step)
	case *ReplicateExp:
		w.atom(e.N)
		w.atom(e.V)
	case *ReshapeExp:
		w.ref(e.Arr)
		w.atoms(e.Shape)
	case *TransposeExp:
		w.ref(e.Arr)
	case *ReverseExp:
		w.ref(e.Arr)
	case *RotateExp:
		w.atom(e.R)
		w.ref(e.Arr)
	case *ConcatExp:
		w.vars(e.Arrs)
	case *CopyExp:
		w.ref(e.Arr)
	case *ApplyExp:
		w.atoms(e.Args)
	case *AssertExp:
		w.atom(e.Cond)
		w.atoms(e.Args)
	case *Screma:
		w.screma(e)
	case *Segmented:
		w.atoms(e.Outer)
		w.screma(e.Op)
	case *Hist:
		w.atom(e.W)
		w.vars(e.Arrs)
		w.bind(e.Index)
		w.lambda(e.Map)
		for _, op := range e.Ops {
			w.vars(op.Dests)
			w.atoms(op.Neutral)
			w.lambda(op.Lambda)
		}
	case *Scatter:
		w.atom(e.W)
		w.vars(e.Arrs)
		w.vars(e.Dests)
		w.bind(e.Index)
		w.lambda(e.Map)
	case *Filter:
		w.atom(e.W)
		w.vars(e.Arrs)
		w.bind(e.Index)
		w.lambda(e.Map)
		w.lambda(e.Pred)
	case *MultiScan:
		w.atom(e.W)
		w.atom(e.K)
		w.ref(e.Labels)
		w.vars(e.Arrs)
		if e.Op != nil {
			w.atoms(e.Op.Neutral)
			w.lambda(e.Op.Lambda)
		}
	default:
		panic("core: FreeVars of an unknown expression")
	}
}

// FreeVarsStmts is FreeVars of a run of statements: what they read that
// none of them binds.
func FreeVarsStmts(stmts []*Stmt) []*Var {
	w := &freeWalk{bound: map[string]bool{}, seen: map[string]bool{}}
	for _, s := range stmts {
		w.exp(s.Exp)
		w.bind(s.Pat...)
	}
	var out []*Var
	for _, v := range w.refs {
		if !w.bound[v.Name] {
			out = append(out, v)
		}
	}
	return out
}
