package eval

import (
	"context"
	"fmt"
	"testing"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/types"
)

// TestKeepNewNameIsCheap: a notebook keeps a new _N after every cell.
// Binding a new name cannot leave any value unreachable, so Keep does not
// walk the environment for them (it cost a CPU cell more than its
// evaluation: bench/RESULTS.md, "Interactive latency", run 11); the walk
// allocates maps, so its absence shows in the allocations. Rebinding a
// name still frees the value only it reached.
func TestKeepNewNameIsCheap(t *testing.T) {
	s := NewSession(Options{Backend: "cpu"})
	scalar := func(v uint64) *Result {
		return &Result{Type: types.Prim{T: core.I32}, Values: []Value{Scalar(core.Const{T: core.I32, Bits: v})}}
	}
	names := make([]string, 200)
	for i := range names {
		names[i] = fmt.Sprintf("_%d", i)
	}
	i := 0
	r := scalar(7)
	if a := testing.AllocsPerRun(100, func() { s.Keep(names[i], r); i++ }); a > 8 {
		t.Errorf("Keep of a new name: %v allocations, want at most 8 (the environment walked?)", a)
	}
	if len(s.values) != i {
		t.Fatalf("%d values kept under %d names", len(s.values), i)
	}
	first, _ := s.env.Lookup(names[0])
	if !s.Keep(names[0], scalar(8)) {
		t.Fatal("Keep refused a scalar")
	}
	if _, ok := s.values[first]; ok {
		t.Errorf("rebinding %s kept the value only the old binding reached", names[0])
	}
	if len(s.values) != i {
		t.Errorf("%d values after rebinding one of %d names", len(s.values), i)
	}
}

// constBackend answers every run with the i32 7: enough for declarations
// whose values only their bookkeeping looks at.
type constBackend struct{}

func (constBackend) Name() string { return "const" }
func (constBackend) Run(context.Context, *core.Program, string, []Value, *Timings) ([]Value, error) {
	return []Value{Scalar(core.Const{T: core.I32, Bits: 7})}, nil
}

// TestDeclareDropsOnlyWhenShadowing: a declaration of new names skips the
// walk for unreachable values (700 names with the prelude's, a third of a
// repeated `let`'s host time); one that rebinds a name still frees the
// value only the old binding reached, and keeps one a function still uses.
func TestDeclareDropsOnlyWhenShadowing(t *testing.T) {
	s := NewSession(Options{Backend: "cpu", CPU: constBackend{}})
	ctx := context.Background()
	eval := func(src string) {
		t.Helper()
		if _, err := s.Eval(ctx, "[t]", src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	obj := func(name string) *types.Object {
		o, _ := s.env.Lookup(name)
		return o
	}
	eval("let a: i32 = 1")
	eval("let b: i32 = 2")
	a, b := obj("a"), obj("b")
	if len(s.values) != 2 {
		t.Fatalf("%d values for 2 names", len(s.values))
	}
	eval("let a: i32 = 3")
	if _, ok := s.values[a]; ok {
		t.Error("rebinding a kept the value only the old a reached")
	}
	if _, ok := s.values[b]; !ok {
		t.Error("rebinding a dropped b's value")
	}
	eval("def f (x: i32) : i32 = x + b")
	eval("let b: i32 = 4")
	if _, ok := s.values[b]; !ok {
		t.Error("rebinding b dropped the old b's value, which f still uses")
	}
	if len(s.values) != 3 {
		t.Errorf("%d values, want 3 (a, b, the old b that f uses)", len(s.values))
	}
}
