package gpu

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	. "github.com/arepl/arepl/lang/core"
)

// scanRedSrc holds scans fused horizontally with reductions: plain, and
// with map-outs and a non-commutative reduction. (A post-map beside a
// reduction the fuser does not form: the reduction reads the scan.)
const scanRedSrc = `
def plain (xs: []i32) : ([]i32, i32) = (scan (+) 0 xs, reduce (+) 0 xs)
def outs (xs: []i32) : ([]i32, []i32, i32, i32) =
  let ys = map (\x -> x * 2) xs
  in (ys, scan (+) 0 ys, reduce (\a b -> if b == -1 then a else b) (-1) xs, reduce (+) 0 (map (\x -> x * x) xs))
`

// TestSplitScans checks that each program's fused screma runs as a scan
// module statement and a redomap kernel, with nothing left on the CPU (no
// GPU needed).
func TestSplitScans(t *testing.T) {
	for _, fn := range []string{"plain", "outs"} {
		m, err := generate(futProg(t, scanRedSrc, fn), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.fallback) > 0 {
			t.Errorf("%s: statements on the CPU: %v", fn, m.fallback)
		}
		n := 0
		for _, parts := range m.split {
			e0, ok0 := parts[0].Exp.(*Screma)
			e1, ok1 := parts[1].Exp.(*Screma)
			if ok0 && ok1 && len(e0.Scans) > 0 && len(e0.Reds) == 0 && len(e1.Reds) > 0 && len(e1.Scans) == 0 && m.kernels[parts[1]] != nil {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d scan/reduce splits, want 1", fn, n)
		}
	}
}

// TestSplitScansDevice runs them on the GPU against the CPU interpreter.
func TestSplitScansDevice(t *testing.T) {
	be := newTestBackend(t)
	if be == nil {
		return
	}
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	for _, fn := range []string{"plain", "outs"} {
		prog := futProg(t, scanRedSrc, fn)
		for _, n := range []int{0, 1, 2, 3, 31, 32, 33, 1000, 1 << 20} {
			if n > *maxN {
				continue
			}
			xs := make([]int32, n)
			for i := range xs {
				xs[i] = int32(hash(i)%2001) - 1000
			}
			args := []eval.Value{arr(xs)}
			t.Run(fmt.Sprintf("%s_%d", fn, n), func(t *testing.T) {
				var tm eval.Timings
				got, err := be.Run(ctx, prog, entryName(prog), args, &tm)
				if err != nil {
					t.Fatal(err)
				}
				for _, note := range tm.Notes {
					if strings.Contains(note, "CPU") {
						t.Errorf("ran on the CPU: %s", note)
					}
				}
				want, err := ref.Run(ctx, prog, entryName(prog), args, &eval.Timings{})
				if err != nil {
					t.Fatal(err)
				}
				if err := same(ctx, got, want); err != nil {
					t.Fatal(err)
				}
				free(got)
			})
		}
	}
}
