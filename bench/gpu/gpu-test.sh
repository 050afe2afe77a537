#!/usr/bin/env bash
# What `make gpu-test` runs for the GPU backend on the GPU machine (no Go
# there). Build first, where Go is:
#   CGO_ENABLED=0 go build -o .devbin/arepl ./cmd/arepl
#   CGO_ENABLED=0 go test -c -o .devbin/gpu.test ./eval/gpu
#   CGO_ENABLED=0 go test -c -o .devbin/cuda.test ./eval/gpu/cuda
# Then: bash bench/gpu/gpu-test.sh [.devbin]
# It runs the driver tests, the map/redomap/segmented-reduce device tests
# (every kernel family at many sizes against Go references, error-flag
# checks, the disk cache), the same under compute-sanitizer memcheck, and
# every test program of the repository on the GPU, fused and unfused, with
# the CPU interpreter's expected results.
set -euo pipefail
dir=$(cd "${1:-.devbin}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/arepl-gpu-test-cache}
cd "$root/eval/gpu" # the tests read testdata/ from here
"$dir/cuda.test" -test.v
# Every test of the package (the device ones among them: scans, histograms,
# sorts, tiles, segmented reductions, narrow bodies, tiers) but the
# compile-time measurement, which is a benchmark.
"$dir/gpu.test" -test.skip 'TestCompileTimes' -test.v
if command -v compute-sanitizer >/dev/null; then
  # memcheck slows kernels a lot: sizes up to 70000 cover every path
  compute-sanitizer --tool memcheck --error-exitcode 3 "$dir/gpu.test" -test.run 'TestDevice|TestTileDevice|TestSegRedDevice|TestVectorOpDevice|TestSplitScansDevice|TestSeqScatter|TestEmptyOnCPU|TestNarrowDevice|TestScanDevice|TestHistDevice|TestRadixSortDevice' -gpu.maxn 70000
fi
cd "$root"
"$dir/arepl" test --backend gpu testdata examples
"$dir/arepl" test --backend gpu --no-fusion testdata examples
