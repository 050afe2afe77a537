package gpu_test

import (
	"context"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/backends"
	"github.com/arepl/arepl/eval/gpu"
)

// TestNestPlans checks what the nest analysis makes of the shapes,
// through the plan lines (no GPU needed): the parallel index space, what
// each thread runs sequentially, and that nothing is left for the CPU.
func TestNestPlans(t *testing.T) {
	cases := []struct {
		file, entry string
		fused       bool
		want        []string // substrings of the plan, in order
	}{
		{"map2d.fut", "main", true, []string{"segmap [n_2][seg_f1]: 2 parallel level(s); tiling: none"}},
		{"map3d.fut", "main", true, []string{"segmap [n_2][n_4][seg_f1]: 3 parallel level(s)"}},
		// Unfused, the iotas of each level's prelude become index arithmetic.
		{"map3d.fut", "cube", false, []string{"segmap [n_1][m_2][p_3]: 3 parallel level(s)"}},
		{"mandelbrot.fut", "main", true, []string{"segmap [h_1][w_2]: 2 parallel level(s); sequential in each thread: loop while"}},
		// A thread per element of the product, the dot product sequential.
		{"matmul.fut", "mf32", true, []string{"tiled k1_tile_mm_", "tiling: 2-D: "}},
		// The row's sum must not be repeated per element: a thread per row.
		{"map_arrays.fut", "normalise", true, []string{"segmap [n_2]: 1 parallel level(s); sequential in each thread: reduce, map"}},
		// The generated grid, then each iteration's step inside the loop.
		{"stencil.fut", "big", true, []string{"segmap [n_20][n_21]: 2 parallel level(s)", "segmap [n_1][m_2]: 2 parallel level(s)"}},
		{"tridiag.fut", "main", true, []string{"sequential in each thread: thread-local array, in-place update, loop"}},
		// Column sums: a thread per column reads a in place; the transpose
		// is a view, not a kernel.
		{"rowcol.fut", "colsum", true, []string{"segred [n_3] over seg_f1: a thread per column of a_1, read in place", "tr_2: transpose of a_1, not materialised"}},
		// Row reductions: the strategy by segment length.
		{"rowcol.fut", "long", true, []string{"segred [n_1] over seg_f2: by segment length: up to 128 1-32 threads per segment, coalesced through shared memory", "N blocks per segment"}},
		// The k-means assignment, then hist over a map split off as a segmap.
		{"kmeans.fut", "main", true, []string{"sequential in each thread: redomap", "hist: the histogram module", "then hist (its own module)"}},
	}
	for _, c := range cases {
		s := backends.NewSession(eval.Options{Backend: "cpu", Fusion: c.fused})
		if _, err := s.Load(context.Background(), "../../testdata/nested/"+c.file); err != nil {
			t.Fatal(err)
		}
		comp, err := s.CompileCall(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := gpu.PlanLines(comp.Program)
		if err != nil {
			t.Fatalf("%s %s: %v", c.file, c.entry, err)
		}
		plan := strings.Join(lines, "\n")
		rest := plan
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s %s (fused %v): want %q in order in\n%s", c.file, c.entry, c.fused, w, plan)
				break
			}
			rest = rest[i+len(w):]
		}
		if strings.Contains(plan, "CPU:") {
			t.Errorf("%s %s: a statement is left for the CPU:\n%s", c.file, c.entry, plan)
		}
	}
}
