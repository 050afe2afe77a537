#!/usr/bin/env bash
# Issue 21: where the 0.3-0.6 ms stalls after the two-GPU histogram's
# kernels go, in one call of a two-GPU machine (bench/RESULTS.md, "Several
# GPUs, 2026-11-26: the histogram's stall"). Build here, where Go is:
#   go build -ldflags=-s -o DIR/arepl ./cmd/arepl
#   go build -ldflags '-s -X github.com/arepl/arepl/eval/backends.gpuPeerCopies=on' -o DIR/arepl-peer ./cmd/arepl
#   gzip both; cp bench/gpu/mgpu_stall.sh DIR/
# Then on the machine: bash DIR/mgpu_stall.sh DIR OUT
# Each session makes the 2^31 i32 xs on its GPUs and times
# `hist (+) 0 1000 (map i64.i32 xs) xs` 31 times and `reduce (+) 0 xs` 11
# times (the first of each compiles). The variants are environment settings
# of the same binary: GOGC=off (no garbage collection), AREPL_CUDA_SPIN (how
# long the driver's callers and command goroutines poll before they park),
# AREPL_CUDA_CTX_FLAGS=1 (CU_CTX_SCHED_SPIN); AREPL_CUDA_DOLOG writes every
# driver command of 40 µs or more with its queue / exec / back parts
# (eval/gpu/cuda/dolog.go), GODEBUG=gctrace=1 the collections, AREPL_GO_TRACE
# Go's execution trace. Everything comes back in one tar.
set -uo pipefail
dir=$(cd "${1:-.}" && pwd)
out=${2:-/tmp/mgpu-stall}
mkdir -p "$out/s"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export XDG_CACHE_HOME=/tmp/arepl-stall-cache AREPL_CUDA_DOLOG_MIN=40us
cd "$dir"
for b in arepl arepl-peer; do [ -f $b.gz ] && gunzip -f $b.gz; chmod +x $b; done
start=$SECONDS
log() { echo "== $* (at $((SECONDS - start)) s, $(date +%T))"; }
log devices
{ nvidia-smi -L; nproc; grep -c processor /proc/cpuinfo; uname -r; head -1 /proc/stat; } 2>&1 | tee "$out/s/machine.txt"
# STALL_DRY=1: a dry run here, on the simulated devices, over 2^20.
size=2147483648
[ -n "${STALL_DRY:-}" ] && size=1048576
inputs() {
  echo ':time on'
  echo "let xs = map (\\i -> i32.i64 ((i * 7) % 1000)) (iota $size)"
  for _ in $(seq 31); do echo 'hist (+) 0 1000 (map i64.i32 xs) xs'; done
  for _ in $(seq 11); do echo 'reduce (+) 0 xs'; done
}
n=0
# name devices binary environment...
while read -r name devs bin envs; do
  [ -z "$name" ] && continue
  ((SECONDS - start < ${STALL_SECONDS:-55})) || { echo "session $name: skipped (time)"; continue; }
  n=$((n + 1))
  f="$out/s/$(printf %02d $n)-$name.txt"
  extra=()
  for e in $envs; do
    [ "$e" = - ] && continue
    case $e in *=@*) e="${e%%=@*}=$out/s/$(printf %02d $n)-${e#*=@}";; esac
    extra+=("$e")
  done
  [ -n "${STALL_DRY:-}" ] && devs=sim:$([ "$devs" = all ] && echo 2 || echo 1)
  inputs | env "${extra[@]}" timeout 20 "./$bin" --devices "$devs" >"$f" 2>"$f.err"
  rc=$?
  echo "session $n $name ($bin --devices $devs ${extra[*]}): exit $rc, $(grep -c '^time' "$f") timed; results md5 $(grep -v '^time' "$f" | md5sum | cut -c1-12)"
  grep '^time' "$f" | sed -n '3,32s/.*[(, ]run \([^,)]*\).*/\1/p' | paste -sd' ' | cut -c1-400
done <<'LIST'
1gpu-base 0 arepl -
2gpu-base all arepl AREPL_CUDA_DOLOG=@dolog.txt GODEBUG=gctrace=1
2gpu-gogcoff all arepl GOGC=off AREPL_CUDA_DOLOG=@dolog.txt GODEBUG=gctrace=1
2gpu-spin2ms all arepl AREPL_CUDA_SPIN=2ms AREPL_CUDA_DOLOG=@dolog.txt GODEBUG=gctrace=1
2gpu-ctxspin all arepl AREPL_CUDA_CTX_FLAGS=1 AREPL_CUDA_DOLOG=@dolog.txt
2gpu-trace all arepl AREPL_GO_TRACE=@trace.out AREPL_CUDA_DOLOG=@dolog.txt
1gpu-spin2ms 0 arepl AREPL_CUDA_SPIN=2ms
2gpu-spin2ms-gogcoff all arepl AREPL_CUDA_SPIN=2ms GOGC=off AREPL_CUDA_DOLOG=@dolog.txt
2gpu-peer all arepl-peer AREPL_CUDA_DOLOG=@dolog.txt
2gpu-peer-spin2ms all arepl-peer AREPL_CUDA_SPIN=2ms AREPL_CUDA_DOLOG=@dolog.txt
2gpu-base-quiet all arepl -
2gpu-spin2ms-quiet all arepl AREPL_CUDA_SPIN=2ms
1gpu-base2 0 arepl -
2gpu-spin1ms all arepl AREPL_CUDA_SPIN=1ms
2gpu-gogc400 all arepl GOGC=400
2gpu-base-quiet2 all arepl -
2gpu-spin2ms-quiet2 all arepl AREPL_CUDA_SPIN=2ms
LIST
head -1 /proc/stat >>"$out/s/machine.txt"
tar czf "$out/stall.tgz" -C "$out" s && rm -rf "$out/s"
log done
