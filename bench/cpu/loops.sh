#!/usr/bin/env bash
# The sequential-code benchmark of issue 18: in one run, times every row of
# bench/cpu/loops.tsv with `arepl bench` on the CPU backend (all cores, and
# one thread), the same computation as plain CPython loops and, where a
# vectorised form exists, in numpy (loops.py), and as a hand-written Go loop
# on one thread (seqloops), and prints one markdown table and the issue's
# targets measured against it.
#
# Wall time is what the targets are written in; on a machine others load it
# is inflated many times over, so the one-thread columns also give CPU time
# (user+system per timed run, from getrusage in `arepl bench --json` and in
# seqloops), and the load average is printed before and after.
#
#   bash bench/cpu/loops.sh           # RUNS=5 timed runs each
#   RUNS=3 PYRUNS=1 bash bench/cpu/loops.sh
#
# PYRUNS caps the runs of the CPython loops, which take seconds each.
set -euo pipefail
cd "$(dirname "$0")/../.."

RUNS=${RUNS:-5}
PYRUNS=${PYRUNS:-2}
if [ -z "${AREPL:-}" ]; then
  # Rebuilt on every run: a stale bin/arepl would time an older interpreter.
  AREPL=bin/arepl
  CGO_ENABLED=0 GOEXPERIMENT=simd go build -o "$AREPL" ./cmd/arepl
fi
PY=/usr/bin/python3
ROWS=${ROWS:-bench/cpu/loops.tsv}

if [ ! -x "$AREPL" ]; then
  CGO_ENABLED=0 GOEXPERIMENT=simd go build -o "$AREPL" ./cmd/arepl
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%s, %s cores, %s, commit %s' \
  "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" "$(nproc)" \
  "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" >"$out/machine.txt"
cut -d' ' -f1-3 /proc/loadavg >"$out/load0.txt"

i=0
kernels=()
while IFS=$'\t' read -r name file input kernel runs; do
  case "$name" in ''|'#'*) continue ;; esac
  runs=$(( runs < RUNS ? runs : RUNS ))
  kernels+=("$kernel")
  case "$file" in */*) path=$file ;; *) path=bench/cpu/loops/$file ;; esac
  for mode in all one; do
    procs=$(nproc)
    [ "$mode" = one ] && procs=1
    echo "GOMAXPROCS=$procs arepl bench $path ($input)" >&2
    case "$input" in
      --*) cmd=("$AREPL" bench "$path" --backend cpu --runs "$runs" --warmup 1 --json $input) ;;
      *) cmd=("$AREPL" bench "$path" --backend cpu --runs "$runs" --warmup 1 --json) ;;
    esac
    stdin=$input
    case "$input" in --*) stdin= ;; esac
    if ! echo "$stdin" | GOMAXPROCS=$procs "${cmd[@]}" >"$out/$mode-$i.json" 2>"$out/err"; then
      sed 's/^/  /' "$out/err" >&2
      rm -f "$out/$mode-$i.json"
    fi
  done
  echo "python/numpy: $kernel" >&2
  "$PY" bench/cpu/loops.py "$kernel" "$PYRUNS" >"$out/py-$i.json" || rm -f "$out/py-$i.json"
  i=$((i + 1))
done <"$ROWS"
echo "go: ${kernels[*]}" >&2
GOMAXPROCS=1 CGO_ENABLED=0 go run ./bench/cpu/seqloops -runs "$RUNS" -kernels "$(IFS=,; echo "${kernels[*]}")" >"$out/go.json"
cut -d' ' -f1-3 /proc/loadavg >"$out/load1.txt"

"$PY" - "$out" "$ROWS" <<'PYEOF'
import json, os, sys
d, rows = sys.argv[1], sys.argv[2]
def load(p):
    try:
        return json.load(open(os.path.join(d, p)))
    except (OSError, ValueError):
        return None
def first(x): return x[0] if isinstance(x, list) else x
def ms(r, k="mean_s"): return "%.3g" % (r[k] * 1e3) if r and r.get(k) else "–"
def ratio(a, b, ka="mean_s", kb="mean_s"):
    return "%.3g×" % (a[ka] / b[kb]) if a and b and a.get(ka) and b.get(kb) else "–"
text = lambda p: open(os.path.join(d, p)).read().strip()
go = load("go.json") or {}
print("Sequential code, mean ms per run (lower is better); %s; load average (1, 5, 15 min) %s at the start, %s at the end."
      % (text("machine.txt"), text("load0.txt"), text("load1.txt")))
print()
print("| program | arepl, all cores | arepl, 1 thread | arepl, 1 thread, CPU | Go, 1 thread | Go, 1 thread, CPU | arepl / Go, CPU | CPython | numpy | CPython / arepl | numpy / arepl |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
res = {}
i = 0
for line in open(rows):
    if not line.strip() or line.startswith("#"):
        continue
    name, _, _, kernel, _ = line.rstrip("\n").split("\t")
    a, one = first(load("all-%d.json" % i)), first(load("one-%d.json" % i))
    py = load("py-%d.json" % i) or {}
    g = go.get(kernel)
    res[kernel] = (a, one, py, g)
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        name, ms(a), ms(one), ms(one, "cpu_s"), ms(g), ms(g, "cpu_s"), ratio(one, g, "cpu_s", "cpu_s"),
        ms(py.get("python")), ms(py.get("numpy")), ratio(py.get("python"), a), ratio(py.get("numpy"), a)))
    i += 1
print()
print("Wall times are means of the timed runs; CPU is user+system time per timed run; – : not measured (no")
print("CPython or numpy form, or the run failed: see the log above the table).")
print()
print("Targets of issue 18 (wall time as the issue writes them; CPU time beside, for a loaded machine):")
print()
def get(k, i, key="mean_s"):
    r = res.get(k, (None,) * 4)[i]
    return r.get(key) if r else None
def line(what, value, ok):
    print("- %s: %s — %s" % (what, value, "met" if ok else "not met" if ok is not None else "not measured"))
for k, what, lim in (("for_sum", "scalar `for` loop, 10^7 iterations", 0.1), ("while_tuple", "tuple `while` loop, 10^7 iterations", 0.2)):
    w, c = get(k, 0), get(k, 1, "cpu_s")
    ok = None if w is None else w <= lim
    line("%s ≤ %d ms" % (what, lim * 1e3), "%s ms all cores (wall), %s ms CPU on 1 thread" % (
        "%.3g" % (w * 1e3) if w else "–", "%.3g" % (c * 1e3) if c else "–"), ok)
a, np_ = get("mandelbrot", 0), res.get("mandelbrot", (None, None, {}, None))[2].get("numpy")
r = np_["mean_s"] / a if a and np_ else None
c1 = get("mandelbrot", 1, "cpu_s")
nc = np_.get("cpu_s") if np_ else None
line("Mandelbrot 500×500 ≥ 4× faster than numpy", "%s (arepl all cores %s ms, numpy %s ms, wall); CPU time: numpy %s ms, arepl on 1 thread %s ms, %s" % (
    "%.3g×" % r if r else "–", "%.3g" % (a * 1e3) if a else "–", "%.3g" % (np_["mean_s"] * 1e3) if np_ else "–",
    "%.3g" % (nc * 1e3) if nc else "–", "%.3g" % (c1 * 1e3) if c1 else "–", "%.3g×" % (nc / c1) if nc and c1 else "–"),
    None if r is None else r >= 4)
for k, what in (("mssp", "MSSP, one thread, within 2× of Go"), ("reduce2x2mm", "Reduce2x2MM, one thread, within 2× of Go")):
    c, gc, w, gw = get(k, 1, "cpu_s"), get(k, 3, "cpu_s"), get(k, 1), get(k, 3)
    r = c / gc if c and gc else None
    line(what, "%s of Go's CPU time (%s / %s ms); wall %s / %s ms" % (
        "%.3g×" % r if r else "–", "%.3g" % (c * 1e3) if c else "–", "%.3g" % (gc * 1e3) if gc else "–",
        "%.3g" % (w * 1e3) if w else "–", "%.3g" % (gw * 1e3) if gw else "–"), None if r is None else r <= 2)
s1, s4 = get("inplace_branch", 1, "cpu_s"), get("inplace_branch4", 1, "cpu_s")
r = s4 / s1 if s1 and s4 else None
line("in-place update loop linear in n (4× n: about 4× the time)", "%s the CPU time at 4× n" % ("%.3g×" % r if r else "–"),
     None if r is None else r <= 6)
PYEOF
