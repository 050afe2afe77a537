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

// vecsplitSrc holds reductions and scans with vector operators whose rows a
// fused map makes (redomaps, scanomaps), neutral elements written as maps
// that ignore their argument (lang/ad's zeros) or as literals, and a
// non-commutative operator whose map2 takes the rows in the other order
// (lang/ad's suffix products).
const vecsplitSrc = `
def scaled [n][m] (xss: [n][m]i32) (ks: [n]i32) : [m]i32 =
  reduce (map2 (+)) (replicate m 0) (map2 (\xs k -> map (* k) xs) xss ks)
def onehot (m: i64) (xs: []i32) : [m]i32 =
  reduce (map2 (+)) (replicate m 0) (map (\i -> copy (replicate m 0) with [i % m] = xs[i]) (indices xs))
def max_zeros [m] (xss: [][m]i32) : [m]i32 =
  reduce (map2 i32.max) (map (\_ -> i32.lowest) (iota m)) xss
def scaled_zeros [n][m] (xss: [n][m]i32) (ks: [n]i32) : [m]i32 =
  reduce (map2 (+)) (map (\_ -> 0) (iota m)) (map2 (\xs k -> map (* k) xs) xss ks)
def lit_max (xss: [][3]i32) : [3]i32 = reduce (map2 i32.max) [-7, -7, -7] xss
def scaled_scan [n][m] (xss: [n][m]i32) (ks: [n]i32) : [n][m]i32 =
  scan (map2 (+)) (replicate m 0) (map2 (\xs k -> map (* k) xs) xss ks)
def flip_lin [m] (as: [][m]i32) (bs: [][m]i32) : [][m](i32, i32) =
  scan (\x y -> map2 (\(a, b) (c, d) -> (a * c, b * c + d)) y x) (replicate m (1, 0)) (map2 zip as bs)
`

// TestVectorRedomapSplit checks, without a GPU, that a redomap or scanomap
// with a vector operator runs as a segmented map into rows and then a
// column kernel (vecsplit.go), and that neutral elements written as a map
// or a literal, and a map2 taking the rows in the other order, take the
// column kernels, fused and unfused; nothing stays on the CPU.
func TestVectorRedomapSplit(t *testing.T) {
	for _, c := range []struct {
		fn    string
		split bool // fused: a redomap split into a segmented map and a column kernel
	}{{"scaled", true}, {"onehot", true}, {"max_zeros", false}, {"scaled_zeros", true},
		{"lit_max", false}, {"scaled_scan", true}, {"flip_lin", false}} {
		for _, fused := range []bool{true, false} {
			m, err := generate(futProgFused(t, vecsplitSrc, c.fn, fused), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.fallback) > 0 {
				t.Errorf("%s (fused %v): statements on the CPU: %v", c.fn, fused, m.fallback)
				continue
			}
			want := segCols
			if strings.HasSuffix(c.fn, "scan") || c.fn == "flip_lin" {
				want = segColScan
			}
			cols := 0
			for _, ks := range m.kernels {
				if ks[0].Kind == kSegRed && ks[0].seg.strategy == want && ks[0].seg.cols != nil {
					cols++
				}
			}
			if cols != 1 {
				t.Errorf("%s (fused %v): %d column kernels, want 1", c.fn, fused, cols)
			}
			if !fused || !c.split {
				continue
			}
			if len(m.split) != 1 {
				t.Fatalf("%s: %d split statements, want 1", c.fn, len(m.split))
			}
			for _, parts := range m.split {
				first, second := m.kernels[parts[0]], m.kernels[parts[1]]
				if len(first) != 1 || first[0].Kind != kSegMap {
					t.Errorf("%s: the rows are not made by a segmented map: %v", c.fn, first)
				}
				if len(second) != 1 || second[0].seg.strategy != want {
					t.Errorf("%s: the rows are not reduced by a column kernel: %v", c.fn, second)
				}
				if r := parts[0].Pat[0].Type; r.Rank != 2 {
					t.Errorf("%s: the rows have type %s, want a rank-2 array", c.fn, r)
				}
			}
		}
	}
}

// TestVectorRedomapDevice runs vecsplitSrc on the GPU against the CPU
// interpreter, fused and unfused, at few and many columns and rows and at
// empty dimensions.
func TestVectorRedomapDevice(t *testing.T) {
	be := newTestBackend(t)
	if be == nil {
		return
	}
	be.opts.Fallback = cpu.New(cpu.Options{})
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	shapes := [][2]int64{{0, 5}, {5, 0}, {1, 1}, {7, 1}, {1, 7}, {31, 3}, {33, 32}, {1000, 31}, {3, 1000}, {1 << 16, 2}, {1 << 12, 40}}
	mk := func(shape []int64, salt int) eval.Value {
		size := int64(1)
		for _, d := range shape {
			size *= d
		}
		xs := make([]int32, size)
		for i := range xs {
			xs[i] = int32(hash(i+salt)%2001) - 1000
		}
		return eval.Value{Elem: I32, Shape: shape, Data: xs}
	}
	for _, fn := range []string{"scaled", "onehot", "max_zeros", "scaled_zeros", "lit_max", "scaled_scan", "flip_lin"} {
		for _, fused := range []bool{true, false} {
			prog := futProgFused(t, vecsplitSrc, fn, fused)
			for _, sh := range shapes {
				n, m := sh[0], sh[1]
				if fn == "lit_max" {
					m = 3
				}
				if int(n*m) > *maxN || fn == "onehot" && m == 0 {
					continue
				}
				var args []eval.Value
				switch fn {
				case "flip_lin":
					as := mk([]int64{n, m}, 0)
					for i, x := range as.Data.([]int32) {
						as.Data.([]int32)[i] = x%3 - 1
					}
					args = []eval.Value{as, mk([]int64{n, m}, 7)}
				case "scaled", "scaled_zeros", "scaled_scan":
					args = []eval.Value{mk([]int64{n, m}, 0), mk([]int64{n}, 3)}
				case "onehot":
					args = []eval.Value{scalar([]int64{m}), mk([]int64{n}, 0)}
				default:
					args = []eval.Value{mk([]int64{n, m}, 0)}
				}
				t.Run(fmt.Sprintf("%s_%v_%dx%d", fn, fused, n, m), func(t *testing.T) {
					var tm eval.Timings
					got, gerr := be.Run(ctx, prog, entryName(prog), args, &tm)
					want, werr := ref.Run(ctx, prog, entryName(prog), args, &eval.Timings{})
					if gerr != nil || werr != nil {
						t.Fatalf("gpu error %v, cpu error %v", gerr, werr)
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
}
