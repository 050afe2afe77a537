#!/usr/bin/env python3
"""Interactive latency of the arepl REPL (issue 16), measured as a user feels it.

Drives `arepl` through a pipe with `:time on` over a fixed list of inputs
(bench/gpu/latency.txt) and, for each, measures the wall time from writing
the line (Enter) to reading its `time:` line (the answer, printed value
included), beside the REPL's own timing line. Writes one JSON object per
input to --out and a table to stdout.

    python3 bench/gpu/latency.py --arepl ./arepl --inputs bench/gpu/latency.txt \
        --out latency.jsonl [-- REPL FLAGS...]

Lines of the input file: `# comment`, `!name text` (an input whose result is
recorded under name; `text` is sent as one REPL line), `@sleep SECONDS` (a
pause, as a user's, during which background work such as the optimised
compiles of tiered compilation finishes), or a plain REPL command sent without
waiting for a `time:` line (`:time on`, `:backend gpu`). The
name says what the figure is for ("repeat", "renamed", ...), so that
RESULTS.md can set each beside its target.
"""
import argparse
import json
import os
import select
import subprocess
import sys
import time


def read_until_time(p, timeout):
    """Reads the REPL's stdout up to and including a line starting `time:`;
    returns (lines, the time line, seconds waited)."""
    lines, buf = [], b""
    fd = p.stdout.fileno()
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no time: line; got %r" % lines[-5:])
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            raise EOFError("arepl exited; got %r" % lines[-5:])
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            s = line.decode(errors="replace")
            lines.append(s)
            if s.startswith("time:"):
                return lines, s, time.monotonic()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arepl", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds between starting arepl and the first input (a user does not type at once; "
                         "the REPL opens the GPU in the background meanwhile)")
    ap.add_argument("flags", nargs="*")
    a = ap.parse_args()
    p = subprocess.Popen([a.arepl] + a.flags, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, bufsize=0)
    rows = []
    time.sleep(a.settle)
    with open(a.inputs) as f, open(a.out, "w") as out:
        for raw in f:
            raw = raw.rstrip("\n")
            if not raw.strip() or raw.startswith("#"):
                continue
            if raw.startswith("@sleep "):
                time.sleep(float(raw.split()[1]))
                continue
            if not raw.startswith("!"):
                p.stdin.write((raw + "\n").encode())
                continue
            name, text = raw[1:].split(" ", 1)
            t0 = time.monotonic()
            t0_ns = time.monotonic_ns()  # CLOCK_MONOTONIC, as a Go execution trace's times
            p.stdin.write((text + "\n").encode())
            lines, tline, t1 = read_until_time(p, a.timeout)
            row = {"name": name, "input": text, "ms": (t1 - t0) * 1e3, "time_line": tline,
                   "t0_ns": t0_ns, "t1_ns": t0_ns + int((t1 - t0) * 1e9),
                   "output": [l for l in lines if not l.startswith("time:")][-3:]}
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print("%-14s %9.3f ms  %s\n%14s %s" % (name, row["ms"], text[:70], "", tline[:200]), flush=True)
    p.stdin.close()
    p.wait(timeout=60)


if __name__ == "__main__":
    main()
