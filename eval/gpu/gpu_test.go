package gpu

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	. "github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

var (
	update = flag.Bool("update", false, "rewrite golden files")
	maxN   = flag.Int("gpu.maxn", 1<<30, "largest size TestDevice runs (smaller under compute-sanitizer)")
)

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if got != string(want) {
		t.Errorf("generated CUDA for %s differs from %s (run with -update to accept):\n%s", name, path, got)
	}
}

// TestKernelGolden renders every test program's CUDA; it needs no GPU.
func TestKernelGolden(t *testing.T) {
	progs := testProgs()
	progs = append(progs, testProg{name: "allops", build: buildAllOps}, testProg{name: "fallback", build: buildFallback})
	for _, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			src, err := Kernel(p.build())
			if err != nil {
				t.Fatal(err)
			}
			golden(t, p.name, src)
		})
	}
}

// buildAllOps maps every unary and binary operator valid on each primitive
// type, and every conversion, so the golden file shows the whole operator
// table's rendering (and the device test compiles it). f16 is left out: no
// backend sees it (eval.WidenHalf makes it f32 with explicit roundings, the
// f16 operators on f32, f64 and u16 that this program includes).
func buildAllOps() *Program {
	var params []*Var
	for _, t := range gpuPrims {
		params = append(params, &Var{Name: "xs_" + t.String(), Type: ArrayOf(t, 1)})
	}
	return fun(params, func(b *Builder) []Atom {
		w := b.Size(params[0], 0)
		var ts []Type
		for _, p := range params {
			ts = append(ts, p.Type.Row())
		}
		f := b.Lambda(ts, func(lb *Builder, ps []*Var) []Atom {
			var out []Atom
			for i, t := range gpuPrims {
				x := ps[i]
				for op := UnOp(0); int(op) < len(UnOps); op++ {
					if UnOpValid(op, t) && UnOpResult(op, t) != F16 {
						out = append(out, lb.UnOp(op, x))
					}
				}
				for op := BinOp(0); int(op) < len(BinOps); op++ {
					if BinOpValid(op, t) {
						out = append(out, lb.BinOp(op, x, x))
					}
				}
				for _, to := range gpuPrims {
					out = append(out, lb.Conv(to, x))
				}
			}
			return out
		})
		res := b.Map(w, params, f)
		out := make([]Atom, len(res))
		for i, r := range res {
			out[i] = r
		}
		return out
	})
}

// gpuPrims are the primitive types a backend meets.
var gpuPrims = PrimTypes[:F16]

// buildFallback has a scan, which this backend leaves to the fallback:
// Kernel must say so.
func buildFallback() *Program {
	xs := &Var{Name: "xs_1", Type: ArrayOf(I32, 1)}
	return fun([]*Var{xs}, func(b *Builder) []Atom {
		w := b.Size(xs, 0)
		return []Atom{b.Scan(w, []*Var{xs}, b.BinOpLambda(Add, I32), []Atom{IntConst(I32, 0)})[0]}
	})
}

func TestConstants(t *testing.T) {
	cases := []struct {
		c    Const
		want string
	}{
		{IntConst(I32, -5), "((i32)-5LL)"},
		{IntConst(I64, math.MinInt64), "((i64)0x8000000000000000ULL)"},
		{IntConst(U64, -1), "((u64)18446744073709551615ULL)"},
		{FloatConst(F32, 0.1), "0.1f"},
		{FloatConst(F64, 2), "2.0"},
		{FloatConst(F32, math.Inf(-1)), "__int_as_float(0xff800000)"},
		{FloatConst(F64, math.NaN()), fmt.Sprintf("__longlong_as_double(0x%016xLL)", math.Float64bits(math.NaN()))},
		{BoolConst(true), "true"},
	}
	for _, c := range cases {
		if got := constant(c.c); got != c.want {
			t.Errorf("constant(%v) = %s, want %s", c.c, got, c.want)
		}
	}
	if got := cname("x'_1"); got != "v_x_27__1" {
		t.Errorf("cname(x'_1) = %s", got)
	}
}

// TestSeqDegree checks the formula against the table of
// Futhark's getScanChunkSize as measured on Hopper (k_mem = 227, k_reg = 64;
// the team's kernel notes, outside this repository),
// before the shared-memory cap, which a huge budget disables here.
func TestSeqDegree(t *testing.T) {
	lim := DefaultLimits
	lim.SharedPerBlock = 1 << 30
	cases := []struct {
		ts   []PrimType
		want int
	}{
		{[]PrimType{I32}, 31},
		{[]PrimType{I64}, 15},
		{[]PrimType{I32, I32}, 15},
		{[]PrimType{F64, F64}, 7},
		{[]PrimType{I32, I32, I32, I32}, 7},
		{[]PrimType{U8}, 31},
	}
	for _, c := range cases {
		if got := seqDegree(c.ts, sizeOf(c.ts), 256, lim); got != c.want {
			t.Errorf("seqDegree(%v) = %d, want %d", c.ts, got, c.want)
		}
	}
	// With the default 48 KiB of static shared memory, a tile must fit.
	for _, c := range cases {
		m := seqDegree(c.ts, sizeOf(c.ts), 256, DefaultLimits)
		sum := 0
		for _, t := range c.ts {
			sum += t.Size()
		}
		if 8*(32*m+m+1)*sum > DefaultLimits.SharedPerBlock || m < 1 {
			t.Errorf("seqDegree(%v) = %d does not fit in shared memory", c.ts, m)
		}
	}
}

func sizeOf(ts []PrimType) int {
	n := 0
	for _, t := range ts {
		n += t.Size()
	}
	return n
}

func TestFreeVars(t *testing.T) {
	p := buildControl()
	f := p.Fun("main")
	fs := newFreeSet()
	fs.stmts(f.Body.Stmts, f.Body.Result, map[string]bool{})
	var got []string
	for _, v := range fs.order {
		got = append(got, v.Name)
	}
	if want := []string{"xs_1"}; !reflect.DeepEqual(got, want) || fs.err != nil {
		t.Errorf("free variables of main = %v (%v), want %v", got, fs.err, want)
	}
}

// newTestBackend returns the backend, or checks that its absence is
// reported as "no GPU: ..." and returns nil.
func newTestBackend(t *testing.T) *Backend {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	b, err := New(Options{})
	if err != nil {
		var ng *cuda.NoGPUError
		if !errors.As(err, &ng) || !strings.HasPrefix(err.Error(), "no GPU: ") {
			t.Fatalf("New without a GPU: got %v, want an error starting \"no GPU: \"", err)
		}
		t.Logf("GPU backend absent as expected: %v", err)
		return nil
	}
	t.Logf("device: %s", b.Device())
	return b
}

// deviceSizes are the sizes every program runs at on the GPU.
var deviceSizes = []int{0, 1, 2, 31, 255, 256, 257, 1000, 7919, 65537, 1 << 20, 3<<20 + 5}

// TestDevice runs every test program on the GPU at every size and compares
// with its Go reference; where there is no GPU it checks the error instead.
func TestDevice(t *testing.T) {
	b := newTestBackend(t)
	if b == nil {
		return
	}
	ctx := context.Background()
	for _, p := range testProgs() {
		t.Run(p.name, func(t *testing.T) {
			prog := p.build()
			for _, n := range deviceSizes {
				if n > *maxN {
					break
				}
				in := p.input(n)
				var tm eval.Timings
				got, err := b.Run(ctx, prog, "main", in, &tm)
				if err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				want := p.ref(in)
				if err := same(ctx, got, want); err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				for _, v := range got {
					if v.Dev != nil {
						v.Dev.Free()
					}
				}
			}
			if p.fail != nil {
				_, err := b.Run(ctx, prog, "main", p.fail(1000), &eval.Timings{})
				var se *source.Error
				if !errors.As(err, &se) || err.Error() != p.failMsg {
					t.Fatalf("want error %q, got %v", p.failMsg, err)
				}
				// The flag is reset: the next run succeeds.
				in := p.input(100)
				if _, err := b.Run(ctx, prog, "main", in, &eval.Timings{}); err != nil {
					t.Fatalf("after a failed check: %v", err)
				}
			}
		})
	}
	t.Run("allops", func(t *testing.T) {
		var in []eval.Value
		// All ones: every operator is defined on them (x / x, x % x, ...).
		for _, ty := range gpuPrims {
			v := eval.NewArray(ty, 1000)
			rv := reflect.ValueOf(v.Data)
			one := reflect.ValueOf(true)
			if ty != Bool {
				one = reflect.ValueOf(1).Convert(rv.Type().Elem())
			}
			for i := 0; i < rv.Len(); i++ {
				rv.Index(i).Set(one)
			}
			in = append(in, v)
		}
		got, err := b.Run(ctx, buildAllOps(), "main", in, &eval.Timings{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0].Len() != 1000 {
			t.Fatalf("allops: %d results", len(got))
		}
	})
	t.Run("cache", func(t *testing.T) {
		// A new backend in the same process finds the cubin on disk.
		b.cache.mods = map[string]*loaded{}
		var tm eval.Timings
		if _, err := b.Run(ctx, buildMSSP(), "main", []eval.Value{arr(i32s(10, 0, 5))}, &tm); err != nil {
			t.Fatal(err)
		}
		if !tm.CacheHit {
			t.Errorf("second compilation of the same module: no cache hit")
		}
	})
}

// same compares results: integers exactly, floats to a relative 1e-3
// (summation order differs between the GPU and the reference).
func same(ctx context.Context, got, want []eval.Value) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d results, want %d", len(got), len(want))
	}
	for i := range got {
		g, err := got[i].Host(ctx)
		if err != nil {
			return err
		}
		w := want[i]
		if g.Elem != w.Elem || !reflect.DeepEqual(g.Shape, w.Shape) && !(len(g.Shape) == 0 && len(w.Shape) == 0) {
			return fmt.Errorf("result %d: %v %v, want %v %v", i, g.Elem, g.Shape, w.Elem, w.Shape)
		}
		gv, wv := reflect.ValueOf(g.Data), reflect.ValueOf(w.Data)
		if gv.Len() != wv.Len() {
			return fmt.Errorf("result %d: %d elements, want %d", i, gv.Len(), wv.Len())
		}
		for j := 0; j < gv.Len(); j++ {
			a, b := gv.Index(j).Interface(), wv.Index(j).Interface()
			switch a := a.(type) {
			case float32:
				if !close(float64(a), float64(b.(float32))) {
					return fmt.Errorf("result %d[%d] = %v, want %v", i, j, a, b)
				}
			case float64:
				if !close(a, b.(float64)) {
					return fmt.Errorf("result %d[%d] = %v, want %v", i, j, a, b)
				}
			default:
				if a != b {
					return fmt.Errorf("result %d[%d] = %v, want %v", i, j, a, b)
				}
			}
		}
	}
	return nil
}

func close(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-3*max(1, math.Abs(a), math.Abs(b))
}

// An assertion's message arguments are free variables too: a statement
// group that the GPU backend hands to the CPU with Cond alone bound failed
// with "unbound variable" on the coercion checks of testdata/conformance.
func TestFreeVarsAssertArgs(t *testing.T) {
	ok := &Var{Name: "ok_1", Type: Scalar(Bool)}
	n := &Var{Name: "n_2", Type: Scalar(I64)}
	s := &Stmt{Exp: &AssertExp{Cond: ok, Msg: "shape [%v]", Args: []Atom{n}}}
	fs := newFreeSet()
	fs.stmts([]*Stmt{s}, nil, map[string]bool{})
	var got []string
	for _, v := range fs.order {
		got = append(got, v.Name)
	}
	if want := []string{"ok_1", "n_2"}; !reflect.DeepEqual(got, want) || fs.err != nil {
		t.Errorf("free variables = %v (%v), want %v", got, fs.err, want)
	}
}
