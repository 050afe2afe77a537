"""Time arepl's GPU benchmark workloads in PyTorch, CuPy and JAX on the same
GPU, in the same run, and print them beside arepl's figures with ratios.

Usage: python3 peers.py GO_BENCH_OUTPUT [log2n]

GO_BENCH_OUTPUT is the output of the eval/gpu test binary run with
-test.bench GPU (BenchmarkGPU: kernel-ms and GB/s per workload). Every peer is
timed with CUDA events (torch.cuda.Event) around REPS calls after a warm-up,
on the same data formula arepl generates (a hash of the index).
"""
import re
import sys
import time

import numpy as np
import torch

REPS = 20


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


def block_jax(x):
    import jax
    return jax.block_until_ready(x)


def main():
    go_out = open(sys.argv[1]).read()
    log2n = int(sys.argv[2]) if len(sys.argv) > 2 else 28
    n = 1 << log2n
    ours = {}
    for m in re.finditer(r"BenchmarkGPU/(\S+?)(?:-\d+)?\s+\d+\s+.*?([\d.]+) GB/s\s+[\d.]+ Gelem/s\s+([\d.]+) kernel-ms", go_out):
        ours[m.group(1)] = (float(m.group(3)), float(m.group(2)))
    dev = torch.device("cuda")
    i = torch.arange(n, device=dev, dtype=torch.int64)
    xi = (((i * 1103515245 + 12345) >> 8) & 0xFFFF).to(torch.int32) - 32768
    xf = xi.to(torch.float32) / 8192
    del i
    peers = {}  # workload -> list of (name, ms, bytes)
    B4 = 4 * n

    def add(w, name, ms, nbytes):
        peers.setdefault(w, []).append((name, ms, nbytes))

    add("sum_i32", "torch.sum(i32) (int64 accumulator)", timed(lambda: xi.sum()), B4)
    add("sum_i32", "torch.sum(f32) (CUB stand-in)", timed(lambda: xf.sum()), B4)
    add("max_map_i32", "torch.max(x*2+1) eager", timed(lambda: (xi * 2 + 1).max()), B4)
    add("copy_d2d_i32", "torch copy_ (D2D)", None, 2 * B4)
    y = torch.empty_like(xi)
    peers["copy_d2d_i32"][-1] = ("torch copy_ (D2D)", timed(lambda: y.copy_(xi)), 2 * B4)
    del y

    def redomap_nt_torch():
        t = torch.exp(xf / (1 + xf.abs()))
        return t.sum(), t * 2
    add("redomap_nt_f32", "torch eager", timed(redomap_nt_torch), 2 * B4)

    def bs_torch():
        k = torch.arange(n, device=dev, dtype=torch.int64)
        s = 5 + (k % 1000).float() * 0.03
        x = 1 + (k % 997).float() * 0.1
        t = 0.25 + (k % 10).float() * 0.1
        r, v = 0.02, 0.30
        sq = torch.sqrt(t)
        d1 = (torch.log(s / x) + (r + 0.5 * v * v) * t) / (v * sq)
        d2 = d1 - v * sq

        def cnd(d):
            kk = 1 / (1 + 0.2316419 * d.abs())
            poly = 0.31938153 + kk * (-0.356563782 + kk * (1.781477937 + kk * (-1.821255978 + kk * 1.330274429)))
            c = 0.3989422804014327 * torch.exp(-d * d / 2) * kk * poly
            return torch.where(d > 0, 1 - c, c)
        return (s * cnd(d1) - x * torch.exp(-r * t) * cnd(d2)).sum()
    add("blackscholes_f32", "torch eager", timed(bs_torch, 5), 0)

    try:
        import cupy as cp
        ci = cp.asarray(xi)
        cf = cp.asarray(xf)
        def cupy_t(fn):
            fn(); cp.cuda.runtime.deviceSynchronize()
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            for _ in range(REPS):
                fn()
            e.record(); e.synchronize()
            return cp.cuda.get_elapsed_time(s, e) / REPS
        add("sum_i32", "cupy.sum(i32)", cupy_t(lambda: ci.sum()), B4)
        try:
            cp._core.set_reduction_accelerators(["cub"])
            add("sum_i32", "cupy.sum(i32) with CUB", cupy_t(lambda: ci.sum()), B4)
            add("sum_i32", "cupy.sum(f32) with CUB", cupy_t(lambda: cf.sum()), B4)
        except Exception as e:  # noqa: BLE001 - report and go on
            print("cupy CUB accelerator unavailable:", e)
        del ci, cf
    except Exception as e:  # noqa: BLE001
        print("cupy unavailable:", e)

    try:
        import jax
        import jax.numpy as jnp
        ji = jnp.asarray(np.asarray(xi.cpu()))
        jf = jnp.asarray(np.asarray(xf.cpu()))
        def jax_t(fn, x, reps=REPS):
            block_jax(fn(x))
            t0 = time.perf_counter()
            for _ in range(reps):
                r = fn(x)
            block_jax(r)
            return (time.perf_counter() - t0) * 1e3 / reps
        add("sum_i32", "jax.jit(jnp.sum)", jax_t(jax.jit(jnp.sum), ji), B4)
        add("max_map_i32", "jax.jit(max(x*2+1))", jax_t(jax.jit(lambda x: jnp.max(x * 2 + 1)), ji), B4)
        add("redomap_nt_f32", "jax.jit", jax_t(jax.jit(lambda x: (lambda t: (t.sum(), t * 2))(jnp.exp(x / (1 + jnp.abs(x))))), jf), 2 * B4)
    except Exception as e:  # noqa: BLE001
        print("jax unavailable:", e)

    print()
    print(f"device: {torch.cuda.get_device_name()}  n = 2^{log2n} = {n}")
    print(f"{'workload':20} {'implementation':40} {'ms':>9} {'GB/s':>8} {'arepl speedup':>14}")
    for w in ["sum_i32", "max_map_i32", "mssp_i32", "blackscholes_f32", "redomap_nt_f32", "copy_d2d_i32"]:
        o = ours.get(w)
        if o:
            print(f"{w:20} {'arepl':40} {o[0]:9.3f} {o[1]:8.0f}")
        for name, ms, nb in peers.get(w, []):
            gbs = f"{nb / ms / 1e6:8.0f}" if nb else f"{'-':>8}"
            ratio = f"{ms / o[0]:13.2f}x" if o else ""
            print(f"{w:20} {name:40} {ms:9.3f} {gbs} {ratio}")
    if "mssp_i32" in ours and "copy_d2d_i32" in peers:
        read_bw = ours["mssp_i32"][1]
        copy_bw = 2 * B4 / peers["copy_d2d_i32"][0][1] / 1e6
        print(f"MSSP read bandwidth {read_bw:.0f} GB/s = {read_bw / copy_bw:.2f} of the D2D copy's {copy_bw:.0f} GB/s")


if __name__ == "__main__":
    main()
