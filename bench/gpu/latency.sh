#!/usr/bin/env bash
# Interactive latency on the GPU (issue 16): the REPL and the Jupyter kernel
# through a fixed list of inputs, `arepl bench` beside the GPU benchmark
# harness on a 2^28-element i32 sum, and the checks that the changes behind
# those figures compute right.
#
#   bash bench/gpu/latency.sh [DIR] [OUT]
#
# DIR holds arepl, gpu.test, cuda.test and jupyter.test built for the GPU
# machine (which has no Go); without it they are built here into a
# temporary folder:
#
#   CGO_ENABLED=0 GOEXPERIMENT=simd go build -ldflags='-s -w' -o DIR/arepl ./cmd/arepl
#   CGO_ENABLED=0 GOEXPERIMENT=simd go test -c -ldflags='-s -w' -o DIR/gpu.test ./eval/gpu
#   (likewise cuda.test from ./eval/gpu/cuda and jupyter.test from ./jupyter)
#
# and copy this folder's latency.py, latency.txt and sum.fut beside them.
# OUT (default: a temporary folder) receives the logs: latency.log (all),
# repl-cold.jsonl (empty disk cache), repl-warm.jsonl (a new session with
# the disk cache the first filled), cells.jsonl (the kernel), bench.json.
# bench/RESULTS.md, "Interactive latency", records a run.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	(cd "$here/../.." && export CGO_ENABLED=0 GOEXPERIMENT=simd &&
		go build -ldflags='-s -w' -o "$dir/arepl" ./cmd/arepl &&
		go test -c -ldflags='-s -w' -o "$dir/gpu.test" ./eval/gpu &&
		go test -c -ldflags='-s -w' -o "$dir/cuda.test" ./eval/gpu/cuda &&
		go test -c -ldflags='-s -w' -o "$dir/jupyter.test" ./jupyter) || exit 1
	cp "$here/latency.py" "$here/latency.txt" "$here/sum.fut" "$dir/"
fi
cd "$dir" || exit 1
exec > >(tee "$out/latency.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L 2>/dev/null | head -1)"

# A disk cache of our own: the first session starts with it empty.
export XDG_CACHE_HOME=$(mktemp -d)

echo "== correctness: staged copies, the device tests of every kernel family (constants as parameters)"
timeout 60 ./cuda.test -test.run 'Open|Staged' 2>&1 | tail -3
timeout 150 ./gpu.test -test.run 'TestDevice|TestHistDevice|TestScanDevice|TestRadixSortDevice|TestModuleKey' \
	-gpu.maxn=1048576 -gpu.scanlarge=1048576 2>&1 | tail -8

echo "== NVRTC: where a cold compile's time goes (unique sources, per option set)"
timeout 90 ./gpu.test -test.run 'TestCompileTimes' -test.v \
	-gpu.compilelab '-;-minimal;-minimal -Xptxas=-O1;-minimal -pch' 2>&1 | grep 'compile options\|FAIL\|ok'

echo "== the REPL, empty disk cache"
timeout 240 python3 latency.py --arepl ./arepl --inputs latency.txt --out "$out/repl-cold.jsonl"
echo "== a new REPL session, warm disk cache"
grep -v '^!\(host\|cpu-\|gpu-\|upload\|auto-\|new-big\|dev-index\|print-big\|big-sum\)' latency.txt >warm.txt
timeout 60 python3 latency.py --arepl ./arepl --inputs warm.txt --out "$out/repl-warm.jsonl"

echo "== the Jupyter kernel (wire protocol), warm disk cache"
grep -v '^!\(host\|cpu-\|gpu-\|upload\|auto-\)\|^:backend' latency.txt >cells.txt
AREPL_CELL_LATENCY=$PWD/cells.txt AREPL_CELL_LATENCY_OUT=$out/cells.jsonl \
	timeout 120 ./jupyter.test -test.run TestCellLatency -test.v 2>&1 | grep -v '^=== ' | tail -45

echo "== arepl bench beside the harness, 2^28 i32 sum"
timeout 120 ./gpu.test -test.run XXX -test.bench 'GPU/(sum_i32|copy_d2d_i32)$' -gpubench.log2n 28 -test.benchtime 50x 2>&1 | grep -i 'sum_i32\|copy'
timeout 120 ./arepl bench sum.fut --backend gpu --size 268435456 --runs 50
echo "== arepl bench on the test blocks' datasets"
timeout 120 ./arepl bench sum.fut --backend gpu --runs 50 --json </dev/null | tee "$out/bench.json"
echo "== done $(date -u +%FT%TZ)"
