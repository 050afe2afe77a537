package backends

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// These tests drive the whole pipeline — parse, check, lower, fuse, run on
// the CPU — through the Session API the REPL and the kernel use.

func eval1(t *testing.T, s *eval.Session, src string) *eval.Result {
	t.Helper()
	r, err := s.Eval(context.Background(), "<test>", src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return r
}

func TestSessionPipeline(t *testing.T) {
	for _, fused := range []bool{false, true} {
		s := NewSession(eval.Options{Backend: "cpu", Fusion: fused})
		r := eval1(t, s, "reduce (+) 0 (iota 10)")
		if got := show(t, r); got != "45" {
			t.Fatalf("fusion=%v: got %q, want 45", fused, got)
		}
		eval1(t, s, "let xs = map (\\x -> x * 2 + 1) (iota 5)")
		r = eval1(t, s, "scan (+) 0 xs")
		if got := show(t, r); got != "[1, 4, 9, 16, 25]" {
			t.Fatalf("fusion=%v: got %q", fused, got)
		}
		eval1(t, s, "def f (x: i32) = x + 1")
		r = eval1(t, s, "f 41")
		if got := show(t, r); got != "42" {
			t.Fatalf("got %q", got)
		}
	}
}

func TestSessionErrorsLeaveSessionIntact(t *testing.T) {
	s := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	eval1(t, s, "let a = [1, 2, 3]")
	if _, err := s.Eval(context.Background(), "<test>", "a[5]"); err == nil || !strings.Contains(err.Error(), "out of bounds") {
		t.Fatalf("want an out-of-bounds error, got %v", err)
	}
	if _, err := s.Eval(context.Background(), "<test>", "let a = 1 +"); err == nil {
		t.Fatal("want a parse error")
	}
	r := eval1(t, s, "a[2]")
	if got := show(t, r); got != "3" {
		t.Fatalf("got %q", got)
	}
}

func show(t *testing.T, r *eval.Result) string {
	t.Helper()
	s, err := eval.Format(r.Type, r.Values, 100)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCallReusesCompiledEntry calls an entry point repeatedly: the second
// call of the same entry runs the program compiled by the first (no
// checking, lowering or fusion time), on arguments of another size; after
// a declaration, or with fusion switched, it compiles afresh.
func TestCallReusesCompiledEntry(t *testing.T) {
	ctx := context.Background()
	s := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	eval1(t, s, "def f (x: i32) = x * 2")
	eval1(t, s, "entry main (xs: []i32) : i32 = reduce (+) 0 (map f xs)")
	arg := func(xs ...int32) [][]eval.Value {
		return [][]eval.Value{{{Elem: core.I32, Shape: []int64{int64(len(xs))}, Data: xs}}}
	}
	call := func(want int32, xs ...int32) *eval.Result {
		t.Helper()
		r, err := s.Call(ctx, "main", arg(xs...))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Values[0].Data.([]int32)[0]; got != want {
			t.Fatalf("main %v = %d, want %d", xs, got, want)
		}
		return r
	}
	first := call(12, 1, 2, 3)
	if first.Timings.Lower == 0 || first.Plan == nil {
		t.Fatalf("first call: lower time %v, plan %v: want a fresh compilation", first.Timings.Lower, first.Plan)
	}
	again := call(20, 1, 2, 3, 4)
	if again.Timings.Parse != 0 || again.Timings.Lower != 0 || again.Timings.Fuse != 0 || again.Plan != first.Plan {
		t.Fatalf("second call compiled again: %+v", again.Timings)
	}
	// main keeps the f it was declared with (declarations are lexically
	// scoped, as in Futhark), but the environment changed: compile afresh.
	eval1(t, s, "def f (x: i32) = x * 3")
	if r := call(12, 1, 2, 3); r.Timings.Lower == 0 {
		t.Fatal("the call after a declaration did not compile afresh")
	}
	eval1(t, s, "entry main (xs: []i32) : i32 = reduce (+) 0 (map f xs)")
	call(18, 1, 2, 3)
	s.SetFusion(false)
	if r := call(18, 1, 2, 3); r.Plan != nil || r.Timings.Lower == 0 {
		t.Fatalf("with fusion off: plan %v, lower time %v", r.Plan, r.Timings.Lower)
	}
}

// TestSequentialLetsAtTheREPL evaluates 5,000 lets in sequence, as one
// REPL input and as a function body declared at the REPL: a sequence is
// not nesting, so neither hits the 1,000-level nesting limit.
func TestSequentialLetsAtTheREPL(t *testing.T) {
	const n = 5000
	var expr, fun strings.Builder
	fun.WriteString("def f (x: i64) : i64 =")
	for i := range n {
		fmt.Fprintf(&expr, "let x%d = %s + %d in ", i, prevLet(i, "2"), i)
		fmt.Fprintf(&fun, "\n  let x = x + %d", i)
	}
	fmt.Fprintf(&expr, "x%d", n-1)
	fun.WriteString("\n  in x")
	s := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	want := fmt.Sprint(n*(n-1)/2 + 2)
	if got := show(t, eval1(t, s, expr.String())); got != want {
		t.Errorf("%d lets: got %s, want %s", n, got, want)
	}
	eval1(t, s, fun.String())
	if got := show(t, eval1(t, s, "f 2")); got != want {
		t.Errorf("a function of %d lets: got %s, want %s", n, got, want)
	}
}

func prevLet(i int, first string) string {
	if i == 0 {
		return first
	}
	return fmt.Sprintf("x%d", i-1)
}
