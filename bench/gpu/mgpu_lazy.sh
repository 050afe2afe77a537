#!/usr/bin/env bash
# Issue 21, lazy scan carries and the histogram's combine, in one call of a
# two-GPU machine (bench/RESULTS.md, "Several GPUs, 2026-11-27: lazy scan
# carries"). Build here, where Go is, into a folder sent along:
#   go build -ldflags=-s -o DIR/arepl ./cmd/arepl                  (this branch)
#   go build -ldflags '-s -X github.com/arepl/arepl/eval/backends.gpuPeerCopies=on' -o DIR/arepl-peer ./cmd/arepl
#   (in an export of the commit before the lazy carries) go build -ldflags=-s -o DIR/arepl-base ./cmd/arepl
#   gzip the three; cp -r testdata examples bench/gpu/mgpu_lazy.sh DIR/
# Then on the machine: bash DIR/mgpu_lazy.sh DIR OUT [SECONDS]
#   1. 2^31 i32 timings, :time, 8 runs of each input (the first compiles):
#      one GPU (this branch), then two GPUs with the commit before (base),
#      this branch, this branch with peer copies, and this branch again;
#      the printed results compared between all five sessions;
#   2. every test program with --devices all --shard-min 1 (every statement
#      over both GPUs), with peer copies and then without, until the time
#      is up.
set -uo pipefail
dir=$(cd "${1:-.}" && pwd)
out=${2:-/tmp/mgpu-out}
deadline=${3:-175}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/arepl-mgpu-cache}
cd "$dir"
for b in arepl arepl-peer arepl-base; do [ -f $b.gz ] && gunzip -f $b.gz; chmod +x $b; done
start=$SECONDS
lim() {
  local l=$((deadline - (SECONDS - start)))
  if ((l < $1)); then echo $((l > 1 ? l : 1)); else echo "$1"; fi
}
log() { echo "== $* (at $((SECONDS - start)) s, $(date +%T))"; }

log devices
nvidia-smi -L
log "1. timings: 2^31 i32"
inputs() {
  echo ':time on'
  echo 'let xs = map (\i -> i32.i64 ((i * 7) % 1000)) (iota 2147483648)'
  for w in 'reduce (+) 0 xs' '(scan (+) 0 xs)[2147483647]' '(scan (+) 0 (map (*3) xs))[2147483647]' \
    'reduce i32.max i32.lowest (scan (+) 0 xs)' 'hist (+) 0 1000 (map i64.i32 xs) xs'; do
    for _ in 1 2 3 4 5 6 7 8; do echo "$w"; done
  done
  # A scan kept across inputs: its placement, printing it, elements of both
  # blocks, and statements over it in later inputs.
  echo 'let ys = scan (+) 0 xs'
  echo ':where ys'
  echo 'ys'
  echo 'ys[1073741823]'
  echo 'ys[1073741824]'
  echo 'ys[2147483647]'
  for _ in 1 2 3; do echo 'reduce i32.min i32.highest ys'; done
  for _ in 1 2 3; do echo '(map (\y -> y - 1) ys)[2147483647]'; done
}
n=0
for run in "arepl 0" "arepl-base all" "arepl all" "arepl-peer all" "arepl all"; do
  set -- $run
  n=$((n + 1))
  f="$out/time-$n-$1-$2.txt"
  inputs | timeout "$(lim 30)" "./$1" --devices "$2" 2>&1 | cut -c1-700 >"$f"
  echo "session $n: $1 --devices $2: $(grep -c '^time' "$f") timed inputs; results md5 $(grep -v -e '^time' -e '^ys :' "$f" | md5sum | cut -c1-12)"
  # The runs (:time's run) of each input after the first (let xs), eight to a line.
  grep '^time' "$f" | tail -n +2 | sed -n 's/.*[(, ]run \([^,)]*\).*/\1/p' | paste -d' ' - - - - - - - - | cut -c1-200
done

log "2. every test program with --devices all --shard-min 1"
for b in arepl-peer arepl; do
  mkdir -p /tmp/mgpu-tests-$b
  end=$(($(date +%s) + $(lim 70)))
  for d in testdata/* examples; do echo "$(find "$d" -name '*.fut' | wc -l) $d"; done | sort -nr | cut -d' ' -f2 | xargs -P 8 -I{} sh -c \
    'f=/tmp/mgpu-tests-$2/test-$(echo {} | tr / _).txt; rem=$(($1 - $(date +%s))); [ $rem -gt 2 ] || exit 0
     timeout $rem "./$2" test --devices all --shard-min 1 "{}" >"$f" 2>&1; echo "{}: exit $?: $(tail -1 "$f")"' "$dir" "$end" "$b" |
    tee "$out/tests-summary-$b.txt"
  echo "$b: folders finished: $(wc -l <"$out/tests-summary-$b.txt") of $(ls -d testdata/* examples | wc -l); passed $(grep -o '[0-9]* passed' "$out/tests-summary-$b.txt" | awk '{s+=$1} END {print s}'), failed $(grep -o '[0-9]* failed' "$out/tests-summary-$b.txt" | awk '{s+=$1} END {print s}')"
done
tar czf "$out/tests-logs.tgz" -C /tmp mgpu-tests-arepl-peer mgpu-tests-arepl
log done
