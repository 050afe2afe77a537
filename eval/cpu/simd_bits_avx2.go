//go:build goexperiment.simd && amd64

package cpu

import (
	"simd/archsimd"

	"github.com/arepl/arepl/lang/core"
)

// AVX2 kernels for the bit operations on 4-byte integers: shifts by a
// constant, and/or with a constant or a column, and the widening of i8 to
// i32. Operators that pack small integers into an i32 (Reduce2x2MM's
// 2×2 matrices of i8) are made of them, and their generic loops were a
// third of its time. VPSRAD/VPSLLD/VPSRLD with a count of 32 to 63 give
// the sign or 0, which is what Go's shifts (and so the scalar kernels)
// give for those counts; other counts take the scalar kernels.

func useBitsSIMD() {
	for _, t := range []core.PrimType{core.I32, core.U32} {
		binVSTab[core.And][t] = bitsVS32(vAndVS32)
		binVSTab[core.Or][t] = bitsVS32(vOrVS32)
		binTab[core.And][t] = bits32(vAndI32)
		binTab[core.Or][t] = bits32(vOrI32)
	}
	binVSTab[core.Shl][core.I32] = vs(vShlVSI32)
	binVSTab[core.Shl][core.U32] = vs(vShlVSU32)
	binVSTab[core.Shr][core.I32] = vs(vShrVSI32)
	binVSTab[core.Shr][core.U32] = vs(vShrVSU32)
	convTab[core.I8][core.I32] = u1(vWidenI8I32)
}

// bitsVS32 runs a vector-scalar kernel on the bits of a 4-byte column.
func bitsVS32(k func(d, x []int32, c int32) kerr) binVSK {
	return func(d, x, c any) kerr {
		switch c := c.(type) {
		case []int32:
			return k(as32(d), as32(x), c[0])
		case []uint32:
			return k(as32(d), as32(x), int32(c[0]))
		}
		panic("cpu: bitsVS32 of a column that is not 4-byte integers")
	}
}

func vAndVS32(d, x []int32, c int32) kerr {
	n := len(d)
	x = x[:n]
	cv := archsimd.BroadcastInt32x8(c)
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).And(cv).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = x[i] & c
	}
	return kOK
}

func vOrVS32(d, x []int32, c int32) kerr {
	n := len(d)
	x = x[:n]
	cv := archsimd.BroadcastInt32x8(c)
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).Or(cv).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = x[i] | c
	}
	return kOK
}

func vAndI32(d, x, y []int32) kerr {
	n := len(d)
	x, y = x[:n], y[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).And(archsimd.LoadInt32x8Slice(y[i:])).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = x[i] & y[i]
	}
	return kOK
}

func vOrI32(d, x, y []int32) kerr {
	n := len(d)
	x, y = x[:n], y[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).Or(archsimd.LoadInt32x8Slice(y[i:])).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = x[i] | y[i]
	}
	return kOK
}

func vShlVSI32(d, x []int32, c int32) kerr {
	if c < 0 || c >= 64 {
		return kShlVSs(d, x, c)
	}
	shl32(d, x, uint64(c))
	return kOK
}

func vShlVSU32(d, x []uint32, c uint32) kerr {
	if c >= 64 {
		return kShlVSu(d, x, c)
	}
	shl32(as32(d), as32(x), uint64(c))
	return kOK
}

// shl32 is x << c on 4-byte lanes, c in [0, 64).
func shl32(d, x []int32, c uint64) {
	n := len(d)
	x = x[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).ShiftAllLeft(c).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = x[i] << c
	}
}

func vShrVSI32(d, x []int32, c int32) kerr {
	if c < 0 || c >= 64 {
		return kShrVSs(d, x, c)
	}
	n := len(d)
	x = x[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).ShiftAllRight(uint64(c)).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = x[i] >> uint(c)
	}
	return kOK
}

func vShrVSU32(d, x []uint32, c uint32) kerr {
	if c >= 64 {
		return kShrVSu(d, x, c)
	}
	n := len(d)
	x = x[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadUint32x8Slice(x[i:]).ShiftAllRight(uint64(c)).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = x[i] >> uint(c)
	}
	return kOK
}

// vWidenI8I32 sign-extends i8 to i32 (VPMOVSXBD, 8 lanes from the low
// half of a 16-byte load).
func vWidenI8I32(d []int32, x []int8) kerr {
	n := len(d)
	x = x[:n]
	i := 0
	for ; i+16 <= n; i += 8 {
		archsimd.LoadInt8x16Slice(x[i:]).ExtendLo8ToInt32().StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = int32(x[i])
	}
	return kOK
}
