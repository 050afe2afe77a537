package shard

import (
	"fmt"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Lazy carries: a scan whose operators the host can apply (one value each,
// +, *, integer min or max: NativeOp's) is scanned on every block alone,
// all devices at once, and the result keeps each block's carry pending
// (Carry): block k's elements are (the totals of blocks 0..k-1) ⊕ what
// block k stores.
//
// Why: a scan's outputs on a later device depend on everything before it.
// With T one GPU's scan (it reads and writes N words) and the array split
// evenly over two, any scheme that writes final values once must know
// GPU 0's total before GPU 1 writes: GPU 0 reduces its block (T/4), then
// both scan (T/2), 3T/4 in all, 1.33x at best (reduce-then-scan, scan.go,
// measured 1.37x). Scanning each block alone and adding the carry in a
// second pass costs GPU 1 T/2 + T/2 (1.0x). Leaving the carry pending
// costs each GPU T/2 and one read of its block's last element (2x less
// that read; measured on two H200s over 2^31 i32: 2.20 ms against one
// GPU's 4.33, 1.97x, and a reduction of the scan 1.97x); the carry is then applied where the values are next read,
// for free: on the host copy when they are read to the host, and in the
// map of the next statement over the blocks (foldCarries), where it is one
// more scalar operation per element of a kernel that reads the element
// anyway. Every other statement (one run on device 0, a segmented one:
// its arrays have rows, scans' results here do not) gathers the array
// through the host as before, the carries applied there.

// lazyOps returns the operator of every scan of e when each is one
// operator the host applies itself to one value.
func lazyOps(e *core.Screma) ([]core.BinOp, bool) {
	var ops []core.BinOp
	for _, op := range e.Scans {
		b, ok := binOpOf(op.Lambda)
		if !ok || len(op.Neutral) != 1 || !NativeOp(b.Op, b.T) {
			return nil, false
		}
		ops = append(ops, b.Op)
	}
	return ops, len(ops) > 0
}

// lazyScan scans every block alone and leaves the carries pending in the
// scanned results. Every device but the last reads its block's last
// elements on its own goroutine right after its scan (the others may
// still be scanning); the host combines them into the carries.
func (r *run) lazyScan(s *core.Stmt, e *core.Screma, w int64, ops []core.BinOp) error {
	e2, p, err := r.blockScrema(e, w)
	if err != nil {
		return err
	}
	n := r.b.Ranks()
	p.fun = stmtFun("ar_shard_scan_local", nil, &core.Stmt{Pat: s.Pat, Exp: e2, Pos: s.Pos})
	lasts := make([][]any, n)
	p.after = func(k int, out []eval.Value, sub *eval.Timings) error {
		if p.offs[n] == p.offs[k+1] {
			return nil // no block after this one needs its total
		}
		start := time.Now()
		lasts[k] = make([]any, len(ops))
		var bytes int64
		for j := range ops {
			v := out[j]
			data, err := readPart(r.ctx, v, v.Shape[0]-1, 1)
			if err != nil {
				return err
			}
			lasts[k][j] = data
			bytes += int64(v.Elem.Size())
		}
		d := time.Since(start)
		sub.Kernels = append(sub.Kernels, eval.KernelTiming{Name: "read block's last element", Time: d, Bytes: bytes})
		sub.Run += d
		return nil
	}
	res, err := r.runBlocks(p)
	if err != nil {
		return err
	}
	for i, v := range s.Pat {
		r.env[v.Name] = r.blocks(res, i, v)
	}
	for j, op := range ops {
		ne, err := r.value(e.Scans[j].Neutral[0])
		if err == nil {
			ne, err = toHost(r.ctx, ne)
		}
		if err != nil {
			return err
		}
		c := &Carry{Op: op, Of: make([]any, n), Neutral: ne.Data}
		var acc any
		pending := false
		for k := range n {
			c.Of[k] = acc
			pending = pending || acc != nil
			if lasts[k] == nil {
				continue
			}
			if acc == nil {
				acc = lasts[k][j]
				continue
			}
			next := cloneData(acc)
			combineInto(next, lasts[k][j], op)
			acc = next
		}
		if pending {
			r.env[s.Pat[j].Name].Dev.(*Sharded).Carry = c
		}
	}
	r.note(fmt.Sprintf("%s at %v: each block scanned alone, its carry left pending for the consumer", e.Kind(), s.Pos))
	return nil
}

// lazy reports whether a is a sharded array with a pending carry.
func (r *run) lazy(a *core.Var) (*Sharded, bool) {
	sh, ok := r.env[a.Name].Dev.(*Sharded)
	return sh, ok && sh.Carry != nil
}

// anyLazy reports whether one of arrs has a pending carry.
func (r *run) anyLazy(arrs []*core.Var) bool {
	for _, a := range arrs {
		if _, ok := r.lazy(a); ok {
			return true
		}
	}
	return false
}

// foldCarries returns m (the map of a statement over arrs, one parameter
// per array, already split) with the pending carry of every lazy array
// folded in: its parameter x is bound to c ⊕ x' for a fresh parameter x'
// and the block's carry c, a scalar parameter of the block's function
// (p.pieces gets its per-device values).
func (r *run) foldCarries(arrs []*core.Var, m *core.Lambda, p *perDevice) (*core.Lambda, error) {
	if !r.anyLazy(arrs) {
		return m, nil
	}
	if m == nil || len(m.Params) != len(arrs) {
		return nil, fmt.Errorf("internal error: shard: no map to fold a scan's carries into")
	}
	var pre []*core.Stmt
	params := append([]*core.Var(nil), m.Params...)
	carries := map[string]*core.Var{}
	for i, a := range arrs {
		sh, ok := r.lazy(a)
		if !ok {
			continue
		}
		c, ok := carries[a.Name]
		if !ok {
			c = r.bld.Fresh("ar_carry_"+a.Name, core.Scalar(sh.Elem))
			carries[a.Name] = c
			vals := make([]eval.Value, len(sh.Parts))
			for k := range sh.Parts {
				vals[k] = eval.Value{Elem: sh.Elem, Data: sh.Carry.of(k)}
			}
			p.pieces[c.Name] = vals
		}
		stored := r.bld.Fresh("ar_stored", params[i].Type)
		pre = append(pre, &core.Stmt{Pat: []*core.Var{params[i]}, Exp: &core.BinOpExp{Op: sh.Carry.Op, T: sh.Elem, X: c, Y: stored}})
		params[i] = stored
	}
	return &core.Lambda{Params: params, Ret: m.Ret, Body: &core.Body{Stmts: append(pre, m.Body.Stmts...), Result: m.Body.Result}}, nil
}
