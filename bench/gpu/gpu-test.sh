#!/usr/bin/env bash
# What `make gpu-test` runs for the GPU backend on the GPU machine: the
# eval/gpu tests (every kernel family at many sizes against Go references,
# error-flag checks, the disk cache), then the same under compute-sanitizer
# memcheck. Build first, where Go is:
#   CGO_ENABLED=0 go test -c -o .devbin/gpu.test ./eval/gpu
#   CGO_ENABLED=0 go test -c -o .devbin/cuda.test ./eval/gpu/cuda
set -euo pipefail
dir=$(cd "${1:-.devbin}" && pwd)
cd "$(dirname "$0")/../../eval/gpu" # the tests read testdata/ from here
"$dir/cuda.test" -test.v
"$dir/gpu.test" -test.v
if command -v compute-sanitizer >/dev/null; then
  # memcheck slows kernels a lot: sizes up to 70000 cover every path
  compute-sanitizer --tool memcheck --error-exitcode 3 "$dir/gpu.test" -test.run TestDevice -gpu.maxn 70000
fi
