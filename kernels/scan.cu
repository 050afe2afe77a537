{{/* Single-pass scanomap (decoupled look-back, Merrill & Garland) and the
     regular segmented scan. A block takes a tile of {{.Tile}} elements whose
     number comes from an atomic ticket, so every tile's predecessors have
     started before it waits on them. Each warp owns 32 x {{.Seq}} consecutive
     elements of the tile, loaded striped (coalesced) with the map fused in
     and map-outs written at once, and transposed through the warp's own part
     of shared memory (no block barrier) so that each thread scans {{.Seq}}
     consecutive elements; the threads' aggregates are scanned per warp and
     per block (one barrier);
     warp 0 publishes the block's aggregate, looks back over windows of 32
     predecessors (backing off while one is not ready) and publishes the
     inclusive prefix; then every element gets its prefix, goes back through
     shared memory and is written striped, through the post-map if any.
     {{- if .Seg}} Segments start where the index is a multiple of ar_w: the
     accumulator carries a "segment started" flag, the operator restarts at a
     flag, and the look-back stops at the first predecessor whose value has
     one.{{end}} With .Trace (`:trace`), thread 0 stamps the time at every
     phase boundary (AR_TRACE_MARK, kernels/scan_prelude.cu). */ -}}
extern "C" __global__ void __launch_bounds__({{.LaunchBounds}})
{{.Name}}({{.Params}}) {
{{.SharedDecl}}
  __shared__ unsigned int ar_tile_s;
{{- if .Trace}}
  AR_TRACE_START();
{{- end}}
  if (threadIdx.x == 0) ar_tile_s = atomicAdd(ar_ticket, 1u);
  __syncthreads();
  const i64 ar_tile = ar_tile_s;
{{- if .Trace}}
  AR_TRACE_MARK(1);
{{- end}}
{{.TileBase}}
  const int ar_lane = threadIdx.x & 31, ar_warp = threadIdx.x >> 5;
{{.LoadPhase}}
  __syncwarp();
{{- if .Trace}}
  AR_TRACE_MARK(2);
{{- end}}
{{.ThreadScan}}
{{- if .Trace}}
  AR_TRACE_MARK(3);
{{- end}}
{{.BlockScan}}
{{- if .Trace}}
  AR_TRACE_MARK(4);
{{- end}}
{{.LookBack}}
{{- if .Trace}}
  AR_TRACE_MARK(5);
{{- end}}
{{.Finish}}
  __syncwarp();
{{- if .Trace}}
  AR_TRACE_MARK(6);
{{- end}}
{{.StorePhase}}
{{- if .Trace}}
  AR_TRACE_END();
{{- end}}
}
