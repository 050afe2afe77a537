#!/usr/bin/env bash
# GPU benchmark, run on the GPU machine in one go: arepl's kernels
# (BenchmarkGPU in the eval/gpu test binary, built on a machine with Go:
#   CGO_ENABLED=0 go test -c -o .devbin/gpu.test ./eval/gpu)
# then the same workloads in PyTorch, CuPy and JAX, with ratios.
# Usage: bench/gpu/run.sh [test-binary] [log2n]   (logs under $OUT if set;
# SEQS lists the sequentiality degrees the MSSP sweep measures, ORDMIN the
# launch bounds' blocks per SM it measures)
set -euo pipefail
bin=${1:-.devbin/gpu.test}
log2n=${2:-28}
out=${OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true
"$bin" -test.run '^$' -test.bench 'BenchmarkGPU' -test.benchtime 20x -gpubench.log2n "$log2n" -gpubench.seq "${SEQS:-15,31,45}" -gpubench.ordminblocks "${ORDMIN:-}" 2>&1 | tee "$out/go-bench.txt"
PYTHONUNBUFFERED=1 python3 "$here/peers.py" "$out/go-bench.txt" "$log2n" 2>&1 | tee "$out/peers.txt"
