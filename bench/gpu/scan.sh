#!/usr/bin/env bash
# The single-pass scans on the GPU machine in one go: correctness against
# the CPU interpreter (TestScanDevice), the u8 scan over 2^31+5 elements
# (64-bit offsets), compute-sanitizer memcheck on small sizes, then the
# benchmark at 2^LOG2N with the sweep of block sizes and sequentiality
# degrees, and PyTorch, CuPy (CUB) and JAX beside it. VARIANTS=0,k times
# the sweep with the shipped kernels and others back to back (letters: k
# keep the scanned values instead of recomputing the store, r recompute
# wherever possible, sN look-back states N apart; -gpubench.variant).
# Build first, where Go is: CGO_ENABLED=0 go test -c -o .devbin/gpu.test ./eval/gpu
# Usage: bench/gpu/scan.sh [test-binary] [log2n]   (logs under $OUT if set)
set -uo pipefail
bin=$(cd "$(dirname "${1:-.devbin/gpu.test}")" && pwd)/$(basename "${1:-.devbin/gpu.test}")
log2n=${2:-28}
out=${OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../eval/gpu" # the tests read testdata/ from here
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
status=0
"$bin" -test.run 'TestScan' -test.v -gpu.scanlarge $((1 << 26)) -gpu.scanhuge $(((1 << 31) + 5)) >"$out/scan-test.txt" 2>&1 || status=1
grep -E '^(--- |FAIL|ok|PASS)|scan_test' "$out/scan-test.txt" | tail -40
if command -v compute-sanitizer >/dev/null; then
  compute-sanitizer --tool memcheck --error-exitcode 3 "$bin" -test.run 'TestScanDevice' -gpu.maxn 70000 >"$out/memcheck.txt" 2>&1 || status=1
  tail -3 "$out/memcheck.txt"
  compute-sanitizer --tool racecheck --error-exitcode 3 "$bin" -test.run 'TestScanDevice' -gpu.maxn 20000 >"$out/racecheck.txt" 2>&1 || status=1
  tail -3 "$out/racecheck.txt"
fi
"$bin" -test.run '^$' -test.bench 'BenchmarkScan' -test.benchtime 10x -gpubench.log2n "$log2n" -gpubench.seq "${SEQS:-15,23,31}" -gpubench.scanblock "${BLOCKS:-128,256}" -gpubench.minblocks "${MINBLOCKS:-0}" -gpubench.variant "${VARIANTS:-0}" -gpubench.delay "${DELAYS:-}" 2>&1 | tee "$out/scan-bench.txt"
PYTHONUNBUFFERED=1 python3 "$here/scan_peers.py" "$out/scan-bench.txt" "$log2n" 2>&1 | tee "$out/scan-peers.txt"
exit $status
