#!/usr/bin/env bash
# Interactive latency on the GPU (issue 16): the REPL and the Jupyter kernel
# through fixed lists of inputs, `arepl bench` beside the GPU benchmark
# harness on a 2^28-element i32 sum, and the checks that the changes behind
# those figures compute right and keep the kernels' speed.
#
#   [PARTS=...] [BASE=DIR] [PY=PYTHON] bash bench/gpu/latency.sh [DIR] [OUT]
#
# DIR holds arepl, gpu.test, cuda.test and jupyter.test built for the GPU
# machine (which has no Go); without it they are built here into a
# temporary folder:
#
#   CGO_ENABLED=0 GOEXPERIMENT=simd go build -ldflags='-s -w' -o DIR/arepl ./cmd/arepl
#   CGO_ENABLED=0 GOEXPERIMENT=simd go test -c -ldflags='-s -w' -o DIR/gpu.test ./eval/gpu
#   (likewise cuda.test from ./eval/gpu/cuda and jupyter.test from ./jupyter)
#
# and copy this folder's latency.py, latency*.txt, cells.py and sum.fut
# beside them. OUT (default: a temporary folder) receives the logs:
# latency.log (all), and per part the files named below.
#
# PARTS (comma-separated; default check,lab,compile,repl,notebook,cells,bench)
# run in this order, the figures of issue 16 first: compile, notebook, repl,
# bench, options, lab, check, speed, compile2, cells.
#   check     device tests of every kernel family (gpu.test, cuda.test)
#   lab       NVRTC on unique sources (TestCompileTimes), per option set of
#             LAB (default "-minimal;-minimal -Ofc=min"), the ordered
#             redomaps also with their fold unrolled FOLD times (default
#             1,4); with BASE, also BASE/gpu.test's modules (the templates
#             before) under BASE_LAB (default "-minimal"; "none": not); with TIMETRACE
#             (module names, space-separated), those modules again under
#             NVRTC's -fdevice-time-trace: timetrace-*.json; LAB_FLAGS: more
#             flags of TestCompileTimes (e.g. -gpu.compileunroll -1)
#   compile   cold compiles of every one-kernel kind in the REPL
#             (latency.compile.txt): compile-cold.jsonl with an empty disk
#             cache, compile-warm.jsonl in a new session with that cache
#   compile2  more cold compiles (latency.compile2.txt, texts nothing else
#             compiles), run after lab: compile2-cold.jsonl
#   repl      the REPL through latency.txt: repl-cold.jsonl, repl-warm.jsonl
#   options   latency.options.txt in a fresh REPL per option set of
#             OPTS_SETS ("NVRTC options|context flags;...", default: none,
#             -Ofc=max, -Ofc=max with CU_CTX_LMEM_RESIZE_TO_MAX, that flag
#             alone, -Ofc=mid, -Ofc=min): options-N.jsonl, options-trace.txt
#             (each compile, and each kernel's registers and local memory)
#   notebook  cells through jupyter_client (cells.py, latency.cells.txt,
#             its seen cells NB_PASSES times, default 3: 39 seen cells)
#             with the Python PY (default python3; on the GPU machine the
#             py311 that latency.pybundle.sh makes), each in a new kernel:
#             execute_interactive (notebook.jsonl), the same with the
#             client's garbage collector off (notebook-nogc.jsonl), the
#             reply first and then iopub one call at a time as in runs 3-8
#             (notebook-seq.jsonl), and the cells on the CPU backend
#             (`:backend cpu` first: notebook-cpu.jsonl); the last line of
#             each is its summary (median, p90, cells over 5 ms)
#   cells     the same kind of cells over the wire protocol in-process
#             (jupyter.test TestCellLatency): cells.jsonl
#   speed     the ordered redomaps' and the scans' kernel times
#             (BenchmarkGPU, BenchmarkScan; MSSP also with its fold
#             unrolled FOLD times), and BASE/gpu.test's beside them when
#             BASE is set: speed.txt
#   bench     arepl bench beside the harness, 2^28 i32 sum: bench.json
#   tiered    tiered compilation (eval/gpu/tier.go): latency.tiered.txt's new
#             expressions, their repeats at once and after a pause (the
#             optimised modules swapped in), in a fresh REPL with tiers off
#             (AREPL_TIERED=0), then on, then on again in a new session with
#             that disk cache: tiered-{off,on,warm}.jsonl; then arepl bench
#             at 2^20 with --warmup 0 (a fast-compiled run is never timed)
#             with tiers off and on; then the device tests TIERED_RUN
#             (default TestTieredDevice|TestScanDevice|TestModuleKey|TestDevice)
#             at MAXN (default 262144)
# bench/RESULTS.md, "Interactive latency", records the runs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
parts=,${PARTS:-check,lab,compile,repl,notebook,cells,bench},
has() { [[ $parts == *,$1,* ]]; }
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	(cd "$here/../.." && export CGO_ENABLED=0 GOEXPERIMENT=simd &&
		go build -ldflags='-s -w' -o "$dir/arepl" ./cmd/arepl &&
		go test -c -ldflags='-s -w' -o "$dir/gpu.test" ./eval/gpu &&
		go test -c -ldflags='-s -w' -o "$dir/cuda.test" ./eval/gpu/cuda &&
		go test -c -ldflags='-s -w' -o "$dir/jupyter.test" ./jupyter) || exit 1
	cp "$here"/latency.py "$here"/latency*.txt "$here/cells.py" "$here/sum.fut" "$dir/"
fi
cd "$dir" || exit 1
dir=$PWD
exec > >(tee "$out/latency.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L 2>/dev/null | head -1) parts ${parts}"

# A disk cache of our own: the first session starts with it empty; so does
# the driver's (CUDA_CACHE_PATH), which no cubin goes through but which
# should answer nothing either.
fresh_caches() {
	XDG_CACHE_HOME=$(mktemp -d)
	CUDA_CACHE_PATH=$(mktemp -d)
	export XDG_CACHE_HOME CUDA_CACHE_PATH
}
fresh_caches

# The REPL's cold compiles come first, so that no compile of the same
# canonical text by a test can answer them from any cache; then the
# figures of the Done-when list (notebook, REPL, bench); the checks come
# after the measurements, so that a run cut short keeps the figures.
if has compile; then
	echo "== cold compiles in the REPL, empty disk cache (latency.compile.txt)"
	timeout 60 python3 latency.py --arepl ./arepl --inputs latency.compile.txt --out "$out/compile-cold.jsonl"
	echo "== the same in a new REPL session, warm disk cache"
	timeout 30 python3 latency.py --arepl ./arepl --inputs latency.compile.txt --out "$out/compile-warm.jsonl"
fi

if has notebook; then
	{ echo ':backend cpu'; cat latency.cells.txt; } >latency.cells-cpu.txt
	nb() { # name, cells file, cells.py flags
		local name=$1 cells=$2
		shift 2
		fresh_caches
		timeout 90 "${PY:-python3}" cells.py --arepl ./arepl --inputs "$cells" --passes "${NB_PASSES:-3}" "$@" |
			tee "$out/$name.jsonl" | grep summary
	}
	echo "== the notebook through jupyter_client (cells.py, latency.cells.txt), ${PY:-python3}: execute_interactive"
	nb notebook latency.cells.txt --client interactive
	echo "== the same with the client's garbage collector off (where the tail is)"
	nb notebook-nogc latency.cells.txt --client interactive --gc off
	echo "== the reply first, then iopub one get_iopub_msg at a time (runs 3-8)"
	nb notebook-seq latency.cells.txt --client sequential
	echo "== the cells on the CPU backend, execute_interactive"
	nb notebook-cpu latency.cells-cpu.txt --client interactive
fi

if has repl; then
	fresh_caches
	echo "== the REPL, empty disk cache (latency.txt)"
	timeout 240 python3 latency.py --arepl ./arepl --inputs latency.txt --out "$out/repl-cold.jsonl"
	echo "== a new REPL session, warm disk cache"
	grep -v '^!\(host\|cpu-\|gpu-\|upload\|auto-\|new-big\|dev-index\|print-big\|big-sum\)' latency.txt >warm.txt
	timeout 60 python3 latency.py --arepl ./arepl --inputs warm.txt --out "$out/repl-warm.jsonl"
fi

if has bench; then
	echo "== arepl bench beside the harness, 2^28 i32 sum"
	timeout 120 ./gpu.test -test.run XXX -test.bench 'GPU/(sum_i32|copy_d2d_i32)$' -gpubench.log2n 28 -test.benchtime 50x 2>&1 | grep -i 'sum_i32\|copy'
	timeout 120 ./arepl bench sum.fut --backend gpu --size 268435456 --runs 50
	echo "== arepl bench on the test blocks' datasets"
	timeout 120 ./arepl bench sum.fut --backend gpu --runs 50 --json </dev/null | tee "$out/bench.json"
fi

# One line per input: wall time, the compile stage with its wording (fast
# tier, cached), the kernels' run time.
summarize() {
	python3 -c '
import json, re, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    c = re.search(r"compile ([0-9.]+[µm]?s(?: \([^()]*\))?)", r["time_line"])
    m = re.search(r"run ([0-9.]+[µm]?s)", r["time_line"])
    print("%-28s %9.2f ms  compile %-58s run %-9s %s" % (r["name"], r["ms"], c.group(1) if c else "-", m.group(1) if m else "-", " ".join(r["output"])[:40]))
' "$1"
}

if has tiered; then
	echo "== tiered compilation in the REPL (latency.tiered.txt), fresh caches: tiers off, then on"
	for mode in off on; do
		fresh_caches
		echo "-- AREPL_TIERED=$mode"
		AREPL_TIERED=$([ $mode = on ] && echo 1 || echo 0) \
			timeout 90 python3 latency.py --arepl ./arepl --inputs latency.tiered.txt --out "$out/tiered-$mode.jsonl" >/dev/null
		summarize "$out/tiered-$mode.jsonl"
	done
	echo "-- tiers on, a new session with that disk cache (optimised cubins only)"
	ls "$XDG_CACHE_HOME"/arepl | wc -l
	timeout 90 python3 latency.py --arepl ./arepl --inputs latency.tiered.txt --out "$out/tiered-warm.jsonl" >/dev/null
	summarize "$out/tiered-warm.jsonl"
	echo "== arepl bench at 2^20, --warmup 0: tiers off, then on (never times the fast tier)"
	for mode in 0 1; do
		fresh_caches
		AREPL_TIERED=$mode timeout 60 ./arepl bench sum.fut --backend gpu --size 1048576 --runs 30 --warmup 0
		AREPL_TIERED=$mode timeout 60 ./arepl bench latency.tiered.fut --backend gpu --size 1048576 --runs 30 --warmup 0
	done
	echo "== device tests (tiers, scans, module keys, every program)"
	timeout ${CHECK_TIMEOUT:-150} ./gpu.test -test.run "${TIERED_RUN:-TestTieredDevice|TestScanDevice|TestModuleKey|TestDevice}" -test.v \
		-gpu.maxn=${MAXN:-262144} -gpu.scanlarge=${MAXN:-262144} 2>&1 | grep -E '^(--- |ok|PASS|FAIL)|tier|fast compile' | grep -v '^    --- PASS' | tail -40
fi

if has options; then
	echo "== NVRTC option sets in the REPL (latency.options.txt), one fresh session each"
	i=0
	IFS=';' read -ra sets <<<"${OPTS_SETS:-|;-Ofc=max|;-Ofc=max|0x10;|0x10;-Ofc=mid|;-Ofc=min|}"
	for set in "${sets[@]}"; do
		i=$((i + 1))
		fresh_caches
		echo "-- set $i: AREPL_NVRTC_OPTIONS='${set%%|*}' AREPL_CUDA_CTX_FLAGS='${set#*|}'"
		AREPL_NVRTC_OPTIONS=${set%%|*} AREPL_CUDA_CTX_FLAGS=${set#*|} AREPL_COMPILE_TRACE=$out/options-trace.txt \
			timeout 60 python3 latency.py --arepl ./arepl --inputs latency.options.txt --out "$out/options-$i.jsonl" >/dev/null
		python3 -c '
import json, re, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    m = dict(re.findall(r"(compile|run) ([0-9.]+[µm]?s)", r["time_line"]))
    print("%-28s %9.2f ms  compile %-9s run %-9s %s" % (r["name"], r["ms"], m.get("compile", "-"), m.get("run", "-"), " ".join(r["output"])[:60]))
' "$out/options-$i.jsonl"
		echo "set $i" >>"$out/options-trace.txt"
	done
fi

if has lab; then
	echo "== NVRTC: where a cold compile's time goes (unique sources, per option set)"
	timeout 120 ./gpu.test -test.run 'TestCompileTimes' -test.v -gpu.compilelab "${LAB:--minimal;-minimal -Ofc=min}" \
		-gpu.compilefold "${FOLD-1,4}" ${LAB_FLAGS:-} 2>&1 | grep 'compile options\|FAIL\|SKIP\|PASS\|error'
	for name in ${TIMETRACE:-}; do
		echo "-- NVRTC's own time profile (-fdevice-time-trace) of $name"
		timeout 60 ./gpu.test -test.run 'TestCompileTimes' -test.v -gpu.compileonly "^$name\$" -gpu.compilefold '' ${LAB_FLAGS:-} \
			-gpu.compilelab "-minimal -fdevice-time-trace=$out/timetrace-$name;-minimal -Ofc=max -fdevice-time-trace=$out/timetrace-ofc-$name" 2>&1 |
			grep 'compile options\|FAIL\|error' | sed 's/^ *compile_test.go:[0-9]*: //'
	done
	if [ -n "${BASE:-}" ] && [ "${BASE_LAB:-}" != none ]; then
		echo "-- $BASE/gpu.test (the templates before)"
		timeout 90 "$BASE/gpu.test" -test.run 'TestCompileTimes' -test.v -gpu.compilelab "${BASE_LAB:--minimal}" 2>&1 | grep 'compile options\|FAIL\|SKIP\|PASS'
	fi
fi


if has check; then
	echo "== correctness: staged copies, the device tests of every kernel family (constants as parameters)"
	[ -x cuda.test ] && timeout 60 ./cuda.test -test.run 'Open|Staged' 2>&1 | tail -3
	timeout ${CHECK_TIMEOUT:-150} ./gpu.test -test.run "${CHECK_RUN:-TestDevice|TestHistDevice|TestScanDevice|TestRadixSortDevice|TestModuleKey|TestCheckedTilesRolled|TestSecondaryLoopsRolled}" \
		-gpu.maxn=${MAXN:-1048576} -gpu.scanlarge=${MAXN:-1048576} 2>&1 | tail -8
fi

if has speed; then
	echo "== kernel speed: ordered redomaps and scans, 2^28 (BenchmarkGPU, BenchmarkScan)"
	speed() { # $1: gpu.test, then its flags
		timeout 60 "$1" -test.run '^$' -test.bench 'GPU/(sum_i32|mssp_i32|redomap_nt_f32|mssp_i32_foldunroll[0-9]*)$' -test.benchtime 20x "${@:2}" 2>&1 | grep 'Benchmark'
		timeout 90 "$1" -test.run '^$' -test.bench 'Scan/(scan_i32|scan_f64|mssp_scan_i32|scanomap_i32|filter_50pct_i32|segscan_i32_len1000|copy_d2d_i32)$' \
			-test.benchtime 20x -gpubench.minblocks 0 2>&1 | grep 'Benchmark'
	}
	{
		if [ -n "${BASE:-}" ]; then
			echo "-- before ($BASE/gpu.test)"
			speed "$BASE/gpu.test"
		fi
		echo "-- now ($dir/gpu.test)"
		speed ./gpu.test -gpubench.foldunroll "${FOLD-1,4}"
	} | tee "$out/speed.txt"
fi



if has compile2; then
	fresh_caches
	echo "== more cold compiles in the REPL, empty disk cache (latency.compile2.txt)"
	timeout 60 python3 latency.py --arepl ./arepl --inputs latency.compile2.txt --out "$out/compile2-cold.jsonl"
fi

if has cells; then
	echo "== the Jupyter kernel (wire protocol, in-process), warm disk cache"
	grep -v '^!\(host\|cpu-\|gpu-\|upload\|auto-\)\|^:backend' latency.txt >cells.txt
	AREPL_CELL_LATENCY=$PWD/cells.txt AREPL_CELL_LATENCY_OUT=$out/cells.jsonl \
		timeout 120 ./jupyter.test -test.run TestCellLatency -test.v 2>&1 | grep -v '^=== ' | tail -45
fi

echo "== done $(date -u +%FT%TZ)"
