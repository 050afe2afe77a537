// scanlab: the shipped i32 single-pass scan kernel (eval/gpu/testdata/
// scan_scan_i32.golden, written out by hand with compile-time switches) and
// variants of its structure, timed side by side against a device-to-device
// copy at 2^28 elements. It answers "where does the kernel's time go" with
// experiments the code generator would take hours to grow: a variant that
// wins here is then built into eval/gpu/scan.go and measured there.
// Build and run with bench/gpu/scanlab/run.sh VARIANT... on the GPU machine.
// Variants: copy; shipped (the hand copy); sleep0 (no first look-back wait);
// nolook (prefix 0: the structure's upper bound, wrong answers); lbwarp100 /
// lbwarp400 (a ninth warp looks back during the load); golden / nvrtc (the
// golden module through nvcc / NVRTC as eval/gpu/cuda compiles it); fresh,
// golden-fresh, nvrtc-fresh (output cudaMalloc'ed before each run); pool /
// pool0 (output from the default pool, kept / released); churn (an unrelated
// cudaMalloc/cudaFree between runs); copy-fresh; trace-shipped, trace-nolook,
// trace-lbwarp (per-tile phase times from %globaltimer). Results: bench/
// RESULTS.md, "GPU scan" run 9.
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <string>
#include <cuda_runtime.h>
#include <cuda.h>
#include <nvrtc.h>
#include <fstream>
#include <sstream>
#endif
#include "prelude.cu"
#include "scan_prelude.cu"
#ifndef __CUDACC_RTC__
#include "../../../eval/gpu/testdata/scan_scan_i32.golden"
#endif

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

constexpr int T = 256, SEQ = 31, TILE = T * SEQ, WE = 32 * SEQ; // WE: a warp's elements
constexpr int SPREAD = 8;

AR_D u64 gtime() { u64 t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }

// Trace slots per tile: 0 start, 1 ticket, 2 loads landed (warp 0), 3 aggregate published,
// 4 prefix known, 5 stores issued, 6 smid, 7 polls.
constexpr int NTR = 8;

// lookBack is warp 0's look-back of the shipped kernel (scan_scan_i32.golden)
// for tile > 0: windows of 32 predecessors' states, a wait of spin ns while
// one is not ready; it returns the tile's exclusive prefix and counts its
// window reads in *polls.
__device__ __forceinline__ i32 lookBack(const u64 *state, i64 tile, int lane, int spin, int *polls) {
  i32 P = 0;
  i64 look = tile - 1;
  for (;;) {
    const i64 p = look - lane;
    u64 s0 = 0;
    if (p >= 0) ar_load_state(state + p * SPREAD, &s0);
    (*polls)++;
    const unsigned st = p >= 0 ? (unsigned)(s0 >> 32) : AR_PREFIX;
    if (__any_sync(0xffffffffu, st == AR_INVALID)) { __nanosleep(spin); continue; }
    i32 q = p >= 0 ? (i32)(u32)s0 : 0;
    const unsigned done = __ballot_sync(0xffffffffu, st == AR_PREFIX);
    const int stop = done ? __ffs(done) - 1 : 31;
    if (lane > stop) q = 0;
    for (int o = 1; o < 32; o <<= 1) { i32 u = __shfl_down_sync(0xffffffffu, q, o); if ((lane & (2 * o - 1)) == 0) q = u + q; }
    q = __shfl_sync(0xffffffffu, q, 0);
    P = q + P;
    if (done) return P;
    look -= 32;
  }
}

// MODE: 0 shipped; 1 no look-back (prefix 0: an upper bound, wrong answers);
// 2 a ninth warp looks back while the eight load and scan.
template <int MODE, bool TRACE>
__global__ void __launch_bounds__(MODE == 2 ? T + 32 : T, MODE == 2 ? 6 : 8)
scan_i32(const i64 n, const i32 *__restrict__ in, i32 *__restrict__ out, u64 *__restrict__ state,
         unsigned int *__restrict__ ticket, u64 *__restrict__ tr, int sleep0) {
  __shared__ __align__(16) i32 sh[TILE + 249];
  __shared__ i32 tp[T];
  __shared__ i32 wt[32], wx[32], bagg, bpre;
  __shared__ unsigned int tile_s;
  u64 t0 = TRACE ? gtime() : 0;
  if (threadIdx.x == 0) tile_s = atomicAdd(ticket, 1u);
  __syncthreads();
  const i64 tile = tile_s;
  u64 *trt = tr + tile * NTR;
  if (TRACE && threadIdx.x == 0) { trt[0] = t0; trt[1] = gtime(); unsigned s; asm("mov.u32 %0, %smid;" : "=r"(s)); trt[6] = s; }
  const i64 base = tile * TILE;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (MODE == 2 && warp == 8) {
    // The look-back warp: fold predecessors while the tile loads.
    i32 P = 0;
    int polls = 0;
    if (tile > 0) {
      P = lookBack(state, tile, lane, sleep0, &polls);
    }
    if (TRACE && lane == 0) { trt[4] = gtime(); trt[7] = polls; }
    asm volatile("bar.sync 2, %0;" ::"n"(T + 32)); // bagg is in shared memory
    if (lane == 0) {
      const i32 I = P + bagg;
      if (tile > 0) ar_store_state(state + tile * SPREAD, (u64)(u32)I | ((u64)AR_PREFIX << 32));
      bpre = P;
    }
    __syncwarp();
    asm volatile("bar.arrive 3, %0;" ::"n"(T + 32)); // bpre is written
    return;
  }
  const bool full = base + TILE <= n;
  if (full) {
#pragma unroll
    for (int r = 0; r < 8; r++) {
      const int c = r * 32 + lane;
      if (c < WE / 4) ar_cp_async16((char *)(sh + warp * WE) + c * 16, (const char *)(in + base + warp * WE) + c * 16);
    }
    ar_cp_async_wait();
  } else {
    for (int j = 0; j < SEQ; j++) {
      const int k = warp * WE + j * 32 + lane;
      const i64 i = base + k;
      sh[k] = i < n ? in[i] : 0;
    }
  }
  __syncwarp();
  if (TRACE && threadIdx.x == 0) trt[2] = gtime();
  i32 acc = 0;
#pragma unroll
  for (int j = 0; j < SEQ; j++) { const int k = threadIdx.x * SEQ + j; acc += sh[k]; sh[k] = acc; }
  for (int o = 1; o < 32; o <<= 1) { const i32 u = __shfl_up_sync(0xffffffffu, acc, o); if (lane >= o) acc = u + acc; }
  if (lane == 31) wt[warp] = acc;
  i32 ex = __shfl_up_sync(0xffffffffu, acc, 1);
  if (lane == 0) ex = 0;
  if (MODE == 2) asm volatile("bar.sync 1, %0;" ::"n"(T)); else __syncthreads();
  if (warp == 0) {
    i32 t = lane < 8 ? wt[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) { const i32 u = __shfl_up_sync(0xffffffffu, t, o); if (lane >= o) t = u + t; }
    i32 te = __shfl_up_sync(0xffffffffu, t, 1);
    if (lane == 0) te = 0;
    if (lane < 8) wx[lane] = te;
    if (lane == 7) bagg = t;
    __syncwarp();
    const i32 g = bagg;
    if (MODE == 2) {
      if (lane == 0) ar_store_state(state + tile * SPREAD, (u64)(u32)g | ((u64)(tile == 0 ? AR_PREFIX : AR_AGGREGATE) << 32));
      if (TRACE && lane == 0) trt[3] = gtime();
    } else {
      i32 P = 0;
      int polls = 0;
      if (tile == 0 || MODE == 1) {
        if (lane == 0 && MODE == 0) ar_store_state(state, (u64)(u32)g | ((u64)AR_PREFIX << 32));
        if (TRACE && lane == 0) trt[3] = gtime();
      } else {
        if (lane == 0) ar_store_state(state + tile * SPREAD, (u64)(u32)g | ((u64)AR_AGGREGATE << 32));
        if (TRACE && lane == 0) trt[3] = gtime();
        if (sleep0) __nanosleep(sleep0);
        P = lookBack(state, tile, lane, 650, &polls);
        if (lane == 0) ar_store_state(state + tile * SPREAD, (u64)(u32)(P + g) | ((u64)AR_PREFIX << 32));
      }
      if (TRACE && lane == 0) { trt[4] = gtime(); trt[7] = polls; }
      if (lane == 0) bpre = P;
    }
  }
  if (MODE == 2) {
    asm volatile("bar.arrive 2, %0;" ::"n"(T + 32));
    asm volatile("bar.sync 3, %0;" ::"n"(T + 32));
  } else {
    __syncthreads();
  }
  ex = wx[warp] + ex;
  ex = bpre + ex;
  tp[threadIdx.x] = ex;
  __syncwarp();
  if (full) {
#pragma unroll
    for (int r = 0; r < 8; r++) {
      const int c = r * 32 + lane;
      if (c < WE / 4) {
        union { uint4 v; i32 e[4]; } u;
        u.v = *(const uint4 *)((char *)(sh + warp * WE) + c * 16);
        const int o = c * 4 / SEQ;
        const int b1 = (o + 1) * SEQ - c * 4;
        const i32 t0v = tp[warp * 32 + o], t1v = tp[warp * 32 + min(o + 1, 31)];
#pragma unroll
        for (int x = 0; x < 4; x++) u.e[x] = (x < b1 ? t0v : t1v) + u.e[x];
        *(uint4 *)((char *)(out + base + warp * WE) + c * 16) = u.v;
      }
    }
  } else {
    for (int j = 0; j < SEQ; j++) {
      const int k = warp * WE + j * 32 + lane;
      const i64 i = base + k;
      if (i < n) out[i] = tp[warp * 32 + (j * 32 + lane) / SEQ] + sh[k];
    }
  }
  if (TRACE && threadIdx.x == 0) trt[5] = gtime();
}

#ifndef __CUDACC_RTC__
struct Lab {
  i64 n, ntiles;
  i32 *in, *out;
  u64 *state, *tr;
  unsigned *ticket;
  cudaEvent_t e0, e1;
  std::vector<i32> host, want;
};

template <int MODE, bool TRACE>
float run(Lab &L, int sleep0, int reps, bool check) {
  const int threads = MODE == 2 ? T + 32 : T;
  float best = 1e30f, sum = 0;
  for (int r = 0; r < reps + 1; r++) {
    CK(cudaMemsetAsync(L.state, 0, (L.ntiles * SPREAD + 1) * 8));
    CK(cudaMemsetAsync(L.ticket, 0, 4));
    CK(cudaEventRecord(L.e0));
    scan_i32<MODE, TRACE><<<L.ntiles, threads>>>(L.n, L.in, L.out, L.state, L.ticket, L.tr, sleep0);
    CK(cudaEventRecord(L.e1));
    CK(cudaEventSynchronize(L.e1));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, L.e0, L.e1));
    if (r > 0) { sum += ms; best = std::min(best, ms); }
  }
  if (check) {
    std::vector<i32> got(L.n);
    CK(cudaMemcpy(got.data(), L.out, L.n * 4, cudaMemcpyDeviceToHost));
    for (i64 i = 0; i < L.n; i++)
      if (got[i] != L.want[i]) { printf("  WRONG at %lld: %d want %d\n", (long long)i, got[i], L.want[i]); break; }
  }
  return sum / reps;
}

// timed runs a launcher as run does: states and ticket cleared before each
// launch, CUDA events around the launch alone. fresh: a new output buffer
// for every launch (cudaMalloc before, cudaFree after), as arepl's run does.
// Fresh: 0 reuse the output buffer; 1 cudaMalloc / cudaFree it around each
// launch; 2 cudaMallocAsync / cudaFreeAsync from the device's default pool
// (the caller sets its release threshold); 3 reuse it, but cudaMalloc and
// cudaFree an unrelated buffer of the same size between launches.
template <class F>
float timed(Lab &L, int reps, int fresh, bool check, F launch) {
  float sum = 0;
  for (int r = 0; r < reps + 1; r++) {
    if (fresh == 1) CK(cudaMalloc(&L.out, L.n * 4));
    if (fresh == 2) CK(cudaMallocAsync(&L.out, L.n * 4, 0));
    if (fresh == 3) { void *p; CK(cudaMalloc(&p, L.n * 4)); CK(cudaMemset(p, 1, 4096)); CK(cudaFree(p)); }
    CK(cudaMemsetAsync(L.state, 0, (L.ntiles * SPREAD + 1) * 8));
    CK(cudaMemsetAsync(L.ticket, 0, 4));
    CK(cudaEventRecord(L.e0));
    launch();
    CK(cudaEventRecord(L.e1));
    CK(cudaEventSynchronize(L.e1));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, L.e0, L.e1));
    if (r > 0) sum += ms;
    if (check && r == reps) {
      std::vector<i32> got(L.n);
      CK(cudaMemcpy(got.data(), L.out, L.n * 4, cudaMemcpyDeviceToHost));
      for (i64 i = 0; i < L.n; i++)
        if (got[i] != L.want[i]) { printf("  WRONG at %lld: %d want %d\n", (long long)i, got[i], L.want[i]); break; }
    }
    if (fresh == 1) CK(cudaFree(L.out));
    if (fresh == 2) { CK(cudaFreeAsync(L.out, 0)); CK(cudaStreamSynchronize(0)); }
  }
  if (fresh == 1 || fresh == 2) CK(cudaMalloc(&L.out, L.n * 4));
  return sum / reps;
}

static std::string slurp(const std::string &path, bool dropFirstLine) {
  std::ifstream f(path);
  if (!f) { printf("cannot read %s\n", path.c_str()); exit(1); }
  std::stringstream ss;
  ss << f.rdbuf();
  std::string t = ss.str();
  if (dropFirstLine) t = t.substr(t.find('\n') + 1);
  return t;
}

// nvrtcGolden compiles a golden scan module the way eval/gpu/cuda does
// (NVRTC, -arch=sm_90 -default-device -std=c++17) and returns its kernel.
CUfunction nvrtcGolden(const std::string &root, const std::string &golden, const char *name) {
  std::string src = slurp(root + "/kernels/prelude.cu", false) + slurp(root + "/kernels/scan_prelude.cu", false) +
                    slurp(root + "/eval/gpu/testdata/" + golden, true);
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src.c_str(), "golden.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) exit(1);
  const char *opts[] = {"-arch=sm_90", "-default-device", "-std=c++17"};
  if (nvrtcCompileProgram(prog, 3, opts) != NVRTC_SUCCESS) {
    size_t n; nvrtcGetProgramLogSize(prog, &n); std::string log(n, 0); nvrtcGetProgramLog(prog, &log[0]);
    printf("nvrtc: %s\n", log.c_str()); exit(1);
  }
  size_t n; nvrtcGetCUBINSize(prog, &n); std::string cubin(n, 0); nvrtcGetCUBIN(prog, &cubin[0]);
  CUmodule mod; CUfunction fn;
  if (cuModuleLoadData(&mod, cubin.data()) != CUDA_SUCCESS || cuModuleGetFunction(&fn, mod, name) != CUDA_SUCCESS) { printf("cuModule failed\n"); exit(1); }
  int regs; cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
  printf("  nvrtc %s: %d registers\n", golden.c_str(), regs);
  return fn;
}

float copyms(Lab &L, int reps) {
  float best = 1e30f;
  for (int k = 0; k < 3; k++) {
    CK(cudaEventRecord(L.e0));
    for (int r = 0; r < reps; r++) CK(cudaMemcpyAsync(L.out, L.in, L.n * 4, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(L.e1));
    CK(cudaEventSynchronize(L.e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, L.e0, L.e1));
    best = std::min(best, ms / reps);
  }
  return best;
}

void trace(Lab &L) {
  std::vector<u64> t(L.ntiles * NTR);
  CK(cudaMemcpy(t.data(), L.tr, t.size() * 8, cudaMemcpyDeviceToHost));
  u64 t00 = ~0ull, tend = 0;
  for (i64 i = 0; i < L.ntiles; i++) { t00 = std::min(t00, t[i * NTR]); tend = std::max(tend, t[i * NTR + 5]); }
  const char *names[] = {"ticket", "load", "reduce+publish", "look-back", "store"};
  // Phase durations over the middle 80% of tiles (steady state).
  i64 lo = L.ntiles / 10, hi = L.ntiles * 9 / 10;
  double busy = 0;
  for (int ph = 0; ph < 5; ph++) {
    std::vector<double> d;
    for (i64 i = lo; i < hi; i++) {
      u64 a = t[i * NTR + ph], b = t[i * NTR + ph + 1];
      d.push_back(b >= a ? (double)(b - a) : -(double)(a - b));
    }
    std::sort(d.begin(), d.end());
    double m = 0; for (double x : d) m += x; m /= d.size();
    printf("  %-15s mean %7.0f ns  p10 %7.0f  p50 %7.0f  p90 %7.0f\n", names[ph], m, d[d.size() / 10], d[d.size() / 2], d[d.size() * 9 / 10]);
  }
  double pol = 0, life = 0;
  for (i64 i = lo; i < hi; i++) { pol += t[i * NTR + 7]; life += t[i * NTR + 5] - t[i * NTR]; }
  for (i64 i = 0; i < L.ntiles; i++) busy += t[i * NTR + 5] - t[i * NTR];
  printf("  block life mean %.0f ns; polls/tile %.2f; span %.3f ms; mean resident blocks %.0f\n", life / (hi - lo), pol / (hi - lo), (tend - t00) / 1e6, busy / (tend - t00));
  // When did tile i's prefix become known relative to predecessor i-1's?
  std::vector<double> gap;
  for (i64 i = lo; i < hi; i++) gap.push_back((double)t[i * NTR + 4] - (double)t[(i - 1) * NTR + 4]);
  std::sort(gap.begin(), gap.end());
  printf("  prefix-known gap to predecessor: p10 %.0f p50 %.0f p90 %.0f ns\n", gap[gap.size() / 10], gap[gap.size() / 2], gap[gap.size() * 9 / 10]);
  // Wait attributable to stragglers: prefix known minus own aggregate, vs. latest aggregate among 32 predecessors minus own.
  std::vector<double> strag;
  for (i64 i = lo; i < hi; i++) { u64 m = 0; for (int k = 1; k <= 32; k++) m = std::max(m, t[(i - k) * NTR + 3]); strag.push_back((double)m - (double)t[i * NTR + 3]); }
  std::sort(strag.begin(), strag.end());
  printf("  latest of 32 predecessors' aggregates minus own: p10 %.0f p50 %.0f p90 %.0f ns\n", strag[strag.size() / 10], strag[strag.size() / 2], strag[strag.size() * 9 / 10]);
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  if (argc < 2) { printf("usage: lab variant [n]\n"); return 2; }
  const std::string v = argv[1];
  Lab L;
  L.n = argc > 2 ? atoll(argv[2]) : (1ll << 28);
  L.ntiles = (L.n + TILE - 1) / TILE;
  CK(cudaMalloc(&L.in, L.n * 4));
  CK(cudaMalloc(&L.out, L.n * 4));
  CK(cudaMalloc(&L.state, (L.ntiles * SPREAD + 1) * 8));
  CK(cudaMalloc(&L.ticket, 4));
  CK(cudaMalloc(&L.tr, L.ntiles * NTR * 8));
  CK(cudaEventCreate(&L.e0));
  CK(cudaEventCreate(&L.e1));
  L.host.resize(L.n);
  L.want.resize(L.n);
  u32 x = 12345;
  i32 acc = 0;
  for (i64 i = 0; i < L.n; i++) { x = x * 1664525u + 1013904223u; L.host[i] = (i32)(x >> 16) - 32768; acc = (i32)((u32)acc + (u32)L.host[i]); L.want[i] = acc; }
  CK(cudaMemcpy(L.in, L.host.data(), L.n * 4, cudaMemcpyHostToDevice));
  const double bytes = L.n * 4.0;
  float c = copyms(L, 10);
  auto row = [&](const char *name, float ms) { printf("%-36s %.4f ms  x copy %.3f  (%.0f GB/s; copy %.4f ms)\n", name, ms, c / ms, 2 * bytes / ms / 1e6, c); };
  if (v == "copy") row("copy", c);
  else if (v == "shipped") row("shipped (first sleep 1200)", run<0, false>(L, 1200, 10, true));
  else if (v == "sleep0") row("shipped, first sleep 0", run<0, false>(L, 0, 10, true));
  else if (v == "nolook") row("no look-back (upper bound)", run<1, false>(L, 0, 10, false));
  else if (v == "lbwarp100") row("look-back warp, spin 100", run<2, false>(L, 100, 10, true));
  else if (v == "lbwarp400") row("look-back warp, spin 400", run<2, false>(L, 400, 10, true));
  else if (v == "fresh") row("shipped, fresh output each run", timed(L, 10, 1, true, [&] { scan_i32<0, false><<<L.ntiles, T>>>(L.n, L.in, L.out, L.state, L.ticket, L.tr, 1200); }));
  else if (v == "golden" || v == "golden-fresh") {
    int *err; CK(cudaMalloc(&err, 4)); CK(cudaMemset(err, 0, 4));
    row(v == "golden" ? "golden, nvcc" : "golden, nvcc, fresh output", timed(L, 10, v == "golden-fresh" ? 1 : 0, true, [&] { k_scanomap<<<L.ntiles, T>>>(L.n, L.n, err, L.in, L.out, L.state, L.ticket); }));
  } else if (v == "nvrtc" || v == "nvrtc-fresh") {
    int *err; CK(cudaMalloc(&err, 4)); CK(cudaMemset(err, 0, 4));
    CUfunction fn = nvrtcGolden(getenv("ROOT") ? getenv("ROOT") : ".", "scan_scan_i32.golden", "k_scanomap");
    row(v == "nvrtc" ? "golden, nvrtc" : "golden, nvrtc, fresh output", timed(L, 10, v == "nvrtc-fresh" ? 1 : 0, true, [&] {
      i64 n = L.n; void *args[] = {&n, &n, &err, &L.in, &L.out, &L.state, &L.ticket};
      if (cuLaunchKernel(fn, L.ntiles, 1, 1, T, 1, 1, 0, 0, args, nullptr) != CUDA_SUCCESS) { printf("launch failed\n"); exit(1); }
    }));
  }
  else if (v == "pool" || v == "pool0" || v == "churn") {
    cudaMemPool_t pool;
    CK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t thr = v == "pool" ? ~0ull : 0;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
    row(v == "pool" ? "shipped, pool (kept), output each run" : v == "pool0" ? "shipped, pool (released), output each run" : "shipped, unrelated malloc/free between runs",
        timed(L, 10, v == "churn" ? 3 : 2, true, [&] { scan_i32<0, false><<<L.ntiles, T>>>(L.n, L.in, L.out, L.state, L.ticket, L.tr, 1200); }));
  } else if (v == "copy-fresh") {
    row("copy into a fresh buffer each run", timed(L, 10, 1, false, [&] { CK(cudaMemcpyAsync(L.out, L.in, L.n * 4, cudaMemcpyDeviceToDevice)); }));
  }
  else if (v == "trace-shipped") { row("shipped, traced", run<0, true>(L, 1200, 3, false)); trace(L); }
  else if (v == "trace-nolook") { row("no look-back, traced", run<1, true>(L, 0, 3, false)); trace(L); }
  else if (v == "trace-lbwarp") { row("look-back warp, traced", run<2, true>(L, 100, 3, false)); trace(L); }
  else { printf("unknown variant %s\n", v.c_str()); return 2; }
  return 0;
}
#endif
