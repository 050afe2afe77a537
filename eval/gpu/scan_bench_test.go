package gpu

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	. "github.com/arepl/arepl/lang/core"
)

var benchVariants = flag.String("gpubench.variant", "0", "comma-separated kernel variants the scan sweep runs each configuration with: 0 the shipped kernel, else letters k (Limits.ScanRecompute -1: keep the scanned values, never recompute the store), r (ScanRecompute 1: recompute wherever the shape allows), u followed by Limits.ScanUnroll (-1: fully) and s followed by Limits.ScanStateSpread, e.g. 0,k,s4,ks1")

// scanVariant sets the knobs of a gpubench.variant on lim.
func scanVariant(v string, lim *Limits) {
	lim.ScanStateSpread, lim.ScanRecompute, lim.ScanUnroll = 0, 0, 0
	if i := strings.Index(v, "u"); i >= 0 {
		j := i + 1
		for j < len(v) && (v[j] == '-' || v[j] >= '0' && v[j] <= '9') {
			j++
		}
		lim.ScanUnroll, _ = strconv.Atoi(v[i+1 : j])
		v = v[:i] + v[j:]
	}
	if i := strings.Index(v, "s"); i >= 0 {
		lim.ScanStateSpread, _ = strconv.Atoi(v[i+1:])
		v = v[:i]
	}
	if strings.Contains(v, "k") {
		lim.ScanRecompute = -1
	}
	if strings.Contains(v, "r") {
		lim.ScanRecompute = 1
	}
}

// BenchmarkScan times the single-pass scans at 2^gpubench.log2n elements
// by CUDA events around each kernel and reports kernel milliseconds, GB/s
// (bytes read plus written) and the ratio to a device-to-device copy of
// the same bytes measured in the same run. gpubench.seq, when set, also
// sweeps the elements per thread of the plain scans, MSSP and the filter,
// for each block size of gpubench.scanblock and each minimum of blocks per
// multiprocessor (launch bounds) of gpubench.minblocks, and as each kernel
// variant of gpubench.variant (timed back to back; a variant the shape does
// not allow is skipped).
// bench/gpu/scan.sh runs it beside PyTorch.
func BenchmarkScan(b *testing.B) {
	be, err := New(Options{})
	if err != nil {
		b.Fatalf("GPU benchmarks need a GPU: %v", err)
	}
	ctx := context.Background()
	n := int64(1) << *benchLog2N
	nv := eval.Scalar(IntConst(I64, n))
	gen, err := be.Run(ctx, genProg(I32), "main", []eval.Value{nv}, &eval.Timings{})
	if err != nil {
		b.Fatal(err)
	}
	xi := gen[0]
	conv := func(t PrimType) eval.Value {
		xs := i32Param("xs_1")
		p := fun([]*Var{xs}, func(bb *Builder) []Atom {
			f := bb.Lambda([]Type{Scalar(I32)}, func(lb *Builder, ps []*Var) []Atom { return []Atom{lb.Conv(t, ps[0])} })
			return []Atom{bb.Map(bb.Size(xs, 0), []*Var{xs}, f)[0]}
		})
		vs, err := be.Run(ctx, p, "main", []eval.Value{xi}, &eval.Timings{})
		if err != nil {
			b.Fatal(err)
		}
		return vs[0]
	}
	xl, xd, xb, xh := conv(I64), conv(F64), conv(U8), conv(I16)

	// The copy every figure is compared with: 4n bytes read and written.
	copyMS := func(bytes int64) float64 {
		src := xd.Dev.(*devArray)
		dst, err := newDevArray(be.g, U8, bytes)
		if err != nil {
			b.Fatal(err)
		}
		defer dst.Free()
		// Workloads moving more than the source holds are compared with a
		// copy of the source, scaled (copy time is linear at these sizes).
		scale := 1.0
		if bytes > src.bytes {
			scale = float64(bytes) / float64(src.bytes)
			bytes = src.bytes
		}
		// Timed by CUDA events like the kernels, the best of three runs of
		// 10 copies after a warm-up: timed by the host's clock the copy
		// beside one row varied from 0.508 to 0.57 ms (RESULTS, "GPU scan",
		// run 6).
		_ = be.g.DtoD(dst.ptr(), src.ptr(), bytes)
		best := time.Duration(0)
		for range 3 {
			d, err := be.g.TimeDtoD(dst.ptr(), src.ptr(), bytes, 10)
			if err != nil {
				b.Fatal(err)
			}
			if best == 0 || d < best {
				best = d
			}
		}
		return scale * best.Seconds() * 1e3
	}

	progs := map[string]*Program{}
	for _, p := range scanProgs() {
		progs[p.name] = p.build()
	}
	plusScan := func(t PrimType) *Program {
		xs := &Var{Name: "xs_1", Type: ArrayOf(t, 1)}
		return fun([]*Var{xs}, func(bb *Builder) []Atom {
			return []Atom{bb.Scan(bb.Size(xs, 0), []*Var{xs}, bb.BinOpLambda(Add, t), []Atom{IntConst(t, 0)})[0]}
		})
	}
	mapScan := func() *Program {
		// scan (+) 0 (map (\x -> x*x % 7 + x) xs)
		xs := i32Param("xs_1")
		return fun([]*Var{xs}, func(bb *Builder) []Atom {
			f := bb.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
				return []Atom{lb.BinOp(Add, lb.BinOp(Mod, lb.BinOp(Mul, p[0], p[0]), IntConst(I32, 7)), p[0])}
			})
			return []Atom{bb.Bind("s", &Screma{W: bb.Size(xs, 0), Arrs: []*Var{xs}, Map: f,
				Scans: []*ScanOp{{Lambda: bb.BinOpLambda(Add, I32), Neutral: []Atom{IntConst(I32, 0)}}}})[0]}
		})
	}
	filter := func() *Program {
		xs := i32Param("xs_1")
		return fun([]*Var{xs}, func(bb *Builder) []Atom {
			pred := bb.Lambda([]Type{Scalar(I32)}, func(lb *Builder, p []*Var) []Atom {
				return []Atom{lb.BinOp(Lt, p[0], IntConst(I32, 0))}
			})
			return []Atom{bb.Bind("f", &Filter{W: bb.Size(xs, 0), Arrs: []*Var{xs}, Pred: pred})[0]}
		})
	}
	type bcase struct {
		name string
		prog *Program
		args []eval.Value
	}
	cases := []bcase{
		{"scan_i32", progs["scan_i32"], []eval.Value{xi}},
		{"scan_i64", plusScan(I64), []eval.Value{xl}},
		{"scan_u8", plusScan(U8), []eval.Value{xb}},
		{"scan_i16", plusScan(I16), []eval.Value{xh}},
		{"scan_f64", progs["scan_f64"], []eval.Value{xd}},
		{"mssp_scan_i32", progs["mssp_scan"], []eval.Value{xi}},
		{"scanomap_i32", mapScan(), []eval.Value{xi}},
		{"filter_50pct_i32", filter(), []eval.Value{xi}},
	}
	for _, l := range []int64{1, 2, 3, 4, 31, 32, 33, 1000, 1 << 20, 1 << 24} {
		rows := n / l
		v := eval.Value{Elem: I32, Shape: []int64{rows, l}, Dev: xi.Dev}
		cases = append(cases, bcase{fmt.Sprintf("segscan_i32_len%d", l), progs["segscan_i32"], []eval.Value{v}})
	}
	measure := func(b *testing.B, c bcase) {
		if _, err := be.Run(ctx, c.prog, "main", c.args, &eval.Timings{}); err != nil {
			b.Fatal(err)
		}
		var kt time.Duration
		var bytes int64
		for i := 0; i < b.N; i++ {
			var tm eval.Timings
			res, err := be.Run(ctx, c.prog, "main", c.args, &tm)
			if err != nil {
				b.Fatal(err)
			}
			for _, k := range tm.Kernels {
				kt += k.Time
				bytes += k.Bytes
			}
			for _, v := range res {
				if v.Dev != nil {
					v.Dev.Free()
				}
			}
		}
		ms := kt.Seconds() * 1e3 / float64(b.N)
		per := bytes / int64(b.N)
		b.ReportMetric(ms, "kernel-ms")
		b.ReportMetric(float64(per)/ms/1e6, "GB/s")
		// A copy moving the same bytes reads and writes half of them each.
		b.ReportMetric(copyMS(per/2)/ms, "x-copy")
	}
	named := func(names ...string) []bcase {
		var out []bcase
		for _, name := range names {
			for _, c := range cases {
				if c.name == name {
					out = append(out, c)
				}
			}
		}
		return out
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { measure(b, c) })
	}
	// Deterministic mode (fixed combination order) on the f64 scan.
	b.Run("scan_f64_deterministic", func(b *testing.B) {
		be.SetDeterministic(true)
		defer be.SetDeterministic(false)
		measure(b, named("scan_f64")[0])
	})
	swept := map[string]bool{"scan_u8": true, "scan_i16": true, "scan_i32": true, "scan_i64": true, "scan_f64": true, "mssp_scan_i32": true,
		"scanomap_i32": true, "filter_50pct_i32": true, "segscan_i32_len1000": true, "segscan_i32_len16777216": true}
	// The sweep: every block size of gpubench.scanblock with every degree
	// of gpubench.seq (0: the formula's), on the plain scans, the scanomap,
	// MSSP, the filter and two segment lengths.
	ints := func(list string) []int {
		var out []int
		for _, f := range strings.Split(list, ",") {
			if v, err := strconv.Atoi(f); err == nil {
				out = append(out, v)
			}
		}
		return out
	}
	blocks := ints(*benchScanBlocks)
	if len(blocks) == 0 {
		blocks = []int{0}
	}
	for _, minBlocks := range ints(*benchMinBlocks) {
		for _, block := range blocks {
			for _, seq := range ints(*benchSeqs) {
				for _, c := range cases {
					if !swept[c.name] {
						continue
					}
					for _, v := range strings.Split(*benchVariants, ",") {
						b.Run(fmt.Sprintf("%s_block%d_seq%d_min%d_v%s", c.name, block, seq, minBlocks, v), func(b *testing.B) {
							be.lim.Seq, be.lim.ScanBlock, be.lim.ScanMinBlocks = seq, block, minBlocks
							scanVariant(v, &be.lim)
							defer func() {
								be.lim.Seq, be.lim.ScanBlock, be.lim.ScanMinBlocks = 0, 0, 0
								scanVariant("0", &be.lim)
							}()
							if why := variantMissing(c.prog, be.lim); why != "" {
								b.Skip(why)
							}
							measure(b, c)
						})
					}
				}
			}
		}
	}
	// The look-back's waits: every first delay of gpubench.delay with every
	// retry wait of gpubench.spin (0: the shipped one), shipped block and
	// degree, as each gpubench.variant.
	for _, delay := range ints(*benchDelays) {
		for _, spin := range ints(*benchSpins) {
			for _, c := range named("scan_i32", "scan_i64", "scan_f64", "mssp_scan_i32") {
				for _, v := range strings.Split(*benchVariants, ",") {
					b.Run(fmt.Sprintf("%s_delay%d_spin%d_v%s", c.name, delay, spin, v), func(b *testing.B) {
						be.lim.ScanDelay, be.lim.ScanSpin = delay, spin
						scanVariant(v, &be.lim)
						defer func() {
							be.lim.ScanDelay, be.lim.ScanSpin = 0, 0
							scanVariant("0", &be.lim)
						}()
						if why := variantMissing(c.prog, be.lim); why != "" {
							b.Skip(why)
						}
						measure(b, c)
					})
				}
			}
		}
	}
	b.Run("copy_d2d_i32", func(b *testing.B) {
		ms := copyMS(4 * n)
		b.ReportMetric(ms, "kernel-ms")
		b.ReportMetric(float64(8*n)/ms/1e6, "GB/s")
		b.ReportMetric(1, "x-copy")
	})
}

// variantMissing says why the scan of prog cannot be generated with the
// knobs of lim, or "" when it can.
func variantMissing(prog *Program, lim Limits) string {
	for _, s := range prog.Fun("main").Body.Stmts {
		switch s.Exp.(type) {
		case *Screma, *Segmented, *Filter:
			if _, err := genScan(prog, s, lim); err != nil {
				return err.Error()
			}
			return ""
		}
	}
	return "no scan statement"
}
