"""CPython and numpy sides of bench/cpu/loops.sh, run with Debian's
/usr/bin/python3.

  loops.py KERNEL RUNS   time the kernel as plain Python loops and, where
                         a vectorised form exists, in numpy; print JSON
                         {"python": {...}, "numpy": {...}} (mean_s, min_s)

Each kernel computes what the bench/cpu/loops/ program of the same row
computes, with the same input.
"""

import json
import sys
import time


def for_sum(n=10_000_000):
    s = 0
    for i in range(n):
        s += i
    return s


def while_tuple(n=10_000_000):
    s, j = 0, 0
    while j < n:
        s, j = s + j, j + 1
    return s


def mandelbrot(n=500):
    out = [[0] * n for _ in range(n)]
    for y in range(n):
        ci = -1.5 + 3.0 * y / n
        row = out[y]
        for x in range(n):
            cr = -2.0 + 3.0 * x / n
            zr = zi = 0.0
            i = 0
            while i < 255 and zr * zr + zi * zi < 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                i += 1
            row[x] = i
    return out


def sieve(n=1_000_000):
    flags = [True] * n
    flags[0] = flags[1] = False
    for i in range(n):
        if i * i < n and flags[i]:
            for j in range((n - 1 - i * i) // i + 1):
                flags[i * i + j * i] = False
    return sum(flags)


def inplace_branch(n=1_000_000):
    a = [0] * n
    for i in range(n):
        if i % 3 != 0:
            a[i] = i
    return sum(a)


def tridiag_rows(m, k):
    total = 0.0
    for r in range(m):
        a = [1.0 + (r + i) % 7 for i in range(k)]
        b = [20.0 + (r * i) % 5 for i in range(k)]
        c = [2.0 + (r + 2 * i) % 3 for i in range(k)]
        d = [float((r + i) % 11) for i in range(k)]
        cp, dp = [0.0] * k, [0.0] * k
        cp[0], dp[0] = c[0] / b[0], d[0] / b[0]
        for i in range(1, k):
            mm = b[i] - a[i] * cp[i - 1]
            cp[i] = c[i] / mm
            dp[i] = (d[i] - a[i] * dp[i - 1]) / mm
        x = [0.0] * k
        x[k - 1] = dp[k - 1]
        for i in range(k - 2, -1, -1):
            x[i] = dp[i] - cp[i] * x[i + 1]
        total += sum(x)
    return total


def nbody(n=1000):
    xs = [(i % 97) * 0.5 for i in range(n)]
    ys = [(i % 89) * 0.25 for i in range(n)]
    zs = [(i % 83) * 0.125 for i in range(n)]
    ms = [1.0 + i % 5 for i in range(n)]
    dt, eps = 0.01, 0.01
    tot = 0.0
    for i in range(n):
        xi, yi, zi = xs[i], ys[i], zs[i]
        ax = ay = az = 0.0
        for j in range(n):
            dx, dy, dz = xs[j] - xi, ys[j] - yi, zs[j] - zi
            r2 = dx * dx + dy * dy + dz * dz + eps
            inv = ms[j] / (r2 * r2 ** 0.5)
            ax += dx * inv
            ay += dy * inv
            az += dz * inv
        tot += xi + dt * dt * ax + yi + dt * dt * ay + zi + dt * dt * az
    return tot


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def numpy_kernels(np):
    def np_mandelbrot(n=500):
        # The natural masked form: z and c as two float64 arrays of the
        # points still iterating, updated in place, the live set shrunk by
        # the mask of points with |z| < 2 before each pass, so that a point
        # costs work only while it iterates (as it does in arepl's masked
        # loop). An earlier version ran all 255 passes over all points
        # with np.where, several times slower.
        x = -2 + 3 * np.arange(n) / n
        y = -1.5 + 3 * np.arange(n) / n
        cr, ci = (a.ravel() for a in np.meshgrid(x, y))
        it = np.zeros(n * n, dtype=np.int32)
        live = np.arange(n * n)
        zr, zi = np.zeros(n * n), np.zeros(n * n)
        t = np.empty(n * n)
        for _ in range(255):
            m = zr * zr + zi * zi < 4
            if not m.all():
                live, zr, zi, cr, ci = live[m], zr[m], zi[m], cr[m], ci[m]
                if live.size == 0:
                    break
            it[live] += 1
            k = live.size
            np.multiply(zr, zi, out=t[:k])  # t = zr*zi
            zr *= zr
            zi *= zi
            zr -= zi
            zr += cr                        # zr = zr² - zi² + cr
            np.multiply(t[:k], 2, out=zi)
            zi += ci                        # zi = 2·zr·zi + ci
        return it.reshape(n, n)

    def np_sieve(n=1_000_000):
        flags = np.ones(n, dtype=bool)
        flags[:2] = False
        for i in range(2, int(n ** 0.5) + 1):
            if flags[i]:
                flags[i * i::i] = False
        return int(flags.sum())

    def np_inplace(n):
        a = np.zeros(n, dtype=np.int64)
        i = np.arange(n)
        m = i % 3 != 0
        a[m] = i[m]
        return int(a.sum())

    def np_tridiag(m=1000, k=1000):
        r, i = np.arange(m)[:, None], np.arange(k)[None, :]
        a = 1.0 + (r + i) % 7
        b = 20.0 + (r * i) % 5
        c = 2.0 + (r + 2 * i) % 3
        d = ((r + i) % 11).astype(np.float64)
        cp, dp = np.zeros((m, k)), np.zeros((m, k))
        cp[:, 0], dp[:, 0] = c[:, 0] / b[:, 0], d[:, 0] / b[:, 0]
        for j in range(1, k):  # one vectorised step over all rows per column
            mm = b[:, j] - a[:, j] * cp[:, j - 1]
            cp[:, j] = c[:, j] / mm
            dp[:, j] = (d[:, j] - a[:, j] * dp[:, j - 1]) / mm
        x = np.zeros((m, k))
        x[:, k - 1] = dp[:, k - 1]
        for j in range(k - 2, -1, -1):
            x[:, j] = dp[:, j] - cp[:, j] * x[:, j + 1]
        return float(x.sum())

    def np_nbody(n=1000):
        i = np.arange(n)
        p = np.stack([(i % 97) * 0.5, (i % 89) * 0.25, (i % 83) * 0.125], axis=1)
        ms = 1.0 + i % 5
        d = p[None, :, :] - p[:, None, :]
        r2 = (d * d).sum(axis=2) + 0.01
        inv = ms[None, :] / (r2 * np.sqrt(r2))
        acc = (d * inv[:, :, None]).sum(axis=1)
        return float((p + 0.01 * 0.01 * acc).sum())

    return {
        "for_sum": lambda: int(np.arange(10_000_000, dtype=np.int64).sum()),
        "while_tuple": lambda: int(np.arange(10_000_000, dtype=np.int64).sum()),
        "mandelbrot": np_mandelbrot,
        "sieve": np_sieve,
        "inplace_branch": lambda: np_inplace(1_000_000),
        "inplace_branch4": lambda: np_inplace(4_000_000),
        "tridiag": np_tridiag,
        "nbody": np_nbody,
    }


PYTHON = {
    "for_sum": for_sum,
    "while_tuple": while_tuple,
    "mandelbrot": mandelbrot,
    "sieve": sieve,
    "inplace_branch": lambda: inplace_branch(1_000_000),
    "inplace_branch4": lambda: inplace_branch(4_000_000),
    "tridiag": lambda: tridiag_rows(1000, 1000),
    "nbody": nbody,
    "fib": lambda: fib(27),
}


def timed(f, runs):
    times = []
    cpu0 = time.process_time()
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    # CPU time per run (user+system, all threads), which a loaded machine
    # inflates far less than wall time.
    cpu = (time.process_time() - cpu0) / runs
    return {"mean_s": sum(times) / len(times), "min_s": min(times), "cpu_s": cpu}


if __name__ == "__main__":
    name, runs = sys.argv[1], int(sys.argv[2])
    out = {}
    if name in PYTHON:  # mssp and reduce2x2mm have no CPython row
        out["python"] = timed(PYTHON[name], runs)
    try:
        import numpy as np
        nk = numpy_kernels(np)
        if name in nk:
            nk[name]()
            out["numpy"] = timed(nk[name], runs)
    except ImportError:
        pass
    json.dump(out, sys.stdout)
    print()
