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

var (
	benchLog2N      = flag.Int("gpubench.log2n", 28, "log2 of the element count of the GPU benchmarks")
	benchSeqs       = flag.String("gpubench.seq", "", "comma-separated sequentiality degrees to sweep the ordered redomap (MSSP) over")
	benchScanBlocks = flag.String("gpubench.scanblock", "", "comma-separated block sizes the scan sweep runs each degree with")
	benchMinBlocks  = flag.String("gpubench.minblocks", "0", "comma-separated minimum blocks per multiprocessor (launch bounds) the scan sweep runs with")
	benchDelays     = flag.String("gpubench.delay", "", "comma-separated first look-back waits (ns, 0: the shipped one) the scan sweep runs with")
	benchOrdMin     = flag.String("gpubench.ordminblocks", "", "comma-separated minimum blocks per multiprocessor (launch bounds) to run the ordered redomap (MSSP) with")
	benchFoldUnroll = flag.String("gpubench.foldunroll", "", "comma-separated unroll factors of the ordered redomap's fold (Limits.OrderedFoldUnroll) to run MSSP with")
	benchSpins      = flag.String("gpubench.spin", "0", "comma-separated look-back retry waits (ns, 0: the shipped one) the scan sweep runs with")
)

// genProg makes n pseudo-random elements on the device by a map over the
// index (no host data, no transfer): i32 in [-32768, 32767], or those
// divided by 8192 as f32.
func genProg(t PrimType) *Program {
	n := &Var{Name: "n_1", Type: Scalar(I64)}
	return fun([]*Var{n}, func(b *Builder) []Atom {
		i := b.Fresh("i", Scalar(I64))
		f := b.Lambda(nil, func(lb *Builder, _ []*Var) []Atom {
			h := lb.BinOp(Add, lb.BinOp(Mul, i, IntConst(I64, 1103515245)), IntConst(I64, 12345))
			h = lb.BinOp(And, lb.BinOp(Shr, h, IntConst(I64, 8)), IntConst(I64, 0xffff))
			x := lb.BinOp(Sub, lb.Conv(I32, h), IntConst(I32, 32768))
			if t == F32 {
				return []Atom{lb.BinOp(Div, lb.Conv(F32, x), FloatConst(F32, 8192))}
			}
			return []Atom{x}
		})
		return []Atom{b.Bind("g", &Screma{W: n, Index: i, Map: f})[0]}
	})
}

// BenchmarkGPU times the workloads at 2^gpubench.log2n elements by
// CUDA events around each kernel and reports kernel milliseconds and GB/s
// (bytes read plus written). bench/gpu/run.sh runs it beside the PyTorch,
// CuPy and JAX versions and prints the ratios.
func BenchmarkGPU(b *testing.B) {
	be, err := New(Options{})
	if err != nil {
		b.Fatalf("GPU benchmarks need a GPU: %v", err)
	}
	ctx := context.Background()
	n := int64(1) << *benchLog2N
	nv := eval.Scalar(IntConst(I64, n))
	gen := func(t PrimType) eval.Value {
		vs, err := be.Run(ctx, genProg(t), "main", []eval.Value{nv}, &eval.Timings{})
		if err != nil {
			b.Fatal(err)
		}
		return vs[0]
	}
	xi, xf := gen(I32), gen(F32)
	byName := map[string]testProg{}
	for _, p := range testProgs() {
		byName[p.name] = p
	}
	cases := []struct {
		name string
		prog *Program
		args []eval.Value
	}{
		{"sum_i32", byName["sum_i32"].build(), []eval.Value{xi}},
		{"max_map_i32", byName["max_map"].build(), []eval.Value{xi}},
		{"mssp_i32", byName["mssp"].build(), []eval.Value{xi}},
		{"blackscholes_f32", byName["blackscholes"].build(), []eval.Value{nv}},
		{"redomap_nt_f32", byName["redomap_nt"].build(), []eval.Value{xf}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var tm eval.Timings
			if _, err := be.Run(ctx, c.prog, "main", c.args, &tm); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
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
			b.ReportMetric(kt.Seconds()*1e3/float64(b.N), "kernel-ms")
			b.ReportMetric(float64(bytes)/kt.Seconds()/1e9, "GB/s")
			b.ReportMetric(float64(n)*float64(b.N)/kt.Seconds()/1e9, "Gelem/s")
		})
	}
	type ordered struct {
		name                  string
		seq, minBlock, unroll int
	}
	var sweep []ordered
	for _, f := range strings.Split(*benchSeqs, ",") {
		if seq, err := strconv.Atoi(f); err == nil {
			sweep = append(sweep, ordered{fmt.Sprintf("mssp_i32_seq%d", seq), seq, 0, 0})
		}
	}
	for _, f := range strings.Split(*benchOrdMin, ",") {
		if mb, err := strconv.Atoi(f); err == nil {
			sweep = append(sweep, ordered{fmt.Sprintf("mssp_i32_minblocks%d", mb), 0, mb, 0})
		}
	}
	for _, f := range strings.Split(*benchFoldUnroll, ",") {
		if u, err := strconv.Atoi(f); err == nil {
			sweep = append(sweep, ordered{fmt.Sprintf("mssp_i32_foldunroll%d", u), 0, 0, u})
		}
	}
	for _, o := range sweep {
		b.Run(o.name, func(b *testing.B) {
			be.lim.Seq, be.lim.OrderedMinBlocks, be.lim.OrderedFoldUnroll = o.seq, o.minBlock, o.unroll
			defer func() { be.lim.Seq, be.lim.OrderedMinBlocks, be.lim.OrderedFoldUnroll = 0, 0, 0 }()
			prog := byName["mssp"].build()
			if _, err := be.Run(ctx, prog, "main", []eval.Value{xi}, &eval.Timings{}); err != nil {
				b.Fatal(err)
			}
			var kt time.Duration
			for i := 0; i < b.N; i++ {
				var tm eval.Timings
				if _, err := be.Run(ctx, prog, "main", []eval.Value{xi}, &tm); err != nil {
					b.Fatal(err)
				}
				for _, k := range tm.Kernels {
					kt += k.Time
				}
			}
			b.ReportMetric(kt.Seconds()*1e3/float64(b.N), "kernel-ms")
			b.ReportMetric(float64(4*n)*float64(b.N)/kt.Seconds()/1e9, "GB/s")
		})
	}
	b.Run("copy_d2d_i32", func(b *testing.B) {
		src := xi.Dev.(*devArray)
		dst, err := newDevArray(be.g, I32, n)
		if err != nil {
			b.Fatal(err)
		}
		defer dst.Free()
		if err := be.g.DtoD(dst.ptr(), src.ptr(), src.bytes); err != nil {
			b.Fatal(err)
		}
		// Timed by CUDA events like the kernels (the host's clock moved the
		// copy by up to 10%: RESULTS, "GPU scan", run 8).
		d, err := be.g.TimeDtoD(dst.ptr(), src.ptr(), src.bytes, b.N)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(d.Seconds()*1e3, "kernel-ms")
		b.ReportMetric(float64(2*src.bytes)/d.Seconds()/1e9, "GB/s")
		b.ReportMetric(float64(n)/d.Seconds()/1e9, "Gelem/s")
	})
}
