#!/usr/bin/env bash
# Where a cold compile's time goes in the REPL (issue 16, run 6): the
# REPL's compiles traced (AREPL_COMPILE_TRACE), their sources dumped
# (AREPL_COMPILE_DUMP) and, in a second session, each compiled again back to
# back in the same process (AREPL_COMPILE_REPEAT); TestCompileTimes on the
# REPL's exact sources, with the scans' secondary loops rolled
# (gpu.compileunroll) and under NVRTC's fast-compile levels; and the
# kernels' speed under those options and unrollings, all in one call.
#
#   bash bench/gpu/latency_diag.sh DIR OUT   (DIR: arepl, gpu.test, latency.py, latency.compile*.txt)
set -uo pipefail
dir=$1 out=$2
cd "$dir" || exit 1
exec > >(tee "$out/diag.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L | head -1)"
fresh() { export XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d); }
mkdir -p "$out/src"
fresh
echo "== REPL cold compiles, traced, sources dumped"
AREPL_COMPILE_TRACE=$out/trace.txt AREPL_COMPILE_DUMP=$out/src timeout 60 python3 latency.py --arepl ./arepl --inputs latency.compile.txt --out "$out/cold.jsonl" | grep -v '^ *$'
fresh
echo "== a new REPL session, empty caches, each compile repeated twice at once (trace: NAME-repeat)"
AREPL_COMPILE_TRACE=$out/trace.txt AREPL_COMPILE_REPEAT=2 timeout 60 python3 latency.py --arepl ./arepl --inputs latency.compile2.txt --out "$out/repeat.jsonl" >/dev/null
cat "$out/trace.txt"
echo "== TestCompileTimes: lab sources, scans unrolled 1/4, the REPL's sources"
timeout 100 ./gpu.test -test.run 'TestCompileTimes' -test.v -gpu.compilelab "-minimal;-minimal -Ofc=max" -gpu.compilefold '' \
	-gpu.compileunroll 1,4 -gpu.compilesrc "$out/src/*" 2>&1 | grep 'compile options\|FAIL\|SKIP\|PASS\|error' | sed 's/^ *compile_test.go:[0-9]*: //'
echo "== kernel speed, 2^27, default options and scan unrollings"
sp() {
	timeout 60 ./gpu.test -test.run '^$' -test.bench 'GPU/(sum_i32|mssp_i32|redomap_nt_f32)$' -gpubench.log2n 27 -test.benchtime 20x 2>&1 | grep Benchmark
	timeout 90 ./gpu.test -test.run '^$' -test.bench 'Scan/(scan_i32|scanomap_i32|copy_d2d_i32|(mssp_scan_i32|segscan_i32_len1000|segscan_i32_len33|scan_f64)_block0_seq0_min0_v.*)$' \
		-gpubench.log2n 27 -test.benchtime 20x -gpubench.seq 0 -gpubench.variant "$1" 2>&1 | grep Benchmark
}
sp 0,u1,u4
for o in "-Ofc=max" "-Ofc=mid"; do
	echo "== kernel speed under AREPL_NVRTC_OPTIONS=$o"
	AREPL_NVRTC_OPTIONS=$o sp 0
done
echo "== done $(date -u +%FT%TZ)"
