#!/usr/bin/env bash
# Run 15 (issue 16, the `other` stage of a hit): run.sh's REPL repeats
# (latency.hit.txt) with this branch's build (new) and main's (base)
# interleaved for three rounds, each time line's stages summed by name,
# then one more new session with the command log (AREPL_CUDA_DOLOG, every
# CUDA command whose round trip took 50 µs or more) to say where a hit's
# host time outside the stages goes. The folder holds new/arepl.gz and
# base/arepl.gz (CGO_ENABLED=0 GOEXPERIMENT=simd, -ldflags='-s -w'), beside
# latency.py and latency.hit.txt. OUT receives the logs.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/out}; mkdir -p "$out"
gunzip -f new/arepl.gz base/arepl.gz && chmod +x new/arepl base/arepl
exec > >(tee "$out/run.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L | head -1)"
for round in 1 2 3; do
  for b in new base; do
    export XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d)
    echo "== round $round $b"
    timeout 60 python3 latency.py --arepl ./$b/arepl --inputs latency.hit.txt --out "$out/repl-$b-$round.jsonl" --timeout 30 >/dev/null
  done
done
echo "== new with the command log"
XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) AREPL_CUDA_DOLOG="$out/dolog.txt" AREPL_CUDA_DOLOG_MIN=50us \
  timeout 60 python3 latency.py --arepl ./new/arepl --inputs latency.hit.txt --out "$out/repl-dolog.jsonl" --timeout 30 >/dev/null
python3 - "$out" <<'PY'
import json, re, sys, glob, statistics
out = sys.argv[1]
def stage(line, name):
    m = re.search(name + r"(?: \(cached\))? ([0-9.]+)(ns|µs|ms)", line)
    if not m:
        return 0.0
    return float(m.group(1)) * {"ns": 1e-6, "µs": 1e-3, "ms": 1.0}[m.group(2)]
for b in ("base", "new", "dolog"):
    rows = []
    for f in sorted(glob.glob(f"{out}/repl-{b}*.jsonl")):
        rows += [json.loads(l) for l in open(f)]
    by = {}
    for r in rows:
        by.setdefault(r["name"], []).append(r)
    print(f"== {b}: name n | wall min/median/max ms | other median/max ms | parse median ms | compile median ms | over 2 ms")
    seen = []
    for n, v in by.items():
        w = [r["ms"] for r in v]
        o = [stage(r["time_line"], "other") for r in v]
        p = [stage(r["time_line"], "parse") for r in v]
        c = [stage(r["time_line"], "compile") for r in v]
        if n.startswith(("repeat", "renamed")):
            seen += w
        print(f"{b:5} {n:18} {len(w):2} | {min(w):6.3f}/{statistics.median(w):6.3f}/{max(w):6.3f} | {statistics.median(o):6.3f}/{max(o):6.3f} | {statistics.median(p):6.3f} | {statistics.median(c):6.3f} | {sum(x > 2 for x in w)}")
    if seen:
        print(f"{b:5} repeated+renamed: n {len(seen)} median {statistics.median(seen):.3f} ms, p90 {sorted(seen)[int(0.9*len(seen))]:.3f}, over 2 ms {sum(x > 2 for x in seen)}")
PY
for round in 1 2 3; do
  diff <(python3 -c "import json,sys;[print(json.loads(l)['output']) for l in open(sys.argv[1])]" "$out/repl-base-$round.jsonl") \
       <(python3 -c "import json,sys;[print(json.loads(l)['output']) for l in open(sys.argv[1])]" "$out/repl-new-$round.jsonl") >/dev/null \
    && echo "round $round: REPL outputs identical" || echo "round $round: REPL outputs DIFFER"
done
echo "== the command log (commands of 50 µs or more): $(wc -l < "$out/dolog.txt" 2>/dev/null) lines"
head -60 "$out/dolog.txt" 2>/dev/null
echo "== time lines of the logged session's seen lines"
python3 -c "import json,sys;[print(r['name'], round(r['ms'],3), r['time_line']) for r in map(json.loads, open(sys.argv[1])) if r['name'].startswith(('repeat','renamed'))]" "$out/repl-dolog.jsonl"
echo "== end $(date -u +%FT%TZ)"
