#!/usr/bin/env bash
# The lead's check of main on one GPU: gpu-test.sh's steps, cpulist.sh, memcheck of the
# programs, and the stencil row of nested.sh; logs tarred under $OUT. Build into .carry-lead
# (arepl, gpu.test, cuda.test with -ldflags=-s) and send it as a carry folder.
# PART=a: tests and programs; PART=b: memcheck of the device tests and the stencil.
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
grep -h -B2 -A8 'FAIL\|panic' $L/*.log 2>/dev/null | head -150 > $OUT/failures.txt
tar czf $OUT/logs.tgz -C $L .
echo "total $((SECONDS-s))s" | tee -a $OUT/summary.txt
