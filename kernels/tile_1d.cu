{{/* 1-D tiling of invariant inputs (eval/gpu/tile.go): a map whose body
     folds over arrays every thread reads whole (the n-body shape). A thread
     per outer element; the block stages {{.Tile}} elements of each invariant
     array at a time through shared memory, so each is read from device
     memory once per block instead of once per thread. The fold keeps the
     inner order (j ascending), so any associative operator is exact. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
{{.Shared}}
  for (i64 ar_base = (i64)blockIdx.x * {{.Block}}; ar_base < ar_n; ar_base += (i64)gridDim.x * {{.Block}}) {
    // Threads past the end compute element n-1 again (real data: no
    // spurious checks) and store nothing; all of them take part in the
    // block's loads and barriers.
    const bool ar_live = ar_base + threadIdx.x < ar_n;
    const i64 ar_i = ar_live ? ar_base + threadIdx.x : ar_n - 1;
{{.Body}}
    if (ar_live) {
{{.Store}}
    }
  }
}
