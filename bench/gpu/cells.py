#!/usr/bin/env python3
"""Cell round trips through jupyter_client (issue 16): from sending an
execute_request to having both the kernel's idle status (iopub) and its
execute_reply (shell), for the measured lines (`!name code`) of a
latency.txt-format file; other lines run unmeasured. Prints one JSON object
per measured cell, then one summary object for the seen cells.

    python3 bench/gpu/cells.py --arepl ./arepl --inputs bench/gpu/latency.cells.txt \
        [--client interactive|sequential] [--gc on|off] [--passes N]

--client says how the client reads the answer:
  interactive  jupyter_client's execute_interactive (the default): iopub
               messages are handled as they arrive, while the kernel still
               works, then the reply is read; what a front end does (jupyter
               console, jupyter run, and a notebook server forwarding iopub
               as it comes).
  sequential   wait for the execute_reply (get_shell_msg), then read iopub
               up to idle with one get_iopub_msg call each (runs 3-8 of
               bench/RESULTS.md's "Interactive latency"): every message is
               parsed after the reply, one after the other.
--gc off disables Python's garbage collector while the cells run; a notebook
does not, so `on` is the figure and `off` says how much of the tail is the
client's collections.

A cell is "seen" unless its name starts with first- or new-; with --passes N
the seen cells run N-1 more times after the file, in its order, so that the
summary (median, p90, how many over 5 ms) rests on enough cells.

The kernel's own time comes from execute_reply's metadata (arepl.kernel_ms,
from the request's arrival to the reply, and arepl.stages_ms: jupyter/stages.go);
the rest of a round trip is the client's and the transport's.

It installs a kernelspec for --arepl in a temporary JUPYTER_PATH. On the GPU
machine, whose Python has no pyzmq, run it with the py311 that
bench/gpu/latency.pybundle.sh makes (Debian's python3.11 with jupyter_client);
jupyter/latency_test.go's TestCellLatency measures the same over the wire
protocol with the kernel in-process.
"""
import argparse
import gc
import json
import os
import statistics
import subprocess
import tempfile
import time


def seen(name):
    return not (name.startswith("first-") or name.startswith("new-"))


def read_cells(path):
    cells = []
    for raw in open(path):
        raw = raw.rstrip("\n")
        if not raw.strip() or raw.startswith("#"):
            continue
        name, code = None, raw
        if raw.startswith("!"):
            name, code = raw[1:].split(" ", 1)
        cells.append((name, code))
    return cells


def run_interactive(kc, code):
    """Returns (ms to idle and reply, ms to idle, iopub arrivals, reply)."""
    t0 = time.monotonic()
    iopub = []
    t_idle = [None]

    def hook(m):
        t = time.monotonic()
        iopub.append((m["msg_type"], round((t - t0) * 1e3, 3)))
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            t_idle[0] = t

    reply = kc.execute_interactive(code, timeout=600, output_hook=hook, allow_stdin=False)
    t_end = time.monotonic()
    return (t_end - t0) * 1e3, (t_idle[0] - t0) * 1e3, None, iopub, reply


def run_sequential(kc, code):
    t0 = time.monotonic()
    msg_id = kc.execute(code)
    reply = kc.get_shell_msg(timeout=600)
    t_reply = time.monotonic()
    iopub = []
    while True:
        m = kc.get_iopub_msg(timeout=600)
        iopub.append((m["msg_type"], round((time.monotonic() - t0) * 1e3, 3)))
        if (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                and m["content"]["execution_state"] == "idle"):
            break
    ms = (time.monotonic() - t0) * 1e3
    return ms, ms, (t_reply - t0) * 1e3, iopub, reply


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arepl", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds between the kernel's start and the first cell (a user does not type at once; "
                         "the kernel opens the GPU in the background meanwhile)")
    ap.add_argument("--client", choices=["interactive", "sequential"], default="interactive")
    ap.add_argument("--gc", choices=["on", "off"], default="on",
                    help="off: Python's garbage collector disabled while the cells run (to see whether the "
                         "client's collections make the tail)")
    ap.add_argument("--passes", type=int, default=3,
                    help="run the seen cells this many times in all (the first time in the file's order)")
    ap.add_argument("--target", type=float, default=5.0, help="ms; the summary counts the seen cells over it")
    ap.add_argument("--label", default="", help="a name for this run, in every row (one file can hold several runs)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    os.environ.update(JUPYTER_PATH=tmp + "/share/jupyter", JUPYTER_DATA_DIR=tmp + "/data",
                      JUPYTER_RUNTIME_DIR=tmp + "/runtime", JUPYTER_CONFIG_DIR=tmp + "/config")
    subprocess.run([os.path.abspath(a.arepl), "jupyter", "install", "--prefix", tmp, "--name", "arepl-latency"],
                   check=True, stdout=subprocess.DEVNULL)
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="arepl-latency")
    time.sleep(a.settle)
    cells = read_cells(a.inputs)
    plan = [(1, n, c) for n, c in cells]
    for p in range(2, a.passes + 1):
        plan += [(p, n, c) for n, c in cells if n and seen(n)]
    run = run_interactive if a.client == "interactive" else run_sequential
    rows = []
    if a.gc == "off":
        gc.collect()
        gc.disable()
    try:
        for p, name, code in plan:
            ms, idle_ms, reply_ms, iopub, reply = run(kc, code)
            if not name:
                continue
            arepl = reply.get("metadata", {}).get("arepl", {})
            row = {"name": name, "input": code, "pass": p, "ms": round(ms, 3), "idle_ms": round(idle_ms, 3),
                   "reply_ms": reply_ms and round(reply_ms, 3), "kernel_ms": arepl.get("kernel_ms"),
                   "stages_ms": arepl.get("stages_ms"), "iopub": iopub, "client": a.client, "gc": a.gc,
                   "label": a.label,
                   "status": reply["content"]["status"]}
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        gc.enable()
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    s = [r for r in rows if seen(r["name"])]
    if s:
        ms = [r["ms"] for r in s]
        kern = [r["kernel_ms"] for r in s if r["kernel_ms"] is not None]
        rest = [r["ms"] - r["kernel_ms"] for r in s if r["kernel_ms"] is not None]
        summary = {"summary": "seen cells", "label": a.label, "client": a.client, "gc": a.gc, "cells": len(s),
                   "median_ms": round(statistics.median(ms), 3), "p90_ms": round(quantile(ms, 0.9), 3),
                   "min_ms": round(min(ms), 3), "max_ms": round(max(ms), 3),
                   "over_target": sum(1 for x in ms if x > a.target), "target_ms": a.target}
        if kern:
            summary.update(kernel_median_ms=round(statistics.median(kern), 3),
                           kernel_p90_ms=round(quantile(kern, 0.9), 3),
                           rest_median_ms=round(statistics.median(rest), 3),
                           rest_p90_ms=round(quantile(rest, 0.9), 3))
        print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
