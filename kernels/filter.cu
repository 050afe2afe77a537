{{/* filter / partition by single-pass compaction (decoupled look-back
     paper §4.4, CUB's DeviceSelect): a tile per block in ticket order, loaded
     striped; each element's values come through the fused map and stay in
     registers with its predicate. A warp's round of 32 consecutive elements
     is one ballot: its popcount is the round's kept count and each kept
     lane's rank is the popcount of the lanes below it, so no per-element
     scan is needed. The block scans its {{.Seq}} x {{.Warps}} round counts
     (in index order: round, then warp), the tile's count goes through the
     look-back as an i64 (counts beyond 2^32 work), and every element then
     knows how many kept elements precede it in the tile: the values are
     compacted in shared memory (kept ones, then for a partition the rejected
     ones) while warp 0 looks back, and then written contiguously after the
     earlier tiles' (CUB's DeviceSelect does the same: scattered partial
     stores cost more than the shared-memory pass). The last tile writes the
     total to ar_count. */ -}}
extern "C" __global__ void __launch_bounds__({{.LaunchBounds}})
{{.Name}}({{.Params}}) {
  __shared__ int ar_wc[{{.Rounds}}];
  __shared__ int ar_ws[32];
  __shared__ i64 ar_bagg_0, ar_bpre_0;
{{.FilterShared}}
  __shared__ unsigned int ar_tile_s;
  if (threadIdx.x == 0) ar_tile_s = atomicAdd(ar_ticket, 1u);
  __syncthreads();
  const i64 ar_tile = ar_tile_s;
  const i64 ar_base = ar_tile * {{.Tile}};
  const int ar_lane = threadIdx.x & 31, ar_warp = threadIdx.x >> 5;
{{.FilterLoad}}
  __syncthreads();
{{.FilterCounts}}
{{.FilterCompact}}
{{.LookBack}}
{{.FilterStore}}
}
