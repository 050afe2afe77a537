#!/usr/bin/env bash
# Cold compiles in the REPL with tiered compilation (issue 16, item 2;
# bench/RESULTS.md, "Interactive latency", run 10): where a new expression's
# compile stage goes over 150 ms, and what the tiers' scheduling, tier 1's
# NVRTC options and the prelude as a precompiled header change.
#
#   [VARIANTS=...] [ROUNDS=3] [LAB=...] [TIMETRACE=...] [CHECK=...] \
#       bash bench/gpu/latency_cold.sh DIR OUT
#
# DIR holds arepl and gpu.test built for the GPU machine (see latency.sh's
# header) and this folder's latency.py, latency.cold.txt. OUT receives
# cold.log and a tarball of every session's results and traces.
#
# VARIANTS (";"-separated NAME=ENV, ENV ","-separated assignments) run
# ROUNDS times each, interleaved (round 1 of every variant, then round 2...),
# each in a fresh REPL with empty disk and driver caches, through
# latency.cold.txt with AREPL_COMPILE_TRACE: every NVRTC compile's start,
# wall and CPU time, and the tiers' foreground and background compiles
# (whether a background one was in NVRTC meanwhile). The default compares
# tiers off, run 9's scheduling (AREPL_TIER2_DELAY=0: tier 2 at once) and
# the shipped defaults. Other knobs a variant can set: AREPL_FAST_OPTIONS
# (tier 1's NVRTC options), AREPL_PRELUDE_PCH=1 (the prelude as a
# precompiled header), AREPL_NVRTC_OPTIONS (both tiers'), AREPL_SCAN_FAST=0
# (a scan's tier 1 compiles the module's own text, as before run 12),
# AREPL_TIER1_TRIM=0 (tier 1 with the full preludes, as before run 17),
# AREPL_JIT_OPTIONS (further CUjit options of the PTX load, OPT=VAL,...),
# AREPL_TIER1_SCAN (tier 1's scan text: unrolled as before run 18, rolled,
# serial, lookback as in run 18, shared (the default since run 19);
# eval/gpu/scan.go tier1ScanStyle).
# LAB: TestCompileTimes's option sets (unique sources, no process state
# shared with the REPL), with LAB_FLAGS (e.g. -gpu.compilesrc 'lab/*.cu'
# -gpu.compileonly '\.cu$': sources as they are); TIMETRACE: modules profiled by NVRTC
# (-fdevice-time-trace) under each of TIMETRACE_SETS. CHECK: device tests.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?DIR}
out=${2:?OUT}
mkdir -p "$out/cold"
out=$(cd "$out" && pwd)
cd "$dir" || exit 1
exec > >(tee "$out/cold.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L 2>/dev/null | head -1); $(nproc) cores"
printf ':backend gpu\n:backend\n' | timeout 30 ./arepl 2>&1 | grep -i nvrtc | head -1
IFS=';' read -ra variants <<<"${VARIANTS:-off=AREPL_TIERED=0;run9=AREPL_TIER2_DELAY=0;now=}"

session() { # $1: name, $2: env assignments
	local assigns
	IFS=',' read -ra assigns <<<"$2"
	XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) AREPL_COMPILE_TRACE=$out/cold/$1.trace \
		env "${assigns[@]}" timeout 60 python3 latency.py --arepl ./arepl --inputs "${INPUTS:-latency.cold.txt}" --out "$out/cold/$1.jsonl" >/dev/null ||
		echo "session $1 failed"
}

for r in $(seq "${ROUNDS:-3}"); do
	for v in "${variants[@]}"; do
		name=${v%%=*}
		echo "-- round $r: $name (${v#*=})"
		session "$name-$r" "${v#*=}"
	done
done

python3 - "$out/cold" <<'PY'
import glob, json, os, re, sys
d = sys.argv[1]
def ms(s):
    m = re.match(r"([0-9.]+)(µs|ms|s)", s)
    return float(m.group(1)) * {"µs": 1e-3, "ms": 1, "s": 1e3}[m.group(2)] if m else None
rows, cols, outs = {}, [], {}
for f in sorted(glob.glob(os.path.join(d, "*.jsonl")), key=lambda f: (f.rsplit("-", 1)[1], f)):
    s = os.path.basename(f)[:-6]
    cols.append(s)
    for l in open(f):
        r = json.loads(l)
        c = re.search(r"compile ([0-9.]+[µm]?s)", r["time_line"])
        k = re.search(r"run ([0-9.]+[µm]?s)", r["time_line"])
        outs.setdefault(r["name"], {}).setdefault(" ".join(r["output"]), []).append(s)
        rows.setdefault(r["name"], {})[s] = "%s/%s" % ("%.0f" % ms(c.group(1)) if c else "-", "%.1f" % (ms(k.group(1)) * 1e3) if k else "-")
print("compile stage ms / kernels' run µs, per session")
print("%-28s" % "input" + "".join("%14s" % c[-13:] for c in cols))
for n, v in rows.items():
    print("%-28s" % n + "".join("%14s" % v.get(c, "") for c in cols))
for n, o in outs.items():
    if len(o) > 1:
        print("DIFFERENT OUTPUTS for %s: %s" % (n, o))
print("\nper session: NVRTC compiles (fg = foreground), wall vs the thread's CPU, and overlap with a background compile")
for f in sorted(glob.glob(os.path.join(d, "*.trace"))):
    print("--", os.path.basename(f))
    for l in open(f):
        l = l.strip()
        if l.startswith("tier "):
            print("   ", l)
        elif l.startswith("nvrtc "):
            m = dict(re.findall(r"(\w+)=(\S+)", l))
            print("    nvrtc %-16s at=%-10s wall=%-9s cpu=%-9s nvcsw=%s fast=%s" % (l.split()[1], m.get("at"), m.get("wall"), m.get("cpu"), m.get("nvcsw"), "-Ofc" in l))
        elif l.startswith("jit "):
            print("       ", l)
        elif l.startswith("nvrtc-log") and "warning #186-D" not in l:
            print("   ", l[:160])
PY

# TIER1LAB: TestTier1Lab's variants of tier 1's compile (NVRTC to PTX, then
# the JIT), on the scans' tier-1 texts, interleaved; TIER1PAR: numbers of
# concurrent compiles (NVRTC's lock); TIER1LAB_ENV: a second process with
# these env assignments (","-separated) and TIER1LAB2's variants.
if [ -n "${TIER1LAB:-}${TIER1PAR:-}" ]; then
	echo "== tier 1's compile, variants (TestTier1Lab)"
	timeout 200 ./gpu.test -test.run 'TestTier1Lab$' -test.v -gpu.tier1lab "${TIER1LAB:-}" -gpu.tier1par "${TIER1PAR:-}" -gpu.tier1reps "${TIER1REPS:-5}" 2>&1 |
		grep 'tier1lab\|FAIL\|error\|refused' | sed 's/^ *tier1lab_test.go:[0-9]*: //'
fi
if [ -n "${TIER1LAB_ENV:-}" ]; then
	IFS=',' read -ra labenv <<<"$TIER1LAB_ENV"
	for e in "" "${labenv[*]}"; do
		echo "== tier 1's compile, another process: env ${e:-as is}"
		env $e timeout 100 ./gpu.test -test.run 'TestTier1Lab$' -test.v -gpu.tier1lab "${TIER1LAB2:-base=-Ofc=mid}" -gpu.tier1reps 3 2>&1 |
			grep 'tier1lab\|FAIL\|error' | sed 's/^ *tier1lab_test.go:[0-9]*: //'
	done
fi

if [ -n "${LAB:-}" ]; then
	echo "== NVRTC on unique sources (TestCompileTimes), per option set"
	timeout 120 ./gpu.test -test.run 'TestCompileTimes' -test.v -gpu.compilelab "$LAB" -gpu.compilefold '' ${LAB_FLAGS:-} 2>&1 |
		grep 'compile options\|FAIL\|error' | sed 's/^ *compile_test.go:[0-9]*: //'
fi
IFS=';' read -ra ttsets <<<"${TIMETRACE_SETS:--minimal -Ofc=mid}"
for name in ${TIMETRACE:-}; do
	i=0
	for set in "${ttsets[@]}"; do
		i=$((i + 1))
		timeout 60 ./gpu.test -test.run 'TestCompileTimes' -test.v -gpu.compileonly "^$name\$" -gpu.compilefold '' \
			-gpu.compilelab "$set -fdevice-time-trace=$out/cold/timetrace-$name-$i.json" ${LAB_FLAGS:-} 2>&1 |
			grep 'compile options\|FAIL\|error' | sed 's/^ *compile_test.go:[0-9]*: //'
	done
done
if [ -n "$(ls "$out"/cold/timetrace-* 2>/dev/null)" ]; then
	echo "== NVRTC's phases (ms): the front end, NVVM's optimizer and code generator, ptxas"
	python3 - "$out"/cold/timetrace-* <<'PY'
import json, sys
for f in sys.argv[1:]:
    try:
        ev = json.load(open(f))["traceEvents"]
    except Exception as e:
        print(f, e); continue
    tot = {}
    for e in ev:
        if e.get("ph") == "X":
            tot[e.get("name", "")] = tot.get(e.get("name", ""), 0) + e.get("dur", 0) / 1e3
    top = sorted(tot.items(), key=lambda kv: -kv[1])[:12]
    print(f.rsplit("/", 1)[1] + ": " + ", ".join("%s %.1f" % kv for kv in top))
PY
fi

if [ -n "${CHECK:-}" ]; then
	echo "== device tests: $CHECK"
	timeout "${CHECK_TIMEOUT:-120}" ./gpu.test -test.run "$CHECK" -test.v -gpu.maxn=${MAXN:-262144} -gpu.scanlarge=${MAXN:-262144} 2>&1 |
		grep -E '^(--- |ok|PASS|FAIL)|tier|fast compile' | grep -v '^    --- PASS' | tail -30
fi
tar -C "$out" -czf "$out/cold.tgz" cold && rm -rf "$out/cold"
echo "== done $(date -u +%FT%TZ)"
