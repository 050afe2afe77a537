package jupyter

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// The kernel's garbage collector keeps at least gcHeadroom of room above
// the live heap. A session's live heap is small (a few MiB: the prelude's
// environment, the session's values on the device), and Go's default pacing
// (GOGC=100, a 4 MiB minimum goal) then collects every few cells, each cell
// allocating hundreds of KiB in its front end; a collection that overlaps a
// cell slows it through mark assists and write barriers. On the H200 the
// seen GPU cells of bench/gpu/latency.cells.txt took a median 1.21-1.33 ms
// in the kernel with the default and 1.03 ms with the collector off, and their
// round trips' 90th percentile fell from 4.1 to 2.9 ms (bench/RESULTS.md,
// "Interactive latency", run 11). Large host arrays keep the default: the
// percentage never drops below 100, so the heap's goal is the larger of
// twice the live heap and live plus gcHeadroom; and the session's memory
// budget (eval.SetMemoryLimit, the runtime's soft limit) bounds it either way.
const gcHeadroom = 64 << 20

// maxGCPercent bounds the percentage when the live heap is tiny. The
// runtime scales its 4 MiB minimum goal by the percentage too, so 1600 makes
// that minimum gcHeadroom.
const maxGCPercent = 1600

// gcPercentFor is the GOGC that gives a heap of live bytes gcHeadroom of
// room, and never less than the default's.
func gcPercentFor(live int64) int {
	if live <= 0 {
		return maxGCPercent
	}
	return int(max(100, min(maxGCPercent, gcHeadroom*100/live)))
}

// gcPacer sets the collector's percentage for the live heap after each
// request (paceGC, between requests, where a client waits for nothing). An
// explicit GOGC in the environment is the user's choice and is left alone.
type gcPacer struct {
	off     bool // GOGC is set
	percent int  // what was set last; 0 before the first
	sample  []metrics.Sample
}

func newGCPacer() *gcPacer {
	return &gcPacer{off: os.Getenv("GOGC") != "", sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// pace sets the percentage for the live heap when it moved by more than a
// quarter from the last one set.
func (p *gcPacer) pace() {
	if p.off {
		return
	}
	metrics.Read(p.sample)
	if p.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	want := gcPercentFor(int64(p.sample[0].Value.Uint64()))
	if p.percent != 0 && want*4 > p.percent*3 && want*4 < p.percent*5 {
		return
	}
	debug.SetGCPercent(want)
	p.percent = want
}
