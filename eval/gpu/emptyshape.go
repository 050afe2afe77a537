package gpu

// Shapes of array results at an empty index space.
//
// A segmented map whose threads make array results learns their shape
// from its probe, element 0 of the space (segmap.go). When the space is
// empty there is no element 0 and no thread runs, so the host takes each
// dimension of such a result from the nest analysis (nest.ResultDims): the
// sizes it can compute before the launch. A dimension it cannot compute
// would come out as 0 where the CPU interpreter (the oracle) gives the
// size that the body makes, `map (\row -> scatter (replicate m 0) is row)
// xss` at zero rows being [0][m], not [0][0]. UnknownResultDims lists the
// segmented maps of a program where that can happen, so that a test keeps
// the test programs free of them; at run time such a statement, at an
// empty space, runs on the CPU (emptyOnCPU), which works the shape out as
// the oracle does, at the cost of no more than its free variables' copy.

import (
	"fmt"
	"sort"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// UnknownResultDims lists the segmented-map statements of prog with an
// array result of which the host does not know some dimension before the
// launch, in source order. It needs no GPU.
func UnknownResultDims(prog *core.Program) ([]CPUStatement, error) {
	m, err := generate(prog, DefaultLimits)
	if err != nil {
		return nil, err
	}
	var out []CPUStatement
	for s, ks := range m.kernels {
		for _, k := range ks {
			if k.Kind != kSegMap || k.Nest == nil {
				continue
			}
			if why := unknownDims(k.Nest); why != "" {
				out = append(out, CPUStatement{Pos: s.Pos, Kind: expName(s.Exp), Why: why})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out, nil
}

// unknownDims says which dimensions of n's array results the host cannot
// compute before the launch ("" when it can compute them all).
func unknownDims(n *nest) string {
	for j, t := range n.Ret {
		if !t.IsArray() {
			continue
		}
		var hd []*hostDim
		if j < len(n.ResultDims) {
			hd = n.ResultDims[j]
		}
		for q := 0; q < t.Rank; q++ {
			if q >= len(hd) || hd[q] == nil {
				return fmt.Sprintf("dimension %d of result %d is not known before the launch: at an empty index space it would be 0", q, j)
			}
		}
	}
	return ""
}

// emptyShapes are the dimensions of n's array results at an empty index
// space (nil for a scalar result), as the host computes them from
// n.ResultDims; ok is false when one is unknown, cannot be computed or is
// negative (the CPU then decides: a size error, or the shape the body
// makes).
func (r *run) emptyShapes(n *nest, env map[string]eval.Value) (dims [][]int64, ok bool) {
	dims = make([][]int64, len(n.Ret))
	for j, t := range n.Ret {
		if !t.IsArray() {
			continue
		}
		var hd []*hostDim
		if j < len(n.ResultDims) {
			hd = n.ResultDims[j]
		}
		for q := 0; q < t.Rank; q++ {
			if q >= len(hd) || hd[q] == nil {
				return nil, false
			}
			v, err := r.hostDim(*hd[q], env)
			if err != nil || v < 0 {
				return nil, false
			}
			dims[j] = append(dims[j], v)
		}
	}
	return dims, true
}

// emptyOnCPU runs segmented map s, whose index space is empty and whose
// array results have a dimension the host does not know, on the CPU
// backend: no element is computed, and the CPU gives the results the
// shape the body makes, as the oracle does (0 would be wrong: see the
// package comment of this file).
func (r *run) emptyOnCPU(s *core.Stmt, env map[string]eval.Value) error {
	r.note(fmt.Sprintf("%s at %v ran on the CPU: its index space is empty, and the shape of its results is not known before the launch", expName(s.Exp), s.Pos))
	if err := r.flushChecks(); err != nil {
		return err
	}
	return r.fallback([]*core.Stmt{s}, env)
}
