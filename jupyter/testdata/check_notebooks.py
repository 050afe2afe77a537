"""Executes notebooks with `jupyter nbconvert --execute` on the arepl
kernel and checks their outputs against the outputs saved in them.

    check_notebooks.py [--update] NOTEBOOK...

Every code cell must run without error (unless tagged raises-exception),
and each saved output must come back: same output type, same text/plain
(timings, outputs that start with "time:" and their tables, and the
line that says what `:backend` auto chose only need to be there again; the numbers of the
fusion engine's temporaries in plans may differ; charts and traces may say
they ran on another backend, as the notebooks are committed with a GPU
run's outputs and CI runs them on the CPU), and an HTML table or SVG again
where one was saved. --update executes the
notebooks and writes the new outputs into them instead, like -update for
golden files.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

KERNEL = os.environ.get("AREPL_KERNEL", "arepl")
# Timings (a "time:" line and its table of kernels, the whole output)
# only need to be there again.
TIMING = re.compile(r"^time: ")
# What "auto" chose depends on the machine: the line, wherever it is in
# an output, is compared by its prefix alone.
AUTO = re.compile(r"^backend auto: .*$", re.MULTILINE)
# Charts (:sweep) and traces (:trace) end their text with the backend
# that ran them.
BACKEND = re.compile(r" on (cpu|gpu)>$", re.MULTILINE)
# The fusion engine names its temporaries (map_4, red_11, n_6); plans are
# compared with those numbers masked, so renumbering is not a difference.
TEMPORARY = re.compile(r"\b([A-Za-z]+)_\d+\b")


def normal(s):
    s = AUTO.sub("backend auto: ...", s)
    s = BACKEND.sub(" on BACKEND>", s)
    return TEMPORARY.sub(r"\1_#", s)


def execute(path, out):
    subprocess.run(
        ["/usr/bin/jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--ExecutePreprocessor.kernel_name=" + KERNEL,
         "--ExecutePreprocessor.timeout=120",
         "--ExecutePreprocessor.iopub_timeout=4",
         "--ExecutePreprocessor.raise_on_iopub_timeout=True",
         "--output", out, path],
        check=True)


def text(o):
    if o["output_type"] == "stream":
        return "".join(o["text"])
    if o["output_type"] == "error":
        return o["ename"] + ": " + o["evalue"]
    return "".join(o.get("data", {}).get("text/plain", ""))


def html(o):
    return "".join(o.get("data", {}).get("text/html", ""))


def svg(o):
    return "".join(o.get("data", {}).get("image/svg+xml", ""))


def compare(name, saved, got):
    problems = []
    cells = [c for c in saved["cells"] if c["cell_type"] == "code"]
    new = [c for c in got["cells"] if c["cell_type"] == "code"]
    if len(cells) != len(new):
        return ["%s: %d code cells, executed %d" % (name, len(cells), len(new))]
    for i, (a, b) in enumerate(zip(cells, new)):
        where = "%s: code cell %d (%s)" % (name, i + 1, "".join(a["source"]).split("\n")[0])
        allowed = "raises-exception" in a.get("metadata", {}).get("tags", [])
        if not allowed and any(o["output_type"] == "error" for o in b["outputs"]):
            problems.append("%s: error %s" % (where, [text(o) for o in b["outputs"] if o["output_type"] == "error"]))
        if len(a["outputs"]) != len(b["outputs"]):
            problems.append("%s: %d outputs, saved %d: %s" % (where, len(b["outputs"]), len(a["outputs"]),
                                                              [text(o)[:80] for o in b["outputs"]]))
            continue
        for oa, ob in zip(a["outputs"], b["outputs"]):
            if oa["output_type"] != ob["output_type"]:
                problems.append("%s: output %s, saved %s" % (where, ob["output_type"], oa["output_type"]))
                continue
            ta, tb = text(oa), text(ob)
            if TIMING.match(ta):
                if not TIMING.match(tb):
                    problems.append("%s: want a timing, got %r" % (where, tb[:200]))
            elif normal(ta) != normal(tb):
                problems.append("%s: got\n%s\nsaved\n%s" % (where, tb, ta))
            for kind, f in (("HTML", html), ("SVG", svg)):
                if f(oa) and not f(ob):
                    problems.append("%s: no %s output" % (where, kind))
    return problems


def main(args):
    update = "--update" in args
    paths = [a for a in args if a != "--update"]
    problems = []
    for path in paths:
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out.ipynb")
            execute(path, out)
            with open(out) as f:
                got = json.load(f)
        if update:
            with open(path) as f:
                saved = json.load(f)
            # Keep the notebook's own kernelspec, not the test's.
            got["metadata"]["kernelspec"] = saved["metadata"]["kernelspec"]
            with open(path, "w") as f:
                json.dump(got, f, indent=1, ensure_ascii=False)
                f.write("\n")
            print("updated", path)
            continue
        with open(path) as f:
            saved = json.load(f)
        p = compare(path, saved, got)
        problems += p
        print("%s: %s" % (path, "ok" if not p else "%d problems" % len(p)))
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
