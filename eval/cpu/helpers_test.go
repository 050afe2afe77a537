package cpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Test helpers: programs are built with core.Builder, the way lowering
// builds them, and checked by the verifier before they run.

var testPos = source.Pos{File: "t.fut", Line: 3, Col: 7}

func vals(vs ...eval.Value) []eval.Value { return vs }

func arr[T any](t core.PrimType, xs ...T) eval.Value {
	d := append([]T{}, xs...)
	return eval.Value{Elem: t, Shape: []int64{int64(len(d))}, Data: d}
}

func scalar[T any](t core.PrimType, x T) eval.Value {
	return eval.Value{Elem: t, Data: []T{x}}
}

// program builds a one-function program "main" with parameters of the
// given types; body returns the results.
func program(t testing.TB, params []core.Type, body func(b *core.Builder, ps []*core.Var) []core.Atom) *core.Program {
	t.Helper()
	b := core.NewBuilder()
	b.Pos = testPos
	ps := make([]*core.Var, len(params))
	for i, pt := range params {
		ps[i] = b.Fresh("a", pt)
	}
	f := b.Fun("main", true, ps, func(fb *core.Builder) []core.Atom { return body(fb, ps) })
	p := &core.Program{Funs: []*core.Fun{f}}
	if err := core.Verify(p); err != nil {
		t.Fatalf("test program does not verify: %v\n%s", err, core.Print(p))
	}
	return p
}

func runWith(t testing.TB, opts Options, p *core.Program, args ...eval.Value) ([]eval.Value, error) {
	t.Helper()
	var tm eval.Timings
	return New(opts).Run(context.Background(), p, "main", args, &tm)
}

// mustRun runs p under several worker and chunk settings and checks that
// they agree; it returns the result of the first.
func mustRun(t testing.TB, p *core.Program, args ...eval.Value) []eval.Value {
	t.Helper()
	var first []eval.Value
	for i, o := range testOptions {
		res, err := runWith(t, o, p, args...)
		if err != nil {
			t.Fatalf("run with %+v: %v\n%s", o, err, core.Print(p))
		}
		if i == 0 {
			first = res
			continue
		}
		if d := diffValues(first, res, 0); d != "" {
			t.Fatalf("options %+v disagree with %+v: %s", o, testOptions[0], d)
		}
	}
	return first
}

var testOptions = []Options{
	{Workers: 1, Chunk: 4096},
	{Workers: 4, Chunk: 3},
	{Workers: 3, Chunk: 1},
	{Workers: 2, Chunk: 64},
}

// diffValues compares results; floats within a relative tolerance tol.
func diffValues(a, b []eval.Value, tol float64) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d results vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Elem != b[i].Elem || !sameShape(a[i].Shape, b[i].Shape) {
			return fmt.Sprintf("result %d: %v%v vs %v%v", i, a[i].Shape, a[i].Elem, b[i].Shape, b[i].Elem)
		}
		n := int(a[i].Len())
		for j := 0; j < n; j++ {
			x, y := elemString(a[i].Data, j), elemString(b[i].Data, j)
			if x == y {
				continue
			}
			if tol > 0 && closeEnough(a[i].Data, b[i].Data, j, tol) {
				continue
			}
			return fmt.Sprintf("result %d element %d: %s vs %s", i, j, x, y)
		}
	}
	return ""
}

func closeEnough(a, b any, j int, tol float64) bool {
	var x, y float64
	switch a := a.(type) {
	case []float32:
		x, y = float64(a[j]), float64(b.([]float32)[j])
	case []float64:
		x, y = a[j], b.([]float64)[j]
	default:
		return false
	}
	d := x - y
	if d < 0 {
		d = -d
	}
	m := max(abs(x), abs(y), 1)
	return d <= tol*m
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func elemString(d any, j int) string {
	switch d := d.(type) {
	case []bool:
		return fmt.Sprint(d[j])
	case []int8:
		return fmt.Sprint(d[j])
	case []int16:
		return fmt.Sprint(d[j])
	case []int32:
		return fmt.Sprint(d[j])
	case []int64:
		return fmt.Sprint(d[j])
	case []uint8:
		return fmt.Sprint(d[j])
	case []uint16:
		return fmt.Sprint(d[j])
	case []uint32:
		return fmt.Sprint(d[j])
	case []uint64:
		return fmt.Sprint(d[j])
	case []float32:
		return fmt.Sprint(d[j])
	case []float64:
		return fmt.Sprint(d[j])
	}
	return fmt.Sprintf("<%T>", d)
}

func valueString(v eval.Value) string {
	if len(v.Shape) == 0 {
		return elemString(v.Data, 0)
	}
	s := "["
	for j := 0; j < int(v.Len()); j++ {
		if j > 0 {
			s += " "
		}
		s += elemString(v.Data, j)
	}
	return s + "]"
}
