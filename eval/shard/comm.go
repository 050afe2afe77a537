package shard

import (
	"context"
	"fmt"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Comm is the collective layer the sharded backend combines per-device
// results through: NCCL on GPUs (package gpu), Local in the simulated
// backend. parts[r] is rank r's buffer, a value on device r (or on the
// host); the results are one value per rank, on that rank. Each call also
// returns what it cost, as a timing row named after the collective.
type Comm interface {
	// Name is "nccl 2.28.5", "simulated", ...
	Name() string
	// AllReduce combines the equal-shaped parts element-wise with op (one
	// of Add, Mul, Min, Max, on a type NativeOp accepts); every rank gets
	// the result.
	AllReduce(ctx context.Context, parts []eval.Value, op core.BinOp) ([]eval.Value, eval.KernelTiming, error)
	// AllGather concatenates the equal-length one-dimensional parts in
	// rank order; every rank gets the whole.
	AllGather(ctx context.Context, parts []eval.Value) ([]eval.Value, eval.KernelTiming, error)
}

// NativeOp reports whether a collective can combine values of type t with
// op itself (NCCL's sum, prod, min and max over its integer and float
// types); other operators are combined by running the program's own
// operator over the gathered partials.
func NativeOp(op core.BinOp, t core.PrimType) bool {
	switch op {
	case core.Add, core.Mul:
	case core.Min, core.Max:
		// Float min and max leave NaN to the program's operator: NCCL's
		// treatment of NaN is not Futhark's.
		if t.IsFloat() {
			return false
		}
	default:
		return false
	}
	switch t {
	case core.I8, core.U8, core.I32, core.U32, core.I64, core.U64, core.F32, core.F64:
		return true
	}
	return false
}

// BusBandwidth is NCCL's bus bandwidth of a collective of bytes per rank
// over n ranks in d (nccl-tests' convention: all-reduce moves 2(n-1)/n of
// the buffer over the slowest link, all-gather (n-1)/n of the result).
func BusBandwidth(kind string, bytes int64, n int, d time.Duration) float64 {
	if d <= 0 || n < 1 {
		return 0
	}
	algbw := float64(bytes) / d.Seconds()
	switch kind {
	case "allreduce":
		return algbw * 2 * float64(n-1) / float64(n)
	case "allgather":
		return algbw * float64(n-1) / float64(n)
	}
	return algbw
}

// Local is the simulated collective layer: the ranks' buffers are host
// values (from the CPU backend) and the collectives are Go loops with
// NCCL's semantics. The CI tests of the sharding logic run on it.
type Local struct{ N int }

// Name is "simulated".
func (Local) Name() string { return "simulated" }

// AllReduce is the element-wise combination of the parts in rank order.
func (l Local) AllReduce(ctx context.Context, parts []eval.Value, op core.BinOp) ([]eval.Value, eval.KernelTiming, error) {
	start := time.Now()
	if len(parts) == 0 {
		return nil, eval.KernelTiming{}, fmt.Errorf("shard: all-reduce of no parts")
	}
	acc, err := toHost(ctx, parts[0])
	if err != nil {
		return nil, eval.KernelTiming{}, err
	}
	if !NativeOp(op, acc.Elem) {
		return nil, eval.KernelTiming{}, fmt.Errorf("shard: all-reduce with %s on %v", core.BinOps[op].Name, acc.Elem)
	}
	acc.Data = cloneData(acc.Data)
	for _, p := range parts[1:] {
		hp, err := toHost(ctx, p)
		if err != nil {
			return nil, eval.KernelTiming{}, err
		}
		if eval.DataLen(hp.Data) != eval.DataLen(acc.Data) {
			return nil, eval.KernelTiming{}, fmt.Errorf("shard: all-reduce of parts of %d and %d elements", eval.DataLen(acc.Data), eval.DataLen(hp.Data))
		}
		combineInto(acc.Data, hp.Data, op)
	}
	out := make([]eval.Value, len(parts))
	for r := range out {
		out[r] = acc
		out[r].Data = cloneData(acc.Data)
	}
	bytes := int64(eval.DataLen(acc.Data) * acc.Elem.Size())
	return out, eval.KernelTiming{Name: "allreduce (simulated)", Time: time.Since(start), Bytes: bytes}, nil
}

// AllGather concatenates the parts.
func (l Local) AllGather(ctx context.Context, parts []eval.Value) ([]eval.Value, eval.KernelTiming, error) {
	start := time.Now()
	if len(parts) == 0 {
		return nil, eval.KernelTiming{}, fmt.Errorf("shard: all-gather of no parts")
	}
	s := &Sharded{Elem: parts[0].Elem, Parts: parts}
	data, err := s.ToHost(ctx)
	if err != nil {
		return nil, eval.KernelTiming{}, err
	}
	out := make([]eval.Value, len(parts))
	for r := range out {
		out[r] = eval.Value{Elem: s.Elem, Shape: []int64{s.Rows()}, Data: cloneData(data)}
	}
	bytes := int64(eval.DataLen(data) * s.Elem.Size())
	return out, eval.KernelTiming{Name: "allgather (simulated)", Time: time.Since(start), Bytes: bytes}, nil
}

func cloneData(d any) any {
	n := eval.DataLen(d)
	switch d := d.(type) {
	case []bool:
		return append(make([]bool, 0, n), d...)
	case []int8:
		return append(make([]int8, 0, n), d...)
	case []int16:
		return append(make([]int16, 0, n), d...)
	case []int32:
		return append(make([]int32, 0, n), d...)
	case []int64:
		return append(make([]int64, 0, n), d...)
	case []uint8:
		return append(make([]uint8, 0, n), d...)
	case []uint16:
		return append(make([]uint16, 0, n), d...)
	case []uint32:
		return append(make([]uint32, 0, n), d...)
	case []uint64:
		return append(make([]uint64, 0, n), d...)
	case []float32:
		return append(make([]float32, 0, n), d...)
	case []float64:
		return append(make([]float64, 0, n), d...)
	}
	panic(fmt.Sprintf("shard: clone of %T", d))
}

type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

func combine[T number](acc, x []T, op core.BinOp) {
	for i := range acc {
		switch op {
		case core.Add:
			acc[i] += x[i]
		case core.Mul:
			acc[i] *= x[i]
		case core.Min:
			acc[i] = min(acc[i], x[i])
		case core.Max:
			acc[i] = max(acc[i], x[i])
		}
	}
}

func combineInto(acc, x any, op core.BinOp) {
	switch a := acc.(type) {
	case []int8:
		combine(a, x.([]int8), op)
	case []int16:
		combine(a, x.([]int16), op)
	case []int32:
		combine(a, x.([]int32), op)
	case []int64:
		combine(a, x.([]int64), op)
	case []uint8:
		combine(a, x.([]uint8), op)
	case []uint16:
		combine(a, x.([]uint16), op)
	case []uint32:
		combine(a, x.([]uint32), op)
	case []uint64:
		combine(a, x.([]uint64), op)
	case []float32:
		combine(a, x.([]float32), op)
	case []float64:
		combine(a, x.([]float64), op)
	default:
		panic(fmt.Sprintf("shard: combine %T", acc))
	}
}

func combineScalarT[T number](acc []T, c T, op core.BinOp) {
	for i := range acc {
		switch op {
		case core.Add:
			acc[i] = c + acc[i]
		case core.Mul:
			acc[i] = c * acc[i]
		case core.Min:
			acc[i] = min(c, acc[i])
		case core.Max:
			acc[i] = max(c, acc[i])
		}
	}
}

// combineScalar sets every element x of acc to c op x, where c is a
// one-element slice of acc's type (a scan's carry applied to a block).
func combineScalar(acc, c any, op core.BinOp) {
	switch a := acc.(type) {
	case []int8:
		combineScalarT(a, c.([]int8)[0], op)
	case []int16:
		combineScalarT(a, c.([]int16)[0], op)
	case []int32:
		combineScalarT(a, c.([]int32)[0], op)
	case []int64:
		combineScalarT(a, c.([]int64)[0], op)
	case []uint8:
		combineScalarT(a, c.([]uint8)[0], op)
	case []uint16:
		combineScalarT(a, c.([]uint16)[0], op)
	case []uint32:
		combineScalarT(a, c.([]uint32)[0], op)
	case []uint64:
		combineScalarT(a, c.([]uint64)[0], op)
	case []float32:
		combineScalarT(a, c.([]float32)[0], op)
	case []float64:
		combineScalarT(a, c.([]float64)[0], op)
	default:
		panic(fmt.Sprintf("shard: combine %T with a scalar", acc))
	}
}
