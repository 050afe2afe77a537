// Helpers of the histogram, scatter and multiscan kernels (hist.cu,
// scatter.cu, multiscan.cu), included after prelude.cu in their modules.

// ar_nth_bit is the position of the n-th (from 0) set bit of m; warp
// aggregation uses it to find a lane's partner among the lanes that hold
// the same bucket.
AR_D int ar_nth_bit(unsigned m, int n) {
  for (int j = 0; j < n; j++) m &= m - 1u;
  return __ffs(m) - 1;
}

// ar_align8 rounds a byte offset up to 8, so that every sub-histogram array
// carved out of dynamic shared memory is aligned for its type.
AR_D i64 ar_align8(i64 x) { return (x + 7) & ~(i64)7; }
