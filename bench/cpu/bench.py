"""Helpers of bench/cpu/run.sh, run with Debian's /usr/bin/python3.

  bench.py numpy N RUNS KERNEL...   time the kernels in numpy; print JSON
  bench.py table DIR PROGRAMS N     print the markdown table from DIR's JSON

Inputs match `arepl bench --size N`: int32 in [0, 1000), float32 in [0, 1).
Each kernel is the numpy way to compute what the row's Futhark program
computes; Reduce2x2MM has no vectorised numpy form (its operator is a
non-commutative 2x2 matrix product) and is left out of the numpy column.
"""

import json
import os
import sys
import time

A, B = 0.5, 0.25  # the scalar arguments of RedomapNT, as in goloops


def kernels(np, n):
    rng = np.random.default_rng(1)
    xs = rng.integers(0, 1000, n, dtype=np.int32)
    s, k, t = (rng.random(n, dtype=np.float32) for _ in range(3))
    f = np.float32

    def mssp():
        # With prefix sums P (P[0] = 0), the best segment ending before j
        # sums to P[j] - min(P[:j+1]); int64 so the sums do not wrap.
        p = np.concatenate(([0], np.cumsum(xs, dtype=np.int64)))
        return np.max(p - np.minimum.accumulate(p))

    def cnd(x):
        a1, a2, a3, a4, a5 = (f(0.31938153), f(-0.356563782), f(1.781477937),
                              f(-1.821255978), f(1.330274429))
        kk = f(1) / (f(1) + f(0.2316419) * np.abs(x))
        w = f(1) - f(1 / np.sqrt(2 * np.pi)) * np.exp(-x * x / f(2)) * kk * (
            a1 + kk * (a2 + kk * (a3 + kk * (a4 + kk * a5))))
        return np.where(x < 0, f(1) - w, w)

    def blackscholes():
        r, v = f(0.02), f(0.30)
        sq = v * np.sqrt(t)
        d1 = (np.log(s / k) + (r + v * v / f(2)) * t) / sq
        d2 = d1 - sq
        return np.sum(s * cnd(d1) - k * np.exp(-r * t) * cnd(d2), dtype=np.float32)

    def redomap_nt():
        x = s / f(A) + f(1)
        y = np.exp(x * f(B)) / (f(1) + x * x)
        t0 = np.sum(x / (f(1) + y), dtype=np.float32)
        return t0, np.min(x), np.max(y), x * f(A), np.sqrt(y) * f(B)

    return {
        "sum_i32": lambda: np.add.reduce(xs, dtype=np.int32),
        "max_i32": lambda: np.max(xs),
        "argmax_i32": lambda: np.argmax(xs),
        "mssp_i32": mssp,
        "scan_i32": lambda: np.cumsum(xs, dtype=np.int32),
        "scan_map_i32": lambda: np.cumsum(xs * np.int32(2) + np.int32(1), dtype=np.int32),
        "reduce_map_i32": lambda: np.add.reduce(xs * np.int32(2) + np.int32(1), dtype=np.int32),
        "blackscholes": blackscholes,
        "redomap_nt": redomap_nt,
    }


def time_numpy(n, runs, names):
    import numpy as np
    table = kernels(np, n)
    out = {}
    for name in names:
        if name not in table or name in out:
            continue
        f = table[name]
        f()
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            f()
            times.append(time.perf_counter() - start)
        out[name] = {"mean_s": sum(times) / len(times), "min_s": min(times)}
    json.dump(out, sys.stdout)
    print()


def load(path):
    try:
        with open(path) as f:
            r = json.load(f)
    except (OSError, ValueError):
        return None
    # `arepl bench --json` prints a list of reports (one per dataset).
    return r[0] if isinstance(r, list) and r else r


def ms(r):
    return "%.3g" % (r["mean_s"] * 1e3) if r else "–"


def ratio(a, b):
    return "%.3g×" % (a["mean_s"] / b["mean_s"]) if a and b else "–"


def table(d, programs, n):
    numpy = load(os.path.join(d, "numpy.json")) or {}
    go = load(os.path.join(d, "go.json")) or {}
    print("CPU benchmark, %s elements, mean ms per run (lower is better); %s." % (
        "{:,}".format(int(n)), open(os.path.join(d, "machine.txt")).read().strip()))
    print()
    print("| program | arepl fused | arepl unfused | arepl fused, 1 thread | numpy | Go, 1 thread "
          "| Go, all threads | fused / numpy | unfused / fused | 1 thread: arepl / Go |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, row in enumerate(programs):
        name, kernel = row[0], row[3]
        fused = load(os.path.join(d, "fused-%d.json" % i))
        unfused = load(os.path.join(d, "unfused-%d.json" % i))
        fused1 = load(os.path.join(d, "fused1-%d.json" % i))
        npr = numpy.get(kernel)
        g = go.get(kernel, {})
        print("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, ms(fused), ms(unfused), ms(fused1), ms(npr), ms(g.get("single")), ms(g.get("multi")),
            ratio(fused, npr), ratio(unfused, fused), ratio(fused1, g.get("single"))))
    print()
    print("– : not measured (the program failed or has no numpy form); errors are in the log above the table.")


def read_programs(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append(line.rstrip("\n").split("\t"))
    return rows


if __name__ == "__main__":
    if sys.argv[1] == "numpy":
        time_numpy(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    elif sys.argv[1] == "table":
        table(sys.argv[2], read_programs(sys.argv[3]), sys.argv[4])
    else:
        sys.exit("usage: bench.py numpy N RUNS KERNEL... | bench.py table DIR PROGRAMS N")
