{{/* segmented reduction (map (reduce ...) over rows): {{.Group}} thread(s)
     per row of ar_w elements{{if .Pieces}}, or per piece of a row: a row is
     cut into ar_parts pieces of ar_chunk elements when the rows are too few
     to fill the device, so that several blocks share a row{{end}}. A
     commutative operator folds strided elements, a non-commutative one
     contiguous chunks; the group then folds its threads in order.{{if .Pieces}}
     Each piece's value goes to ar_part<k>[row * ar_parts + piece] and the
     last block of a row to finish (a ticket per row in ar_counter, which it
     resets) folds them in piece order, so non-commutative operators stay
     correct.{{end}} */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
  const int ar_g = threadIdx.x % {{.Group}};
  const i64 ar_groups = (i64)gridDim.x * ({{.Block}} / {{.Group}});
{{- if .Pieces}}
  const i64 ar_pieces = ar_segs * ar_parts;
  for (i64 ar_v = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) / {{.Group}}; ar_v < ar_pieces; ar_v += ar_groups) {
    const i64 ar_s = ar_v / ar_parts;
    const i64 ar_lo = (ar_v - ar_s * ar_parts) * ar_chunk;
    const i64 ar_hi = min(ar_w, ar_lo + ar_chunk);
{{- else}}
  for (i64 ar_s = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) / {{.Group}}; ar_s < ar_segs; ar_s += ar_groups) {
    const i64 ar_lo = 0;
    const i64 ar_hi = ar_w;
{{- end}}
{{.Decl "ar_acc" 4}}
{{- if .Comm}}
    for (i64 ar_j = ar_lo + ar_g; ar_j < ar_hi; ar_j += {{.Group}}) {
{{- else}}
    const i64 ar_c = (ar_hi - ar_lo + {{.Group}} - 1) / {{.Group}};
    const i64 ar_end = min(ar_hi, ar_lo + (ar_g + 1) * ar_c);
    for (i64 ar_j = ar_lo + ar_g * ar_c; ar_j < ar_end; ar_j++) {
{{- end}}
      const i64 ar_i = ar_s * ar_w + ar_j;
{{.Load "ar_i" "ar_j" "" 6}}
{{.Apply "ar_i" "ar_j" "" "ar_acc" 6}}
    }
{{- if eq .Group 32}}
{{.WarpReduce "ar_acc" 4}}
{{- else if gt .Group 32}}
{{.BlockReduce "ar_acc" 4}}
{{- end}}
{{- if .Pieces}}
    // The block's value is thread 0's; the row's last block to finish
    // folds the row's pieces, each thread a contiguous run of them, then
    // the block in thread order.
    __shared__ bool ar_last;
    if (threadIdx.x == 0) {
{{.StorePartial "ar_acc" "ar_v" 6}}
      __threadfence();
      ar_last = atomicAdd(&ar_counter[ar_s], 1u) == (unsigned int)ar_parts - 1;
    }
    __syncthreads();
    if (ar_last) {
      __threadfence();
{{.Decl "ar_p" 6}}
      const i64 ar_pc = (ar_parts + {{.Block}} - 1) / {{.Block}};
      const i64 ar_pe = min(ar_parts, (i64)(threadIdx.x + 1) * ar_pc);
      for (i64 ar_q = (i64)threadIdx.x * ar_pc; ar_q < ar_pe; ar_q++) {
{{.FoldPartial "ar_p" "ar_s * ar_parts + ar_q" 8}}
      }
{{.BlockReduce "ar_p" 6}}
      if (threadIdx.x == 0) {
{{.StoreResult "ar_p" "ar_s" 8}}
        ar_counter[ar_s] = 0;
      }
    }
    __syncthreads();
{{- else}}
    if (ar_g == 0) {
{{.StoreResult "ar_acc" "ar_s" 6}}
    }
{{- end}}
  }
}
