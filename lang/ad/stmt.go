package ad

import (
	"github.com/arepl/arepl/lang/core"
)

// stmt copies one statement and emits its tangents. The switch is over
// every expression of the core IR.
func (f *fwd) stmt(s *core.Stmt) {
	savedPos := f.pos
	f.pos = s.Pos
	defer func() { f.pos = savedPos }()
	switch e := s.Exp.(type) {
	case *core.AtomExp:
		f.simple(s, &core.AtomExp{A: f.atom(e.A)}, func(core.Atom) core.Atom { return f.tanOf(e.A) })
	case *core.BinOpExp:
		x, y := f.atom(e.X), f.atom(e.Y)
		f.simple(s, &core.BinOpExp{Op: e.Op, T: e.T, X: x, Y: y}, func(r core.Atom) core.Atom {
			return f.binTan(e, x, y, r)
		})
	case *core.UnOpExp:
		x := f.atom(e.X)
		f.simple(s, &core.UnOpExp{Op: e.Op, T: e.T, X: x}, func(r core.Atom) core.Atom {
			return f.unTan(e, x, r)
		})
	case *core.ConvExp:
		f.simple(s, &core.ConvExp{From: e.From, To: e.To, X: f.atom(e.X)}, func(core.Atom) core.Atom {
			dx := f.tanOf(e.X)
			if dx == nil || !differentiable(e.From) || !differentiable(e.To) {
				return nil
			}
			return f.let("d", &core.ConvExp{From: e.From, To: e.To, X: dx})
		})
	case *core.IndexExp:
		idx := f.dims(e.Idx)
		f.simple(s, &core.IndexExp{Arr: f.vr(e.Arr), Idx: idx}, func(core.Atom) core.Atom {
			if d := f.tanOf(e.Arr); d != nil {
				return f.let("d", &core.IndexExp{Arr: d.(*core.Var), Idx: idx})
			}
			return nil
		})
	case *core.UpdateExp:
		arr, idx, val := f.vr(e.Arr), f.dims(e.Idx), f.atom(e.Val)
		// The tangent update goes first: the primal update may consume arr.
		da, dv := f.tanOf(e.Arr), f.tanOf(e.Val)
		var dt core.Atom
		if (da != nil || dv != nil) && differentiable(arr.Type.Elem) {
			base := f.orZero(da, arr)
			if da != nil {
				base = f.let("d", &core.CopyExp{Arr: da.(*core.Var)})
			}
			dt = f.let("d", &core.UpdateExp{Arr: base.(*core.Var), Idx: idx, Val: f.orZero(dv, val)})
		}
		f.simple(s, &core.UpdateExp{Arr: arr, Idx: idx, Val: val}, func(core.Atom) core.Atom { return dt })
	case *core.SizeExp:
		f.simple(s, &core.SizeExp{Arr: f.vr(e.Arr), Dim: e.Dim}, nil)
	case *core.ArrayLitExp:
		elems := f.atoms(e.Elems)
		f.simple(s, &core.ArrayLitExp{Elems: elems, Elem: e.Elem}, func(core.Atom) core.Atom {
			ts := make([]core.Atom, len(e.Elems))
			nz := false
			for i, el := range e.Elems {
				ts[i] = f.tanOf(el)
				nz = nz || ts[i] != nil
			}
			if !nz || !differentiable(e.Elem.Elem) {
				return nil
			}
			for i := range ts {
				ts[i] = f.orZero(ts[i], elems[i])
			}
			return f.let("d", &core.ArrayLitExp{Elems: ts, Elem: e.Elem})
		})
	case *core.IotaExp:
		f.simple(s, &core.IotaExp{N: f.atom(e.N), Start: f.atom(e.Start), Step: f.atom(e.Step), T: e.T}, nil)
	case *core.ReplicateExp:
		n := f.atom(e.N)
		f.simple(s, &core.ReplicateExp{N: n, V: f.atom(e.V)}, func(core.Atom) core.Atom {
			if d := f.tanOf(e.V); d != nil {
				return f.let("d", &core.ReplicateExp{N: n, V: d})
			}
			return nil
		})
	case *core.ReshapeExp:
		shape := f.atoms(e.Shape)
		f.simple(s, &core.ReshapeExp{Arr: f.vr(e.Arr), Shape: shape}, f.arrTan(e.Arr, func(d *core.Var) core.Exp {
			return &core.ReshapeExp{Arr: d, Shape: shape}
		}))
	case *core.TransposeExp:
		f.simple(s, &core.TransposeExp{Arr: f.vr(e.Arr)}, f.arrTan(e.Arr, func(d *core.Var) core.Exp {
			return &core.TransposeExp{Arr: d}
		}))
	case *core.ReverseExp:
		f.simple(s, &core.ReverseExp{Arr: f.vr(e.Arr)}, f.arrTan(e.Arr, func(d *core.Var) core.Exp {
			return &core.ReverseExp{Arr: d}
		}))
	case *core.RotateExp:
		r := f.atom(e.R)
		f.simple(s, &core.RotateExp{R: r, Arr: f.vr(e.Arr)}, f.arrTan(e.Arr, func(d *core.Var) core.Exp {
			return &core.RotateExp{R: r, Arr: d}
		}))
	case *core.CopyExp:
		f.simple(s, &core.CopyExp{Arr: f.vr(e.Arr)}, f.arrTan(e.Arr, func(d *core.Var) core.Exp {
			return &core.CopyExp{Arr: d}
		}))
	case *core.ConcatExp:
		arrs := f.vars(e.Arrs)
		f.simple(s, &core.ConcatExp{Arrs: arrs}, func(core.Atom) core.Atom {
			nz := false
			for _, a := range e.Arrs {
				nz = nz || f.tanOf(a) != nil
			}
			if !nz {
				return nil
			}
			ds := make([]*core.Var, len(arrs))
			for i, a := range e.Arrs {
				ds[i] = f.orZero(f.tanOf(a), arrs[i]).(*core.Var)
			}
			return f.let("d", &core.ConcatExp{Arrs: ds})
		})
	case *core.AssertExp:
		f.stmts = append(f.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: f.atom(e.Cond), Msg: e.Msg, Args: f.atoms(e.Args)}, Pos: s.Pos})
	case *core.IfExp:
		f.ifExp(s, e)
	case *core.LoopExp:
		f.loop(s, e)
	case *core.ApplyExp:
		f.apply(s, e)
	case *core.Screma:
		f.screma(s, e)
	case *core.Hist:
		f.hist(s, e)
	case *core.Scatter:
		f.scatter(s, e)
	case *core.Filter:
		f.filter(s, e)
	case *core.Segmented:
		f.segmented(s, e)
	case *core.MultiScan:
		f.multiScan(s, e)
	default:
		f.fail(s.Pos, "internal error: cannot differentiate %T", e)
	}
}

// simple copies a statement of one result whose new expression is e and
// binds its tangent, which tan computes from the new result (tan nil: the
// result has no tangent).
func (f *fwd) simple(s *core.Stmt, e core.Exp, tan func(r core.Atom) core.Atom) {
	pat := make([]*core.Var, len(s.Pat))
	for i, p := range s.Pat {
		pat[i] = f.fresh(baseName(p.Name), p.Type)
	}
	f.stmts = append(f.stmts, &core.Stmt{Pat: pat, Exp: e, Pos: s.Pos})
	for i, p := range s.Pat {
		f.names[p.Name] = pat[i]
		delete(f.tan, p.Name)
	}
	if tan == nil || len(pat) != 1 {
		return
	}
	f.setTan(s.Pat[0], tan(pat[0]))
}

// arrTan is the tangent rule of an operation that rearranges an array:
// the same operation on the tangent.
func (f *fwd) arrTan(old *core.Var, mk func(d *core.Var) core.Exp) func(core.Atom) core.Atom {
	return func(core.Atom) core.Atom {
		if d := f.tanOf(old); d != nil {
			return f.let("d", mk(d.(*core.Var)))
		}
		return nil
	}
}

// lin is the sum of tangent times partial over the operands that have both.
func (f *fwd) lin(tans, partials []core.Atom) core.Atom {
	var sum core.Atom
	for i, d := range tans {
		if d == nil || partials[i] == nil || isConst(partials[i], 0) {
			continue
		}
		term := f.mul(d, partials[i])
		if sum == nil {
			sum = term
		} else {
			sum = f.add(sum, term)
		}
	}
	return sum
}

func (f *fwd) binTan(e *core.BinOpExp, x, y, r core.Atom) core.Atom {
	dx, dy := f.tanOf(e.X), f.tanOf(e.Y)
	if dx == nil && dy == nil || !differentiable(e.T) || core.BinOps[e.Op].Comparison {
		return nil
	}
	rule, ok := binRules[e.Op]
	if !ok {
		return nil
	}
	// The partials are computed only for operands with a tangent: the
	// partial of a constant operand would be dead code.
	px, py := rule(f, e.T, x, y, r)
	if dx == nil {
		px = nil
	}
	if dy == nil {
		py = nil
	}
	return f.lin([]core.Atom{dx, dy}, []core.Atom{px, py})
}

func (f *fwd) unTan(e *core.UnOpExp, x, r core.Atom) core.Atom {
	dx := f.tanOf(e.X)
	if dx == nil || !differentiable(e.T) || !differentiable(core.UnOpResult(e.Op, e.T)) {
		return nil
	}
	if notDifferentiable[e.Op] {
		f.fail(f.pos, "cannot differentiate %s: its derivative is not available", e.Op)
		return nil
	}
	if core.UnOps[e.Op].BitCast != nil {
		// As Futhark: the tangent of a bit cast is the bit cast of the
		// tangent.
		return f.un(e.Op, dx)
	}
	rule, ok := unRules[e.Op]
	if !ok {
		return nil
	}
	return f.lin([]core.Atom{dx}, []core.Atom{rule(f, e.T, x, r)})
}
