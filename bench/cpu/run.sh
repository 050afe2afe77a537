#!/usr/bin/env bash
# The CPU benchmark of issue 2: in one run, times every program of
# bench/cpu/programs.tsv with `arepl bench` (fused and --no-fusion, on the
# CPU backend), the same computations in numpy and as hand-written Go loops
# (one thread and all threads), and prints one markdown table.
#
#   bash bench/cpu/run.sh            # 10^7 elements, 5 runs each
#   N=1000000 RUNS=3 WARMUP=1 bash bench/cpu/run.sh
#
# Needs Go and Debian's python3-numpy (installed with apt-get when missing).
# AREPL names the arepl binary; by default bin/arepl, rebuilt from this tree
# on every run (a stale bin/arepl once timed an older interpreter).
set -euo pipefail
cd "$(dirname "$0")/../.."

N=${N:-10000000}
RUNS=${RUNS:-5}
# Untimed arepl calls before the timed ones. The first calls of a process
# grow the Go heap to its working size, and every page they touch for the
# first time faults (1 to 2 us per 4 KiB page on this VM, 10 to 20 ms per
# 40 MB result); numpy's arrays get huge pages (it asks for them with
# madvise), the Go heap does not. Three calls reach the steady state that
# a REPL session is in after its first few inputs.
WARMUP=${WARMUP:-3}
if [ -z "${AREPL:-}" ]; then
  AREPL=bin/arepl
  CGO_ENABLED=0 GOEXPERIMENT=simd go build -o "$AREPL" ./cmd/arepl
fi
PY=/usr/bin/python3
PROGRAMS=bench/cpu/programs.tsv

if [ ! -x "$AREPL" ]; then
  echo "building $AREPL" >&2
  CGO_ENABLED=0 GOEXPERIMENT=simd go build -o "$AREPL" ./cmd/arepl
fi
if ! "$PY" -c 'import numpy' 2>/dev/null; then
  echo "installing python3-numpy" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get install -y -q python3-numpy >&2
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
{
  printf '%s, %s cores, %s, commit %s' \
    "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" "$(nproc)" \
    "$(date -u +%Y-%m-%d)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} >"$out/machine.txt"

kernels=()
i=0
while IFS=$'\t' read -r name file entry kernel maxruns; do
  case "$name" in ''|'#'*) continue ;; esac
  kernels+=("$kernel")
  runs=$RUNS warmup=$WARMUP
  if [ -n "${maxruns:-}" ] && [ "$maxruns" -lt "$RUNS" ]; then runs=$maxruns warmup=0; fi
  # fused1: the fused program on one interpreter thread (GOMAXPROCS=1 makes
  # the CPU backend use one worker), beside the one-thread Go loop.
  for mode in fused unfused fused1; do
    flags=(--backend cpu --size "$N" --runs "$runs" --warmup "$warmup" --json -e "$entry")
    [ "$mode" = unfused ] && flags+=(--no-fusion)
    procs=$(nproc)
    [ "$mode" = fused1 ] && procs=1
    echo "GOMAXPROCS=$procs arepl bench $file ${flags[*]}" >&2
    if [ ! -f "$file" ]; then
      echo "  $file: missing" >&2
    elif ! GOMAXPROCS=$procs "$AREPL" bench "$file" "${flags[@]}" >"$out/$mode-$i.json" 2>"$out/err"; then
      sed 's/^/  /' "$out/err" >&2
      rm -f "$out/$mode-$i.json"
    fi
  done
  i=$((i + 1))
done <"$PROGRAMS"

uniq_kernels=$(printf '%s\n' "${kernels[@]}" | sort -u | paste -sd, -)
echo "go loops: $uniq_kernels" >&2
go run ./bench/cpu/goloops -n "$N" -runs "$RUNS" -kernels "$uniq_kernels" >"$out/go.json"
echo "numpy: $uniq_kernels" >&2
"$PY" bench/cpu/bench.py numpy "$N" "$RUNS" ${uniq_kernels//,/ } >"$out/numpy.json"

"$PY" bench/cpu/bench.py table "$out" "$PROGRAMS" "$N"
