"""JAX with sharding over the same GPUs: the peer of bench/gpu/mgpu.sh.

The same workloads as arepl's: xs = (i * 7) % 1000 for i < 2^31 as i32,
sharded by its only dimension over 1 or 2 GPUs (NamedSharding), then sum,
cumsum, cumsum of xs * 3, and a 1000-bin histogram weighted by xs. Each is
jitted, run once to compile, then timed 5 times blocking on the result; the
best is printed.

    python3 mgpu_peers.py ND [WORK ...]

ND is the number of GPUs; WORK names workloads (reduce, scan, mapscan,
hist; all when none; scan_sm and mapscan_sm are the scans as a JAX user
would spread them by hand: shard_map, each GPU's cumsum plus the
all-gathered totals of the GPUs before it). mgpu.sh runs each 2-GPU workload in a process of its
own under a time limit, so that one slow peer cannot take the whole call.
"""
import os
import sys

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import time

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def best(f, *args, reps=5):
    r = f(*args)
    jax.block_until_ready(r)
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f(*args)
        jax.block_until_ready(r)
        ts.append(time.perf_counter() - t0)
    return min(ts), r


N = int(os.environ.get("MGPU_N", 2**31))
nd = int(sys.argv[1]) if len(sys.argv) > 1 else 1
want = sys.argv[2:] or ["reduce", "scan", "mapscan", "hist"]
devs = jax.devices()
print("jax", jax.__version__, devs, flush=True)
if nd > len(devs):
    sys.exit(f"{nd} GPUs asked for, {len(devs)} there")
mesh = Mesh(devs[:nd], ("x",))
sh = NamedSharding(mesh, P("x"))
rep = NamedSharding(mesh, P())
make = jax.jit(lambda: (((jnp.arange(N, dtype=jnp.uint32) % 1000) * 7) % 1000).astype(jnp.int32), out_shardings=sh)
xs = make()
jax.block_until_ready(xs)
work = {
    "reduce": jax.jit(lambda x: jnp.sum(x), out_shardings=rep),
    # The whole scan, left sharded (arepl's stays on the devices too; its
    # benchmark then reads the last element, as this does untimed).
    "scan": jax.jit(lambda x: jnp.cumsum(x), out_shardings=sh),
    "mapscan": jax.jit(lambda x: jnp.cumsum(x * 3), out_shardings=sh),
    "hist": jax.jit(lambda x: jnp.zeros(1000, jnp.int32).at[x].add(x), out_shardings=rep),
}
try:
    from jax import shard_map
except ImportError:
    from jax.experimental.shard_map import shard_map


def by_hand(f):
    def local(x):
        c = jnp.cumsum(f(x))
        tot = jax.lax.all_gather(c[-1], "x")
        before = jnp.arange(nd) < jax.lax.axis_index("x")
        return c + jnp.sum(jnp.where(before, tot, 0)).astype(c.dtype)
    return jax.jit(shard_map(local, mesh=mesh, in_specs=P("x"), out_specs=P("x")))


factories = {"scan_sm": lambda: by_hand(lambda x: x), "mapscan_sm": lambda: by_hand(lambda x: x * 3)}
for name in want:
    try:
        f = work[name] if name in work else factories[name]()
        t, r = best(f, xs)
        tail = f", result {int(r)}" if r.ndim == 0 else f", last {int(r[-1])}" if name != "hist" else f", bins 0..2: {r[:3].tolist()}"
        print(f"jax {nd} GPU {name} 2^31 i32: {t*1e3:.3f} ms, {4*N/t/1e9:.1f} GB/s input{tail}", flush=True)
    except Exception as e:  # out of memory and the like: reported, not fatal
        print(f"jax {nd} GPU {name}: failed: {type(e).__name__}: {str(e)[:200]}", flush=True)
