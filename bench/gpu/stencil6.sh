#!/usr/bin/env bash
# Issue 15, branch h-stencil6: the stencil's ladder and the generator's
# kernels in one device call. Run from a carry folder laid out as the
# repository (bin/arepl, eval/gpu/gpu.test, testdata/nested, kernels/prelude.cu,
# bench/gpu/stencil2), binaries gzipped (the carry's size limit).
#   LAB=1       bench/gpu/stencil2/lab6.cu: generated kernels, hand kernels and
#               the rungs between them, each timed back to back (B), with an
#               event pair a launch (E, the backend's way) and with the host
#               late (S); NCU=1 adds one ncu run of two of its kernels.
#   VARS=...    BenchmarkNested's copy and stencil rows with these variants.
#   TESTS=1     arepl test --backend gpu fused and unfused on testdata/nested,
#               compute-sanitizer memcheck on the stencils, TestNarrowDevice,
#               TestVecRecognise, TestVecHostCache (NARROW=settings limits
#               TestNarrowDevice's, NARROWT its time); MUT=1 also runs
#               bin/arepl-mut, a build whose rows store each other's results,
#               which must fail.
# Logs under $OUT.
set -uo pipefail
out=${OUT:-/tmp}
root=$(pwd)
for f in bin/*.gz eval/gpu/*.gz; do [ -e "$f" ] && gunzip -f "$f" && chmod +x "${f%.gz}"; done
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
if [ -n "${LAB:-}" ]; then
  cd "$root/bench/gpu/stencil2"
  nvcc -O3 -arch=sm_90 -o /tmp/lab6 lab6.cu > "$out/nvcc.txt" 2>&1 || grep -B2 -A3 " error" "$out/nvcc.txt" | cut -c1-300 | head -30
  /tmp/lab6 50 30 2>&1 | tee "$out/lab6.txt"
  if [ -n "${NCU:-}" ]; then
    timeout 120 ncu --section MemoryWorkloadAnalysis --section SourceCounters --section Occupancy -k 'regex:hvec|g6_def' --launch-skip 2 --launch-count 2 /tmp/lab6 4 0 > "$out/ncu.txt" 2>&1
    echo "ncu rc $?"; grep -E "^  [a-z_0-9<>]+\(|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Achieved Occupancy|Registers|Duration|Sectors/Req|uncoalesced" "$out/ncu.txt" | head -40
  fi
fi
if [ -n "${VARS+x}" ]; then
  cd "$root/eval/gpu"
  timeout 200 ./gpu.test -test.run '^$' -test.bench 'BenchmarkNested' -test.benchtime 10x -test.v -gpubench.nested copy,stencil -gpubench.parts 1 ${VARS:+-gpubench.var "$VARS"} 2>&1 | tee "$out/nested-bench.txt" | grep -E '^(Benchmark|\s*--- )' | tail -30
fi
[ -n "${TESTS:-}" ] || exit 0
cd "$root"
# The other programs whose maps get vector steps (h-stencil3's list).
others="testdata/arrays/reverse_2d.fut testdata/builtins/empty_shapes.fut testdata/conformance/empty_ascribed.fut testdata/errors/replicate_negative.fut testdata/prelude/reduce_by_index_2d.fut testdata/prelude/reduce_by_index_3d.fut testdata/prelude/scatter_3d.fut"
{ timeout 90 bin/arepl test testdata/nested --backend gpu 2>&1 | tail -3
  timeout 90 bin/arepl test testdata/nested --backend gpu --no-fusion 2>&1 | tail -3
  timeout 60 bin/arepl test $others --backend gpu 2>&1 | tail -3
  timeout 60 bin/arepl test $others --backend gpu --no-fusion 2>&1 | tail -3; } | tee "$out/tests.txt"
timeout 150 compute-sanitizer --tool memcheck --print-limit 20 bin/arepl test testdata/nested/stencil.fut testdata/nested/stencil_vec.fut testdata/nested/stencil_narrow.fut testdata/nested/stencil_div.fut $others --backend gpu > "$out/memcheck.txt" 2>&1; echo "memcheck rc $?"; tail -4 "$out/memcheck.txt"
[ -z "${MUT:-}" ] || timeout 60 bin/arepl-mut test testdata/nested/stencil_vec.fut testdata/nested/stencil.fut --backend gpu 2>&1 | tail -2 | tee "$out/mutant.txt"
cd "$root/eval/gpu"
timeout ${NARROWT:-200} ./gpu.test -test.run 'TestNarrowDevice|TestVecRecognise|TestVecHostCache' -test.v ${NARROW:+-gpu.narrow "$NARROW"} 2>&1 | grep -E '^(---|ok|FAIL|PASS)|narrow_test' | tail -20 | tee "$out/narrow.txt"
