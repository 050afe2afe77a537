{{/* filter / partition by single-pass compaction: the scan skeleton of
     scan.cu over the i64 count of kept elements (so counts beyond 2^32
     work). The load computes each element's values (through the fused map)
     and its predicate, keeps the values in shared memory and scans 1 for a
     kept element, 0 otherwise; an element's inclusive count then gives its
     place: kept elements go to count-1 of the kept results, rejected ones
     (partition) to index-count of the rejected results, both in order. The
     thread holding the last element writes the total to ar_count. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
{{.SharedDecl}}
  __shared__ unsigned int ar_tile_s;
  if (threadIdx.x == 0) ar_tile_s = atomicAdd(ar_ticket, 1u);
  __syncthreads();
  const i64 ar_tile = ar_tile_s;
  const i64 ar_base = ar_tile * {{.Tile}};
{{.LoadPhase}}
  __syncthreads();
{{.ThreadScan}}
{{.BlockScan}}
{{.LookBack}}
{{.Finish}}
  __syncthreads();
{{.StorePhase}}
}
