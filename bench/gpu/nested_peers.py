"""Time PyTorch's and JAX's versions of issue 15's nested workloads on the
same GPU in the same run, and print them beside arepl's figures
(BenchmarkNested in eval/gpu) and a hand-written CUDA Mandelbrot.

Usage: python3 nested_peers.py GO_BENCH_OUTPUT [MANDEL_OUTPUT [EXTRA_PEERS]]

PEER_SECTIONS (comma-separated: bw, seg, mandel, matmul, nbody, stencil;
default all) picks the peers to time; EXTRA_PEERS is the output of another
run of this script (its "peer ..." lines join the table): nested.sh times
the JAX n-body on its own under a time limit, as XLA once took minutes to
compile it.

Every peer is timed with CUDA events (torch) or by blocking on the result
(JAX, after a compiling call) around REPS calls, on the data formula arepl
generates (a hash of the index, divided by 8192 as f32). One workload or
library failing prints its error and the others go on; each line is printed
as it completes, and a table of everything comes last. Ratios are peer time
over arepl time (above 1: arepl is faster) and, for memory-bound rows,
arepl's bandwidth over the device-to-device copy's.
"""
import os
import re
import sys
import time
import traceback

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

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


def jax_timed(fn, *args, reps=REPS):
    import jax
    jax.block_until_ready(fn(*args))
    t0 = time.perf_counter()
    for _ in range(reps):
        r = fn(*args)
    jax.block_until_ready(r)
    return (time.perf_counter() - t0) * 1e3 / reps


def parse_go(text):
    ours, skipped = {}, {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"BenchmarkNested/(\S+?)(?:-\d+)?\s+\d+\s+(.*)", line)
        if m:
            ours[m.group(1)] = dict((u, float(v)) for v, u in re.findall(r"([\d.e+-]+) (\S+)", m.group(2)))
            continue
        m = re.match(r"\s*--- (SKIP|FAIL): BenchmarkNested/(\S+)", line)
        if m:
            why = lines[i + 1].strip() if i + 1 < len(lines) else ""
            why = re.sub(r"^\S+_test\.go:\d+: ", "", why)
            skipped[m.group(2)] = ("CPU: " if "cpu-statements" in why else "failed: ") + why.replace("cpu-statements: ", "")
    return ours, skipped


def main():
    ours, skipped = parse_go(open(sys.argv[1]).read()) if os.path.exists(sys.argv[1]) else ({}, {})
    sections = set(os.environ.get("PEER_SECTIONS", "bw,seg,mandel,matmul,nbody,stencil").split(","))
    mandel = None
    if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
        m = re.search(r"mandel_cuda_\d+ ([\d.]+) ms", open(sys.argv[2]).read())
        if m:
            mandel = float(m.group(1))
    dev = torch.device("cuda")
    peers = {}  # workload -> [(impl, ms)]
    if len(sys.argv) > 3 and os.path.exists(sys.argv[3]):
        for line in open(sys.argv[3]):
            m = re.match(r"peer (\S+)\s+(.*?)\s+([\d.]+) ms$", line.strip())
            if m:
                peers.setdefault(m.group(1), []).append((m.group(2), float(m.group(3))))

    def add(w, impl, fn):
        try:
            ms = fn()
            peers.setdefault(w, []).append((impl, ms))
            print("peer %-22s %-44s %10.4f ms" % (w, impl, ms), flush=True)
        except Exception as e:  # noqa: BLE001 - one failure must not hide the rest
            print("peer %-22s %-44s failed: %s" % (w, impl, str(e).splitlines()[0] if str(e) else type(e).__name__), flush=True)

    def gen(n):
        i = torch.arange(n, device=dev, dtype=torch.int64)
        x = ((((i * 1103515245 + 12345) >> 8) & 0xFFFF).to(torch.int32) - 32768).to(torch.float32) / 8192
        return x

    try:
        import jax
        import jax.numpy as jnp
        from jax import lax
        have_jax = True
    except Exception as e:  # noqa: BLE001
        print("jax unavailable:", e)
        have_jax = False

    def tojax(t):
        return jax.dlpack.from_dlpack(t.contiguous()) if hasattr(jax, "dlpack") else jnp.asarray(t.cpu().numpy())

    N = 16384
    a = gen(N * N).view(N, N) if "bw" in sections else None
    if a is not None:
        add("copy_d2d_16384sq", "torch clone", lambda: timed(lambda: a.clone()))
        add("map2d_16384", "torch a*2+1", lambda: timed(lambda: a * 2 + 1))
        add("rowsums_16384", "torch.sum(a, 1)", lambda: timed(lambda: torch.sum(a, 1)))
        add("colsums_16384", "torch.sum(a, 0)", lambda: timed(lambda: torch.sum(a, 0)))
        add("colsums_iota_16384", "torch.sum(a, 0)", lambda: timed(lambda: torch.sum(a, 0)))
        add("sum_flat_16384sq", "torch.sum(a)", lambda: timed(lambda: torch.sum(a)))
    if have_jax and a is not None:
        try:
            ja = tojax(a)
            add("map2d_16384", "jax.jit(a*2+1)", lambda: jax_timed(jax.jit(lambda x: x * 2 + 1), ja))
            add("rowsums_16384", "jax.jit(jnp.sum(a, 1))", lambda: jax_timed(jax.jit(lambda x: jnp.sum(x, 1)), ja))
            add("colsums_16384", "jax.jit(jnp.sum(a, 0))", lambda: jax_timed(jax.jit(lambda x: jnp.sum(x, 0)), ja))
            del ja
        except Exception as e:  # noqa: BLE001
            print("jax 16384:", e)
    del a
    torch.cuda.empty_cache()

    # Segmented reduction with a map body: rows of length L over 2^28.
    x = gen(1 << 28) if "seg" in sections else None
    for l in [1, 4, 32, 256, 4096, 1 << 16, 1 << 20, 1 << 24] if x is not None else []:
        m = x.view((1 << 28) // l, l)
        add("segsq_len%d" % l, "torch.sum(m*m, 1)", lambda: timed(lambda: torch.sum(m * m, 1)))
        if have_jax and l in (1, 32, 4096, 1 << 20):
            try:
                jm = tojax(m)
                add("segsq_len%d" % l, "jax.jit(jnp.sum(m*m, 1))", lambda: jax_timed(jax.jit(lambda v: jnp.sum(v * v, 1)), jm))
                del jm
            except Exception as e:  # noqa: BLE001
                print("jax segsq:", e)
    x = m = None
    torch.cuda.empty_cache()

    # Mandelbrot 4000 x 4000, 255 iterations.
    H = W = 4000 if "mandel" in sections else 8
    if mandel is not None:
        peers.setdefault("mandelbrot_4000", []).append(("CUDA kernel (bench/gpu/mandel.cu)", mandel))
        print("peer %-22s %-44s %10.4f ms" % ("mandelbrot_4000", "CUDA kernel (bench/gpu/mandel.cu)", mandel), flush=True)
    ys = torch.arange(H, device=dev, dtype=torch.float32)[:, None].expand(H, W)
    xs = torch.arange(W, device=dev, dtype=torch.float32)[None, :].expand(H, W)
    cr, ci = xs * 3 / W - 2, ys * 2.4 / H - 1.2

    def mandel_torch():
        zr, zi = torch.zeros_like(cr), torch.zeros_like(ci)
        k = torch.zeros(H, W, device=dev, dtype=torch.int32)
        for _ in range(255):
            live = zr * zr + zi * zi < 4
            zr, zi = torch.where(live, zr * zr - zi * zi + cr, zr), torch.where(live, 2 * zr * zi + ci, zi)
            k += live
        return k
    if "mandel" in sections:
        add("mandelbrot_4000", "torch eager (masked, 255 steps)", lambda: timed(mandel_torch, 2))
    if have_jax and "mandel" in sections:
        def mandel_jax(cr, ci):
            def cond(s):
                zr, zi, k, i = s
                return jnp.logical_and(i < 255, jnp.any(zr * zr + zi * zi < 4))

            def body(s):
                zr, zi, k, i = s
                live = zr * zr + zi * zi < 4
                return (jnp.where(live, zr * zr - zi * zi + cr, zr), jnp.where(live, 2 * zr * zi + ci, zi),
                        k + live.astype(jnp.int32), i + 1)
            z = jnp.zeros_like(cr)
            return lax.while_loop(cond, body, (z, z, jnp.zeros(cr.shape, jnp.int32), 0))[2]
        try:
            jcr, jci = tojax(cr), tojax(ci)
            add("mandelbrot_4000", "jax.jit (masked while_loop)", lambda: jax_timed(jax.jit(mandel_jax), jcr, jci, reps=3))
            del jcr, jci
        except Exception as e:  # noqa: BLE001
            print("jax mandelbrot:", e)
    del ys, xs, cr, ci
    torch.cuda.empty_cache()

    # Matrix products, f32, no TF32.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    for n in [1024, 4096] if "matmul" in sections else []:
        A, B = gen(n * n).view(n, n), gen(n * n + 7)[7:].clone().view(n, n)
        add("matmul_f32_%d" % n, "torch.matmul (TF32 off: cuBLAS SGEMM)", lambda: timed(lambda: torch.matmul(A, B)))
        if have_jax:
            try:
                jA, jB = tojax(A), tojax(B)
                add("matmul_f32_%d" % n, "jax.jit(jnp.matmul, precision=HIGHEST)",
                    lambda: jax_timed(jax.jit(lambda x, y: jnp.matmul(x, y, precision=lax.Precision.HIGHEST)), jA, jB))
            except Exception as e:  # noqa: BLE001
                print("jax matmul:", e)

    # n-body at 65536 bodies.
    # n-body at 65536 bodies, by blocks of 2048 rows (lax.map), so that no
    # 65536^2 intermediate is needed.
    nb = 65536
    if have_jax and "nbody" in sections:
        try:
            jx, jy, jz, jm = (tojax(gen(nb * (k + 2))[-nb:].clone()) for k in range(4))

            def nbody1(xs, ms):
                def rows(xb):
                    return jnp.sum(ms[None, :] / (1 + (xb[:, None] - xs[None, :]) ** 2), axis=1)
                return lax.map(rows, xs.reshape(-1, 2048)).reshape(-1)

            def nbody3(xs, ys, zs, ms):
                def rows(b):
                    xb, yb, zb = b
                    dx, dy, dz = xs[None, :] - xb[:, None], ys[None, :] - yb[:, None], zs[None, :] - zb[:, None]
                    inv = 1 / jnp.sqrt(dx * dx + dy * dy + dz * dz + 0.01)
                    s = ms[None, :] * inv * inv * inv
                    return jnp.sum(dx * s, 1), jnp.sum(dy * s, 1), jnp.sum(dz * s, 1)
                r = lax.map(rows, (xs.reshape(-1, 2048), ys.reshape(-1, 2048), zs.reshape(-1, 2048)))
                return tuple(c.reshape(-1) for c in r)
            add("nbody1_65536", "jax.jit", lambda: jax_timed(jax.jit(nbody1), jx, jm, reps=5))
            add("nbody3_65536", "jax.jit", lambda: jax_timed(jax.jit(nbody3), jx, jy, jz, jm, reps=5))
        except Exception as e:  # noqa: BLE001
            print("jax nbody:", e)

    # 5-point stencil, 4096 x 4096, per iteration (10 iterations a call).
    S = 4096 if "stencil" in sections else 8
    g = gen(S * S).view(S, S)

    def stencil_torch(a, iters=10):
        for _ in range(iters):
            p = torch.nn.functional.pad(a[None, None], (1, 1, 1, 1), mode="replicate")[0, 0]
            a = (a + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]) / 5
        return a
    if "stencil" in sections:
        add("stencil_4096", "torch eager (pad + slices), per iteration", lambda: timed(lambda: stencil_torch(g), 3) / 10)
    if have_jax and "stencil" in sections:
        def stencil_jax(a):
            def step(_, a):
                p = jnp.pad(a, 1, mode="edge")
                return (a + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]) / 5
            return lax.fori_loop(0, 10, step, a)
        try:
            add("stencil_4096", "jax.jit (fori_loop), per iteration", lambda: jax_timed(jax.jit(stencil_jax), tojax(g)) / 10)
        except Exception as e:  # noqa: BLE001
            print("jax stencil:", e)

    # The summary.
    copy = peers.get("copy_d2d_16384sq", [(None, None)])[0][1]
    ocopy = ours.get("copy_d2d_16384sq", {}).get("GB/s")
    oflat = ours.get("sum_flat_16384sq", {}).get("GB/s")
    print()
    print("device: %s" % torch.cuda.get_device_name())
    if ocopy:
        print("arepl D2D copy: %.0f GB/s (read + write); arepl flat f32 sum: %s GB/s read" % (ocopy, "%.0f" % oflat if oflat else "-"))
    order = ["copy_d2d_16384sq", "sum_flat_16384sq", "map2d_16384", "rowsums_16384", "colsums_16384", "colsums_iota_16384", "mandelbrot_4000",
             "matmul_f32_1024", "matmul_f32_4096", "nbody1_65536", "nbody1_65536_p1", "nbody3_65536", "nbody3_65536_p1"] + \
        ["segsq_len%d" % l for l in [1, 4, 32, 256, 4096, 1 << 16, 1 << 20, 1 << 24]] + ["stencil_4096"]
    print("%-20s %-44s %10s %10s %9s" % ("workload", "implementation", "ms", "rate", "vs arepl"))
    for w in order:
        o = ours.get(w)
        if o:
            rate = ""
            if "GFLOP/s" in o:
                rate = "%.0f GF/s" % o["GFLOP/s"]
            elif "GB/s" in o:
                rate = "%.0f GB/s" % o["GB/s"]
                if ocopy and w not in ("copy_d2d_16384sq",):
                    rate += " %.2fx copy" % (o["GB/s"] / ocopy)
            print("%-20s %-44s %10.4f %10s" % (w, "arepl", o["kernel-ms"], rate))
        elif w in skipped:
            print("%-20s %-44s %s" % (w, "arepl", skipped[w][:140]))
        else:
            print("%-20s %-44s %s" % (w, "arepl", "not measured"))
        for impl, ms in peers.get(w, []):
            ratio = "%8.2fx" % (ms / o["kernel-ms"]) if o else ""
            print("%-20s %-44s %10.4f %10s %9s" % (w, impl, ms, "", ratio))


if __name__ == "__main__":
    try:
        main()
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
