package cpu

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// TestTransposeIndices transposes the last rows of an i8 array of more than
// 2^31 elements (issue 14, item 12: int32 indices overflowed). The array is
// 2 GiB of address space, but only the pages the rows read and write are
// touched, so the test needs a few MiB of memory.
func TestTransposeIndices(t *testing.T) {
	const a, b = 1<<16 + 1, 1 << 15 // a*b = 2^31 + 2^15
	src := make([]int8, a*b)
	dst := make([]int8, a*b)
	marks := [][2]int{{a - 1, b - 1}, {a - 1, b - 64}, {a - 2, b - 7}, {a / 2, b - 33}, {0, b - 1}}
	for k, ij := range marks {
		src[ij[0]*b+ij[1]] = int8(k + 1)
	}
	transposeRows(dst, src, a, b, b-64, b)
	for k, ij := range marks {
		i, j := ij[0], ij[1]
		if got := dst[j*a+i]; got != int8(k+1) {
			t.Errorf("element [%d][%d] of the transpose is %d, want %d", j, i, got, k+1)
		}
	}
}

// TestTransposeMemory checks that transpose takes no memory beyond its
// result (issue 14, item 12: it took 7-10 times the array), and that the
// tiled copy is right on shapes that are not multiples of the tile.
func TestTransposeMemory(t *testing.T) {
	const a, b = 3001, 2003
	src := make([]int8, a*b)
	for k := range src {
		src[k] = int8(k ^ k>>8)
	}
	p := program(t, []core.Type{core.ArrayOf(core.I8, 2)}, func(bl *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{bl.Let("t", &core.TransposeExp{Arr: ps[0]})}
	})
	in := eval.Value{Elem: core.I8, Shape: []int64{a, b}, Data: src}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := runWith(t, Options{}, p, in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if extra := int64(after.TotalAlloc-before.TotalAlloc) - a*b; extra > 64<<10 {
		t.Errorf("transpose of %d bytes allocated %d KiB beyond its result", a*b, extra>>10)
	}
	d := res[0].Data.([]int8)
	for i := range a {
		for j := range b {
			if d[j*a+i] != src[i*b+j] {
				t.Fatalf("element [%d][%d] of the transpose is %d, want %d", j, i, d[j*a+i], src[i*b+j])
			}
		}
	}
}

// TestShapeOverflow checks that shapes whose sizes multiply past 2^63-1
// are refused, as arguments and when reshaping (issue 14, item 9).
func TestShapeOverflow(t *testing.T) {
	p := program(t, []core.Type{core.ArrayOf(core.F32, 2)}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{ps[0]}
	})
	huge := eval.Value{Elem: core.F32, Shape: []int64{1 << 62, 4}, Data: []float32{}}
	if _, err := New(Options{}).Run(context.Background(), p, "main", []eval.Value{huge}, nil); err == nil ||
		!strings.Contains(err.Error(), "too large") {
		t.Errorf("argument of shape [2^62][4] holding nothing: error %v", err)
	}
	p = program(t, []core.Type{core.ArrayOf(core.F32, 1)}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{b.Let("r", &core.ReshapeExp{Arr: ps[0], Shape: []core.Atom{c64(1 << 32), c64(1 << 32)}})}
	})
	_, err := runWith(t, Options{}, p, eval.Value{Elem: core.F32, Shape: []int64{0}, Data: []float32{}})
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("reshape of [0] to [2^32][2^32]: error %v", err)
	}
}
