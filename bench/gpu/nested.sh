#!/usr/bin/env bash
# Issue 15's nested-parallelism benchmark on the GPU machine, in one go:
# arepl's kernels (BenchmarkNested in the eval/gpu test binary; workloads
# with a statement on the CPU are listed as such, not timed), a hand-written
# CUDA Mandelbrot (bench/gpu/mandel.cu, compiled here by nvcc), then PyTorch
# and JAX on the same data (nested_peers.py), with a summary table last.
# Build first, where Go is: CGO_ENABLED=0 go test -c -o .devbin/gpu.test ./eval/gpu
# Usage: bench/gpu/nested.sh [test-binary]   (logs under $OUT if set;
# NESTED=name,name runs only those workloads of BenchmarkNested; MM lists
# more matrix-product tilings to time, BMxBNxBKxTMxTN; PARTS the n-body
# kernel's threads a body to time beside the automatic choice (default 1,
# the unsplit kernel); UNROLL, UNROLL1D and SEGMINBLOCKS more settings of
# the flat 2-D map's unrolling, the n-body tile loop's unrolling and the
# stencil's launch bounds to time; VARS more variants (see -gpubench.var in
# eval/gpu/nested_bench_test.go); SEG lists segmented-reduction kernels the
# short segsq rows also run with, e.g. g1,g32,staged8; PEER_SECTIONS limits
# the peers, see nested_peers.py: without mandel there is no nvcc
# Mandelbrot, without nbody no JAX n-body run)
set -uo pipefail
bin=$(cd "$(dirname "${1:-.devbin/gpu.test}")" && pwd)/$(basename "${1:-.devbin/gpu.test}")
out=${OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true
# One workload failing (or running on the CPU) does not stop the others:
# each is its own sub-benchmark, and this script goes on whatever the exit.
"$bin" -test.run '^$' -test.bench 'BenchmarkNested' -test.benchtime 10x -test.v -gpubench.nested "${NESTED:-}" -gpubench.mm "${MM:-}" -gpubench.parts "${PARTS:-1}" -gpubench.unroll "${UNROLL:-}" -gpubench.unroll1d "${UNROLL1D:-}" -gpubench.segminblocks "${SEGMINBLOCKS:-}" -gpubench.var "${VARS:-}" -gpubench.seg "${SEG:-}" 2>&1 | tee "$out/nested-bench.txt" | grep -E '^(Benchmark|\s*--- |\s+\S+_test.go)' || true
export PATH=$PATH:/usr/local/cuda/bin
sections=${PEER_SECTIONS:-bw,seg,mandel,matmul,nbody,stencil}
if [[ ",$sections," != *,mandel,* ]]; then
  echo "PEER_SECTIONS has no mandel: no CUDA Mandelbrot"
elif command -v nvcc >/dev/null; then
  nvcc -O3 -arch=sm_90 -o /tmp/mandel "$here/mandel.cu" && /tmp/mandel 4000 4000 255 20 | tee "$out/mandel.txt" || echo "mandel.cu failed"
else
  echo "nvcc not found: no CUDA Mandelbrot"
fi
# JAX's n-body first, on its own and time-limited (XLA once compiled the
# unblocked version for minutes); its lines join the main table.
if [[ ",$sections," == *,nbody,* ]]; then
  PEER_SECTIONS=nbody PYTHONUNBUFFERED=1 timeout "${NBODY_LIMIT:-120}" python3 "$here/nested_peers.py" none 2>&1 | grep '^peer' | tee "$out/nbody-peers.txt"
else
  : >"$out/nbody-peers.txt"
fi
PEER_SECTIONS=${PEER_SECTIONS:-bw,seg,mandel,matmul,stencil} PYTHONUNBUFFERED=1 python3 "$here/nested_peers.py" "$out/nested-bench.txt" "$out/mandel.txt" "$out/nbody-peers.txt" 2>&1 | tee "$out/nested-peers.txt"
