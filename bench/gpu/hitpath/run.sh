#!/usr/bin/env bash
# Run 13 (issue 16, the module-cache hit): the REPL part of the latency list
# with this branch's build (new) and main's (base) interleaved, the hit-path
# benchmark, base/new output diff including errors, then the device tests.
# The folder it runs in holds new/arepl.gz and new/gpu.test.gz (this
# branch), base/arepl.gz (main), built here with CGO_ENABLED=0
# GOEXPERIMENT=simd and -ldflags='-s -w' and gzipped, beside ../latency.py
# and this folder's latency.hit.txt and errors.txt. OUT receives the logs.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/out}; mkdir -p "$out"
gunzip -f new/arepl.gz new/gpu.test.gz base/arepl.gz && chmod +x new/* base/*
exec > >(tee "$out/run.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L | head -1)"
for round in 1 2; do
  for b in new base; do
    export XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d)
    echo "== round $round $b"
    timeout 60 python3 latency.py --arepl ./$b/arepl --inputs latency.hit.txt --out "$out/repl-$b-$round.jsonl" --timeout 30 >/dev/null
  done
done
python3 - "$out" <<'PY'
import json, re, sys, glob, statistics
out = sys.argv[1]
for b in ("base", "new"):
    rows = []
    for f in sorted(glob.glob(f"{out}/repl-{b}-*.jsonl")):
        rows += [json.loads(l) for l in open(f)]
    by = {}
    for r in rows:
        m = re.search(r"compile(?: \(cached\))? ([0-9.]+)(µs|ms)", r["time_line"])
        c = (float(m.group(1)) / (1000 if m.group(2) == "µs" else 1)) if m else None
        by.setdefault(r["name"], []).append((r["ms"], c))
    print(f"== {b}: name n wall-min/median/max ms | compile stage min/median/max ms | over 2 ms")
    for n, v in by.items():
        w = [x for x, _ in v]; c = [y for _, y in v if y is not None]
        cs = f"{min(c):.3f}/{statistics.median(c):.3f}/{max(c):.3f}" if c else "-"
        print(f"{b:4} {n:18} {len(w):2} {min(w):8.3f}/{statistics.median(w):8.3f}/{max(w):8.3f} | {cs} | {sum(x > 2 for x in w)}")
PY
echo "== the same outputs (values, errors) from base and new"
for b in base new; do
  XDG_CACHE_HOME=$(mktemp -d) timeout 60 ./$b/arepl < errors.txt > "$out/errors-$b.txt" 2>&1
done
diff "$out/errors-base.txt" "$out/errors-new.txt" && echo "outputs identical ($(wc -l < "$out/errors-new.txt") lines)"
for round in 1 2; do
  diff <(python3 -c "import json,sys;[print(json.loads(l)['output']) for l in open(sys.argv[1])]" "$out/repl-base-$round.jsonl") \
       <(python3 -c "import json,sys;[print(json.loads(l)['output']) for l in open(sys.argv[1])]" "$out/repl-new-$round.jsonl") >/dev/null \
    && echo "round $round: REPL outputs identical" || echo "round $round: REPL outputs DIFFER"
done
echo "== BenchmarkHitPath (host CPU)"
timeout 40 ./new/gpu.test -test.run XXX -test.bench BenchmarkHitPath -test.benchmem -test.benchtime 300x 2>&1 | grep -E "Benchmark|cpu:"
echo "== device tests"
timeout 150 ./new/gpu.test -test.run 'TestModuleKey|TestDevice|TestTieredDevice|TestSeen|TestFingerprint' -gpu.maxn 262144 -test.v 2>&1 | grep -E "^(--- |ok|FAIL|PASS)|panic" | grep -v "^    ---" | tail -40
echo "== end $(date -u +%FT%TZ)"
