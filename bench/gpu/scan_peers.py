"""Time PyTorch's versions of arepl's scan benchmark workloads on the same GPU
in the same run and print them beside arepl's figures (BenchmarkScan).

Usage: python3 scan_peers.py GO_BENCH_OUTPUT [log2n]

Every peer is timed with CUDA events around REPS calls after a warm-up, on
the data formula arepl generates (a hash of the index, i32 in [-32768,
32767]). Ratios are to arepl's device-to-device copy of the same run.
"""
import os
import re
import sys

os.environ.setdefault("CUPY_ACCELERATORS", "cub")

import torch  # noqa: E402

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
    xb, xh = xi.to(torch.uint8), xi.to(torch.int16)  # arepl's u8 / i16 inputs: the same values converted
    peers = {}

    def add(name, label, fn):
        try:
            peers.setdefault(name, []).append((label, fn()))
        except Exception as e:  # one library failing must not hide the others
            print("%s: %s failed: %s" % (name, label, e), file=sys.stderr)

    add("scan_i32", "torch.cumsum(i32, dtype=i32)", lambda: timed(lambda: torch.cumsum(xi, 0, dtype=torch.int32)))
    add("scan_i64", "torch.cumsum(i64)", lambda: timed(lambda: torch.cumsum(xl, 0)))
    add("scan_f64", "torch.cumsum(f64)", lambda: timed(lambda: torch.cumsum(xd, 0)))
    add("scan_u8", "torch.cumsum(u8, dtype=u8)", lambda: timed(lambda: torch.cumsum(xb, 0, dtype=torch.uint8)))
    add("scan_i16", "torch.cumsum(i16, dtype=i16)", lambda: timed(lambda: torch.cumsum(xh, 0, dtype=torch.int16)))
    add("scanomap_i32", "torch.cumsum(x*x%7+x) unfused", lambda: timed(lambda: torch.cumsum(xi * xi % 7 + xi, 0, dtype=torch.int32)))
    add("filter_50pct_i32", "torch x[x < 0]", lambda: timed(lambda: xi[xi < 0]))
    for l in [1, 2, 3, 4, 31, 32, 33, 1000, 1 << 20, 1 << 24]:
        rows = n // l
        m = xi[: rows * l].view(rows, l)
        add("segscan_i32_len%d" % l, "torch.cumsum(rows, dim=1)", lambda: timed(lambda: torch.cumsum(m, 1, dtype=torch.int32)))
    add("copy_d2d_i32", "torch clone", lambda: timed(lambda: xi.clone()))

    # CuPy with CUB (CUPY_ACCELERATORS=cub is set before the import).
    try:
        import cupy

        def ctimed(fn):
            return timed(lambda: (fn(), None)[1])

        ci, cl, cd = cupy.from_dlpack(xi), cupy.from_dlpack(xl), cupy.from_dlpack(xd)
        add("scan_i32", "cupy.cumsum(i32) (CUB)", lambda: ctimed(lambda: cupy.cumsum(ci, dtype=cupy.int32)))
        add("scan_i64", "cupy.cumsum(i64) (CUB)", lambda: ctimed(lambda: cupy.cumsum(cl)))
        add("scan_f64", "cupy.cumsum(f64) (CUB)", lambda: ctimed(lambda: cupy.cumsum(cd)))
        cb, ch = cupy.from_dlpack(xb), cupy.from_dlpack(xh)
        add("scan_u8", "cupy.cumsum(u8) (CUB)", lambda: ctimed(lambda: cupy.cumsum(cb, dtype=cupy.uint8)))
        add("scan_i16", "cupy.cumsum(i16) (CUB)", lambda: ctimed(lambda: cupy.cumsum(ch, dtype=cupy.int16)))
        add("scanomap_i32", "cupy.cumsum(x*x%7+x) unfused", lambda: ctimed(lambda: cupy.cumsum(ci * ci % 7 + ci, dtype=cupy.int32)))
        add("filter_50pct_i32", "cupy x[x < 0]", lambda: ctimed(lambda: ci[ci < 0]))
    except Exception as e:
        print("cupy: %s" % e, file=sys.stderr)

    # JAX jit, timed by wall clock around REPS calls after block_until_ready.
    try:
        import time

        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)

        def jtimed(f, x):
            f(x).block_until_ready()
            t = time.perf_counter()
            for _ in range(REPS):
                r = f(x)
            r.block_until_ready()
            return (time.perf_counter() - t) * 1e3 / REPS

        ji = jnp.asarray(xi.cpu().numpy())
        jl, jd = ji.astype(jnp.int64), ji.astype(jnp.float64)
        add("scan_i32", "jax.jit(jnp.cumsum(i32))", lambda: jtimed(jax.jit(lambda x: jnp.cumsum(x, dtype=jnp.int32)), ji))
        add("scan_i64", "jax.jit(jnp.cumsum(i64))", lambda: jtimed(jax.jit(jnp.cumsum), jl))
        add("scan_f64", "jax.jit(jnp.cumsum(f64))", lambda: jtimed(jax.jit(jnp.cumsum), jd))
        add("scanomap_i32", "jax.jit(cumsum(x*x%7+x))", lambda: jtimed(jax.jit(lambda x: jnp.cumsum(x * x % 7 + x, dtype=jnp.int32)), ji))
    except Exception as e:
        print("jax: %s" % e, file=sys.stderr)

    print("| workload | arepl ms | arepl GB/s | x copy | peer | peer ms | peer x copy | arepl speed-up |")
    print("|---|---|---|---|---|---|---|---|")
    for name, m in ours.items():
        rows = peers.get(name) or [("", None)]
        for k, (pname, pms) in enumerate(rows):
            pcopy, speed = "", ""
            if pms is not None:
                speed = "%.2fx" % (pms / m["kernel-ms"])
                # The peer's copy ratio: arepl's x-copy scaled by the time ratio (same bytes).
                pcopy = "%.3f" % (m.get("x-copy", 0) * m["kernel-ms"] / pms)
            lead = ("| %s | %.3f | %.0f | %.3f " % (name, m.get("kernel-ms", 0), m.get("GB/s", 0), m.get("x-copy", 0))
                    if k == 0 else "| | | | ")
            print(lead + "| %s | %s | %s | %s |" % (pname, "%.3f" % pms if pms is not None else "", pcopy, speed))


if __name__ == "__main__":
    main()
