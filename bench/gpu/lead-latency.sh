#!/usr/bin/env bash
# The lead's run of issue 16's figures on one GPU, in one call: latency.sh's
# compile, notebook (jupyter_client through the py311 bundle of
# latency.pybundle.sh), repl and bench parts; then REPL repeats
# (hitpath/latency.hit.txt) under the default GC floor and none, interleaved;
# then cold compiles (latency_cold.sh, shipped defaults). Build into
# .carry-lead: arepl, gpu.test, cuda.test (-ldflags=-s) and py.tgz + py311
# (bash bench/gpu/latency.pybundle.sh .carry-lead); send it as a carry folder.
#   bash .carry-lead/latency.sh      (logs and a summary under $OUT)
set -uo pipefail
root=$(pwd); d=$root/.carry-lead
L=/tmp/lat; mkdir -p $L /tmp/py
tar xzf $d/py.tgz -C /tmp/py
cp bench/gpu/latency.py bench/gpu/latency*.txt bench/gpu/latency.tiered.fut bench/gpu/cells.py bench/gpu/sum.fut bench/gpu/hitpath/latency.hit.txt "$d/"
s=$SECONDS
PY=$d/py311 PARTS=${PARTS:-compile,notebook,repl,bench} timeout ${LATT:-300} bash bench/gpu/latency.sh "$d" $L/lat >/dev/null 2>&1
echo "STEP latency.sh rc=$? $((SECONDS-s))s" | tee $OUT/summary.txt
grep -h summary $L/lat/notebook*.jsonl | tee -a $OUT/summary.txt
python3 - $L/lat <<'PY' | tee -a $OUT/summary.txt
import json, re, sys
for name in ("compile-cold", "compile-warm", "repl-cold", "repl-warm"):
    try:
        rows = [json.loads(l) for l in open(f"{sys.argv[1]}/{name}.jsonl")]
    except OSError:
        print(name, "missing"); continue
    print("==", name)
    for r in rows:
        c = re.search(r"compile ([0-9.]+[µm]?s(?: \([^()]*\))?)", r.get("time_line", ""))
        x = re.search(r"transfer[^,]*", r.get("time_line", ""))
        print("%-22s %9.3f ms  compile %-34s %s" % (r["name"], r["ms"], c.group(1) if c else "-", x.group(0)[:70] if x else ""))
PY
grep -A3 -i 'sum_i32\|copy_d2d\|^arepl bench\|mean' $L/lat/latency.log | grep -v '^--$' | head -30 >> $OUT/summary.txt
hit() { XDG_CACHE_HOME=$(mktemp -d) CUDA_CACHE_PATH=$(mktemp -d) env $2 timeout 60 python3 "$d/latency.py" --arepl "$d/arepl" --inputs "$d/latency.hit.txt" --out "$L/hit-$1.jsonl" --timeout 30 >/dev/null || echo "session $1 failed"; }
t=$SECONDS
for r in 1 2 3; do hit default-$r ""; hit floor0-$r AREPL_GC_FLOOR_MB=0; done
python3 bench/gpu/hitpath/hitsummary.py "$L" | tee -a $OUT/summary.txt
echo "STEP hit $((SECONDS-t))s" | tee -a $OUT/summary.txt
t=$SECONDS
VARIANTS="now=" ROUNDS=${COLDR:-3} bash bench/gpu/latency_cold.sh "$d" $L/coldout >/dev/null 2>&1
echo "STEP cold $((SECONDS-t))s" | tee -a $OUT/summary.txt
sed -n '/compile stage ms/,/per session: NVRTC/p' $L/coldout/cold.log >> $OUT/summary.txt
tar czf $OUT/logs.tgz -C $L .
echo "total $((SECONDS-s))s" | tee -a $OUT/summary.txt
