package gpu

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
)

// TestScanTraceVariant: every scan kernel has an instrumented variant for
// `:trace` that is the kernel plus its phase marks and its look-back's
// records (end of publishing, the predecessor that ended it), in order, and the
// kernel itself carries none (its goldens are unchanged); filters have
// no variant. The variant compiles and runs on the device (bench/gpu
// trace run, bench/RESULTS.md).
func TestScanTraceVariant(t *testing.T) {
	for _, p := range scanProgs() {
		t.Run(p.name, func(t *testing.T) {
			prog := p.build()
			m, err := genScan(prog, scanStmtOf(t, prog), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(m.body, "AR_TRACE") {
				t.Error("the plain kernel has trace marks")
			}
			if m.k.Mode == scanFilter {
				if m.traceBody != "" {
					t.Error("a filter has a trace variant")
				}
				return
			}
			// The phase marks, and within the look-back the end of
			// publishing (tile 0's prefix, the others' aggregate) and the
			// predecessor that ended it.
			marks := []string{"AR_TRACE_START();"}
			for k := 1; k <= 4; k++ {
				marks = append(marks, fmt.Sprintf("AR_TRACE_MARK(%d);", k))
			}
			marks = append(marks, "AR_TRACE_PUBLISHED();", "AR_TRACE_PUBLISHED();", "AR_TRACE_PRED(ar_look - ar_stop);",
				"AR_TRACE_MARK(5);", "AR_TRACE_MARK(6);", "AR_TRACE_END();")
			rest := m.traceBody
			for _, mk := range marks {
				i := strings.Index(rest, mk)
				if i < 0 {
					t.Fatalf("variant lacks %s (or has it out of order)", mk)
				}
				rest = rest[i+len(mk):]
			}
			strip := m.traceBody
			for _, mk := range marks {
				strip = strings.Replace(strip, "\n  "+mk, "", 1)
			}
			strip = strings.ReplaceAll(strip, "        AR_TRACE_PUBLISHED();\n", "")
			strip = strings.Replace(strip, "        if (ar_done) {\n          AR_TRACE_PRED(ar_look - ar_stop);\n          break;\n        }\n",
				"        if (ar_done) break;\n", 1)
			if strip != m.body {
				t.Error("the variant differs from the kernel by more than its marks")
			}
		})
	}
}

// TestAddTraceSpans reads the words of three tiles as an instrumented
// scan writes them (kernels/scan_prelude.cu: timestamps in slots 0-7 and
// 9, the SM in 8, the look-back's distance in 10) and a fourth slot set
// that no tile took: publishing and the look-back are separate phases,
// the look-back carries the distance to the predecessor that ended it,
// and a tile that published nothing (whole segments per tile) has an
// empty publish.
func TestAddTraceSpans(t *testing.T) {
	const base = 1_000_000
	tile := func(t0 uint64, sm, published, distance uint64) []uint64 {
		w := []uint64{t0, t0 + 10, t0 + 40, t0 + 50, t0 + 60, t0 + 200, t0 + 210, t0 + 250, sm, published, distance}
		if published != 0 {
			w[9] = t0 + published
		}
		return w
	}
	var words []uint64
	words = append(words, tile(base, 3, 70, 0)...)       // tile 0: publishes its prefix, no look-back
	words = append(words, tile(base+5, 4, 80, 1)...)     // tile 1: ended by tile 0
	words = append(words, tile(base+20, 3, 0, 0)...)     // tile 2: no look-back at all
	words = append(words, make([]uint64, traceSlots)...) // no tile took ticket 3
	if len(words) != 4*traceSlots {
		t.Fatalf("tile words: %d", len(words))
	}
	tr := eval.NewTrace("gpu", "scan")
	addTraceSpans(tr, words, 4)
	if len(tr.Spans) != 3*len(traceScanPhases) {
		t.Fatalf("%d spans, want %d", len(tr.Spans), 3*len(traceScanPhases))
	}
	type want struct {
		phase      string
		start, end int64
		distance   int
	}
	for _, c := range []struct {
		tile int
		want []want
	}{
		{0, []want{{"block scan", 50, 60, 0}, {"publish", 60, 70, 0}, {"look-back", 70, 200, 0}, {"store", 210, 250, 0}}},
		{1, []want{{"publish", 65, 85, 0}, {"look-back", 85, 205, 1}}},
		{2, []want{{"publish", 80, 80, 0}, {"look-back", 80, 220, 0}}},
	} {
		for _, w := range c.want {
			found := false
			for _, s := range tr.Spans {
				if s.Tile == c.tile && s.Phase == w.phase {
					found = true
					if s.Start != w.start || s.End != w.end || s.Distance != w.distance {
						t.Errorf("tile %d %s: %+v, want %+v", c.tile, w.phase, s, w)
					}
				}
			}
			if !found {
				t.Errorf("tile %d has no %s", c.tile, w.phase)
			}
		}
	}
	if st := tr.Stats(); st.Distances[1] != 1 || len(st.Distances) != 1 || st.Mean["publish"] != 10*time.Nanosecond {
		t.Errorf("stats %+v", st)
	}
}
