//go:build goexperiment.simd && amd64

package cpu

// AVX2 kernels for f32 exp and log.
//
// The portable kernels compute float32(math.Exp(float64(x))) and
// float32(math.Log(float64(x))): the float64 function, rounded once to
// float32. These kernels do the same with their own float64 function, four
// lanes at a time: widen (VCVTPS2PD), evaluate in float64 with a polynomial
// whose error is around 1e-16 relative, narrow (VCVTPD2PS, round to
// nearest). (The names say x8 for the eight float32 lanes of an AVX2
// register; the float64 work goes four lanes at a time.) Both float64
// values lie within about one float64 ulp of the true value, so the
// rounded float32 results differ only when a float32 rounding boundary
// falls between them: a last-bit difference, which an exhaustive check of
// all 2^32 inputs found for 2 exp inputs and no log input (vmath_test.go).
// Working in float64 also makes the edges cheap: a float32 subnormal is a
// float64 normal, so log needs no special path for it, and exp's overflow
// to +Inf and gradual underflow to subnormals and 0 come from the
// narrowing, which rounds them exactly as the portable kernel's conversion
// does. Exp's NaN lanes are selected back in the vector; log's zero,
// negative, infinite and NaN inputs take the portable formula (logLanes).
//
// Only 256-bit instructions of AVX, AVX2 and FMA are used (the vector
// methods' documentation names each one's instruction and feature);
// useSIMD registers the kernels only when the CPU has AVX2 and FMA. In
// particular no 64-bit integer conversion or arithmetic right shift (both
// AVX-512): exponents move between integers and floats by bit tricks
// instead, explained where they are used.
//
// A slice whose length is not a multiple of 4 ends with a padded vector:
// the tail is copied into a 4-lane buffer, computed with the same vector
// code and copied back, so every element's result depends only on its
// value, never on its position, and nothing past len(d) is touched.

import (
	"math"
	"simd/archsimd"

	"github.com/arepl/arepl/lang/core"
)

// useSIMDMath registers the f32 exp and log kernels (called by useSIMD
// once the CPU is known to have AVX2 and FMA).
func useSIMDMath() {
	unTab[core.ExpF][core.F32] = u1(expF32x8)
	unTab[core.Log][core.F32] = u1(logF32x8)
}

type f64x4 = archsimd.Float64x4

// Shared constants.
const (
	// f64Shifter is 1.5·2^52: adding it to a float64 of magnitude below
	// 2^51 rounds that value to an integer n (to nearest, ties to even)
	// and leaves n in the low bits of the sum's representation, as
	// bits(f64Shifter) + n in two's complement.
	f64Shifter = 0x1.8p52
	ln2Hi      = float64(math.Ln2)
	ln2Lo      = math.Ln2 - ln2Hi // the rest of ln 2, below ln2Hi's last bit
	expBias    = 1023
)

// expPoly is the degree-10 polynomial closest to e^r on [-ln2/2, ln2/2]
// in Chebyshev's sense, lowest coefficient first: mpmath.chebyfit(exp,
// [-log(2)/2, log(2)/2], 11) at 50 digits, each coefficient then rounded to
// float64. Its relative error, so rounded, is below 3.3e-16 on the
// interval (measured on 4001 points at 50 digits), about what Taylor's
// polynomial of degree 13 gives with three more terms (which measured 10%
// slower; the exhaustive check's counts are the same for both).
var expPoly = [11]float64{
	0x1.0000000000000p+0, 0x1.000000000001ep+0, 0x1.0000000000005p-1,
	0x1.555555554b757p-3, 0x1.55555555520afp-5, 0x1.1111112dd67c5p-7,
	0x1.6c16c17f43a58p-10, 0x1.a01978c6baf81p-13, 0x1.a019a66a75dd4p-16,
	0x1.72faf024b693bp-19, 0x1.28a2c0a7209fbp-22,
}

// expK holds exp's constants as vectors, broadcast once per call rather
// than once per vector (a broadcast is a load and a shuffle).
type expK struct {
	lo, hi             f64x4 // the clamp: exp(-150) and exp(100) narrow to 0 and +Inf
	log2e, shifter     f64x4
	negLn2Hi, negLn2Lo f64x4
	c                  [11]f64x4 // expPoly
	bias               archsimd.Uint64x4
}

func newExpK() *expK {
	k := &expK{
		lo:       archsimd.BroadcastFloat64x4(-150),
		hi:       archsimd.BroadcastFloat64x4(100),
		log2e:    archsimd.BroadcastFloat64x4(math.Log2E),
		shifter:  archsimd.BroadcastFloat64x4(f64Shifter),
		negLn2Hi: archsimd.BroadcastFloat64x4(-ln2Hi),
		negLn2Lo: archsimd.BroadcastFloat64x4(-ln2Lo),
		bias:     archsimd.BroadcastUint64x4(expBias),
	}
	for i, c := range expPoly {
		k.c[i] = archsimd.BroadcastFloat64x4(c)
	}
	return k
}

// expLanes sets d[i] = e^x[i], four lanes at a time, for len(d) a
// multiple of 4 and len(x) >= len(d). (The loop body is written here, not
// in a function of one vector, because such a function is too big to be
// inlined and a call per vector would cost more than the vector's work.)
//
// x is clamped to [-150, 100], where no float64 step overflows or
// underflows and whose ends narrow to float32 0 and +Inf like any value
// beyond them (±Inf included); a NaN lane is put back at the end. Then
// x = n·ln2 + r with n = round(x·log2 e) and |r| <= ln2/2 (Cody-Waite: ln2
// in two parts, each product subtracted by one FMA, so r carries almost no
// rounding), e^r is expPoly (relative error below 3.3e-16), and 2^n is built
// directly as a float64's bits: n is in [-216, 144], so 2^n is a normal
// float64 and the product never leaves float64's range.
func expLanes(d, x []float32, k *expK) {
	for i := 0; i+4 <= len(d); i += 4 {
		x := archsimd.LoadFloat32x4Slice(x[i : i+4]).ConvertToFloat64()
		nan := x.IsNaN()
		xc := x.Max(k.lo).Min(k.hi)
		// t = x·log2e + 1.5·2^52 rounds x·log2e to the integer n, which sits in
		// t's low bits; n as a float64 is t - shifter, exactly.
		t := xc.MulAdd(k.log2e, k.shifter)
		n := t.Sub(k.shifter)
		r := n.MulAdd(k.negLn2Hi, xc)
		r = n.MulAdd(k.negLn2Lo, r)
		// The polynomial by Estrin's scheme: pairs of terms, then pairs of
		// pairs with r², and so on, so its critical path is four FMAs deep
		// rather than Horner's ten: the length of one vector's chain
		// bounds how many vectors the CPU can overlap (a Horner loop made
		// the kernel about twice as slow).
		c := &k.c
		r2 := r.Mul(r)
		r4 := r2.Mul(r2)
		r8 := r4.Mul(r4)
		q0 := r2.MulAdd(r.MulAdd(c[3], c[2]), r.MulAdd(c[1], c[0]))
		q1 := r2.MulAdd(r.MulAdd(c[7], c[6]), r.MulAdd(c[5], c[4]))
		q2 := r2.MulAdd(c[10], r.MulAdd(c[9], c[8]))
		p := r8.MulAdd(q2, r4.MulAdd(q1, q0))
		// 2^n: the exponent field is n + 1023; t's bits are bits(shifter) + n,
		// and shifting left by 52 drops everything above the low 12 bits, so
		// (bits(t) + 1023) << 52 is the biased exponent with a zero mantissa.
		scale := t.AsUint64x4().Add(k.bias).ShiftAllLeft(52).AsFloat64x4()
		x.Merge(p.Mul(scale), nan).ConvertToFloat32().StoreSlice(d[i : i+4])
	}
}

// expF32x8 is kMathExp[float32] on AVX2: d[i] = e^x[i].
func expF32x8(d, x []float32) kerr {
	x = x[:len(d)]
	k := newExpK()
	n := len(d) &^ 3
	expLanes(d[:n], x[:n], k)
	if n < len(d) {
		var bx, bd [4]float32
		copy(bx[:], x[n:])
		expLanes(bd[:], bx[:], k)
		copy(d[n:], bd[:])
	}
	archsimd.ClearAVXUpperBits() // before the SSE code that follows (simd_avx2.go)
	return kOK
}

// logPoly is Q in ln m = f - s·(f - z·Q(z)), z = s², s = (m-1)/(m+1)
// (logLanes): Q(z) = Σ_{j>=1} 2z^(j-1)/(2j+1), whose Taylor coefficients
// are 2/3, 2/5, 2/7, .... This is instead the degree-6 polynomial closest
// to Q on [0, 0.0295] (z <= 0.02944) in Chebyshev's sense, lowest
// coefficient first: mpmath.chebyfit(Q, [0, 0.0295], 7) at 50 digits, each
// coefficient then rounded to float64. Its error, so rounded, is below
// 3.3e-16 (measured on 2001 points), which moves ln m by less than 5e-18
// of itself; Taylor's series needs nine terms for that.
var logPoly = [7]float64{
	0x1.5555555555558p-1, 0x1.99999999951f5p-2, 0x1.2492492e0b70cp-2,
	0x1.c71c62c42db89p-3, 0x1.7462be245eae3p-3, 0x1.39fd25d62ab23p-3,
	0x1.2b6776a1bf0b9p-3,
}

// logK holds log's constants as vectors (see expK).
type logK struct {
	zero, one, two, inf f64x4
	ln2Hi, ln2Lo        f64x4
	c                   [7]f64x4 // logPoly
	// Mantissa normalisation (logLanes).
	offset, mantMask, sqrtHalf, kMagic archsimd.Uint64x4
	kBias                              f64x4
}

const (
	// sqrtHalfBits is the representation of the float64 nearest √½:
	// mantissas are brought into [√½, √2) by re-basing the exponent there.
	sqrtHalfBits = 0x3fe6a09e667f3bcd
	oneBits      = 0x3ff0000000000000
	mantMask     = 1<<52 - 1
	// twoTo52Bits is the representation of 2^52: or-ing an integer
	// e < 2^52 into its mantissa gives the float64 2^52 + e exactly.
	twoTo52Bits = 0x4330000000000000
)

func newLogK() *logK {
	k := &logK{
		zero:     archsimd.BroadcastFloat64x4(0),
		one:      archsimd.BroadcastFloat64x4(1),
		two:      archsimd.BroadcastFloat64x4(2),
		inf:      archsimd.BroadcastFloat64x4(math.Inf(1)),
		ln2Hi:    archsimd.BroadcastFloat64x4(ln2Hi),
		ln2Lo:    archsimd.BroadcastFloat64x4(ln2Lo),
		offset:   archsimd.BroadcastUint64x4(oneBits - sqrtHalfBits),
		mantMask: archsimd.BroadcastUint64x4(mantMask),
		sqrtHalf: archsimd.BroadcastUint64x4(sqrtHalfBits),
		kMagic:   archsimd.BroadcastUint64x4(twoTo52Bits),
		kBias:    archsimd.BroadcastFloat64x4(1<<52 + expBias),
	}
	for j, c := range logPoly {
		k.c[j] = archsimd.BroadcastFloat64x4(c)
	}
	return k
}

// logLanes sets d[i] = ln x[i], four lanes at a time, for len(d) a
// multiple of 4 and len(x) >= len(d) (written as expLanes is, for the
// same reason).
//
// For finite x > 0 (a float32 subnormal is a normal float64 here),
// x = 2^e·m with m in [√½, √2): adding 1.0's bits minus √½'s to x's bits
// carries into the exponent field exactly when the mantissa is at least
// √½'s, so the exponent field of the sum is e + 1023 and its mantissa
// field, re-based on √½'s bits, is m. With f = m - 1 (exact) and
// s = f/(2+f), ln m = 2 atanh s = f - s·(f - R), R = z·Q(z), z = s²,
// Q in logPoly; |s| <= 0.172, and the form keeps f, exact, as the leading
// term. Then ln x = e·ln2 + ln m, with ln 2 in two parts.
//
// The other inputs (zeros, negatives, infinities, NaNs) are rare in real
// data, so a vector that has one takes a branch: its lanes outside
// (0, +Inf) are recomputed with the portable formula, which is the
// reference for their special results (math.Log on amd64 returns a NaN of
// its own for a negative NaN, for one). Keeping them off the vector path
// saves the selects and constants that every vector would otherwise pay.
func logLanes(d, x []float32, k *logK) {
	c := &k.c
	for i := 0; i+4 <= len(d); i += 4 {
		v := archsimd.LoadFloat32x4Slice(x[i : i+4]).ConvertToFloat64()
		bits := v.AsUint64x4().Add(k.offset)
		// The biased exponent e + 1023 (bits 52..62; the sign is 0 for the
		// lanes whose result is used) becomes a float64 by the 2^52 trick,
		// then e = (2^52 + e + 1023) - (2^52 + 1023), exactly.
		e := bits.ShiftAllRight(52).Or(k.kMagic).AsFloat64x4().Sub(k.kBias)
		m := bits.And(k.mantMask).Add(k.sqrtHalf).AsFloat64x4()
		f := m.Sub(k.one)
		s := f.Div(f.Add(k.two))
		z := s.Mul(s)
		// Q(z) by Estrin's scheme, as in expLanes.
		z2 := z.Mul(z)
		z4 := z2.Mul(z2)
		q0 := z2.MulAdd(z.MulAdd(c[3], c[2]), z.MulAdd(c[1], c[0]))
		q1 := z2.MulAdd(c[6], z.MulAdd(c[5], c[4]))
		q := z4.MulAdd(q1, q0)
		r := z.Mul(q)
		lm := f.Sub(s.Mul(f.Sub(r)))
		res := e.MulAdd(k.ln2Hi, e.MulAdd(k.ln2Lo, lm))
		res.ConvertToFloat32().StoreSlice(d[i : i+4])
		if v.Greater(k.zero).And(v.Less(k.inf)).ToBits() != 0b1111 {
			logSpecial(d[i:i+4], x[i:i+4])
		}
	}
}

// logSpecial redoes the lanes of x outside (0, +Inf) with the portable
// kernel's formula.
func logSpecial(d, x []float32) {
	archsimd.ClearAVXUpperBits() // math.Log is SSE code
	for j, v := range x[:len(d)] {
		if !(v > 0 && v < float32(math.Inf(1))) {
			d[j] = float32(math.Log(float64(v)))
		}
	}
}

// logF32x8 is kMathLog[float32] on AVX2: d[i] = ln x[i].
func logF32x8(d, x []float32) kerr {
	x = x[:len(d)]
	k := newLogK()
	n := len(d) &^ 3
	logLanes(d[:n], x[:n], k)
	if n < len(d) {
		// The padding lanes are 0, a special input: logSpecial computes
		// them, and they are dropped.
		var bx, bd [4]float32
		copy(bx[:], x[n:])
		logLanes(bd[:], bx[:], k)
		copy(d[n:], bd[:])
	}
	archsimd.ClearAVXUpperBits() // before the SSE code that follows (simd_avx2.go)
	return kOK
}
