package jupyter

import (
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
)

func TestTimingBundle(t *testing.T) {
	b := timingBundle(eval.Timings{
		Parse: 50 * time.Microsecond, Compile: 3 * time.Millisecond, CacheHit: true,
		Run: 2 * time.Millisecond, Total: 6 * time.Millisecond, Backend: "gpu",
		Kernels: []eval.KernelTiming{
			{Name: "redomap", Time: time.Millisecond, Bytes: 8 << 20},
			{Name: "tiny", Time: time.Millisecond, Bytes: 8},
			{Name: "idle", Time: 2 * time.Microsecond},
		},
		Notes: []string{"scan ran on the CPU"},
	})
	html := b["text/html"].(string)
	for _, want := range []string{"timings on gpu", "parse and check", "compile (cache hit)", "kernel redomap",
		"8.0 MiB", "8.39", "kernel tiny</td><td>1 ms</td><td>8 B</td><td>0.000008</td>", "kernel idle</td><td>2 µs</td><td>0 B</td><td>0</td>",
		"scan ran on the CPU", "6 ms"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q:\n%s", want, html)
		}
	}
	for _, absent := range []string{"transfers", "lower"} {
		if strings.Contains(html, absent) {
			t.Errorf("HTML has %q, a stage that took no time:\n%s", absent, html)
		}
	}
	text := b["text/plain"].(string)
	if !strings.HasPrefix(text, "time: ") || !strings.Contains(text, "redomap: 1 ms, 8.0 MiB, 8.39 GB/s") ||
		!strings.Contains(text, "tiny: 1 ms, 8 B, 0.000008 GB/s\n") || !strings.Contains(text, "idle: 2 µs, 0 B, 0 GB/s") {
		t.Errorf("text:\n%s", text)
	}
}

// A module compiled at the fast tier says so in the notebook's table, as
// :time does, so that a slower first run is not read as the kernel's speed.
func TestTimingBundleFastTier(t *testing.T) {
	b := timingBundle(eval.Timings{Compile: 110 * time.Millisecond, FastTier: true, Total: 111 * time.Millisecond, Backend: "gpu"})
	html := b["text/html"].(string)
	if !strings.Contains(html, "compile (cache miss; fast tier, optimised module in the background)") {
		t.Errorf("HTML lacks the fast tier:\n%s", html)
	}
}
