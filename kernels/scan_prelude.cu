// Helpers of the single-pass scan kernels (scan.cu, filter.cu), included
// once per scan module after prelude.cu.

// ar_shfl_up and ar_shfl_idx move a value of any primitive type across a
// warp; values of less than four bytes travel as an int.
#define AR_SHFL(T)                                                               \
  AR_D T ar_shfl_up(T v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }   \
  AR_D T ar_shfl_idx(T v, int l) { return __shfl_sync(0xffffffffu, v, l); }
#define AR_SHFL_NARROW(T)                                                        \
  AR_D T ar_shfl_up(T v, int d) { return (T)__shfl_up_sync(0xffffffffu, (int)v, d); } \
  AR_D T ar_shfl_idx(T v, int l) { return (T)__shfl_sync(0xffffffffu, (int)v, l); }
AR_SHFL(i64)
AR_SHFL(u64)
AR_SHFL(f64)
AR_SHFL(f32)
AR_SHFL(i32)
AR_SHFL(u32)
AR_SHFL_NARROW(i16)
AR_SHFL_NARROW(u16)
AR_SHFL_NARROW(i8)
AR_SHFL_NARROW(u8)
AR_D bool ar_shfl_up(bool v, int d) { return __shfl_up_sync(0xffffffffu, (int)v, d) != 0; }
AR_D bool ar_shfl_idx(bool v, int l) { return __shfl_sync(0xffffffffu, (int)v, l) != 0; }

// Look-back status of a tile: nothing yet, its aggregate, or its inclusive
// prefix.
#define AR_INVALID 0u
#define AR_AGGREGATE 1u
#define AR_PREFIX 2u

// ar_publish stores a tile's status after its value (which the caller
// stored first): the fence orders the value before the flag for every
// reader on the device (release).
AR_D void ar_publish(unsigned int *flags, i64 tile, unsigned int st) {
  __threadfence();
  ((volatile unsigned int *)flags)[tile] = st;
}
