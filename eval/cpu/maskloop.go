package cpu

import (
	"encoding/binary"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Masked loops over lanes. A loop inside a SOAC's lambda whose state is
// scalars and whose body is column code that cannot fail (Mandelbrot's
// escape loop: arithmetic, comparisons and speculable ifs) runs over all
// the chunk's lanes at once: every iteration is one pass of the body's
// column code over the lanes still looping, so the per-statement dispatch
// is paid once per iteration of the whole block rather than per lane, and
// a lane whose loop ends leaves the block: its state is written to the
// loop's results and the remaining lanes are packed together (with the
// loop-invariant values they read), so lanes that finish early stop
// costing work. The lanes' iterations are independent and cannot fail, so
// running them interleaved computes what running them one after the other
// does.

// allTrue8 is 8 bools, all true, as a little-endian word.
const allTrue8 = 0x0101010101010101

// maskLoop is a loop compiled for maskedLoop.
type maskLoop struct {
	u     *vecUnit
	fl    *core.ForLoop
	wl    *core.WhileLoop
	cond  int // while: the index of the condition among the parameters
	types []core.PrimType
}

// maskLoopOf compiles the loop of s for maskedLoop (nil: not possible).
func (m *machine) maskLoopOf(s *core.Stmt, e *core.LoopExp) *maskLoop {
	c := &m.comp
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.masks == nil {
		c.masks = map[*core.Stmt]*maskLoop{}
	}
	ml, ok := c.masks[s]
	if !ok {
		ml = compileMaskLoop(e)
		c.masks[s] = ml
	}
	return ml
}

func compileMaskLoop(e *core.LoopExp) *maskLoop {
	ml := &maskLoop{fl: core.ForOf(e.Form), wl: core.WhileOf(e.Form), cond: -1}
	if (ml.fl == nil) == (ml.wl == nil) {
		return nil
	}
	params := append([]*core.Var(nil), e.Params...)
	for i, p := range e.Params {
		if p.Type.Rank != 0 {
			return nil
		}
		ml.types = append(ml.types, p.Type.Elem)
		if ml.wl != nil && ml.wl.Cond != nil && p.Name == ml.wl.Cond.Name {
			ml.cond = i
		}
	}
	if ml.wl != nil && ml.cond < 0 {
		return nil
	}
	if ml.fl != nil {
		params = append(params, ml.fl.I)
	}
	if !speculable(e.Body) {
		return nil // a statement that can fail: lanes must fail in order
	}
	ret := make([]core.Type, len(e.Params))
	for i, p := range e.Params {
		ret[i] = p.Type
	}
	ml.u = compileVec(&core.Lambda{Params: params, Body: e.Body, Ret: ret})
	if ml.u == nil {
		return nil
	}
	return ml
}

// maskable reports whether a map's lambda has a loop that maskedLoop
// runs, which is then better run over a frame of lanes than compiled lane
// by lane (laneLoop).
func (m *machine) maskable(l *core.Lambda) bool {
	for _, s := range l.Body.Stmts {
		if e, ok := s.Exp.(*core.LoopExp); ok && m.maskLoopOf(s, e) != nil {
			return true
		}
	}
	return false
}

// maskedLoop runs the loop s over the lanes of f, reporting false (and
// doing nothing) when the loop is not one it runs.
func (f *frame) maskedLoop(s *core.Stmt, e *core.LoopExp) (bool, error) {
	ml := f.m.maskLoopOf(s, e)
	if ml == nil {
		return false, nil
	}
	w := f.wk
	n := f.n
	k := len(e.Params)
	// The state of the block's lanes (cur, computed into nxt: both m
	// lanes long), the lanes' positions in f (lanes), the free variables
	// they read (frees), and the results in f's lane order (res).
	// The columns come from the frame's pool where it has one (returned
	// with the block's or chunk's), so that a map of many blocks, such as
	// flatMaskedMap's, does not allocate its loop state per block.
	get := func(t core.PrimType) any {
		if f.pool != nil {
			return f.pool.get(t, n)
		}
		return eval.MakeSlice(t, n)
	}
	cur := make([]any, k)
	nxt := make([]any, k)
	res := make([]col, k)
	for i, t := range ml.types {
		cur[i] = get(t)
		copyAt(cur[i], 0, sliceAny(f.atom(e.Init[i]).data, 0, n))
		nxt[i] = get(t)
		res[i] = col{data: f.alloc(t, n)}
	}
	frees := make([]any, len(ml.u.free))
	for j, fr := range ml.u.free {
		frees[j] = get(fr.v.Type.Elem)
		copyAt(frees[j], 0, sliceAny(f.lookup(fr.v).data, 0, n))
	}
	var bound []int64 // for: each lane's iteration count
	var ibuf any
	if ml.fl != nil {
		bc := f.atom(ml.fl.Bound)
		bt := ml.fl.Bound.AtomType().Elem
		bound = get(core.I64).([]int64)
		for l := range bound {
			b := toInt64(bc.data, l)
			if bt.IsUnsigned() && b < 0 {
				b = 1<<63 - 1
			}
			bound[l] = b
		}
		ibuf = get(ml.fl.I.Type.Elem)
	}
	lanes := get(core.I32).([]int32)
	for l := range lanes {
		lanes[l] = int32(l)
	}
	// A lane whose loop ends has its state written out at once, but it
	// stays in the block (dead, computing values nobody reads: the body
	// cannot fail) until a quarter of the block is dead, when the live
	// lanes are packed together.
	dead := get(core.Bool).([]bool)
	clear(dead)
	ndead := 0
	live := get(core.I32).([]int32)[:0]
	args := make([]col, k, k+1)
	if ml.fl != nil {
		args = append(args, col{data: ibuf})
	}
	m := n
	nextEnd := int64(0) // for: no live lane's count ends before it
	for iter := int64(0); ; iter++ {
		if err := f.m.cancelled(); err != nil {
			return true, err
		}
		// The lanes whose loop ends now: a while loop's lanes whose
		// condition is false, found 8 lanes a word (most words are all
		// live); a for loop's lanes whose count is reached, looked for
		// only from the iteration the lowest count of a live lane ends.
		end := func(j int) {
			for i := range cur {
				setLane(res[i].data, int(lanes[j]), cur[i], j)
			}
			dead[j] = true
			ndead++
		}
		switch {
		case ml.wl != nil:
			cond := cur[ml.cond].([]bool)[:m]
			cb, db := boolBytes(cond), boolBytes(dead[:m])
			j := 0
			for ; j+8 <= m; j += 8 {
				if binary.LittleEndian.Uint64(cb[j:])|binary.LittleEndian.Uint64(db[j:]) == allTrue8 {
					continue
				}
				for t := j; t < j+8; t++ {
					if !cond[t] && !dead[t] {
						end(t)
					}
				}
			}
			for ; j < m; j++ {
				if !cond[j] && !dead[j] {
					end(j)
				}
			}
		case iter >= nextEnd:
			nextEnd = 1<<63 - 1
			for j := 0; j < m; j++ {
				if dead[j] {
					continue
				}
				if b := bound[lanes[j]]; iter < b {
					nextEnd = min(nextEnd, b)
					continue
				}
				end(j)
			}
		}
		if ndead == m {
			break
		}
		if ndead > 0 && ndead >= m/4 {
			live = live[:0]
			for j := 0; j < m; j++ {
				if !dead[j] {
					live = append(live, int32(j))
				}
			}
			m = len(live)
			for i := range cur {
				gatherAny(cur[i], cur[i], live) // in place: live[j] >= j
				cur[i], nxt[i] = sliceAny(cur[i], 0, m), sliceAny(nxt[i], 0, m)
			}
			for j := range frees {
				gatherAny(frees[j], frees[j], live)
				frees[j] = sliceAny(frees[j], 0, m)
			}
			for j, l := range live {
				lanes[j] = lanes[l]
				dead[j] = false
			}
			ndead = 0
			if ml.fl != nil {
				args[k].data = sliceAny(ibuf, 0, m)
			}
		}
		for i := range cur {
			args[i].data = cur[i]
		}
		if ml.fl != nil {
			fillAny(args[k].data, eval.Scalar(core.IntConst(ml.fl.I.Type.Elem, iter)).Data, 0)
		}
		if _, err := ml.u.runWith(w, args, frees, m, nxt); err != nil {
			return true, err
		}
		cur, nxt = nxt, cur
	}
	f.bind(s.Pat, res)
	return true, nil
}

// flatBlock is the number of lanes flatMaskedMap runs a masked loop over
// at once: enough rows that the per-iteration dispatch of the loop body's
// column code is spread over many lanes, few enough that the loop's state
// stays in the L2 cache.
const flatBlock = 4096

// flatMaskedMap runs a map statement s of a frame of several lanes whose
// lambda holds a masked loop (the inner map of Mandelbrot's 2-D map) over
// blocks of several of f's lanes at once, the block's rows flattened into
// one frame of lanes, instead of lane by lane (perLane), where each row is
// a block of its own. The flattened frame is a selFrame whose lane t reads
// f's lane sel[t], so the lambda's free variables are each row's own
// values; the rows' elements are the lambda's parameters. It reports false
// (doing nothing) where the map is not of that form: every row the same
// width and rank-1 inputs; anything else (and every error it could report,
// such as rows of different shapes) is left to the general path.
func (f *frame) flatMaskedMap(s *core.Stmt, e *core.Screma) (bool, error) {
	if f.wk == nil || !seqMappable(e) || !f.m.maskable(e.Map) {
		return false, nil
	}
	if e.Index != nil && e.Index.Type != core.Scalar(core.I64) {
		return false, nil
	}
	wc := f.atom(e.W).data
	w := toInt64(wc, 0)
	if w <= 0 || w > 1<<30 {
		return false, nil
	}
	for l := 1; l < f.n; l++ {
		if toInt64(wc, l) != w {
			return false, nil
		}
	}
	ins := make([]col, len(e.Arrs))
	for k, a := range e.Arrs {
		if e.Map.Params[k].Type.Rank != 0 {
			return false, nil
		}
		ins[k] = f.atom(a)
		for l := 0; l < f.n; l++ {
			v := ins[k].arr(l)
			if len(v.Shape) != 1 || v.Shape[0] != w || eval.DataLen(v.Data) != int(w) {
				return false, nil
			}
		}
	}
	wn := int(w)
	outs := make([]col, len(s.Pat))
	for j, r := range e.Map.Ret {
		outs[j] = col{arrs: make([]eval.Value, f.n)}
		for l := range f.n {
			v, err := f.newArray(s, r.Elem, w)
			if err != nil {
				return true, err
			}
			outs[j].arrs[l] = v
		}
	}
	rows := max(1, flatBlock/wn)
	p := newPool(min(rows, f.n) * wn)
	for lo := 0; lo < f.n; lo += rows {
		hi := min(lo+rows, f.n)
		gn := (hi - lo) * wn
		sel := p.get(core.I32, gn).([]int32)
		for t := range sel {
			sel[t] = int32(lo + t/wn)
		}
		ff := &frame{m: f.m, n: gn, vars: make(map[string]col, len(e.Map.Params)+len(e.Map.Body.Stmts)+1),
			parent: f, kind: selFrame, sel: sel, pool: p, wk: f.wk, depth: f.depth, soac: f.soac + 1}
		for k, prm := range e.Map.Params {
			d := p.get(prm.Type.Elem, gn)
			for l := lo; l < hi; l++ {
				copyAt(d, (l-lo)*wn, ins[k].arr(l).Data)
			}
			ff.vars[prm.Name] = col{data: d}
		}
		if e.Index != nil {
			d := p.get(core.I64, gn).([]int64)
			for t := range d {
				d[t] = int64(t % wn)
			}
			ff.vars[e.Index.Name] = col{data: d}
		}
		res, err := ff.body(e.Map.Body)
		if err != nil {
			return true, err
		}
		for j := range outs {
			for l := lo; l < hi; l++ {
				copyAt(outs[j].arrs[l].Data, 0, sliceAny(res[j].data, (l-lo)*wn, (l-lo+1)*wn))
			}
		}
		p.release()
	}
	f.bind(s.Pat, outs)
	return true, nil
}
