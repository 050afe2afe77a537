// The 4096² clamped 5-point stencil's kernel lab (issue 15, branch h-stencil2):
// the generated kernels of gen.cuh (eval/gpu narrowLoop, 2/4/8 points of a
// column, stores after each point or after the step) beside hand kernels:
// one point a thread (plain and __ldg), P points of a column with every read
// issued before any arithmetic (on the whole grid and in the generated
// kernels' grid-stride loop), float4 rows, and a shared-memory tile filled
// by 16-byte loads. Each variant runs ping-pong between two arrays; the
// result after an even number of steps is compared bit for bit with the
// one-point kernel (all use the generated arithmetic: the sum in the same
// order, times 0.2 in f64). Kernel-ms a step by CUDA events; "x copy" is
// the step's 2·N²·4 bytes against a 1 GiB device-to-device copy's rate.
//   nvcc -O3 -arch=sm_90 -o lab lab.cu && ./lab
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "gen.cuh"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

static const int N = 4096, M = 4096;

__device__ __forceinline__ f32 fin(f32 c, f32 u, f32 d, f32 l, f32 r) {
  f32 s = c + u; s = s + d; s = s + l; s = s + r;
  return (f32)((f64)s * 0.2);
}

// One point a thread, 32x8 blocks over the whole grid.
template <bool LDG>
__global__ void __launch_bounds__(256) h1(const f32 *__restrict__ a, f32 *__restrict__ o, int n, int m) {
  int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
  if (i >= n || j >= m) return;
  const f32 *p = a;
  auto ld = [&](int y, int x) { return LDG ? __ldg(p + y * m + x) : p[y * m + x]; };
  f32 u = ld(max(i - 1, 0), j), d = ld(min(i + 1, n - 1), j);
  f32 l = ld(i, max(j - 1, 0)), r = ld(i, min(j + 1, m - 1)), c = ld(i, j);
  o[i * m + j] = fin(c, u, d, l, r);
}

// P points of a column a thread: rows i0-1 .. i0+P (P+2 loads) and the left
// and right of each row (2P), all issued before the first sum.
template <int P>
__global__ void __launch_bounds__(256) hcol(const f32 *__restrict__ a, f32 *__restrict__ o, int n, int m) {
  int j = blockIdx.x * 32 + threadIdx.x, i0 = (blockIdx.y * 8 + threadIdx.y) * P;
  if (i0 >= n || j >= m) return;
  int jl = max(j - 1, 0), jr = min(j + 1, m - 1);
  f32 col[P + 2], l[P], r[P];
#pragma unroll
  for (int k = 0; k < P + 2; k++) col[k] = a[min(max(i0 - 1 + k, 0), n - 1) * m + j];
#pragma unroll
  for (int k = 0; k < P; k++) {
    int y = min(i0 + k, n - 1);
    l[k] = a[y * m + jl];
    r[k] = a[y * m + jr];
  }
#pragma unroll
  for (int k = 0; k < P; k++)
    if (i0 + k < n) o[(i0 + k) * m + j] = fin(col[k + 1], col[k], col[k + 2], l[k], r[k]);
}

// hcol's body in the generated kernels' loop: a persistent grid, each warp
// striding over steps of 32 columns × P rows (whether the grid-stride loop
// costs what the full grid does not).
template <int P>
__global__ void __launch_bounds__(256) hcolgs(const f32 *__restrict__ a, f32 *__restrict__ o, int n, int m, int nt) {
  int tid = blockIdx.x * 256 + threadIdx.x, lane = tid & 31;
  int cw = (m + 31) / 32, nst = cw * ((n + P - 1) / P);
  for (int s = tid >> 5; s < nst; s += nt >> 5) {
    int j = min((s % cw) * 32 + lane, m - 1), i0 = (s / cw) * P;
    int jl = max(j - 1, 0), jr = min(j + 1, m - 1);
    f32 col[P + 2], l[P], r[P];
#pragma unroll
    for (int k = 0; k < P + 2; k++) col[k] = a[min(max(i0 - 1 + k, 0), n - 1) * m + j];
#pragma unroll
    for (int k = 0; k < P; k++) {
      int y = min(i0 + k, n - 1);
      l[k] = a[y * m + jl];
      r[k] = a[y * m + jr];
    }
#pragma unroll
    for (int k = 0; k < P; k++)
      if (i0 + k < n) o[(i0 + k) * m + j] = fin(col[k + 1], col[k], col[k + 2], l[k], r[k]);
  }
}

// Four neighbouring columns a thread (float4) and P rows: P+2 16-byte row
// loads and a scalar left and right a row, all before the sums (m % 4 == 0).
template <int P>
__global__ void __launch_bounds__(256) hvec(const f32 *__restrict__ a, f32 *__restrict__ o, int n, int m) {
  int j = (blockIdx.x * 32 + threadIdx.x) * 4, i0 = (blockIdx.y * 8 + threadIdx.y) * P;
  if (i0 >= n || j >= m) return;
  int jl = max(j - 1, 0), jr = min(j + 4, m - 1);
  float4 row[P + 2];
  f32 l[P], r[P];
#pragma unroll
  for (int k = 0; k < P + 2; k++) row[k] = *(const float4 *)(a + min(max(i0 - 1 + k, 0), n - 1) * m + j);
#pragma unroll
  for (int k = 0; k < P; k++) {
    int y = min(i0 + k, n - 1);
    l[k] = a[y * m + jl];
    r[k] = a[y * m + jr];
  }
#pragma unroll
  for (int k = 0; k < P; k++) {
    if (i0 + k >= n) break;
    float4 c = row[k + 1], u = row[k], d = row[k + 2], v;
    v.x = fin(c.x, u.x, d.x, l[k], c.y);
    v.y = fin(c.y, u.y, d.y, c.x, c.z);
    v.z = fin(c.z, u.z, d.z, c.y, c.w);
    v.w = fin(c.w, u.w, d.w, c.z, r[k]);
    *(float4 *)(o + (i0 + k) * m + j) = v;
  }
}

// A tile of 128 columns × 16 rows a block of 256 threads, staged with its
// halo in shared memory: 18 rows of 32 float4 plus the column left and
// right; each thread then computes 4 columns × 2 rows from shared memory.
// Needs m % 128 == 0 and n % 16 == 0.
__global__ void __launch_bounds__(256) hsmem(const f32 *__restrict__ a, f32 *__restrict__ o, int n, int m) {
  __shared__ __align__(16) f32 t[18][128 + 8]; // column x at t[..][x + 4]
  int j0 = blockIdx.x * 128, i0 = blockIdx.y * 16, tid = threadIdx.y * 32 + threadIdx.x;
  for (int q = tid; q < 18 * 32; q += 256) {
    int y = q / 32, x = (q % 32) * 4;
    int gy = min(max(i0 - 1 + y, 0), n - 1);
    *(float4 *)&t[y][x + 4] = *(const float4 *)(a + gy * m + j0 + x);
  }
  if (tid < 36) {
    int y = tid % 18, side = tid / 18;
    int gy = min(max(i0 - 1 + y, 0), n - 1);
    int gx = side ? min(j0 + 128, m - 1) : max(j0 - 1, 0);
    t[y][side ? 132 : 3] = a[gy * m + gx];
  }
  __syncthreads();
  int x = threadIdx.x * 4;
#pragma unroll
  for (int k = 0; k < 2; k++) {
    int y = threadIdx.y * 2 + k + 1;
    float4 c = *(float4 *)&t[y][x + 4], u = *(float4 *)&t[y - 1][x + 4], d = *(float4 *)&t[y + 1][x + 4], v;
    f32 l = t[y][x + 3], r = t[y][x + 8];
    v.x = fin(c.x, u.x, d.x, l, c.y);
    v.y = fin(c.y, u.y, d.y, c.x, c.z);
    v.z = fin(c.z, u.z, d.z, c.y, c.w);
    v.w = fin(c.w, u.w, d.w, c.z, r);
    *(float4 *)(o + (i0 + y - 1) * m + j0 + x) = v;
  }
}

// The plain copy of the same array, 16 bytes a thread (the stencil's bytes).
__global__ void copy4(const float4 *__restrict__ a, float4 *__restrict__ o, int n4) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n4) o[i] = a[i];
}

typedef void (*genk)(i64, i64, i64, i64, int *, i64, i64, const f32 *, i64, i64, f32 *);

struct variant {
  const char *name;
  int kind;  // 0 generated, 1 hand 2-D grid
  genk g;    // kind 0
  int pts;   // kind 0: points a step (for the full-grid launch)
  bool full; // kind 0: a thread a step instead of the persistent grid
  void (*h)(const f32 *, f32 *, int, int);
};

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 20;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  size_t cnt = (size_t)N * M, bytes = cnt * 4;
  std::vector<f32> h(cnt);
  for (size_t q = 0; q < cnt; q++) h[q] = (f32)((q * 2654435761u) % 1000) * 0.01f;
  f32 *a, *b, *ref;
  int *err;
  CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&ref, bytes)); CK(cudaMalloc(&err, 64));
  CK(cudaMemset(err, 0, 64));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));

  // 1 GiB device-to-device copy: the rate "x copy" divides by.
  size_t big = 1ull << 30;
  char *c0, *c1;
  CK(cudaMalloc(&c0, big)); CK(cudaMalloc(&c1, big));
  CK(cudaMemcpy(c1, c0, big, cudaMemcpyDeviceToDevice));
  float ms;
  CK(cudaEventRecord(e0));
  for (int r = 0; r < 10; r++) CK(cudaMemcpy(c1, c0, big, cudaMemcpyDeviceToDevice));
  CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
  double copyms = ms / 10, copyrate = 2.0 * big / (copyms * 1e-3) / 1e9;
  printf("copy 1 GiB: %.4f ms, %.0f GB/s\n", copyms, copyrate);
  CK(cudaFree(c0)); CK(cudaFree(c1));
  double need = 2.0 * bytes;
  auto report = [&](const char *name, double kms, const char *ok) {
    double rate = need / (kms * 1e-3) / 1e9;
    printf("%-22s %.4f ms  %6.0f GB/s  %.2fx copy  %s\n", name, kms, rate, rate / copyrate, ok);
  };
  {
    int n4 = cnt / 4;
    copy4<<<(n4 + 255) / 256, 256>>>((const float4 *)a, (float4 *)b, n4);
    CK(cudaEventRecord(e0));
    for (int r = 0; r < steps; r++) copy4<<<(n4 + 255) / 256, 256>>>((const float4 *)a, (float4 *)b, n4);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&ms, e0, e1));
    report("copy 4096² float4", ms / steps, "");
  }

  int occ = 0;
  std::vector<variant> vs = {
      {"hand 1 point", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { h1<false><<<dim3((m + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand 1 point __ldg", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { h1<true><<<dim3((m + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand col 2 reads-first", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hcol<2><<<dim3((m + 31) / 32, (n + 15) / 16), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand col 4 reads-first", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hcol<4><<<dim3((m + 31) / 32, (n + 31) / 32), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand col 8 reads-first", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hcol<8><<<dim3((m + 31) / 32, (n + 63) / 64), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand float4 x1 row", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hvec<1><<<dim3((m + 127) / 128, (n + 7) / 8), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand float4 x2 rows", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hvec<2><<<dim3((m + 127) / 128, (n + 15) / 16), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand float4 x4 rows", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hvec<4><<<dim3((m + 127) / 128, (n + 31) / 32), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand smem tile 128x16", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hsmem<<<dim3(m / 128, n / 16), dim3(32, 8)>>>(x, y, n, m); }},
      {"hand col 4 grid-stride", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hcolgs<4><<<132 * 8, 256>>>(x, y, n, m, 132 * 8 * 256); }},
      {"hand col 8 grid-stride", 1, 0, 0, 0, [](const f32 *x, f32 *y, int n, int m) { hcolgs<8><<<132 * 8, 256>>>(x, y, n, m, 132 * 8 * 256); }},
      {"gen p2 (current)", 0, gen_p2, 2, false, 0},
      {"gen p4", 0, gen_p4, 4, false, 0},
      {"gen p8", 0, gen_p8, 8, false, 0},
      {"gen p2 stores-last", 0, gen_p2_last, 2, false, 0},
      {"gen p4 stores-last", 0, gen_p4_last, 4, false, 0},
      {"gen p8 stores-last", 0, gen_p8_last, 8, false, 0},
      {"gen p4 last (256,8)", 0, gen_p4_last_mb8, 4, false, 0},
      {"gen p8 last (256,6)", 0, gen_p8_last_mb6, 8, false, 0},
      {"gen p8 last (256,8)", 0, gen_p8_last_mb8, 8, false, 0},
      {"gen p2 full grid", 0, gen_p2, 2, true, 0},
      {"gen p4 last full grid", 0, gen_p4_last, 4, true, 0},
  };
  bool first = true;
  for (auto &v : vs) {
    i64 nt = 0;
    if (v.kind == 0) {
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, v.g, 256, 0));
      i64 nst = (i64)((N + v.pts - 1) / v.pts) * ((M + 31) / 32);
      i64 grid = v.full ? (nst * 32 + 255) / 256 : (i64)prop.multiProcessorCount * occ;
      nt = grid * 256;
    }
    auto launch = [&](const f32 *x, f32 *y) {
      if (v.kind == 0)
        v.g<<<(unsigned)(nt / 256), 256>>>((i64)cnt, nt, N, M, err, N, M, x, N, M, y);
      else
        v.h(x, y, N, M);
    };
    CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    launch(a, b); launch(b, a); // warm-up, two steps
    CK(cudaGetLastError());
    CK(cudaEventRecord(e0));
    for (int r = 0; r < steps; r++) launch(r % 2 ? b : a, r % 2 ? a : b);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, e0, e1));
    // steps + 2 (even) steps from h, the result in a.
    const char *ok = "reference";
    if (first) {
      CK(cudaMemcpy(ref, a, bytes, cudaMemcpyDeviceToDevice));
      first = false;
    } else {
      std::vector<f32> x(cnt), y(cnt);
      CK(cudaMemcpy(x.data(), a, bytes, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(y.data(), ref, bytes, cudaMemcpyDeviceToHost));
      ok = memcmp(x.data(), y.data(), bytes) == 0 ? "same bits" : "DIFFERENT";
    }
    char name[64];
    snprintf(name, sizeof name, "%s", v.name);
    if (v.kind == 0) printf("  (%s: occupancy %d blocks/SM, %lld threads)\n", v.name, occ, (long long)nt);
    report(name, ms / steps, ok);
  }
  int herr = 0;
  CK(cudaMemcpy(&herr, err, 4, cudaMemcpyDeviceToHost));
  printf("error flag %d\n", herr);
  return 0;
}
