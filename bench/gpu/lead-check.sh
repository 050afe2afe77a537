#!/usr/bin/env bash
# The lead's check of main on one GPU: gpu-test.sh's steps, cpulist.sh, memcheck of the
# programs, and the stencil row of nested.sh; logs tarred under $OUT. Build into .carry-lead
# (arepl, gpu.test, cuda.test with -ldflags=-s) and send it as a carry folder.
# PART=a: tests and programs; PART=b: memcheck of the device tests and the stencil;
# PART=c: nested.sh's every workload with peers, REPL repeats under GC floors, cold compiles.
set -uo pipefail
root=$(pwd); d=$root/.carry-lead
export XDG_CACHE_HOME=/tmp/arepl-cache
L=/tmp/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/summary.txt
s=$SECONDS
step() { local name=$1; shift; local t=$SECONDS; "$@" >"$L/$name.log" 2>&1; local rc=$?; { echo "STEP $name rc=$rc $((SECONDS-t))s"; tail -3 "$L/$name.log"; } | tee -a $OUT/summary.txt; }
if [ "${PART:-a}" = a ]; then
cd eval/gpu
step cuda "$d/cuda.test" -test.v
step device "$d/gpu.test" -test.skip 'TestCompileTimes' -test.v
cd "$root"
step fused "$d/arepl" test --backend gpu testdata examples
step unfused "$d/arepl" test --backend gpu --no-fusion testdata examples
step cpulist bash bench/gpu/cpulist.sh "$d/arepl"
step memcheck-progs compute-sanitizer --tool memcheck --error-exitcode 3 "$d/arepl" test --backend gpu testdata/nested testdata/segred testdata/vecops testdata/segscatter testdata/horizontal testdata/prelude testdata/conformance examples
fi
if [ "${PART:-a}" = b ]; then
cd eval/gpu
step memcheck timeout ${MEMT:-240} compute-sanitizer --tool memcheck --error-exitcode 3 "$d/gpu.test" -test.run 'TestDevice|TestTileDevice|TestSegRedDevice|TestVectorOpDevice|TestSplitScansDevice|TestSeqScatter|TestEmptyOnCPU|TestScanDevice|TestHistDevice|TestRadixSortDevice' -gpu.maxn 70000
step stencil env NESTED=copy,stencil PEER_SECTIONS=bw,stencil timeout 200 bash "$root/bench/gpu/nested.sh" "$d/gpu.test"
cd "$root"
fi
if [ "${PART:-a}" = c ]; then
# Issue 15's table in one run (every workload of nested.sh with its peers), then
# issue 16's REPL figures: repeats under GC floors 0 / 16 / 64 MB interleaved
# (latency.hit.txt, fresh REPL and caches a session), and cold compiles
# (latency_cold.sh over latency.cold.txt, the shipped defaults).
cd eval/gpu
step nested timeout ${NESTT:-300} bash "$root/bench/gpu/nested.sh" "$d/gpu.test"
cd "$root"
cp bench/gpu/latency.py bench/gpu/latency.cold.txt bench/gpu/hitpath/latency.hit.txt "$d/"
hit() { XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) AREPL_GC_FLOOR_MB=$2 timeout 60 python3 "$d/latency.py" --arepl "$d/arepl" --inputs "$d/latency.hit.txt" --out "$L/hit-$1.jsonl" --timeout 30 >/dev/null || echo "session $1 failed"; }
t=$SECONDS
for r in 1 2 3; do for f in 0 16 64; do hit floor$f-$r $f; done; done
python3 bench/gpu/hitpath/hitsummary.py "$L" | tee -a $OUT/summary.txt
echo "STEP hit $((SECONDS-t))s" | tee -a $OUT/summary.txt
step cold env VARIANTS="now=" ROUNDS=${COLDR:-4} bash bench/gpu/latency_cold.sh "$d" $L/coldout
sed -n '/compile stage ms/,/per session: NVRTC/p' $L/coldout/cold.log >> $OUT/summary.txt
fi
grep -h -B2 -A8 'FAIL\|panic' $L/*.log 2>/dev/null | head -150 > $OUT/failures.txt
tar czf $OUT/logs.tgz -C $L .
echo "total $((SECONDS-s))s" | tee -a $OUT/summary.txt
