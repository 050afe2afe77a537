package gpu

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	"github.com/arepl/arepl/eval/gpu/cuda"
	. "github.com/arepl/arepl/lang/core"
)

// TestNarrowDevice runs testdata/nested/stencil_narrow.fut's entries (and
// stencil_vec.fut's) under every layout of narrowLoop, with vector steps of
// one and two vectors a row (on by default, so taken
// wherever the rows' widths allow: the layouts run with them off), and
// with the 32-bit copy off, and compares
// them with the CPU interpreter: `arepl test` covers the default layout
// only.
// narrowSettings limits TestNarrowDevice to some of its settings (each
// compiles a module a program and input: all of them take ~2 minutes).
var narrowSettings = flag.String("gpu.narrow", "", "comma-separated TestNarrowDevice settings to run (default all), e.g. vec4r2adj,vec4gs")

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
		{"shifts", [][]int64{{3, 8, 6}, {2, 16, 5}}},
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
	if *narrowSettings != "" {
		var keep []setting
		for _, s := range settings {
			if slices.Contains(strings.Split(*narrowSettings, ","), s.name) {
				keep = append(keep, s)
			}
		}
		if len(keep) == 0 {
			t.Fatalf("-gpu.narrow %q names no setting", *narrowSettings)
		}
		settings = keep
	}
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

// fstencilKernel generates stencil_vec.fut's fstencil with the knobs as
// they are and returns its last kernel that want accepts.
func fstencilKernel(t *testing.T, want func(*kernel) bool) *kernel {
	t.Helper()
	src, err := os.ReadFile("../../testdata/nested/stencil_vec.fut")
	if err != nil {
		t.Fatal(err)
	}
	m, err := generate(futProg(t, string(src), "fstencil"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var found *kernel
	for _, ks := range m.kernels {
		for _, k := range ks {
			if want(k) {
				found = k
			}
		}
	}
	if found == nil {
		t.Fatal("fstencil has no kernel of the kind the test looks for")
	}
	return found
}

// TestVecAdjacentShape checks the shape of the host-checked path with
// neighbouring rows (vecAdjacent): in the branch where every row is in the
// space, all rows' lanes come before the first store, and row u's results
// go to row u. TestNarrowDevice runs it against the CPU.
func TestVecAdjacentShape(t *testing.T) {
	defer func(r int, a bool) { segmapVecRows, segmapVecAdj = r, a }(segmapVecRows, segmapVecAdj)
	segmapVecRows, segmapVecAdj = 2, true
	vk := fstencilKernel(t, func(k *kernel) bool { return k.Vector != "" })
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

// TestVecHostCache checks checkCached, the host-checked path's answers
// remembered by launch: its answer is check's, a loop's arrays changing
// places (other pointers, the same alignment) reuse it, and another
// alignment or another shape asks check again; where a condition names a
// pointer otherwise than for its alignment, pointers enter the key whole.
func TestVecHostCache(t *testing.T) {
	k := fstencilKernel(t, func(k *kernel) bool { return k.vecHost != nil })
	// A launch over 64 × width with the arrays at base and the result at out.
	launch := func(h *vecHost, width int64, base, out cuda.Ptr) (int32, int32, bool, map[string]int64) {
		var env0 []any
		for _, p := range k.params {
			switch p.kind {
			case pErr:
				env0 = append(env0, cuda.Ptr(0x100))
			case pScalar:
				env0 = append(env0, width)
			case pArray:
				env0 = append(env0, base)
			case pDim:
				env0 = append(env0, width)
			}
		}
		outs := []*devArray{{mem: &devMem{ptr: out}}}
		space := []int64{64, width}
		nt := h.grid(64, width) * 256
		lo, hi, ok := h.checkCached(k, env0, outs, space, 64*width, nt)
		return lo, hi, ok, segmapHostVars(k, env0, outs, space, 64*width, nt)
	}
	h := k.vecHost
	for _, c := range []struct {
		width     int64
		base, out cuda.Ptr
		ok        bool
		answers   int
	}{
		{64, 1 << 20, 1 << 24, true, 1},
		{64, 1 << 24, 1 << 20, true, 1},            // the loop's arrays swapped: the same answer
		{64, 3 << 20, 5 << 24, true, 1},            // other arrays, aligned alike
		{64, 1 << 20, (1 << 24) + 4, false, 2},     // a misaligned result
		{64, (1 << 20) + 8, 1 << 24, false, 3},     // a misaligned array
		{68, 1 << 20, 1 << 24, true, 4},            // another width
		{64, (5 << 20) + 4, 1 << 20, false, 3 + 2}, // misaligned again, at another address
	} {
		lo, hi, ok, vars := launch(h, c.width, c.base, c.out)
		wlo, whi, wok := h.check(vars)
		if ok != c.ok || ok != wok || lo != wlo || hi != whi {
			t.Errorf("width %d, arrays %#x, result %#x: checkCached %d, %d, %v; check %d, %d, %v; want ok %v", c.width, c.base, c.out, lo, hi, ok, wlo, whi, wok, c.ok)
		}
		if len(h.answers) != c.answers {
			t.Errorf("width %d, arrays %#x, result %#x: %d answers remembered, want %d", c.width, c.base, c.out, len(h.answers), c.answers)
		}
	}
	// A condition that compares the pointers themselves: every new
	// address is a new key.
	whole := &vecHost{conds: append(append([]string{}, h.conds...), "ar_out0 != 0"), lo: h.lo, hi: h.hi, width: h.width, rows: h.rows, th: h.th}
	launch(whole, 64, 1<<20, 1<<24)
	launch(whole, 64, 1<<24, 1<<20)
	if whole.ptrKey != 2 || len(whole.answers) != 2 {
		t.Errorf("a condition on a whole pointer: key mode %d, %d answers; want 2, 2", whole.ptrKey, len(whole.answers))
	}
}
