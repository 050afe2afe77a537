{{/* Histogram (reduce_by_index / hist) kernels, thesis ch. 4. Both are
     persistent blocks walking the elements in a grid-stride loop of
     Tile elements per block and step: each thread first reads its Per
     elements of every input with 16-byte loads, then maps and updates them
     one by one (HistStep). (Starting the next tile's loads before the
     current tile's updates measured slower: 368 against 397 Gelem/s for
     the f32 add into 256 buckets, bench/RESULTS.md.) The step's bounds are the same for every lane
     of a block, so warp collectives are safe, and a step wholly in range
     (all but the last) runs a copy of the code without bounds checks; the
     fused map computes, per element, every op's bucket index and values. Each launch
     covers a window of buckets per op (ar_lo, ar_hc): the host makes
     several passes when the buckets do not fit at once; indices outside
     the window, out-of-range ones included, are skipped.

     hist_shared: ar_m (a power of two, at most 32) sub-histograms of the
     window per block in dynamic shared memory, interleaved so that bucket b
     of copy c is at b*ar_m + c and lane l uses copy l % ar_m: with ar_m = 32
     every lane has its own bank and equal keys in a warp never collide.
     Updates are shared-memory atomics (native or CAS); at the end the copies
     are combined per bucket and merged into the result with one global
     update per bucket and block.

     hist_global: updates go straight to the result in global memory, after
     the per-thread runs and warp aggregation the package comment
     describes. */ -}}
extern "C" __global__ void __launch_bounds__({{.Bounds}})
{{.Name}}_global({{.Params false}}) {
{{.VecFlags}}  const int ar_lane = threadIdx.x & 31;
  const i64 ar_stride = (i64)gridDim.x * {{.Tile}};
  for (i64 ar_b0 = (i64)blockIdx.x * {{.Tile}}; ar_b0 < ar_n; ar_b0 += ar_stride) {
    if (ar_b0 + {{.Tile}} <= ar_n) {
{{.HistStep false true}}    } else {
{{.HistStep false false}}    }
  }
}
{{if .SharedOK}}
extern "C" __global__ void __launch_bounds__({{.Bounds}})
{{.Name}}_shared({{.Params true}}) {
  extern __shared__ __align__(8) unsigned char ar_sh[];
{{.SharedInit}}  __syncthreads();
{{.VecFlags}}  const int ar_lane = threadIdx.x & 31;
  const int ar_cp = ar_lane & (ar_m - 1);
  const i64 ar_stride = (i64)gridDim.x * {{.Tile}};
  for (i64 ar_b0 = (i64)blockIdx.x * {{.Tile}}; ar_b0 < ar_n; ar_b0 += ar_stride) {
    if (ar_b0 + {{.Tile}} <= ar_n) {
{{.HistStep true true}}    } else {
{{.HistStep true false}}    }
  }
  __syncthreads();
{{.SharedMerge}}}
{{end}}
{{if .Sortable}}
{{/* The sort-based path (thesis §4.4) for histograms far beyond the caches:
     _keys maps every element and stores its bucket's place in the window
     (the window's size past it: skipped later), the host sorts those keys
     (sort.cu) into the permutation ar_perm, and _sorted runs the global
     kernel's updates over the elements in that order. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_keys({{.Params false}}, u32 *__restrict__ ar_skey) {
  const i64 ar_stride = (i64)gridDim.x * {{.Block}};
  for (i64 ar_i = (i64)blockIdx.x * {{.Block}} + threadIdx.x; ar_i < ar_n; ar_i += ar_stride) {
    const bool ar_live = true;
{{.KeysPhase}}  }
}

extern "C" __global__ void __launch_bounds__({{.Bounds}})
{{.Name}}_sorted({{.Params false}}, const u32 *__restrict__ ar_perm) {
  const bool ar_vecp = ar_vec_ok(ar_perm);
  const int ar_lane = threadIdx.x & 31;
  const i64 ar_stride = (i64)gridDim.x * {{.Tile}};
  for (i64 ar_b0 = (i64)blockIdx.x * {{.Tile}}; ar_b0 < ar_n; ar_b0 += ar_stride) {
    if (ar_b0 + {{.Tile}} <= ar_n) {
{{.SortedStep true}}    } else {
{{.SortedStep false}}    }
  }
}
{{end}}
