#!/usr/bin/env bash
# Issue 15, branch h-stencil5: the host-checked vector path with a thread's
# rows neighbours and every row's stores after all its rows' loads and sums
# (vecAdjacent, knob vecadj), in one device call. Run from a carry folder
# laid out as the repository (bin/arepl, bin/arepl-adj: a build whose
# default is that path at 2 rows; eval/gpu/gpu.test, testdata/nested):
# (variant names must contain a -gpubench.nested name: stencil)
# BenchmarkNested's copy and stencil rows with the variants, then
# `arepl test --backend gpu` fused and unfused on testdata/nested and
# memcheck on the stencils with the adj build, a mutant build
# (bin/arepl-mut) that must fail, TestNarrowDevice last. LAB=1 also
# builds the lab (needs bench/gpu/stencil2 and kernels/prelude.cu in the
# carry); BENCHONLY=1 stops after the benchmark.
# Logs under $OUT.
set -uo pipefail
out=${OUT:-/tmp}
root=$(pwd)
# The carry holds the binaries gzipped (its size limit).
for f in bin/*.gz eval/gpu/*.gz; do [ -e "$f" ] && gunzip -f "$f" && chmod +x "${f%.gz}"; done
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
cd "$root/eval/gpu"
VARS=stencil_r1:stencil_4096:vecrows=1,stencil_r2:stencil_4096:vecrows=2,stencil_a2:stencil_4096:vecrows=2+vecadj=1,stencil_a4:stencil_4096:vecrows=4+vecadj=1,stencil_a8:stencil_4096:vecrows=8+vecadj=1,stencil_gs_again:stencil_4096:vecrows=0,stencil_gs_100:stencil_4096:k=100,stencil_a2_100:stencil_4096:vecrows=2+vecadj=1+k=100,stencil_a4_100:stencil_4096:vecrows=4+vecadj=1+k=100,stencil_a2_again:stencil_4096:vecrows=2+vecadj=1
timeout 150 ./gpu.test -test.run '^$' -test.bench 'BenchmarkNested' -test.benchtime 10x -test.v -gpubench.nested copy,stencil -gpubench.parts 1 -gpubench.var "$VARS" 2>&1 | tee "$out/nested-bench.txt" | grep -E '^(Benchmark|\s*--- |\s+\S+_test.go)' | grep -v kernels: | tail -30
# The lab's hand kernels in the same call, for reference (LAB=1).
[ -z "${LAB:-}" ] || { cd "$root/bench/gpu/stencil2" && nvcc -O3 -arch=sm_90 -o /tmp/lab lab.cu && /tmp/lab 20 2>&1 | tee "$out/lab.txt" | grep -E "copy|float4|generated, stores last, 8|device"; }
[ -z "${BENCHONLY:-}" ] || exit 0
cd "$root"
{ timeout 90 bin/arepl-adj test testdata/nested --backend gpu 2>&1 | tail -3
  timeout 90 bin/arepl-adj test testdata/nested --backend gpu --no-fusion 2>&1 | tail -3; } | tee "$out/tests.txt"
timeout 120 compute-sanitizer --tool memcheck --print-limit 20 bin/arepl-adj test testdata/nested/stencil.fut testdata/nested/stencil_vec.fut testdata/nested/stencil_narrow.fut testdata/nested/stencil_div.fut --backend gpu > "$out/memcheck.txt" 2>&1; echo "memcheck rc $?"; tail -4 "$out/memcheck.txt"
# A mutant whose rows store one another's results must fail the tests.
timeout 60 bin/arepl-mut test testdata/nested/stencil_vec.fut testdata/nested/stencil.fut --backend gpu 2>&1 | tail -2 | tee "$out/mutant.txt"
cd "$root/eval/gpu"
[ -n "${NONARROW:-}" ] || timeout ${NARROWT:-150} ./gpu.test -test.run 'TestNarrowDevice|TestVecRecognise' -test.v 2>&1 | grep -E '^(---|ok|FAIL|PASS)|narrow_test' | tail -20 | tee "$out/narrow.txt"
