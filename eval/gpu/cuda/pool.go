package cuda

import "unsafe"

// Device memory comes from the device's default memory pool, CUDA's
// stream-ordered allocator (cuMemAllocAsync / cuMemFreeAsync on the one
// stream every call here uses), with a release threshold above any size, so
// that freed memory stays mapped and the next allocation takes it back
// without touching the GPU's page tables.
//
// Why: each cuMemAlloc / cuMemFree changes the page mappings, and the
// kernels that run after one are slower while the GPU refills its
// translations. Measured on an H200 (bench/RESULTS.md, "GPU scan" run 9):
// the i32 scan of 2^28 elements took 0.556 ms writing to a reused buffer or
// one from the kept pool, 0.607 ms when its output was cuMemAlloc'ed before
// each run, and 0.606 ms with the output reused but an unrelated buffer
// allocated and freed between runs; a 1 GiB device-to-device copy took
// 0.506 ms into a reused buffer and 0.568 ms into a fresh one. arepl
// allocates every result, so every kernel paid that. PyTorch (its caching
// allocator), CuPy (its memory pool) and JAX (its BFC allocator) keep
// memory the same way.
//
// A pool that keeps everything can hold memory another allocation needs:
// when an allocation fails for lack of memory, Alloc waits for the device,
// returns the pool's unused memory to the driver (cuMemPoolTrimTo) and tries
// once more.

// CUmemPool_attribute and CUdevice_attribute values (cuda.h).
const (
	memPoolAttrReleaseThreshold = 4
	attrMemoryPoolsSupported    = 115
	errOutOfMemory              = 2
)

// initPool finds the device's default pool and raises its release
// threshold; on a device without memory pools g.pool stays 0 and Alloc uses
// cuMemAlloc.
func (g *GPU) initPool() error {
	d := g.d
	var ok int32
	if err := g.check("cuDeviceGetAttribute", d.cuDeviceGetAttribute(&ok, attrMemoryPoolsSupported, g.dev)); err != nil || ok == 0 {
		return err
	}
	var pool uintptr
	if err := g.check("cuDeviceGetDefaultMemPool", d.cuDeviceGetDefaultMemPool(&pool, g.dev)); err != nil {
		return err
	}
	keep := ^uint64(0)
	if err := g.check("cuMemPoolSetAttribute", d.cuMemPoolSetAttribute(pool, memPoolAttrReleaseThreshold, unsafe.Pointer(&keep))); err != nil {
		return err
	}
	g.pool = pool
	return nil
}

// alloc0 runs on the command goroutine: n bytes from the pool (see above),
// or from cuMemAlloc where there is none.
func (g *GPU) alloc0(p *uint64, n uint64) error {
	d := g.d
	if g.pool == 0 {
		return g.check("cuMemAlloc_v2", d.cuMemAlloc(p, n))
	}
	r := d.cuMemAllocAsync(p, n, 0)
	if r == errOutOfMemory {
		if err := g.check("cuCtxSynchronize", d.cuCtxSynchronize()); err != nil {
			return err
		}
		if err := g.check("cuMemPoolTrimTo", d.cuMemPoolTrimTo(g.pool, 0)); err != nil {
			return err
		}
		r = d.cuMemAllocAsync(p, n, 0)
	}
	return g.check("cuMemAllocAsync", r)
}

// free0 runs on the command goroutine: p goes back to where alloc0 took it
// from. A pool's memory is free once the work queued before it is done.
func (g *GPU) free0(p uint64) error {
	if g.pool == 0 {
		return g.check("cuMemFree_v2", g.d.cuMemFree(p))
	}
	return g.check("cuMemFreeAsync", g.d.cuMemFreeAsync(p, 0))
}
