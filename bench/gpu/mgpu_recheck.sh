#!/usr/bin/env bash
# The second call of issue 21's measurements (bench/RESULTS.md, "Several
# GPUs, 2026-11-26 late"): after fixes to what the first (mgpu.sh) found.
# Same folder as mgpu.sh: bash DIR/mgpu_recheck.sh DIR OUT [SECONDS]
#   1. the 2^31 i32 timings on 1 and 2 GPUs again, 8 runs each;
#   2. every test program with --devices all --shard-min 1 again;
#   3. JAX's 2-GPU scans: by hand with shard_map, then jnp.cumsum on the
#      sharded array (over 30 s in the first call) with a longer limit.
set -uo pipefail
dir=$(cd "${1:-.}" && pwd)
out=${2:-/tmp/mgpu-out}
deadline=${3:-150}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/arepl-mgpu-cache}
export PYTHONUNBUFFERED=1
A="$dir/arepl"
cd "$dir"
start=$SECONDS
lim() {
  local l=$((deadline - (SECONDS - start)))
  if ((l < $1)); then echo $((l > 1 ? l : 1)); else echo "$1"; fi
}
log() { echo "== $* (at $((SECONDS - start)) s, $(date +%T))"; }

log devices
nvidia-smi -L
log "1. timings: 2^31 i32 on 1 and 2 GPUs"
for devs in 0 all; do
  {
    echo ':time on'
    echo 'let xs = map (\i -> i32.i64 ((i * 7) % 1000)) (iota 2147483648)'
    for w in 'reduce (+) 0 xs' '(scan (+) 0 xs)[2147483647]' '(scan (+) 0 (map (*3) xs))[2147483647]' 'hist (+) 0 1000 (map i64.i32 xs) xs'; do
      for _ in 1 2 3 4 5 6 7 8; do echo "$w"; done
    done
  } | timeout "$(lim 40)" "$A" --devices $devs 2>&1 | cut -c1-600 >"$out/time-2e31-$devs.txt"
  echo "--devices $devs: $(grep -c '^time' "$out/time-2e31-$devs.txt") timed inputs"
  grep '^time' "$out/time-2e31-$devs.txt" | sed -e 's/^time: //' -e 's/ on gpu (.*run \([^,]*\),.*)/ run \1/' | cut -c1-260
done

log "2. every test program with --devices all --shard-min 1"
mkdir -p /tmp/mgpu-tests
end=$(($(date +%s) + $(lim 60)))
for d in testdata/* examples; do echo "$(find "$d" -name '*.fut' | wc -l) $d"; done | sort -nr | cut -d' ' -f2 | xargs -P 8 -I{} sh -c \
  'f=/tmp/mgpu-tests/test-$(echo {} | tr / _).txt; rem=$(($1 - $(date +%s))); [ $rem -gt 2 ] || exit 0
   timeout $rem "$0" test --devices all --shard-min 1 "{}" >"$f" 2>&1; echo "{}: exit $?: $(tail -1 "$f")"' "$A" "$end" |
  tee "$out/tests-summary.txt"
echo "folders finished: $(wc -l <"$out/tests-summary.txt") of $(ls -d testdata/* examples | wc -l)"
tar czf "$out/tests-logs.tgz" -C /tmp mgpu-tests

log "3. JAX's 2-GPU scans"
{
  for w in scan_sm mapscan_sm; do
    timeout "$(lim 30)" python3 "$dir/mgpu_peers.py" 2 $w || echo "jax 2 GPU $w: exit $? (124: over its time limit)"
  done
  timeout "$(lim 60)" python3 "$dir/mgpu_peers.py" 2 scan || echo "jax 2 GPU scan: exit $? (124: over its time limit)"
} >"$out/jax.txt" 2>&1
grep -E '^jax [12] GPU|exit|rror' "$out/jax.txt" | cut -c1-400
log done
