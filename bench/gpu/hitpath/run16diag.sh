#!/usr/bin/env bash
# Run 16, call 1 (issue 16: why 3 of 60 seen lines took over 2 ms): one
# build (new/arepl.gz, with AREPL_GO_TRACE's regions for the REPL's parts,
# the tier-2 compiles and the module loads) over latency.hit.txt in fresh
# REPLs: with Go's execution trace and the command log, module loads on the
# command goroutine (AREPL_CUDA_LOADER=0, as before) and on the loader;
# controls without tiers, with 2 s pauses after the new lines
# (latency.hit.pause.txt), with 0.45 s pauses (latency.hit.overlap.txt: the
# repeats meet the background compiles and loads), GODEBUG=gctrace=1, GOGC=off;
# then untraced sessions of both loaders; and cuda.test's TestLoadsAside
# (launch round trips while another goroutine loads modules). The loader
# (AREPL_CUDA_LOADER, eval/gpu/cuda/loader.go) and TestLoadsAside were this
# call's experiment, not committed: a load on a second thread stalled the
# command goroutine's launches up to the stream hold's 1 s timeout
# (bench/RESULTS.md, run 16). OUT receives
# one tarball of the logs and traces (tracelines.py reads them here). The folder holds latency.py beside this script.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-/tmp/out}; mkdir -p "$out"; logs=$(mktemp -d)
gunzip -f new/arepl.gz cuda.test.gz && chmod +x new/arepl cuda.test
exec > >(tee "$out/run.log") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L | head -1); nproc $(nproc); cpu.max $(cat /sys/fs/cgroup/cpu.max 2>/dev/null)"
cat /sys/fs/cgroup/cpu.stat 2>/dev/null | tr '\n' ' '; echo
sess() { # name inputs env...
  local name=$1 inputs=$2; shift 2
  echo "== session $name: $*"
  env XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) "$@" \
    timeout 60 python3 ./latency.py --arepl "${AREPL:-./new/arepl}" --inputs "$inputs" --out "$logs/repl-$name.jsonl" --timeout 30 >/dev/null
}
T() { echo AREPL_GO_TRACE=$logs/trace-$1.out AREPL_CUDA_DOLOG=$logs/dolog-$1.txt AREPL_CUDA_DOLOG_MIN=50us; }
sess old-trace1 latency.hit.txt AREPL_CUDA_LOADER=0 $(T old-trace1)
sess new-trace1 latency.hit.txt AREPL_CUDA_LOADER=1 $(T new-trace1)
sess old-trace2 latency.hit.txt AREPL_CUDA_LOADER=0 $(T old-trace2)
sess new-trace2 latency.hit.txt AREPL_CUDA_LOADER=1 $(T new-trace2)
sess notier-trace latency.hit.txt AREPL_CUDA_LOADER=0 AREPL_TIERED=0 $(T notier-trace)
sess pause-trace latency.hit.pause.txt AREPL_CUDA_LOADER=0 $(T pause-trace)
sess overlap-old-trace latency.hit.overlap.txt AREPL_CUDA_LOADER=0 $(T overlap-old-trace)
sess overlap-new-trace latency.hit.overlap.txt AREPL_CUDA_LOADER=1 $(T overlap-new-trace)
# gctrace's lines go to stderr, which latency.py merges with stdout: keep them apart.
printf '#!/bin/sh\nexec "$(dirname "$0")/arepl" "$@" 2>>"$GCLOG"\n' > new/arepl-gc; chmod +x new/arepl-gc
AREPL=./new/arepl-gc sess gctrace latency.hit.txt AREPL_CUDA_LOADER=0 GODEBUG=gctrace=1 GCLOG=$logs/gctrace.txt
sess gogcoff latency.hit.txt AREPL_CUDA_LOADER=0 GOGC=off
for r in 1 2; do
  sess old-$r latency.hit.txt AREPL_CUDA_LOADER=0
  sess new-$r latency.hit.txt AREPL_CUDA_LOADER=1
  sess overlap-old-$r latency.hit.overlap.txt AREPL_CUDA_LOADER=0
  sess overlap-new-$r latency.hit.overlap.txt AREPL_CUDA_LOADER=1
done
cat /sys/fs/cgroup/cpu.stat 2>/dev/null | tr '\n' ' '; echo
python3 - "$logs" <<'PY'
import json, sys, glob, os, statistics
for f in sorted(glob.glob(sys.argv[1] + "/repl-*.jsonl")):
    rows = [json.loads(l) for l in open(f)]
    seen = [r["ms"] for r in rows if r["name"].startswith(("repeat", "renamed"))]
    over = [(i + 1, r["name"], round(r["ms"], 2)) for i, r in enumerate(rows) if r["name"].startswith(("repeat", "renamed")) and r["ms"] > 1.5]
    if seen:
        print(f"{os.path.basename(f):32} seen {len(seen)} median {statistics.median(seen):.3f} max {max(seen):.3f} over 2 ms {sum(x > 2 for x in seen)}; over 1.5: {over}")
PY
echo "== TestLoadsAside"
./cuda.test -test.run 'TestLoadsAside|TestLaunchTimeIsKernelTime' -test.v 2>&1 | tail -20
tar czf "$out/diag.tgz" -C "$logs" .
ls -la "$out"
echo "== end $(date -u +%FT%TZ)"
