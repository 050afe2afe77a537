package cpu

import (
	"fmt"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// If-conversion. An if inside a lambda whose branches only compute
// scalars with operations that cannot fail (no integer division, no
// negative exponent, no indexing) is run as both branches over every lane
// followed by a per-lane select, instead of splitting the lanes into two
// selection frames. That keeps operators such as `if x < y then y else x`
// (a max written by hand) and argmax's nested comparisons as straight
// typed loops: splitting a chunk per comparison costs far more than
// computing a few cheap values twice.

// speculable reports whether b can run on lanes that did not take its
// branch: its statements are scalar, have no effects and cannot fail.
func speculable(b *core.Body) bool {
	for _, s := range b.Stmts {
		for _, v := range s.Pat {
			if v.Type.Rank > 0 {
				return false
			}
		}
		switch e := s.Exp.(type) {
		case *core.AtomExp, *core.ConvExp, *core.UnOpExp:
		case *core.BinOpExp:
			if e.T.IsInt() {
				switch e.Op {
				case core.Div, core.Mod, core.Quot, core.Rem, core.Pow:
					return false
				}
			}
		case *core.IfExp:
			if !speculable(e.Then) || !speculable(e.Else) {
				return false
			}
		default:
			return false
		}
	}
	for _, a := range b.Result {
		if a.AtomType().Rank > 0 {
			return false
		}
	}
	return true
}

// selectIf runs both branches of e over all lanes and selects per lane.
func (f *frame) selectIf(s *core.Stmt, e *core.IfExp, cond []bool) error {
	then, err := f.body(e.Then)
	if err != nil {
		return err
	}
	els, err := f.body(e.Else)
	if err != nil {
		return err
	}
	outs := make([]col, len(s.Pat))
	for j, p := range s.Pat {
		d := f.alloc(p.Type.Elem, f.n)
		selectAny(d, cond[:f.n], then[j].data, els[j].data)
		outs[j] = col{data: d}
	}
	f.bind(s.Pat, outs)
	return nil
}

func selectInto[T any](dst []T, cond []bool, a, b any) {
	x, y := a.([]T), b.([]T)
	for i, c := range cond {
		if c {
			dst[i] = x[i]
		} else {
			dst[i] = y[i]
		}
	}
}

// selectAny sets dst[i] to a[i] where cond[i] holds and to b[i] elsewhere.
func selectAny(dst any, cond []bool, a, b any) {
	switch d := dst.(type) {
	case []bool:
		selectInto(d, cond, a, b)
	case []int8:
		selectInto(d, cond, a, b)
	case []int16:
		selectInto(d, cond, a, b)
	case []int32:
		selectInto(d, cond, a, b)
	case []int64:
		selectInto(d, cond, a, b)
	case []uint8:
		selectInto(d, cond, a, b)
	case []uint16:
		selectInto(d, cond, a, b)
	case []uint32:
		selectInto(d, cond, a, b)
	case []uint64:
		selectInto(d, cond, a, b)
	case []float32:
		selectInto(d, cond, a, b)
	case []float64:
		selectInto(d, cond, a, b)
	default:
		panic(fmt.Sprintf("cpu: selectAny of %T", d))
	}
}

// Wide accumulators for commutative reductions. A reduce_comm with a
// general (non-builtin) scalar operator keeps wideLanes running values
// per worker instead of one: each chunk is folded into them by
// applications of the operator over wideLanes lanes at a time, so the
// per-application cost of the interpreter (a frame, variable bindings) is
// paid once per wideLanes elements instead of once per tree level of every
// chunk. The lanes are collapsed to one value when the worker's block ends.
const wideLanes = 1024

// wideFold folds n lanes of xs into the wide accumulator acc (nil:
// nothing yet) and returns it; its columns are private to the caller.
func (w *worker) wideFold(op *opInfo, acc, xs []col, n int) ([]col, error) {
	start := 0
	if acc == nil {
		m := min(n, wideLanes)
		acc = make([]col, len(xs))
		for k, c := range xs {
			d := eval.MakeSlice(op.types[k].Elem, m)
			copyAt(d, 0, sliceAny(c.data, 0, m))
			acc[k] = col{data: d}
		}
		start = m
	}
	width := lenAny(acc[0].data)
	for start < n {
		m := min(width, n-start)
		args := make([]col, 0, 2*len(xs))
		for _, c := range acc {
			args = append(args, col{data: sliceAny(c.data, 0, m)})
		}
		for _, c := range xs {
			args = append(args, col{data: sliceAny(c.data, start, start+m)})
		}
		r, err := w.apply(op.lam, args, m)
		if err != nil {
			return nil, err
		}
		for k := range acc {
			copyAt(acc[k].data, 0, sliceAny(r[k].data, 0, m))
		}
		start += m
	}
	return acc, nil
}

// collapse reduces a wide accumulator to the usual one-lane partial.
func (w *worker) collapse(op *opInfo, acc []col) ([]col, error) {
	if acc == nil {
		return nil, nil
	}
	n := lenAny(acc[0].data)
	if n == 1 {
		return acc, nil
	}
	r, err := w.treeReduce(op, acc, n)
	if err != nil {
		return nil, err
	}
	return fresh(r, op.types, 0), nil
}

// wide reports whether op reduces through wide accumulators.
func (op *opInfo) wide() bool {
	if !op.comm || op.builtin {
		return false
	}
	for _, t := range op.types {
		if t.Rank != 0 {
			return false
		}
	}
	return true
}

// lenAny is the length of a typed slice.
func lenAny(d any) int {
	switch d := d.(type) {
	case []bool:
		return len(d)
	case []int8:
		return len(d)
	case []int16:
		return len(d)
	case []int32:
		return len(d)
	case []int64:
		return len(d)
	case []uint8:
		return len(d)
	case []uint16:
		return len(d)
	case []uint32:
		return len(d)
	case []uint64:
		return len(d)
	case []float32:
		return len(d)
	case []float64:
		return len(d)
	}
	panic(fmt.Sprintf("cpu: lenAny of %T", d))
}
