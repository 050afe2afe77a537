package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
)

// An interactive session's Go heap is small (2-7 MB live on the GPU
// backend), so with GOGC=100 the collector ran every 2-4 MB allocated: twice
// within 5 ms after a compile, and every few evaluations. A collection
// overlapping a repeated expression made it 1.5-2.4 ms from Enter to answer
// instead of 0.3-0.5 (in one traced line: a 0.55 ms stop-the-world, and the
// main goroutine waiting 0.76 ms for a P). With GOGC=off no line took over
// 0.75 ms (bench/RESULTS.md, "Interactive latency", run 16).
//
// So the REPL and the kernel pace the collector for a floor of garbage:
// after each collection, GOGC is set so that the next one comes when the
// heap has grown by the larger of the live heap (GOGC=100, the default) and
// gcFloorMB. A session of a few megabytes then collects every 16 MB
// allocated, not every few; a large live heap is paced as before; and the
// memory budget (eval/memory.go, the runtime's soft limit) still makes the
// collector run as the heap nears it, whatever GOGC says. No bytes are
// added to the heap, so the budget's accounting is unchanged.
//
// The price: until the next collection the evaluations allocate from pages
// never touched before rather than from a recycled heap of a few megabytes.
// In run 16 (three sessions a build) no seen line took over 2 ms against 2
// of 60 without the floor, and the p90 was 0.86 ms against 1.19, but the
// median was 0.47 ms against 0.37; on the 2-core development machine (CPU
// backend) a 64 MB floor doubled the median of a long session's repeats.
// The lead's check of the merged tree (bench/RESULTS.md, "Issue 15 in one
// run and issue 16's REPL figures", three sessions a floor, interleaved)
// then compared floors: none, 2 of 60 seen lines over 2 ms (median 0.448,
// max 2.59); 16 MB, none over (median 0.367, max 1.54); 64 MB, none over
// (median 0.406, max 1.52). So the floor is 16 MB: the outliers go and the
// median stays where it was without a floor.
//
// A GOGC set in the environment is left alone; AREPL_GC_FLOOR_MB sets the
// floor (0: none), for measuring.
var gcFloor struct {
	once  sync.Once
	bytes uint64
	pct   int
	tunes atomic.Int64 // collections paced, for the test
}

// gcFloorMB is the floor's default size.
const gcFloorMB = 16

// keepGCFloor starts the pacing, once per process.
func keepGCFloor() {
	gcFloor.once.Do(func() {
		if _, set := os.LookupEnv("GOGC"); set {
			return
		}
		mb := floorMB(os.Getenv("AREPL_GC_FLOOR_MB"))
		if mb == 0 {
			return
		}
		gcFloor.bytes = uint64(mb) << 20
		gcFloor.pct = 100
		retuneGC()
		armGCFloor()
	})
}

// maxFloorMB caps AREPL_GC_FLOOR_MB (1 TiB): the floor in bytes, times
// 100 for GOGC, must stay far from overflowing, where it would turn
// negative and switch the collector off.
const maxFloorMB = 1 << 20

// floorMB is the floor AREPL_GC_FLOOR_MB asks for: gcFloorMB when it is
// unset or not a count, at most maxFloorMB.
func floorMB(env string) int {
	v, err := strconv.Atoi(env)
	if err != nil || v < 0 {
		return gcFloorMB
	}
	return min(v, maxFloorMB)
}

// gcSentinel is an object that only a collection frees: its cleanup paces
// the next collection and arms a new one.
type gcSentinel struct{ _ [64]byte }

func armGCFloor() {
	runtime.AddCleanup(new(gcSentinel), func(struct{}) {
		retuneGC()
		armGCFloor()
	}, struct{}{})
}

// retuneGC sets GOGC from the live heap of the last collection.
func retuneGC() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	live := uint64(0)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	pct := 100
	if live > 0 {
		pct = int(max(100, min(gcFloor.bytes*100/live, 1_000_000)))
	} else {
		pct = int(min(gcFloor.bytes*100/(4<<20), 1_000_000)) // before the first collection: the runtime's 4 MB minimum
	}
	if pct != gcFloor.pct {
		gcFloor.pct = pct
		debug.SetGCPercent(pct)
	}
	gcFloor.tunes.Add(1)
}
