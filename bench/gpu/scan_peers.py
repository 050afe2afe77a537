"""Time PyTorch's versions of arepl's scan benchmark workloads on the same GPU
in the same run and print them beside arepl's figures (BenchmarkScan).

Usage: python3 scan_peers.py GO_BENCH_OUTPUT [log2n]

Every peer is timed with CUDA events around REPS calls after a warm-up, on
the data formula arepl generates (a hash of the index, i32 in [-32768,
32767]). Ratios are to arepl's device-to-device copy of the same run.
"""
import re
import sys

import torch

REPS = 10


def timed(fn, reps=REPS):
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps  # ms


def main():
    go_out = open(sys.argv[1]).read()
    log2n = int(sys.argv[2]) if len(sys.argv) > 2 else 28
    n = 1 << log2n
    ours = {}
    for line in go_out.splitlines():
        m = re.match(r"BenchmarkScan/(\S+?)(?:-\d+)?\s+\d+\s+(.*)", line)
        if not m:
            continue
        metrics = dict((u, float(v)) for v, u in re.findall(r"([\d.]+) (\S+)", m.group(2)))
        ours[m.group(1)] = metrics
    copy_ms = ours.get("copy_d2d_i32", {}).get("kernel-ms")
    dev = torch.device("cuda")
    i = torch.arange(n, device=dev, dtype=torch.int64)
    xi = (((i * 1103515245 + 12345) >> 8) & 0xFFFF).to(torch.int32) - 32768
    del i
    xl, xd = xi.to(torch.int64), xi.to(torch.float64)
    peers = {}
    peers["scan_i32"] = ("torch.cumsum(i32, dtype=i32)", timed(lambda: torch.cumsum(xi, 0, dtype=torch.int32)))
    peers["scan_i64"] = ("torch.cumsum(i64)", timed(lambda: torch.cumsum(xl, 0)))
    peers["scan_f64"] = ("torch.cumsum(f64)", timed(lambda: torch.cumsum(xd, 0)))
    peers["scanomap_i32"] = ("torch.cumsum(x*x%7+x) unfused", timed(lambda: torch.cumsum(xi * xi % 7 + xi, 0, dtype=torch.int32)))
    peers["filter_50pct_i32"] = ("x[x < 0]", timed(lambda: xi[xi < 0]))
    for l in [1, 2, 3, 4, 31, 32, 33, 1000, 1 << 20, 1 << 24]:
        rows = n // l
        m = xi[: rows * l].view(rows, l)
        peers["segscan_i32_len%d" % l] = ("torch.cumsum(rows, dim=1)", timed(lambda: torch.cumsum(m, 1, dtype=torch.int32)))
    peers["copy_d2d_i32"] = ("torch clone", timed(lambda: xi.clone()))
    print("| workload | arepl ms | arepl GB/s | x copy | peer | peer ms | peer x copy | arepl speed-up |")
    print("|---|---|---|---|---|---|---|---|")
    for name, m in ours.items():
        peer = peers.get(name)
        pname, pms = peer if peer else ("", None)
        pcopy = ""
        speed = ""
        if pms is not None:
            speed = "%.2fx" % (pms / m["kernel-ms"])
            if copy_ms and name in ("scan_i32", "copy_d2d_i32", "filter_50pct_i32", "scanomap_i32") or name.startswith("segscan"):
                pcopy = "%.4f" % (copy_ms / pms) if copy_ms else ""
        print("| %s | %.3f | %.0f | %.3f | %s | %s | %s | %s |" % (
            name, m.get("kernel-ms", 0), m.get("GB/s", 0), m.get("x-copy", 0), pname,
            "%.3f" % pms if pms is not None else "", pcopy, speed))


if __name__ == "__main__":
    main()
