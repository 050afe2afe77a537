"""JAX with sharding over the same GPUs: the peer of bench/gpu/mgpu.sh.

The same workloads as arepl's: xs = (i * 7) % 1000 for i < 2^31 as i32,
sharded by its only dimension over 1 and 2 GPUs (NamedSharding), then sum,
cumsum, cumsum of xs * 3, and a 1000-bin histogram weighted by xs; and the
sum of a 2^34-element f32 array over 2 GPUs. Each is jitted, run once to
compile, then timed 5 times blocking on the result; the best is printed.
"""
import os
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import time

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

print("jax", jax.__version__, jax.devices(), flush=True)


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


N = 2**31
devs = jax.devices()
for nd in (1, 2):
    if nd > len(devs):
        break
    mesh = Mesh(devs[:nd], ("x",))
    sh = NamedSharding(mesh, P("x"))
    rep = NamedSharding(mesh, P())
    make = jax.jit(lambda: (((jnp.arange(N, dtype=jnp.uint32) % 1000) * 7) % 1000).astype(jnp.int32), out_shardings=sh)
    xs = make()
    jax.block_until_ready(xs)
    work = {
        "reduce (+)": jax.jit(lambda x: jnp.sum(x), out_shardings=rep),
        "scan (+)": jax.jit(lambda x: jnp.cumsum(x), out_shardings=sh),
        "map-scan": jax.jit(lambda x: jnp.cumsum(x * 3), out_shardings=sh),
        "hist (+) 1000": jax.jit(lambda x: jnp.zeros(1000, jnp.int32).at[x].add(x), out_shardings=rep),
    }
    for name, f in work.items():
        try:
            t, r = best(f, xs)
            tail = f", result {int(r)}" if r.ndim == 0 else ""
            print(f"jax {nd} GPU {name} 2^31 i32: {t*1e3:.3f} ms, {4*N/t/1e9:.1f} GB/s input{tail}", flush=True)
        except Exception as e:  # out of memory and the like: reported, not fatal
            print(f"jax {nd} GPU {name}: failed: {type(e).__name__}: {str(e)[:200]}", flush=True)
    del xs

if len(devs) >= 2:
    try:
        mesh = Mesh(devs[:2], ("x",))
        sh = NamedSharding(mesh, P("x", None))
        make = jax.jit(lambda: (jax.lax.broadcasted_iota(jnp.int32, (2**17, 2**17), 1) % 1024).astype(jnp.float32),
                       out_shardings=sh)
        fs = make()
        jax.block_until_ready(fs)
        t, r = best(jax.jit(lambda x: jnp.sum(x), out_shardings=NamedSharding(mesh, P())), fs, reps=3)
        print(f"jax 2 GPU reduce (+) 2^34 f32: {t*1e3:.3f} ms, {4*2**34/t/1e9:.1f} GB/s, sum {float(r):.6g}", flush=True)
    except Exception as e:
        print(f"jax 2 GPU 2^34 f32: failed: {type(e).__name__}: {str(e)[:200]}", flush=True)
