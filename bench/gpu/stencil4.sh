#!/usr/bin/env bash
# Issue 15, branch h-stencil4: the host-checked vector path of the stencil
# (vecstep.go, vecFast), in one device call. Run from a carry folder laid out
# as the repository (bin/arepl, eval/gpu/gpu.test, testdata/nested,
# bench/gpu): BenchmarkNested's copy and stencil rows with the variants (a
# thread a step of 1 and 2 tile rows, the grid-stride loop), the peers, then
# `arepl test --backend gpu` fused and unfused on testdata/nested, memcheck on
# the stencils and TestNarrowDevice. Logs under $OUT.
set -uo pipefail
out=${OUT:-/tmp}
root=$(pwd)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
# The peers' python and the benchmark, variants by -gpubench.var knobs.
cd "$root/eval/gpu"
NESTED=copy,stencil PEER_SECTIONS=${PEERS:-bw,stencil} \
VARS=stencil_v_gs:stencil_4096:vecrows=0,stencil_v_r2:stencil_4096:vecrows=2,stencil_v_in:stencil_4096:vecsplit=0,stencil_v_in_r2:stencil_4096:vecsplit=0+vecrows=2,stencil_v_100:stencil_4096:k=100,stencil_v_gs_100:stencil_4096:vecrows=0+k=100,stencil_v_r2_100:stencil_4096:vecrows=2+k=100,stencil_v_again:stencil_4096:vecrows=1 \
  timeout 200 bash "$root/bench/gpu/nested.sh" ./gpu.test 2>&1 | tail -40
cd "$root"
export PATH=$PATH:/usr/local/cuda/bin
{ timeout 120 bin/arepl test testdata/nested --backend gpu 2>&1 | tail -5
  timeout 120 bin/arepl test testdata/nested --backend gpu --no-fusion 2>&1 | tail -5; } | tee "$out/tests.txt"
timeout 150 compute-sanitizer --tool memcheck --print-limit 20 bin/arepl test testdata/nested/stencil.fut testdata/nested/stencil_vec.fut testdata/nested/stencil_narrow.fut testdata/nested/stencil_div.fut --backend gpu > "$out/memcheck.txt" 2>&1; echo "memcheck rc $?"; tail -8 "$out/memcheck.txt"
cd "$root/eval/gpu"
[ -n "${NONARROW:-}" ] || timeout 200 ./gpu.test -test.run 'TestNarrowDevice|TestVecRecognise|TestHostEval' -test.v 2>&1 | grep -E '^(---|===|ok|FAIL|PASS)|narrow_test' | tail -30 | tee "$out/narrow.txt"
