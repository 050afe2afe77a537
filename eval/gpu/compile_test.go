package gpu

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval/gpu/cuda"
	. "github.com/arepl/arepl/lang/core"
)

var compileLab = flag.String("gpu.compilelab", "", "semicolon-separated NVRTC option sets (options space-separated, \"-\" for none) to time TestCompileTimes with")

// TestCompileTimes compiles the modules of representative programs (a
// map, an ordered and a commutative redomap, a scan) with NVRTC under each
// option set of -gpu.compilelab, checks that each compiles, and logs the
// first and the best of three compile times: where NVRTC spends its time
// (issue 16's cold-compile target). Without the flag or a GPU it only
// checks that the modules generate.
func TestCompileTimes(t *testing.T) {
	progs := map[string]*Program{}
	for _, p := range testProgs() {
		switch p.name {
		case "sum_i32", "max_map", "ordered_u8":
			progs[p.name] = p.build()
		}
	}
	type src struct{ name, text string }
	var srcs []src
	srcs = append(srcs, src{"empty", "extern \"C\" __global__ void k() {}\n"}, src{"prelude", canonical(prelude + "\nextern \"C\" __global__ void k() {}\n")})
	for name, p := range progs {
		m, err := generate(p, DefaultLimits)
		if err != nil || len(m.kernels) == 0 {
			t.Fatalf("%s: %v (%d kernels)", name, err, len(m.kernels))
		}
		srcs = append(srcs, src{name, canonical(m.source())})
	}
	for _, c := range scanProgs() {
		if c.name != "scan_i32" {
			continue
		}
		p := c.build()
		for _, s := range p.Funs[0].Body.Stmts {
			if m, err := genScan(p, s, DefaultLimits); err == nil {
				srcs = append(srcs, src{c.name, canonical(m.source())})
			}
		}
	}
	if *compileLab == "" {
		return
	}
	g, err := cuda.Open()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	// Every compile gets a source of its own (a global with a fresh name and
	// value changes the PTX too), so that no cache on the way can answer
	// it; "again" recompiles the last text unchanged, to show whether one
	// does.
	uniq := 0
	for _, set := range strings.Split(*compileLab, ";") {
		opts := []string{"-default-device", "-std=c++17"}
		if set != "-" {
			opts = append(opts, strings.Fields(set)...)
		}
		for _, s := range srcs {
			var total, best, again time.Duration
			var size int
			var text string
			for i := range 3 {
				uniq++
				text = fmt.Sprintf("__device__ int ar_lab_%d = %d;\n%s", uniq, uniq, s.text)
				start := time.Now()
				cubin, err := g.CompileWith(text, s.name+".cu", opts)
				d := time.Since(start)
				if err != nil {
					t.Errorf("options %q, %s: %v", set, s.name, err)
					break
				}
				size = len(cubin)
				total += d
				if i == 0 || d < best {
					best = d
				}
			}
			start := time.Now()
			if _, err := g.CompileWith(text, s.name+".cu", opts); err == nil {
				again = time.Since(start)
			}
			t.Logf("compile options=%q src=%s bytes=%d mean=%.1fms best=%.1fms again=%.1fms cubin=%d", set, s.name, len(s.text), ms(total/3), ms(best), ms(again), size)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
