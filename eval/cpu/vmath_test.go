//go:build goexperiment.simd && amd64

package cpu

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The AVX2 exp and log kernels (vmath_avx2.go) against their portable
// twins, kMathExp[float32] and kMathLog[float32], which are the reference.
// Special values must agree bit for bit (NaN payloads included); elsewhere
// the kernels may differ in the last bit where the two float64 evaluations
// straddle a float32 rounding boundary, and never by more.
//
// The sweep visits every vmath.stride-th float32 bit pattern. With
// -vmath.stride=1 it is exhaustive (about 4 minutes): run once on the
// development machine (AMD EPYC, Go 1.26.8), it found 2 of the 2^32 exp
// results and none of the log results differing from the portable ones,
// each of the two by one ulp.

var vmathStride = flag.Uint("vmath.stride", 97, "visit every n-th float32 bit pattern in the exp/log sweep (1 = all 2^32)")

// Bounds on last-bit differences in the default sweep (stride 97, about
// 44 million values, of which it finds none). A difference needs the
// portable and the vector float64 results, each within about 1e-16
// relative of the truth, to round to different float32 values: the
// exhaustive check above found two in 2^32. The bounds allow a few, so that
// a change in either float64 function's last bits does not fail the test;
// an error of 1e-11 does (tried while writing the kernels: exp with
// Taylor's polynomial of degree 9 gave 13 differences here), and larger
// errors give more than one ulp, which fails on its own. (Taylor's degree
// 10, an error of 2e-13, gave 1: errors that small stay below what a
// float32 result can show.)
const (
	maxExpLastBit = 4
	maxLogLastBit = 4
)

type f32Kernel func(d, x []float32) kerr

var vmathKernels = []struct {
	name      string
	portable  f32Kernel
	avx2      f32Kernel
	maxDiffer int
}{
	{"exp", kMathExp[float32], expF32x8, maxExpLastBit},
	{"log", kMathLog[float32], logF32x8, maxLogLastBit},
}

// ulpDist is the number of float32 values between a and b (both not NaN):
// the bit patterns, read as sign and magnitude, map onto one monotone line.
func ulpDist(a, b float32) int64 {
	ord := func(f float32) int64 {
		u := math.Float32bits(f)
		if u>>31 != 0 {
			return -int64(u &^ (1 << 31))
		}
		return int64(u)
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}

// compare checks got against want lane by lane: both NaN or equal bits, or
// (when lastBit is not nil) one ulp apart, counted in *lastBit.
func compare(t *testing.T, name string, x, want, got []float32, lastBit *int) {
	t.Helper()
	for i := range want {
		w, g := want[i], got[i]
		if math.Float32bits(w) == math.Float32bits(g) {
			continue
		}
		wn, gn := w != w, g != g
		if lastBit != nil && !wn && !gn && ulpDist(w, g) == 1 {
			*lastBit++
			continue
		}
		t.Fatalf("%s(%v) [bits %#08x]: portable %v [%#08x], avx2 %v [%#08x]",
			name, x[i], math.Float32bits(x[i]), w, math.Float32bits(w), g, math.Float32bits(g))
	}
}

func bitsToF32(bs ...uint32) []float32 {
	out := make([]float32, len(bs))
	for i, b := range bs {
		out[i] = math.Float32frombits(b)
	}
	return out
}

// around returns x and its n neighbours on each side.
func around(x float32, n int) []float32 {
	out := []float32{x}
	lo, hi := x, x
	for range n {
		lo = math.Nextafter32(lo, float32(math.Inf(-1)))
		hi = math.Nextafter32(hi, float32(math.Inf(1)))
		out = append(out, lo, hi)
	}
	return out
}

// vmathSpecials are the inputs whose results the kernels must reproduce
// exactly: NaNs (quiet, signalling, negative), infinities, zeros,
// subnormals, the ends of the finite range, 1 and -1, and the exp
// thresholds: overflow (ln MaxFloat32), the end of the normal range (ln of
// the smallest normal) and the point where the subnormal result rounds to
// 0 (ln of half the smallest subnormal).
func vmathSpecials() []float32 {
	xs := bitsToF32(
		0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xff800001, 0x7fc12345,
		0x7f800000, 0xff800000, 0x00000000, 0x80000000,
		0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
		0x7f7fffff, 0xff7fffff,
	)
	xs = append(xs, around(1, 3)...)
	xs = append(xs, around(-1, 1)...)
	for _, v := range []float64{
		math.Log(math.MaxFloat32),
		math.Log(0x1p-126),
		math.Log(0x1p-150),
		-100, 100, -150, 150,
	} {
		xs = append(xs, around(float32(v), 4)...)
		xs = append(xs, around(float32(-v), 1)...)
	}
	return xs
}

func TestVMathSpecials(t *testing.T) {
	xs := vmathSpecials()
	for _, k := range vmathKernels {
		want := make([]float32, len(xs))
		got := make([]float32, len(xs))
		k.portable(want, xs)
		if e := k.avx2(got, xs); e != kOK {
			t.Fatalf("%s: kernel reported %v", k.name, e.msg())
		}
		compare(t, k.name, xs, want, got, nil)
	}
}

// TestVMathSpecialResults pins the IEEE results the brief names, so the
// comparison above cannot pass by both kernels being wrong the same way.
func TestVMathSpecialResults(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	cases := []struct {
		name string
		k    f32Kernel
		x    float32
		want float32
	}{
		{"exp", expF32x8, nan, nan},
		{"exp", expF32x8, inf, inf},
		{"exp", expF32x8, -inf, 0},
		{"exp", expF32x8, 0, 1},
		{"exp", expF32x8, 89, inf},
		{"exp", expF32x8, -104, 0},
		{"exp", expF32x8, -100, float32(math.Exp(-100))},
		{"log", logF32x8, nan, nan},
		{"log", logF32x8, inf, inf},
		{"log", logF32x8, 0, -inf},
		{"log", logF32x8, float32(math.Copysign(0, -1)), -inf},
		{"log", logF32x8, -1, nan},
		{"log", logF32x8, -inf, nan},
		{"log", logF32x8, 1, 0},
		{"log", logF32x8, math.Float32frombits(1), float32(-149 * math.Ln2)},
	}
	for _, c := range cases {
		d := []float32{42}
		c.k(d, []float32{c.x})
		same := d[0] == c.want || (d[0] != d[0] && c.want != c.want)
		if !same || math.Signbit(float64(d[0])) != math.Signbit(float64(c.want)) {
			t.Errorf("%s(%v) = %v, want %v", c.name, c.x, d[0], c.want)
		}
	}
	d := []float32{0}
	expF32x8(d, []float32{-100})
	if b := math.Float32bits(d[0]); b == 0 || b >= 0x00800000 {
		t.Errorf("exp(-100) = %v [%#08x], want a subnormal", d[0], b)
	}
}

// TestVMathSweep compares the kernels over every vmath.stride-th bit
// pattern, 4096 lanes per call (the interpreter's chunk).
func TestVMathSweep(t *testing.T) {
	stride := uint64(*vmathStride)
	if stride == 0 {
		t.Fatal("-vmath.stride must be at least 1")
	}
	const lanes = 4096
	x := make([]float32, lanes)
	want := make([]float32, lanes)
	got := make([]float32, lanes)
	for _, k := range vmathKernels {
		lastBit, n := 0, 0
		for b := uint64(0); b < 1<<32; {
			m := 0
			for ; m < lanes && b < 1<<32; m, b = m+1, b+stride {
				x[m] = math.Float32frombits(uint32(b))
			}
			k.portable(want[:m], x[:m])
			k.avx2(got[:m], x[:m])
			compare(t, k.name, x[:m], want[:m], got[:m], &lastBit)
			n += m
		}
		t.Logf("%s: %d values, %d differ in the last bit", k.name, n, lastBit)
		if lastBit > k.maxDiffer && stride == 97 {
			t.Errorf("%s: %d last-bit differences, more than the %d allowed", k.name, lastBit, k.maxDiffer)
		}
	}
}

// TestVMathLengths runs every length 0..40 on random inputs, with x longer
// than d and guard values around d, so the padded last vector is checked
// for its results and for staying inside len(d).
func TestVMathLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 97))
	const guard = float32(-7.25)
	for _, k := range vmathKernels {
		for n := 0; n <= 40; n++ {
			x := make([]float32, n+5)
			for i := range x {
				// Half the lanes in the interesting range, half any bit pattern.
				if rng.IntN(2) == 0 {
					x[i] = float32(rng.NormFloat64() * 30)
				} else {
					x[i] = math.Float32frombits(rng.Uint32())
				}
			}
			want := make([]float32, n)
			k.portable(want, x)
			buf := make([]float32, n+16)
			for i := range buf {
				buf[i] = guard
			}
			got := buf[8 : 8+n]
			k.avx2(got, x)
			lastBit := 0
			compare(t, fmt.Sprintf("%s/len%d", k.name, n), x, want, got, &lastBit)
			for i, v := range buf {
				if (i < 8 || i >= 8+n) && v != guard {
					t.Fatalf("%s/len%d: wrote buf[%d] outside d", k.name, n, i)
				}
			}
		}
	}
}

// BenchmarkVMath gives ns per element of the portable and AVX2 kernels on
// one chunk of 4096 lanes, with exp's inputs in [-10, 10] and log's in
// (0, 100].
func BenchmarkVMath(b *testing.B) {
	const lanes = 4096
	rng := rand.New(rand.NewPCG(1, 2))
	expIn := make([]float32, lanes)
	logIn := make([]float32, lanes)
	for i := range lanes {
		expIn[i] = float32(rng.Float64()*20 - 10)
		logIn[i] = float32(100 * (1 - rng.Float64()))
	}
	d := make([]float32, lanes)
	for _, k := range vmathKernels {
		in := expIn
		if k.name == "log" {
			in = logIn
		}
		for _, v := range []struct {
			name string
			k    f32Kernel
		}{{"portable", k.portable}, {"avx2", k.avx2}} {
			b.Run(k.name+"/"+v.name, func(b *testing.B) {
				for b.Loop() {
					v.k(d, in)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/lanes, "ns/elem")
			})
		}
	}
}
