package cpu

import "github.com/arepl/arepl/eval"

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
	width := anyLen(acc[0].data)
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
	n := anyLen(acc[0].data)
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
	if !op.comm || op.builtin || op.lex != nil {
		return false
	}
	for _, t := range op.types {
		if t.Rank != 0 {
			return false
		}
	}
	return true
}
