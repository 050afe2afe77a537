package gpu

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// The f16 operators. The session widens an f16 program to f32 before the
// backend sees it (eval.WidenHalf): every f16 is an f32 holding a half,
// and every f16 result is rounded by core.HalfRound. A kernel therefore
// computes in float and rounds with the hardware's conversion, PTX's
// cvt.rn.f16.f32 (round to nearest even, inf past 65504) and back, through
// inline asm: NVRTC compiles no header from the file system, so cuda_fp16.h
// is out of reach. The bit casts are integer code that gives the CPU's
// bits (core.HalfBits), NaN payloads included.
//
// The operators are written inline where they are used, not in
// kernels/prelude.cu: the prelude is in every module's text and cache key,
// and a program without f16 must generate the same text as before. The
// asm strings are the only string literals of generated code; they hold
// no "//" or "/*" and no v_ or f_ name, so canonical (canon.go) passes
// them through unchanged.

// halfOp is the C statement for d = op(a) of an f16 operator on t; ok is
// false for every other operator.
func halfOp(op core.UnOp, t core.PrimType, d, a string) (string, bool) {
	switch {
	case op == core.HalfRound && t == core.F32:
		return fmt.Sprintf(`{ unsigned short ar_h; asm("cvt.rn.f16.f32 %%0, %%1;" : "=h"(ar_h) : "f"(%s)); asm("cvt.f32.f16 %%0, %%1;" : "=f"(%s) : "h"(ar_h)); }`, a, d), true
	case op == core.HalfRound && t == core.F64:
		return fmt.Sprintf(`{ unsigned short ar_h; asm("cvt.rn.f16.f64 %%0, %%1;" : "=h"(ar_h) : "d"(%s)); asm("cvt.f64.f16 %%0, %%1;" : "=d"(%s) : "h"(ar_h)); }`, a, d), true
	case op == core.HalfToBits && t == core.F32:
		// a holds a half exactly: a normal one keeps the top 10 bits of
		// its fraction, a subnormal one is an integer multiple of 2^-24.
		return fmt.Sprintf(`{ u32 ar_b = __float_as_uint(%[1]s), ar_s = (ar_b >> 16) & 0x8000u, ar_e = (ar_b >> 23) & 0xffu, ar_m = ar_b & 0x7fffffu; `+
			`%[2]s = (u16)(ar_e == 0xffu ? (ar_s | 0x7c00u | (ar_m != 0u ? 0x200u | (ar_m >> 13) : 0u)) : ar_e >= 113u ? (ar_s | ((ar_e - 112u) << 10) | (ar_m >> 13)) : (ar_s | (u32)(fabsf(%[1]s) * 16777216.0f))); }`, a, d), true
	case op == core.HalfFromBits && t == core.U16:
		return fmt.Sprintf(`{ u32 ar_h = (u32)(%[1]s), ar_s = (ar_h & 0x8000u) << 16, ar_e = (ar_h >> 10) & 0x1fu, ar_m = ar_h & 0x3ffu; `+
			`%[2]s = ar_e == 0u ? __uint_as_float(ar_s | __float_as_uint((float)ar_m * 5.9604644775390625e-8f)) : __uint_as_float(ar_s | (ar_e == 31u ? 0x7f800000u : (ar_e + 112u) << 23) | (ar_m << 13)); }`, a, d), true
	}
	return "", false
}
