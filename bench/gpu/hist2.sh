#!/usr/bin/env bash
# Issue 21, the two-GPU histogram's read-back (bench/RESULTS.md, "Several
# GPUs, 2026-11-26 night"), in one call of nvidia-h200-x2. Build here, at
# adb62f4 (cuda.smallReads, the pinned small-read buffer, is gone after it:
# at a later commit the -X of it does nothing and "pinned" = "base"):
#   C=github.com/arepl/arepl/eval/gpu/cuda.smallReads S=github.com/arepl/arepl/eval/shard.partialReads
#   go build -ldflags=-s -o DIR/arepl-both ./cmd/arepl                                  # pinned, early
#   go build -ldflags="-s -X $S=late -X $C=pageable" -o DIR/arepl-base ./cmd/arepl     # as before
#   go build -ldflags="-s -X $S=late" -o DIR/arepl-pinned ./cmd/arepl
#   go build -ldflags="-s -X $C=pageable" -o DIR/arepl-early ./cmd/arepl
#   gzip -9 DIR/arepl-*; cp -r testdata/soacs testdata/multireduce bench/gpu/hist2.sh DIR/
# Then on the machine: bash DIR/hist2.sh DIR OUT
# 1. hist (+) 0 1000 and reduce (+) 0 over 2^31 i32, 8 runs each (the first
#    compiles), one GPU (base, both) and two (base, pinned, early, both,
#    then base and both again for drift);
# 2. arepl test --devices all on testdata/soacs and testdata/multireduce,
#    plain and with --shard-min 1 (every statement over both GPUs).
set -uo pipefail
dir=$(cd "${1:-.}" && pwd)
out=${2:-/tmp/hist2-out}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export XDG_CACHE_HOME=/tmp/arepl-hist2-cache
cd "$dir"
for f in arepl-*.gz; do gunzip -f "$f"; chmod +x "${f%.gz}"; done
start=$SECONDS
log() { echo "== $* (at $((SECONDS - start)) s, $(date +%T))"; }
log devices
nvidia-smi -L
inputs() {
  echo ':time on'
  echo 'let xs = map (\i -> i32.i64 ((i * 7) % 1000)) (iota 2147483648)'
  for _ in 1 2 3 4 5 6 7 8; do echo 'hist (+) 0 1000 (map i64.i32 xs) xs'; done
  for _ in 1 2 3 4 5 6 7 8; do echo 'reduce (+) 0 xs'; done
}
log "1. timings"
for run in 0:base 0:both all:base all:pinned all:early all:both all:base2 all:both2; do
  devs=${run%%:*} v=${run#*:}; bin=./arepl-${v%2}
  inputs | timeout 25 "$bin" --devices $devs >"$out/raw-$devs-$v.txt" 2>&1
  echo "-- --devices $devs $v: exit $?"
  grep '^time' "$out/raw-$devs-$v.txt" | cut -c1-330
  grep -v '^time' "$out/raw-$devs-$v.txt" | md5sum
done > "$out/timings.txt"
cat "$out/timings.txt"
log "2. tests"
for sm in "" "--shard-min 1"; do
  for d in soacs multireduce; do
    timeout 30 ./arepl-both test --devices all $sm "$d" >/tmp/t.txt 2>&1
    echo "-- test --devices all $sm $d: exit $?: $(tail -2 /tmp/t.txt | tr '\n' ' ')"
    grep -iE 'fail|error' /tmp/t.txt | head -5
  done
done 2>&1 | tee "$out/tests.txt"
tar czf "$out/raw.tgz" -C "$out" $(cd "$out" && ls raw-*.txt) && rm -f "$out"/raw-*.txt
log done
