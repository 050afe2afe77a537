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

// Tile states (CUB's single-word ScanTileState<T, true>): a tile's value
// and status travel in one 8- or 16-byte word, stored and loaded with one
// relaxed access, so a reader that sees the status sees the value and
// neither side needs a fence. The status is the top 32 bits of the last
// 64-bit half (larger values: see stateLayout in eval/gpu/scan.go). Sixteen-byte words use the vector access CUB uses on sm_90:
// a naturally aligned 16-byte access is one transaction on the hardware.
AR_D void ar_store_state(u64 *p, u64 w0) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(w0) : "memory");
}
AR_D void ar_load_state(const u64 *p, u64 *w0) {
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(*w0) : "l"(p) : "memory");
}
AR_D void ar_store_state(ulonglong2 *p, u64 w0, u64 w1) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(w0), "l"(w1) : "memory");
}
AR_D void ar_load_state(const ulonglong2 *p, u64 *w0, u64 *w1) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(*w0), "=l"(*w1) : "l"(p) : "memory");
}

// ar_bits is the bit pattern of a value, zero-extended to 64 bits, for
// packing into a state word.
AR_D u64 ar_bits(bool v) { return v ? 1ull : 0ull; }
AR_D u64 ar_bits(i8 v) { return (u64)(u8)v; }
AR_D u64 ar_bits(u8 v) { return (u64)v; }
AR_D u64 ar_bits(i16 v) { return (u64)(u16)v; }
AR_D u64 ar_bits(u16 v) { return (u64)v; }
AR_D u64 ar_bits(i32 v) { return (u64)(u32)v; }
AR_D u64 ar_bits(u32 v) { return (u64)v; }
AR_D u64 ar_bits(i64 v) { return (u64)v; }
AR_D u64 ar_bits(u64 v) { return v; }
AR_D u64 ar_bits(f32 v) { return (u64)__float_as_uint(v); }
AR_D u64 ar_bits(f64 v) { return (u64)__double_as_longlong(v); }

// ar_cp_async16 starts copying 16 bytes from global to shared memory
// without a register in between (sm_80's cp.async, bypassing L1: the data
// is read once); ar_cp_async_wait waits for all of the thread's copies.
// Other lanes see them after the __syncwarp that follows.
AR_D void ar_cp_async16(void *smem, const void *gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(smem)), "l"(gmem));
}
AR_D void ar_cp_async_wait() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

// `:trace` (eval/trace.go): the instrumented variant of a scan kernel
// (scanKernel.Trace) is compiled with AR_TRACE defined, and thread 0 of every tile writes %globaltimer at the tile's phase
// boundaries into AR_TRACE_SLOTS words after the ticket (the host
// allocates them there): 0 before the ticket, 1 with the ticket, 2 after
// the load, 3 after the thread scan, 4 after the block scan, 9 after
// publishing the aggregate, 5 after the look-back, 6 after applying the
// prefix, 7 after the store; word 8 is the multiprocessor (%smid), word 10
// the look-back's distance: this tile minus the predecessor whose
// inclusive prefix (or segment start) ended it, 0 when there was none.
// Without AR_TRACE nothing here exists, and kernels have no marks.
#define AR_TRACE_SLOTS 11
#ifdef AR_TRACE
AR_D u64 ar_globaltimer() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
AR_D unsigned ar_smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
#define AR_TRACE_START() const u64 ar_trace_t0 = ar_globaltimer()
#define AR_TRACE_SLOT(k) ((u64 *)((char *)ar_ticket + 16))[ar_tile * AR_TRACE_SLOTS + (k)]
#define AR_TRACE_MARK(k)                         \
  do {                                           \
    if (threadIdx.x == 0) {                      \
      if ((k) == 1) AR_TRACE_SLOT(0) = ar_trace_t0; \
      AR_TRACE_SLOT(k) = ar_globaltimer();       \
    }                                            \
  } while (0)
// Thread 0 is lane 0 of warp 0, which publishes and looks back.
#define AR_TRACE_PUBLISHED()                     \
  do {                                           \
    if (threadIdx.x == 0) AR_TRACE_SLOT(9) = ar_globaltimer(); \
  } while (0)
#define AR_TRACE_PRED(p)                         \
  do {                                           \
    if (threadIdx.x == 0) AR_TRACE_SLOT(10) = (u64)(ar_tile - (p)); \
  } while (0)
#define AR_TRACE_END()                           \
  do {                                           \
    if (threadIdx.x == 0) {                      \
      AR_TRACE_SLOT(7) = ar_globaltimer();       \
      AR_TRACE_SLOT(8) = ar_smid();              \
    }                                            \
  } while (0)
#endif
