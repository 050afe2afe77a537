#!/usr/bin/env python3
"""Cell round trips through jupyter_client (issue 16): from kc.execute to
the kernel's idle status on iopub, for the measured lines (`!name code`) of
a latency.txt-format file; other lines run unmeasured. Prints one JSON
object per measured cell.

    python3 bench/gpu/cells.py --arepl ./arepl --inputs bench/gpu/latency.txt

It installs a kernelspec for --arepl in a temporary JUPYTER_PATH. On the GPU
machine, whose Python has no pyzmq, run it with the py311 that
bench/gpu/latency.pybundle.sh makes (Debian's python3.11 with jupyter_client);
jupyter/latency_test.go's TestCellLatency measures the same over the wire
protocol with the kernel in-process.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arepl", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds between the kernel's start and the first cell (a user does not type at once; "
                         "the kernel opens the GPU in the background meanwhile)")
    ap.add_argument("--gc", choices=["on", "off"], default="on",
                    help="off: Python's garbage collector disabled while the cells run (to see whether the "
                         "client's collections make the tail)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    os.environ.update(JUPYTER_PATH=tmp + "/share/jupyter", JUPYTER_DATA_DIR=tmp + "/data",
                      JUPYTER_RUNTIME_DIR=tmp + "/runtime", JUPYTER_CONFIG_DIR=tmp + "/config")
    subprocess.run([os.path.abspath(a.arepl), "jupyter", "install", "--prefix", tmp, "--name", "arepl-latency"],
                   check=True, stdout=subprocess.DEVNULL)
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="arepl-latency")
    time.sleep(a.settle)
    if a.gc == "off":
        import gc
        gc.collect()
        gc.disable()
    try:
        for raw in open(a.inputs):
            raw = raw.rstrip("\n")
            if not raw.strip() or raw.startswith("#"):
                continue
            name, code = None, raw
            if raw.startswith("!"):
                name, code = raw[1:].split(" ", 1)
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
            if name:
                # kernel_ms: the kernel's own time from the request to its
                # reply (execute_reply's metadata); the rest of ms is the
                # client's and the transport's.
                kernel_ms = reply.get("metadata", {}).get("arepl", {}).get("kernel_ms")
                print(json.dumps({"name": name, "input": code, "ms": ms, "reply_ms": (t_reply - t0) * 1e3,
                                  "kernel_ms": kernel_ms, "iopub": iopub, "gc": a.gc,
                                  "status": reply["content"]["status"]}), flush=True)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
