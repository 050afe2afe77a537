{{/* segmented reduction (map (reduce ...) over rows): {{.Group}} thread(s)
     per segment of ar_w elements, chosen from the row length; a commutative
     operator folds strided elements, a non-commutative one contiguous
     chunks; the group then folds its threads in order. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
  const int ar_g = threadIdx.x % {{.Group}};
  const i64 ar_groups = (i64)gridDim.x * ({{.Block}} / {{.Group}});
  for (i64 ar_s = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) / {{.Group}}; ar_s < ar_segs; ar_s += ar_groups) {
{{.Decl "ar_acc" 4}}
{{- if .Comm}}
    for (i64 ar_j = ar_g; ar_j < ar_w; ar_j += {{.Group}}) {
{{- else}}
    const i64 ar_c = (ar_w + {{.Group}} - 1) / {{.Group}};
    const i64 ar_end = min(ar_w, (ar_g + 1) * ar_c);
    for (i64 ar_j = ar_g * ar_c; ar_j < ar_end; ar_j++) {
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
    if (ar_g == 0) {
{{.StoreResult "ar_acc" "ar_s" 6}}
    }
  }
}
