{{/* 1-D tiling of invariant inputs (eval/gpu/tile.go): a map whose body
     folds over arrays every thread reads whole (the n-body shape). A block
     takes {{.Block}}/ar_parts outer elements ("bodies"); the ar_parts
     threads of a body fold contiguous parts of the inner dimension, so that
     a few bodies still fill the machine. The block stages {{.Tile}} elements
     of each invariant array a step through shared memory ({{.Tile}}/ar_parts
     of each part), so each is read from device memory once per block
     instead of once per thread. Each part folds in ascending order and the
     parts combine in order, so any associative operator is exact. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
{{.Shared}}
  const int ar_bodies = {{.Block}} / (int)ar_parts;
  const int ar_q = threadIdx.x / ar_bodies; // this thread's part of the inner dimension
  const int ar_b = threadIdx.x % ar_bodies; // its body in the block
  const int ar_step = {{.Tile}} / (int)ar_parts;
  for (i64 ar_base = (i64)blockIdx.x * ar_bodies; ar_base < ar_n; ar_base += (i64)gridDim.x * ar_bodies) {
    // Threads past the end compute element n-1 again (real data: no
    // spurious checks) and store nothing; all of them take part in the
    // block's loads and barriers.
    const bool ar_live = ar_base + ar_b < ar_n;
    const i64 ar_i = ar_live ? ar_base + ar_b : ar_n - 1;
{{.Body}}
    if (ar_live && ar_q == 0) {
{{.Store}}
    }
  }
}
