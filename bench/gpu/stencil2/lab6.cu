// The 4096² clamped stencil's ladder (issue 15, branch h-stencil6): the kernels
// eval/gpu generates today (gen6.cuh: the default grid-stride vector steps,
// the host-checked thread-a-step kernel at 1 row and at 2 neighbouring rows)
// beside the hand float4 kernels of lab.cu (0.88-0.89x copy there), and
// rungs between them that each change one thing, every one timed three ways:
//   B: back to back, 50 launches between two events (lab.cu's way);
//   E: an event pair around every launch, the times summed (the backend's
//      way: cuda.Function.LaunchAsync), launches queued back to back;
//   S: the same with the host late, as in BenchmarkNested where the host
//      takes ~50 µs a launch (wall 0.052 ms an iteration against 0.041 of
//      kernel): each launch waits for the previous kernel and SPIN µs more.
// Every result is compared bit for bit with the one-point kernel's.
//   nvcc -O3 -arch=sm_90 -o lab6 lab6.cu && ./lab6 [steps] [spin µs]
#include <chrono>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "gen6.cuh"

#define CK(x) do { cudaError_t ck_ = (x); if (ck_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(ck_), __LINE__); exit(1); } } while (0)

static const int N = 4096, M = 4096;

__device__ __forceinline__ f32 fin(f32 c, f32 u, f32 d, f32 l, f32 r) {
  f32 s = c + u; s = s + d; s = s + l; s = s + r;
  return (f32)((f64)s * 0.2);
}

// One point a thread (the reference).
__global__ void __launch_bounds__(256) h1(const f32 *__restrict__ a, f32 *__restrict__ o, int n, int m) {
  int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
  if (i >= n || j >= m) return;
  f32 u = a[max(i - 1, 0) * m + j], d = a[min(i + 1, n - 1) * m + j];
  f32 l = a[i * m + max(j - 1, 0)], r = a[i * m + min(j + 1, m - 1)], c = a[i * m + j];
  o[i * m + j] = fin(c, u, d, l, r);
}

// lab.cu's hand float4 kernel: 4 columns × P rows a thread, 2-D grid of 32×8.
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

// One step of 4 columns × 1 row (hvec<1>'s body) at (i, j).
__device__ __forceinline__ void step1(const f32 *__restrict__ a, f32 *__restrict__ o, int i, int j, int n, int m) {
  int jl = max(j - 1, 0), jr = min(j + 4, m - 1);
  float4 u = __ldg((const float4 *)(a + max(i - 1, 0) * m + j));
  float4 c = __ldg((const float4 *)(a + i * m + j));
  float4 d = __ldg((const float4 *)(a + min(i + 1, n - 1) * m + j));
  f32 l = a[i * m + jl], r = a[i * m + jr];
  float4 v;
  v.x = fin(c.x, u.x, d.x, l, c.y);
  v.y = fin(c.y, u.y, d.y, c.x, c.z);
  v.z = fin(c.z, u.z, d.z, c.y, c.w);
  v.w = fin(c.w, u.w, d.w, c.z, r);
  *(float4 *)(o + i * m + j) = v;
}

// Rung L1: hvec<1> with the generated thread-a-step kernel's launch: a 1-D
// grid of 256-thread blocks, the block's tile (8 rows × 32 steps) found by
// a division of blockIdx.x, the sizes passed as i64.
__global__ void __launch_bounds__(256) l1(const f32 *__restrict__ a, f32 *__restrict__ o, i64 n64, i64 m64) {
  int n = (int)n64, m = (int)m64;
  int rad1 = (m / 4 + 31) / 32;
  int nl1 = (int)blockIdx.x % rad1, nl0 = (int)blockIdx.x / rad1;
  int j = (nl1 * 32 + (int)(threadIdx.x % 32)) * 4, i = nl0 * 8 + (int)(threadIdx.x / 32);
  if (i < n && j < m) step1(a, o, i, j, n, m);
}

// Rung L2: L1 with the generated kernel's side handling: inside [lo, hi]
// the side reads unclamped (j - 1, j + 4) and the vector step; outside,
// four scalar points (the generated scalar body).
__global__ void __launch_bounds__(256) l2(const f32 *__restrict__ a, f32 *__restrict__ o, i64 n64, i64 m64, int lo, int hi) {
  int n = (int)n64, m = (int)m64;
  int rad1 = (m / 4 + 31) / 32;
  int nl1 = (int)blockIdx.x % rad1, nl0 = (int)blockIdx.x / rad1;
  int j = (nl1 * 32 + (int)(threadIdx.x % 32)) * 4, i = nl0 * 8 + (int)(threadIdx.x / 32);
  if (i >= n || j >= m) return;
  if (j >= lo && j <= hi) {
    step1(a, o, i, j, n, m);
  } else {
    for (int k = 0; k < 4; k++) {
      int x = j + k;
      o[i * m + x] = fin(a[i * m + x], a[max(i - 1, 0) * m + x], a[min(i + 1, n - 1) * m + x], a[i * m + max(x - 1, 0)], a[i * m + min(x + 1, m - 1)]);
    }
  }
}

// Rung L3: L1's step in the default kernel's grid-stride loop: a
// persistent grid, a block's steps a tile, the next tile by carries.
__global__ void __launch_bounds__(256) l3(const f32 *__restrict__ a, f32 *__restrict__ o, i64 n64, i64 m64, i64 nt) {
  int n = (int)n64, m = (int)m64;
  int rad1 = (m / 4 + 31) / 32;
  int nst = ((n + 7) / 8) * rad1;
  int r = (int)blockIdx.x, q = (int)(nt / 256);
  int nl1 = r % rad1, nl0 = r / rad1, ns1 = q % rad1, ns0 = q / rad1;
  for (int s = blockIdx.x; s < nst; s += q) {
    int j = (nl1 * 32 + (int)(threadIdx.x % 32)) * 4, i = nl0 * 8 + (int)(threadIdx.x / 32);
    if (i < n && j < m) step1(a, o, i, j, n, m);
    nl1 += ns1;
    int c = nl1 >= rad1;
    if (c) nl1 -= rad1;
    nl0 += ns0 + c;
  }
}

// Rung L4: L3 with two steps a loop trip, both steps' loads before either
// step's sums (what a grid-stride loop needs to keep as much in flight as a
// thread a step).
__global__ void __launch_bounds__(256) l4(const f32 *__restrict__ a, f32 *__restrict__ o, i64 n64, i64 m64, i64 nt) {
  int n = (int)n64, m = (int)m64;
  int rad1 = (m / 4 + 31) / 32;
  int nst = ((n + 7) / 8) * rad1;
  int q = (int)(nt / 256);
  for (int s = blockIdx.x; s < nst; s += 2 * q) {
    int s2 = s + q;
    int j = ((s % rad1) * 32 + (int)(threadIdx.x % 32)) * 4, i = (s / rad1) * 8 + (int)(threadIdx.x / 32);
    int j2 = ((s2 % rad1) * 32 + (int)(threadIdx.x % 32)) * 4, i2 = (s2 / rad1) * 8 + (int)(threadIdx.x / 32);
    bool ok2 = s2 < nst && i2 < n;
    if (!ok2) { i2 = i; j2 = j; }
    if (i < n && j < m) {
      int jl = max(j - 1, 0), jr = min(j + 4, m - 1), jl2 = max(j2 - 1, 0), jr2 = min(j2 + 4, m - 1);
      float4 u = __ldg((const float4 *)(a + max(i - 1, 0) * m + j)), c = __ldg((const float4 *)(a + i * m + j)), d = __ldg((const float4 *)(a + min(i + 1, n - 1) * m + j));
      float4 u2 = __ldg((const float4 *)(a + max(i2 - 1, 0) * m + j2)), c2 = __ldg((const float4 *)(a + i2 * m + j2)), d2 = __ldg((const float4 *)(a + min(i2 + 1, n - 1) * m + j2));
      f32 l = a[i * m + jl], r = a[i * m + jr], l2 = a[i2 * m + jl2], r2 = a[i2 * m + jr2];
      float4 v, w;
      v.x = fin(c.x, u.x, d.x, l, c.y); v.y = fin(c.y, u.y, d.y, c.x, c.z); v.z = fin(c.z, u.z, d.z, c.y, c.w); v.w = fin(c.w, u.w, d.w, c.z, r);
      w.x = fin(c2.x, u2.x, d2.x, l2, c2.y); w.y = fin(c2.y, u2.y, d2.y, c2.x, c2.z); w.z = fin(c2.z, u2.z, d2.z, c2.y, c2.w); w.w = fin(c2.w, u2.w, d2.w, c2.z, r2);
      *(float4 *)(o + i * m + j) = v;
      if (ok2) *(float4 *)(o + i2 * m + j2) = w;
    }
  }
}

// Rung L5: hvec<2> (two neighbouring rows a thread sharing the middle rows)
// with L1's 1-D launch (the tile 16 rows × 32 steps).
__global__ void __launch_bounds__(256) l5(const f32 *__restrict__ a, f32 *__restrict__ o, i64 n64, i64 m64) {
  int n = (int)n64, m = (int)m64;
  int rad1 = (m / 4 + 31) / 32;
  int nl1 = (int)blockIdx.x % rad1, nl0 = (int)blockIdx.x / rad1;
  int j = (nl1 * 32 + (int)(threadIdx.x % 32)) * 4, i0 = (nl0 * 8 + (int)(threadIdx.x / 32)) * 2;
  if (i0 >= n || j >= m) return;
  int jl = max(j - 1, 0), jr = min(j + 4, m - 1), i1 = min(i0 + 1, n - 1);
  float4 u = __ldg((const float4 *)(a + max(i0 - 1, 0) * m + j)), c0 = __ldg((const float4 *)(a + i0 * m + j));
  float4 c1 = __ldg((const float4 *)(a + i1 * m + j)), d = __ldg((const float4 *)(a + min(i0 + 2, n - 1) * m + j));
  f32 l0 = a[i0 * m + jl], r0 = a[i0 * m + jr], l1 = a[i1 * m + jl], r1 = a[i1 * m + jr];
  float4 v, w;
  v.x = fin(c0.x, u.x, c1.x, l0, c0.y); v.y = fin(c0.y, u.y, c1.y, c0.x, c0.z); v.z = fin(c0.z, u.z, c1.z, c0.y, c0.w); v.w = fin(c0.w, u.w, c1.w, c0.z, r0);
  w.x = fin(c1.x, c0.x, d.x, l1, c1.y); w.y = fin(c1.y, c0.y, d.y, c1.x, c1.z); w.z = fin(c1.z, c0.z, d.z, c1.y, c1.w); w.w = fin(c1.w, c0.w, d.w, c1.z, r1);
  *(float4 *)(o + i0 * m + j) = v;
  if (i0 + 1 < n) *(float4 *)(o + (i0 + 1) * m + j) = w;
}

__global__ void copy4(const float4 *__restrict__ a, float4 *__restrict__ o, int n4) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n4) o[i] = a[i];
}

typedef void (*genk)(i64, i64, i64, i64, int *, i64, i64, const f32 *, i64, i64, f32 *);
typedef void (*genv)(i64, i64, i64, i64, int *, i64, i64, const f32 *, i64, i64, f32 *, int, int, int);

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 50;
  int spin = argc > 2 ? atoi(argv[2]) : 30;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  printf("device %s, %d SMs; %d steps, S spin %d us\n", prop.name, sms, steps, spin);
  size_t cnt = (size_t)N * M, bytes = cnt * 4;
  std::vector<f32> h(cnt);
  for (size_t q = 0; q < cnt; q++) h[q] = (f32)((q * 2654435761u) % 1000) * 0.01f;
  f32 *a, *b, *ref;
  int *err;
  CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&ref, bytes)); CK(cudaMalloc(&err, 64));
  CK(cudaMemset(err, 0, 64));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<cudaEvent_t> es(2 * steps);
  for (auto &e : es) CK(cudaEventCreate(&e));

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

  auto occ = [&](const void *f) { int o = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o, f, 256, 0)); return o; };
  auto regs = [&](const void *f) { cudaFuncAttributes at; CK(cudaFuncGetAttributes(&at, f)); return at.numRegs; };
  const i64 n = N * (i64)M;
  // The backend's launches (segmap.go): the default kernel on min(n/256,
  // SMs × occupancy) blocks; the host-checked kernels on a tile a block.
  const i64 gdef = (i64)sms * occ((const void *)g6_def), ntdef = gdef * 256;
  const i64 gr1 = (i64)((N + 7) / 8) * ((M + 127) / 128), ga2 = (i64)((N + 15) / 16) * ((M + 127) / 128);
  const int lo = 0, hi = M - 4; // what vecHost.check gives for 4096²
  const i64 gl3 = (i64)sms * occ((const void *)l3), gl4 = (i64)sms * occ((const void *)l4);
  struct variant {
    const char *name;
    const void *fn;
    std::function<void(const f32 *, f32 *)> go;
  };
  std::vector<variant> vs = {
      {"hand 1 point (reference)", (const void *)h1, [&](const f32 *x, f32 *y) { h1<<<dim3(M / 32, N / 8), dim3(32, 8)>>>(x, y, N, M); }},
      {"copy 4096² float4", (const void *)copy4, [&](const f32 *x, f32 *y) { copy4<<<cnt / 4 / 256, 256>>>((const float4 *)x, (float4 *)y, cnt / 4); }},
      {"hand float4 x1 (lab.cu)", (const void *)hvec<1>, [&](const f32 *x, f32 *y) { hvec<1><<<dim3(M / 128, N / 8), dim3(32, 8)>>>(x, y, N, M); }},
      {"hand float4 x2 (lab.cu)", (const void *)hvec<2>, [&](const f32 *x, f32 *y) { hvec<2><<<dim3(M / 128, N / 16), dim3(32, 8)>>>(x, y, N, M); }},
      {"L1 x1, 1-D tile grid", (const void *)l1, [&](const f32 *x, f32 *y) { l1<<<gr1, 256>>>(x, y, N, M); }},
      {"L2 L1 + side branch", (const void *)l2, [&](const f32 *x, f32 *y) { l2<<<gr1, 256>>>(x, y, N, M, lo, hi); }},
      {"L5 x2 rows, 1-D grid", (const void *)l5, [&](const f32 *x, f32 *y) { l5<<<ga2, 256>>>(x, y, N, M); }},
      {"L3 L1 in grid-stride", (const void *)l3, [&](const f32 *x, f32 *y) { l3<<<gl3, 256>>>(x, y, N, M, gl3 * 256); }},
      {"L4 L3, 2 steps a trip", (const void *)l4, [&](const f32 *x, f32 *y) { l4<<<gl4, 256>>>(x, y, N, M, gl4 * 256); }},
      {"gen r1 (vecrows=1)", (const void *)g6_r1, [&](const f32 *x, f32 *y) { g6_r1<<<gr1, 256>>>(n, gr1 * 256, N, M, err, N, M, x, N, M, y, 1, lo, hi); }},
      {"gen a2 (vecrows=2 adj)", (const void *)g6_a2, [&](const f32 *x, f32 *y) { g6_a2<<<ga2, 256>>>(n, ga2 * 256, N, M, err, N, M, x, N, M, y, 1, lo, hi); }},
      {"gen default", (const void *)g6_def, [&](const f32 *x, f32 *y) { g6_def<<<gdef, 256>>>(n, ntdef, N, M, err, N, M, x, N, M, y); }},
  };
  bool first = true;
  for (auto &v : vs) {
    double t[3];
    const char *ok = "";
    for (int mode = 0; mode < 3; mode++) {
      CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
      v.go(a, b); v.go(b, a); // warm-up, two steps
      CK(cudaDeviceSynchronize());
      CK(cudaGetLastError());
      if (mode == 0) {
        CK(cudaEventRecord(e0));
        for (int r = 0; r < steps; r++) v.go(r % 2 ? b : a, r % 2 ? a : b);
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[0] = ms / steps;
      } else {
        for (int r = 0; r < steps; r++) {
          if (mode == 2) {
            CK(cudaDeviceSynchronize());
            auto t0 = std::chrono::steady_clock::now();
            while (std::chrono::steady_clock::now() - t0 < std::chrono::microseconds(spin)) {}
          }
          CK(cudaEventRecord(es[2 * r]));
          v.go(r % 2 ? b : a, r % 2 ? a : b);
          CK(cudaEventRecord(es[2 * r + 1]));
        }
        CK(cudaDeviceSynchronize());
        double sum = 0;
        for (int r = 0; r < steps; r++) { CK(cudaEventElapsedTime(&ms, es[2 * r], es[2 * r + 1])); sum += ms; }
        t[mode] = sum / steps;
      }
      CK(cudaGetLastError());
      if (mode == 0 && v.fn != (const void *)copy4) {
        if (first) {
          CK(cudaMemcpy(ref, a, bytes, cudaMemcpyDeviceToDevice));
          ok = "reference";
          first = false;
        } else {
          std::vector<f32> x(cnt), y(cnt);
          CK(cudaMemcpy(x.data(), a, bytes, cudaMemcpyDeviceToHost));
          CK(cudaMemcpy(y.data(), ref, bytes, cudaMemcpyDeviceToHost));
          ok = memcmp(x.data(), y.data(), bytes) == 0 ? "same bits" : "DIFFERENT";
        }
      }
    }
    auto x = [&](double kms) { return need / (kms * 1e-3) / 1e9 / copyrate; };
    printf("%-26s regs %2d occ %2d  B %.4f ms %.2fx  E %.4f ms %.2fx  S %.4f ms %.2fx  %s\n", v.name, regs(v.fn), occ(v.fn),
           t[0], x(t[0]), t[1], x(t[1]), t[2], x(t[2]), ok);
  }
  int herr = 0;
  CK(cudaMemcpy(&herr, err, 4, cudaMemcpyDeviceToHost));
  printf("error flag %d\n", herr);
  return 0;
}
