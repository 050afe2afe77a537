package gpu

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	"github.com/arepl/arepl/lang/core"
)

// sessionProgram compiles expr as REPL input number line of a session that
// evaluated setup first (with no GPU and without running anything real).
func sessionProgram(t testing.TB, setup []string, line int, expr string) *core.Program {
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
	return c.Program
}

// planNoGPU plans prog as the backend would for an sm_90 device, with no
// GPU: a backend with only its Limits answers gpuRuns.
func planNoGPU(c *seenPrograms, prog *core.Program, substitute bool) (*seenProgram, string, error) {
	b := &Backend{lim: DefaultLimits}
	return c.plan(prog, "main", b.lim, "sm_90", [2]int{13, 0}, substitute, b.gpuRuns)
}

// TestSeenRenamedRepeat: an expression typed again, on another line or
// with its names changed, runs the program seen first with its module:
// nothing is generated again (issue 16's hit path). A different
// computation, or other constants, are not taken for it.
func TestSeenRenamedRepeat(t *testing.T) {
	base := []string{"let ys = map i32.i64 (iota 1000)", "let zs = map i32.i64 (iota 1000)", "def sq (a: i32) = a * a"}
	cases := []struct {
		name    string
		a, b    string // equivalent spellings
		other   string // a different computation
		distant string // equal up to constants only: generated anew
	}{
		{"redomap", `reduce (+) 0 (map (\x -> x*7+1) ys)`, `reduce (+) 0 (map (\elem -> elem*7+1) zs)`, `reduce (+) 0 (map (\x -> x*7-1) ys)`, `reduce (+) 0 (map (\x -> x*8+1) ys)`},
		{"scan", `scan (+) 0 ys`, `scan (+) 0 zs`, `scan (*) 0 ys`, `scan (+) 1 ys`},
		{"function", `map (\x -> sq x + 3) ys`, `map (\v -> sq v + 3) zs`, `map (\x -> sq (x + 3)) ys`, `map (\x -> sq x + 4) ys`},
		{"operands swapped", `map2 (\x y -> x - y) ys zs`, `map2 (\p q -> p - q) zs ys`, `map2 (\x y -> y - x) ys zs`, `map2 (\x y -> x - y - 1) ys zs`},
		{"hist", `hist (+) 0 10 (map (\x -> i64.i32 (x % 10)) ys) ys`, `hist (+) 0 10 (map (\z -> i64.i32 (z % 10)) zs) zs`, `hist (+) 0 10 (map (\x -> i64.i32 (x % 10)) ys) zs`, `hist (+) 0 11 (map (\x -> i64.i32 (x % 10)) ys) ys`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var memo seenPrograms
			first := sessionProgram(t, base, 4, c.a)
			e, _, err := planNoGPU(&memo, first, true)
			if err != nil {
				t.Fatal(err)
			}
			if e.prog != first || memo.generations() != 1 {
				t.Fatalf("first plan: program %p (want %p), %d generations", e.prog, first, memo.generations())
			}
			for _, v := range []struct {
				what string
				line int
				expr string
			}{{"the same line", 4, c.a}, {"a later line", 97, c.a}, {"renamed", 5, c.b}} {
				p := sessionProgram(t, base, v.line, v.expr)
				got, fn, err := planNoGPU(&memo, p, true)
				if err != nil {
					t.Fatal(err)
				}
				if got != e || fn != "main" || memo.generations() != 1 {
					t.Errorf("%s (%q on line %d): planned %p as %q after %d generations, want the first program's %p, one generation", v.what, v.expr, v.line, got, fn, memo.generations(), e)
				}
			}
			// Without substitution (a run redone as itself) the program
			// gets its own module.
			p := sessionProgram(t, base, 6, c.b)
			if got, _, _ := planNoGPU(&memo, p, false); got.prog != p || memo.generations() != 2 {
				t.Errorf("without substitution: planned %p, want the program's own (%d generations)", got.prog, memo.generations())
			}
			for _, expr := range []string{c.other, c.distant} {
				p := sessionProgram(t, base, 7, expr)
				n := memo.generations()
				if got, _, _ := planNoGPU(&memo, p, true); got.prog != p || memo.generations() != n+1 {
					t.Errorf("%q was taken for %q", expr, c.a)
				}
			}
		})
	}
}

// TestFingerprint: positions and spellings do not enter a fingerprint;
// the function a program runs and a callee that is not the program's own
// do.
func TestFingerprint(t *testing.T) {
	base := []string{"let ys = map i32.i64 (iota 1000)", "def sq (a: i32) = a * a", "def square (b: i32) = b * b"}
	fp := func(line int, expr string) string {
		f, _, ok := fingerprint(sessionProgram(t, base, line, expr), "main")
		if !ok {
			t.Fatalf("%s: no fingerprint", expr)
		}
		return f
	}
	if fp(3, `map (\x -> sq x) ys`) != fp(40, `map (\y -> square y) ys`) {
		t.Errorf("renamed function: fingerprints differ")
	}
	if fp(3, `map (\x -> x + 1) ys`) == fp(3, `map (\x -> x + 2) ys`) {
		t.Errorf("constants 1 and 2 share a fingerprint")
	}
	if fp(3, `map (\x -> f32.i32 x) ys`) == fp(3, `map (\x -> f32.i32 x + 0f32) ys`) {
		t.Errorf("different programs share a fingerprint")
	}
	prog := sessionProgram(t, base, 3, `map (\x -> sq x) ys`)
	if _, _, ok := fingerprint(prog, "no_such_function"); ok {
		t.Errorf("a missing function has a fingerprint")
	}
	a := &core.Program{Funs: []*core.Fun{{Name: "main", Body: &core.Body{Stmts: []*core.Stmt{{Exp: &core.ApplyExp{Fun: "abs"}}}}}}}
	b := &core.Program{Funs: []*core.Fun{{Name: "main", Body: &core.Body{Stmts: []*core.Stmt{{Exp: &core.ApplyExp{Fun: "sgn"}}}}}}}
	fa, _, _ := fingerprint(a, "main")
	fb, _, _ := fingerprint(b, "main")
	if fa == fb {
		t.Errorf("calls of two functions the program does not define share a fingerprint")
	}
}

// TestSeenCPUStatementAlone: a program whose module leaves a SOAC to the
// CPU notes it on every run, naming the program's own statement, so it
// never stands in for another.
func TestSeenCPUStatementAlone(t *testing.T) {
	base := []string{"let ys = map i32.i64 (iota 1000)", "let zs = map i32.i64 (iota 1000)"}
	var memo seenPrograms
	// A reduction over rows of arrays with a non-vector operator: the CPU
	// runs it (CPUStatements).
	a := `reduce (\a b -> if a[0] > b[0] then a else b) (replicate 3 0) (map (\x -> [x, x+1, x+2]) ys)`
	b := `reduce (\p q -> if p[0] > q[0] then p else q) (replicate 3 0) (map (\y -> [y, y+1, y+2]) zs)`
	pa := sessionProgram(t, base, 3, a)
	cs, err := CPUStatements(pa)
	if err != nil || len(cs) == 0 {
		t.Fatalf("%s: CPU statements %v, %v: the test needs one", a, cs, err)
	}
	if e, _, err := planNoGPU(&memo, pa, true); err != nil || !e.alone {
		t.Fatalf("planned %+v, %v: want a program left alone", e, err)
	}
	pb := sessionProgram(t, base, 4, b)
	if e, _, _ := planNoGPU(&memo, pb, true); e.prog != pb || memo.generations() != 2 {
		t.Errorf("a program with a CPU statement stood in for its renaming")
	}
}

// BenchmarkHitPath is the GPU-free part of a repeated REPL line's Run:
// finding the module of a program compiled anew (other pointers, same
// text). "before" is what every repeat paid before the seen programs
// (generate, canonical text, SHA-256, and for a scan its module again);
// "seen" is the hit now, with a scan's lookup of its module's text and
// key.
func BenchmarkHitPath(b *testing.B) {
	base := []string{"let ys = map i32.i64 (iota 1000)"}
	for _, c := range []struct{ name, expr string }{
		{"redomap", `reduce (+) 0 (map (\x -> x*7+1) ys)`},
		{"ordered_f32", `reduce (+) 0 (map (\x -> f32.i32 x) ys)`},
		{"scan", `scan (+) 0 ys`},
	} {
		progs := make([]*core.Program, 64)
		for i := range progs {
			progs[i] = sessionProgram(b, base, i+2, c.expr)
		}
		scanText := func(bk *Backend, e *seenProgram) {
			for s := range e.mod.fallback {
				if m, _, _ := bk.scanPlan(e.prog, s); m != nil {
					moduleText(m.prelude(), m.body, "sm_90", [2]int{13, 0})
				}
			}
		}
		b.Run(c.name+"/before", func(b *testing.B) {
			// The path before seen programs: generate, then the canonical
			// text and its SHA-256, for the module and each scan.
			text := func(pre, body string) {
				c := canonical(body)
				_ = pre + "\n" + c
				cacheKey(preludeDigest(pre), c, "sm_90", fmt.Sprint([2]int{13, 0}))
			}
			for i := 0; b.Loop(); i++ {
				prog := progs[i%len(progs)]
				m, err := generate(prog, DefaultLimits)
				if err != nil {
					b.Fatal(err)
				}
				if len(m.kernels) > 0 {
					text(prelude, m.body)
				}
				for s := range m.fallback {
					if sm, err := genScan(prog, s, DefaultLimits); err == nil {
						text(sm.prelude(), sm.body)
					}
				}
			}
		})
		b.Run(c.name+"/seen", func(b *testing.B) {
			bk := &Backend{lim: DefaultLimits}
			var memo seenPrograms
			if _, _, err := planNoGPU(&memo, progs[0], true); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				e, _, err := planNoGPU(&memo, progs[i%len(progs)], true)
				if err != nil {
					b.Fatal(err)
				}
				scanText(bk, e)
			}
			if memo.generations() != 1 {
				b.Fatalf("%d generations, want 1", memo.generations())
			}
		})
	}
}

// TestDeviceSeen runs renamed repeats on the GPU: the values are those of
// the CPU, one module is generated for them, and an error is positioned
// in the program typed, not in the one it ran as.
func TestDeviceSeen(t *testing.T) {
	b := newTestBackend(t)
	if b == nil {
		return
	}
	defer b.Close()
	ctx := context.Background()
	ref := cpu.New(cpu.Options{})
	ys := make([]int32, 1<<20)
	for i := range ys {
		ys[i] = int32(i%1000 - 500)
	}
	in := []eval.Value{{Elem: core.I32, Shape: []int64{int64(len(ys))}, Data: ys}}
	base := []string{"let ys = map i32.i64 (iota 1000)", "let zs = map i32.i64 (iota 1000)"}
	for _, c := range []struct{ a, b string }{
		{`reduce (+) 0 (map (\x -> x*7+1) ys)`, `reduce (+) 0 (map (\elem -> elem*7+1) zs)`},
		{`scan (+) 0 ys`, `scan (+) 0 zs`},
		{`reduce (+) 0f32 (map (\x -> f32.i32 x * 0.5f32) ys)`, `reduce (+) 0f32 (map (\v -> f32.i32 v * 0.5f32) zs)`},
	} {
		n := b.seen.generations()
		for i, expr := range []string{c.a, c.a, c.b, c.b} {
			p := sessionProgram(t, base, 3+i, expr)
			got, err := b.Run(ctx, p, "main", in, &eval.Timings{})
			if err != nil {
				t.Fatalf("%s: %v", expr, err)
			}
			want, err := ref.Run(ctx, p, "main", in, &eval.Timings{})
			if err != nil {
				t.Fatal(err)
			}
			if err := same(ctx, got, want); err != nil {
				t.Errorf("%s (run %d): %v", expr, i, err)
			}
		}
		if g := b.seen.generations() - n; g != 1 {
			t.Errorf("%s: %d modules generated for four runs, want 1", c.a, g)
		}
	}
	// A failing repeat: the error is the typed program's. Exactly one
	// index is out of bounds (999 + 999/999 = 1000): with several, which
	// one a run reports depends on the threads' timing, and the messages
	// compared below would differ by chance (they did under memcheck).
	bad := func(line int, name string) *core.Program {
		return sessionProgram(t, base, line, fmt.Sprintf(`reduce (+) 0 (map (\%s -> ys[%s + %s / 999]) (iota 1000))`, name, name, name))
	}
	inYs := []eval.Value{{Elem: core.I32, Shape: []int64{1000}, Data: ys[:1000]}}
	_, err1 := b.Run(ctx, bad(3, "i"), "main", inYs, &eval.Timings{})
	_, err2 := b.Run(ctx, bad(17, "index"), "main", inYs, &eval.Timings{})
	if err1 == nil || err2 == nil || !strings.HasPrefix(err2.Error(), "[17]:") || strings.Contains(err2.Error(), "[3]:") {
		t.Fatalf("errors %v and %v: want the second at [17]", err1, err2)
	}
	b.seen.forget()
	_, want := b.Run(ctx, bad(17, "index"), "main", inYs, &eval.Timings{})
	if want == nil || err2.Error() != want.Error() {
		t.Errorf("repeat's error %q, the program's own %q", err2, want)
	}
}
