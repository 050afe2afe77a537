{{/* Histogram (reduce_by_index / hist) kernels, thesis ch. 4. Both walk
     the elements in a grid-stride loop whose trip count is the same for
     every lane of a warp (the base is a multiple of the block), so warp
     collectives are safe; the fused map computes, per element, every op's
     bucket index and values. Out-of-range indices are ignored.

     hist_shared: ar_m (a power of two, at most 32) sub-histograms per block
     in dynamic shared memory, interleaved so that bucket b of copy c is at
     b*ar_m + c and lane l uses copy l % ar_m: with ar_m = 32 every lane has
     its own bank and equal keys in a warp never collide. Updates are
     shared-memory atomics (native or CAS); at the end the copies are
     combined per bucket and merged into the result with one global update
     per bucket and block.

     hist_global: updates go straight to the result in global memory (large
     bucket counts). Lanes of a warp holding the same bucket are first
     combined by a tree over their ranks (__match_any_sync), so skewed data
     costs one update per warp instead of 32 colliding ones. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_global({{.Params false}}) {
  const i64 ar_stride = (i64)gridDim.x * {{.Block}};
  for (i64 ar_base = (i64)blockIdx.x * {{.Block}}; ar_base < ar_n; ar_base += ar_stride) {
    const i64 ar_i = ar_base + threadIdx.x;
    const bool ar_live = ar_i < ar_n;
{{.MapPhase}}
{{.GlobalUpdates}}
  }
}
{{if .SharedOK}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_shared({{.Params true}}) {
  extern __shared__ __align__(8) unsigned char ar_sh[];
{{.SharedInit}}
  __syncthreads();
  const int ar_cp = (threadIdx.x & 31) & (ar_m - 1);
  const i64 ar_stride = (i64)gridDim.x * {{.Block}};
  for (i64 ar_base = (i64)blockIdx.x * {{.Block}}; ar_base < ar_n; ar_base += ar_stride) {
    const i64 ar_i = ar_base + threadIdx.x;
    const bool ar_live = ar_i < ar_n;
{{.MapPhase}}
{{.SharedUpdates}}
  }
  __syncthreads();
{{.SharedMerge}}
}
{{end}}
