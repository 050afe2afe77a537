package gpu

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// zeroBackend answers every program with zeroed values of its result
// types: enough for a session to bind `let` declarations whose values the
// key tests never look at, with no GPU and without eval/cpu.
type zeroBackend struct{}

func (zeroBackend) Name() string { return "zero" }

func (zeroBackend) Run(_ context.Context, prog *core.Program, fn string, _ []eval.Value, _ *eval.Timings) ([]eval.Value, error) {
	f := prog.Fun(fn)
	if f == nil {
		return nil, fmt.Errorf("no function %s", fn)
	}
	var out []eval.Value
	for _, t := range f.Ret {
		shape := make([]int64, t.Rank)
		for i := range shape {
			shape[i] = 8
		}
		out = append(out, eval.NewArray(t.Elem, shape...))
	}
	return out, nil
}

// sessionKeys evaluates the setup lines in a fresh session, then returns
// the module keys of expr compiled as REPL input number line.
func sessionKeys(t *testing.T, setup []string, line int, expr string) []string {
	t.Helper()
	s := eval.NewSession(eval.Options{Fusion: true, CPU: zeroBackend{}, Backend: "cpu"})
	for i, l := range setup {
		if _, err := s.Eval(context.Background(), fmt.Sprintf("[%d]", i+1), l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	c, err := s.Compile(fmt.Sprintf("[%d]", line), expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	keys, err := ModuleKeys(c.Program)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if len(keys) == 0 {
		t.Fatalf("%s: no GPU module", expr)
	}
	return keys
}

// TestModuleKeyStable: the module-cache key of an expression is the same
// whatever REPL line it is typed on, whatever the session did before, and
// whatever its lambda parameters and the user's functions and arrays are
// called, so that a repeat (or a renamed repeat) loads the compiled module
// from memory instead of compiling again (issue 16).
func TestModuleKeyStable(t *testing.T) {
	base := []string{"let ys = map i32.i64 (iota 1000)", "let zs = map i32.i64 (iota 1000)", "def sq (a: i32) = a * a"}
	// A longer history: other lines advance any counter a session keeps.
	busy := append([]string{"let q = 1 + 2", "def twice (a: i32) = a + a", "let w = map (\\x -> x + 1) (iota 5)"}, base...)
	cases := []struct {
		name string
		a, b string // equivalent spellings
	}{
		{"redomap", `reduce (+) 0 (map (\x -> x*7+1) ys)`, `reduce (+) 0 (map (\elem -> elem*7+1) zs)`},
		{"scan", `scan (+) 0 ys`, `scan (+) 0 zs`},
		{"map", `map (\x -> sq x + 3) ys`, `map (\v -> sq v + 3) zs`},
		{"scanomap", `scan (+) 0 (map (\x -> x*2) ys)`, `scan (+) 0 (map (\y -> y*2) zs)`},
		{"constants", `reduce (+) 0 (map (\x -> x*7+1) ys)`, `reduce (+) 0 (map (\y -> y*8+2) zs)`},
		{"float constants", `reduce (+) 0 (map (\x -> f32.i32 x * 0.5f32) ys)`, `reduce (+) 0 (map (\x -> f32.i32 x * 2.25f32) zs)`},
		{"hist", `hist (+) 0 10 (map (\x -> i64.i32 (x % 10)) ys) ys`, `hist (+) 0 10 (map (\z -> i64.i32 (z % 10)) zs) zs`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := sessionKeys(t, base, 4, c.a)
			variants := []struct {
				what  string
				setup []string
				line  int
				expr  string
			}{
				{"a later line", base, 97, c.a},
				{"another session with history", busy, 12, c.a},
				{"renamed", base, 5, c.b},
				{"renamed in another session", busy, 41, c.b},
			}
			for _, v := range variants {
				got := sessionKeys(t, v.setup, v.line, v.expr)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s: %q on line %d: keys %v, want %v (as %q on line 4)", v.what, v.expr, v.line, got, want, c.a)
				}
			}
			// A different computation must not share the key.
			other := sessionKeys(t, base, 4, strings.Replace(c.a, "+", "*", 1))
			if strings.Join(other, " ") == strings.Join(want, " ") {
				t.Errorf("%q and its * variant share keys %v", c.a, want)
			}
		})
	}
}

// TestModuleKeyChecks: a literal is a kernel parameter only where that
// changes nothing else: a literal divisor of zero needs the division check
// that a nonzero one does not, so the two must not share a module.
func TestModuleKeyChecks(t *testing.T) {
	base := []string{"let ys = map i32.i64 (iota 1000)"}
	seven := sessionKeys(t, base, 2, `map (\x -> x / 7) ys`)
	three := sessionKeys(t, base, 3, `map (\x -> x / 3) ys`)
	zero := sessionKeys(t, base, 4, `map (\x -> x / 0) ys`)
	if strings.Join(seven, " ") != strings.Join(three, " ") {
		t.Errorf("x / 7 and x / 3 have keys %v and %v, want one", seven, three)
	}
	if strings.Join(seven, " ") == strings.Join(zero, " ") {
		t.Errorf("x / 7 and x / 0 share keys %v: the zero divisor needs its check", seven)
	}
}

// TestCanonical pins what canonical does to text: comments go, generated
// names are numbered by first occurrence, everything else stays.
func TestCanonical(t *testing.T) {
	src := "// k1_map: map at [3]:1:1\nstatic void k1_map_map(i32 v_x_3, i32 *ar_r0) { // why\n  i32 v_mul_4 = mul_i32(v_x_3, ((i32)7LL)); /* c */\n  f_sq_2(v_mul_4, 1.5e-3f);\n}\n"
	want := "static void k1_map_map(i32 v_0, i32 *ar_r0) {\n  i32 v_1 = mul_i32(v_0, ((i32)7LL));\n  f_0(v_1, 1.5e-3f);\n}\n"
	if got := canonical(src); got != want {
		t.Errorf("canonical:\n%s\nwant:\n%s", got, want)
	}
}

// TestExactlyCommutative: an integer reduction with (+), min, ... uses the
// commutative kernel even when the source did not say reduce_comm (it
// computes the same bits and compiles faster); subtraction and float
// addition keep the ordered one.
func TestExactlyCommutative(t *testing.T) {
	b := core.NewBuilder()
	cases := []struct {
		l    *core.Lambda
		want bool
	}{
		{b.BinOpLambda(core.Add, core.I32), true},
		{b.BinOpLambda(core.Max, core.U8), true},
		{b.BinOpLambda(core.Xor, core.I64), true},
		{b.BinOpLambda(core.Sub, core.I32), false},
		{b.BinOpLambda(core.Add, core.F32), false},
		{b.BinOpLambda(core.Mul, core.F64), false},
	}
	for i, c := range cases {
		if got := exactlyCommutative(c.l); got != c.want {
			t.Errorf("case %d: exactlyCommutative = %v, want %v", i, got, c.want)
		}
	}
	base := []string{"let ys = map i32.i64 (iota 1000)"}
	for expr, want := range map[string]string{
		`reduce (+) 0 (map (\x -> x*7+1) ys)`:        "redomap at",
		`reduce (+) 0 (map (\x -> f32.i32 x) ys)`:    "redomap (ordered) at",
		`reduce (\a b -> a - b) 0 ys`:                "redomap (ordered) at",
		`reduce (\a b -> i32.max b a) i32.lowest ys`: "redomap at",
	} {
		s := eval.NewSession(eval.Options{Fusion: true, CPU: zeroBackend{}, Backend: "cpu"})
		if _, err := s.Eval(context.Background(), "[1]", base[0]); err != nil {
			t.Fatal(err)
		}
		c, err := s.Compile("[2]", expr)
		if err != nil {
			t.Fatal(err)
		}
		src, err := Kernel(c.Program)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(src, want) {
			t.Errorf("%s: kernel is not a %q:\n%s", expr, want, src[:min(len(src), 400)])
		}
	}
}
