{{/* redomap with a commutative operator: each thread folds a strided
     (coalesced) share of all elements, {{.Unroll}} loads in flight; the block
     folds its threads in order; the last block to finish (atomic ticket)
     folds the block partials and writes the result, then resets the ticket
     so the next launch needs no memset. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
{{.Decl "ar_acc" 2}}
  const i64 ar_stride = (i64)gridDim.x * {{.Block}};
  i64 ar_i = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
  for (; ar_i + {{.UnrollM1}} * ar_stride < ar_n; ar_i += {{.Unroll}} * ar_stride) {
{{- range $u := .UnrollRange}}
{{$.Load (printf "ar_i + %d * ar_stride" $u) (printf "ar_i + %d * ar_stride" $u) (printf "u%d" $u) 4}}
{{- end}}
{{- range $u := .UnrollRange}}
{{$.Apply (printf "ar_i + %d * ar_stride" $u) (printf "ar_i + %d * ar_stride" $u) (printf "u%d" $u) "ar_acc" 4}}
{{- end}}
  }
  for (; ar_i < ar_n; ar_i += ar_stride) {
{{.Load "ar_i" "ar_i" "" 4}}
{{.Apply "ar_i" "ar_i" "" "ar_acc" 4}}
  }
{{.BlockReduce "ar_acc" 2}}
{{.Finish "ar_acc" 2}}
}
