package main

import (
	"math"
	"runtime"
	"testing"
	"time"
)

// gcSink keeps the test's allocations from being optimised away.
var gcSink []byte

// TestGCFloorSpacesCollections checks that with the REPL's garbage floor a
// session's small allocations do not collect every few megabytes: after a
// collection has paced the next, three quarters of the floor in short-lived
// 1 KB allocations (12 MB, a few dozen repeated expressions' worth) run
// without one. Without the
// floor (AREPL_GC_FLOOR_MB=0) the test process's heap of a few megabytes
// collects several times on the way.
func TestGCFloorSpacesCollections(t *testing.T) {
	keepGCFloor()
	n := gcFloor.tunes.Load()
	runtime.GC()
	for deadline := time.Now().Add(2 * time.Second); gcFloor.bytes > 0 && gcFloor.tunes.Load() == n; {
		if time.Now().After(deadline) {
			t.Fatal("no pacing after a collection: the sentinel's cleanup did not run")
		}
		time.Sleep(time.Millisecond)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range gcFloorMB * 3 / 4 << 10 {
		gcSink = make([]byte, 1<<10)
	}
	runtime.ReadMemStats(&after)
	if n := after.NumGC - before.NumGC; n > 0 {
		t.Errorf("%d collections during %d MB of small allocations (heap goal %d MB, GOGC %d): the floor does not space them",
			n, gcFloorMB*3/4, after.NextGC>>20, gcFloor.pct)
	}
}

// A careless AREPL_GC_FLOOR_MB never switches the collector off: words and
// negatives give the default, a huge count is capped well below where the
// floor's arithmetic would overflow.
func TestGCFloorEnv(t *testing.T) {
	for env, want := range map[string]int{
		"": gcFloorMB, "x": gcFloorMB, "-5": gcFloorMB, "0": 0, "32": 32,
		"99999999999999999": maxFloorMB, "99999999999999999999999": gcFloorMB,
	} {
		if got := floorMB(env); got != want {
			t.Errorf("floorMB(%q) = %d, want %d", env, got, want)
		}
	}
	if b := uint64(maxFloorMB) << 20; b > math.MaxInt64/100 {
		t.Errorf("the capped floor, %d bytes, overflows GOGC's arithmetic", b)
	}
}
