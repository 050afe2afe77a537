package gpu

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	. "github.com/arepl/arepl/lang/core"
)

// TestEmptyShapes checks, without a GPU, the shapes a segmented map gives
// its array results when its index space is empty and no thread runs:
// the host computes them from the nest analysis (emptyShapes, as
// launchSegMap does), and they must be the CPU interpreter's. The in-thread
// scatter gave [0][0] for [0][3] on an H200 (02330da) because the analysis
// did not follow a scatter's destination.
func TestEmptyShapes(t *testing.T) {
	cases := []struct {
		name   string
		fused  bool
		src    string
		shapes [][]int64 // shapes of the argument xss, each with an empty dimension
	}{
		{"scatter into a replicate", true,
			`def main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\row -> scatter (replicate m 0) (map (\i -> m - 1 - i) (iota m)) row) xss`,
			[][]int64{{0, 3}, {0, 0}}},
		{"scatter into a replicate, unfused", false,
			`def main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\row -> scatter (replicate m 0) (map (\i -> m - 1 - i) (iota m)) row) xss`,
			[][]int64{{0, 3}, {0, 0}}},
		{"scatter into a copy", true,
			`def main [n][m] (xss: [n][m]f32) : [n][m]f32 = map (\row -> scatter (copy row) [0, -1, m] [1, 2, 3]) xss`,
			[][]int64{{0, 4}, {0, 0}}},
		{"two scatters", true,
			`def main [n][m] (xss: [n][m]i32) : [n][m]i32 =
			   map (\row -> let ys = scatter (copy row) [0] [1] in scatter (replicate m 0) (map (\i -> (i * 7 + 3) % m) (iota m)) ys) xss`,
			[][]int64{{0, 5}}},
		// Unfused: fused, the CPU's segmented map gives [0][2][0] at
		// [0][2][3] (eval/cpu's segmented at zero segments).
		{"scatter in a 3-D nest", false,
			`def main [k][n][m] (xsss: [k][n][m]i32) : [k][n][m]i32 = map (\xss -> map (\row -> scatter (copy row) [0] [7]) xss) xsss`,
			[][]int64{{0, 2, 3}, {2, 0, 3}}},
		{"a slice from 0", true,
			`def main [n][m] (xss: [n][m]i32) : [n][]i32 = map (\r -> r[0:2]) xss`,
			[][]int64{{0, 3}}},
		{"a strided slice", true,
			`def main [n][m] (xss: [n][m]i32) : [n][]i32 = map (\r -> r[1:6:2]) xss`,
			[][]int64{{0, 7}}},
		{"a concatenation", true,
			`def main [n][m] (xss: [n][m]i32) : [n][]i32 = map (\r -> concat (reverse r) (rotate 1 r)) xss`,
			[][]int64{{0, 4}, {0, 0}}},
		{"an in-place update", true,
			`def main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\r -> let c = copy r let c[0] = 5 in c) xss`,
			[][]int64{{0, 3}}},
		{"a scan of each row", true,
			`def main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\r -> let s = i32.sum r in scan (+) s (map (+1) r)) xss`,
			[][]int64{{0, 4}, {0, 0}}},
		{"a loop of in-place updates", true,
			`def main [n][m] (xss: [n][m]f32) : [n][m]f32 = map (\r -> loop acc = copy r for i < m - 1 do let acc[i + 1] = acc[i + 1] + acc[i] in acc) xss`,
			[][]int64{{0, 3}}},
		{"a scan of each row, unfused", false,
			`def main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\r -> let s = i32.sum r in scan (+) s (map (+1) r)) xss`,
			[][]int64{{0, 4}}},
	}
	ctx := context.Background()
	for _, c := range cases {
		for _, shape := range c.shapes {
			t.Run(fmt.Sprintf("%s %v", c.name, shape), func(t *testing.T) {
				prog := futProgFused(t, c.src, "main", c.fused)
				m, err := generate(prog, DefaultLimits)
				if err != nil {
					t.Fatal(err)
				}
				var f *Fun
				for _, fn := range prog.Funs {
					if fn.Name == "main" {
						f = fn
					}
				}
				size := int64(1)
				for _, d := range shape {
					size *= d
				}
				arg := eval.Value{Elem: f.Params[len(f.Params)-1].Type.Elem, Shape: shape, Data: eval.MakeSlice(f.Params[len(f.Params)-1].Type.Elem, int(size))}
				env := map[string]eval.Value{}
				var args []eval.Value
				for _, p := range f.Params {
					if p.Type.IsArray() {
						env[p.Name] = arg
						args = append(args, arg)
					}
				}
				// The host runs the statements before the map (sizes) itself.
				r := &run{ctx: ctx, prog: prog, t: &eval.Timings{}, notes: map[string]bool{}}
				var k *kernel
				var s *Stmt
				for _, st := range f.Body.Stmts {
					if ks := m.kernels[st]; ks != nil && ks[0].Kind == kSegMap {
						k, s = ks[0], st
						break
					}
					if ok, err := r.trivial(st, env); !ok || err != nil {
						t.Fatalf("%s before the segmented map is not a host statement (%v)", PrintStmt(st), err)
					}
				}
				if k == nil {
					t.Fatalf("no segmented map: %v\n%s", m.fallback, Print(prog))
				}
				if len(m.fallback) > 0 {
					t.Fatalf("statements on the CPU: %v", m.fallback)
				}
				var space []int64
				for _, l := range k.Nest.Levels {
					d, err := r.hostDim(l.Dim, env)
					if err != nil {
						t.Fatal(err)
					}
					space = append(space, d)
				}
				if !slices.Contains(space, 0) {
					t.Fatalf("index space %v is not empty", space)
				}
				dims, ok := r.emptyShapes(k.Nest, env)
				if !ok {
					t.Fatalf("the host does not know the shapes of %s's results: %s", PrintStmt(s), unknownDims(k.Nest))
				}
				want, err := cpu.New(cpu.Options{}).Run(ctx, prog, "main", args, &eval.Timings{})
				if err != nil {
					t.Fatal(err)
				}
				if len(want) != 1 || len(s.Pat) != 1 || f.Body.Result[0].(*Var).Name != s.Pat[0].Name {
					t.Fatalf("the map's result is not main's only result")
				}
				got := append(append([]int64(nil), space...), dims[0]...)
				if !slices.Equal(got, want[0].Shape) {
					t.Errorf("shape %v at an empty index space, the CPU gives %v", got, want[0].Shape)
				}
			})
		}
	}
}

// futProgFused is futProg with fusion on or off.
func futProgFused(t testing.TB, src, fn string, fused bool) *Program {
	t.Helper()
	s := eval.NewSession(eval.Options{Backend: "cpu", Fusion: fused})
	if _, err := s.Eval(context.Background(), "prog.fut", src); err != nil {
		t.Fatal(err)
	}
	c, err := s.CompileCall(fn)
	if err != nil {
		t.Fatal(err)
	}
	return c.Program
}

// dropSrc makes rows whose length the host cannot compute before the
// launch (m-1, a slice with a variable start): at zero rows the map runs on
// the CPU, which gives the results that length.
const dropSrc = `def main [n][m] (xss: [n][m]i32) : [n][]i32 = map (\row -> map (* 2) row[1:m]) xss`

// TestEmptyOnCPU checks that a segmented map whose result shape the host
// does not know is listed (no GPU needed) and, on the GPU, runs on the CPU
// at an empty index space only, with the CPU's shape, saying so.
func TestEmptyOnCPU(t *testing.T) {
	prog := futProg(t, dropSrc, "main")
	unknown, err := UnknownResultDims(prog)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 1 {
		t.Fatalf("want the map listed as of unknown result shape, got %v", unknown)
	}
	be := newTestBackend(t)
	if be == nil {
		return
	}
	be.opts.Fallback = cpu.New(cpu.Options{})
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	for _, sh := range [][2]int64{{0, 4}, {0, 1}, {3, 4}, {1000, 7}} {
		n, w := sh[0], sh[1]
		xs := make([]int32, n*w)
		for i := range xs {
			xs[i] = int32(hash(i)%2001) - 1000
		}
		args := []eval.Value{{Elem: I32, Shape: []int64{n, w}, Data: xs}}
		t.Run(fmt.Sprintf("%dx%d", n, w), func(t *testing.T) {
			var tm eval.Timings
			got, err := be.Run(ctx, prog, entryName(prog), args, &tm)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.Run(ctx, prog, entryName(prog), args, &eval.Timings{})
			if err != nil {
				t.Fatal(err)
			}
			onCPU := false
			for _, note := range tm.Notes {
				onCPU = onCPU || strings.Contains(note, "index space is empty")
			}
			if onCPU != (n == 0) {
				t.Errorf("ran on the CPU: %v, want %v (notes %q)", onCPU, n == 0, tm.Notes)
			}
			if !slices.Equal(got[0].Shape, want[0].Shape) {
				t.Fatalf("shape %v, the CPU gives %v", got[0].Shape, want[0].Shape)
			}
			if err := same(ctx, got, want); err != nil {
				t.Fatal(err)
			}
			free(got)
		})
	}
}
