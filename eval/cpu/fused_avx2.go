//go:build goexperiment.simd && amd64

package cpu

import "simd/archsimd"

// The AVX2 fused kernels of fused.go.
func init() {
	if !simdOn {
		return
	}
	fusedMaxAdd, fusedMinAdd, fusedMulAdd2 = vMaxAdd32, vMinAdd32, vMulAdd2x32
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
