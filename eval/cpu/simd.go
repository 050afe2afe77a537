package cpu

// SIMD kernels. Built with GOEXPERIMENT=simd on amd64 (the Makefile sets
// it), the interpreter replaces the portable kernels of the hottest
// operators with AVX2 ones written with the standard library's
// simd/archsimd, when the CPU has AVX2 and FMA (checked once, at start-up);
// other builds and CPUs keep the portable kernels, which stay the
// reference (every AVX2 kernel is tested against its portable twin).
//
// A replacement must give exactly the portable kernel's results, so only
// operators whose vector instruction rounds like the scalar one are
// replaced: float +, -, *, / and sqrt (IEEE, correctly rounded either
// way); wrapping integer +, -, *; integer min and max. Reductions keep
// their meaning: integer +, min and max are associative and commutative,
// so a fold may run in vector lanes; a float + fold is sequential in
// Futhark's interpreter and stays scalar.

// SIMD reports which vector kernels the interpreter uses, for `arepl
// version` and the REPL's :backend: "AVX2", or why none.
func SIMD() string { return simdStatus }
