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

// segredSrc holds row and column reductions with map bodies: a commutative
// one (f32 sum of squares), a non-commutative one (composition of linear
// functions on i32, which wraps exactly, so every order but the right one
// shows).
const segredSrc = `
def lin (a: i32, b: i32) (c: i32, d: i32) : (i32, i32) = (a * c, b * c + d)
def rows_sq [n][m] (a: [n][m]f32) : [n]f32 = map (\row -> f32.sum (map (\x -> x * x) row)) a
def rows_lin [n][m] (a: [n][m]i32) : [n](i32, i32) =
  map (\row -> reduce lin (1, 0) (map (\x -> (x % 3 - 1, x)) row)) a
def cols_lin [n][m] (a: [n][m]i32) : [m](i32, i32) =
  map (\c -> reduce lin (1, 0) (map (\x -> (x % 3 - 1, x)) c)) (transpose a)
def cols_sq [n][m] (a: [n][m]f32) : [m]f32 = map (\c -> f32.sum (map (\x -> x * x) c)) (transpose a)
def cols_iota [n][m] (a: [n][m]i32) : [m](i32, i32) =
  map (\j -> reduce lin (1, 0) (map (\i -> let x = a[i, j] in (x % 3 - 1, x + i32.i64 i)) (iota n))) (iota m)
`

// TestSegRedStrategies checks the kernel each shape gets (no GPU needed):
// short rows the staged kernel, few long rows several blocks per row,
// columns of a transpose the column kernel with its rows split when the
// columns are few.
func TestSegRedStrategies(t *testing.T) {
	prog := futProg(t, segredSrc, "rows_sq")
	m, err := generate(prog, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var ks []*kernel
	for _, k := range m.kernels {
		if k[0].Kind == kSegRed {
			ks = k
		}
	}
	if ks == nil {
		t.Fatal("no segmented reduction")
	}
	occ := func(*kernel) int64 { return 8 }
	for _, k := range ks {
		if k.seg.strategy == segStaged && k.StageU() != 16 {
			t.Errorf("f32 rows: the staged kernel loads %d elements a thread, want 16", k.StageU())
		}
	}
	for _, c := range []struct {
		segs, w int64
		want    string
		parts   int64
	}{
		{1 << 28, 1, "segred_staged", 0},
		{1 << 26, 4, "segred_staged", 0},
		{1 << 23, 32, "segred_staged", 0},
		{1 << 21, 128, "segred_staged", 0},
		{1 << 20, 256, "segred_g32", 1},
		{1 << 12, 1 << 16, "segred_g256", 1},
		{256, 1 << 20, "segred_pieces", 4},
		{16, 1 << 24, "segred_pieces", 66},
		{3, 0, "segred_g32", 1},
		{600, 1 << 20, "segred_g256", 1},
	} {
		ch := pickSegRed(ks, c.segs, c.w, 132, occ)
		if !strings.HasSuffix(ch.k.Name, c.want) || ch.parts != c.parts {
			t.Errorf("%d rows of %d: %s with %d parts, want %s with %d", c.segs, c.w, ch.k.Name, ch.parts, c.want, c.parts)
		}
		if ch.parts > 1 && (ch.chunk*ch.parts < c.w || ch.chunk*(ch.parts-1) >= c.w) {
			t.Errorf("%d rows of %d: %d pieces of %d do not cover the row", c.segs, c.w, ch.parts, ch.chunk)
		}
	}
	cprog := futProg(t, segredSrc, "cols_sq")
	cm, err := generate(cprog, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var cols []*kernel
	views := 0
	for _, k := range cm.kernels {
		switch {
		case k[0].noFunction():
			views++
		case k[0].Kind == kSegRed:
			cols = k
		default:
			t.Errorf("column sums: an extra kernel %s (the transpose is materialised)", k[0].Name)
		}
	}
	if len(cols) != 1 || cols[0].seg.strategy != segCols || views != 1 {
		t.Fatalf("column sums: %d kernels, %d views; want one column kernel and one view", len(cols), views)
	}
	ch := pickSegRed(cols, 16384, 16384, 132, occ)
	if ch.grid != 64 || ch.gridY != 16 || ch.chunk != 1024 {
		t.Errorf("16384 columns of 16384: grid %d x %d, chunk %d; want 64 x 16, chunk 1024", ch.grid, ch.gridY, ch.chunk)
	}
	// The same by indexing: the column kernel, with no transpose at all.
	im, err := generate(futProg(t, segredSrc, "cols_iota"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range im.kernels {
		if k[0].Kind != kSegRed || k[0].seg.strategy != segCols || len(im.kernels) != 1 {
			t.Errorf("columns by indexing: kernel %s of %d, want only a column kernel", k[0].Name, len(im.kernels))
		}
	}
	ch = pickSegRed(cols, 1<<20, 16, 132, occ)
	if ch.gridY != 1 {
		t.Errorf("2^20 columns of 16: %d row pieces, want 1", ch.gridY)
	}
}

// TestSegRedDevice runs the row and column reductions on the GPU at the
// segment lengths of issue 15 and against the CPU interpreter: each
// strategy, the pieces of long rows and columns (ordered combines), and
// empty dimensions.
func TestSegRedDevice(t *testing.T) {
	be := newTestBackend(t)
	if be == nil {
		return
	}
	be.opts.Fallback = cpu.New(cpu.Options{})
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	shapes := [][2]int64{{0, 5}, {5, 0}, {0, 0}, {7, 1}, {5, 2}, {9, 3}, {100, 31}, {100, 32}, {100, 33}, {5000, 1}, {3000, 3},
		{2000, 64}, {1000, 100}, {300, 128}, {300, 129}, {40, 1000}, {3, 4097}, {2, 1 << 20}, {1 << 20, 2}, {1, 1 << 22}, {1 << 16, 40}}
	for _, fn := range []string{"rows_sq", "rows_lin", "cols_lin", "cols_sq", "cols_iota"} {
		prog := futProg(t, segredSrc, fn)
		for _, sh := range shapes {
			n, m := sh[0], sh[1]
			if int(n*m) > *maxN {
				continue
			}
			t.Run(fmt.Sprintf("%s_%dx%d", fn, n, m), func(t *testing.T) {
				var in eval.Value
				if strings.HasSuffix(fn, "_sq") {
					xs := make([]float32, n*m)
					for i := range xs {
						// Halves from -1 to 1: every partial sum of squares
						// is a multiple of 1/4 below 2^22, exact in f32,
						// so every order of summation gives the same bits.
						xs[i] = float32(int32(hash(i)%5)-2) / 2
					}
					in = eval.Value{Elem: F32, Shape: []int64{n, m}, Data: xs}
				} else {
					xs := make([]int32, n*m)
					for i := range xs {
						xs[i] = int32(hash(i)%2001) - 1000
					}
					in = eval.Value{Elem: I32, Shape: []int64{n, m}, Data: xs}
				}
				var tm eval.Timings
				got, err := be.Run(ctx, prog, entryName(prog), []eval.Value{in}, &tm)
				if err != nil {
					t.Fatal(err)
				}
				for _, note := range tm.Notes {
					if strings.Contains(note, "CPU") {
						t.Errorf("ran on the CPU: %s", note)
					}
				}
				want, err := ref.Run(ctx, prog, entryName(prog), []eval.Value{in}, &eval.Timings{})
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
