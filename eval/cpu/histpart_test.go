package cpu

import (
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// TestHistPartitioned runs hist through the partitioned path (thresholds
// lowered so that small inputs take it: ranges of 4 buckets) with an
// identity map and with a computed one, out-of-range indices included,
// on three workers, against a Go loop.
func TestHistPartitioned(t *testing.T) {
	defer func(shift uint, lo int64) { histPartShift, histPartMin = shift, lo }(histPartShift, histPartMin)
	histPartShift, histPartMin = 2, 16
	const n, h = 100, 64
	direct := program(t, []core.Type{aI64, aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		m := b.Lambda([]core.Type{tI64, tI64}, func(_ *core.Builder, x []*core.Var) []core.Atom { return []core.Atom{x[0], x[1]} })
		return []core.Atom{b.Bind("h", &core.Hist{W: b.Size(ps[0], 0), Arrs: ps[:2], Map: m, Ops: []*core.HistOp{
			{Dests: ps[2:3], Lambda: b.BinOpLambda(core.Add, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, 0)}}}})[0]}
	})
	// The bucket of x is x*7 mod 70 - 3 (-3 .. 66: some below 0, some past h).
	computed := program(t, []core.Type{aI64, aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		m := b.Lambda([]core.Type{tI64, tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			k := lb.BinOp(core.Mod, lb.BinOp(core.Mul, x[0], core.IntConst(core.I64, 7)), core.IntConst(core.I64, 70))
			return []core.Atom{lb.BinOp(core.Sub, k, core.IntConst(core.I64, 3)), x[1]}
		})
		return []core.Atom{b.Bind("h", &core.Hist{W: b.Size(ps[0], 0), Arrs: ps[:2], Map: m, Ops: []*core.HistOp{
			{Dests: ps[2:3], Lambda: b.BinOpLambda(core.Max, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, -1<<62)}}}})[0]}
	})
	is, vs := make([]int64, n), make([]int64, n)
	for i := range is {
		is[i] = int64(i*i*31+5)%(h+10) - 5
		vs[i] = int64(i%13) - 6
	}
	dest := make([]int64, h)
	for i := range dest {
		dest[i] = int64(i % 3)
	}
	vec := func(xs []int64) eval.Value {
		return eval.Value{Elem: core.I64, Shape: []int64{int64(len(xs))}, Data: xs}
	}
	wantDirect, wantComputed := append([]int64(nil), dest...), append([]int64(nil), dest...)
	for i := range is {
		if b := is[i]; b >= 0 && b < h {
			wantDirect[b] += vs[i]
		}
		if b := is[i]*7%70 - 3; b >= 0 && b < h {
			wantComputed[b] = max(wantComputed[b], vs[i])
		}
	}
	opts := Options{Workers: 3, Chunk: 7}
	for _, c := range []struct {
		name string
		p    *core.Program
		want []int64
	}{{"direct", direct, wantDirect}, {"computed", computed, wantComputed}} {
		res, err := runWith(t, opts, c.p, vec(is), vec(vs), vec(append([]int64(nil), dest...)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d := diffValues(res, []eval.Value{vec(c.want)}, 0); d != "" {
			t.Fatalf("%s: %s", c.name, d)
		}
	}
	ops := []*opInfo{{builtin: true, types: []core.Type{tI64}}}
	if !partitionedHist(ops, [][]eval.Value{{vec(dest)}}, n) {
		t.Fatal("the test's statement does not take the partitioned path")
	}
}
