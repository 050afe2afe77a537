// arepl CUDA prelude: primitive types named as in Futhark and the scalar
// operators with Futhark's semantics. Generated code calls OP_TYPE(x, y)
// for every core.BinOp / core.UnOp, so this file is the operator table's
// device half: integer arithmetic wraps (computed in the unsigned type),
// signed / and % round toward minus infinity, // and %% truncate, division
// by zero yields 0 here (the caller has already raised the error flag),
// shifts by the width or more give 0 (or the sign for >> on signed types).
typedef signed char i8;
typedef short i16;
typedef int i32;
typedef long long i64;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef float f32;
typedef double f64;

#define AR_D static __device__ __forceinline__

// ar_fail records the first failed check of a kernel; the host reads the
// flag after the kernel and reports the check's source position.
AR_D void ar_fail(int *err, int code) { atomicCAS(err, 0, code); }

#define AR_CMP(N, T)                                   \
  AR_D bool eq_##N(T x, T y) { return x == y; }        \
  AR_D bool ne_##N(T x, T y) { return x != y; }        \
  AR_D bool lt_##N(T x, T y) { return x < y; }         \
  AR_D bool le_##N(T x, T y) { return x <= y; }        \
  AR_D bool gt_##N(T x, T y) { return x > y; }         \
  AR_D bool ge_##N(T x, T y) { return x >= y; }

#define AR_INT(N, T, U)                                                         \
  AR_CMP(N, T)                                                                  \
  AR_D T add_##N(T x, T y) { return (T)((U)x + (U)y); }                         \
  AR_D T sub_##N(T x, T y) { return (T)((U)x - (U)y); }                         \
  AR_D T mul_##N(T x, T y) { return (T)((U)x * (U)y); }                         \
  AR_D T min_##N(T x, T y) { return x < y ? x : y; }                            \
  AR_D T max_##N(T x, T y) { return x < y ? y : x; }                            \
  AR_D T and_##N(T x, T y) { return (T)(x & y); }                               \
  AR_D T or_##N(T x, T y) { return (T)(x | y); }                                \
  AR_D T xor_##N(T x, T y) { return (T)(x ^ y); }                               \
  AR_D T shl_##N(T x, T y) {                                                    \
    return (U)y >= 8 * sizeof(T) ? (T)0 : (T)((U)x << (U)y);                    \
  }                                                                             \
  AR_D T not_##N(T x) { return (T)~x; }                                         \
  AR_D T neg_##N(T x) { return (T)((U)0 - (U)x); }                              \
  AR_D i32 popc_##N(T x) {                                                      \
    return sizeof(T) == 8 ? __popcll((u64)(U)x) : __popc((u32)(U)x);            \
  }                                                                             \
  AR_D i32 clz_##N(T x) {                                                       \
    return sizeof(T) == 8 ? __clzll((i64)(U)x)                                  \
                          : __clz((i32)(u32)(U)x) - (32 - 8 * (int)sizeof(T));  \
  }                                                                             \
  AR_D i32 ctz_##N(T x) {                                                       \
    if ((U)x == 0) return 8 * (int)sizeof(T);                                   \
    return sizeof(T) == 8 ? __ffsll((i64)(U)x) - 1 : __ffs((i32)(u32)(U)x) - 1; \
  }                                                                             \
  /* x ** y by squaring; a negative exponent (an error the caller has     */   \
  /* already flagged) gives the truncated power                          */   \
  AR_D T pow_##N(T x, T y) {                                                    \
    if (y < (T)0) {                                                             \
      if (x == (T)1) return 1;                                                  \
      if (x == (T)-1) return (y & 1) ? (T)-1 : (T)1;                            \
      return 0;                                                                 \
    }                                                                           \
    U r = 1, b = (U)x, e = (U)y;                                                \
    while (e != 0) {                                                            \
      if (e & 1) r *= b;                                                        \
      b *= b;                                                                   \
      e >>= 1;                                                                  \
    }                                                                           \
    return (T)r;                                                                \
  }

#define AR_SIGNED(N, T, U)                                                      \
  AR_INT(N, T, U)                                                               \
  AR_D T shr_##N(T x, T y) {                                                    \
    return (U)y >= 8 * sizeof(T) ? (x < 0 ? (T)-1 : (T)0) : (T)(x >> y);        \
  }                                                                             \
  AR_D T abs_##N(T x) { return x < 0 ? neg_##N(x) : x; }                        \
  AR_D T sgn_##N(T x) { return (T)((x > 0) - (x < 0)); }                        \
  AR_D T quot_##N(T x, T y) {                                                   \
    if (y == 0) return 0;                                                       \
    if (y == (T)-1) return neg_##N(x);                                          \
    return (T)(x / y);                                                          \
  }                                                                             \
  AR_D T rem_##N(T x, T y) {                                                    \
    if (y == 0 || y == (T)-1) return 0;                                         \
    return (T)(x % y);                                                          \
  }                                                                             \
  AR_D T div_##N(T x, T y) {                                                    \
    if (y == 0) return 0;                                                       \
    if (y == (T)-1) return neg_##N(x);                                          \
    T q = (T)(x / y), r = (T)(x % y);                                           \
    return (r != 0 && ((r < 0) != (y < 0))) ? (T)(q - 1) : q;                   \
  }                                                                             \
  AR_D T mod_##N(T x, T y) {                                                    \
    if (y == 0 || y == (T)-1) return 0;                                         \
    T r = (T)(x % y);                                                           \
    return (r != 0 && ((r < 0) != (y < 0))) ? (T)(r + y) : r;                   \
  }

#define AR_UNSIGNED(N, T)                                                       \
  AR_INT(N, T, T)                                                               \
  AR_D T shr_##N(T x, T y) { return y >= 8 * sizeof(T) ? (T)0 : (T)(x >> y); }  \
  AR_D T abs_##N(T x) { return x; }                                             \
  AR_D T sgn_##N(T x) { return (T)(x > 0); }                                    \
  AR_D T quot_##N(T x, T y) { return y == 0 ? (T)0 : (T)(x / y); }              \
  AR_D T rem_##N(T x, T y) { return y == 0 ? (T)0 : (T)(x % y); }               \
  AR_D T div_##N(T x, T y) { return y == 0 ? (T)0 : (T)(x / y); }               \
  AR_D T mod_##N(T x, T y) { return y == 0 ? (T)0 : (T)(x % y); }

// mul_hi: the high half of the double-width product.
AR_D i8 mul_hi_i8(i8 x, i8 y) { return (i8)(((i32)x * (i32)y) >> 8); }
AR_D i16 mul_hi_i16(i16 x, i16 y) { return (i16)(((i32)x * (i32)y) >> 16); }
AR_D i32 mul_hi_i32(i32 x, i32 y) { return __mulhi(x, y); }
AR_D i64 mul_hi_i64(i64 x, i64 y) { return __mul64hi(x, y); }
AR_D u8 mul_hi_u8(u8 x, u8 y) { return (u8)(((u32)x * (u32)y) >> 8); }
AR_D u16 mul_hi_u16(u16 x, u16 y) { return (u16)(((u32)x * (u32)y) >> 16); }
AR_D u32 mul_hi_u32(u32 x, u32 y) { return __umulhi(x, y); }
AR_D u64 mul_hi_u64(u64 x, u64 y) { return __umul64hi(x, y); }

AR_SIGNED(i8, i8, u8)
AR_SIGNED(i16, i16, u16)
AR_SIGNED(i32, i32, u32)
AR_SIGNED(i64, i64, u64)
AR_UNSIGNED(u8, u8)
AR_UNSIGNED(u16, u16)
AR_UNSIGNED(u32, u32)
AR_UNSIGNED(u64, u64)

// ar_fmod_floor is float %: x - y * floor(x / y), whose result has the
// sign of y (-5.5 % 2.0 is 0.5), as Futhark's reference interpreter
// computes it (mod') and as the CPU backend does: in double, rounded once
// to f32 at the end for f32, with a NaN for a zero or infinite y or an
// infinite x. The _rn intrinsics are never contracted into a fused
// multiply-add, so the device computes what the CPU computes.
AR_D double ar_fmod_floor(double x, double y) {
  return __dsub_rn(x, __dmul_rn(y, floor(__ddiv_rn(x, y))));
}

// Floats: IEEE arithmetic; min/max ignore a NaN operand (fmin/fmax), as
// Futhark's f32.min does; round is round-half-even (rint). Futhark has no
// float // or %%; quot and rem truncate (trunc(x / y), fmod), as the CPU's.
#define AR_FLOAT(N, T, S, INF)                                                  \
  AR_CMP(N, T)                                                                  \
  AR_D T add_##N(T x, T y) { return x + y; }                                    \
  AR_D T sub_##N(T x, T y) { return x - y; }                                    \
  AR_D T mul_##N(T x, T y) { return x * y; }                                    \
  AR_D T div_##N(T x, T y) { return x / y; }                                    \
  AR_D T mod_##N(T x, T y) { return (T)ar_fmod_floor((f64)x, (f64)y); }         \
  AR_D T quot_##N(T x, T y) { return trunc##S(x / y); }                         \
  AR_D T rem_##N(T x, T y) { return fmod##S(x, y); }                            \
  AR_D T pow_##N(T x, T y) { return pow##S(x, y); }                             \
  AR_D T min_##N(T x, T y) { return fmin##S(x, y); }                            \
  AR_D T max_##N(T x, T y) { return fmax##S(x, y); }                            \
  AR_D T atan2_##N(T x, T y) { return atan2##S(x, y); }                         \
  AR_D T hypot_##N(T x, T y) { return hypot##S(x, y); }                         \
  AR_D T copysign_##N(T x, T y) { return copysign##S(x, y); }                   \
  AR_D T nextafter_##N(T x, T y) { return nextafter##S(x, y); }                 \
  AR_D T cbrt_##N(T x) { return cbrt##S(x); }                                   \
  AR_D T log1p_##N(T x) { return log1p##S(x); }                                 \
  AR_D T erf_##N(T x) { return erf##S(x); }                                     \
  AR_D T erfc_##N(T x) { return erfc##S(x); }                                   \
  AR_D T gamma_##N(T x) { return tgamma##S(x); }                                \
  AR_D T lgamma_##N(T x) { return lgamma##S(x); }                               \
  AR_D T asinh_##N(T x) { return asinh##S(x); }                                 \
  AR_D T acosh_##N(T x) { return acosh##S(x); }                                 \
  AR_D T atanh_##N(T x) { return atanh##S(x); }                                 \
  AR_D T neg_##N(T x) { return -x; }                                            \
  AR_D T abs_##N(T x) { return fabs##S(x); }                                    \
  AR_D T sgn_##N(T x) { return x > 0 ? (T)1 : x < 0 ? (T)-1 : x; }              \
  AR_D T sqrt_##N(T x) { return sqrt##S(x); }                                   \
  AR_D T exp_##N(T x) { return exp##S(x); }                                     \
  AR_D T log_##N(T x) { return log##S(x); }                                     \
  AR_D T log2_##N(T x) { return log2##S(x); }                                   \
  AR_D T log10_##N(T x) { return log10##S(x); }                                 \
  AR_D T sin_##N(T x) { return sin##S(x); }                                     \
  AR_D T cos_##N(T x) { return cos##S(x); }                                     \
  AR_D T tan_##N(T x) { return tan##S(x); }                                     \
  AR_D T asin_##N(T x) { return asin##S(x); }                                   \
  AR_D T acos_##N(T x) { return acos##S(x); }                                   \
  AR_D T atan_##N(T x) { return atan##S(x); }                                   \
  AR_D T sinh_##N(T x) { return sinh##S(x); }                                   \
  AR_D T cosh_##N(T x) { return cosh##S(x); }                                   \
  AR_D T tanh_##N(T x) { return tanh##S(x); }                                   \
  AR_D T floor_##N(T x) { return floor##S(x); }                                 \
  AR_D T ceil_##N(T x) { return ceil##S(x); }                                   \
  AR_D T round_##N(T x) { return rint##S(x); }                                  \
  AR_D T trunc_##N(T x) { return trunc##S(x); }                                 \
  AR_D bool isnan_##N(T x) { return x != x; }                                   \
  AR_D bool isinf_##N(T x) { return fabs##S(x) == INF; }

AR_FLOAT(f32, f32, f, __int_as_float(0x7f800000))
AR_FLOAT(f64, f64, , __longlong_as_double(0x7ff0000000000000LL))

// Bit casts (core.ToBits, core.FromBits): the float's IEEE 754 bits as the
// unsigned type of its width and back, reinterpreted exactly (NaN payloads
// kept), never computed with arithmetic.
AR_D u32 to_bits_f32(f32 x) { return __float_as_uint(x); }
AR_D u64 to_bits_f64(f64 x) { return (u64)__double_as_longlong(x); }
AR_D f32 from_bits_u32(u32 x) { return __uint_as_float(x); }
AR_D f64 from_bits_u64(u64 x) { return __longlong_as_double((i64)x); }

// bool: and/or/xor and && || are logical; false < true.
AR_CMP(bool, bool)
AR_D bool and_bool(bool x, bool y) { return x && y; }
AR_D bool or_bool(bool x, bool y) { return x || y; }
AR_D bool xor_bool(bool x, bool y) { return x != y; }
AR_D bool logand_bool(bool x, bool y) { return x && y; }
AR_D bool logor_bool(bool x, bool y) { return x || y; }
AR_D bool not_bool(bool x) { return !x; }

// ar_shfl_down moves a value of any primitive type down a warp; values of
// less than four bytes travel as an int.
AR_D i64 ar_shfl_down(i64 v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
AR_D u64 ar_shfl_down(u64 v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
AR_D f64 ar_shfl_down(f64 v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
AR_D f32 ar_shfl_down(f32 v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
AR_D i32 ar_shfl_down(i32 v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
AR_D u32 ar_shfl_down(u32 v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
AR_D i16 ar_shfl_down(i16 v, int d) { return (i16)__shfl_down_sync(0xffffffffu, (int)v, d); }
AR_D u16 ar_shfl_down(u16 v, int d) { return (u16)__shfl_down_sync(0xffffffffu, (int)v, d); }
AR_D i8 ar_shfl_down(i8 v, int d) { return (i8)__shfl_down_sync(0xffffffffu, (int)v, d); }
AR_D u8 ar_shfl_down(u8 v, int d) { return (u8)__shfl_down_sync(0xffffffffu, (int)v, d); }
AR_D bool ar_shfl_down(bool v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d) != 0; }

// ar_bits_T reinterprets the 4 bytes of a vector-load lane as a T.
AR_D i32 ar_bits_i32(u32 b) { return (i32)b; }
AR_D u32 ar_bits_u32(u32 b) { return b; }
AR_D f32 ar_bits_f32(u32 b) { return __uint_as_float(b); }

// ar_pad spreads a shared-memory index so that threads reading
// consecutive chunks of a tile hit different banks.
AR_D int ar_pad(int k) { return k + (k >> 5); }
