{{/* redomap with a non-commutative operator (order kept): block b folds a
     contiguous range of tiles of {{.Block}} x {{.Seq}} elements. Each tile is
     loaded striped (coalesced) with the map applied and map-outs written,
     transposed through shared memory so that thread t folds elements
     t*{{.Seq}} .. t*{{.Seq}}+{{.Seq}}-1 in order, then the threads' values are
     folded in thread order. Block partials are folded in block order by the
     last block. Elements past the end are the neutral element. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
{{.TileDecl}}
{{.Decl "ar_acc" 2}}
  const i64 ar_tiles = (ar_n + {{.Tile}} - 1) / {{.Tile}};
  const i64 ar_t0 = (i64)blockIdx.x * ar_tiles_per_block;
  const i64 ar_t1 = min(ar_t0 + ar_tiles_per_block, ar_tiles);
  for (i64 ar_t = ar_t0; ar_t < ar_t1; ar_t++) {
    const i64 ar_base = ar_t * {{.Tile}};
#pragma unroll
    for (int ar_j = 0; ar_j < {{.Seq}}; ar_j++) {
      const int ar_k = ar_j * {{.Block}} + threadIdx.x;
      const i64 ar_i = ar_base + ar_k;
      if (ar_i < ar_n) {
{{.Load "ar_i" "ar_i" "" 8}}
{{.ApplyTo "ar_i" "ar_i" "" "ar_tile" "ar_pad(ar_k)" 8}}
      } else {
{{.StoreNeutral "ar_tile" "ar_pad(ar_k)" 8}}
      }
    }
    __syncthreads();
{{.Decl "ar_v" 4}}
    for (int ar_j = 0; ar_j < {{.Seq}}; ar_j++) {
{{.FoldFrom "ar_v" "ar_tile" (printf "ar_pad(threadIdx.x * %d + ar_j)" .Seq) 6}}
    }
    __syncthreads();
{{.BlockReduce "ar_v" 4}}
    if (threadIdx.x == 0) {
{{.Combine "ar_acc" "ar_v" 6}}
    }
  }
{{.Finish "ar_acc" 2}}
}
