package cpu

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Loops and calls over many lanes. A loop inside a SOAC lambda runs once
// for the whole chunk: its parameters are columns, every iteration runs the
// body over the lanes still looping (all of them while every lane is
// active, else through a selection frame), and finished lanes keep their
// values. A call of a (recursive) function runs the callee's body over all
// lanes at once. Both keep the statements inside them vectorised.

// maxVecDepth bounds vectorised recursion: deeper calls go lane by lane,
// so that chunk-sized columns are not kept alive for every level.
const maxVecDepth = 32

func (f *frame) vecLoop(s *core.Stmt, e *core.LoopExp) error {
	n := f.n
	fl, wl := core.ForOf(e.Form), core.WhileOf(e.Form)
	if fl == nil && wl == nil {
		return f.errAt(s, "internal error: unknown loop form %T", e.Form)
	}
	types := core.TypesOf(e.Params)
	cur := make([]col, len(e.Params))
	spare := make([]any, len(e.Params))
	condIdx := -1
	for i, p := range e.Params {
		init := f.atom(e.Init[i])
		if types[i].Rank == 0 {
			d := f.alloc(types[i].Elem, n)
			copyAt(d, 0, sliceAny(init.data, 0, n))
			cur[i] = col{data: d}
			spare[i] = f.alloc(types[i].Elem, n)
		} else {
			arrs := make([]eval.Value, n)
			for l := range arrs {
				arrs[l] = init.arr(l)
			}
			cur[i] = col{arrs: arrs}
		}
		if wl != nil && wl.Cond != nil && p.Name == wl.Cond.Name {
			condIdx = i
		}
	}
	if wl != nil && condIdx < 0 {
		return f.errAt(s, "internal error: while-loop condition is not a loop parameter")
	}
	var bound col
	var bt core.PrimType
	var ibuf any
	if fl != nil {
		bound = f.atom(fl.Bound)
		bt = fl.Bound.AtomType().Elem
		ibuf = f.alloc(bt, n)
	}
	mark := f.pool.mark()
	sel := make([]int32, 0, n)
	for iter := int64(0); ; iter++ {
		if err := f.m.cancelled(); err != nil {
			return err
		}
		sel = sel[:0]
		for l := 0; l < n; l++ {
			var active bool
			if fl != nil {
				b := toInt64(bound.data, l)
				active = iter < b || (bt.IsUnsigned() && b < 0)
			} else {
				active = cur[condIdx].data.([]bool)[l]
			}
			if active {
				sel = append(sel, int32(l))
			}
		}
		if len(sel) == 0 {
			break
		}
		f.bind(e.Params, cur)
		bf := f
		if len(sel) < n {
			bf = f.child(selFrame, len(sel))
			bf.sel = sel
		}
		if fl != nil {
			iv := sliceAny(ibuf, 0, len(sel))
			fillAny(iv, eval.Scalar(core.IntConst(bt, iter)).Data, 0)
			bf.vars[fl.I.Name] = col{data: iv}
		}
		res, err := bf.body(e.Body)
		if err != nil {
			return err
		}
		all := len(sel) == n
		for i := range cur {
			if types[i].Rank == 0 {
				nxt := spare[i]
				if all {
					copyAt(nxt, 0, sliceAny(res[i].data, 0, n))
				} else {
					copyAt(nxt, 0, cur[i].data)
					scatterAny(nxt, res[i].data, sel)
				}
				spare[i] = cur[i].data
				cur[i] = col{data: nxt}
				continue
			}
			arrs := make([]eval.Value, n)
			if all {
				for l := range arrs {
					arrs[l] = res[i].arr(l)
				}
			} else {
				copy(arrs, cur[i].arrs)
				for j, l := range sel {
					arrs[l] = res[i].arr(j)
				}
			}
			cur[i] = col{arrs: arrs}
		}
		f.pool.releaseTo(mark)
	}
	f.bind(s.Pat, cur)
	return nil
}

// vecApply runs a function body over all lanes.
func (f *frame) vecApply(s *core.Stmt, e *core.ApplyExp) error {
	fn := f.m.prog.Fun(e.Fun)
	if fn == nil {
		return f.errAt(s, "internal error: call of unknown function %s", e.Fun)
	}
	if f.depth+1 > f.m.opts.MaxDepth {
		return f.errAt(s, "recursion too deep (more than %d nested calls)", f.m.opts.MaxDepth)
	}
	cf := &frame{m: f.m, n: f.n, vars: make(map[string]col, len(fn.Params)+len(fn.Body.Stmts)),
		kind: rootFrame, pool: f.pool, wk: f.wk, depth: f.depth + 1, soac: f.soac}
	for i, p := range fn.Params {
		cf.vars[p.Name] = f.atom(e.Args[i])
	}
	res, err := cf.body(fn.Body)
	if err != nil {
		return err
	}
	f.bind(s.Pat, res)
	return nil
}
