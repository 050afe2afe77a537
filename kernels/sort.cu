// Stable LSD radix sort of 32-bit keys with a 32-bit payload, the building
// block of the sort-based histogram and multiscan paths (multireduce thesis
// §4.4 and §5.5). Not a template: one module per device, included after
// prelude.cu. A pass sorts by the digit of dbits bits at shift:
//
//   ar_sort_count: per tile of AR_SORT_TILE keys, the digit counts, stored
//                  digit-major (counts[d * tiles + t]) so that one exclusive
//                  scan of the whole array gives every tile's offset for
//                  every digit in the output;
//   ar_sort_scan_chunks / ar_sort_scan_totals: that scan, as an in-place
//                  exclusive scan of chunks of AR_SORT_TILE counts and a scan
//                  of the chunk totals (the scatter adds the two);
//   ar_sort_scatter: each tile ranks its keys stably by digit, sorts them
//                  into shared memory and writes every digit's run
//                  contiguously to its place in the output.
//
// Ranking (stable within the tile): warp w owns the tile's elements
// [w*32*ITEMS, (w+1)*32*ITEMS), read 32 at a time in order. Lanes with the
// same digit find each other with a ballot per bit; an element's rank is the
// number of earlier lanes with its digit plus the warp's running count of
// that digit, kept in the warp's own row of shared counters. A scan of those
// rows over warps and digits then gives every element its place in the tile.
// The payload of the first pass may be the identity (vin null): the sort
// then yields the permutation that sorts the keys.

#define AR_SORT_BLOCK 256
#define AR_SORT_ITEMS 16
#define AR_SORT_TILE (AR_SORT_BLOCK * AR_SORT_ITEMS)
#define AR_SORT_WARPS (AR_SORT_BLOCK / 32)
#define AR_RADIX 256

// ar_digit_peers is the mask of the warp's lanes that are ok and hold the
// same digit d of dbits bits as this lane, found with one ballot per bit
// (the warp-level multisplit). __match_any_sync's time grows with the
// number of distinct values: the count kernel took 0.44-0.5 ms with it for
// 2^26 uniform keys and 0.11 ms for equal ones (bench/RESULTS.md).
AR_D unsigned ar_digit_peers(const u32 d, const int dbits, const bool ok) {
  unsigned peers = __ballot_sync(0xffffffffu, ok);
  for (int b = 0; b < dbits; b++) {
    const unsigned ones = __ballot_sync(0xffffffffu, (d >> b) & 1u);
    peers &= (d >> b) & 1u ? ones : ~ones;
  }
  return peers;
}

extern "C" __global__ void __launch_bounds__(AR_SORT_BLOCK)
ar_sort_count(const u32 *__restrict__ keys, const i64 n, const int shift, const int dbits,
              u32 *__restrict__ counts, const i64 tiles) {
  // A row of counters per warp, so that warps do not contend; a warp
  // whose lanes all hold one digit adds 32 once instead of serialising 32
  // atomics on one counter.
  __shared__ u32 ar_h[AR_SORT_WARPS][AR_RADIX];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int w = 0; w < AR_SORT_WARPS; w++) ar_h[w][threadIdx.x] = 0;
  __syncthreads();
  const u32 mask = (1u << dbits) - 1u;
  const i64 base = (i64)blockIdx.x * AR_SORT_TILE;
  // All the thread's loads first, so that they are in flight together.
  u32 d[AR_SORT_ITEMS];
#pragma unroll
  for (int u = 0; u < AR_SORT_ITEMS; u++) {
    const i64 i = base + (i64)u * AR_SORT_BLOCK + threadIdx.x;
    d[u] = i < n ? (keys[i] >> shift) & mask : 0xffffffffu;
  }
#pragma unroll
  for (int u = 0; u < AR_SORT_ITEMS; u++) {
    const u32 d0 = __shfl_sync(0xffffffffu, d[u], 0);
    if (__all_sync(0xffffffffu, d[u] == d0)) {
      if (lane == 0 && d0 != 0xffffffffu) atomicAdd(&ar_h[warp][d0], 32u);
    } else if (d[u] != 0xffffffffu) {
      atomicAdd(&ar_h[warp][d[u]], 1u);
    }
  }
  __syncthreads();
  u32 sum = 0;
#pragma unroll
  for (int w = 0; w < AR_SORT_WARPS; w++) sum += ar_h[w][threadIdx.x];
  counts[(i64)threadIdx.x * tiles + blockIdx.x] = sum;
}

// ar_block_exclusive returns the exclusive prefix sum of x over the block's
// threads (AR_SORT_BLOCK of them) and sets *total to the block's sum.
AR_D u32 ar_block_exclusive(u32 x, u32 *total) {
  __shared__ u32 ar_ws[AR_SORT_WARPS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  u32 inc = x;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const u32 y = __shfl_up_sync(0xffffffffu, inc, d);
    if (lane >= d) inc += y;
  }
  if (lane == 31) ar_ws[warp] = inc;
  __syncthreads();
  u32 before = 0, all = 0;
#pragma unroll
  for (int w = 0; w < AR_SORT_WARPS; w++) {
    const u32 s = ar_ws[w];
    before += w < warp ? s : 0u;
    all += s;
  }
  __syncthreads();
  *total = all;
  return before + inc - x;
}

// ar_sort_scan_chunks scans chunk blockIdx.x (AR_SORT_TILE counts) in place,
// exclusively, and stores its total in totals[blockIdx.x].
extern "C" __global__ void __launch_bounds__(AR_SORT_BLOCK)
ar_sort_scan_chunks(u32 *__restrict__ counts, const i64 len, u32 *__restrict__ totals) {
  const i64 base = (i64)blockIdx.x * AR_SORT_TILE + (i64)threadIdx.x * AR_SORT_ITEMS;
  u32 v[AR_SORT_ITEMS];
  u32 sum = 0;
#pragma unroll
  for (int u = 0; u < AR_SORT_ITEMS; u++) {
    v[u] = base + u < len ? counts[base + u] : 0u;
    sum += v[u];
  }
  u32 total;
  u32 run = ar_block_exclusive(sum, &total);
#pragma unroll
  for (int u = 0; u < AR_SORT_ITEMS; u++) {
    if (base + u < len) counts[base + u] = run;
    run += v[u];
  }
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// ar_sort_scan_totals scans the chunk totals exclusively, in place, with one
// block walking them AR_SORT_BLOCK at a time.
extern "C" __global__ void __launch_bounds__(AR_SORT_BLOCK)
ar_sort_scan_totals(u32 *__restrict__ totals, const i64 chunks) {
  u32 carry = 0;
  for (i64 b = 0; b < chunks; b += AR_SORT_BLOCK) {
    const i64 i = b + threadIdx.x;
    const u32 x = i < chunks ? totals[i] : 0u;
    u32 total;
    const u32 ex = ar_block_exclusive(x, &total);
    if (i < chunks) totals[i] = carry + ex;
    carry += total;
  }
}

extern "C" __global__ void __launch_bounds__(AR_SORT_BLOCK)
ar_sort_scatter(const u32 *__restrict__ kin, const u32 *__restrict__ vin, u32 *__restrict__ kout,
                u32 *__restrict__ vout, const i64 n, const int shift, const int dbits,
                const u32 *__restrict__ counts, const u32 *__restrict__ totals, const i64 tiles) {
  __shared__ u32 ar_sk[AR_SORT_TILE];
  __shared__ u32 ar_sv[AR_SORT_TILE];
  __shared__ u32 ar_wh[AR_SORT_WARPS][AR_RADIX]; // per warp and digit: count, then offset
  __shared__ u32 ar_start[AR_RADIX];             // the digit's first place in the tile
  __shared__ u32 ar_goff[AR_RADIX];              // output place of the tile's digit run, minus ar_start
  const u32 mask = (1u << dbits) - 1u;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const i64 base = (i64)blockIdx.x * AR_SORT_TILE;
  const int count = (int)min((i64)AR_SORT_TILE, n - base);
#pragma unroll
  for (int w = 0; w < AR_SORT_WARPS; w++) ar_wh[w][threadIdx.x] = 0;
  __syncthreads();
  u32 k[AR_SORT_ITEMS], v[AR_SORT_ITEMS], rank[AR_SORT_ITEMS];
  const unsigned below = (1u << lane) - 1u;
  // All the thread's loads first, so that they are in flight together (the
  // ranking loop's warp barriers would keep the compiler from hoisting them).
#pragma unroll
  for (int u = 0; u < AR_SORT_ITEMS; u++) {
    const int t = warp * 32 * AR_SORT_ITEMS + u * 32 + lane; // place in the tile
    const bool ok = t < count;
    k[u] = ok ? kin[base + t] : 0u;
    v[u] = ok ? (vin ? vin[base + t] : (u32)(base + t)) : 0u;
  }
#pragma unroll
  for (int u = 0; u < AR_SORT_ITEMS; u++) {
    const int t = warp * 32 * AR_SORT_ITEMS + u * 32 + lane;
    const bool ok = t < count;
    const u32 d = ok ? (k[u] >> shift) & mask : 0xffffffffu;
    const unsigned peers = ar_digit_peers(d, dbits, ok);
    const u32 seen = ok ? ar_wh[warp][d] : 0u;
    __syncwarp();
    rank[u] = seen + __popc(peers & below);
    if (ok && lane == __ffs(peers) - 1) ar_wh[warp][d] = seen + __popc(peers);
    __syncwarp();
  }
  __syncthreads();
  {
    // Thread d: the counts of digit d over the warps become offsets, the
    // digit totals are scanned over the digits, and the output place of
    // the tile's run of digit d comes from the scanned global counts.
    const int d = threadIdx.x;
    u32 sum = 0;
#pragma unroll
    for (int w = 0; w < AR_SORT_WARPS; w++) {
      const u32 c = ar_wh[w][d];
      ar_wh[w][d] = sum;
      sum += c;
    }
    u32 total;
    const u32 start = ar_block_exclusive(sum, &total);
    ar_start[d] = start;
    const i64 at = (i64)d * tiles + blockIdx.x;
    ar_goff[d] = counts[at] + totals[at / AR_SORT_TILE] - start;
  }
  __syncthreads();
#pragma unroll
  for (int u = 0; u < AR_SORT_ITEMS; u++) {
    const int t = warp * 32 * AR_SORT_ITEMS + u * 32 + lane;
    if (t < count) {
      const u32 d = (k[u] >> shift) & mask;
      const u32 at = ar_start[d] + ar_wh[warp][d] + rank[u];
      ar_sk[at] = k[u];
      ar_sv[at] = v[u];
    }
  }
  __syncthreads();
  for (int t = threadIdx.x; t < count; t += AR_SORT_BLOCK) {
    const u32 key = ar_sk[t];
    const i64 at = (i64)ar_goff[(key >> shift) & mask] + t;
    kout[at] = key;
    vout[at] = ar_sv[t];
  }
}
