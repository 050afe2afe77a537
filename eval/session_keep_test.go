package eval

import (
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
