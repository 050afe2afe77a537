// Command goloops times hand-written Go loops for the computations of the
// CPU benchmark (bench/cpu/run.sh), single-threaded and split over
// GOMAXPROCS goroutines, so arepl's interpreter has a compiled baseline.
// Inputs are random int32 in [0, 1000) and float32 in [0, 1), like those
// of `arepl bench --size`; the programs are those of examples/ and
// bench/cpu/*.fut, written as plain loops. It prints one JSON object: for each kernel, the
// mean and minimum seconds per run of each variant.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

// kernel is one computation in a single-threaded and a parallel version.
// Each returns a value that the driver keeps, so no loop is optimised away.
type kernel struct {
	single, multi func(in *inputs) int64
}

// inputs are shared by all kernels.
type inputs struct {
	xs         []int32
	fs         []float32 // for Black-Scholes: prices
	strikes    []float32
	years      []float32
	scratch    []int32 // scan output
	partials   []int64
	partialsF  []float64
	partialIdx []int64
}

var kernels = map[string]kernel{
	"sum_i32":        {sumSeq, sumPar},
	"max_i32":        {maxSeq, maxPar},
	"argmax_i32":     {argmaxSeq, argmaxPar},
	"mssp_i32":       {msspSeq, msspPar},
	"scan_i32":       {func(in *inputs) int64 { return scanSeq(in, false) }, func(in *inputs) int64 { return scanPar(in, false) }},
	"scan_map_i32":   {func(in *inputs) int64 { return scanSeq(in, true) }, func(in *inputs) int64 { return scanPar(in, true) }},
	"reduce_map_i32": {reduceMapSeq, reduceMapPar},
	"blackscholes":   {bsSeq, bsPar},
	"reduce2x2mm":    {mmSeq, mmPar},
	"redomap_nt":     {ntSeq, ntPar},
}

func main() {
	n := flag.Int("n", 10_000_000, "elements")
	runs := flag.Int("runs", 10, "timed runs per kernel (after one warm-up)")
	names := flag.String("kernels", "", "comma-separated kernels (default: all)")
	flag.Parse()
	in := makeInputs(*n)
	list := strings.Split(*names, ",")
	if *names == "" {
		list = nil
		for k := range kernels {
			list = append(list, k)
		}
	}
	out := map[string]map[string]map[string]float64{}
	for _, name := range list {
		k, ok := kernels[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "goloops: unknown kernel %q\n", name)
			os.Exit(2)
		}
		out[name] = map[string]map[string]float64{
			"single": timeIt(k.single, in, *runs),
			"multi":  timeIt(k.multi, in, *runs),
		}
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "goloops:", err)
		os.Exit(1)
	}
}

var sink int64

func timeIt(f func(*inputs) int64, in *inputs, runs int) map[string]float64 {
	sink += f(in)
	var total, minimum time.Duration
	for i := 0; i < runs; i++ {
		start := time.Now()
		sink += f(in)
		d := time.Since(start)
		total += d
		if i == 0 || d < minimum {
			minimum = d
		}
	}
	return map[string]float64{"mean_s": total.Seconds() / float64(runs), "min_s": minimum.Seconds()}
}

func makeInputs(n int) *inputs {
	rng := rand.New(rand.NewPCG(1, 2))
	in := &inputs{
		xs: make([]int32, n), fs: make([]float32, n), strikes: make([]float32, n), years: make([]float32, n),
		scratch: make([]int32, n),
	}
	for i := range in.xs {
		in.xs[i] = int32(rng.IntN(1000))
		in.fs[i] = rng.Float32()
		in.strikes[i] = rng.Float32()
		in.years[i] = rng.Float32()
	}
	p := runtime.GOMAXPROCS(0)
	in.partials = make([]int64, 4*p)
	in.partialsF = make([]float64, p)
	in.partialIdx = make([]int64, p)
	return in
}

// parallel runs body(c, lo, hi) over GOMAXPROCS contiguous chunks of n.
func parallel(n int, body func(c, lo, hi int)) int {
	p := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for c := 0; c < p; c++ {
		lo, hi := c*n/p, (c+1)*n/p
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(c, lo, hi)
		}()
	}
	wg.Wait()
	return p
}

func sumSeq(in *inputs) int64 {
	var s int32
	for _, x := range in.xs {
		s += x
	}
	return int64(s)
}

func sumPar(in *inputs) int64 {
	p := parallel(len(in.xs), func(c, lo, hi int) {
		var s int32
		for _, x := range in.xs[lo:hi] {
			s += x
		}
		in.partials[c] = int64(s)
	})
	var s int32
	for _, v := range in.partials[:p] {
		s += int32(v)
	}
	return int64(s)
}

func maxSeq(in *inputs) int64 {
	m := int32(math.MinInt32)
	for _, x := range in.xs {
		m = max(m, x)
	}
	return int64(m)
}

func maxPar(in *inputs) int64 {
	p := parallel(len(in.xs), func(c, lo, hi int) {
		m := int32(math.MinInt32)
		for _, x := range in.xs[lo:hi] {
			m = max(m, x)
		}
		in.partials[c] = int64(m)
	})
	m := int64(math.MinInt32)
	for _, v := range in.partials[:p] {
		m = max(m, v)
	}
	return m
}

func argmaxRange(xs []int32, lo, hi int) (int32, int) {
	bv, bi := int32(math.MinInt32), lo
	for i := lo; i < hi; i++ {
		if xs[i] > bv {
			bv, bi = xs[i], i
		}
	}
	return bv, bi
}

func argmaxSeq(in *inputs) int64 {
	_, i := argmaxRange(in.xs, 0, len(in.xs))
	return int64(i)
}

func argmaxPar(in *inputs) int64 {
	p := parallel(len(in.xs), func(c, lo, hi int) {
		v, i := argmaxRange(in.xs, lo, hi)
		in.partials[c], in.partialIdx[c] = int64(v), int64(i)
	})
	bv, bi := int64(math.MinInt64), int64(0)
	for c := 0; c < p; c++ {
		if in.partials[c] > bv {
			bv, bi = in.partials[c], in.partialIdx[c]
		}
	}
	return bi
}

// mss is the maximum-segment-sum monoid: best, best prefix, best suffix,
// total.
type mss struct{ m, p, s, t int32 }

func (x mss) join(y mss) mss {
	return mss{max(x.m, y.m, x.s+y.p), max(x.p, x.t+y.p), max(y.s, x.s+y.t), x.t + y.t}
}

func msspRange(xs []int32) mss {
	var acc mss
	for _, x := range xs {
		z := max(x, 0)
		acc = acc.join(mss{z, z, z, x})
	}
	return acc
}

func msspSeq(in *inputs) int64 { return int64(msspRange(in.xs).m) }

func msspPar(in *inputs) int64 {
	p := runtime.GOMAXPROCS(0)
	parts := make([]mss, p)
	parallel(len(in.xs), func(c, lo, hi int) { parts[c] = msspRange(in.xs[lo:hi]) })
	var acc mss
	for _, m := range parts {
		acc = acc.join(m)
	}
	return int64(acc.m)
}

func scanSeq(in *inputs, mapped bool) int64 {
	var s int32
	for i, x := range in.xs {
		if mapped {
			x = x*2 + 1
		}
		s += x
		in.scratch[i] = s
	}
	return int64(in.scratch[len(in.scratch)-1])
}

// scanPar is the three-phase chunked scan: per-chunk sums, a scan of the
// sums, then each chunk scanned from its offset.
func scanPar(in *inputs, mapped bool) int64 {
	p := parallel(len(in.xs), func(c, lo, hi int) {
		var s int32
		for _, x := range in.xs[lo:hi] {
			if mapped {
				x = x*2 + 1
			}
			s += x
		}
		in.partials[c] = int64(s)
	})
	var off int32
	for c := 0; c < p; c++ {
		s := int32(in.partials[c])
		in.partials[c] = int64(off)
		off += s
	}
	parallel(len(in.xs), func(c, lo, hi int) {
		s := int32(in.partials[c])
		for i := lo; i < hi; i++ {
			x := in.xs[i]
			if mapped {
				x = x*2 + 1
			}
			s += x
			in.scratch[i] = s
		}
	})
	return int64(in.scratch[len(in.scratch)-1])
}

func reduceMapSeq(in *inputs) int64 {
	var s int32
	for _, x := range in.xs {
		s += x*2 + 1
	}
	return int64(s)
}

func reduceMapPar(in *inputs) int64 {
	p := parallel(len(in.xs), func(c, lo, hi int) {
		var s int32
		for _, x := range in.xs[lo:hi] {
			s += x*2 + 1
		}
		in.partials[c] = int64(s)
	})
	var s int32
	for _, v := range in.partials[:p] {
		s += int32(v)
	}
	return int64(s)
}

// Black-Scholes as in examples/black_scholes.fut: the price of a European
// call per option (spot, strike, years; fixed rate and volatility), with
// the Abramowitz-Stegun normal distribution, in float32, summed.
const (
	bsRate = 0.02
	bsVol  = 0.30
)

func cnd(x float32) float32 {
	const a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
	k := 1 / (1 + 0.2316419*abs32(x))
	w := 1 - 1/sqrt32(2*math.Pi)*exp32(-x*x/2)*k*(a1+k*(a2+k*(a3+k*(a4+k*a5))))
	if x < 0 {
		return 1 - w
	}
	return w
}

func abs32(x float32) float32  { return float32(math.Abs(float64(x))) }
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }
func exp32(x float32) float32  { return float32(math.Exp(float64(x))) }
func log32(x float32) float32  { return float32(math.Log(float64(x))) }

func bsRange(in *inputs, lo, hi int) float64 {
	var sum float32
	for i := lo; i < hi; i++ {
		s, k, t := in.fs[i], in.strikes[i], in.years[i]
		d1 := (log32(s/k) + (bsRate+bsVol*bsVol/2)*t) / (bsVol * sqrt32(t))
		d2 := d1 - bsVol*sqrt32(t)
		sum += s*cnd(d1) - k*exp32(-bsRate*t)*cnd(d2)
	}
	return float64(sum)
}

func bsSeq(in *inputs) int64 { return int64(bsRange(in, 0, len(in.fs))) }

func bsPar(in *inputs) int64 {
	p := parallel(len(in.fs), func(c, lo, hi int) { in.partialsF[c] = bsRange(in, lo, hi) })
	var s float64
	for _, v := range in.partialsF[:p] {
		s += v
	}
	return int64(s)
}

// Reduce2x2MM as in examples/reduce_2x2mm.fut: 42 rounds, each reducing
// a+s with 2x2 multiplication of matrices of i8 packed in an i32.
func mm2x2(x, y int32) int32 {
	x11, x12, x21, x22 := int8(x>>24), int8(x>>16), int8(x>>8), int8(x)
	y11, y12, y21, y22 := int8(y>>24), int8(y>>16), int8(y>>8), int8(y)
	return pack4(x11*y11+x12*y21, x11*y12+x12*y22, x21*y11+x22*y21, x21*y12+x22*y22)
}

func pack4(a, b, c, d int8) int32 {
	return int32(uint32(uint8(a))<<24 | uint32(uint8(b))<<16 | uint32(uint8(c))<<8 | uint32(uint8(d)))
}

const mmIdentity = 0x01000001

func mmRange(xs []int32, s int32) int32 {
	acc := int32(mmIdentity)
	for _, x := range xs {
		acc = mm2x2(acc, x+s)
	}
	return acc
}

func mmSeq(in *inputs) int64 {
	s := int32(1)
	for range 42 {
		s = mmRange(in.xs, s)
	}
	return int64(s)
}

func mmPar(in *inputs) int64 {
	s := int32(1)
	for range 42 {
		p := parallel(len(in.xs), func(c, lo, hi int) { in.partials[c] = int64(mmRange(in.xs[lo:hi], s)) })
		acc := int32(mmIdentity)
		for _, v := range in.partials[:p] {
			acc = mm2x2(acc, int32(v))
		}
		s = acc
	}
	return int64(s)
}

// RedomapNT as in examples/redomap_nt.fut, fused by hand: three
// reductions and two map-out arrays in one pass.
const ntA, ntB = 0.5, 0.25

func ntRange(in *inputs, lo, hi int, v, w []float32) (float32, float32, float32) {
	t0, t1, t2 := float32(0), float32(math.Inf(1)), float32(0)
	for i := lo; i < hi; i++ {
		x := in.fs[i]/ntA + 1
		y := exp32(x*ntB) / (1 + x*x)
		t0 += x / (1 + y)
		t1 = min(t1, x)
		t2 = max(t2, y)
		v[i] = x * ntA
		w[i] = sqrt32(y) * ntB
	}
	return t0, t1, t2
}

var ntV, ntW []float32

func ntSeq(in *inputs) int64 {
	if len(ntV) != len(in.fs) {
		ntV, ntW = make([]float32, len(in.fs)), make([]float32, len(in.fs))
	}
	t0, _, _ := ntRange(in, 0, len(in.fs), ntV, ntW)
	return int64(t0)
}

func ntPar(in *inputs) int64 {
	if len(ntV) != len(in.fs) {
		ntV, ntW = make([]float32, len(in.fs)), make([]float32, len(in.fs))
	}
	parts := make([][3]float32, runtime.GOMAXPROCS(0))
	parallel(len(in.fs), func(c, lo, hi int) {
		t0, t1, t2 := ntRange(in, lo, hi, ntV, ntW)
		parts[c] = [3]float32{t0, t1, t2}
	})
	t0, t1, t2 := float32(0), float32(math.Inf(1)), float32(0)
	for _, p := range parts {
		t0, t1, t2 = t0+p[0], min(t1, p[1]), max(t2, p[2])
	}
	return int64(t0 + t1 + t2)
}
