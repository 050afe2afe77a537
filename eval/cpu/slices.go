// The helpers below move elements of typed slices whose element type is
// only known at run time: one type switch per call (per chunk or per lane),
// never per element. They panic only on a non-slice, which is a bug in the
// interpreter, caught by Run and reported as an internal error.

package cpu

import (
	"fmt"

	"github.com/arepl/arepl/eval"
)

func sliceAny(d any, lo, hi int) any {
	n := eval.DataLen(d)
	if n < 0 {
		panic(fmt.Sprintf("cpu: sliceAny of %T", d))
	}
	if lo == 0 && hi == n {
		// The whole column: the same slice, without boxing a new header
		// (which allocates; column code and the pool ask for whole
		// columns at most calls).
		return d
	}
	return eval.SliceData(d, lo, hi)
}

func copyAt(dst any, off int, src any) {
	switch d := dst.(type) {
	case []bool:
		copy(d[off:], src.([]bool))
	case []int8:
		copy(d[off:], src.([]int8))
	case []int16:
		copy(d[off:], src.([]int16))
	case []int32:
		copy(d[off:], src.([]int32))
	case []int64:
		copy(d[off:], src.([]int64))
	case []uint8:
		copy(d[off:], src.([]uint8))
	case []uint16:
		copy(d[off:], src.([]uint16))
	case []uint32:
		copy(d[off:], src.([]uint32))
	case []uint64:
		copy(d[off:], src.([]uint64))
	case []float32:
		copy(d[off:], src.([]float32))
	case []float64:
		copy(d[off:], src.([]float64))
	default:
		panic(fmt.Sprintf("cpu: copyAt of %T", dst))
	}
}

func gatherAny(dst, src any, idx []int32) {
	switch d := dst.(type) {
	case []bool:
		s := src.([]bool)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []int8:
		s := src.([]int8)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []int16:
		s := src.([]int16)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []int32:
		s := src.([]int32)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []int64:
		s := src.([]int64)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []uint8:
		s := src.([]uint8)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []uint16:
		s := src.([]uint16)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []uint32:
		s := src.([]uint32)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []uint64:
		s := src.([]uint64)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []float32:
		s := src.([]float32)
		for i, j := range idx {
			d[i] = s[j]
		}
	case []float64:
		s := src.([]float64)
		for i, j := range idx {
			d[i] = s[j]
		}
	default:
		panic(fmt.Sprintf("cpu: gatherAny of %T", dst))
	}
}

func scatterAny(dst, src any, idx []int32) {
	switch d := dst.(type) {
	case []bool:
		s := src.([]bool)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []int8:
		s := src.([]int8)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []int16:
		s := src.([]int16)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []int32:
		s := src.([]int32)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []int64:
		s := src.([]int64)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []uint8:
		s := src.([]uint8)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []uint16:
		s := src.([]uint16)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []uint32:
		s := src.([]uint32)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []uint64:
		s := src.([]uint64)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []float32:
		s := src.([]float32)
		for i, j := range idx {
			d[j] = s[i]
		}
	case []float64:
		s := src.([]float64)
		for i, j := range idx {
			d[j] = s[i]
		}
	default:
		panic(fmt.Sprintf("cpu: scatterAny of %T", dst))
	}
}

func setLane(dst any, i int, src any, j int) {
	switch d := dst.(type) {
	case []bool:
		d[i] = src.([]bool)[j]
	case []int8:
		d[i] = src.([]int8)[j]
	case []int16:
		d[i] = src.([]int16)[j]
	case []int32:
		d[i] = src.([]int32)[j]
	case []int64:
		d[i] = src.([]int64)[j]
	case []uint8:
		d[i] = src.([]uint8)[j]
	case []uint16:
		d[i] = src.([]uint16)[j]
	case []uint32:
		d[i] = src.([]uint32)[j]
	case []uint64:
		d[i] = src.([]uint64)[j]
	case []float32:
		d[i] = src.([]float32)[j]
	case []float64:
		d[i] = src.([]float64)[j]
	default:
		panic(fmt.Sprintf("cpu: setLane of %T", dst))
	}
}

func fillAny(dst any, src any, j int) {
	switch d := dst.(type) {
	case []bool:
		v := src.([]bool)[j]
		for i := range d {
			d[i] = v
		}
	case []int8:
		v := src.([]int8)[j]
		for i := range d {
			d[i] = v
		}
	case []int16:
		v := src.([]int16)[j]
		for i := range d {
			d[i] = v
		}
	case []int32:
		v := src.([]int32)[j]
		for i := range d {
			d[i] = v
		}
	case []int64:
		v := src.([]int64)[j]
		for i := range d {
			d[i] = v
		}
	case []uint8:
		v := src.([]uint8)[j]
		for i := range d {
			d[i] = v
		}
	case []uint16:
		v := src.([]uint16)[j]
		for i := range d {
			d[i] = v
		}
	case []uint32:
		v := src.([]uint32)[j]
		for i := range d {
			d[i] = v
		}
	case []uint64:
		v := src.([]uint64)[j]
		for i := range d {
			d[i] = v
		}
	case []float32:
		v := src.([]float32)[j]
		for i := range d {
			d[i] = v
		}
	case []float64:
		v := src.([]float64)[j]
		for i := range d {
			d[i] = v
		}
	default:
		panic(fmt.Sprintf("cpu: fillAny of %T", dst))
	}
}

// deinterleaveVec, when the build has vector kernels (simd_*.go), does
// deinterleave's work for the element types it handles, reporting whether
// it did.
var deinterleaveVec func(even, odd, src any) bool

// deinterleave sets even[i] to src[2i] and odd[i] to src[2i+1] for i
// below len(even), which odd's length equals.
func deinterleave(even, odd, src any) {
	if deinterleaveVec != nil && deinterleaveVec(even, odd, src) {
		return
	}
	switch e := even.(type) {
	case []bool:
		split2(e, odd.([]bool), src.([]bool))
	case []int8:
		split2(e, odd.([]int8), src.([]int8))
	case []int16:
		split2(e, odd.([]int16), src.([]int16))
	case []int32:
		split2(e, odd.([]int32), src.([]int32))
	case []int64:
		split2(e, odd.([]int64), src.([]int64))
	case []uint8:
		split2(e, odd.([]uint8), src.([]uint8))
	case []uint16:
		split2(e, odd.([]uint16), src.([]uint16))
	case []uint32:
		split2(e, odd.([]uint32), src.([]uint32))
	case []uint64:
		split2(e, odd.([]uint64), src.([]uint64))
	case []float32:
		split2(e, odd.([]float32), src.([]float32))
	case []float64:
		split2(e, odd.([]float64), src.([]float64))
	default:
		panic(fmt.Sprintf("cpu: deinterleave of %T", even))
	}
}

func split2[T any](e, o, s []T) {
	o = o[:len(e)]
	s = s[:2*len(e)]
	for i := range e {
		e[i], o[i] = s[2*i], s[2*i+1]
	}
}

func gatherStride(dst, src any, start, stride int) {
	switch d := dst.(type) {
	case []bool:
		s := src.([]bool)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []int8:
		s := src.([]int8)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []int16:
		s := src.([]int16)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []int32:
		s := src.([]int32)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []int64:
		s := src.([]int64)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []uint8:
		s := src.([]uint8)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []uint16:
		s := src.([]uint16)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []uint32:
		s := src.([]uint32)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []uint64:
		s := src.([]uint64)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []float32:
		s := src.([]float32)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	case []float64:
		s := src.([]float64)
		for i := range d {
			d[i] = s[start+i*stride]
		}
	default:
		panic(fmt.Sprintf("cpu: gatherStride of %T", dst))
	}
}

func anyLen(d any) int {
	n := eval.DataLen(d)
	if n < 0 {
		panic(fmt.Sprintf("cpu: anyLen of %T", d))
	}
	return n
}
