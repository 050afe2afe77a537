"""Executes notebooks with nbclient on the arepl kernel and writes them
executed, the way jupyter/testdata/check_notebooks.py --update writes them
(indent 1, the notebook's own kernelspec kept), for bench/gpu/notebooks.sh.

    run_notebooks.py KERNEL OUTDIR NOTEBOOK...

Each notebook is executed on its own; a failing one is reported and the
others still run. Exit status: the number of notebooks that failed.
"""
import json
import os
import signal
import sys
import time

import nbclient
import nbformat


def run(kernel, outdir, path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name=kernel, timeout=120,
                                     iopub_timeout=4, raise_on_iopub_timeout=True,
                                     resources={"metadata": {"path": os.path.dirname(path) or "."}})
    try:
        client.execute()
        err = None
    except Exception as e:  # CellExecutionError, timeouts, a dead kernel
        err = "%s: %s" % (type(e).__name__, str(e)[:2000])
    with open(path) as f:
        saved = json.load(f)
    got = json.loads(nbformat.writes(nb))
    got["metadata"]["kernelspec"] = saved["metadata"]["kernelspec"]
    out = os.path.join(outdir, os.path.basename(path))
    with open(out, "w") as f:
        json.dump(got, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return err


def stopped(signum, frame):
    raise TimeoutError("stopped by signal %d (notebooks.sh's time limit)" % signum)


def main(args):
    # timeout(1) sends SIGTERM (to the kernel too, which nbclient then
    # reports as dead): the notebook is still written, with the outputs of
    # the cells that ran, and notebooks.sh's log shows rc=124.
    signal.signal(signal.SIGTERM, stopped)
    kernel, outdir, paths = args[0], args[1], args[2:]
    os.makedirs(outdir, exist_ok=True)
    failed = 0
    for path in paths:
        t = time.time()
        err = run(kernel, outdir, path)
        print("%s: %s in %.1f s" % (path, "ok" if err is None else "FAILED", time.time() - t), flush=True)
        if err is not None:
            failed += 1
            print(err, file=sys.stderr, flush=True)
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
