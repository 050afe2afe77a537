#!/usr/bin/env bash
# The sequential-code benchmark of issue 18: in one run, times every row of
# bench/cpu/loops.tsv with `arepl bench` on the CPU backend (all cores, and
# one thread), the same computation as plain CPython loops and, where a
# vectorised form exists, in numpy (loops.py), and as a hand-written Go loop
# on one thread (seqloops), and prints one markdown table.
#
#   bash bench/cpu/loops.sh           # RUNS=5 timed runs each
#   RUNS=3 PYRUNS=1 bash bench/cpu/loops.sh
#
# PYRUNS caps the runs of the CPython loops, which take seconds each.
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS=${RUNS:-5}
PYRUNS=${PYRUNS:-2}
AREPL=${AREPL:-bin/arepl}
PY=/usr/bin/python3
ROWS=bench/cpu/loops.tsv

if [ ! -x "$AREPL" ]; then
  CGO_ENABLED=0 GOEXPERIMENT=simd go build -o "$AREPL" ./cmd/arepl
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%s, %s cores, %s, commit %s' \
  "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" "$(nproc)" \
  "$(date -u +%Y-%m-%d)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" >"$out/machine.txt"

i=0
kernels=()
while IFS=$'\t' read -r name file input kernel runs; do
  case "$name" in ''|'#'*) continue ;; esac
  runs=$(( runs < RUNS ? runs : RUNS ))
  kernels+=("$kernel")
  for mode in all one; do
    procs=$(nproc)
    [ "$mode" = one ] && procs=1
    echo "GOMAXPROCS=$procs arepl bench $file ($input)" >&2
    if ! echo "$input" | GOMAXPROCS=$procs "$AREPL" bench "bench/cpu/loops/$file" --backend cpu \
        --runs "$runs" --warmup 1 --json >"$out/$mode-$i.json" 2>"$out/err"; then
      sed 's/^/  /' "$out/err" >&2
      rm -f "$out/$mode-$i.json"
    fi
  done
  echo "python/numpy: $kernel" >&2
  "$PY" bench/cpu/loops.py "$kernel" "$PYRUNS" >"$out/py-$i.json" || rm -f "$out/py-$i.json"
  i=$((i + 1))
done <"$ROWS"
echo "go: ${kernels[*]}" >&2
CGO_ENABLED=0 go run ./bench/cpu/seqloops -runs "$RUNS" -kernels "$(IFS=,; echo "${kernels[*]}")" >"$out/go.json"

"$PY" - "$out" "$ROWS" <<'PYEOF'
import json, os, sys
d, rows = sys.argv[1], sys.argv[2]
def load(p):
    try:
        return json.load(open(os.path.join(d, p)))
    except (OSError, ValueError):
        return None
def ms(r): return "%.3g" % (r["mean_s"] * 1e3) if r else "–"
def ratio(a, b): return "%.3g×" % (a["mean_s"] / b["mean_s"]) if a and b else "–"
go = load("go.json") or {}
print("Sequential code, mean ms per run (lower is better); %s." % open(os.path.join(d, "machine.txt")).read().strip())
print()
print("| program | arepl, all cores | arepl, 1 thread | CPython | numpy | Go, 1 thread | CPython / arepl | numpy / arepl | arepl 1 thread / Go |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
i = 0
for line in open(rows):
    if not line.strip() or line.startswith("#"):
        continue
    name, _, _, kernel, _ = line.rstrip("\n").split("\t")
    a, one, py = load("all-%d.json" % i), load("one-%d.json" % i), load("py-%d.json" % i) or {}
    g = go.get(kernel)
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (name, ms(a), ms(one), ms(py.get("python")),
          ms(py.get("numpy")), ms(g), ratio(py.get("python"), a), ratio(py.get("numpy"), a), ratio(one, g)))
    i += 1
print()
print("– : not measured (no numpy form, or the run failed: see the log above the table).")
PYEOF
