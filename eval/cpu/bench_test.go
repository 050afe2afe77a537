package cpu

import (
	"context"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Benchmarks of the hot paths, for profiling the interpreter. They are not
// performance claims; `arepl bench` and bench/ are.

const benchN = 10_000_000

var benchChunk = DefaultChunk

func benchInput() eval.Value {
	d := make([]int32, benchN)
	for i := range d {
		d[i] = int32(i % 1000)
	}
	return eval.Value{Elem: core.I32, Shape: []int64{benchN}, Data: d}
}

func mapLambda(b *core.Builder) *core.Lambda {
	return b.Lambda([]core.Type{core.Scalar(core.I32)}, func(lb *core.Builder, x []*core.Var) []core.Atom {
		t := lb.BinOp(core.Mul, x[0], core.IntConst(core.I32, 2))
		return []core.Atom{lb.BinOp(core.Add, t, core.IntConst(core.I32, 1))}
	})
}

func benchProgram(b *testing.B, scan bool) *core.Program {
	return program(b, []core.Type{core.ArrayOf(core.I32, 1)}, func(bb *core.Builder, ps []*core.Var) []core.Atom {
		w := bb.Size(ps[0], 0)
		s := &core.Screma{W: w, Arrs: ps, Map: mapLambda(bb)}
		op := bb.BinOpLambda(core.Add, core.I32)
		ne := []core.Atom{core.IntConst(core.I32, 0)}
		if scan {
			s.Scans = []*core.ScanOp{{Lambda: op, Neutral: ne}}
		} else {
			s.Reds = []*core.RedOp{{Lambda: op, Neutral: ne, Comm: true}}
		}
		return []core.Atom{bb.Bind("r", s)[0]}
	})
}

func runBench(b *testing.B, workers int, scan bool) {
	p := benchProgram(b, scan)
	in := benchInput()
	be := New(Options{Workers: workers, Chunk: benchChunk})
	b.SetBytes(benchN * 4)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := be.Run(context.Background(), p, "main", []eval.Value{in}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRedomap1(b *testing.B)  { runBench(b, 1, false) }
func BenchmarkScanomap1(b *testing.B) { runBench(b, 1, true) }
func BenchmarkRedomapN(b *testing.B)  { runBench(b, 0, false) }
func BenchmarkScanomapN(b *testing.B) { runBench(b, 0, true) }

// BenchmarkHandLoop is the hand-written Go loop the redomap is compared to.
func BenchmarkHandLoop(b *testing.B) {
	d := benchInput().Data.([]int32)
	b.SetBytes(benchN * 4)
	for i := 0; i < b.N; i++ {
		s := int32(0)
		for _, x := range d {
			s += x*2 + 1
		}
		if s == 42 {
			b.Log(s)
		}
	}
}

func BenchmarkRedomap1Chunk16k(b *testing.B) {
	benchChunk = 16384
	defer func() { benchChunk = DefaultChunk }()
	runBench(b, 1, false)
}

func BenchmarkRedomap1Chunk1k(b *testing.B) {
	benchChunk = 1024
	defer func() { benchChunk = DefaultChunk }()
	runBench(b, 1, false)
}
