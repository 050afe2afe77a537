package gpu

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	. "github.com/arepl/arepl/lang/core"
)

var scanLarge = flag.Int("gpu.scanlarge", 1<<24, "largest size TestScanDevice runs (2^31+5 checks 64-bit offsets)")

// The kernel variant TestScanDevice checks (Limits.ScanBlock, Seq and
// ScanMinBlocks); zero values are the shipped choice.
var (
	scanBlockFlag     = flag.Int("gpu.scanblock", 0, "scan block size TestScanDevice uses (0: the default)")
	scanSeqFlag       = flag.Int("gpu.scanseq", 0, "scan elements per thread TestScanDevice uses (0: the formula)")
	scanMinBlocksFlag = flag.Int("gpu.scanminblocks", 0, "minimum blocks per multiprocessor of the scan kernels TestScanDevice uses")
	scanDetFlag       = flag.Bool("gpu.scandet", false, "TestScanDevice runs the float scans in deterministic mode")
	scanSpreadFlag    = flag.Int("gpu.scanspread", 0, "Limits.ScanStateSpread of TestScanDevice (look-back states spaced that many times their size)")
)

// A scanProg is a program whose first statement of kind scan, segmented
// scan or filter is what the test is about; inputs come from in(n), where n
// is the number of elements (rows of seg elements for segmented programs).
type scanProg struct {
	name  string
	build func() *Program
	in    func(n int, seg int) []eval.Value
	seg   bool // segmented: runs at every segment length of scanSegLens
}

var scanSegLens = []int{1, 2, 3, 31, 32, 33, 1000}

func i32v(n int, lo, hi int32) eval.Value { return arr(i32s(n, lo, hi)) }

func i32Param(name string) *Var { return &Var{Name: name, Type: ArrayOf(I32, 1)} }

// linOp is the composition of linear functions (a,b) ⊕ (c,d) = (c*a, c*b+d)
// on t: associative, not commutative.
func linOp(b *Builder, t PrimType) *Lambda {
	s := Scalar(t)
	return b.Lambda([]Type{s, s, s, s}, func(lb *Builder, p []*Var) []Atom {
		return []Atom{lb.BinOp(Mul, p[2], p[0]), lb.BinOp(Add, lb.BinOp(Mul, p[2], p[1]), p[3])}
	})
}

// msspScanOp is the maximum-segment-sum operator of buildMSSP, on et.
func msspScanOp(b *Builder, et PrimType) *Lambda {
	t := Scalar(et)
	return b.Lambda([]Type{t, t, t, t, t, t, t, t}, func(lb *Builder, p []*Var) []Atom {
		mss := lb.BinOp(Max, p[0], lb.BinOp(Max, p[4], lb.BinOp(Add, p[2], p[5])))
		mis := lb.BinOp(Max, p[1], lb.BinOp(Add, p[3], p[5]))
		mcs := lb.BinOp(Max, p[6], lb.BinOp(Add, p[2], p[7]))
		ts := lb.BinOp(Add, p[3], p[7])
		return []Atom{mss, mis, mcs, ts}
	})
}

func one(in func(n int) eval.Value) func(int, int) []eval.Value {
	return func(n, _ int) []eval.Value { return []eval.Value{in(n)} }
}

func scanProgs() []scanProg {
	z32 := IntConst(I32, 0)
	return []scanProg{
		{name: "scan_i32", in: one(func(n int) eval.Value { return i32v(n, -1000, 1000) }), build: func() *Program {
			xs := i32Param("xs_1")
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				return []Atom{b.Scan(b.Size(xs, 0), []*Var{xs}, b.BinOpLambda(Add, I32), []Atom{z32})[0]}
			})
		}},
		{name: "scan_u8_max", in: one(func(n int) eval.Value {
			xs := make([]uint8, n)
			for i := range xs {
				xs[i] = uint8(hash(i))
			}
			return arr(xs)
		}), build: func() *Program {
			xs := &Var{Name: "xs_1", Type: ArrayOf(U8, 1)}
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				return []Atom{b.Scan(b.Size(xs, 0), []*Var{xs}, b.BinOpLambda(Max, U8), []Atom{IntConst(U8, 0)})[0]}
			})
		}},
		{name: "scan_f64", in: one(func(n int) eval.Value {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(int(hash(i)%64)) / 4 // exact sums
			}
			return arr(xs)
		}), build: func() *Program {
			xs := &Var{Name: "xs_1", Type: ArrayOf(F64, 1)}
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				return []Atom{b.Scan(b.Size(xs, 0), []*Var{xs}, b.BinOpLambda(Add, F64), []Atom{FloatConst(F64, 0)})[0]}
			})
		}},
		{name: "scanomap_index_mapout", in: one(func(n int) eval.Value { return i32v(n, -50, 50) }), build: func() *Program {
			// ys, zs = scanomap: ys = scan (+) 0 (map (\x i -> x*x + i32 i)), zs = x+1 (a map-out)
			xs := i32Param("xs_1")
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				idx := b.Fresh("i", Scalar(I64))
				f := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					return []Atom{lb.BinOp(Add, lb.BinOp(Mul, p[0], p[0]), lb.Conv(I32, idx)), lb.BinOp(Add, p[0], IntConst(I32, 1))}
				})
				r := b.Bind("s", &Screma{W: b.Size(xs, 0), Arrs: []*Var{xs}, Index: idx, Map: f,
					Scans: []*ScanOp{{Lambda: b.BinOpLambda(Add, I32), Neutral: []Atom{z32}}}})
				return []Atom{r[0], r[1]}
			})
		}},
		{name: "mssp_scan", in: one(func(n int) eval.Value { return i32v(n, -10, 10) }), build: func() *Program {
			xs := i32Param("xs_1")
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				f := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					m := lb.BinOp(Max, p[0], z32)
					return []Atom{m, m, m, p[0]}
				})
				r := b.Bind("s", &Screma{W: b.Size(xs, 0), Arrs: []*Var{xs}, Map: f,
					Scans: []*ScanOp{{Lambda: msspScanOp(b, I32), Neutral: []Atom{z32, z32, z32, z32}}}})
				return []Atom{r[0], r[1], r[2], r[3]}
			})
		}},
		{name: "mssp_i64_post", in: one(func(n int) eval.Value {
			xs := make([]int64, n)
			for i, x := range i32s(n, -20, 20) {
				xs[i] = int64(x) << 33 // beyond 32 bits
			}
			return arr(xs)
		}), build: func() *Program {
			// MSSP on i64 with the index in the map and a post-map: a
			// scan whose store recomputes (scanKernel.recomputes) with
			// 8-byte staged inputs and results.
			xs := &Var{Name: "xs_1", Type: ArrayOf(I64, 1)}
			z64 := IntConst(I64, 0)
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				idx := b.Fresh("i", Scalar(I64))
				f := b.Lambda([]Type{Scalar(I64)}, func(lb *Builder, p []*Var) []Atom {
					x := lb.BinOp(Add, p[0], lb.BinOp(Mod, idx, IntConst(I64, 5)))
					m := lb.BinOp(Max, x, z64)
					return []Atom{m, m, m, x}
				})
				post := b.Lambda([]Type{Scalar(I64), Scalar(I64), Scalar(I64), Scalar(I64)}, func(lb *Builder, p []*Var) []Atom {
					return []Atom{p[0], lb.BinOp(Sub, p[3], p[0])}
				})
				r := b.Bind("s", &Screma{W: b.Size(xs, 0), Arrs: []*Var{xs}, Index: idx, Map: f, Post: post,
					Scans: []*ScanOp{{Lambda: msspScanOp(b, I64), Neutral: []Atom{z64, z64, z64, z64}}}})
				return []Atom{r[0], r[1]}
			})
		}},
		{name: "linfun_two_scans_post", in: one(func(n int) eval.Value { return i32v(n, -3, 3) }), build: func() *Program {
			// Two scans in one kernel (linear-function composition on i64
			// and a running max), a map-out, and a post-map reading all.
			xs := i32Param("xs_1")
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				f := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					x := lb.Conv(I64, p[0])
					return []Atom{lb.BinOp(Add, x, IntConst(I64, 2)), x, p[0], lb.BinOp(Mul, p[0], IntConst(I32, 3))}
				})
				post := b.Lambda([]Type{Scalar(I64), Scalar(I64), Scalar(I32), Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					return []Atom{lb.BinOp(Add, p[0], p[1]), lb.BinOp(Sub, p[2], p[3])}
				})
				r := b.Bind("s", &Screma{W: b.Size(xs, 0), Arrs: []*Var{xs}, Map: f, Post: post,
					Scans: []*ScanOp{
						{Lambda: linOp(b, I64), Neutral: []Atom{IntConst(I64, 1), IntConst(I64, 0)}},
						{Lambda: b.BinOpLambda(Max, I32), Neutral: []Atom{IntConst(I32, math.MinInt32)}},
					}})
				return []Atom{r[0], r[1]}
			})
		}},
		{name: "segscan_i32", seg: true, in: segI32, build: func() *Program {
			xss := &Var{Name: "xss_1", Type: ArrayOf(I32, 2)}
			return fun([]*Var{xss}, func(b *Builder) []Atom {
				op := &Screma{W: b.Size(xss, 1), Arrs: []*Var{xss}, Map: b.IdentityLambda([]Type{Scalar(I32)}),
					Scans: []*ScanOp{{Lambda: b.BinOpLambda(Add, I32), Neutral: []Atom{z32}}}}
				return []Atom{b.Bind("s", &Segmented{Outer: []Atom{b.Size(xss, 0)}, Op: op})[0]}
			})
		}},
		{name: "segscan_linfun", seg: true, in: segI32, build: func() *Program {
			xss := &Var{Name: "xss_1", Type: ArrayOf(I32, 2)}
			return fun([]*Var{xss}, func(b *Builder) []Atom {
				f := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					return []Atom{lb.BinOp(Sub, p[0], IntConst(I32, 1)), p[0]}
				})
				op := &Screma{W: b.Size(xss, 1), Arrs: []*Var{xss}, Map: f,
					Scans: []*ScanOp{{Lambda: linOp(b, I32), Neutral: []Atom{IntConst(I32, 1), z32}}}}
				r := b.Bind("s", &Segmented{Outer: []Atom{b.Size(xss, 0)}, Op: op})
				return []Atom{r[0], r[1]}
			})
		}},
		{name: "filter_map", in: one(func(n int) eval.Value { return i32v(n, -1000, 1000) }), build: func() *Program {
			// filter (\y -> y % 3 == 0) (map (\x i -> x + i32 i) xs), keeping about a third.
			xs := i32Param("xs_1")
			return fun([]*Var{xs}, func(b *Builder) []Atom {
				idx := b.Fresh("i", Scalar(I64))
				f := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					return []Atom{lb.BinOp(Add, p[0], lb.Conv(I32, idx))}
				})
				pred := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					return []Atom{lb.BinOp(Eq, lb.BinOp(Mod, p[0], IntConst(I32, 3)), z32)}
				})
				return []Atom{b.Bind("f", &Filter{W: b.Size(xs, 0), Arrs: []*Var{xs}, Index: idx, Map: f, Pred: pred})[0]}
			})
		}},
		{name: "partition_pairs", in: func(n, _ int) []eval.Value {
			return []eval.Value{i32v(n, -1000, 1000), arr(i32s(n+3, 0, 9)[3:])}
		}, build: func() *Program {
			// partition (\(x, y) -> x < 0) (zip xs ys): 50% kept.
			xs, ys := i32Param("xs_1"), i32Param("ys_2")
			return fun([]*Var{xs, ys}, func(b *Builder) []Atom {
				pred := b.Lambda([]Type{Scalar(I32), Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
					return []Atom{lb.BinOp(Lt, p[0], z32)}
				})
				r := b.Bind("f", &Filter{W: b.Size(xs, 0), Arrs: []*Var{xs, ys}, Pred: pred, Partition: true})
				return []Atom{r[0], r[1], r[2], r[3]}
			})
		}},
	}
}

// segI32 is n rows of seg elements.
func segI32(n, seg int) []eval.Value {
	xs := i32s(n*seg, -5, 5)
	return []eval.Value{{Elem: I32, Shape: []int64{int64(n), int64(seg)}, Data: xs}}
}

// scanStmtOf is the program's scan statement.
func scanStmtOf(t *testing.T, p *Program) *Stmt {
	t.Helper()
	for _, s := range p.Fun("main").Body.Stmts {
		switch s.Exp.(type) {
		case *Screma, *Segmented, *Filter:
			return s
		}
	}
	t.Fatal("no scan statement")
	return nil
}

// TestScanGolden renders every scan program's kernel; it needs no GPU.
func TestScanGolden(t *testing.T) {
	for _, p := range scanProgs() {
		t.Run(p.name, func(t *testing.T) {
			prog := p.build()
			src, err := ScanKernel(prog, scanStmtOf(t, prog))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "scan_"+p.name, src)
		})
	}
}

// TestScanGoldenDeterministic renders the float scans of the test
// programs in deterministic mode (Limits.Deterministic): only anchors
// publish prefixes and the look-back waits for its anchor.
func TestScanGoldenDeterministic(t *testing.T) {
	lim := DefaultLimits
	lim.Deterministic = true
	for _, name := range []string{"scan_f64"} {
		t.Run(name, func(t *testing.T) {
			p := scanProgByName(t, name)
			prog := p.build()
			m, err := genScan(prog, scanStmtOf(t, prog), lim)
			if err != nil {
				t.Fatal(err)
			}
			if !m.k.Det {
				t.Fatalf("%s: deterministic mode not taken for accumulator %v", name, m.k.Acc)
			}
			golden(t, "scan_"+name+"_det", m.body)
		})
	}
}

// TestScanGoldenSpread renders look-back states spread over more cache
// lines (Limits.ScanStateSpread): one-word, multi-word and deterministic.
func TestScanGoldenSpread(t *testing.T) {
	for _, c := range []struct {
		name   string
		spread int
		det    bool
	}{{"scan_i32", 4, false}, {"mssp_scan", 2, false}, {"scan_f64", 2, true}, {"filter_map", 4, false}} {
		t.Run(fmt.Sprintf("%s_%d", c.name, c.spread), func(t *testing.T) {
			lim := DefaultLimits
			lim.ScanStateSpread, lim.Deterministic = c.spread, c.det
			prog := scanProgByName(t, c.name).build()
			m, err := genScan(prog, scanStmtOf(t, prog), lim)
			if err != nil {
				t.Fatal(err)
			}
			if m.k.Spread != c.spread {
				t.Fatalf("spread %d", m.k.Spread)
			}
			golden(t, fmt.Sprintf("scan_%s_spread%d", c.name, c.spread), m.body)
		})
	}
}

// TestSegCounters runs the segment-start counter of segCounter, as a Go
// transcription of its rendered lines, against the definition (index a
// multiple of w) for every thread of tiles over many row lengths,
// including lengths around Seq and lengths past 32 bits, and checks that
// the rendered kernel uses exactly those lines.
func TestSegCounters(t *testing.T) {
	for _, seq := range []int{1, 7, 15, 23, 31} {
		k := &scanKernel{Seq: seq}
		c32 := k.segCounter()
		if c32.step != "ar_c = (ar_c == 0 ? ar_wc : ar_c) - 1;" || c32.start != "ar_c == 0" ||
			!strings.Contains(c32.init, fmt.Sprintf("(int)min(ar_rs == 0 ? (i64)0 : ar_w - ar_rs, (i64)%d)", seq+1)) ||
			!strings.Contains(c32.init, fmt.Sprintf("(int)min(ar_w, (i64)%d)", seq+1)) {
			t.Fatalf("seq %d: the rendered counter is not the one this test transcribes:\n%+v", seq, c32)
		}
		for _, w := range []int64{1, 2, 3, int64(seq) - 1, int64(seq), int64(seq) + 1, int64(seq) + 2, 31, 32, 33, 1000, 1 << 20, 1<<33 + 7} {
			if w < 1 {
				continue
			}
			for _, base := range []int64{0, 7936, 3 * 7936, 1 << 34, 1<<34 + 12345} {
				for thread := int64(0); thread < 64; thread++ {
					first := base + thread*int64(seq)
					rs := first % w
					cs := int32(min(map[bool]int64{true: 0, false: w - rs}[rs == 0], int64(seq)+1))
					wc := int32(min(w, int64(seq)+1))
					c := cs // the 32-bit countdown
					for j := int64(0); j < int64(seq); j++ {
						want := (first+j)%w == 0
						if got := c == 0; got != want {
							t.Fatalf("seq %d w %d index %d: start %v, want %v", seq, w, first+j, got, want)
						}
						if c == 0 {
							c = wc
						}
						c--
					}
				}
			}
		}
	}
	for _, name := range []string{"segscan_i32", "segscan_linfun"} {
		prog := scanProgByName(t, name).build()
		m, err := genScan(prog, scanStmtOf(t, prog), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		c := m.k.segCounter()
		for _, line := range []string{c.init, c.start, c.step, c.reset} {
			if !strings.Contains(m.body, line) {
				t.Errorf("%s: the kernel lacks %q", name, line)
			}
		}
	}
}

func scanProgByName(t *testing.T, name string) scanProg {
	t.Helper()
	for _, p := range scanProgs() {
		if p.name == name {
			return p
		}
	}
	t.Fatalf("no scan test program %q", name)
	return scanProg{}
}

// TestScanDeterministic runs an f64 scan whose sums round differently in
// different combination orders five times in deterministic mode: the
// results must repeat bit for bit and match the interpreter.
func TestScanDeterministic(t *testing.T) {
	b := newTestBackend(t)
	if b == nil {
		return
	}
	b.SetDeterministic(true)
	defer b.SetDeterministic(false)
	n := min(1<<22+7, *maxN)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(hash(i)%1000) / 7 // inexact: the order shows in the last bits
	}
	in := []eval.Value{arr(xs)}
	prog := scanProgByName(t, "scan_f64").build()
	ctx := context.Background()
	var first []float64
	for run := 0; run < 5; run++ {
		got, err := b.Run(ctx, prog, "main", in, &eval.Timings{})
		if err != nil {
			t.Fatal(err)
		}
		h, err := got[0].Host(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got[0].Dev.Free()
		ys := h.Data.([]float64)
		if first == nil {
			first = ys
			want, err := cpu.New(cpu.Options{}).Run(ctx, prog, "main", in, &eval.Timings{})
			if err != nil {
				t.Fatal(err)
			}
			if err := same(ctx, []eval.Value{h}, want); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for i := range ys {
			if math.Float64bits(ys[i]) != math.Float64bits(first[i]) {
				t.Fatalf("run %d differs from run 0 at %d: %v, then %v", run, i, first[i], ys[i])
			}
		}
	}
}

// TestScanUnsupported checks that statements the scan kernels do not cover
// say why instead of generating wrong code.
func TestScanUnsupported(t *testing.T) {
	xs := i32Param("xs_1")
	prog := fun([]*Var{xs}, func(b *Builder) []Atom {
		w := b.Size(xs, 0)
		return []Atom{b.Bind("s", &Screma{W: w, Arrs: []*Var{xs}, Map: b.Lambda([]Type{Scalar(I32)}, func(_ *Builder, p []*Var) []Atom { return []Atom{p[0], p[0]} }),
			Scans: []*ScanOp{{Lambda: b.BinOpLambda(Add, I32), Neutral: []Atom{IntConst(I32, 0)}}},
			Reds:  []*RedOp{{Lambda: b.BinOpLambda(Add, I32), Neutral: []Atom{IntConst(I32, 0)}, Comm: true}}})[0]}
	})
	_, err := genScan(prog, scanStmtOf(t, prog), DefaultLimits)
	if !isUnsupported(err) || !strings.Contains(err.Error(), "reduction") {
		t.Fatalf("scan fused with a reduction: got %v, want an unsupported error", err)
	}
}

// TestScanSeq checks the sequentiality degrees the formula gives for the
// test programs' accumulators and that every tile fits in shared memory.
func TestScanSeq(t *testing.T) {
	want := map[string]int{"scan_i32": 31, "scan_u8_max": 95, "scan_f64": 15, "mssp_scan": 21, "segscan_i32": 31,
		"filter_map": 15, "partition_pairs": 15}
	for _, p := range scanProgs() {
		prog := p.build()
		m, err := genScan(prog, scanStmtOf(t, prog), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		k := m.k
		if w, ok := want[p.name]; ok && k.Seq != w {
			t.Errorf("%s: %d elements per thread, want %d", p.name, k.Seq, w)
		}
		if sb := k.shared(); sb > DefaultLimits.SharedPerBlock || k.Seq < 1 {
			t.Errorf("%s: %d per thread needs %d bytes of shared memory", p.name, k.Seq, sb)
		}
	}
}

// TestScanDevice runs every scan program on the GPU and on the CPU
// interpreter at sizes 0, 1, a tile ±1, several tiles and large, and
// segmented ones at every segment length of scanSegLens; without a GPU it
// checks the error instead (newTestBackend).
func TestScanDevice(t *testing.T) {
	b := newTestBackend(t)
	if b == nil {
		return
	}
	// The kernel variants a measurement sweeps are checked the same way.
	b.lim.ScanBlock, b.lim.Seq, b.lim.ScanMinBlocks = *scanBlockFlag, *scanSeqFlag, *scanMinBlocksFlag
	b.lim.ScanStateSpread = *scanSpreadFlag
	b.SetDeterministic(*scanDetFlag)
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	for _, p := range scanProgs() {
		t.Run(p.name, func(t *testing.T) {
			prog := p.build()
			m, err := genScan(prog, scanStmtOf(t, prog), b.lim)
			if err != nil {
				t.Fatal(err)
			}
			tile := m.k.Tile()
			type run struct{ n, seg int }
			var runs []run
			if p.seg {
				for _, s := range scanSegLens {
					for _, elems := range []int{tile - 1, 5*tile + 3, 1 << 22} {
						runs = append(runs, run{max(1, elems/s), s})
					}
				}
				runs = append(runs, run{0, 7}, run{5, 0}, run{1, 1 << 20}, run{3, 1<<22 + 1}, run{1, 1 << 24})
			} else {
				for _, n := range []int{0, 1, 2, tile - 1, tile, tile + 1, 33*tile + 17, 1<<20 + 3, *scanLarge} {
					runs = append(runs, run{n, 0})
				}
			}
			for _, rn := range runs {
				if rn.n*max(rn.seg, 1) > *maxN {
					continue
				}
				in := p.in(rn.n, rn.seg)
				var tm eval.Timings
				got, err := b.Run(ctx, prog, "main", in, &tm)
				if err != nil {
					t.Fatalf("n=%d seg=%d: %v", rn.n, rn.seg, err)
				}
				if rn.n*rn.seg > 0 || (!p.seg && rn.n > 0) {
					ran := false
					for _, kt := range tm.Kernels {
						ran = ran || kt.Name == m.k.Name
					}
					if !ran {
						t.Fatalf("n=%d seg=%d: the scan kernel did not run (notes %v)", rn.n, rn.seg, tm.Notes)
					}
				}
				want, err := ref.Run(ctx, prog, "main", in, &eval.Timings{})
				if err != nil {
					t.Fatalf("CPU reference: %v", err)
				}
				if err := same(ctx, got, want); err != nil {
					t.Fatalf("n=%d seg=%d: %v", rn.n, rn.seg, err)
				}
				for _, v := range got {
					if v.Dev != nil {
						v.Dev.Free()
					}
				}
			}
		})
	}
}

var scanHuge = flag.Int64("gpu.scanhuge", 0, "when positive, TestScanHuge scans this many u8 elements (2^31+5 checks 64-bit offsets)")

// TestScanHuge runs the u8 max-scan and the i32 sum (the copy kernels)
// over more elements than an i32 can
// count and compares with a Go loop (the interpreter and the generic
// comparison would take minutes there). It runs only when asked to.
func TestScanHuge(t *testing.T) {
	if *scanHuge <= 0 {
		t.Log("gpu.scanhuge not set: nothing to run")
		return
	}
	b := newTestBackend(t)
	if b == nil {
		return
	}
	n := *scanHuge
	xs := make([]uint8, n)
	for i := range xs {
		// Rising slowly, so that the maximum changes all along.
		xs[i] = uint8(hash(i)%8) + uint8(int64(i)*200/n)
	}
	var prog *Program
	for _, p := range scanProgs() {
		if p.name == "scan_u8_max" {
			prog = p.build()
		}
	}
	got, err := b.Run(context.Background(), prog, "main", []eval.Value{arr(xs)}, &eval.Timings{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := got[0].Host(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ys := h.Data.([]uint8)
	if int64(len(ys)) != n {
		t.Fatalf("%d results for %d elements", len(ys), n)
	}
	var m uint8
	for i, x := range xs {
		m = max(m, x)
		if ys[i] != m {
			t.Fatalf("element %d: %d, want %d", i, ys[i], m)
		}
	}
	got[0].Dev.Free()
	xs, ys, h = nil, nil, eval.Value{}

	// The i32 sum, wrapping, of values whose sum leaves the i32 range.
	ws := make([]int32, n)
	for i := range ws {
		ws[i] = int32(hash(i)%2001) - 1000 + int32(i&1)*7
	}
	prog = scanProgByName(t, "scan_i32").build()
	got, err = b.Run(context.Background(), prog, "main", []eval.Value{arr(ws)}, &eval.Timings{})
	if err != nil {
		t.Fatal(err)
	}
	h, err = got[0].Host(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got[0].Dev.Free()
	zs := h.Data.([]int32)
	if int64(len(zs)) != n {
		t.Fatalf("i32: %d results for %d elements", len(zs), n)
	}
	var sum int32
	for i, x := range ws {
		sum += x
		if zs[i] != sum {
			t.Fatalf("i32 element %d: %d, want %d", i, zs[i], sum)
		}
	}
}
