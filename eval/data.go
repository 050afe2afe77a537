package eval

// Helpers over the typed slices that hold a Value's elements (see Value):
// one type switch per call, never per element of a loop over the data.
// The backends, the formatter and the test runner share them.

// DataLen is the number of elements of a typed slice, or -1 when data is
// not one.
func DataLen(data any) int {
	switch d := data.(type) {
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
	return -1
}

// SliceData is data[lo:hi] of a typed slice, sharing its storage (data
// itself when it is not a typed slice).
func SliceData(data any, lo, hi int) any {
	switch d := data.(type) {
	case []bool:
		return d[lo:hi]
	case []int8:
		return d[lo:hi]
	case []int16:
		return d[lo:hi]
	case []int32:
		return d[lo:hi]
	case []int64:
		return d[lo:hi]
	case []uint8:
		return d[lo:hi]
	case []uint16:
		return d[lo:hi]
	case []uint32:
		return d[lo:hi]
	case []uint64:
		return d[lo:hi]
	case []float32:
		return d[lo:hi]
	case []float64:
		return d[lo:hi]
	}
	return data
}

// IntAt is element i of an integer slice as an int64; ok is false when
// data is not an integer slice.
func IntAt(data any, i int) (v int64, ok bool) {
	switch d := data.(type) {
	case []int8:
		return int64(d[i]), true
	case []int16:
		return int64(d[i]), true
	case []int32:
		return int64(d[i]), true
	case []int64:
		return d[i], true
	case []uint8:
		return int64(d[i]), true
	case []uint16:
		return int64(d[i]), true
	case []uint32:
		return int64(d[i]), true
	case []uint64:
		return int64(d[i]), true
	}
	return 0, false
}
