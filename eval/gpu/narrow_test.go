package gpu

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	. "github.com/arepl/arepl/lang/core"
)

// TestNarrowDevice runs testdata/nested/stencil_narrow.fut's entries under
// every layout of narrowLoop (and with the 32-bit copy off) and compares
// them with the CPU interpreter: `arepl test` covers the default layout
// only.
func TestNarrowDevice(t *testing.T) {
	be := newTestBackend(t)
	if be == nil {
		return
	}
	be.opts.Fallback = cpu.New(cpu.Options{})
	src, err := os.ReadFile("../../testdata/nested/stencil_narrow.fut")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	oracle := cpu.New(cpu.Options{})
	cases := []struct {
		fn   string
		args [][]int64
	}{
		{"rows", [][]int64{{3, 70, 2}, {5, 130, 3}, {2, 64, 1}, {1, 200, 4}, {7, 33, 2}, {64, 1, 3}, {130, 3, 2}, {300, 257, 5}, {33, 97, 3}}},
		{"cube", [][]int64{{2, 3, 70}, {2, 2, 130}, {3, 5, 64}, {4, 3, 2}, {2, 9, 100}}},
		{"offset", [][]int64{{3, 100, 1}, {3, 100, 1 << 40}, {2, 70, 2}}},
	}
	type setting struct {
		name           string
		narrow         bool
		points, layout int
	}
	var settings []setting
	for _, p := range []int{1, 3, 4} {
		for _, l := range []int{layoutRow, layoutSpread, layoutColumn} {
			if p > 1 || l != layoutSpread { // one point spread is the row layout
				settings = append(settings, setting{fmt.Sprintf("p%d_l%d", p, l), true, p, l})
			}
		}
	}
	settings = append(settings, setting{"wide", false, 1, layoutRow})
	defer func(n bool, p, l int) { segmapNarrow, segmapPoints, segmapLayout = n, p, l }(segmapNarrow, segmapPoints, segmapLayout)
	for _, c := range cases {
		prog := futProg(t, string(src), c.fn)
		for _, a := range c.args {
			var args []eval.Value
			for _, v := range a {
				args = append(args, eval.Scalar(IntConst(I64, v)))
			}
			want, err := oracle.Run(ctx, prog, entryName(prog), args, &eval.Timings{})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range settings {
				segmapNarrow, segmapPoints, segmapLayout = s.narrow, s.points, s.layout
				var tm eval.Timings
				got, err := be.Run(ctx, prog, entryName(prog), args, &tm)
				if err != nil {
					t.Errorf("%s%v %s: %v", c.fn, a, s.name, err)
					continue
				}
				for _, n := range tm.Notes {
					if strings.Contains(n, "CPU") {
						t.Errorf("%s%v %s ran on the CPU: %s", c.fn, a, s.name, n)
					}
				}
				if fmt.Sprint(got[0].Data) != fmt.Sprint(want[0].Data) {
					t.Errorf("%s%v %s: got %v, want %v", c.fn, a, s.name, got[0].Data, want[0].Data)
				}
			}
		}
	}
}
