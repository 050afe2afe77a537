{{/* map: one thread per element, grid-stride loop; any number of inputs and outputs. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
  const i64 ar_stride = (i64)gridDim.x * {{.Block}};
  for (i64 ar_i = (i64)blockIdx.x * {{.Block}} + threadIdx.x; ar_i < ar_n; ar_i += ar_stride) {
{{.Load "ar_i" "ar_i" "" 4}}
{{.Apply "ar_i" "ar_i" "" "" 4}}
  }
}
