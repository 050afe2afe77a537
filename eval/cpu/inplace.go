package cpu

import "github.com/arepl/arepl/lang/core"

// In-place updates in sequential loops. `a with [i] = v` copies a, which
// makes the common loop `loop xs for i < n do xs with [i] = ...` quadratic.
// Futhark avoids the copy through uniqueness types; arepl accepts `*` and
// ignores it, so the interpreter proves what it needs itself, for the
// top-level statements of a loop body:
//
//   - the updated array is a loop parameter p, used in the body only by
//     earlier statements that read scalars from it (a[i] with every index
//     fixed, or its size) and by the update itself;
//   - the update's result is used only as the body's result for p.
//
// Then, from the second iteration on, p's array was made by the previous
// iteration's update and nothing else refers to it, so the update may
// write into it. The first iteration copies (the initial array may be
// shared).

// inPlacePlan returns, for each loop-body statement that may update in
// place, the index of its loop parameter.
func inPlacePlan(e *core.LoopExp) map[*core.Stmt]int {
	var plan map[*core.Stmt]int
	params := map[string]int{}
	for i, p := range e.Params {
		if p.Type.Rank > 0 {
			params[p.Name] = i
		}
	}
	if len(params) == 0 {
		return nil
	}
	stmts := e.Body.Stmts
	for k, s := range stmts {
		u, ok := s.Exp.(*core.UpdateExp)
		if !ok || len(s.Pat) != 1 {
			continue
		}
		pi, ok := params[u.Arr.Name]
		if !ok || plan != nil && hasParam(plan, pi) {
			continue
		}
		name, out := u.Arr.Name, s.Pat[0].Name
		if atomIs(u.Val, name) || dimsUse(u.Idx, name) {
			continue
		}
		safe := true
		for _, t := range stmts[:k] {
			if usesVar(t.Exp, name) && !scalarRead(t.Exp, name) {
				safe = false
			}
		}
		for _, t := range stmts[k+1:] {
			if usesVar(t.Exp, name) || usesVar(t.Exp, out) {
				safe = false
			}
		}
		for j, r := range e.Body.Result {
			if atomIs(r, name) || atomIs(r, out) && j != pi {
				safe = false
			}
		}
		if !safe || !atomIs(e.Body.Result[pi], out) {
			continue
		}
		if plan == nil {
			plan = map[*core.Stmt]int{}
		}
		plan[s] = pi
	}
	return plan
}

func hasParam(plan map[*core.Stmt]int, pi int) bool {
	for _, p := range plan {
		if p == pi {
			return true
		}
	}
	return false
}

// scalarRead reports whether e only reads a scalar element or a size of
// the array called name.
func scalarRead(e core.Exp, name string) bool {
	switch e := e.(type) {
	case *core.SizeExp:
		return true
	case *core.IndexExp:
		if e.Arr.Name != name || len(e.Idx) != e.Arr.Type.Rank || dimsUse(e.Idx, name) {
			return false
		}
		for _, d := range e.Idx {
			if d.Fix == nil {
				return false
			}
		}
		return true
	}
	return false
}

func atomIs(a core.Atom, name string) bool {
	v, ok := a.(*core.Var)
	return ok && v.Name == name
}

func atomsUse(as []core.Atom, name string) bool {
	for _, a := range as {
		if atomIs(a, name) {
			return true
		}
	}
	return false
}

func varsUse(vs []*core.Var, name string) bool {
	for _, v := range vs {
		if v != nil && v.Name == name {
			return true
		}
	}
	return false
}

func dimsUse(idx []core.DimIndex, name string) bool {
	for _, d := range idx {
		if d.Fix != nil && atomIs(*d.Fix, name) || atomIs(d.Start, name) || atomIs(d.End, name) || atomIs(d.Stride, name) {
			return true
		}
	}
	return false
}

func bodyUses(b *core.Body, name string) bool {
	if b == nil {
		return false
	}
	for _, s := range b.Stmts {
		if usesVar(s.Exp, name) {
			return true
		}
	}
	return atomsUse(b.Result, name)
}

func lambdaUses(l *core.Lambda, name string) bool {
	return l != nil && bodyUses(l.Body, name)
}

func scremaUses(s *core.Screma, name string) bool {
	if s == nil {
		return false
	}
	if atomIs(s.W, name) || varsUse(s.Arrs, name) || lambdaUses(s.Map, name) || lambdaUses(s.Post, name) {
		return true
	}
	for _, op := range s.Scans {
		if lambdaUses(op.Lambda, name) || atomsUse(op.Neutral, name) {
			return true
		}
	}
	for _, op := range s.Reds {
		if lambdaUses(op.Lambda, name) || atomsUse(op.Neutral, name) {
			return true
		}
	}
	return false
}

// usesVar reports whether e mentions the variable called name anywhere,
// nested bodies and lambdas included. Unknown expressions count as uses,
// which only disables the optimisation.
func usesVar(e core.Exp, name string) bool {
	switch e := e.(type) {
	case *core.AtomExp:
		return atomIs(e.A, name)
	case *core.BinOpExp:
		return atomIs(e.X, name) || atomIs(e.Y, name)
	case *core.UnOpExp:
		return atomIs(e.X, name)
	case *core.ConvExp:
		return atomIs(e.X, name)
	case *core.IfExp:
		return atomIs(e.Cond, name) || bodyUses(e.Then, name) || bodyUses(e.Else, name)
	case *core.LoopExp:
		if atomsUse(e.Init, name) || bodyUses(e.Body, name) {
			return true
		}
		if fl := core.ForOf(e.Form); fl != nil {
			return atomIs(fl.Bound, name)
		}
		return false
	case *core.IndexExp:
		return e.Arr.Name == name || dimsUse(e.Idx, name)
	case *core.UpdateExp:
		return e.Arr.Name == name || dimsUse(e.Idx, name) || atomIs(e.Val, name)
	case *core.SizeExp:
		return e.Arr.Name == name
	case *core.ArrayLitExp:
		return atomsUse(e.Elems, name)
	case *core.IotaExp:
		return atomIs(e.N, name) || atomIs(e.Start, name) || atomIs(e.Step, name)
	case *core.ReplicateExp:
		return atomIs(e.N, name) || atomIs(e.V, name)
	case *core.ReshapeExp:
		return e.Arr.Name == name || atomsUse(e.Shape, name)
	case *core.TransposeExp:
		return e.Arr.Name == name
	case *core.ReverseExp:
		return e.Arr.Name == name
	case *core.RotateExp:
		return e.Arr.Name == name || atomIs(e.R, name)
	case *core.ConcatExp:
		return varsUse(e.Arrs, name)
	case *core.CopyExp:
		return e.Arr.Name == name
	case *core.ApplyExp:
		return atomsUse(e.Args, name)
	case *core.AssertExp:
		return atomIs(e.Cond, name) || atomsUse(e.Args, name)
	case *core.Screma:
		return scremaUses(e, name)
	case *core.Segmented:
		return atomsUse(e.Outer, name) || scremaUses(e.Op, name)
	case *core.Hist:
		if atomIs(e.W, name) || varsUse(e.Arrs, name) || lambdaUses(e.Map, name) {
			return true
		}
		for _, op := range e.Ops {
			if varsUse(op.Dests, name) || lambdaUses(op.Lambda, name) || atomsUse(op.Neutral, name) {
				return true
			}
		}
		return false
	case *core.Scatter:
		return atomIs(e.W, name) || varsUse(e.Arrs, name) || lambdaUses(e.Map, name) || varsUse(e.Dests, name)
	case *core.Filter:
		return atomIs(e.W, name) || varsUse(e.Arrs, name) || lambdaUses(e.Map, name) || lambdaUses(e.Pred, name)
	case *core.MultiScan:
		return atomIs(e.W, name) || atomIs(e.K, name) || e.Labels.Name == name || varsUse(e.Arrs, name) ||
			e.Op == nil || lambdaUses(e.Op.Lambda, name) || atomsUse(e.Op.Neutral, name)
	}
	return true
}

// consumePlan is inPlacePlan for compiled loops, where uniqueness also
// survives branches: `loop a for i < n do if c then a with [i] = v else a`
// updates in place. For each array parameter p, consumable follows p's
// result back through the body: an update of p, an if whose branches each
// either keep p or update it (recursively), or an inner loop that starts
// from p and consumes its own parameter the same way (the sieve's inner
// loop), with p used elsewhere only by scalar reads. It returns, for each
// update or inner-loop statement that may write in place, the index of
// its loop parameter.
func consumePlan(e *core.LoopExp) map[*core.Stmt]int {
	var plan map[*core.Stmt]int
	for pi, p := range e.Params {
		if p.Type.Rank == 0 {
			continue
		}
		ups, ok := consumable(e.Body, p.Name, pi)
		if !ok {
			continue
		}
		for _, u := range ups {
			if plan == nil {
				plan = map[*core.Stmt]int{}
			}
			plan[u] = pi
		}
	}
	return plan
}

// consumable reports whether body b, given the array called name that
// nothing else refers to, returns it (or an update of it) as its result k
// with no other value sharing it, and lists the updates on the way.
func consumable(b *core.Body, name string, k int) ([]*core.Stmt, bool) {
	for j, r := range b.Result {
		if j != k && atomIs(r, name) {
			return nil, false
		}
	}
	res, ok := b.Result[k].(*core.Var)
	if !ok {
		return nil, false
	}
	onlyScalarReads := func(stmts []*core.Stmt) bool { return onlyReads(stmts, name) }
	if res.Name == name {
		return nil, onlyScalarReads(b.Stmts)
	}
	def, at := (*core.Stmt)(nil), -1
	for d, s := range b.Stmts {
		for j, v := range s.Pat {
			if v.Name == res.Name {
				def, at = s, j
				_ = d
			}
		}
		if def != nil {
			if !onlyScalarReads(b.Stmts[:d]) {
				return nil, false
			}
			for _, t := range b.Stmts[d+1:] {
				if usesVar(t.Exp, name) || usesVar(t.Exp, res.Name) {
					return nil, false
				}
			}
			break
		}
	}
	if def == nil {
		return nil, false
	}
	for j, r := range b.Result {
		if j != k && atomIs(r, res.Name) {
			return nil, false
		}
	}
	switch e := def.Exp.(type) {
	case *core.UpdateExp:
		if e.Arr.Name != name || len(def.Pat) != 1 || atomIs(e.Val, name) || dimsUse(e.Idx, name) {
			return nil, false
		}
		return []*core.Stmt{def}, true
	case *core.IfExp:
		if atomIs(e.Cond, name) {
			return nil, false
		}
		t, ok := consumable(e.Then, name, at)
		if !ok {
			return nil, false
		}
		f, ok := consumable(e.Else, name, at)
		if !ok {
			return nil, false
		}
		return append(t, f...), true
	case *core.LoopExp:
		for j, a := range e.Init {
			if atomIs(a, name) != (j == at) {
				return nil, false
			}
		}
		if fl := core.ForOf(e.Form); fl != nil && atomIs(fl.Bound, name) || bodyUses(e.Body, name) {
			return nil, false
		}
		if _, ok := consumable(e.Body, e.Params[at].Name, at); !ok {
			return nil, false
		}
		return []*core.Stmt{def}, true
	}
	return nil, false
}

// onlyReads reports whether stmts use the array called name only to read
// scalars from it or its size, also inside branches and loop bodies (a
// short-circuit `i < n && a[i]` is an if), so that no value they make
// shares its data.
func onlyReads(stmts []*core.Stmt, name string) bool {
	for _, t := range stmts {
		if !usesVar(t.Exp, name) || scalarRead(t.Exp, name) {
			continue
		}
		switch e := t.Exp.(type) {
		case *core.IfExp:
			if !onlyReads(e.Then.Stmts, name) || !onlyReads(e.Else.Stmts, name) ||
				atomsUse(e.Then.Result, name) || atomsUse(e.Else.Result, name) {
				return false
			}
		case *core.LoopExp:
			if atomsUse(e.Init, name) || !onlyReads(e.Body.Stmts, name) || atomsUse(e.Body.Result, name) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
