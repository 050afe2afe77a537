package cpu

// SIMD kernels. Built with GOEXPERIMENT=simd on amd64 (the Makefile sets
// it), the interpreter replaces the portable kernels of the hottest
// operators with AVX2 ones written with the standard library's
// simd/archsimd, when the CPU has AVX2 and FMA (checked once, at start-up);
// other builds and CPUs keep the portable kernels, which stay the
// reference (every AVX2 kernel is tested against its portable twin).
//
// A replacement must give exactly the portable kernel's results (NaN
// payloads aside), so only operators whose vector instructions round like
// the scalar ones are replaced: float +, -, *, /, sqrt, abs, negation and
// comparisons (IEEE, correctly rounded either way); wrapping integer +, -,
// *; integer min and max; selection. Reductions and scans keep their
// meaning: wrapping integer + and integer min and max are associative and
// commutative, so they may run in vector lanes; float min and max are too,
// except for which of two equal zeros wins, so a vector float min/max fold
// whose result is a zero or an infinity redoes the chunk sequentially; a
// float + fold is sequential in Futhark's interpreter and stays scalar.
// exp and log of f32 (vmath_avx2.go) compute in float64 vector lanes and
// round once, as the portable kernels do through math.Exp and math.Log;
// the two differ only where the float64 results straddle a float32
// rounding boundary (counted by the tests).

//go:generate go run gen_simd.go

// SIMD reports which vector kernels the interpreter uses, for `arepl
// version`: "AVX2", or why none.
func SIMD() string { return simdStatus }
