package shard

import (
	"fmt"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Scans over blocks: reduce, then scan with the carry folded in. This is
// the path of scans whose operator the host cannot apply (tuples, lambdas);
// the others leave their carries pending instead (lazy.go).
//
// Scanning each block alone and then adding every earlier block's total
// to the later blocks costs those blocks a second pass over their
// elements (read and write): on two H200s a 2^31-element scan took 4.9 ms
// against one GPU's 4.3. Instead every device first reduces its block
// with the scan's operator (a read, half a scan's traffic; all devices at
// once), the host combines the handful of totals into each block's
// exclusive prefix (its carry), and every device then scans its block
// once, the carry folded into the block's first element by the scan's map
// (carryMap), so that the scan carries it through the block. The first
// block needs no carry and runs the statement as written.
//
// The cost is the reduction: with equal blocks and memory-bound kernels, a
// device's work is 1.5 block-scans instead of one, so g devices are at
// best g/1.5 times one (1.33x on two; measured on two H200s over 2^31 i32:
// 3.17 ms against one GPU's 4.33, 1.37x). The last device's block needs no
// total and is not reduced.

// scanomap runs a scan (with its map and map-outs; no reductions or
// post-map, which sharded leaves to device 0) over the blocks.
func (r *run) scanomap(s *core.Stmt, e *core.Screma, w int64) error {
	e2, p, err := r.blockScrema(e, w)
	if err != nil {
		return err
	}
	n := r.b.Ranks()
	sw := scanWidth(e)
	p.fun = stmtFun("ar_shard_scan_first", nil, &core.Stmt{Pat: s.Pat, Exp: e2, Pos: s.Pos})
	later := false
	for k := 1; k < n; k++ {
		later = later || p.offs[k+1] > p.offs[k]
	}
	if later {
		carries, err := r.scanCarries(s, e, e2, p)
		if err != nil {
			return err
		}
		// Blocks after the first: the same scan with the block's carry
		// folded into its first element.
		b := r.bld
		carryVars := make([]*core.Var, sw)
		for j := range sw {
			carryVars[j] = b.Fresh("ar_carry", core.Scalar(s.Pat[j].Type.Elem))
			ps := make([]eval.Value, n)
			for k := 1; k < n; k++ {
				ps[k] = carries[j][k]
			}
			p.pieces[carryVars[j].Name] = ps
		}
		withCarry := *e2
		carryMap(b, &withCarry, carryVars)
		p.first = p.fun
		p.fun = stmtFun("ar_shard_scan_carry", nil, &core.Stmt{Pat: s.Pat, Exp: &withCarry, Pos: s.Pos})
	}
	res, err := r.runBlocks(p)
	if err != nil {
		return err
	}
	for i, v := range s.Pat {
		r.env[v.Name] = r.blocks(res, i, v)
	}
	r.note(fmt.Sprintf("%s at %v: blocks reduced, totals combined into carries, each block scanned once with its carry", e.Kind(), s.Pos))
	return nil
}

// scanCarries reduces every block but the last with the scan operators
// and returns, for each scanned value j and block k ≥ 1, the combination
// of the totals of blocks 0..k-1 (carries[j][k]; carries[j][0] unset).
func (r *run) scanCarries(s *core.Stmt, e, e2 *core.Screma, p *perDevice) ([][]eval.Value, error) {
	n := r.b.Ranks()
	sw := scanWidth(e)
	b := r.bld
	// The map's scanned values only: its map-outs would be arrays written
	// for nothing.
	m := e2.Map
	red := *e2
	red.Map = &core.Lambda{Params: m.Params, Ret: m.Ret[:sw], Body: &core.Body{Stmts: m.Body.Stmts, Result: m.Body.Result[:sw]}}
	red.Scans = nil
	red.Reds = make([]*core.RedOp, len(e.Scans))
	for i, op := range e.Scans {
		red.Reds[i] = &core.RedOp{Lambda: op.Lambda, Neutral: op.Neutral, Comm: commutative(op.Lambda)}
	}
	totals := make([]*core.Var, sw)
	for j := range sw {
		totals[j] = b.Fresh("ar_block_total", core.Scalar(s.Pat[j].Type.Elem))
	}
	pr := *p
	pr.fun = stmtFun("ar_shard_scan_totals", nil, &core.Stmt{Pat: totals, Exp: &red, Pos: s.Pos})
	pr.offs = append([]int64(nil), p.offs...)
	pr.offs[n] = pr.offs[n-1] // the last block's total is nobody's carry
	res, err := r.runBlocks(&pr)
	if err != nil {
		return nil, err
	}
	carries := make([][]eval.Value, sw)
	at := 0
	for _, op := range e.Scans {
		k := len(op.Neutral)
		// Each value's totals in block order, the neutral element for
		// the blocks not reduced, gathered on every device (on the host
		// when small, as these are).
		incl := make([]eval.Value, k)
		for j := range k {
			parts := make([]eval.Value, n)
			for d := range n {
				v, err := r.value(op.Neutral[j])
				if d < n-1 && res[d] != nil {
					v = res[d][at+j]
				}
				if err == nil {
					v, err = toHost(r.ctx, v)
				}
				if err != nil {
					return nil, err
				}
				v.Shape = []int64{1}
				parts[d] = v
			}
			all, err := r.allGather(parts)
			if err != nil {
				return nil, err
			}
			if incl[j], err = toHost(r.ctx, all[0]); err != nil {
				return nil, err
			}
		}
		// Their inclusive scan: on the host for an operator it knows,
		// else by the program's operator on device 0.
		if bop, ok := nativeOp(op.Lambda); ok && k == 1 {
			d := cloneData(incl[0].Data)
			for i := 1; i < n; i++ {
				combineInto(eval.SliceData(d, i, i+1), eval.SliceData(d, i-1, i), bop)
			}
			incl[0].Data = d
		} else {
			var err error
			if incl, err = r.scanOnFirst(s, op, incl); err != nil {
				return nil, err
			}
		}
		for j := range k {
			carries[at+j] = make([]eval.Value, n)
			for d := 1; d < n; d++ {
				carries[at+j][d] = eval.Value{Elem: incl[j].Elem, Data: eval.SliceData(cloneData(incl[j].Data), d-1, d)}
			}
		}
		at += k
	}
	return carries, nil
}

// scanOnFirst is the inclusive scan of the host arrays xs (one per value of
// op's tuple) by op on device 0, returned on the host.
func (r *run) scanOnFirst(s *core.Stmt, op *core.ScanOp, xs []eval.Value) ([]eval.Value, error) {
	b := r.bld
	k := len(xs)
	types := make([]core.Type, k)
	ins := make([]*core.Var, k)
	outs := make([]*core.Var, k)
	for j, x := range xs {
		types[j] = core.Scalar(x.Elem)
		ins[j] = b.Fresh("ar_totals", core.ArrayOf(x.Elem, 1))
		outs[j] = b.Fresh("ar_prefix", core.ArrayOf(x.Elem, 1))
	}
	scan := &core.Screma{W: core.IntConst(core.I64, xs[0].Shape[0]), Arrs: ins, Map: b.IdentityLambda(types), Scans: []*core.ScanOp{op}}
	vals, err := r.callFirst(stmtFun("ar_shard_carries", nil, &core.Stmt{Pat: outs, Exp: scan, Pos: s.Pos}), ins, xs)
	if err != nil {
		return nil, err
	}
	for j := range vals {
		if vals[j], err = toHost(r.ctx, vals[j]); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// carryMap makes e2 (a block's scan) fold carries into the block's first
// element: its map's scanned values at block index 0 become (op carry x),
// which the scan then carries through every element (op is associative).
// The scan kernel is the one the statement has without a carry: a map
// already there gains a comparison and a select, an identity map becomes
// one (on an H200 a 2^31-element scan ran at the same speed with a map as
// without).
func carryMap(b *core.Builder, e2 *core.Screma, carries []*core.Var) {
	sw := scanWidth(e2)
	if e2.Index == nil {
		e2.Index = b.Fresh("ar_block_i", core.Scalar(core.I64))
	}
	m := e2.Map
	first := b.Fresh("ar_block_first", core.Scalar(core.Bool))
	var then []*core.Stmt
	var folded []core.Atom
	at := 0
	for _, op := range e2.Scans {
		k := len(op.Neutral)
		for j := range k {
			then = append(then,
				&core.Stmt{Pat: []*core.Var{op.Lambda.Params[j]}, Exp: &core.AtomExp{A: carries[at+j]}},
				&core.Stmt{Pat: []*core.Var{op.Lambda.Params[k+j]}, Exp: &core.AtomExp{A: m.Body.Result[at+j]}})
		}
		then = append(then, op.Lambda.Body.Stmts...)
		folded = append(folded, op.Lambda.Body.Result...)
		at += k
	}
	scanned := make([]*core.Var, sw)
	results := make([]core.Atom, len(m.Body.Result))
	copy(results, m.Body.Result)
	for j := range sw {
		scanned[j] = b.Fresh("ar_scan_in", m.Ret[j])
		results[j] = scanned[j]
	}
	stmts := append(append([]*core.Stmt(nil), m.Body.Stmts...),
		&core.Stmt{Pat: []*core.Var{first}, Exp: &core.BinOpExp{Op: core.Eq, T: core.I64, X: e2.Index, Y: core.IntConst(core.I64, 0)}},
		&core.Stmt{Pat: scanned, Exp: &core.IfExp{Cond: first, Ret: m.Ret[:sw],
			Then: &core.Body{Stmts: then, Result: folded},
			Else: &core.Body{Result: m.Body.Result[:sw]}}})
	e2.Map = &core.Lambda{Params: m.Params, Ret: m.Ret, Body: &core.Body{Stmts: stmts, Result: results}}
}

// distinctScanParams reports whether no two scan operators of e share a
// parameter (carryMap inlines them all into one body).
func distinctScanParams(e *core.Screma) bool {
	seen := map[string]bool{}
	for _, op := range e.Scans {
		for _, p := range op.Lambda.Params {
			if seen[p.Name] {
				return false
			}
			seen[p.Name] = true
		}
	}
	return true
}
