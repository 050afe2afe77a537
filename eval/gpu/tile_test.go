package gpu

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	. "github.com/arepl/arepl/lang/core"
)

// tileSrc holds the tiled shapes as Futhark source, and near misses that
// must stay on the general path.
const tileSrc = `
def mm_f32 [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\row -> map (\col -> f32.sum (map2 (*) row col)) (transpose b)) a
def mm_i32 [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
def mm_rows [n][m][p] (a: [n][m]f32) (bt: [p][m]f32) : [n][p]f32 =
  map (\r -> map (\c -> f32.sum (map2 (*) r c)) bt) a
def mm_maxplus [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> reduce i32.max i32.lowest (map2 (+) col row)) (transpose b)) a
def nbody1 [n] (xs: [n]f32) (ms: [n]f32) : [n]f32 =
  map (\x -> f32.sum (map2 (\y m -> m / (1 + (x - y) * (x - y))) xs ms)) xs
def nbody3 [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32) : ([n]f32, [n]f32, [n]f32) =
  unzip3 (map (\(x, y, z) ->
    reduce (\(a, b, c) (d, e, f) -> (a + d, b + e, c + f)) (0f32, 0f32, 0f32)
      (map2 (\(x2, y2, z2) m ->
         let dx = x2 - x
         let dy = y2 - y
         let dz = z2 - z
         let inv = 1 / f32.sqrt (dx * dx + dy * dy + dz * dz + 0.01)
         let s = m * inv * inv * inv
         in (dx * s, dy * s, dz * s)) (zip3 xs ys zs) ms)) (zip3 xs ys zs))
def last_greater [n] (xs: [n]f32) : [n]i64 =
  map (\x -> (reduce (\(i, a) (j, b) -> if b != 0 then (j, b) else (i, a)) (-1i64, 0i32)
                (map2 (\j y -> if y > x then (j, 1i32) else (-1i64, 0i32)) (iota n) xs)).0) xs
def not_invariant [n][m] (a: [n][m]f32) : [n]f32 =
  map (\row -> f32.sum (map (\x -> x * 2) row)) a
def fold_of_row [n] (xs: [n]f32) : [n]f32 =
  map (\x -> f32.sum (map (\y -> x * y) (map (\i -> f32.i64 i) (iota (i64.f32 x))))) xs
def two_folds [n] (xs: [n]f32) : [n]f32 =
  map (\x -> f32.sum (map (\y -> x * y) xs) + f32.maximum (map (\y -> x - y) xs)) xs
`

// tileProg compiles function fn of tileSrc (fused) for the GPU backend.
func tileProg(t testing.TB, fn string) *Program { return futProg(t, tileSrc, fn) }

// futProg compiles function fn of Futhark source src (fused).
func futProg(t testing.TB, src, fn string) *Program {
	t.Helper()
	s := eval.NewSession(eval.Options{Backend: "cpu", Fusion: true})
	if _, err := s.Eval(context.Background(), "prog.fut", src); err != nil {
		t.Fatal(err)
	}
	c, err := s.CompileCall(fn)
	if err != nil {
		t.Fatal(err)
	}
	return c.Program
}

func entryName(p *Program) string {
	for _, f := range p.Funs {
		if f.Entry {
			return f.Name
		}
	}
	return p.Funs[len(p.Funs)-1].Name
}

// TestTileRecognise checks which programs get tiled kernels (no GPU
// needed): the shapes of the issue do, near misses do not.
func TestTileRecognise(t *testing.T) {
	for _, c := range []struct {
		fn   string
		want string // kernel name part, "" for none
	}{
		{"mm_f32", "_tile_mm_128x128x8_r8x8"},
		{"mm_i32", "_tile_mm_64x64x8_r4x4"},
		{"mm_rows", "_tile_mm_"},
		{"mm_maxplus", "_tile_mm_"},
		{"nbody1", "_tile1d"},
		{"nbody3", "_tile1d"},
		{"not_invariant", ""},
		{"last_greater", "_tile1d"},
		{"two_folds", "_tile1d"}, // fused horizontally into one fold with two operators
		{"fold_of_row", ""},
	} {
		t.Run(c.fn, func(t *testing.T) {
			m, err := generate(tileProg(t, c.fn), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			tiledNames := []string{}
			for _, ks := range m.kernels {
				for _, k := range ks {
					if k.tile != nil {
						tiledNames = append(tiledNames, k.Name)
					}
				}
			}
			got := strings.Join(tiledNames, " ")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("tiled kernels %q, want one named *%s*", got, c.want)
			}
			if c.want != "" && !strings.Contains(m.body, "tiled") {
				t.Errorf("the module does not name its tiling:\n%s", m.body)
			}
		})
	}
}

// mmRef is the product in float64 (integers wrap to 32 bits), and for each
// element the sum of |a||b| that bounds its rounding.
func mmRef(a, b []float64, n, m, p int, rows bool, wrap bool) (ref, mag []float64) {
	ref, mag = make([]float64, n*p), make([]float64, n*p)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			var s, g float64
			var si int32
			for k := 0; k < m; k++ {
				bv := b[k*p+j]
				if rows {
					bv = b[j*m+k]
				}
				s += a[i*m+k] * bv
				g += math.Abs(a[i*m+k] * bv)
				si += int32(a[i*m+k]) * int32(bv)
			}
			if wrap {
				s = float64(si)
			}
			ref[i*p+j], mag[i*p+j] = s, g
		}
	}
	return ref, mag
}

// TestTileDevice runs the tiled kernels at many sizes (not multiples of
// any tile, 1 x n, n x 1, empty, both matrix-product variants) against Go
// references, and checks that the tiled kernel ran.
func TestTileDevice(t *testing.T) {
	be := newTestBackend(t)
	if be == nil {
		return
	}
	be.opts.Fallback = cpu.New(cpu.Options{}) // the scalar statements around the kernels
	ctx := context.Background()
	rng := rand.New(rand.NewSource(15))
	run := func(t *testing.T, prog *Program, args []eval.Value) []eval.Value {
		t.Helper()
		var tm eval.Timings
		res, err := be.Run(ctx, prog, entryName(prog), args, &tm)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tm.Notes {
			if strings.Contains(n, "CPU") {
				t.Errorf("ran on the CPU: %s", n)
			}
		}
		for i := range res {
			if res[i], err = res[i].Host(ctx); err != nil {
				t.Fatal(err)
			}
		}
		return res
	}
	sizes := [][3]int{{1, 1, 1}, {2, 3, 2}, {1, 300, 257}, {257, 300, 1}, {130, 70, 3}, {3, 70, 130},
		{127, 129, 131}, {128, 128, 128}, {64, 8, 64}, {65, 9, 63}, {1000, 17, 1023}, {1600, 77, 1500},
		{1100, 300, 1100}, {4, 0, 5}, {0, 3, 4}, {4, 3, 0}}
	for _, fn := range []string{"mm_f32", "mm_i32", "mm_rows", "mm_maxplus"} {
		prog := tileProg(t, fn)
		isInt := fn == "mm_i32" || fn == "mm_maxplus"
		for _, sz := range sizes {
			n, m, p := sz[0], sz[1], sz[2]
			if n*m > *maxN || m*p > *maxN || n*p > *maxN {
				continue
			}
			t.Run(fmt.Sprintf("%s_%dx%dx%d", fn, n, m, p), func(t *testing.T) {
				bn, bm := m, p
				if fn == "mm_rows" {
					bn, bm = p, m
				}
				a, b := make([]float64, n*m), make([]float64, bn*bm)
				for i := range a {
					a[i] = float64(rng.Intn(201) - 100)
				}
				for i := range b {
					b[i] = float64(rng.Intn(201) - 100)
				}
				if !isInt {
					for i := range a {
						a[i] /= 64
					}
					for i := range b {
						b[i] /= 64
					}
				}
				mk := func(xs []float64, r, c int) eval.Value {
					if isInt {
						d := make([]int32, len(xs))
						for i, x := range xs {
							d[i] = int32(x)
						}
						return eval.Value{Elem: I32, Shape: []int64{int64(r), int64(c)}, Data: d}
					}
					d := make([]float32, len(xs))
					for i, x := range xs {
						d[i] = float32(x)
					}
					return eval.Value{Elem: F32, Shape: []int64{int64(r), int64(c)}, Data: d}
				}
				res := run(t, prog, []eval.Value{mk(a, n, m), mk(b, bn, bm)})
				if want := []int64{int64(n), int64(p)}; fmt.Sprint(res[0].Shape) != fmt.Sprint(want) {
					t.Fatalf("shape %v, want %v", res[0].Shape, want)
				}
				if fn == "mm_maxplus" {
					for i := 0; i < n; i++ {
						for j := 0; j < p; j++ {
							want := int32(math.MinInt32)
							for k := 0; k < m; k++ {
								want = max(want, int32(a[i*m+k])+int32(b[k*p+j]))
							}
							if got := res[0].Data.([]int32)[i*p+j]; got != want {
								t.Fatalf("[%d][%d] = %d, want %d", i, j, got, want)
							}
						}
					}
					return
				}
				ref, mag := mmRef(a, b, n, m, p, fn == "mm_rows", isInt)
				bad := 0
				for i := range ref {
					var got float64
					if isInt {
						got = float64(res[0].Data.([]int32)[i])
						if got != ref[i] {
							bad++
						}
					} else {
						got = float64(res[0].Data.([]float32)[i])
						if math.Abs(got-ref[i]) > 1e-5*mag[i]+1e-6 || math.IsNaN(got) {
							bad++
						}
					}
					if bad == 1 {
						t.Errorf("element %d (row %d, column %d) = %v, want %v", i, i/max(p, 1), i%max(p, 1), got, ref[i])
						bad++
					}
				}
				if bad > 0 {
					t.Errorf("%d elements differ", bad-1)
				}
			})
		}
	}
	// The 1-D kernel with the inner dimension split as tile1DParts chooses
	// (0) and as 1, 2 and 4 threads a body.
	defer func() { forceParts = 0 }()
	for _, fn := range []string{"nbody1", "nbody3", "last_greater"} {
		prog := tileProg(t, fn)
		for _, n := range []int{1, 31, 255, 256, 257, 1023, 1024, 1025, 5000, 20000} {
			if n > *maxN/4 {
				continue
			}
			arrs := map[string]int{"nbody1": 2, "nbody3": 4, "last_greater": 1}[fn]
			in := make([][]float32, arrs)
			var args []eval.Value
			for k := range in {
				in[k] = make([]float32, n)
				for i := range in[k] {
					in[k][i] = float32(rng.Float64()*20 - 10)
					if k == arrs-1 && fn != "last_greater" {
						in[k][i] = float32(rng.Float64() + 0.1)
					}
				}
				args = append(args, eval.Value{Elem: F32, Shape: []int64{int64(n)}, Data: in[k]})
			}
			// want[c][i] and its rounding bound tol[c][i].
			comps := map[string]int{"nbody1": 1, "nbody3": 3, "last_greater": 1}[fn]
			want, tol := make([][]float64, comps), make([][]float64, comps)
			for c := range want {
				want[c], tol[c] = make([]float64, n), make([]float64, n)
			}
			for i := 0; i < n; i++ {
				switch fn {
				case "nbody1":
					var s, g float64
					x := float64(in[0][i])
					for j := 0; j < n; j++ {
						d := x - float64(in[0][j])
						v := float64(in[1][j]) / (1 + d*d)
						s, g = s+v, g+math.Abs(v)
					}
					want[0][i], tol[0][i] = s, 1e-5*g+1e-6
				case "nbody3":
					var acc, mag [3]float64
					for j := 0; j < n; j++ {
						var d [3]float64
						var d2 float64
						for c := 0; c < 3; c++ {
							d[c] = float64(in[c][j]) - float64(in[c][i])
							d2 += d[c] * d[c]
						}
						inv := 1 / math.Sqrt(d2+0.01)
						s := float64(in[3][j]) * inv * inv * inv
						for c := 0; c < 3; c++ {
							acc[c] += d[c] * s
							mag[c] += math.Abs(d[c] * s)
						}
					}
					for c := 0; c < 3; c++ {
						want[c][i], tol[c][i] = acc[c], 1e-4*mag[c]+1e-5
					}
				case "last_greater":
					want[0][i] = -1
					for j := 0; j < n; j++ {
						if in[0][j] > in[0][i] {
							want[0][i] = float64(j)
						}
					}
				}
			}
			for _, parts := range []int64{0, 1, 2, 4} {
				t.Run(fmt.Sprintf("%s_%d_parts%d", fn, n, parts), func(t *testing.T) {
					forceParts = parts
					res := run(t, prog, args)
					for c := range want {
						for i := 0; i < n; i++ {
							var got float64
							switch d := res[c].Data.(type) {
							case []float32:
								got = float64(d[i])
							case []int64:
								got = float64(d[i])
							}
							if math.Abs(got-want[c][i]) > tol[c][i] || math.IsNaN(got) {
								t.Fatalf("element %d component %d: %v, want %v", i, c, got, want[c][i])
							}
						}
					}
				})
			}
		}
	}
}
