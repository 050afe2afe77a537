#!/usr/bin/env bash
# Histograms, scatter and multiscan on the GPU machine in one go, in steps
# chosen by PHASES (default: all but variants and sass), run in this order:
#   bench      TestHistBench at 2^LOG2N elements (the count and f32 rows, CAS)
#   locks      the per-bucket lock rows and the two-histogram statement
#   multiscan  the multiscan rows at 2^24 elements, with the CPU interpreter
#   test       correctness against the CPU interpreter (TestHistDevice with a
#              2^22-element size, 2^19 for multiscan; the golden and table
#              tests)
#   memcheck   compute-sanitizer memcheck on small sizes
#   sort       the atomic and the sort-based paths side by side, for
#              bucket counts up to 2^26 (2^LOG2N elements) and multiscans
#              of 16 to 2^20 labels (2^24 elements)
#   peers      PyTorch and CuPy on the same workloads (hist_peers.py)
#   variants   rows (VROWS) again under each flag set of VARIANTS
#              (';'-separated, e.g. "-gpu.histblock 512;-gpu.histgroups 2")
#   sass       the SASS of the modules named in SASS (default: the count and
#              f32 sums), built by nvcc from TestHistSource's output
# Every step has its own time limit, so that all fit one call of the device
# tool; logs go under $OUT (or /tmp).
# Build first, where Go is: CGO_ENABLED=0 go test -c -o .devbin/hist-gpu.test ./eval/gpu
# Usage: [PHASES=...] bench/gpu/hist.sh [test-binary] [log2n]
set -uo pipefail
bin=$(cd "$(dirname "${1:-.devbin/hist-gpu.test}")" && pwd)/$(basename "${1:-.devbin/hist-gpu.test}")
log2n=${2:-26}
out=${OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
phases=" ${PHASES:-bench locks multiscan sort peers test memcheck} "
has() { [[ $phases == *" $1 "* ]]; }
cd "$here/../../eval/gpu" # the tests read testdata/ from here
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true
status=0
rows='^(count|sum|max|mul_)'
if has bench; then
  timeout 60 "$bin" -test.run 'TestHistBench$' -gpu.histbench $((1 << log2n)) -gpu.histrows "$rows" 2>&1 | grep -E '^HIST|FAIL|panic' | tee "$out/hist-bench.txt" || status=1
fi
if has locks; then
  timeout 35 "$bin" -test.run 'TestHistBench$' -gpu.histbench $((1 << log2n)) -gpu.histrows '^(tuple|add_u8|two_ops)' 2>&1 | grep -E '^HISTBENCH|FAIL|panic' | tee -a "$out/hist-bench.txt" || status=1
fi
if has multiscan; then
  timeout 20 "$bin" -test.run 'TestHistBench$' -gpu.histbench $((1 << 24)) -gpu.histrows '^multiscan' 2>&1 | grep -E '^HISTBENCH|FAIL|panic' | tee -a "$out/hist-bench.txt" || status=1
fi
if has sort; then
  timeout 120 "$bin" -test.run 'TestHistBench$' -gpu.histbench $((1 << log2n)) -gpu.histpaths -gpu.histrows '^(count|sum|add_u8|max|tuple)' 2>&1 | grep -E '^HISTBENCH|FAIL|panic' | tee -a "$out/hist-bench.txt" || status=1
  timeout 60 "$bin" -test.run 'TestHistBench$' -gpu.histbench $((1 << 24)) -gpu.histpaths -gpu.histrows '^multiscan' 2>&1 | grep -E '^HISTBENCH|FAIL|panic' | tee -a "$out/hist-bench.txt" || status=1
fi
if has test; then
  # the histogram programs at up to 2^22 elements, the multiscans (whose
  # CPU reference is sequential) at up to 2^19
  timeout 120 "$bin" -test.run 'TestHist|TestUpdateMethod|TestMultiscan|TestSortDigits|TestRadixSort' -test.skip 'TestHistDevice/multiscan' -test.v -gpu.histlarge $((1 << 22)) >"$out/hist-test.txt" 2>&1 || status=1
  timeout 60 "$bin" -test.run 'TestHistDevice/multiscan' -test.v -gpu.histlarge $((1 << 19)) >>"$out/hist-test.txt" 2>&1 || status=1
  grep -E '^(--- |FAIL|ok|PASS)|^\s+(---|hist_test|.*error)' "$out/hist-test.txt" | grep -v 'TestHistGolden/' | tail -40
fi
if has memcheck && command -v compute-sanitizer >/dev/null; then
  timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 "$bin" -test.run 'TestRadixSortDevice|TestHistDevice/(count_i32|tuple_sum_max_lock|max_f64_cas|scatter_two|multiscan_linfun_i32)' -gpu.maxn 5000 >"$out/memcheck.txt" 2>&1 || status=1
  tail -4 "$out/memcheck.txt"
fi
if has peers; then
  PYTHONUNBUFFERED=1 timeout 40 python3 "$here/hist_peers.py" "$log2n" 2>&1 | tee "$out/hist-peers.txt"
fi
if has variants; then
  IFS=';' read -ra vs <<<"${VARIANTS:-}"
  for v in "${vs[@]}"; do
    # shellcheck disable=SC2086 # each variant is a list of flags
    timeout 15 "$bin" -test.run 'TestHistBench$' -gpu.histbench $((1 << log2n)) -gpu.histrows "${VROWS:-^(count_i32|sum_f32_i32) h=256 }" $v 2>&1 | grep -E '^HIST|FAIL|panic' | tee -a "$out/variants.txt"
  done
fi
if has sass; then
  # the modules as the backend compiles them, built by nvcc for sm_90
  src=$(mktemp -d)
  "$bin" -test.run 'TestHistSource$' -gpu.histsrc "$src" >/dev/null 2>&1
  for p in ${SASS:-count_i32 sum_f32_i32}; do
    nvcc -arch=sm_90 -std=c++17 -cubin -Xptxas -v -o "$src/$p.cubin" "$src/$p.cu" 2>&1 | grep -E 'registers|spill' | sed "s/^/$p: /"
    cuobjdump --dump-sass "$src/$p.cubin"
  done >"$out/sass.txt" 2>&1
  grep -E ': ' "$out/sass.txt" | grep -E 'registers|spill' || true
  grep -oE 'ATOMS[.A-Z0-9]*|LDG[.A-Z0-9]*|REDG?[.A-Z0-9]*|ATOMG[.A-Z0-9]*|MATCH[.A-Z0-9]*' "$out/sass.txt" | sort | uniq -c
fi
exit $status
