{{/* redomap with a commutative operator: each thread folds a strided
     (coalesced) share of all elements, {{.Unroll}} loads in flight; the block
     folds its threads in order; the last block to finish (atomic ticket)
     folds the block partials and writes the result, then resets the ticket
     so the next launch needs no memset. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
{{.Decl "ar_acc" 2}}
  const i64 ar_stride = (i64)gridDim.x * {{.Block}};
{{- if .Vec}}
  // Every input has 4-byte elements and starts on a 256-byte boundary:
  // 16-byte loads, two in flight per input, then the < 4 leftover elements.
  const i64 ar_nv = ar_n / 4;
  i64 ar_v = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
  for (; ar_v + ar_stride < ar_nv; ar_v += 2 * ar_stride) {
{{.LoadVec "ar_v" "a" 4}}
{{.LoadVec "ar_v + ar_stride" "b" 4}}
{{.ApplyVec "ar_v" "a" "ar_acc" 4}}
{{.ApplyVec "ar_v + ar_stride" "b" "ar_acc" 4}}
  }
  for (; ar_v < ar_nv; ar_v += ar_stride) {
{{.LoadVec "ar_v" "a" 4}}
{{.ApplyVec "ar_v" "a" "ar_acc" 4}}
  }
  i64 ar_i = ar_nv * 4 + (i64)blockIdx.x * {{.Block}} + threadIdx.x;
{{- else}}
  i64 ar_i = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
{{- end}}
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
