{{/* inclusive scan along the outer dimension of a row-major a of ar_w rows
     and ar_segs columns: `scan (map2 op) (replicate m ne) a`, a vector
     operator over rows, is the scan of each column with op. A thread per
     column walks down the rows and writes each prefix where it read the
     element, so neighbouring threads read and write neighbouring addresses
     (vecop.go). */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
  const i64 ar_s = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
  if (ar_s >= ar_segs) {
    return;
  }
{{.Decl "ar_acc" 2}}
  for (i64 ar_j = 0; ar_j < ar_w; ar_j++) {
    const i64 ar_i = ar_j * ar_segs + ar_s;
{{.Load "ar_i" "ar_j" "" 4}}
{{.Apply "ar_i" "ar_j" "" "ar_acc" 4}}
{{.StoreResult "ar_acc" "ar_i" 4}}
  }
}
