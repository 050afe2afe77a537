{{/* segmented reduction of short rows, coalesced (issue 15; the redomap
     seed's §4: a sequentialised inner reduction reads memory coalesced by
     staging through shared memory). A block takes tiles of ar_spt whole
     rows ({{.StageElems}} elements at most): its threads read a tile's
     elements contiguously, {{.StageU}} loads each, apply the map (map-outs
     are written here, coalesced too) and store the values to reduce in
     shared memory (index ar_pad: one skew slot every 32, so that threads
     walking rows of any length spread over the banks). Then ar_sub threads
     per row (a power of two, 1 to 32) fold the rows out of shared memory,
     each a contiguous chunk, and fold their chunks in lane order:
     non-commutative operators stay correct. The loads of the block's next
     tile are issued before the fold of this one, so that they are in
     flight while it folds. Rows of one element skip the tile (StageMap). */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
{{.StageDecl 2}}
  const i64 ar_tiles = (ar_segs + ar_spt - 1) / ar_spt;
  const int ar_sw = (int)ar_w;
  const int ar_per = {{.Block}} / (int)ar_sub;
  const int ar_lane = threadIdx.x % (int)ar_sub;
  const int ar_c = (ar_sw + (int)ar_sub - 1) / (int)ar_sub;
  i64 ar_t = blockIdx.x;
  {
    const int ar_ncount = ar_t < ar_tiles ? (int)min(ar_spt, ar_segs - ar_t * ar_spt) * ar_sw : 0;
    const i64 ar_nbase = ar_t * ar_spt * ar_w;
{{.StagePrefetch 4}}
  }
  for (; ar_t < ar_tiles; ar_t += gridDim.x) {
    const i64 ar_s0 = ar_t * ar_spt;
    const int ar_ns = (int)min(ar_spt, ar_segs - ar_s0);
    const int ar_count = ar_ns * ar_sw;
    const i64 ar_base = ar_s0 * ar_w;
{{.StageMap 4}}
    __syncthreads();
    {
      const i64 ar_tn = ar_t + gridDim.x;
      const int ar_ncount = ar_tn < ar_tiles ? (int)min(ar_spt, ar_segs - ar_tn * ar_spt) * ar_sw : 0;
      const i64 ar_nbase = ar_tn * ar_spt * ar_w;
{{.StagePrefetch 6}}
    }
    for (int ar_p = 0; ar_sw > 1 && ar_p < ar_ns; ar_p += ar_per) {
      const int ar_q = ar_p + (int)threadIdx.x / (int)ar_sub;
{{.Decl "ar_acc" 6}}
      if (ar_q < ar_ns) {
        const int ar_lo = ar_q * ar_sw + min(ar_sw, ar_lane * ar_c);
        const int ar_hi = ar_q * ar_sw + min(ar_sw, (ar_lane + 1) * ar_c);
        for (int ar_e = ar_lo; ar_e < ar_hi; ar_e++) {
{{.FoldFrom "ar_acc" "ar_tile" "ar_pad(ar_e)" 10}}
        }
      }
      for (int ar_off = 1; ar_off < (int)ar_sub; ar_off <<= 1) {
{{.SubShuffle "ar_acc" 8}}
      }
      if (ar_lane == 0 && ar_q < ar_ns) {
{{.StoreResult "ar_acc" "ar_s0 + ar_q" 8}}
      }
    }
    __syncthreads();
  }
}
