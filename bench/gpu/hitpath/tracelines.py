#!/usr/bin/env python3
"""Where a REPL line's latency goes (issue 16, run 16): reads a session's
latency.py rows (with t0_ns/t1_ns, CLOCK_MONOTONIC, as Go's trace times) and
its Go execution trace (AREPL_GO_TRACE, dumped by `go tool trace -d=parsed`,
so this runs where Go is), and prints for each line: the wall time, when the
REPL had the line (`line read`), the eval/show regions, the main goroutine's
time by state (running, runnable: waiting for a P, waiting, in syscalls), the
garbage collections and stop-the-worlds that overlap it, and the other
goroutines' regions (module loads, tier-2 compiles) that overlap it.

    python3 tracelines.py repl-x.jsonl trace-x.out [--all]
"""
import json
import re
import subprocess
import sys

EV = re.compile(r"^M=(-?\d+) P=(-?\d+) G=(-?\d+) (\w+) Time=(\d+)(.*)$")


def events(trace):
    dump = subprocess.run(["go", "tool", "trace", "-d=parsed", trace], capture_output=True, text=True).stdout
    for line in dump.splitlines():
        m = EV.match(line)
        if m:
            yield int(m.group(3)), m.group(4), int(m.group(5)), m.group(6)


def overlap(a0, a1, b0, b1):
    return max(0, min(a1, b1) - max(a0, b0))


def main():
    rows = [json.loads(l) for l in open(sys.argv[1])]
    show_all = "--all" in sys.argv
    reads, regions, ranges, states = [], [], [], {}
    open_regions, open_ranges = {}, {}
    main_g = None
    for g, kind, t, rest in events(sys.argv[2]):
        if kind == "Log" and 'Message="line read"' in rest:
            reads.append(t)
            main_g = g
        elif kind == "RegionBegin":
            typ = re.search(r'Type="([^"]*)"', rest).group(1)
            open_regions.setdefault((g, typ), []).append(t)
        elif kind == "RegionEnd":
            typ = re.search(r'Type="([^"]*)"', rest).group(1)
            if open_regions.get((g, typ)):
                regions.append((g, typ, open_regions[(g, typ)].pop(), t))
        elif kind in ("RangeBegin", "RangeActive"):
            name = re.search(r'Name="([^"]*)"', rest).group(1)
            open_ranges[(name, g if "Goroutine" in rest else -1)] = t
        elif kind == "RangeEnd":
            name = re.search(r'Name="([^"]*)"', rest).group(1)
            key = (name, g if "Goroutine" in rest else -1)
            if key in open_ranges:
                ranges.append((name, g, open_ranges.pop(key), t))
        elif kind == "StateTransition":
            m = re.search(r"GoID=(\d+) (\w+)->(\w+) Reason=\"([^\"]*)\"", rest)
            if m:
                states.setdefault(int(m.group(1)), []).append((t, m.group(3), m.group(4)))
    main_states = states.get(main_g, [])
    for i, r in enumerate(rows):
        if "t0_ns" not in r:
            continue
        t0, t1 = r["t0_ns"], r["t1_ns"]
        seen = r["name"].startswith(("repeat", "renamed"))
        if not show_all and not (seen and r["ms"] > 1.0):
            continue
        rd = [x for x in reads if t0 <= x <= t1]
        regs = [(typ, b, e) for g, typ, b, e in regions if g == main_g and overlap(b, e, t0, t1) > 0]
        parts = []
        if rd:
            parts.append(f"read +{(rd[0] - t0) / 1e3:.0f}")
        for typ, b, e in regs:
            parts.append(f"{typ.split('.')[-1]} {(b - t0) / 1e3:.0f}..{(e - t0) / 1e3:.0f}")
        # the main goroutine's states over the window
        by = {}
        prev_t, prev_s = None, None
        for t, s, why in main_states:
            if prev_t is not None:
                d = overlap(prev_t, t, t0, t1)
                if d:
                    by[prev_s] = by.get(prev_s, 0) + d
            prev_t, prev_s = t, s + ("(" + why + ")" if s == "Waiting" and why else "")
        if prev_t is not None and prev_t < t1:
            by[prev_s] = by.get(prev_s, 0) + overlap(prev_t, t1, t0, t1)
        st = ", ".join(f"{k} {v / 1e3:.0f}" for k, v in sorted(by.items(), key=lambda kv: -kv[1]) if v >= 20e3)
        gcs = [f"{n} {overlap(b, e, t0, t1) / 1e3:.0f}" for n, g, b, e in ranges if overlap(b, e, t0, t1) > 0]
        others = [f"{typ}@G{g} {overlap(b, e, t0, t1) / 1e3:.0f}" for g, typ, b, e in regions
                  if g != main_g and overlap(b, e, t0, t1) > 0]
        print(f"{i + 1:2} {r['name']:17} {r['ms']:7.3f} ms | {'; '.join(parts)} (µs from Enter)")
        print(f"{'':21} main G: {st or '-'} | GC/STW: {', '.join(gcs) or '-'} | others: {', '.join(others) or '-'}")
    # Background work over the session, for reading the above.
    print("regions of other goroutines (start ms after the first line, duration ms):")
    first = rows[0].get("t0_ns", 0)
    for g, typ, b, e in sorted(regions, key=lambda x: x[2]):
        if g != main_g:
            print(f"  G{g} {typ} at {(b - first) / 1e6:.1f} took {(e - b) / 1e6:.2f}")
    print("GC ranges:")
    for n, g, b, e in sorted(ranges, key=lambda x: x[2]):
        if "GC" in n or "stop-the-world" in n:
            print(f"  {n} at {(b - first) / 1e6:.2f} took {(e - b) / 1e3:.0f} µs")


if __name__ == "__main__":
    main()
