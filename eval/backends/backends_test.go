package backends

import (
	"context"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
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
