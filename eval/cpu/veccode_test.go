package cpu

import (
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// affineReduce is main(as, bs) = the reduction of the pairs (a, b) by the
// composition of affine maps x -> a*x + b, which is associative and not
// commutative: (a1, b1) . (a2, b2) = (a1*a2, b1*a2 + b2).
func affineReduce(t *testing.T) (*core.Program, *core.Lambda) {
	at := core.ArrayOf(core.I64, 1)
	var op *core.Lambda
	p := program(t, []core.Type{at, at}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		i64 := core.Scalar(core.I64)
		op = b.Lambda([]core.Type{i64, i64, i64, i64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			a := lb.BinOp(core.Mul, x[0], x[2])
			c := lb.BinOp(core.Add, lb.BinOp(core.Mul, x[1], x[2]), x[3])
			return []core.Atom{a, c}
		})
		one, zero := core.IntConst(core.I64, 1), core.IntConst(core.I64, 0)
		r := b.Reduce(b.Size(ps[0], 0), ps, op, []core.Atom{one, zero}, false)
		return []core.Atom{r[0], r[1]}
	})
	return p, op
}

// Column code computes a non-commutative tuple reduction as the frame
// interpreter does (Options.Interpret), over lengths around the strips
// and chunks, under every worker and chunk setting; the operator is
// column code, so the comparison is not of the interpreter with itself.
func TestColumnCodeTupleReduce(t *testing.T) {
	p, op := affineReduce(t)
	if compileVec(op) == nil {
		t.Fatal("the affine operator is not column code")
	}
	for _, n := range []int{0, 1, 2, 3, 255, 2049, 4097, 16385, 70001} {
		as, bs := make([]int64, n), make([]int64, n)
		for i := range as {
			as[i], bs[i] = int64(i%5)-2, int64(i*7919%1001)
		}
		args := []eval.Value{arr(core.I64, as...), arr(core.I64, bs...)}
		got := mustRun(t, p, args...)
		want, err := runWith(t, Options{Workers: 1, Chunk: 4096, Interpret: true}, p, args...)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffValues(want, got, 0); d != "" {
			t.Fatalf("n=%d: column code and the interpreter disagree: %s", n, d)
		}
		// And the sequential definition.
		a, b := int64(1), int64(0)
		for i := range as {
			a, b = a*as[i], b*as[i]+bs[i]
		}
		if g := got[0].Data.([]int64)[0]; g != a || got[1].Data.([]int64)[0] != b {
			t.Fatalf("n=%d: got (%d, %d), want (%d, %d)", n, g, got[1].Data.([]int64)[0], a, b)
		}
	}
}
