package cuda

import (
	"runtime"
	"sync"
	"unsafe"
)

// Large host<->device copies go through pinned staging buffers.
//
// Why: cuMemcpyHtoD from pageable memory (a Go slice) makes the driver
// stage the data itself, through a small pinned buffer, one piece at a time,
// with the CPU copy and the DMA never overlapping: a 1 GiB upload took about
// 110 ms on an H100 (9 GB/s, issue 16). Registering the slice instead
// (cuMemHostRegister) pins every page of it first, which costs about as
// much as the copy, once per array. Here the copy is a pipeline over
// stageBufs pinned buffers of stageChunk bytes: while the DMA engine moves
// one buffer, goroutines copy the next piece of the slice into another
// (host memory bandwidth over several cores), so the transfer runs at the
// bus's speed less a little.
//
// The buffers are allocated with the context (cuMemHostAlloc, once per
// process: the first 1 GiB upload ran at 14 GB/s when it also allocated
// them, the next at 28 GB/s) and reused; an event per buffer says when its last DMA is
// done, so a buffer is refilled only then. Every copy returns only once all
// of its DMA has finished, as the synchronous copies it replaces do.

const (
	stageMin   = 1 << 20  // copies of at least this many bytes are staged
	stageChunk = 16 << 20 // bytes per staging buffer
	stageBufs  = 4

	eventDisableTiming = 0x2
)

type stage struct {
	buf  [stageBufs]unsafe.Pointer
	ev   [stageBufs]uintptr
	busy [stageBufs]bool // an async copy was queued on buf since the last wait
}

// staging returns the staging buffers, allocating them on first use; nil
// when pinned memory is unavailable (the caller copies synchronously).
// It runs on the command goroutine.
func (g *GPU) staging() *stage {
	if g.stage != nil {
		return g.stage
	}
	d := g.d
	s := &stage{}
	for i := range s.buf {
		if d.cuMemHostAlloc(&s.buf[i], stageChunk, 0) != 0 || d.cuEventCreate(&s.ev[i], eventDisableTiming) != 0 {
			return nil // what was allocated stays: a few MiB, once
		}
	}
	g.stage = s
	return s
}

// wait blocks until buffer i's last queued copy is done.
func (g *GPU) waitStage(s *stage, i int) error {
	if !s.busy[i] {
		return nil
	}
	s.busy[i] = false
	return g.check("cuEventSynchronize", g.d.cuEventSynchronize(s.ev[i]))
}

// stagedHtoD copies n bytes from host src to device dst through the
// staging buffers (on the command goroutine).
func (g *GPU) stagedHtoD(dst uint64, src unsafe.Pointer, n int64) error {
	s := g.staging()
	if s == nil {
		return g.check("cuMemcpyHtoD_v2", g.d.cuMemcpyHtoD(dst, src, uint64(n)))
	}
	last := 0
	for off, i := int64(0), 0; off < n; off, i = off+stageChunk, i+1 {
		b := i % stageBufs
		c := min(stageChunk, n-off)
		if err := g.waitStage(s, b); err != nil {
			return err
		}
		parallelCopy(s.buf[b], unsafe.Add(src, off), c)
		if err := g.check("cuMemcpyHtoDAsync_v2", g.d.cuMemcpyHtoDAsync(dst+uint64(off), s.buf[b], uint64(c), 0)); err != nil {
			return err
		}
		if err := g.check("cuEventRecord", g.d.cuEventRecord(s.ev[b], 0)); err != nil {
			return err
		}
		s.busy[b], last = true, b
	}
	runtime.KeepAlive(src)
	// The copies complete in order: the last one's event covers them all.
	for b := range s.busy {
		if b != last {
			s.busy[b] = false
		}
	}
	return g.waitStage(s, last)
}

// stagedDtoH copies n bytes from device src to host dst through the
// staging buffers: up to stageBufs chunks are in flight while the host
// copies finished ones out.
func (g *GPU) stagedDtoH(dst unsafe.Pointer, src uint64, n int64) error {
	s := g.staging()
	if s == nil {
		return g.check("cuMemcpyDtoH_v2", g.d.cuMemcpyDtoH(dst, src, uint64(n)))
	}
	chunks := int((n + stageChunk - 1) / stageChunk)
	issue := func(i int) error {
		b := i % stageBufs
		off := int64(i) * stageChunk
		c := min(stageChunk, n-off)
		if err := g.check("cuMemcpyDtoHAsync_v2", g.d.cuMemcpyDtoHAsync(s.buf[b], src+uint64(off), uint64(c), 0)); err != nil {
			return err
		}
		s.busy[b] = true
		return g.check("cuEventRecord", g.d.cuEventRecord(s.ev[b], 0))
	}
	// Buffers may still be busy from an upload that failed half way.
	for b := range s.busy {
		if err := g.waitStage(s, b); err != nil {
			return err
		}
	}
	for i := 0; i < min(chunks, stageBufs); i++ {
		if err := issue(i); err != nil {
			return err
		}
	}
	for i := 0; i < chunks; i++ {
		b := i % stageBufs
		off := int64(i) * stageChunk
		if err := g.waitStage(s, b); err != nil {
			return err
		}
		parallelCopy(unsafe.Add(dst, off), s.buf[b], min(stageChunk, n-off))
		if i+stageBufs < chunks {
			if err := issue(i + stageBufs); err != nil {
				return err
			}
		}
	}
	runtime.KeepAlive(dst)
	return nil
}

// parallelCopy copies n bytes with several goroutines: one core's memcpy
// moves about 10 GB/s, less than the bus.
func parallelCopy(dst, src unsafe.Pointer, n int64) {
	const minPart = 512 << 10
	parts := int(min(int64(runtime.GOMAXPROCS(0)), 16, max(1, n/minPart)))
	if parts <= 1 {
		copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
		return
	}
	per := (n + int64(parts) - 1) / int64(parts)
	var wg sync.WaitGroup
	for off := int64(0); off < n; off += per {
		c := min(per, n-off)
		wg.Add(1)
		go func(off, c int64) {
			defer wg.Done()
			copy(unsafe.Slice((*byte)(unsafe.Add(dst, off)), c), unsafe.Slice((*byte)(unsafe.Add(src, off)), c))
		}(off, c)
	}
	wg.Wait()
}
