#!/usr/bin/env bash
# The GPU check of issue 15 item 6 (no silent CPU): the statements that
# were on the CPU list (eval/backends/testdata/gpu_cpu_statements.txt) and
# their new test programs, on the GPU, fused and unfused, against the
# expected results of their test blocks; the generated CUDA of each; and,
# given the eval/gpu test binary, its device tests for them (against the
# CPU interpreter), also under compute-sanitizer memcheck.
# Build where Go is:
#   CGO_ENABLED=0 GOEXPERIMENT=simd go build -o .devbin/arepl ./cmd/arepl
#   CGO_ENABLED=0 GOEXPERIMENT=simd go test -c -o .devbin/gpu.test ./eval/gpu
# Then, from the repository root: bash bench/gpu/cpulist.sh .devbin/arepl [.devbin/gpu.test]
# BACKEND=cpu runs the same test programs on the CPU (to try the script
# without a GPU). Exits non-zero if anything failed.
set -uo pipefail
arepl=$(realpath "${1:?usage: cpulist.sh AREPL [GPU_TEST]}")
gputest=${2:+$(realpath "$2")}
backend=${BACKEND:-gpu}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/arepl-cpulist-cache}

# The new test programs, then the programs whose statements were listed.
progs=(testdata/vecops testdata/horizontal testdata/segscatter
  testdata/builtins/reduce_2d_rows.fut testdata/builtins/reduce_vector_length.fut
  testdata/builtins/scan_2d_rows.fut testdata/builtins/size_one.fut
  examples/radix_sort.fut examples/radix_sort_segmented.fut)

fail=0
for fusion in "" --no-fusion; do
  echo "== arepl test --backend $backend ${fusion:-(fused)}"
  out=$("$arepl" test --backend "$backend" $fusion "${progs[@]}" 2>&1)
  echo "$out"
  # The summary line: "N passed, M failed".
  if ! grep -qE '^[0-9]+ passed, 0 failed' <<<"$out"; then
    fail=1
  fi
done

echo "== arepl plan --cuda (every entry point of every file)"
for p in "${progs[@]}"; do
  for f in $(find "$p" -name '*.fut' | sort); do
    for e in $(sed -nE 's/^entry ([A-Za-z_][A-Za-z0-9_]*).*/\1/p' "$f"); do
      echo "-- $f -e $e: plan"
      plan=$("$arepl" plan "$f" -e "$e" 2>&1 | sed -n '/^gpu:/,$p')
      echo "$plan"
      # A statement left on the CPU shows as "CPU: why" in the plan. (The
      # CUDA module's header also says "runs on the CPU" of histograms
      # and scatters, which the histogram module runs: not checked here.)
      if grep -q ': CPU: ' <<<"$plan"; then
        echo "FAIL: $f -e $e has a statement on the CPU"
        fail=1
      fi
      echo "-- $f -e $e: CUDA"
      if ! "$arepl" plan --cuda "$f" -e "$e" 2>&1; then
        fail=1
      fi
    done
  done
done

if [ -n "$gputest" ]; then
  tests='TestVectorOp|TestSplitScans|TestSeqScatter|TestEmptyOnCPU'
  echo "== $gputest -test.run '$tests'"
  (cd eval/gpu && "$gputest" -test.run "$tests" -test.v) || fail=1
  if command -v compute-sanitizer >/dev/null; then
    echo "== compute-sanitizer memcheck"
    (cd eval/gpu && compute-sanitizer --tool memcheck --error-exitcode 3 "$gputest" -test.run "$tests" -gpu.maxn 70000) || fail=1
  fi
fi

if [ "$fail" != 0 ]; then
  echo "cpulist: FAILED"
  exit 1
fi
echo "cpulist: all passed"
