{{/* scatter: one thread per element computes, through the fused map, an
     index and a value for every destination and writes the value where the
     index is in range (Futhark ignores the others; which of several writes
     to one place wins is unspecified there too). */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params false}}) {
  const i64 ar_i = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
  const bool ar_live = ar_i < ar_n;
  if (!ar_live) return;
{{.MapPhase}}
{{.ScatterWrites}}
}
