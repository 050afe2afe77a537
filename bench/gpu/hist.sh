#!/usr/bin/env bash
# Histograms, scatter and multiscan on the GPU machine in one go:
# correctness against the CPU interpreter (TestHistDevice and the golden and
# table tests), compute-sanitizer memcheck on small sizes, then the timings
# at 2^LOG2N elements with PyTorch and CuPy beside them.
# Build first, where Go is: CGO_ENABLED=0 go test -c -o .devbin/hist-gpu.test ./eval/gpu
# Usage: bench/gpu/hist.sh [test-binary] [log2n]   (logs under $OUT if set)
set -uo pipefail
bin=$(cd "$(dirname "${1:-.devbin/hist-gpu.test}")" && pwd)/$(basename "${1:-.devbin/hist-gpu.test}")
log2n=${2:-26}
out=${OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../eval/gpu" # the tests read testdata/ from here
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
status=0
timeout 130 "$bin" -test.run 'TestHist|TestUpdateMethod|TestMultiscan' -test.v -gpu.histlarge $((1 << 22)) >"$out/hist-test.txt" 2>&1 || status=1
grep -E '^(--- |FAIL|ok|PASS)|^\s+(---|hist_test|.*error)' "$out/hist-test.txt" | tail -60
if command -v compute-sanitizer >/dev/null; then
  timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 "$bin" -test.run 'TestHistDevice/(count_i32|tuple_sum_max_lock|max_f64_cas|scatter_two|multiscan_linfun_i32)' -gpu.maxn 1000 >"$out/memcheck.txt" 2>&1 || status=1
  tail -4 "$out/memcheck.txt"
fi
timeout 50 "$bin" -test.run 'TestHistBench' -gpu.histbench $((1 << log2n)) 2>&1 | grep HISTBENCH | tee "$out/hist-bench.txt"
PYTHONUNBUFFERED=1 timeout 50 python3 "$here/hist_peers.py" "$log2n" 2>&1 | tee "$out/hist-peers.txt"
exit $status
