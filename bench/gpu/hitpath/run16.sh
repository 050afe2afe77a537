#!/usr/bin/env bash
# Run 16, call 2 (issue 16): run.sh's REPL repeats (latency.hit.txt) with
# this branch's build (new: the collector paced for a 64 MB floor of
# garbage, cmd/arepl/gcfloor.go), its branch point (base) and main's head
# (main) interleaved for three rounds, each a fresh REPL with empty caches
# (60 repeated or renamed 10^6 reductions and scans a build); then one round
# of new and base over latency.hit.overlap.txt (0.45 s pauses after the new
# lines: the repeats meet the background compiles and loads), one new
# session with the floor off (AREPL_GC_FLOOR_MB=0) and one with gctrace;
# then the device tests (gpu.test, cuda.test). The folder holds
# {new,base,main}/arepl.gz, gpu.test.gz and cuda.test.gz (CGO_ENABLED=0
# GOEXPERIMENT=simd, -ldflags=-s) beside latency.py and the input lists.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/out}; mkdir -p "$out"; logs=$(mktemp -d)
gunzip -f new/arepl.gz base/arepl.gz main/arepl.gz gpu.test.gz cuda.test.gz && chmod +x */arepl gpu.test cuda.test
exec > >(tee "$out/run.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L | head -1); nproc $(nproc)"
sess() { # name build inputs env...
  local name=$1 b=$2 inputs=$3; shift 3
  env XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) "$@" \
    timeout 60 python3 ./latency.py --arepl "${AREPL:-./$b/arepl}" --inputs "$inputs" --out "$logs/repl-$name.jsonl" --timeout 30 >/dev/null \
    || echo "session $name FAILED"
}
for r in 1 2 3; do
  for b in new base main; do sess $b-$r $b latency.hit.txt; done
done
sess overlap-new-1 new latency.hit.overlap.txt
sess overlap-base-1 base latency.hit.overlap.txt
sess nofloor-1 new latency.hit.txt AREPL_GC_FLOOR_MB=0
printf '#!/bin/sh\nexec "$(dirname "$0")/arepl" "$@" 2>>"$GCLOG"\n' > new/arepl-gc; chmod +x new/arepl-gc
AREPL=./new/arepl-gc sess gctrace-new new latency.hit.txt GODEBUG=gctrace=1 GCLOG=$logs/gctrace-new.txt
echo "== gctrace of a new session: $(grep -c '^gc ' $logs/gctrace-new.txt) collections"; cat $logs/gctrace-new.txt
python3 - "$logs" <<'PY'
import json, sys, glob, os, re, statistics
logs = sys.argv[1]
def stage(line, name):
    m = re.search(name + r"(?: \(cached\))? ([0-9.]+)(ns|µs|ms)", line)
    return float(m.group(1)) * {"ns": 1e-6, "µs": 1e-3, "ms": 1.0}[m.group(2)] if m else 0.0
groups = {}
for f in sorted(glob.glob(logs + "/repl-*.jsonl")):
    name = os.path.basename(f)[5:-6]
    rows = [json.loads(l) for l in open(f)]
    seen = [r for r in rows if r["name"].startswith(("repeat", "renamed"))]
    w = [r["ms"] for r in seen]
    over = [(i + 1, r["name"], round(r["ms"], 2)) for i, r in enumerate(rows) if r in seen and r["ms"] > 1.5]
    print(f"{name:16} lines {len(rows)} seen {len(w)} median {statistics.median(w):.3f} max {max(w):.3f} over 2 ms {sum(x > 2 for x in w)}; over 1.5: {over}")
    groups.setdefault(re.sub(r"-\d+$", "", name), []).extend(seen)
print("== by build: seen lines, wall median / p90 / max ms, over 2 ms, over 1.5 ms; `total` median µs; compile medians of new lines")
for g, seen in groups.items():
    w = sorted(r["ms"] for r in seen)
    tot = [stage(r["time_line"], "time:") for r in seen]
    print(f"{g:14} n {len(w)} | {statistics.median(w):.3f} / {w[int(0.9 * len(w))]:.3f} / {w[-1]:.3f} | {sum(x > 2 for x in w)} | {sum(x > 1.5 for x in w)} | total {statistics.median(tot) * 1e3:.0f}")
PY
for r in 1 2 3; do
  for b in base main; do
    diff <(python3 -c "import json,sys;[print(json.loads(l)['output']) for l in open(sys.argv[1])]" "$logs/repl-$b-$r.jsonl") \
         <(python3 -c "import json,sys;[print(json.loads(l)['output']) for l in open(sys.argv[1])]" "$logs/repl-new-$r.jsonl") >/dev/null \
      && echo "round $r: new's printed values = $b's" || echo "round $r: new's printed values DIFFER from $b's"
  done
done
echo "== device tests $(date -u +%T)"
timeout 60 ./cuda.test -test.v 2>&1 | grep -E "^(--- |ok|FAIL|PASS)|panic" | tail -20
timeout 90 ./gpu.test -test.run 'TestDevice|TestTieredDevice|TestModuleKey|TestSeen' -gpu.maxn 262144 -test.v 2>&1 | grep -E "^(--- |ok|FAIL|PASS)|panic" | grep -v "^    ---" | tail -30
tar czf "$out/logs.tgz" -C "$logs" .
echo "== end $(date -u +%FT%TZ)"
