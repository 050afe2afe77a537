package cpu

import (
	"testing"

	"github.com/arepl/arepl/lang/core"
)

func TestSmokeRedomapScan(t *testing.T) {
	i32 := core.Scalar(core.I32)
	p := program(t, []core.Type{core.ArrayOf(core.I32, 1)}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		xs := ps[0]
		n := b.Size(xs, 0)
		f := b.Lambda([]core.Type{i32}, func(lb *core.Builder, a []*core.Var) []core.Atom {
			t := lb.BinOp(core.Mul, a[0], core.IntConst(core.I32, 2))
			return []core.Atom{lb.BinOp(core.Add, t, core.IntConst(core.I32, 1))}
		})
		ys := b.Map(n, []*core.Var{xs}, f)[0]
		sum := b.Reduce(n, []*core.Var{ys}, b.BinOpLambda(core.Add, core.I32), []core.Atom{core.IntConst(core.I32, 0)}, true)[0]
		sc := b.Scan(n, []*core.Var{ys}, b.BinOpLambda(core.Add, core.I32), []core.Atom{core.IntConst(core.I32, 0)})[0]
		return []core.Atom{sum, sc}
	})
	xs := make([]int32, 10000)
	for i := range xs {
		xs[i] = int32(i)
	}
	res := mustRun(t, p, arr(core.I32, xs...))
	want := int32(0)
	sc := res[1].Data.([]int32)
	for i, x := range xs {
		want += 2*x + 1
		if sc[i] != want {
			t.Fatalf("scan[%d] = %d, want %d", i, sc[i], want)
		}
	}
	if got := res[0].Data.([]int32)[0]; got != want {
		t.Fatalf("sum = %d, want %d", got, want)
	}
}
