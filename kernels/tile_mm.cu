{{/* 2-D block and register tiling of the matrix-product shape
     (eval/gpu/tile.go): out[i][j] = fold over k of op(acc, f(A[i][k],
     B'[j][k])) for an n x m A and a p x m B' (B' is the transpose of an
     m x p B, or a p x m array read by rows). A block computes a {{.BM}} x
     {{.BN}} tile of out with {{.Threads}} threads, each a {{.TM}} x {{.TN}}
     register tile; the k dimension goes in steps of {{.BK}} through two
     shared-memory buffers (the next step is fetched into registers while
     the current one is used: one barrier a step). k ascends in every
     thread, so f and op apply in the CPU's order; f32 products and sums
     contract to exact fp32 FMAs (no tensor cores, no TF32). Rows and
     columns past the edge read clamped (real) elements and store nothing;
     the last partial k step is bounded, so padding never enters op. */ -}}
extern "C" __global__ void __launch_bounds__({{.Threads}}, {{.MinBlocks}})
{{.Name}}({{.Params}}) {
  constexpr int BM = {{.BM}}, BN = {{.BN}}, BK = {{.BK}}, TM = {{.TM}}, TN = {{.TN}};
  constexpr int NT = {{.Threads}};
  // Rows padded by 4 elements: the transposing stores of A hit distinct
  // banks, and 16-byte reads stay aligned.
  __shared__ __align__(16) {{.TA}} ar_As[2][BK][BM + 4];
  __shared__ __align__(16) {{.TB}} ar_Bs[2][BK][BN + 4];
  const int ar_tid = threadIdx.x;
  const int ar_tx = ar_tid % (BN / TN), ar_ty = ar_tid / (BN / TN);
  // Blocks walk groups of 8 tile rows column by column, so the blocks in
  // flight share rows of A and columns of B in L2.
  const i64 ar_tiles_m = (ar_n + BM - 1) / BM, ar_tiles_n = (ar_p + BN - 1) / BN;
  const i64 ar_per_group = 8 * ar_tiles_n;
  const i64 ar_bid = blockIdx.x;
  const i64 ar_first = (ar_bid / ar_per_group) * 8;
  const i64 ar_gsize = min(ar_tiles_m - ar_first, (i64)8);
  const i64 ar_row0 = (ar_first + (ar_bid % ar_per_group) % ar_gsize) * BM;
  const i64 ar_col0 = ((ar_bid % ar_per_group) / ar_gsize) * BN;

  {{.R}} ar_acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) ar_acc[i][j] = {{.Neutral}};

  constexpr int ALD = BM * BK / NT, BLD = BN * BK / NT;
  {{.TA}} ar_ra[ALD];
  {{.TB}} ar_rb[BLD];
  // Fetch k step kt into registers: A by rows (k fastest), B' by rows of B
  // (j fastest){{if .BRows}} or, read by rows, k fastest{{end}}.
  auto ar_fetch = [&](i64 kt) {
    const i64 k0 = kt * BK;
#pragma unroll
    for (int q = 0; q < ALD; q++) {
      const int idx = q * NT + ar_tid, r = idx / BK, kk = idx % BK;
      const i64 row = min(ar_row0 + r, ar_n - 1), k = k0 + kk;
      ar_ra[q] = k < ar_m ? ar_A[row * ar_m + k] : ({{.TA}})0;
    }
#pragma unroll
    for (int q = 0; q < BLD; q++) {
      const int idx = q * NT + ar_tid;
{{- if .BRows}}
      const int c = idx / BK, kk = idx % BK;
      const i64 col = min(ar_col0 + c, ar_p - 1), k = k0 + kk;
      ar_rb[q] = k < ar_m ? ar_B[col * ar_m + k] : ({{.TB}})0;
{{- else}}
      const int kk = idx / BN, c = idx % BN;
      const i64 col = min(ar_col0 + c, ar_p - 1), k = k0 + kk;
      ar_rb[q] = k < ar_m ? ar_B[k * ar_p + col] : ({{.TB}})0;
{{- end}}
    }
  };
  auto ar_stash = [&](int buf) {
#pragma unroll
    for (int q = 0; q < ALD; q++) {
      const int idx = q * NT + ar_tid;
      ar_As[buf][idx % BK][idx / BK] = ar_ra[q];
    }
#pragma unroll
    for (int q = 0; q < BLD; q++) {
      const int idx = q * NT + ar_tid;
{{- if .BRows}}
      ar_Bs[buf][idx % BK][idx / BK] = ar_rb[q];
{{- else}}
      ar_Bs[buf][idx / BN][idx % BN] = ar_rb[q];
{{- end}}
    }
  };
  // One k: TM/4 and TN/4 16-byte reads (a thread's rows are 4 apart in
  // groups BM/(TM/4) apart, so a warp's reads are contiguous), TM x TN
  // applications of f and op.
  auto ar_step = [&](int buf, int kk) {
    {{.TA}} a[TM];
    {{.TB}} b[TN];
#pragma unroll
    for (int g = 0; g < TM / 4; g++)
      *reinterpret_cast<{{.VA}} *>(&a[4 * g]) = *reinterpret_cast<const {{.VA}} *>(&ar_As[buf][kk][g * (BM / (TM / 4)) + ar_ty * 4]);
#pragma unroll
    for (int g = 0; g < TN / 4; g++)
      *reinterpret_cast<{{.VB}} *>(&b[4 * g]) = *reinterpret_cast<const {{.VB}} *>(&ar_Bs[buf][kk][g * (BN / (TN / 4)) + ar_tx * 4]);
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int j = 0; j < TN; j++) {
        {{.R}} t;
        {{.FnF}}({{.EnvArgsC}}{{.FArgs}}, &t);
        {{.FnOp}}({{.EnvArgsC}}ar_acc[i][j], t, &ar_acc[i][j]);
      }
  };

  const i64 ar_ktiles = (ar_m + BK - 1) / BK;
  if (ar_ktiles > 0) {
    ar_fetch(0);
    ar_stash(0);
  }
  __syncthreads();
  for (i64 kt = 0; kt < ar_ktiles; kt++) {
    const int cur = (int)(kt & 1);
    if (kt + 1 < ar_ktiles) ar_fetch(kt + 1);
    const i64 left = ar_m - kt * BK;
    if (left >= BK) {
#pragma unroll
      for (int kk = 0; kk < BK; kk++) ar_step(cur, kk);
    } else {
      for (int kk = 0; kk < (int)left; kk++) ar_step(cur, kk);
    }
    if (kt + 1 < ar_ktiles) ar_stash(cur ^ 1);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; i++) {
    const i64 row = ar_row0 + (i / 4) * (BM / (TM / 4)) + ar_ty * 4 + i % 4;
    if (row >= ar_n) continue;
#pragma unroll
    for (int j = 0; j < TN; j++) {
      const i64 col = ar_col0 + (j / 4) * (BN / (TN / 4)) + ar_tx * 4 + j % 4;
      if (col < ar_p) ar_out[row * ar_p + col] = ar_acc[i][j];
    }
  }
}
