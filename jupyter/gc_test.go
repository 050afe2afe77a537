package jupyter

import (
	"runtime/debug"
	"testing"
)

// TestGCPercentFor: the kernel's collector keeps gcHeadroom of room above
// a small live heap (a collection every few cells slowed them: issue 16),
// and the default's twice the live heap above a large one.
func TestGCPercentFor(t *testing.T) {
	for _, tc := range []struct {
		live int64
		want int
	}{
		{0, maxGCPercent},
		{1 << 20, maxGCPercent},
		{4 << 20, 1600},
		{8 << 20, 800},
		{32 << 20, 200},
		{64 << 20, 100},
		{1 << 30, 100},
	} {
		if got := gcPercentFor(tc.live); got != tc.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", tc.live>>20, got, tc.want)
		}
	}
}

// TestGCPacer: pace sets the percentage for the live heap, and leaves an
// explicit GOGC alone.
func TestGCPacer(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	p := newGCPacer()
	p.pace()
	if got := debug.SetGCPercent(100); got <= 100 || got != p.percent {
		t.Errorf("after pace: GOGC %d, pacer set %d; want more than 100 for this test's small heap", got, p.percent)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	newGCPacer().pace()
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("with GOGC=50 in the environment, pace set %d", got)
	}
}
