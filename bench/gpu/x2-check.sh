#!/usr/bin/env bash
# The lead's two-GPU check of main (issue 21), one call of a two-GPU machine:
# 2^31 i32 reduce, scan, map-scan, scan+consumer and hist on one GPU and on
# both (11 runs each; results compared by md5), the two-process NCCL
# rendezvous through a file and TCP, and every test program with
# --devices all --shard-min 1 (every statement over both GPUs).
# Build arepl (-ldflags=-s) into .carry-x2 and send it as a carry folder;
# run from the repository root: bash bench/gpu/x2-check.sh .carry-x2/arepl
# PEERS=1 adds JAX with sharding on the same workloads (mgpu_peers.py: 1 GPU,
# then 2 GPUs with the scans spread by hand, shard_map), BIG=1 the 2^34-element
# f32 reduction (64 GiB, made on the two GPUs), RV=0 and TESTS=0 skip steps 2-3.
set -uo pipefail
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${OUT:-/tmp/x2-out}; mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export XDG_CACHE_HOME=/tmp/arepl-x2-cache
s=$SECONDS
log() { echo "== $* (at $((SECONDS - s)) s)" | tee -a $OUT/summary.txt; }
nvidia-smi -L | tee $OUT/summary.txt
log "1. timings 2^31 i32"
inputs() {
  echo ':time on'
  echo 'let xs = map (\i -> i32.i64 ((i * 7) % 1000)) (iota 2147483648)'
  for w in 'reduce (+) 0 xs' '(scan (+) 0 xs)[2147483647]' '(scan (+) 0 (map (*3) xs))[2147483647]' \
    'reduce i32.max i32.lowest (scan (+) 0 xs)' 'hist (+) 0 1000 (map i64.i32 xs) xs'; do
    for _ in 1 2 3 4 5 6 7 8 9 10 11; do echo "$w"; done
  done
}
for d in 0 all; do
  f=$OUT/time-$d.txt
  inputs | timeout 40 "$A" --devices $d 2>&1 | cut -c1-700 >"$f"
  echo "devices $d: $(grep -c '^time' "$f") timed; results md5 $(grep -v '^time' "$f" | md5sum | cut -c1-12)" | tee -a $OUT/summary.txt
  # :time's run stage of every input after `let xs`, 11 to a line (each
  # line's first entry is the previous workload's last run)
  grep '^time' "$f" | tail -n +2 | sed -n 's/.*[(, ]run \([^,)]*\).*/\1/p' | paste -d' ' - - - - - - - - - - - | cut -c1-250 | tee -a $OUT/summary.txt
done
if [ "${PEERS:-0}" = 1 ]; then
  log "1b. JAX with sharding"
  { [ "${JAX1:-1}" = 0 ] || timeout 60 python3 bench/gpu/mgpu_peers.py 1
    for w in reduce hist scan_sm mapscan_sm; do timeout ${JAXT:-40} python3 bench/gpu/mgpu_peers.py 2 $w || echo "jax 2 GPU $w: exit $?"; done
  } >$OUT/jax.txt 2>&1
  grep -E "^jax [12] GPU|exit" $OUT/jax.txt | tee -a $OUT/summary.txt
fi
if [ "${BIG:-0}" = 1 ]; then
  log "1c. 2^34 f32 reduction on 2 GPUs"
  { echo ":time on"; echo "let fs = map (\\i -> f32.i64 (i % 1024)) (iota 17179869184)"; echo ":where fs"
    for _ in 1 2 3 4; do echo "reduce (+) 0f32 fs"; done; } | timeout 60 "$A" --devices all 2>&1 | cut -c1-600 | tee $OUT/time-2e34.txt | tail -6 | tee -a $OUT/summary.txt
fi
if [ "${RV:-1}" = 1 ]; then
log "2. rendezvous"
{
  rm -f /tmp/arepl-id
  for r in 0 1; do CUDA_VISIBLE_DEVICES=$r timeout 30 "$A" nccl --rendezvous file:/tmp/arepl-id --rank $r --nranks 2 >/tmp/rv-file-$r.txt 2>&1 & done; wait
  for r in 0 1; do CUDA_VISIBLE_DEVICES=$r timeout 30 "$A" nccl --rendezvous tcp:127.0.0.1:29533 --rank $r --nranks 2 >/tmp/rv-tcp-$r.txt 2>&1 & done; wait
  for f in /tmp/rv-*.txt; do echo "-- $f"; cat "$f"; done
} >$OUT/rendezvous.txt 2>&1
tail -12 $OUT/rendezvous.txt | tee -a $OUT/summary.txt
fi
if [ "${TESTS:-1}" = 1 ]; then
log "3. every test program, --devices all --shard-min 1"
mkdir -p /tmp/x2t
for d in testdata/* examples; do echo "$(find "$d" -name '*.fut' | wc -l) $d"; done | sort -nr | cut -d' ' -f2 | xargs -P 8 -I{} sh -c \
  'f=/tmp/x2t/test-$(echo {} | tr / _).txt; timeout 150 "$0" test --devices all --shard-min 1 "{}" >"$f" 2>&1; echo "{}: exit $?: $(tail -1 "$f")"' "$A" | tee $OUT/tests.txt
echo "folders $(wc -l <$OUT/tests.txt); passed $(grep -o '[0-9]* passed' $OUT/tests.txt | awk '{s+=$1} END {print s}'), failed $(grep -o '[0-9]* failed' $OUT/tests.txt | awk '{s+=$1} END {print s}')" | tee -a $OUT/summary.txt
grep -h -B2 -A6 'FAIL' /tmp/x2t/*.txt | head -80 > $OUT/failures.txt
fi
log done
