{{/* redomap with a non-commutative operator (order kept). Every warp folds
     its own contiguous range of warp tiles (32 x {{.Seq}} elements), so no
     block-wide barrier stalls the loads: a warp tile is loaded striped
     (coalesced) with the map applied and map-outs written, transposed
     through the warp's slice of shared memory so that lane l folds elements
     l*{{.Seq}} .. l*{{.Seq}}+{{.Seq}}-1 in order, then the lanes are folded
     in lane order into lane 0. Warps' ranges follow each other inside a
     block and blocks' ranges follow each other, so the block folds its warps
     in order and the last block folds the block partials in order.
     Elements past the end are the neutral element. The tile body comes in
     two copies: every tile but the last is full and runs without bounds
     checks (they were half of the loop's instructions, and the kernel is
     bound by instruction issue, not memory); only the last runs the
     checked copy, with its loops rolled (.Unroll): it runs once a
     launch, and unrolled it was half of the module's NVRTC time (the
     ordered redomap's cold compile, bench/RESULTS.md, "Interactive
     latency"). */ -}}
{{define "ordered_tile" -}}
{{- if .TransposeIn}}
      // The inputs are narrower than the accumulator: transpose the inputs
      // and apply the map after, in the lane's own order.
{{.Unroll}}
      for (int ar_j = 0; ar_j < {{.Seq}}; ar_j++) {
        const int ar_k = ar_j * 32 + ar_lane;
        const i64 ar_i = ar_base + ar_k;
        {{if .Checked}}if (ar_i < ar_n) {{end}}{
{{.StoreIn "ar_i" (printf "ar_wbase + %s(ar_k)" .Pad) 10}}
        }
      }
      __syncwarp();
{{.FoldUnroll}}
      for (int ar_j = 0; ar_j < {{.Seq}}; ar_j++) {
        const i64 ar_i = ar_base + ar_lane * {{.Seq}} + ar_j;
        {{if .Checked}}if (ar_i < ar_n) {{end}}{
{{.LoadIn (printf "ar_wbase + %s(ar_lane * %d + ar_j)" .Pad .Seq) 10}}
{{.Apply "ar_i" "ar_i" "" "ar_v" 10}}
        }
      }
{{- else}}
{{.Unroll}}
      for (int ar_j = 0; ar_j < {{.Seq}}; ar_j++) {
        const int ar_k = ar_j * 32 + ar_lane;
        const i64 ar_i = ar_base + ar_k;
        {{if .Checked}}if (ar_i < ar_n) {{end}}{
{{.Load "ar_i" "ar_i" "" 10}}
{{.ApplyTo "ar_i" "ar_i" "" "ar_tile" (printf "ar_wbase + %s(ar_k)" .Pad) 10}}
        }{{if .Checked}} else {
{{.StoreNeutral "ar_tile" (printf "ar_wbase + %s(ar_k)" .Pad) 10}}
        }{{end}}
      }
      __syncwarp();
{{.FoldUnroll}}
      for (int ar_j = 0; ar_j < {{.Seq}}; ar_j++) {
{{.FoldFrom "ar_v" "ar_tile" (printf "ar_wbase + %s(ar_lane * %d + ar_j)" .Pad .Seq) 8}}
      }
{{- end}}
{{- end -}}
extern "C" __global__ void __launch_bounds__({{.OrderedBounds}})
{{.Name}}({{.Params}}) {
{{.TileDecl}}
  const int ar_lane = threadIdx.x & 31;
  const int ar_wbase = (threadIdx.x >> 5) * {{.TileStride}};
{{.Decl "ar_acc" 2}}
  const i64 ar_tiles = (ar_n + {{.Tile}} - 1) / {{.Tile}};
  const i64 ar_full = ar_n / {{.Tile}}; // tiles with no element missing
  const i64 ar_gw = (i64)blockIdx.x * {{.Warps}} + (threadIdx.x >> 5);
  const i64 ar_t0 = ar_gw * ar_tiles_per_warp;
  const i64 ar_t1 = min(ar_t0 + ar_tiles_per_warp, ar_tiles);
  for (i64 ar_t = ar_t0; ar_t < ar_t1; ar_t++) {
    const i64 ar_base = ar_t * {{.Tile}};
{{.Decl "ar_v" 4}}
    if (ar_t < ar_full) {
{{- template "ordered_tile" .TileBody false}}
    } else {
{{- template "ordered_tile" .TileBody true}}
    }
    __syncwarp();
{{.WarpReduce "ar_v" 4}}
    if (ar_lane == 0) {
{{.Combine "ar_acc" "ar_v" 6}}
    }
  }
{{.BlockReduce "ar_acc" 2}}
{{.Finish "ar_acc" 2}}
}
