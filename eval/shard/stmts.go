package shard

import (
	"fmt"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// sharded runs s over the blocks when its kind and size allow; false means
// the caller runs it on device 0.
func (r *run) sharded(s *core.Stmt) (bool, error) {
	switch e := s.Exp.(type) {
	case *core.Screma:
		if len(e.Scans) > 0 && (len(e.Reds) > 0 || e.Post != nil || !distinctScanParams(e)) {
			return false, nil
		}
		for _, v := range s.Pat[:scanWidth(e)] {
			if v.Type.Rank != 1 {
				return false, nil
			}
		}
		// Reductions to arrays (over rows) only where the collective
		// combines them element-wise.
		at := scanWidth(e)
		if e.Post != nil {
			at = len(s.Pat) - redWidth(e)
		}
		for _, op := range e.Reds {
			_, native := nativeOp(op.Lambda)
			for _, v := range s.Pat[at : at+len(op.Neutral)] {
				if v.Type.Rank > 0 && !(native && len(op.Neutral) == 1) {
					return false, nil
				}
			}
			at += len(op.Neutral)
		}
		w, err := r.intOf(e.W)
		if err != nil || !r.worth(w, e.Arrs) {
			return false, err
		}
		return true, r.screma(s, e, w)
	case *core.Hist:
		for _, op := range e.Ops {
			for _, d := range op.Dests {
				if d.Type.Rank != 1 {
					return false, nil
				}
			}
		}
		w, err := r.intOf(e.W)
		if err != nil || !r.worth(w, e.Arrs) {
			return false, err
		}
		return true, r.hist(s, e, w)
	case *core.Filter:
		w, err := r.intOf(e.W)
		if err != nil || !r.worth(w, e.Arrs) {
			return false, err
		}
		return true, r.filter(s, e, w)
	case *core.Segmented:
		// Segments are rows: a scan's lazy result (one dimension) is not
		// among its arrays, but would be gathered with its carries applied.
		if len(e.Outer) == 0 || e.Op.Index != nil || r.anyLazy(e.Op.Arrs) {
			return false, nil
		}
		rows, err := r.intOf(e.Outer[0])
		if err != nil || !r.worth(rows, e.Op.Arrs) {
			return false, err
		}
		return true, r.segmented(s, e, rows)
	}
	return false, nil
}

func scanWidth(e *core.Screma) int {
	n := 0
	for _, op := range e.Scans {
		n += len(op.Neutral)
	}
	return n
}

func redWidth(e *core.Screma) int {
	n := 0
	for _, op := range e.Reds {
		n += len(op.Neutral)
	}
	return n
}

// blockScrema splits e's arrays over the devices and returns e rewritten
// for one block (its arrays, size and index the block's) with the
// per-device description that runBlocks needs, but for its function.
func (r *run) blockScrema(e *core.Screma, w int64) (*core.Screma, *perDevice, error) {
	offs, pieces, err := r.split(w, e.Arrs)
	if err != nil {
		return nil, nil, err
	}
	e2 := *e
	p := &perDevice{offs: offs}
	e2.Arrs, p.pieces = r.blockVars(e.Arrs, pieces)
	p.w = r.blockSize(e.W)
	e2.W = p.w
	if e.Index != nil {
		e2.Index, p.off, e2.Map = r.offsetIndex(e.Index, e.Map)
	}
	if e2.Map, err = r.foldCarries(e.Arrs, e2.Map, p); err != nil {
		return nil, nil, err
	}
	return &e2, p, nil
}

// screma runs a map or redomap per block.
func (r *run) screma(s *core.Stmt, e *core.Screma, w int64) error {
	if len(e.Scans) > 0 {
		if ops, ok := lazyOps(e); ok {
			return r.lazyScan(s, e, w, ops)
		}
		return r.scanomap(s, e, w)
	}
	e2, p, err := r.blockScrema(e, w)
	if err != nil {
		return err
	}
	p.fun = stmtFun("ar_shard_block", nil, &core.Stmt{Pat: s.Pat, Exp: e2, Pos: s.Pos})
	res, err := r.runBlocks(p)
	if err != nil {
		return err
	}
	// The reduced scalars: first without a post-map, last with one.
	nr := redWidth(e)
	redAt := scanWidth(e)
	if e.Post != nil {
		redAt = len(s.Pat) - nr
	}
	for i, v := range s.Pat {
		if i >= redAt && i < redAt+nr {
			continue
		}
		r.env[v.Name] = r.blocks(res, i, v)
	}
	at := redAt
	for _, op := range e.Reds {
		if err := r.combineReduction(s, op, res, at); err != nil {
			return err
		}
		at += len(op.Neutral)
	}
	r.note(fmt.Sprintf("%s at %v: ran on %d devices", e.Kind(), s.Pos, r.b.Ranks()))
	return nil
}

// blocks makes result i of every device a sharded value (empty blocks for
// the devices that had no rows).
func (r *run) blocks(res [][]eval.Value, i int, v *core.Var) eval.Value {
	var inner []int64
	for _, rv := range res {
		if rv != nil {
			inner = rv[i].Shape[1:]
			break
		}
	}
	parts := make([]eval.Value, len(res))
	for k, rv := range res {
		if rv == nil {
			shape := append([]int64{0}, inner...)
			parts[k] = eval.Value{Elem: v.Type.Elem, Shape: shape, Data: eval.MakeSlice(v.Type.Elem, 0)}
			continue
		}
		parts[k] = rv[i]
	}
	return newSharded(v.Type.Elem, parts, inner)
}

// combineReduction combines the devices' partial results at[..] of one
// reduction into the statement's scalars.
func (r *run) combineReduction(s *core.Stmt, op *core.RedOp, res [][]eval.Value, at int) error {
	m := len(op.Neutral)
	if bop, ok := nativeOp(op.Lambda); ok && m == 1 {
		parts := make([]eval.Value, len(res))
		for k, rv := range res {
			if rv == nil {
				ne, err := r.value(op.Neutral[0])
				if err != nil {
					return err
				}
				parts[k] = ne
				continue
			}
			parts[k] = rv[at]
		}
		out, err := r.allReduce(parts, bop)
		if err != nil {
			return err
		}
		freeOthers(out)
		v := out[0]
		if s.Pat[at].Type.Rank == 0 {
			// Scalars live on the host, as every backend returns them.
			if v, err = toHost(r.ctx, v); err != nil {
				return err
			}
			v.Shape = nil
		}
		r.env[s.Pat[at].Name] = fromRank(v, 0)
		return nil
	}
	// The program's own operator over the partials, in device order.
	b := r.bld
	var arrs []*core.Var
	var args []eval.Value
	for j := range m {
		elem := s.Pat[at+j].Type.Elem
		var vals []eval.Value
		for _, rv := range res {
			if rv != nil {
				hv, err := toHost(r.ctx, rv[at+j])
				if err != nil {
					return err
				}
				vals = append(vals, hv)
			}
		}
		arr := eval.NewArray(elem, int64(len(vals)))
		for k, v := range vals {
			copyData(arr.Data, k, v.Data)
		}
		arrs = append(arrs, b.Fresh("ar_partials", core.ArrayOf(elem, 1)))
		args = append(args, arr)
	}
	count := args[0].Shape[0]
	types := make([]core.Type, m)
	for j := range m {
		types[j] = core.Scalar(s.Pat[at+j].Type.Elem)
	}
	outs := make([]*core.Var, m)
	for j := range m {
		outs[j] = b.Fresh("ar_total", types[j])
	}
	red := &core.Screma{W: core.IntConst(core.I64, count), Arrs: arrs, Map: b.IdentityLambda(types), Reds: []*core.RedOp{op}}
	fun := stmtFun("ar_shard_combine", nil, &core.Stmt{Pat: outs, Exp: red, Pos: s.Pos})
	vals, err := r.callFirst(fun, arrs, args)
	if err != nil {
		return err
	}
	for j := range m {
		r.env[s.Pat[at+j].Name] = vals[j]
	}
	r.note(fmt.Sprintf("reduction at %v: partials combined by its operator on device 0", s.Pos))
	return nil
}

// callFirst runs fun on device 0 with the given values for the fresh
// variables in given (everything else from the environment).
func (r *run) callFirst(fun *core.Fun, given []*core.Var, vals []eval.Value) ([]eval.Value, error) {
	byName := map[string]eval.Value{}
	for i, v := range given {
		byName[v.Name] = vals[i]
	}
	args := make([]eval.Value, len(fun.Params))
	for i, p := range fun.Params {
		v, ok := byName[p.Name]
		var err error
		if !ok {
			v, err = r.value(p)
		}
		if err == nil {
			v, err = r.toRank(p.Name, v, 0)
		}
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	var sub eval.Timings
	out, err := r.call(0, fun, args, &sub)
	r.merge([]*eval.Timings{&sub})
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i] = fromRank(out[i], 0)
	}
	return out, nil
}

// hist computes a histogram per device, device 0's from the destination
// and the others' from the operator's neutral element, and combines the
// devices' histograms: an all-reduce where the collective knows the
// operator (on the host when small), else the operator pairwise in device
// order on device 0. The operator is associative and commutative, so
// dest ⊕ h0 ⊕ h1 ... is the histogram of the whole (were device 0 to start
// from the neutral element too, the destination would be one more read and
// combine after the collective: 35-45 µs for 4 KB on two H200s). When
// device 0 has no rows, the destination is combined at the end.
func (r *run) hist(s *core.Stmt, e *core.Hist, w int64) error {
	offs, pieces, err := r.split(w, e.Arrs)
	if err != nil {
		return err
	}
	b := r.bld
	e2 := *e
	p := &perDevice{offs: offs}
	e2.Arrs, p.pieces = r.blockVars(e.Arrs, pieces)
	p.w = r.blockSize(e.W)
	e2.W = p.w
	if e.Index != nil {
		e2.Index, p.off, e2.Map = r.offsetIndex(e.Index, e.Map)
	}
	if e2.Map, err = r.foldCarries(e.Arrs, e2.Map, p); err != nil {
		return err
	}
	destFirst := offs[1] > offs[0]
	if destFirst {
		p.first = stmtFun("ar_shard_hist_first", nil, &core.Stmt{Pat: s.Pat, Exp: &e2, Pos: s.Pos})
	}
	local := e2
	var pre []*core.Stmt
	local.Ops = make([]*core.HistOp, len(e.Ops))
	for i, op := range e.Ops {
		op2 := *op
		op2.Dests = make([]*core.Var, len(op.Dests))
		for j, d := range op.Dests {
			dv, err := r.value(d)
			if err != nil {
				return err
			}
			fresh := b.Fresh("ar_hist_local", d.Type)
			pre = append(pre, &core.Stmt{Pat: []*core.Var{fresh},
				Exp: &core.ReplicateExp{N: core.IntConst(core.I64, dv.Shape[0]), V: op.Neutral[j]}, Pos: s.Pos})
			op2.Dests[j] = fresh
		}
		local.Ops[i] = &op2
	}
	p.fun = stmtFun("ar_shard_hist", pre, &core.Stmt{Pat: s.Pat, Exp: &local, Pos: s.Pos})
	// The partials allReduce may combine on the host are read as each
	// device finishes.
	// Small histograms go to device 0 device to device where they can
	// (onPeers), else through a collective or the host.
	collective := make([]bool, len(e.Ops))
	at := 0
	for i, op := range e.Ops {
		_, ok := nativeOp(op.Lambda)
		collective[i] = ok && len(op.Dests) == 1 && !r.onPeers(op)
		if collective[i] {
			p.early = append(p.early, at)
		}
		at += len(op.Dests)
	}
	res, err := r.runBlocks(p)
	if err != nil {
		return err
	}
	at = 0
	for i, op := range e.Ops {
		m := len(op.Dests)
		totals := make([]eval.Value, m)
		if bop, _ := nativeOp(op.Lambda); collective[i] {
			parts := make([]eval.Value, len(res))
			for k, rv := range res {
				if rv == nil {
					// A device without rows contributes the neutral histogram.
					for _, other := range res {
						if other != nil {
							parts[k] = other[at]
						}
					}
					hv, err := r.neutralLike(op.Neutral[0], parts[k])
					if err != nil {
						return err
					}
					parts[k] = hv
					continue
				}
				parts[k] = rv[at]
			}
			out, err := r.allReduce(parts, bop)
			if err != nil {
				return err
			}
			freeOthers(out)
			totals[0] = fromRank(out[0], 0)
		} else {
			// Pairwise on device 0 with the program's operator.
			first := true
			for k, rv := range res {
				if rv == nil {
					continue
				}
				if first {
					for j := range m {
						totals[j] = fromRank(rv[at+j], k)
					}
					first = false
					continue
				}
				next := make([]eval.Value, m)
				for j := range m {
					next[j] = fromRank(rv[at+j], k)
				}
				if totals, err = r.mapOp(s, op.Lambda, totals, next); err != nil {
					return err
				}
			}
		}
		if !destFirst {
			dests := make([]eval.Value, m)
			for j, d := range op.Dests {
				dv, err := r.value(d)
				if err != nil {
					return err
				}
				dests[j] = dv
			}
			if totals, err = r.mapOp(s, op.Lambda, dests, totals); err != nil {
				return err
			}
		}
		for j := range m {
			r.env[s.Pat[at+j].Name] = totals[j]
		}
		at += m
	}
	r.note(fmt.Sprintf("hist at %v: per-device histograms over %d devices (device 0's from the destination), combined", s.Pos, r.b.Ranks()))
	return nil
}

// onPeers reports whether the devices' histograms of op are combined on
// device 0 after peer copies (Options.PeerCopies): when they are small, as
// the host would combine them otherwise.
func (r *run) onPeers(op *core.HistOp) bool {
	if _, ok := r.peerTo(0); !ok || r.b.opts.CollectiveMin <= 0 {
		return false
	}
	bytes := int64(0)
	for _, d := range op.Dests {
		dv, err := r.value(d)
		if err != nil {
			return false
		}
		bytes += dv.Len() * int64(dv.Elem.Size())
	}
	return bytes < r.b.opts.CollectiveMin
}

// neutralLike is a host array shaped like like, filled with the neutral
// atom's value.
func (r *run) neutralLike(ne core.Atom, like eval.Value) (eval.Value, error) {
	v, err := r.value(ne)
	if err != nil {
		return eval.Value{}, err
	}
	hv, err := toHost(r.ctx, v)
	if err != nil {
		return eval.Value{}, err
	}
	out := eval.NewArray(like.Elem, like.Shape...)
	for i := range eval.DataLen(out.Data) {
		copyData(out.Data, i, hv.Data)
	}
	return out, nil
}

// mapOp runs map op over (xs..., ys...) on device 0: op's parameters are
// one element of each.
func (r *run) mapOp(s *core.Stmt, op *core.Lambda, xs, ys []eval.Value) ([]eval.Value, error) {
	b := r.bld
	var arrs []*core.Var
	var vals []eval.Value
	for _, v := range append(append([]eval.Value(nil), xs...), ys...) {
		arrs = append(arrs, b.Fresh("ar_hist", core.ArrayOf(v.Elem, 1)))
		vals = append(vals, v)
	}
	outs := make([]*core.Var, len(xs))
	for j, v := range xs {
		outs[j] = b.Fresh("ar_hist_out", core.ArrayOf(v.Elem, 1))
	}
	m := &core.Screma{W: core.IntConst(core.I64, xs[0].Shape[0]), Arrs: arrs, Map: op}
	return r.callFirst(stmtFun("ar_shard_histcombine", nil, &core.Stmt{Pat: outs, Exp: m, Pos: s.Pos}), arrs, vals)
}

// filter keeps each device's survivors on that device: the result is a
// sharded array whose blocks are the per-device counts.
func (r *run) filter(s *core.Stmt, e *core.Filter, w int64) error {
	offs, pieces, err := r.split(w, e.Arrs)
	if err != nil {
		return err
	}
	e2 := *e
	p := &perDevice{offs: offs}
	e2.Arrs, p.pieces = r.blockVars(e.Arrs, pieces)
	p.w = r.blockSize(e.W)
	e2.W = p.w
	if e.Index != nil {
		if e.Map == nil {
			return fmt.Errorf("internal error: shard: filter with an index and no map")
		}
		e2.Index, p.off, e2.Map = r.offsetIndex(e.Index, e.Map)
	}
	if e2.Map == nil && r.anyLazy(e.Arrs) {
		// A pending carry needs a map to fold into: the identity.
		types := make([]core.Type, len(e.Arrs))
		for i, a := range e.Arrs {
			types[i] = a.Type.Row()
		}
		e2.Map = r.bld.IdentityLambda(types)
	}
	if e2.Map, err = r.foldCarries(e.Arrs, e2.Map, p); err != nil {
		return err
	}
	p.fun = stmtFun("ar_shard_filter", nil, &core.Stmt{Pat: s.Pat, Exp: &e2, Pos: s.Pos})
	res, err := r.runBlocks(p)
	if err != nil {
		return err
	}
	for i, v := range s.Pat {
		r.env[v.Name] = r.blocks(res, i, v)
	}
	r.note(fmt.Sprintf("filter at %v: survivors stay on their devices (%s)", s.Pos, r.env[s.Pat[0].Name].Dev.(*Sharded).Placement()))
	return nil
}

// segmented runs a segmented operation on blocks of whole segments.
func (r *run) segmented(s *core.Stmt, e *core.Segmented, rows int64) error {
	offs, pieces, err := r.split(rows, e.Op.Arrs)
	if err != nil {
		return err
	}
	e2 := *e
	e2.Outer = append([]core.Atom(nil), e.Outer...)
	p := &perDevice{offs: offs}
	op2 := *e.Op
	op2.Arrs, p.pieces = r.blockVars(e.Op.Arrs, pieces)
	e2.Op = &op2
	p.w = r.blockSize(e.Outer[0])
	e2.Outer[0] = p.w
	p.fun = stmtFun("ar_shard_segments", nil, &core.Stmt{Pat: s.Pat, Exp: &e2, Pos: s.Pos})
	res, err := r.runBlocks(p)
	if err != nil {
		return err
	}
	for i, v := range s.Pat {
		r.env[v.Name] = r.blocks(res, i, v)
	}
	r.note(fmt.Sprintf("segmented %s at %v: whole segments on each of %d devices", e.Op.Kind(), s.Pos, r.b.Ranks()))
	return nil
}

// blockVars renames a statement's split arrays to fresh variables for
// their blocks, so that the lambda can still read an array whole by its
// own name (an n-body loop over every body while mapping over its own
// block) and gets the gathered copy there.
func (r *run) blockVars(arrs []*core.Var, pieces map[string][]eval.Value) ([]*core.Var, map[string][]eval.Value) {
	out := make([]*core.Var, len(arrs))
	byName := map[string]*core.Var{}
	ps := map[string][]eval.Value{}
	for i, a := range arrs {
		if v, ok := byName[a.Name]; ok {
			out[i] = v
			continue
		}
		v := r.bld.Fresh("ar_block_"+a.Name, a.Type)
		byName[a.Name] = v
		ps[v.Name] = pieces[a.Name]
		out[i] = v
	}
	return out, ps
}

// freeOthers frees the device copies of a collective's result on ranks
// after the first, which nothing reads (each rank gets its own).
func freeOthers(out []eval.Value) {
	for _, v := range out[1:] {
		if v.Dev != nil && v.Dev != out[0].Dev {
			v.Dev.Free()
		}
	}
}
