package cpu

import (
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// TestVectorScalarKernels checks every vector-scalar kernel against the
// general kernel of its operator with the constant broadcast to a column,
// for constants around the edges of each type (shift amounts past the
// width and negative ones included) and operands of every sign.
func TestVectorScalarKernels(t *testing.T) {
	consts := []int64{0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 100, -1, -2, -33, -64, -65, 1 << 40, -1 << 62}
	xs := []int64{0, 1, -1, 2, 5, -7, 100, -100, 1 << 20, -1 << 30, 1<<62 + 3, -1 << 63, 1<<63 - 1}
	for op := range core.BinOps {
		for _, pt := range core.PrimTypes {
			vk, gk := binVSTab[op][pt], binTab[op][pt]
			if vk == nil {
				continue
			}
			if gk == nil {
				t.Fatalf("%v on %v: a vector-scalar kernel but no general one", core.BinOp(op), pt)
			}
			x := eval.MakeSlice(pt, len(xs))
			for i, v := range xs {
				setLane(x, i, num(pt, v), 0)
			}
			for _, c := range consts {
				cs := num(pt, c)
				ys := eval.MakeSlice(pt, len(xs))
				fillAny(ys, cs, 0)
				rt := core.BinOpResult(core.BinOp(op), pt)
				got, want := eval.MakeSlice(rt, len(xs)), eval.MakeSlice(rt, len(xs))
				if r := vk(got, x, cs); r != kOK {
					t.Fatalf("%v on %v by %d: %s", core.BinOp(op), pt, c, r.msg())
				}
				if r := gk(want, x, ys); r != kOK {
					t.Fatalf("%v on %v by %d (general): %s", core.BinOp(op), pt, c, r.msg())
				}
				for i := range xs {
					g := eval.Value{Elem: rt, Data: sliceAny(got, i, i+1)}
					w := eval.Value{Elem: rt, Data: sliceAny(want, i, i+1)}
					if d := diffValues([]eval.Value{g}, []eval.Value{w}, 0); d != "" {
						t.Errorf("%v on %v: x=%d, c=%d: %s", core.BinOp(op), pt, xs[i], c, d)
					}
				}
			}
		}
	}
}

// num is v as a one-element slice of t (wrapped; floats converted).
func num(t core.PrimType, v int64) any {
	switch {
	case t.IsFloat():
		return eval.Scalar(core.FloatConst(t, float64(v))).Data
	case t == core.Bool:
		return []bool{v != 0}
	}
	return eval.Scalar(core.IntConst(t, v)).Data
}
