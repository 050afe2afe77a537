#!/usr/bin/env bash
# Build and run the scan lab on the GPU machine (nvcc there); log under $OUT.
# Each variant runs as its own process under a time limit, so a kernel that
# deadlocks costs that variant, not the call.
# Usage: bench/gpu/scanlab/run.sh [variant...]   (N=elements, default 2^28)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp}
nvcc -O3 -arch=sm_90 -std=c++17 -I "$here/../../../kernels" -Xptxas -v "$here/lab.cu" -o "$out/lab" -lnvrtc -lcuda >"$out/lab-build.txt" 2>&1 || { cat "$out/lab-build.txt"; exit 1; }
grep -E "registers|Compiling" "$out/lab-build.txt" | paste - - | sed -e 's/ptxas info *: //g' -e 's/Compiling entry function//' | cut -c1-160 || true
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
for v in "${@:-shipped nolook}"; do
  ROOT="$here/../../.." timeout "${LIMIT:-40}" "$out/lab" "$v" "${N:-268435456}" 2>&1 | tee -a "$out/lab.txt" || echo "$v: exit $? (124: timed out)" | tee -a "$out/lab.txt"
done
