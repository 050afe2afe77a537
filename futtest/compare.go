package futtest

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/arepl/arepl/eval"
)

// Tolerance is the float tolerance of `futhark test` (Futhark's
// Test.hs/Datacmp.hs pass `Tolerance 0.002` to futhark-data's comparison).
// As there, it is relative to the magnitude of the expected value: two
// arrays of floats agree when every element differs by at most
// max(Tolerance, Tolerance * m), where m is the largest finite magnitude
// among the expected elements. NaN equals NaN, and infinities must match in
// sign.
const Tolerance = 0.002

// maxMismatches bounds how many differing elements a message lists.
const maxMismatches = 3

// Compare checks got against want, value by value: element types and
// shapes must be equal, integers and booleans exactly, floats within
// Tolerance. The error describes the first differences.
func Compare(ctx context.Context, got, want []eval.Value) error {
	if len(got) != len(want) {
		return fmt.Errorf("got %d values, want %d", len(got), len(want))
	}
	for i := range got {
		g, err := got[i].Host(ctx)
		if err != nil {
			return fmt.Errorf("value %d: %v", i, err)
		}
		w, err := want[i].Host(ctx)
		if err != nil {
			return fmt.Errorf("value %d: %v", i, err)
		}
		if err := compareValue(g, w); err != nil {
			if len(got) > 1 {
				return fmt.Errorf("value %d: %v", i, err)
			}
			return err
		}
	}
	return nil
}

func compareValue(got, want eval.Value) error {
	if got.Elem != want.Elem {
		return fmt.Errorf("got element type %s, want %s", got.Elem, want.Elem)
	}
	if !sameShape(got.Shape, want.Shape) {
		return fmt.Errorf("got shape %s, want %s", shapeString(got.Shape), shapeString(want.Shape))
	}
	var bad []string
	note := func(i int, g, w any) {
		if len(bad) < maxMismatches {
			bad = append(bad, fmt.Sprintf("%s: got %v, want %v", indexString(i, want.Shape), g, w))
		} else if len(bad) == maxMismatches {
			bad = append(bad, "...")
		}
	}
	var err error
	switch w := want.Data.(type) {
	case []bool:
		err = exact(got.Data, w, note)
	case []int8:
		err = exact(got.Data, w, note)
	case []int16:
		err = exact(got.Data, w, note)
	case []int32:
		err = exact(got.Data, w, note)
	case []int64:
		err = exact(got.Data, w, note)
	case []uint8:
		err = exact(got.Data, w, note)
	case []uint16:
		err = exact(got.Data, w, note)
	case []uint32:
		err = exact(got.Data, w, note)
	case []uint64:
		err = exact(got.Data, w, note)
	case []float32:
		g, ok := got.Data.([]float32)
		if !ok || len(g) != len(w) {
			return badData(got)
		}
		gs, ws := make([]float64, len(g)), make([]float64, len(w))
		for i := range g {
			gs[i], ws[i] = float64(g[i]), float64(w[i])
		}
		closeFloats(gs, ws, note)
	case []float64:
		g, ok := got.Data.([]float64)
		if !ok || len(g) != len(w) {
			return badData(got)
		}
		closeFloats(g, w, note)
	default:
		return fmt.Errorf("internal error: expected value holds %T", want.Data)
	}
	if err != nil {
		return err
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}

// exact compares element by element; got must be a []T as long as want.
func exact[T comparable](gotData any, want []T, note func(int, any, any)) error {
	got, ok := gotData.([]T)
	if !ok || len(got) != len(want) {
		return fmt.Errorf("internal error: result data %T of length %d does not match its type", gotData, eval.DataLen(gotData))
	}
	for i := range want {
		if got[i] != want[i] {
			note(i, got[i], want[i])
		}
	}
	return nil
}

func badData(v eval.Value) error {
	return fmt.Errorf("internal error: result data %T of length %d does not match its type %s", v.Data, eval.DataLen(v.Data), v.Elem)
}

// closeFloats compares floats with Futhark's tolerance for the whole array.
func closeFloats(got, want []float64, note func(int, any, any)) {
	tol := Tolerance
	for _, w := range want {
		if !math.IsNaN(w) && !math.IsInf(w, 0) {
			tol = math.Max(tol, Tolerance*math.Abs(w))
		}
	}
	for i, w := range want {
		if !FloatsAgree(got[i], w, tol) {
			note(i, got[i], w)
		}
	}
}

// FloatsAgree reports whether got and want agree within the absolute
// tolerance tol, with NaN equal to NaN and infinities equal by sign.
func FloatsAgree(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want) || math.IsNaN(got):
		return math.IsNaN(want) && math.IsNaN(got)
	case math.IsInf(want, 0) || math.IsInf(got, 0):
		return got == want
	}
	return math.Abs(got-want) <= tol
}

func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func shapeString(s []int64) string {
	if len(s) == 0 {
		return "scalar"
	}
	var b strings.Builder
	for _, d := range s {
		fmt.Fprintf(&b, "[%d]", d)
	}
	return b.String()
}

// indexString names flat element i of an array of the given shape
// ("[1,2]"), or "value" for a scalar.
func indexString(i int, shape []int64) string {
	if len(shape) == 0 {
		return "value"
	}
	idx := make([]string, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		n := int(shape[d])
		if n == 0 {
			idx[d] = "0"
			continue
		}
		idx[d] = fmt.Sprint(i % n)
		i /= n
	}
	return "[" + strings.Join(idx, ",") + "]"
}
