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

// vecopSrc holds reductions and scans over rows with vector operators: a
// sum (i32, wrapping exactly), a non-commutative operator (composition of
// linear functions on pairs of rows: every order but the right one shows),
// and a neutral element from a variable; and near misses that must not
// take the column kernels.
const vecopSrc = `
def red_sum [m] (xss: [][m]i32) : [m]i32 = reduce (map2 (+)) (replicate m 0) xss
def scan_sum [m] (xss: [][m]i32) : [][m]i32 = scan (map2 (+)) (replicate m 0) xss
def red_lin [m] (as: [][m]i32) (bs: [][m]i32) : ([m]i32, [m]i32) =
  unzip (reduce (\x y -> map2 (\(a, b) (c, d) -> (a * c, b * c + d)) x y) (replicate m (1, 0)) (map2 zip as bs))
def scan_lin [m] (as: [][m]i32) (bs: [][m]i32) : [][m](i32, i32) =
  scan (\x y -> map2 (\(a, b) (c, d) -> (a * c, b * c + d)) x y) (replicate m (1, 0)) (map2 zip as bs)
def red_from [m] (lo: i32) (xss: [][m]i32) : [m]i32 = reduce (map2 i32.max) (replicate m lo) xss
def red_wide (k: i64) (xss: [][]i32) : [k]i32 = reduce (map2 (+)) (replicate k 0) xss
def red_rows [m] (xss: [][m]i32) (ne: [m]i32) : [m]i32 = reduce (map2 (+)) ne xss
`

// TestVectorOpKernels checks which statements get column kernels (no GPU
// needed), and the column scan's source.
func TestVectorOpKernels(t *testing.T) {
	for _, c := range []struct {
		fn   string
		want segStrategy
		ok   bool
	}{
		{"red_sum", segCols, true}, {"scan_sum", segColScan, true}, {"red_from", segCols, true},
		{"red_wide", segCols, true}, {"red_lin", segCols, true}, {"scan_lin", segColScan, true},
		// A neutral element that is not a replicate: per-column neutrals
		// are not generated.
		{"red_rows", 0, false},
	} {
		m, err := generate(futProg(t, vecopSrc, c.fn), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, ks := range m.kernels {
			if ks[0].Kind == kSegRed && ks[0].seg.strategy == c.want && ks[0].seg.cols != nil {
				found = true
				if c.fn == "scan_sum" {
					golden(t, "vecop_scan_sum", ks[0].src)
				}
			}
		}
		if found != c.ok {
			t.Errorf("%s: column kernel %v, want %v; fallbacks %v", c.fn, found, c.ok, m.fallback)
		}
		if c.ok && len(m.fallback) > 0 {
			t.Errorf("%s: statements on the CPU: %v", c.fn, m.fallback)
		}
	}
}

// TestVectorOpDevice runs the column kernels of vector operators on the
// GPU against the CPU interpreter, at the shapes of issue 15 (few columns
// and many rows, the rows then split over blocks), empty dimensions, and a
// neutral element of the wrong length (map2's size error).
func TestVectorOpDevice(t *testing.T) {
	be := newTestBackend(t)
	if be == nil {
		return
	}
	// The scalar statements around the kernels (the sizes) run on the
	// fallback, as in a session; the notes below say if a SOAC did.
	be.opts.Fallback = cpu.New(cpu.Options{})
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	shapes := [][2]int64{{0, 5}, {5, 0}, {0, 0}, {1, 1}, {7, 1}, {1, 7}, {5, 2}, {31, 3}, {32, 33}, {33, 32}, {1000, 31},
		{3, 1000}, {1 << 20, 2}, {2, 1 << 20}, {1 << 16, 40}}
	mk := func(n, m int64, salt int) eval.Value {
		xs := make([]int32, n*m)
		for i := range xs {
			xs[i] = int32(hash(i+salt)%2001) - 1000
		}
		return eval.Value{Elem: I32, Shape: []int64{n, m}, Data: xs}
	}
	for _, fn := range []string{"red_sum", "scan_sum", "red_lin", "scan_lin", "red_from", "red_wide"} {
		prog := futProg(t, vecopSrc, fn)
		for _, sh := range shapes {
			n, m := sh[0], sh[1]
			if int(n*m) > *maxN {
				continue
			}
			var args []eval.Value
			switch fn {
			case "red_lin", "scan_lin":
				as := mk(n, m, 0)
				for i, x := range as.Data.([]int32) {
					as.Data.([]int32)[i] = x%3 - 1
				}
				args = []eval.Value{as, mk(n, m, 7)}
			case "red_from":
				args = []eval.Value{scalar([]int32{-5}), mk(n, m, 0)}
			case "red_wide":
				// One more than the width: the size error when
				// there are rows, the replicate when there are none.
				args = []eval.Value{scalar([]int64{m + 1}), mk(n, m, 0)}
			default:
				args = []eval.Value{mk(n, m, 0)}
			}
			t.Run(fmt.Sprintf("%s_%dx%d", fn, n, m), func(t *testing.T) {
				var tm eval.Timings
				got, gerr := be.Run(ctx, prog, entryName(prog), args, &tm)
				want, werr := ref.Run(ctx, prog, entryName(prog), args, &eval.Timings{})
				if (gerr != nil) != (werr != nil) {
					t.Fatalf("gpu error %v, cpu error %v", gerr, werr)
				}
				if werr != nil {
					if !strings.Contains(gerr.Error(), "map2") {
						t.Errorf("gpu error %q, cpu %q", gerr, werr)
					}
					return
				}
				for _, note := range tm.Notes {
					if strings.Contains(note, "CPU") {
						t.Errorf("ran on the CPU: %s", note)
					}
				}
				if err := same(ctx, got, want); err != nil {
					t.Fatal(err)
				}
				free(got)
			})
		}
	}
}
