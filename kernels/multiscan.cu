{{/* multiscan (arepl's extension): the inclusive scan of an associative
     operator within each label class. Three kernels over ar_c chunks of
     ar_chunk consecutive elements, with state ar_st (one accumulator per
     label and chunk, label-major so a label's chunks are contiguous):
       _agg:  each chunk's per-label aggregate, in element order, a warp
              per chunk (WarpStep: 32 consecutive elements at a time, loads
              coalesced, lanes with equal labels combined in lane order);
       _scan: one block per label turns that label's chunk aggregates into
              exclusive prefixes (the operator need not commute, so order is
              kept throughout);
       _out:  each chunk walks its elements again from those prefixes and
              writes every element's inclusive per-label prefix (a warp
              per chunk too).
     _aggs and _outs walk a chunk with one thread, its accumulators in
     shared memory (the host picks them when the block's k columns fit):
     with many labels the state allows few chunks, and a thread per chunk
     left the GPU nearly idle (65536 labels: 0.4 Gelem/s, slower than the
     CPU interpreter).
     A label outside 0..ar_k-1 fails the check the CPU interpreter makes. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_agg({{.Params false}}) {
  const i64 ar_c0 = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) >> 5; // the warp's chunk
  const int ar_lane = threadIdx.x & 31;
  if (ar_c0 >= ar_c) return;
  for (i64 ar_l = ar_lane; ar_l < ar_k; ar_l += 32) {
{{.StoreNeutral "ar_st" "ar_l * ar_c + ar_c0"}}
  }
  __syncwarp();
  const i64 ar_lo = ar_c0 * ar_chunk;
  const i64 ar_hi = min_i64(ar_n, ar_lo + ar_chunk);
  for (i64 ar_b = ar_lo; ar_b < ar_hi; ar_b += 32) {
{{.WarpStep false}}
    __syncwarp();
  }
}

extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_scan({{.Params false}}) {
{{.ScanShared}}
  const i64 ar_l = blockIdx.x;
  const i64 ar_per = (ar_c + {{.Block}} - 1) / {{.Block}};
  const i64 ar_lo = ar_l * ar_c + min_i64(ar_c, (i64)threadIdx.x * ar_per);
  const i64 ar_hi = ar_l * ar_c + min_i64(ar_c, ((i64)threadIdx.x + 1) * ar_per);
{{.BlockExclusive}}
}

extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_out({{.Params false}}) {
  const i64 ar_c0 = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) >> 5; // the warp's chunk
  const int ar_lane = threadIdx.x & 31;
  if (ar_c0 >= ar_c) return;
  const i64 ar_lo = ar_c0 * ar_chunk;
  const i64 ar_hi = min_i64(ar_n, ar_lo + ar_chunk);
  for (i64 ar_b = ar_lo; ar_b < ar_hi; ar_b += 32) {
{{.WarpStep true}}
    __syncwarp();
  }
}

extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_aggs({{.Params false}}) {
{{.SmemState}}  const i64 ar_c0 = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
  if (ar_c0 >= ar_c) return;
  for (i64 ar_l = 0; ar_l < ar_k; ar_l++) {
{{.StoreNeutral "ar_ss" (printf "ar_l * %d + threadIdx.x" .Block)}}  }
  const i64 ar_lo = ar_c0 * ar_chunk;
  const i64 ar_hi = min_i64(ar_n, ar_lo + ar_chunk);
  for (i64 ar_i = ar_lo; ar_i < ar_hi; ar_i++) {
{{.Step false true}}  }
  for (i64 ar_l = 0; ar_l < ar_k; ar_l++) {
{{.MoveState true}}  }
}

extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_outs({{.Params false}}) {
{{.SmemState}}  const i64 ar_c0 = (i64)blockIdx.x * {{.Block}} + threadIdx.x;
  if (ar_c0 >= ar_c) return;
  for (i64 ar_l = 0; ar_l < ar_k; ar_l++) {
{{.MoveState false}}  }
  const i64 ar_lo = ar_c0 * ar_chunk;
  const i64 ar_hi = min_i64(ar_n, ar_lo + ar_chunk);
  for (i64 ar_i = ar_lo; ar_i < ar_hi; ar_i++) {
{{.Step true true}}  }
}

{{/* The sort-based multiscan (thesis §5.5, Algorithm 5.3): _skeys checks
     every label and stores it as a sort key, the host sorts the keys
     stably into the permutation ar_perm (sort.cu), and a segmented scan
     over the sorted order, in ar_c chunks of ar_chunk elements (a warp per
     chunk, 32 at a time: lanes whose key differs from the one before start
     a segment, a Hillis-Steele scan over the lanes keeps the order), writes
     each result back to its element's place. _sagg stores each chunk's
     last segment's aggregate in ar_st and whether that segment starts in
     the chunk in ar_flag; _sscan turns those into every chunk's carry (a
     segmented exclusive scan over the chunks, one block); _sout walks the
     chunks again from their carries. The chunks' work does not depend on
     the number of labels. */ -}}
extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_skeys({{.Params false}}, u32 *__restrict__ ar_skey) {
  const i64 ar_stride = (i64)gridDim.x * {{.Block}};
  for (i64 ar_i = (i64)blockIdx.x * {{.Block}} + threadIdx.x; ar_i < ar_n; ar_i += ar_stride) {
    i64 ar_l = (i64)ar_lab[ar_i];
    if (ar_l < 0 || ar_l >= ar_k) {
      ar_fail(ar_err, {{.LabelSite}});
      ar_l = 0;
    }
    ar_skey[ar_i] = (u32)ar_l;
  }
}

extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_sagg({{.Params false}}, const u32 *__restrict__ ar_skey, const u32 *__restrict__ ar_perm, u32 *__restrict__ ar_flag) {
  const i64 ar_c0 = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) >> 5; // the warp's chunk
  const int ar_lane = threadIdx.x & 31;
  if (ar_c0 >= ar_c) return;
  const i64 ar_lo = ar_c0 * ar_chunk;
  const i64 ar_hi = min_i64(ar_n, ar_lo + ar_chunk);
{{.SegStart false}}
  for (i64 ar_b = ar_lo; ar_b < ar_hi; ar_b += 32) {
{{.SegBatch false}}
  }
  if (ar_lane == 0) {
{{.SegSave}}  }
}

extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_sscan({{.Params false}}, const u32 *__restrict__ ar_flag) {
{{.ScanShared}}  __shared__ bool ar_smf[{{.Block}}];
  const i64 ar_per = (ar_c + {{.Block}} - 1) / {{.Block}};
  const i64 ar_lo = min_i64(ar_c, (i64)threadIdx.x * ar_per);
  const i64 ar_hi = min_i64(ar_c, ((i64)threadIdx.x + 1) * ar_per);
{{.SegBlockExclusive}}
}

extern "C" __global__ void __launch_bounds__({{.Block}})
{{.Name}}_sout({{.Params false}}, const u32 *__restrict__ ar_skey, const u32 *__restrict__ ar_perm, u32 *__restrict__ ar_flag) {
  const i64 ar_c0 = ((i64)blockIdx.x * {{.Block}} + threadIdx.x) >> 5; // the warp's chunk
  const int ar_lane = threadIdx.x & 31;
  if (ar_c0 >= ar_c) return;
  const i64 ar_lo = ar_c0 * ar_chunk;
  const i64 ar_hi = min_i64(ar_n, ar_lo + ar_chunk);
{{.SegStart true}}
  for (i64 ar_b = ar_lo; ar_b < ar_hi; ar_b += 32) {
{{.SegBatch true}}
  }
}
