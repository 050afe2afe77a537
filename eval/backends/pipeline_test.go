package backends

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
)

// Issue 17 asks that long generated programs go through the whole pipeline
// (parse, check, lower, fuse, run on the CPU) in time linear in their
// size: a sum of 20,000 literal terms and an array literal of 100,000
// elements in under 0.2 s of CPU each.

// longSum is `def main = 1 + 1 + ... + 1` with n terms.
func longSum(n int) string { return "def main = " + strings.Repeat("1 + ", n-1) + "1\n" }

// longArray is `def main = [1, 1, ..., 1]` with n elements.
func longArray(n int) string { return "def main = [" + strings.Repeat("1, ", n-1) + "1]\n" }

// runPipeline loads src as a file in a fresh CPU session and calls main.
func runPipeline(tb testing.TB, path, src string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		tb.Fatal(err)
	}
	s := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	ctx := context.Background()
	if _, err := s.Load(ctx, path); err != nil {
		tb.Fatal(err)
	}
	if _, err := s.Call(ctx, "main", nil); err != nil {
		tb.Fatal(err)
	}
}

// cpuTime is the CPU time this process has used (user and system): on a
// shared machine, wall time also counts waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLongPrograms runs issue 17's two long programs through the
// whole pipeline and reports CPU seconds per run (cpu-s/op) beside the
// wall time; run it with GOMAXPROCS=1 for the single-core figure.
func BenchmarkLongPrograms(b *testing.B) {
	dir := b.TempDir()
	for _, c := range []struct {
		name string
		src  string
	}{{"sum20k", longSum(20000)}, {"array100k", longArray(100000)}} {
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(dir, c.name+".fut")
			start, n := cpuTime(), 0
			for b.Loop() {
				runPipeline(b, path, c.src)
				n++
			}
			b.ReportMetric((cpuTime()-start).Seconds()/float64(n), "cpu-s/op")
		})
	}
}

// TestLongProgramsLinear bounds the pipeline's complexity without timing
// it: doubling a long sum or array literal must no more than about double
// the memory allocated (quadratic work shows as a factor of four), and a
// long sum must not need a deep stack (a checker or lowerer recursing
// down a left-nested chain of + grew the stack with the chain, and spent
// most of its time copying it).
func TestLongProgramsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("long inputs")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		gen  func(int) string
		n    int
	}{{"sum", longSum, 5000}, {"array", longArray, 25000}} {
		alloc := func(n int) uint64 {
			path := filepath.Join(dir, c.name+strconv.Itoa(n)+".fut")
			src := c.gen(n)
			runPipeline(t, path, src) // warm: the prelude and parser pools
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			runPipeline(t, path, src)
			runtime.ReadMemStats(&after)
			return after.TotalAlloc - before.TotalAlloc
		}
		small, large := alloc(c.n), alloc(2*c.n)
		if ratio := float64(large) / float64(small); ratio > 2.6 {
			t.Errorf("%s: %d terms allocate %d bytes, %d terms %d bytes: ratio %.2f, want about 2 (linear)", c.name, c.n, small, 2*c.n, large, ratio)
		}
	}
	// No pass may recurse once per term of a long sum: each would need a
	// stack proportional to the chain (the checker and the lowerer did,
	// and spent most of their time copying their growing stacks). Under
	// an 8 MiB limit a recursive pass overflows, which is fatal: it ends
	// the test binary, as loudly as a failure can.
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	runPipeline(t, filepath.Join(dir, "deep.fut"), longSum(40000))
}
