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

// seqScatterSrc scatters inside a map over rows: a permutation, indices
// out of range, and an indexed scatter into a fresh array.
const seqScatterSrc = `
def main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  map (\row -> let perm = map (\i -> (i * 7 + 3) % m) (iota m)
               let ys = scatter (copy row) [0, -1, m] [row[0] + 1, 5, 6]
               in scatter (replicate m 0) perm ys) xss
`

// TestSeqScatter checks that a scatter inside a map over rows is a
// segmented map with the scatter sequential in each thread (no GPU
// needed), and runs it on the GPU against the CPU interpreter where there
// is one.
func TestSeqScatter(t *testing.T) {
	prog := futProg(t, seqScatterSrc, "main")
	m, err := generate(prog, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.fallback) > 0 {
		t.Fatalf("statements on the CPU: %v", m.fallback)
	}
	if !strings.Contains(m.body, "ar_scratch") || strings.Count(m.body, "v_scatter") == 0 {
		t.Fatalf("no thread-local scatter in\n%s", m.body)
	}
	be := newTestBackend(t)
	if be == nil {
		return
	}
	// The scalar statements around the kernel (sizes, the row length's
	// arithmetic) run on the fallback, as in a session; the notes below
	// say if a SOAC did.
	be.opts.Fallback = cpu.New(cpu.Options{})
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	for _, sh := range [][2]int64{{0, 5}, {5, 0}, {1, 1}, {3, 2}, {33, 31}, {1000, 6}, {3, 1000}, {100000, 3}} {
		n, w := sh[0], sh[1]
		xs := make([]int32, n*w)
		for i := range xs {
			xs[i] = int32(hash(i)%2001) - 1000
		}
		args := []eval.Value{{Elem: I32, Shape: []int64{n, w}, Data: xs}}
		t.Run(fmt.Sprintf("%dx%d", n, w), func(t *testing.T) {
			var tm eval.Timings
			got, gerr := be.Run(ctx, prog, entryName(prog), args, &tm)
			want, werr := ref.Run(ctx, prog, entryName(prog), args, &eval.Timings{})
			// Rows of 0 fail on both (row[0] is out of bounds).
			if (gerr != nil) != (werr != nil) {
				t.Fatalf("gpu error %v, cpu error %v", gerr, werr)
			}
			if werr != nil {
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
