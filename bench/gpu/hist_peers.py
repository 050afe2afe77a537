"""Time PyTorch's and CuPy's versions of arepl's histogram benchmark
workloads (TestHistBench) on the same GPU in the same run.

Usage: python3 hist_peers.py [log2n]

Keys are uniform over the buckets or all equal to h/2, as in the Go test;
every peer is timed with CUDA events around REPS calls after a warm-up and
prints one PEER line per workload and peer (Gelem/s = n / time).
"""
import sys

import torch

REPS = 5


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


def report(work, peer, n, ms):
    print("PEER %s %s ms=%.4f gelems=%.1f" % (work, peer, ms, n / (ms * 1e-3) / 1e9))


def main():
    log2n = int(sys.argv[1]) if len(sys.argv) > 1 else 26
    n = 1 << log2n
    dev = torch.device("cuda")
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
    try:
        import cupy
        import cupyx
    except ImportError:
        cupy = None
        print("cupy: not installed")
    vals = torch.randint(0, 8, (n,), device=dev, dtype=torch.int32).to(torch.float32)
    for h in [16, 256, 65536, 1 << 20]:
        for equal in [False, True]:
            if equal:
                k64 = torch.full((n,), h // 2, device=dev, dtype=torch.int64)
            else:
                k64 = torch.randint(0, h, (n,), device=dev, dtype=torch.int64)
            k32 = k64.to(torch.int32)
            w = "h=%d equal=%s" % (h, equal)
            report("count_i32 " + w, "torch.bincount(i32)", n, timed(lambda: torch.bincount(k32, minlength=h)))
            out = torch.zeros(h, device=dev, dtype=torch.float32)
            report("sum_f32 " + w, "torch.index_add_(i64)", n, timed(lambda: out.index_add_(0, k64, vals)))
            report("sum_f32 " + w, "torch.index_add_(i32)", n, timed(lambda: out.index_add_(0, k32, vals)))
            report("sum_f32 " + w, "torch.scatter_reduce_(sum)", n,
                   timed(lambda: out.scatter_reduce_(0, k64, vals, reduce="sum")))
            if cupy is not None:
                ck = cupy.asarray(k32)
                cv = cupy.asarray(vals)
                co = cupy.zeros(h, dtype=cupy.float32)
                report("count_i32 " + w, "cupy.bincount(i32)", n, timed(lambda: cupy.bincount(ck, minlength=h)))
                report("sum_f32 " + w, "cupyx.scatter_add", n, timed(lambda: cupyx.scatter_add(co, ck, cv)))
            del k64, k32


if __name__ == "__main__":
    main()
