{{/* segmented reduction over columns: map (reduce ...) (transpose a) for a
     row-major a of ar_w rows and ar_segs columns, read in place (the
     transpose is never materialised). A thread per column walks down the
     rows, so neighbouring threads read neighbouring addresses; {{.ColU}}
     rows are loaded before they are folded, for loads in flight. The rows
     are cut into gridDim.y pieces of ar_chunk (blockIdx.y picks the piece)
     when the columns are too few to fill the device; each piece's value goes
     to ar_part<k>[piece * ar_segs + column] and the last block of a column
     block to finish (a ticket per column block in ar_counter, which it
     resets) folds them in piece order, so non-commutative operators stay
     correct. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}({{.Params}}) {
  const i64 ar_s = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
  const i64 ar_lo = (i64)blockIdx.y * ar_chunk;
  const i64 ar_hi = min(ar_w, ar_lo + ar_chunk);
{{.Decl "ar_acc" 2}}
  if (ar_s < ar_segs) {
    i64 ar_j = ar_lo;
    for (; ar_j + {{.ColU}} <= ar_hi; ar_j += {{.ColU}}) {
{{.ColLoad 6}}
    }
    for (; ar_j < ar_hi; ar_j++) {
      const i64 ar_i = ar_j * ar_segs + ar_s;
{{.Load "ar_i" "ar_j" "" 6}}
{{.Apply "ar_i" "ar_j" "" "ar_acc" 6}}
    }
  }
  if (gridDim.y == 1) {
    if (ar_s < ar_segs) {
{{.StoreResult "ar_acc" "ar_s" 6}}
    }
    return;
  }
  if (ar_s < ar_segs) {
{{.StorePartial "ar_acc" "(i64)blockIdx.y * ar_segs + ar_s" 4}}
  }
  __threadfence();
  __syncthreads();
  __shared__ bool ar_last;
  if (threadIdx.x == 0) {
    ar_last = atomicAdd(&ar_counter[blockIdx.x], 1u) == gridDim.y - 1;
  }
  __syncthreads();
  if (!ar_last) {
    return;
  }
  __threadfence();
  if (ar_s < ar_segs) {
{{.Decl "ar_p" 4}}
#pragma unroll 8
    for (i64 ar_q = 0; ar_q < gridDim.y; ar_q++) {
{{.FoldPartial "ar_p" "ar_q * ar_segs + ar_s" 6}}
    }
{{.StoreResult "ar_p" "ar_s" 4}}
  }
  if (threadIdx.x == 0) {
    ar_counter[blockIdx.x] = 0;
  }
}
