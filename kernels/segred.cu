{{/* segmented reduction (map (reduce ...) over rows): {{.Group}} thread(s)
     per piece of a row. A row of ar_w elements is cut into ar_parts pieces
     of ar_chunk elements (ar_parts is 1 unless the rows are too few to fill
     the device: then several blocks share a row, and the group is the
     block). A commutative operator folds strided elements, a
     non-commutative one contiguous chunks; the group then folds its
     threads in order. With several pieces, each piece's value goes to
     ar_part<k>[row * ar_parts + piece] and the last block of a row to
     finish (a ticket per row in ar_counter, which it resets) folds them in
     piece order, so non-commutative operators stay correct. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
  const int ar_g = threadIdx.x % {{.Group}};
  const i64 ar_groups = (i64)gridDim.x * ({{.Block}} / {{.Group}});
  const i64 ar_pieces = ar_segs * ar_parts;
  for (i64 ar_v = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) / {{.Group}}; ar_v < ar_pieces; ar_v += ar_groups) {
    const i64 ar_s = ar_v / ar_parts;
    const i64 ar_lo = (ar_v - ar_s * ar_parts) * ar_chunk;
    const i64 ar_hi = min(ar_w, ar_lo + ar_chunk);
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
{{- if eq .Group .Block}}
    if (ar_parts > 1) {
      // The block's value is thread 0's; the row's last block to finish
      // folds the row's pieces, each thread a contiguous run of them, then
      // the block in thread order.
      __shared__ bool ar_last;
      if (threadIdx.x == 0) {
{{.StorePartial "ar_acc" "ar_v" 8}}
        __threadfence();
        ar_last = atomicAdd(&ar_counter[ar_s], 1u) == (unsigned int)ar_parts - 1;
      }
      __syncthreads();
      if (ar_last) {
        __threadfence();
{{.Decl "ar_p" 8}}
        const i64 ar_pc = (ar_parts + {{.Block}} - 1) / {{.Block}};
        const i64 ar_pe = min(ar_parts, (i64)(threadIdx.x + 1) * ar_pc);
        for (i64 ar_q = (i64)threadIdx.x * ar_pc; ar_q < ar_pe; ar_q++) {
{{.FoldPartial "ar_p" "ar_s * ar_parts + ar_q" 10}}
        }
{{.BlockReduce "ar_p" 8}}
        if (threadIdx.x == 0) {
{{.StoreResult "ar_p" "ar_s" 10}}
          ar_counter[ar_s] = 0;
        }
      }
      __syncthreads();
    } else if (ar_g == 0) {
{{.StoreResult "ar_acc" "ar_s" 6}}
    }
{{- else}}
    if (ar_g == 0) {
{{.StoreResult "ar_acc" "ar_s" 6}}
    }
{{- end}}
  }
}
