"""Summarise REPL repeat sessions: for files DIR/hit-GROUP-ROUND.jsonl
(latency.py's output over latency.hit.txt), the repeated and renamed lines'
wall times per GROUP: min, median, p90, max and how many took over 2 ms.

    python3 hitsummary.py DIR
"""
import glob, json, os, re, statistics, sys

groups = {}
for f in sorted(glob.glob(sys.argv[1] + "/hit-*.jsonl")):
    rows = [json.loads(l) for l in open(f)]
    seen = [r["ms"] for r in rows if r["name"].startswith(("repeat", "renamed"))]
    groups.setdefault(re.sub(r"-\d+$", "", os.path.basename(f)[4:-6]), []).extend(seen)
for g, w in sorted(groups.items()):
    w.sort()
    print(f"hit {g}: seen {len(w)} min {w[0]:.3f} median {statistics.median(w):.3f} "
          f"p90 {w[int(0.9 * len(w))]:.3f} max {w[-1]:.3f} over2ms {sum(x > 2 for x in w)}")
