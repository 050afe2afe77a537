#!/usr/bin/env bash
# Issue 21 on a two-GPU machine, in one call (bench/RESULTS.md, "Several
# GPUs"). Build here, where Go is, into a folder sent along:
#   CGO_ENABLED=0 GOEXPERIMENT=simd go build -ldflags=-s -o DIR/arepl ./cmd/arepl
#   cp -r testdata examples bench/gpu/mgpu.sh bench/gpu/mgpu_peers.py DIR/
# Then on the machine: bash DIR/mgpu.sh DIR OUT [SECONDS]
#
# In this order, each step under its own time limit and all of them under
# SECONDS (default 330) of wall time:
#   1. timings: reduction, scan, map-scan and histogram over 2^31 i32 on one
#      GPU (--devices 0) and on two (--devices all), REPL :time, 5 runs each
#      (the first compiles);
#   2. JAX with sharding over 1 and 2 GPUs on the same workloads
#      (mgpu_peers.py; each 2-GPU workload in its own process and time limit);
#   3. the 2^34-element f32 reduction (64 GiB, made on the two GPUs);
#   4. the two-process NCCL rendezvous, through a file and through TCP;
#   5. every test program with --devices all --shard-min 1 (every statement
#      spread over both GPUs) against the expected results, until the time
#      is up; the logs go back as one tar file.
# OUT gets at most 8 files (what the device tool returns).
set -uo pipefail
dir=$(cd "${1:-.}" && pwd)
out=${2:-/tmp/mgpu-out}
deadline=${3:-330}
mkdir -p "$out"
# NVLink multicast stays off, for arepl's NCCL and for JAX's.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/arepl-mgpu-cache}
export PYTHONUNBUFFERED=1
A="$dir/arepl"
cd "$dir"
start=$SECONDS
# lim N: N seconds, or what is left before the deadline if less (at least 1).
lim() {
  local l=$((deadline - (SECONDS - start)))
  if ((l < $1)); then echo $((l > 1 ? l : 1)); else echo "$1"; fi
}
log() { echo "== $* (at $((SECONDS - start)) s, $(date +%T))"; }

log devices
nvidia-smi -L
nvidia-smi topo -m 2>&1 | head -4

log "1. timings: 2^31 i32 on 1 and 2 GPUs (:time's run = kernels by CUDA events + combining steps)"
for devs in 0 all; do
  {
    echo ':time on'
    echo ':backend'
    echo 'let xs = map (\i -> i32.i64 ((i * 7) % 1000)) (iota 2147483648)'
    echo ':where xs'
    for w in 'reduce (+) 0 xs' '(scan (+) 0 xs)[2147483647]' '(scan (+) 0 (map (*3) xs))[2147483647]' 'hist (+) 0 1000 (map i64.i32 xs) xs'; do
      for _ in 1 2 3 4 5; do echo "$w"; done
    done
  } | timeout "$(lim 70)" "$A" --devices $devs 2>&1 | cut -c1-600 >"$out/time-2e31-$devs.txt"
  echo "--devices $devs: $(grep -c '^time' "$out/time-2e31-$devs.txt") timed inputs"
  grep '^time' "$out/time-2e31-$devs.txt" | cut -c1-220
done

log "2. JAX with sharding over the same GPUs"
{
  timeout "$(lim 50)" python3 "$dir/mgpu_peers.py" 1
  for w in reduce hist scan mapscan; do
    timeout "$(lim 30)" python3 "$dir/mgpu_peers.py" 2 $w || echo "jax 2 GPU $w: exit $? (124: over its time limit)"
  done
} >"$out/jax.txt" 2>&1
grep -E '^jax [12] GPU|exit' "$out/jax.txt"

log "3. 2^34 f32 (64 GiB) reduction on 2 GPUs"
{
  echo ':time on'
  echo 'let fs = map (\i -> f32.i64 (i % 1024)) (iota 17179869184)'
  echo ':where fs'
  for _ in 1 2 3 4; do echo 'reduce (+) 0f32 fs'; done
} | timeout "$(lim 45)" "$A" --devices all 2>&1 | cut -c1-600 >"$out/time-2e34-all.txt"
cat "$out/time-2e34-all.txt"

log "4. rendezvous: two processes, one GPU each (file, then TCP)"
{
  rm -f /tmp/arepl-mgpu-id
  for r in 0 1; do
    CUDA_VISIBLE_DEVICES=$r timeout "$(lim 30)" "$A" nccl --rendezvous file:/tmp/arepl-mgpu-id --rank $r --nranks 2 \
      >/tmp/rv-file-$r.txt 2>&1 &
  done
  wait
  for r in 0 1; do
    CUDA_VISIBLE_DEVICES=$r timeout "$(lim 30)" "$A" nccl --rendezvous tcp:127.0.0.1:29531 --rank $r --nranks 2 \
      >/tmp/rv-tcp-$r.txt 2>&1 &
  done
  wait
  for f in /tmp/rv-file-0.txt /tmp/rv-file-1.txt /tmp/rv-tcp-0.txt /tmp/rv-tcp-1.txt; do echo "-- $f"; cat "$f"; done
} >"$out/rendezvous.txt" 2>&1
cat "$out/rendezvous.txt"

log "5. every test program with --devices all --shard-min 1, 8 processes over the folders"
mkdir -p /tmp/mgpu-tests
t=$(lim 400)
end=$(($(date +%s) + (t > 15 ? t - 10 : 5)))
# The folders with the most programs first, so that they are not the ones cut.
for d in testdata/* examples; do echo "$(find "$d" -name '*.fut' | wc -l) $d"; done | sort -nr | cut -d' ' -f2 | xargs -P 8 -I{} sh -c \
  'f=/tmp/mgpu-tests/test-$(echo {} | tr / _).txt; rem=$(($1 - $(date +%s))); [ $rem -gt 2 ] || exit 0
   timeout $rem "$0" test --devices all --shard-min 1 "{}" >"$f" 2>&1; echo "{}: exit $?: $(tail -1 "$f")"' "$A" "$end" |
  tee "$out/tests-summary.txt"
echo "folders finished: $(wc -l <"$out/tests-summary.txt") of $(ls -d testdata/* examples | wc -l)"
tar czf "$out/tests-logs.tgz" -C /tmp mgpu-tests
log done
