//go:build goexperiment.simd && amd64

package cpu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The bit kernels of simd_bits_avx2.go give the scalar kernels' results
// for every shift count from -3 to 70 (the vector instructions' counts of
// 32 to 63 included) and for the widening of every i8, on every length.
func TestSIMDBitKernels(t *testing.T) {
	if !simdOn {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range simdLens {
		x := make([]int32, n)
		for i := range x {
			x[i] = int32(r.Uint32())
		}
		ux := make([]uint32, n)
		for i := range ux {
			ux[i] = uint32(x[i])
		}
		for c := int32(-3); c <= 70; c++ {
			check := func(name string, got, want []int32) {
				t.Helper()
				if !slices.Equal(got, want) {
					t.Fatalf("%s by %d, n=%d: got %v, want %v", name, c, n, got[:min(n, 8)], want[:min(n, 8)])
				}
			}
			got, want := make([]int32, n), make([]int32, n)
			vShrVSI32(got, x, c)
			kShrVSs(want, x, c)
			check("i32 >>", got, want)
			vShlVSI32(got, x, c)
			kShlVSs(want, x, c)
			check("i32 <<", got, want)
			vAndVS32(got, x, c)
			kAndVS(want, x, c)
			check("&", got, want)
			vOrVS32(got, x, c)
			kOrVS(want, x, c)
			check("|", got, want)
			ug, uw := make([]uint32, n), make([]uint32, n)
			vShrVSU32(ug, ux, uint32(c))
			kShrVSu(uw, ux, uint32(c))
			if !slices.Equal(ug, uw) {
				t.Fatalf("u32 >> %d, n=%d: got %v, want %v", uint32(c), n, ug[:min(n, 8)], uw[:min(n, 8)])
			}
			vShlVSU32(ug, ux, uint32(c))
			kShlVSu(uw, ux, uint32(c))
			if !slices.Equal(ug, uw) {
				t.Fatalf("u32 << %d, n=%d: got %v, want %v", uint32(c), n, ug[:min(n, 8)], uw[:min(n, 8)])
			}
		}
		y := make([]int32, n)
		for i := range y {
			y[i] = int32(r.Uint32())
		}
		got, want := make([]int32, n), make([]int32, n)
		vAndI32(got, x, y)
		kAnd(want, x, y)
		if !slices.Equal(got, want) {
			t.Fatalf("& of columns, n=%d", n)
		}
		vOrI32(got, x, y)
		kOr(want, x, y)
		if !slices.Equal(got, want) {
			t.Fatalf("| of columns, n=%d", n)
		}
		b := make([]int8, n)
		for i := range b {
			b[i] = int8(i*37 + 128)
		}
		vWidenI8I32(got, b)
		kConvNum(want, b)
		if !slices.Equal(got, want) {
			t.Fatalf("i32.i8, n=%d: got %v, want %v", n, got[:min(n, 8)], want[:min(n, 8)])
		}
	}
}
