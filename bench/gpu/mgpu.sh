#!/usr/bin/env bash
# Issue 21 on a two-GPU machine, in one script (bench/RESULTS.md, "Several
# GPUs"). Build here, where Go is, into a folder sent along:
#   CGO_ENABLED=0 GOEXPERIMENT=simd go build -o DIR/arepl ./cmd/arepl
#   cp -r testdata examples kernels bench/gpu/mgpu* DIR/
# Then on the machine: bash DIR/mgpu.sh smoke|full DIR OUT
#   smoke: the rendezvous test, a sharded run against the CPU, a REPL
#          session over 10^8 elements
#   all:   both, in one call
#   full:  1 vs 2 GPU timings of reduction, scan,
#          map-scan and histogram over 2^31 i32, the 2^34 f32 reduction,
#          JAX with sharding over the same GPUs (mgpu_peers.py), and every
#          test program with --devices all against the CPU results.
set -uo pipefail
mode=${1:-smoke}
dir=$(cd "${2:-.}" && pwd)
out=${3:-/tmp/mgpu-out}
mkdir -p "$out"
# NVLink multicast stays off, for arepl's NCCL and for JAX's.
export NCCL_NVLS_ENABLE=0
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/arepl-mgpu-cache}
A="$dir/arepl"
cd "$dir"
log() { echo "== $* ($(date +%T))"; }

log devices
nvidia-smi -L 2>&1 | tee "$out/devices.txt"
nvidia-smi topo -m 2>&1 | head -5 >>"$out/devices.txt"

if [ "$mode" = smoke ] || [ "$mode" = all ]; then
log "rendezvous: two processes, one GPU each"
rm -f /tmp/arepl-mgpu-id
for r in 0 1; do
  CUDA_VISIBLE_DEVICES=$r timeout 45 "$A" nccl --rendezvous file:/tmp/arepl-mgpu-id --rank $r --nranks 2 \
    >"$out/rendezvous-file-$r.txt" 2>&1 &
done
wait
cat "$out"/rendezvous-file-*.txt
for r in 0 1; do
  CUDA_VISIBLE_DEVICES=$r timeout 45 "$A" nccl --rendezvous tcp:127.0.0.1:29531 --rank $r --nranks 2 \
    >"$out/rendezvous-tcp-$r.txt" 2>&1 &
done
wait
cat "$out"/rendezvous-tcp-*.txt

log "sharded smoke: --devices all --shard-min 1 against the CPU"
cat >/tmp/mgpu-smoke.fut <<'FUT'
def main (xs: []i32) : (i32, []i32, []i32, i32, []i32, i32) =
  let s = reduce (+) 0 xs
  let sc = scan (+) 0 xs
  let f = filter (\x -> x % 2 == 0) xs
  let m = reduce (\a b -> if b > a then b else a) i32.lowest (map (*2) xs)
  let h = hist (+) 0 4 (map (\x -> i64.i32 (x % 4)) xs) xs
  in (s, sc, f, m, h, reduce (+) 0 (map (\i -> i32.i64 i) (iota (length xs))))
FUT
in='[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]'
echo "$in" | "$A" run /tmp/mgpu-smoke.fut --backend cpu >"$out/smoke-cpu.txt" 2>&1
echo "$in" | timeout 120 "$A" run /tmp/mgpu-smoke.fut --devices all --shard-min 1 >"$out/smoke-gpu2.txt" 2>&1
if cmp -s "$out/smoke-cpu.txt" "$out/smoke-gpu2.txt"; then echo "smoke: same as the CPU"; else echo "smoke: DIFFERENT"; diff "$out/smoke-cpu.txt" "$out/smoke-gpu2.txt" | head -20; fi
printf ':time on\n:backend\nlet xs = map (\\i -> i32.i64 ((i * 7) %% 1000)) (iota 100000000)\n:where xs\nreduce (+) 0 xs\nreduce (+) 0 xs\nscan (+) 0 xs\nhist (+) 0 1000 (map i64.i32 xs) xs\nfilter (>500) xs\n' |
  timeout 120 "$A" --devices all 2>&1 | cut -c1-600 | tee "$out/smoke-repl.txt"
fi

if [ "$mode" = full ] || [ "$mode" = all ]; then
  log "timings: 2^31 i32 on 1 and 2 GPUs (REPL :time; run = kernels by CUDA events + collectives)"
  for devs in 0 all; do
    {
      echo ':time on'
      echo ':backend'
      echo 'let xs = map (\i -> i32.i64 ((i * 7) % 1000)) (iota 2147483648)'
      echo ':where xs'
      for w in 'reduce (+) 0 xs' '(scan (+) 0 xs)[2147483647]' '(scan (+) 0 (map (*3) xs))[2147483647]' 'hist (+) 0 1000 (map i64.i32 xs) xs'; do
        for _ in 1 2 3 4 5 6; do echo "$w"; done
      done
    } | timeout 150 "$A" --devices $devs 2>&1 | cut -c1-700 >"$out/time-2e31-$devs.txt"
    grep -c '^time' "$out/time-2e31-$devs.txt"
  done
  log "2^34 f32 (64 GiB) reduction on 2 GPUs"
  {
    echo ':time on'
    echo 'let fs = map (\i -> f32.i64 (i % 1024)) (iota 17179869184)'
    echo ':where fs'
    for _ in 1 2 3 4; do echo 'reduce (+) 0f32 fs'; done
  } | timeout 150 "$A" --devices all 2>&1 | cut -c1-700 >"$out/time-2e34-all.txt"
  cat "$out/time-2e34-all.txt"
  log "JAX with sharding over the same GPUs"
  timeout 200 python3 "$dir/mgpu_peers.py" >"$out/jax.txt" 2>&1
  tail -30 "$out/jax.txt"
  log "every test program with --devices all --shard-min 1 (8 processes over the folders)"
  ls -d testdata/* examples | timeout "${TESTS_S:-180}" xargs -P 8 -I{} sh -c \
    '"$0" test --devices all --shard-min 1 "{}" >"$1/test-$(echo {} | tr / _).txt" 2>&1; echo "{}: $(tail -1 "$1/test-$(echo {} | tr / _).txt")"' "$A" "$out" | tee "$out/tests-summary.txt"
fi
log done
