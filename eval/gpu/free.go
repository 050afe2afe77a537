package gpu

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// operands visits what an expression reads: its atoms, and its nested
// lambdas and bodies (with the variables each binds for its body). It is the
// one exhaustive switch over core.Exp that free-variable analysis and the
// host interpreter's grouping rely on.
type visitor struct {
	atom   func(core.Atom)
	lambda func(l *core.Lambda, extra []*core.Var) // extra: an Index variable bound in l
	body   func(b *core.Body, binds []*core.Var)
}

func (v visitor) atoms(as ...core.Atom) {
	for _, a := range as {
		if a != nil {
			v.atom(a)
		}
	}
}

func (v visitor) vars(vs ...*core.Var) {
	for _, x := range vs {
		if x != nil {
			v.atom(x)
		}
	}
}

func (v visitor) dims(ds []core.DimIndex) {
	for _, d := range ds {
		if d.Fix != nil {
			v.atoms(*d.Fix)
			continue
		}
		v.atoms(d.Start, d.End, d.Stride)
	}
}

func (v visitor) lambdas(ls ...*core.Lambda) {
	for _, l := range ls {
		if l != nil {
			v.lambda(l, nil)
		}
	}
}

// indexed visits a SOAC's map lambda, in which idx (if non-nil) is bound.
func (v visitor) indexed(l *core.Lambda, idx *core.Var) {
	if l == nil {
		return
	}
	if idx == nil {
		v.lambda(l, nil)
		return
	}
	v.lambda(l, []*core.Var{idx})
}

func (v visitor) screma(s *core.Screma) {
	v.atoms(s.W)
	v.vars(s.Arrs...)
	v.indexed(s.Map, s.Index)
	v.lambdas(s.Post)
	for _, sc := range s.Scans {
		v.lambdas(sc.Lambda)
		v.atoms(sc.Neutral...)
	}
	for _, r := range s.Reds {
		v.lambdas(r.Lambda)
		v.atoms(r.Neutral...)
	}
}

func (v visitor) exp(e core.Exp) error {
	switch e := e.(type) {
	case *core.AtomExp:
		v.atoms(e.A)
	case *core.BinOpExp:
		v.atoms(e.X, e.Y)
	case *core.UnOpExp:
		v.atoms(e.X)
	case *core.ConvExp:
		v.atoms(e.X)
	case *core.IfExp:
		v.atoms(e.Cond)
		v.body(e.Then, nil)
		v.body(e.Else, nil)
	case *core.LoopExp:
		v.atoms(e.Init...)
		binds := append([]*core.Var(nil), e.Params...)
		switch f := e.Form.(type) {
		case core.ForLoop:
			v.atoms(f.Bound)
			binds = append(binds, f.I)
		case *core.ForLoop:
			v.atoms(f.Bound)
			binds = append(binds, f.I)
		case core.WhileLoop, *core.WhileLoop:
		default:
			return fmt.Errorf("internal error: unknown loop form %T", f)
		}
		v.body(e.Body, binds)
	case *core.IndexExp:
		v.vars(e.Arr)
		v.dims(e.Idx)
	case *core.UpdateExp:
		v.vars(e.Arr)
		v.dims(e.Idx)
		v.atoms(e.Val)
	case *core.SizeExp:
		v.vars(e.Arr)
	case *core.ArrayLitExp:
		v.atoms(e.Elems...)
	case *core.IotaExp:
		v.atoms(e.N, e.Start, e.Step)
	case *core.ReplicateExp:
		v.atoms(e.N, e.V)
	case *core.ReshapeExp:
		v.vars(e.Arr)
		v.atoms(e.Shape...)
	case *core.TransposeExp:
		v.vars(e.Arr)
	case *core.ReverseExp:
		v.vars(e.Arr)
	case *core.RotateExp:
		v.atoms(e.R)
		v.vars(e.Arr)
	case *core.ConcatExp:
		v.vars(e.Arrs...)
	case *core.CopyExp:
		v.vars(e.Arr)
	case *core.ApplyExp:
		v.atoms(e.Args...)
	case *core.AssertExp:
		v.atoms(e.Cond)
		v.atoms(e.Args...)
	case *core.Screma:
		v.screma(e)
	case *core.Hist:
		v.atoms(e.W)
		v.vars(e.Arrs...)
		v.indexed(e.Map, e.Index)
		for _, op := range e.Ops {
			v.vars(op.Dests...)
			v.lambdas(op.Lambda)
			v.atoms(op.Neutral...)
		}
	case *core.Scatter:
		v.atoms(e.W)
		v.vars(e.Arrs...)
		v.indexed(e.Map, e.Index)
		v.vars(e.Dests...)
	case *core.Filter:
		v.atoms(e.W)
		v.vars(e.Arrs...)
		v.indexed(e.Map, e.Index)
		v.lambdas(e.Pred)
	case *core.Segmented:
		v.atoms(e.Outer...)
		if e.Op != nil {
			v.screma(e.Op)
		}
	case *core.MultiScan:
		v.atoms(e.W, e.K)
		v.vars(e.Labels)
		v.vars(e.Arrs...)
		if e.Op != nil {
			v.lambdas(e.Op.Lambda)
			v.atoms(e.Op.Neutral...)
		}
	default:
		return fmt.Errorf("internal error: unknown expression %T", e)
	}
	return nil
}

// freeSet collects the free variables of code in order of first use, so
// kernel parameter lists are deterministic.
type freeSet struct {
	order []*core.Var
	seen  map[string]bool
	err   error
}

func newFreeSet() *freeSet { return &freeSet{seen: map[string]bool{}} }

// stmts adds the variables stmts read that are neither bound by an earlier
// statement of stmts nor in bound.
func (f *freeSet) stmts(stmts []*core.Stmt, result []core.Atom, bound map[string]bool) {
	local := map[string]bool{}
	for k := range bound {
		local[k] = true
	}
	vis := visitor{
		atom: func(a core.Atom) {
			if v, ok := a.(*core.Var); ok && !local[v.Name] && !f.seen[v.Name] {
				f.seen[v.Name] = true
				f.order = append(f.order, v)
			}
		},
		lambda: func(l *core.Lambda, extra []*core.Var) { f.lambda(l, extra, local) },
		body: func(b *core.Body, binds []*core.Var) {
			inner := map[string]bool{}
			for k := range local {
				inner[k] = true
			}
			for _, v := range binds {
				inner[v.Name] = true
			}
			f.stmts(b.Stmts, b.Result, inner)
		},
	}
	for _, s := range stmts {
		if err := vis.exp(s.Exp); err != nil && f.err == nil {
			f.err = err
		}
		for _, v := range s.Pat {
			local[v.Name] = true
		}
	}
	vis.atoms(result...)
}

func (f *freeSet) lambda(l *core.Lambda, extra []*core.Var, bound map[string]bool) {
	inner := map[string]bool{}
	for k := range bound {
		inner[k] = true
	}
	for _, v := range extra {
		inner[v.Name] = true
	}
	for _, p := range l.Params {
		inner[p.Name] = true
	}
	f.stmts(l.Body.Stmts, l.Body.Result, inner)
}
