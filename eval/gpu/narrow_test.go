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

// TestNarrowDevice runs testdata/nested/stencil_narrow.fut's entries (and
// stencil_vec.fut's) under every layout of narrowLoop, with vector steps of
// one and two vectors a row (on by default, so taken
// wherever the rows' widths allow: the layouts run with them off), and
// with the 32-bit copy off, and compares
// them with the CPU interpreter: `arepl test` covers the default layout
// only.
func TestNarrowDevice(t *testing.T) {
	be := newTestBackend(t)
	if be == nil {
		return
	}
	be.opts.Fallback = cpu.New(cpu.Options{})
	srcs := map[string]string{}
	for _, f := range []string{"stencil_narrow", "stencil_vec"} {
		src, err := os.ReadFile("../../testdata/nested/" + f + ".fut")
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = string(src)
	}
	ctx := context.Background()
	oracle := cpu.New(cpu.Options{})
	cases := []struct {
		fn   string
		args [][]int64
	}{
		{"rows", [][]int64{{3, 70, 2}, {5, 130, 3}, {2, 64, 1}, {1, 200, 4}, {7, 33, 2}, {64, 1, 3}, {130, 3, 2}, {300, 257, 5}, {33, 97, 3}, {9, 132, 3}, {3, 4096, 2}, {5, 4, 3}}},
		{"cube", [][]int64{{2, 3, 70}, {2, 2, 130}, {3, 5, 64}, {4, 3, 2}, {2, 9, 100}}},
		{"offset", [][]int64{{3, 100, 1}, {3, 100, 1 << 40}, {2, 70, 2}}},
		// stencil_vec.fut's, at widths that are multiples of 4 and 8.
		{"fstencil", [][]int64{{3, 8, 3}, {5, 36, 2}, {2, 4096, 2}, {4, 16, 2}, {3, 12, 2}}},
		{"istencil", [][]int64{{4, 8, 3}, {5, 64, 2}, {3, 24, 2}, {3, 20, 2}, {2, 4097, 1}}},
		{"padded", [][]int64{{3, 8, 4}, {4, 12, 8}, {3, 16, 8}, {3, 16, 4}}},
		{"from1", [][]int64{{3, 8}, {2, 16}, {2, 12}}},
		{"multi", [][]int64{{3, 8}, {3, 16}, {2, 12}}},
	}
	type setting struct {
		name                       string
		narrow, vec, tile          bool
		points, layout, vecs, rows int
		adj                        bool // the host-checked path's rows neighbours (segmapVecAdj)
	}
	var settings []setting
	for _, p := range []int{1, 3, 4} {
		for _, l := range []int{layoutRow, layoutSpread, layoutColumn} {
			if p > 1 || l != layoutSpread { // one point spread is the row layout
				settings = append(settings, setting{fmt.Sprintf("p%d_l%d", p, l), true, false, true, p, l, 1, 1, false})
			}
		}
	}
	// The vector steps (vecstep.go), and the 64-bit copy.
	// The vector steps (vecstep.go) of one and two vectors a row, in tiles
	// and along the row, and the 64-bit copy.
	// Tiles run host-checked with a thread a step of one and two rows
	// (vecFast) and device-checked in the grid-stride loop (rows 0).
	settings = append(settings, setting{"vec4", true, true, true, segmapPoints, segmapLayout, 1, 1, false}, setting{"vec8", true, true, true, segmapPoints, segmapLayout, 2, 1, false},
		setting{"vec4r2", true, true, true, segmapPoints, segmapLayout, 1, 2, false}, setting{"vec8r2", true, true, true, segmapPoints, segmapLayout, 2, 2, false},
		setting{"vec4gs", true, true, true, segmapPoints, segmapLayout, 1, 0, false}, setting{"vec8gs", true, true, true, segmapPoints, segmapLayout, 2, 0, false},
		setting{"vec4row", true, true, false, segmapPoints, segmapLayout, 1, 1, false}, setting{"vec8row", true, true, false, segmapPoints, segmapLayout, 2, 1, false},
		setting{"vec4r2adj", true, true, true, segmapPoints, segmapLayout, 1, 2, true}, setting{"vec4r3adj", true, true, true, segmapPoints, segmapLayout, 1, 3, true},
		setting{"vec8r2adj", true, true, true, segmapPoints, segmapLayout, 2, 2, true},
		setting{"wide", false, false, true, 1, layoutRow, 1, 1, false})
	defer func(n, v, tl, adj bool, p, l, vs, rs int) {
		segmapNarrow, segmapVec4, segmapVecTile, segmapVecAdj, segmapPoints, segmapLayout, segmapVecs, segmapVecRows = n, v, tl, adj, p, l, vs, rs
	}(segmapNarrow, segmapVec4, segmapVecTile, segmapVecAdj, segmapPoints, segmapLayout, segmapVecs, segmapVecRows)
	for _, c := range cases {
		src := srcs["stencil_narrow"]
		if !strings.Contains(src, "entry "+c.fn+" ") {
			src = srcs["stencil_vec"]
		}
		prog := futProg(t, src, c.fn)
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
				segmapNarrow, segmapVec4, segmapVecTile, segmapPoints, segmapLayout, segmapVecs, segmapVecRows = s.narrow, s.vec, s.tile, s.points, s.layout, s.vecs, s.rows
				segmapVecAdj = s.adj
				// Each setting generates its own module, not the one the
				// backend remembers for the program (seen.go).
				be.seen.forget()
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

// TestVecRecognise checks which segmented maps get vector steps (no GPU
// needed): the stencils of testdata/nested/stencil_vec.fut read each row
// they need once a step as a 16-byte vector, the centre row's vector also
// giving the neighbours inside the four points; 8-byte elements, a read
// under a branch and maps that are not segmented maps keep the scalar body.
func TestVecRecognise(t *testing.T) {
	// With the host-checked path (vecFast), whose conditions the host
	// must be able to read.
	defer func(r int) { segmapVecRows = r }(segmapVecRows)
	segmapVecRows = 1
	src, err := os.ReadFile("../../testdata/nested/stencil_vec.fut")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fn      string
		vectors int      // vectors a step of the vector kernel loads (0: no vector kernel)
		lanes   []string // lanes of the vectors the kernel reads, at least these
	}{
		{"fstencil", 3, []string{"ar_vec0.w", "ar_vec2.y", "ar_vec2.w"}},
		{"istencil", 2, []string{"ar_vec0.w", "ar_vec1.x"}},
		{"padded", 1, []string{"ar_vec0.w"}},
		{"sliced", 2, []string{"ar_vec0.x", "ar_vec1.x"}},
		{"multi", 1, []string{"ar_vec0.w"}},
		{"from1", 1, []string{"ar_vec0.x", "ar_vec0.w"}},
		{"wide", 0, nil},
		{"branch", 0, nil},
		{"line", 0, nil},
	} {
		t.Run(c.fn, func(t *testing.T) {
			m, err := generate(futProg(t, string(src), c.fn), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			var vk []*kernel
			for _, ks := range m.kernels {
				for _, k := range ks {
					if k.Vector != "" {
						vk = append(vk, k)
					}
				}
			}
			if c.vectors == 0 {
				if len(vk) > 0 {
					t.Fatalf("%s has vector steps (%s), want none", vk[0].Name, vk[0].Vector)
				}
				return
			}
			if len(vk) == 0 {
				t.Fatalf("no kernel with vector steps:\n%s", m.body)
			}
			k := vk[0]
			// The step's text is once in the device-checked loop and
			// once a row in the host-checked path (vecFast).
			copies := 1
			if k.vecHost != nil {
				copies += k.vecHost.rows
			}
			if got := strings.Count(k.src, "uint4 ar_vec"); got != c.vectors*copies {
				t.Errorf("%s declares %d vectors, want %d:\n%s", k.Name, got, c.vectors*copies, k.src)
			}
			if got := strings.Count(k.src, "__ldg((const uint4 *)"); got != c.vectors*copies {
				t.Errorf("%s loads %d vectors, want %d", k.Name, got, c.vectors*copies)
			}
			if k.vecHost != nil {
				// Every condition is in the host's grammar: on
				// sizes that pass them all the host proves the path.
				vars := map[string]int64{"ar_n": 64 * 64, "ar_nt": 1 << 12, "ar_space0": 64, "ar_space1": 64, "ar_out0": 1 << 20}
				for _, p := range k.params {
					switch p.kind {
					case pScalar:
						vars[cname(p.v.Name)] = 64
					case pArray:
						vars[cname(p.v.Name)] = 1 << 24
					case pDim:
						vars[fmt.Sprintf("%s_d%d", cname(p.v.Name), p.k)] = 64
					}
				}
				for _, cond := range append(append(k.vecHost.conds, k.vecHost.lo...), k.vecHost.hi...) {
					if _, ok := hostEval(cond, vars); !ok {
						t.Errorf("the host cannot evaluate %q", cond)
					}
				}
			}
			for _, l := range c.lanes {
				if !strings.Contains(k.src, l) {
					t.Errorf("%s never reads lane %s:\n%s", k.Name, l, k.src)
				}
			}
			if !strings.Contains(k.src, "((uint4 *)ar_out0)[(ar_vg >> 2) + 0]") {
				t.Errorf("%s does not store its results as a vector", k.Name)
			}
			if !strings.Contains(m.body, "vector: 4 points of a row a thread") {
				t.Errorf("the module does not name its vector steps")
			}
		})
	}
}

// TestVecAdjacentShape checks the shape of the host-checked path with
// neighbouring rows (vecAdjacent): in the branch where every row is in the
// space, all rows' lanes come before the first store, and row u's results
// go to row u. TestNarrowDevice runs it against the CPU.
func TestVecAdjacentShape(t *testing.T) {
	defer func(r int, a bool) { segmapVecRows, segmapVecAdj = r, a }(segmapVecRows, segmapVecAdj)
	segmapVecRows, segmapVecAdj = 2, true
	src, err := os.ReadFile("../../testdata/nested/stencil_vec.fut")
	if err != nil {
		t.Fatal(err)
	}
	m, err := generate(futProg(t, string(src), "fstencil"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var vk *kernel
	for _, ks := range m.kernels {
		for _, k := range ks {
			if k.Vector != "" {
				vk = k
			}
		}
	}
	if vk == nil {
		t.Fatal("fstencil has no vector kernel")
	}
	i := strings.Index(vk.src, "const i32 ar_lvlb = ")
	if i < 0 {
		t.Fatalf("no neighbouring rows in:\n%s", vk.src)
	}
	adj := vk.src[i:]
	adj = adj[:strings.Index(adj, "    return;")]
	last := strings.LastIndex(adj, "ar_u1res0_3 = ")
	store := strings.Index(adj, "((uint4 *)ar_out0)")
	if last < 0 || store < 0 || store < last {
		t.Fatalf("row 1's last lane (%d) is not before the first store (%d):\n%s", last, store, adj)
	}
	for u := 0; u < 2; u++ {
		want := fmt.Sprintf("((uint4 *)ar_out0)[(((ar_lvlb + %d) * (i32)ar_space1 + ar_vc0) >> 2) + 0] = make_uint4(__float_as_uint(ar_u%dres0_0)", u, u)
		if !strings.Contains(adj, want) {
			t.Errorf("no store of row %d's results to row %d (%s):\n%s", u, u, want, adj)
		}
	}
}
