package cpu

import "github.com/arepl/arepl/lang/core"

// The f16 operators. The interpreter never sees an f16: the session widens
// f16 programs to f32 (eval.WidenHalf) with an explicit rounding after
// every operation, so these three kernels are all that f16 adds here.

func initHalfTables() {
	unTab[core.HalfRound][core.F32] = u1(kHalfRound[float32])
	unTab[core.HalfRound][core.F64] = u1(kHalfRound[float64])
	unTab[core.HalfToBits][core.F32] = u1(kHalfToBits)
	unTab[core.HalfFromBits][core.U16] = u1(kHalfFromBits)
}

// kHalfRound rounds each element to the nearest binary16 value, ties to
// even (core.HalfBits), keeping its type.
func kHalfRound[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(core.HalfFloat(core.HalfBits(float64(x[i]))))
	}
	return kOK
}

// kHalfToBits is f16.to_bits of halves held as float32.
func kHalfToBits(d []uint16, x []float32) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = core.HalfBits(float64(x[i]))
	}
	return kOK
}

// kHalfFromBits is f16.from_bits, giving the half as a float32.
func kHalfFromBits(d []float32, x []uint16) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = core.HalfFloat(x[i])
	}
	return kOK
}
