//go:build goexperiment.simd && amd64

package cpu

import (
	"simd/archsimd"

	"github.com/arepl/arepl/lang/core"
)

// useFusedSIMD installs the AVX2 fused kernels of fused.go, the i32
// max and min with a constant, and the transposing gather of lanefold.go
// (useSIMD calls it).
func useFusedSIMD() {
	fusedMaxAdd, fusedMinAdd, fusedMulAdd2 = vMaxAdd32, vMinAdd32, vMulAdd2x32
	fusedMulAdd2F64, fusedMulSub2F64 = vMulAdd2F64, vMulSub2F64
	fusedMulAdd2AddF64, fusedMulSub2AddF64 = vMulAdd2AddF64, vMulSub2AddF64
	fusedScaledMulAddF64, fusedMulAdd2LtF64 = vScaledMulAddF64, vMulAdd2LtF64
	transpose8x32 = vTranspose8x32
	binVSTab[core.Max][core.I32] = vs(vMaxVSI32)
	binVSTab[core.Min][core.I32] = vs(vMinVSI32)
}

func vMaxVSI32(d, x []int32, c int32) kerr {
	n := len(d)
	x = x[:n]
	cv := archsimd.BroadcastInt32x8(c)
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).Max(cv).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = max(x[i], c)
	}
	return kOK
}

func vMinVSI32(d, x []int32, c int32) kerr {
	n := len(d)
	x = x[:n]
	cv := archsimd.BroadcastInt32x8(c)
	i := 0
	for ; i+8 <= n; i += 8 {
		archsimd.LoadInt32x8Slice(x[i:]).Min(cv).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = min(x[i], c)
	}
	return kOK
}

// vTranspose8x32 transposes 8x8 blocks: rows are 8 consecutive lanes of
// segments j..j+7, columns the 8 steps' gathered columns at j..j+7
// (unpack 32-bit, unpack 64-bit, then swap 128-bit halves).
func vTranspose8x32(ds *[gatherBlock][]int32, s []int32, start, stride int) {
	n := len(ds[0])
	d0, d1, d2, d3 := ds[0][:n], ds[1][:n], ds[2][:n], ds[3][:n]
	d4, d5, d6, d7 := ds[4][:n], ds[5][:n], ds[6][:n], ds[7][:n]
	j := 0
	for ; j+8 <= n; j += 8 {
		o := start + j*stride
		r0 := archsimd.LoadInt32x8Slice(s[o:])
		r1 := archsimd.LoadInt32x8Slice(s[o+stride:])
		r2 := archsimd.LoadInt32x8Slice(s[o+2*stride:])
		r3 := archsimd.LoadInt32x8Slice(s[o+3*stride:])
		r4 := archsimd.LoadInt32x8Slice(s[o+4*stride:])
		r5 := archsimd.LoadInt32x8Slice(s[o+5*stride:])
		r6 := archsimd.LoadInt32x8Slice(s[o+6*stride:])
		r7 := archsimd.LoadInt32x8Slice(s[o+7*stride:])
		t0, t1 := r0.InterleaveLoGrouped(r1).AsInt64x4(), r0.InterleaveHiGrouped(r1).AsInt64x4()
		t2, t3 := r2.InterleaveLoGrouped(r3).AsInt64x4(), r2.InterleaveHiGrouped(r3).AsInt64x4()
		t4, t5 := r4.InterleaveLoGrouped(r5).AsInt64x4(), r4.InterleaveHiGrouped(r5).AsInt64x4()
		t6, t7 := r6.InterleaveLoGrouped(r7).AsInt64x4(), r6.InterleaveHiGrouped(r7).AsInt64x4()
		u0, u1 := t0.InterleaveLoGrouped(t2).AsInt32x8(), t0.InterleaveHiGrouped(t2).AsInt32x8()
		u2, u3 := t1.InterleaveLoGrouped(t3).AsInt32x8(), t1.InterleaveHiGrouped(t3).AsInt32x8()
		u4, u5 := t4.InterleaveLoGrouped(t6).AsInt32x8(), t4.InterleaveHiGrouped(t6).AsInt32x8()
		u6, u7 := t5.InterleaveLoGrouped(t7).AsInt32x8(), t5.InterleaveHiGrouped(t7).AsInt32x8()
		u0.Select128FromPair(0, 2, u4).StoreSlice(d0[j:])
		u1.Select128FromPair(0, 2, u5).StoreSlice(d1[j:])
		u2.Select128FromPair(0, 2, u6).StoreSlice(d2[j:])
		u3.Select128FromPair(0, 2, u7).StoreSlice(d3[j:])
		u0.Select128FromPair(1, 3, u4).StoreSlice(d4[j:])
		u1.Select128FromPair(1, 3, u5).StoreSlice(d5[j:])
		u2.Select128FromPair(1, 3, u6).StoreSlice(d6[j:])
		u3.Select128FromPair(1, 3, u7).StoreSlice(d7[j:])
	}
	archsimd.ClearAVXUpperBits()
	for ; j < n; j++ {
		o := start + j*stride
		d0[j], d1[j], d2[j], d3[j] = s[o], s[o+1], s[o+2], s[o+3]
		d4[j], d5[j], d6[j], d7[j] = s[o+4], s[o+5], s[o+6], s[o+7]
	}
}

func vMaxAdd32(d, c, a, b []int32) {
	n := len(d)
	c, a, b = c[:n], a[:n], b[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		s := archsimd.LoadInt32x8Slice(a[i:]).Add(archsimd.LoadInt32x8Slice(b[i:]))
		archsimd.LoadInt32x8Slice(c[i:]).Max(s).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = max(c[i], a[i]+b[i])
	}
}

func vMinAdd32(d, c, a, b []int32) {
	n := len(d)
	c, a, b = c[:n], a[:n], b[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		s := archsimd.LoadInt32x8Slice(a[i:]).Add(archsimd.LoadInt32x8Slice(b[i:]))
		archsimd.LoadInt32x8Slice(c[i:]).Min(s).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = min(c[i], a[i]+b[i])
	}
}

func vMulAdd2x32(d, a, b, c, e []int32) {
	n := len(d)
	a, b, c, e = a[:n], b[:n], c[:n], e[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		p := archsimd.LoadInt32x8Slice(a[i:]).Mul(archsimd.LoadInt32x8Slice(b[i:]))
		q := archsimd.LoadInt32x8Slice(c[i:]).Mul(archsimd.LoadInt32x8Slice(e[i:]))
		p.Add(q).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = a[i]*b[i] + c[i]*e[i]
	}
}

// vMulAdd2F64 and vMulSub2F64 are mulAdd2F64 and mulSub2F64: separate
// multiplies and an add or subtract, each rounded (no FMA).
func vMulAdd2F64(d, a, b, c, e []float64) {
	n := len(d)
	a, b, c, e = a[:n], b[:n], c[:n], e[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i:]).Mul(archsimd.LoadFloat64x4Slice(b[i:]))
		q := archsimd.LoadFloat64x4Slice(c[i:]).Mul(archsimd.LoadFloat64x4Slice(e[i:]))
		p.Add(q).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = float64(a[i]*b[i]) + float64(c[i]*e[i])
	}
}

func vMulSub2F64(d, a, b, c, e []float64) {
	n := len(d)
	a, b, c, e = a[:n], b[:n], c[:n], e[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i:]).Mul(archsimd.LoadFloat64x4Slice(b[i:]))
		q := archsimd.LoadFloat64x4Slice(c[i:]).Mul(archsimd.LoadFloat64x4Slice(e[i:]))
		p.Sub(q).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = float64(a[i]*b[i]) - float64(c[i]*e[i])
	}
}

// The outer f64 fusions of fused.go, every operation rounded as its
// statement's is, in the statements' operand order.

func vMulAdd2AddF64(d, a, b, c, e, f []float64) {
	n := len(d)
	a, b, c, e, f = a[:n], b[:n], c[:n], e[:n], f[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i:]).Mul(archsimd.LoadFloat64x4Slice(b[i:]))
		q := archsimd.LoadFloat64x4Slice(c[i:]).Mul(archsimd.LoadFloat64x4Slice(e[i:]))
		p.Add(q).Add(archsimd.LoadFloat64x4Slice(f[i:])).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = float64(float64(a[i]*b[i])+float64(c[i]*e[i])) + f[i]
	}
}

func vMulSub2AddF64(d, a, b, c, e, f []float64) {
	n := len(d)
	a, b, c, e, f = a[:n], b[:n], c[:n], e[:n], f[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i:]).Mul(archsimd.LoadFloat64x4Slice(b[i:]))
		q := archsimd.LoadFloat64x4Slice(c[i:]).Mul(archsimd.LoadFloat64x4Slice(e[i:]))
		p.Sub(q).Add(archsimd.LoadFloat64x4Slice(f[i:])).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = float64(float64(a[i]*b[i])-float64(c[i]*e[i])) + f[i]
	}
}

func vScaledMulAddF64(d, a, b, c []float64, k float64) {
	n := len(d)
	a, b, c = a[:n], b[:n], c[:n]
	kv := archsimd.BroadcastFloat64x4(k)
	i := 0
	for ; i+4 <= n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i:]).Mul(kv).Mul(archsimd.LoadFloat64x4Slice(b[i:]))
		p.Add(archsimd.LoadFloat64x4Slice(c[i:])).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = float64(float64(a[i]*k)*b[i]) + c[i]
	}
}

func vMulAdd2LtF64(d []bool, a, b, c, e []float64, k float64) {
	n := len(d)
	a, b, c, e = a[:n], b[:n], c[:n], e[:n]
	kv := archsimd.BroadcastFloat64x4(k)
	i := 0
	for ; i+4 <= n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i:]).Mul(archsimd.LoadFloat64x4Slice(b[i:]))
		q := archsimd.LoadFloat64x4Slice(c[i:]).Mul(archsimd.LoadFloat64x4Slice(e[i:]))
		putBools4(d[i:], p.Add(q).Less(kv).ToBits())
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		d[i] = float64(float64(a[i]*b[i])+float64(c[i]*e[i])) < k
	}
}
