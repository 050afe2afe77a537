// Hand-written CUDA Mandelbrot, the reference for issue 15's benchmark
// (bench/gpu/nested.sh compiles it with nvcc on the GPU machine): the same
// image and iteration rule as BenchmarkNested's mandelbrot (eval/gpu), a
// thread per pixel, 2-D blocks of 32 x 8, timed with CUDA events.
// Usage: mandel [h w iters reps]   prints "mandel_cuda_4000 ms checksum"
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void mandel(int *out, int h, int w, int iters) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float cr = (float)x * 3 / (float)w - 2, ci = (float)y * 2.4f / (float)h - 1.2f;
  float zr = 0, zi = 0;
  int k = 0;
  while (k < iters && zr * zr + zi * zi < 4) {
    float t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    k++;
  }
  out[(long long)y * w + x] = k;
}

#define CK(x) do { cudaError_t ck_err = (x); if (ck_err != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(ck_err)); exit(1); } } while (0)

int main(int argc, char **argv) {
  int h = argc > 1 ? atoi(argv[1]) : 4000, w = argc > 2 ? atoi(argv[2]) : 4000;
  int iters = argc > 3 ? atoi(argv[3]) : 255, reps = argc > 4 ? atoi(argv[4]) : 20;
  int *out;
  CK(cudaMalloc(&out, sizeof(int) * (size_t)h * w));
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  mandel<<<grid, block>>>(out, h, w, iters);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t s, e;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&e));
  CK(cudaEventRecord(s));
  for (int i = 0; i < reps; i++) mandel<<<grid, block>>>(out, h, w, iters);
  CK(cudaEventRecord(e));
  CK(cudaEventSynchronize(e));
  CK(cudaGetLastError());
  float ms;
  CK(cudaEventElapsedTime(&ms, s, e));
  int *host = (int *)malloc(sizeof(int) * (size_t)h * w);
  CK(cudaMemcpy(host, out, sizeof(int) * (size_t)h * w, cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (long long i = 0; i < (long long)h * w; i++) sum += host[i];
  printf("mandel_cuda_%d %.4f ms checksum %lld\n", w, ms / reps, sum);
  return 0;
}
