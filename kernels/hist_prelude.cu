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

// ar_vec_ok says whether p is aligned for ar_load4's wide loads: four
// elements of 1, 2 or 4 bytes are one 4-, 8- or 16-byte load, four of 8
// bytes two 16-byte loads. Arrays from the allocator always are; the check
// keeps views at odd offsets correct (they take the scalar path).
template <typename T>
AR_D bool ar_vec_ok(const T *p) {
  const unsigned long long a = sizeof(T) >= 4 ? 16 : 4 * sizeof(T);
  return ((unsigned long long)p & (a - 1)) == 0;
}

// ar_load4 reads elements i..i+3 of p (i a multiple of 4) into v: with one
// or two wide read-only loads when vec is set and all four exist (full:
// the caller knows they do), else element by element, past-the-end ones as
// zeros (their lanes are dead). The unions only reinterpret the loaded
// registers.
template <typename T>
AR_D void ar_load4(const T *__restrict__ p, const i64 i, const i64 n, const bool vec, const bool full, T *v) {
  if (vec && (full || i + 4 <= n)) {
    if constexpr (sizeof(T) == 8) {
      union { uint4 w[2]; T x[4]; } u;
      u.w[0] = __ldg((const uint4 *)(p + i));
      u.w[1] = __ldg((const uint4 *)(p + i) + 1);
      for (int j = 0; j < 4; j++) v[j] = u.x[j];
    } else if constexpr (sizeof(T) == 4) {
      union { uint4 w; T x[4]; } u;
      u.w = __ldg((const uint4 *)(p + i));
      for (int j = 0; j < 4; j++) v[j] = u.x[j];
    } else if constexpr (sizeof(T) == 2) {
      union { uint2 w; T x[4]; } u;
      u.w = __ldg((const uint2 *)(p + i));
      for (int j = 0; j < 4; j++) v[j] = u.x[j];
    } else {
      union { unsigned int w; T x[4]; } u;
      u.w = __ldg((const unsigned int *)(p + i));
      for (int j = 0; j < 4; j++) v[j] = u.x[j];
    }
  } else {
    for (int j = 0; j < 4; j++) v[j] = full || i + j < n ? p[i + j] : (T)0;
  }
}

// ar_lane_value is lane l's v (every lane of the warp takes part); values
// narrower than 4 bytes travel as an int.
template <typename T>
AR_D T ar_lane_value(T v, int l) {
  if constexpr (sizeof(T) < 4) {
    return (T)__shfl_sync(0xffffffffu, (int)v, l);
  } else {
    return __shfl_sync(0xffffffffu, v, l);
  }
}
