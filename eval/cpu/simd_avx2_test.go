//go:build goexperiment.simd && amd64

package cpu

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// The AVX2 kernels must give exactly the portable kernels' results, bit
// for bit (floats compared by their bits, so signed zeros count; NaNs are
// NaNs), on every length from 0 to past two vectors' worth of tail and on
// a whole chunk, for data full of the values where vector and scalar
// instructions could disagree.

// TestSIMDActive fails when a CPU with AVX2 and FMA runs the portable
// kernels: `make test` must exercise the AVX2 ones.
func TestSIMDActive(t *testing.T) {
	if !simdOn {
		t.Logf("this CPU lacks AVX2 or FMA: %s", SIMD())
		return
	}
	if SIMD() != "AVX2" || replaced(foldTab[core.Max][core.I32]) == 0 {
		t.Fatalf("SIMD() = %q and the i32 max fold is the portable one", SIMD())
	}
}

var simdLens = append([]int{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100}, DefaultChunk)

func specialF32(r *rand.Rand) float32 {
	switch r.IntN(12) {
	case 0:
		return float32(math.NaN())
	case 1:
		return float32(math.Inf(1))
	case 2:
		return float32(math.Inf(-1))
	case 3:
		return 0
	case 4:
		return float32(math.Copysign(0, -1))
	case 5:
		return math.Float32frombits(r.Uint32() & 0x807fffff) // subnormal
	case 6:
		return math.Float32frombits(r.Uint32()) // any bits
	}
	return float32(r.NormFloat64() * 100)
}

func specialI32(r *rand.Rand) int32 {
	switch r.IntN(6) {
	case 0:
		return math.MinInt32
	case 1:
		return math.MaxInt32
	case 2:
		return int32(r.IntN(5) - 2)
	}
	return int32(r.Uint32())
}

func fill[T any](r *rand.Rand, n int, gen func(*rand.Rand) T) []T {
	xs := make([]T, n)
	for i := range xs {
		xs[i] = gen(r)
	}
	return xs
}

func specialF64(r *rand.Rand) float64 {
	if r.IntN(3) == 0 {
		return math.Float64frombits(r.Uint64())
	}
	return float64(specialF32(r))
}

func specialI64(r *rand.Rand) int64 { return int64(r.Uint64()) >> r.IntN(64) }

// sameBits compares two columns element by element, floats by their bits
// (so signed zeros count), except that any two NaNs are the same: NaN
// payloads are not part of the semantics, and Go's own conversions
// between f32 and f64 quiet signalling NaNs.
func sameBits(a, b any) (int, bool) {
	switch x := a.(type) {
	case []float32:
		y := b.([]float32)
		for i := range x {
			if math.Float32bits(x[i]) != math.Float32bits(y[i]) && !(x[i] != x[i] && y[i] != y[i]) {
				return i, false
			}
		}
	case []float64:
		y := b.([]float64)
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) && !(x[i] != x[i] && y[i] != y[i]) {
				return i, false
			}
		}
	default:
		va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
		for i := 0; i < va.Len(); i++ {
			if va.Index(i).Interface() != vb.Index(i).Interface() {
				return i, false
			}
		}
	}
	return 0, true
}

func column(t core.PrimType, r *rand.Rand, n int) any {
	switch t {
	case core.F32:
		return fill(r, n, specialF32)
	case core.F64:
		return fill(r, n, specialF64)
	case core.I32:
		return fill(r, n, specialI32)
	case core.U32:
		return fill(r, n, func(r *rand.Rand) uint32 { return uint32(specialI32(r)) })
	case core.U16: // the bits of halves (core.HalfToBits's result)
		return fill(r, n, func(r *rand.Rand) uint16 { return uint16(specialI32(r)) })
	case core.I64:
		return fill(r, n, specialI64)
	case core.U64:
		return fill(r, n, func(r *rand.Rand) uint64 { return uint64(specialI64(r)) })
	}
	panic(fmt.Sprint("no generator for ", t))
}

func makeCol(t core.PrimType, n int) any {
	if t == core.Bool {
		return make([]bool, n)
	}
	return reflect.MakeSlice(reflect.TypeOf(column(t, rand.New(rand.NewPCG(0, 0)), 0)), n, n).Interface()
}

// portableTables are the kernel tables as the portable build fills them.
func portableTables() (bin [len(core.BinOps)][core.NumPrims]binK, un [len(core.UnOps)][core.NumPrims]unK, bvs [len(core.BinOps)][core.NumPrims]binVSK, fold [len(core.BinOps)][core.NumPrims]foldK) {
	// initReduceTables refills scanTab, histTab and msTab too: keep them.
	saved := [5]any{binTab, unTab, binVSTab, foldTab, scanTab}
	initKernelTables()
	initVSTables()
	initReduceTables()
	bin, un, bvs, fold = binTab, unTab, binVSTab, foldTab
	binTab = saved[0].([len(core.BinOps)][core.NumPrims]binK)
	unTab = saved[1].([len(core.UnOps)][core.NumPrims]unK)
	binVSTab = saved[2].([len(core.BinOps)][core.NumPrims]binVSK)
	foldTab = saved[3].([len(core.BinOps)][core.NumPrims]foldK)
	scanTab = saved[4].([len(core.BinOps)][core.NumPrims]scanK)
	return
}

func TestSIMDKernelsMatchPortable(t *testing.T) {
	if !simdOn {
		t.Skip("the CPU lacks AVX2 or FMA: the portable kernels run, and are tested elsewhere")
	}
	pBin, pUn, pVS, pFold := portableTables()
	r := rand.New(rand.NewPCG(1, 2))
	types := []core.PrimType{core.I32, core.U32, core.I64, core.U64, core.F32, core.F64}
	checked := 0
	for _, ty := range types {
		for op := range binTab {
			if binTab[op][ty] == nil {
				continue
			}
			checked += replaced(binTab[op][ty])
			resT := ty
			if core.BinOps[op].Comparison {
				resT = core.Bool
			}
			for _, n := range simdLens {
				x, y := column(ty, r, n), column(ty, r, n)
				got, want := makeCol(resT, n), makeCol(resT, n)
				agree(t, fmt.Sprintf("%v %v, n=%d", core.BinOp(op), ty, n),
					binTab[op][ty](got, x, y), pBin[op][ty](want, x, y), got, want)
			}
		}
		for op := range binVSTab {
			if binVSTab[op][ty] == nil {
				continue
			}
			checked += replaced(binVSTab[op][ty])
			resT := ty
			if core.BinOps[op].Comparison {
				resT = core.Bool
			}
			for _, n := range simdLens {
				for k := 0; k < 8; k++ {
					x, c := column(ty, r, n), column(ty, r, 1)
					got, want := makeCol(resT, n), makeCol(resT, n)
					agree(t, fmt.Sprintf("%v %v by %v, n=%d", core.BinOp(op), ty, c, n),
						binVSTab[op][ty](got, x, c), pVS[op][ty](want, x, c), got, want)
				}
			}
		}
		for op := range unTab {
			if unTab[op][ty] == nil || core.UnOp(op) == core.ExpF || core.UnOp(op) == core.Log {
				continue // exp and log: vmath_test.go
			}
			checked += replaced(unTab[op][ty])
			resT := core.UnOpResult(core.UnOp(op), ty)
			for _, n := range simdLens {
				x := column(ty, r, n)
				got, want := makeCol(resT, n), makeCol(resT, n)
				agree(t, fmt.Sprintf("%v %v, n=%d", core.UnOp(op), ty, n),
					unTab[op][ty](got, x), pUn[op][ty](want, x), got, want)
			}
		}
		for op := range foldTab {
			if foldTab[op][ty] == nil {
				continue
			}
			checked += replaced(foldTab[op][ty])
			for _, n := range simdLens {
				for k := 0; k < 8; k++ {
					x := column(ty, r, n)
					if k&1 == 1 && (ty == core.F32 || ty == core.F64) {
						x = plainFloats(x, r) // no NaN, zero or infinity: the vector path's result
					}
					acc := column(ty, r, 1)
					got, want := makeCol(ty, 1), makeCol(ty, 1)
					reflect.Copy(reflect.ValueOf(got), reflect.ValueOf(acc))
					reflect.Copy(reflect.ValueOf(want), reflect.ValueOf(acc))
					foldTab[op][ty](got, x)
					pFold[op][ty](want, x)
					if _, ok := sameBits(got, want); !ok {
						t.Fatalf("fold %v %v from %v, n=%d: AVX2 %v, portable %v", core.BinOp(op), ty, acc, n, got, want)
					}
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d AVX2 kernels compared: the tables lost their replacements?", checked)
	}
}

// agree fails the test unless a vector kernel and its portable twin
// reported the same error code and, when they succeeded, wrote the same
// bits.
func agree(t *testing.T, what string, gk, wk kerr, got, want any) {
	t.Helper()
	if gk != wk {
		t.Fatalf("%s: AVX2 reports %v, portable %v", what, gk, wk)
	}
	if i, ok := sameBits(got, want); !ok && wk == kOK {
		t.Fatalf("%s, lane %d: AVX2 %v, portable %v", what, i, reflect.ValueOf(got).Index(i), reflect.ValueOf(want).Index(i))
	}
}

// plainFloats replaces the NaNs, zeros and infinities of a float column by
// ordinary numbers.
func plainFloats(x any, r *rand.Rand) any {
	switch xs := x.(type) {
	case []float32:
		for i, e := range xs {
			for e != e || e == 0 || math.IsInf(float64(e), 0) {
				e = float32(r.NormFloat64())
			}
			xs[i] = e
		}
	case []float64:
		for i, e := range xs {
			for e != e || e == 0 || math.IsInf(e, 0) {
				e = r.NormFloat64()
			}
			xs[i] = e
		}
	}
	return x
}

// replaced is 1 when kernel k is one of useSIMD's (its code was made in
// useSIMD, or is one of the v* kernels), else 0. Every entry is compared
// with its portable twin either way; this only counts the replacements, so
// that a build whose tables lost them fails.
func replaced(k any) int {
	name := runtime.FuncForPC(reflect.ValueOf(k).Pointer()).Name()
	if strings.Contains(name, ".useSIMD.") || strings.HasPrefix(name, "github.com/arepl/arepl/eval/cpu.v") {
		return 1
	}
	return 0
}

// TestSIMDArgMax compares the vector passes of an i32 arg-max with the
// portable ones, on chunks where the extreme occurs once, many times, or
// in every lane.
func TestSIMDArgMax(t *testing.T) {
	if !simdOn {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range simdLens {
		for k := 0; k < 6; k++ {
			xs := fill(r, n, specialI32)
			if k >= 3 {
				for i := range xs {
					xs[i] = int32(r.IntN(k)) // many ties
				}
			}
			for _, larger := range []bool{true, false} {
				got := lexI32{}.extreme(xs, n, nil, larger)
				want := lexT[int32]{}.extreme(xs, n, nil, larger)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("n=%d larger=%v: extreme %v, portable %v", n, larger, got, want)
				}
				if n == 0 {
					continue
				}
				g := lexI32{}.equal(xs, n, nil, want, nil)
				w := lexT[int32]{}.equal(xs, n, nil, want, nil)
				if !slices.Equal(g, w) {
					t.Fatalf("n=%d: lanes equal to %v %v, portable %v", n, want, g, w)
				}
			}
		}
	}
}

// TestSIMDSelect compares the vector blend of an if-converted branch with
// the portable loop, for every 4-byte element type and every tail length.
func TestSIMDSelect(t *testing.T) {
	if !simdOn {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, ty := range []core.PrimType{core.F32, core.I32, core.U32} {
		for _, n := range simdLens {
			cond := fill(r, n, func(r *rand.Rand) bool { return r.IntN(2) == 0 })
			a, b := column(ty, r, n), column(ty, r, n)
			got, want := makeCol(ty, n), makeCol(ty, n)
			if !vSelect(got, cond, a, b) {
				t.Fatalf("%v: the vector select declined", ty)
			}
			switch w := want.(type) {
			case []float32:
				selectInto(w, cond, a, b)
			case []int32:
				selectInto(w, cond, a, b)
			case []uint32:
				selectInto(w, cond, a, b)
			}
			if i, ok := sameBits(got, want); !ok {
				t.Fatalf("%v, n=%d, lane %d (cond %v)", ty, n, i, cond[i])
			}
		}
	}
	if vSelect(make([]float64, 1), []bool{true}, []float64{1}, []float64{2}) {
		t.Error("the vector select took 8-byte elements")
	}
}

// TestSIMDScans compares the vector scans and the chained map-scan and
// map-reduce kernels (x*a + b) with their portable twins, carries included.
func TestSIMDScans(t *testing.T) {
	if !simdOn {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, ty := range []core.PrimType{core.I32, core.U32} {
		var pScan scanK
		var pFold chainFoldK
		var pChain chainScanK
		if ty == core.I32 {
			pScan, pFold, pChain = scanAddInt[int32], cfIMulAdd[int32], csIMulAdd[int32]
		} else {
			pScan, pFold, pChain = scanAddInt[uint32], cfIMulAdd[uint32], csIMulAdd[uint32]
		}
		if replaced(scanTab[core.Add][ty]) == 0 || replaced(chainScan2[2][0][ty]) == 0 || replaced(chainFold2[2][0][ty]) == 0 {
			t.Fatalf("%v: the tables hold the portable scans", ty)
		}
		for _, n := range simdLens {
			x, carry, a, b := column(ty, r, n), column(ty, r, 1), column(ty, r, 1), column(ty, r, 1)
			type run struct {
				name      string
				got, want func(d, c any)
			}
			for _, k := range []run{
				{"scan +", func(d, c any) { scanTab[core.Add][ty](d, x, c) }, func(d, c any) { pScan(d, x, c) }},
				{"scan x*a+b", func(d, c any) { chainScan2[2][0][ty](d, x, a, b, c) }, func(d, c any) { pChain(d, x, a, b, c) }},
				{"fold x*a+b", func(_, c any) { chainFold2[2][0][ty](c, x, a, b) }, func(_, c any) { pFold(c, x, a, b) }},
			} {
				gd, wd := makeCol(ty, n), makeCol(ty, n)
				gc, wc := makeCol(ty, 1), makeCol(ty, 1)
				reflect.Copy(reflect.ValueOf(gc), reflect.ValueOf(carry))
				reflect.Copy(reflect.ValueOf(wc), reflect.ValueOf(carry))
				k.got(gd, gc)
				k.want(wd, wc)
				if i, ok := sameBits(gd, wd); !ok {
					t.Fatalf("%s %v, n=%d, lane %d", k.name, ty, n, i)
				}
				if _, ok := sameBits(gc, wc); !ok {
					t.Fatalf("%s %v, n=%d: carry %v, portable %v", k.name, ty, n, gc, wc)
				}
			}
		}
	}
}

// TestSIMDDeinterleave compares the vector split of a column into its even
// and odd lanes with the portable loop.
func TestSIMDDeinterleave(t *testing.T) {
	if !simdOn {
		t.Skip("the CPU lacks AVX2 or FMA")
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, ty := range []core.PrimType{core.F32, core.I32, core.U32} {
		for _, n := range simdLens {
			src := column(ty, r, 2*n+1) // an odd element past the pairs is left alone
			ge, go_, we, wo := makeCol(ty, n), makeCol(ty, n), makeCol(ty, n), makeCol(ty, n)
			if !vDeinterleave(ge, go_, src) {
				t.Fatalf("%v: the vector deinterleave declined", ty)
			}
			switch e := we.(type) {
			case []float32:
				split2(e, wo.([]float32), src.([]float32)[:2*n])
			case []int32:
				split2(e, wo.([]int32), src.([]int32)[:2*n])
			case []uint32:
				split2(e, wo.([]uint32), src.([]uint32)[:2*n])
			}
			if i, ok := sameBits(ge, we); !ok {
				t.Fatalf("%v, n=%d: even lane %d", ty, n, i)
			}
			if i, ok := sameBits(go_, wo); !ok {
				t.Fatalf("%v, n=%d: odd lane %d", ty, n, i)
			}
		}
	}
}

// TestGeneratedSIMDIsCurrent runs gen_simd.go and compares its output with
// simd_kernels_avx2.go, so the generated kernels never drift from their
// generator.
func TestGeneratedSIMDIsCurrent(t *testing.T) {
	out, err := exec.Command("go", "run", "gen_simd.go", "-o", "-").Output()
	if err != nil {
		t.Fatalf("go run gen_simd.go: %v", err)
	}
	have, err := os.ReadFile("simd_kernels_avx2.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, have) {
		t.Error("simd_kernels_avx2.go is not what gen_simd.go writes: run `go generate ./eval/cpu`")
	}
}
