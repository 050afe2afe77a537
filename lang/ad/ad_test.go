package ad

import (
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// freshOf is a Fresh whose names continue after the builder's.
func freshOf(b *core.Builder) Fresh {
	return func(base string, t core.Type) *core.Var { return b.Fresh(base, t) }
}

var f64 = core.Scalar(core.F64)

// square is \x -> x * x.
func square(b *core.Builder) *core.Lambda {
	return b.Lambda([]core.Type{f64}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{lb.BinOp(core.Mul, ps[0], ps[0])}
	})
}

// TestReverseSweep checks that straight-line code, maps, reductions and
// loops take the return sweep, and that a scan falls back to forward
// passes: the
// fallback's code maps over the basis vectors (one-hot seeds of the argument's
// size), the sweep's does not.
func TestReverseSweep(t *testing.T) {
	b := core.NewBuilder()
	sumSquares := b.Lambda([]core.Type{core.ArrayOf(core.F64, 1)}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		n := lb.Size(ps[0], 0)
		sq := lb.Map(n, ps, square(lb))
		return []core.Atom{lb.Reduce(n, sq, lb.BinOpLambda(core.Max, core.F64), []core.Atom{core.FloatConst(core.F64, 0)}, true)[0]}
	})
	loop := b.Lambda([]core.Type{core.ArrayOf(core.F64, 1)}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		acc := lb.Fresh("acc", f64)
		i := lb.Fresh("i", core.Scalar(core.I64))
		body := lb.Nested()
		x := body.Let("x", &core.IndexExp{Arr: ps[0], Idx: []core.DimIndex{core.Fix(i)}})
		next := body.BinOp(core.Mul, acc, x)
		out := lb.Bind("loop", &core.LoopExp{Params: []*core.Var{acc}, Init: []core.Atom{core.FloatConst(core.F64, 1)},
			Form: &core.ForLoop{I: i, Bound: lb.Size(ps[0], 0)}, Body: body.Body(next)})
		return []core.Atom{out[0]}
	})
	while := b.Lambda([]core.Type{core.ArrayOf(core.F64, 1)}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		x := lb.Let("x", &core.IndexExp{Arr: ps[0], Idx: []core.DimIndex{core.Fix(core.IntConst(core.I64, 0))}})
		acc := lb.Fresh("acc", f64)
		go_ := lb.Fresh("go", core.Scalar(core.Bool))
		body := lb.Nested()
		next := body.BinOp(core.Mul, acc, x)
		more := body.BinOp(core.Lt, next, core.FloatConst(core.F64, 100))
		out := lb.Bind("loop", &core.LoopExp{Params: []*core.Var{acc, go_}, Init: []core.Atom{x, core.BoolConst(true)},
			Form: &core.WhileLoop{Cond: go_}, Body: body.Body(next, more)})
		return []core.Atom{out[0]}
	})
	prefix := b.Lambda([]core.Type{core.ArrayOf(core.F64, 1)}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		sc := lb.Scan(lb.Size(ps[0], 0), ps, lb.BinOpLambda(core.Mul, core.F64), []core.Atom{core.FloatConst(core.F64, 1)})
		return []core.Atom{sc[0]}
	})
	for _, c := range []struct {
		name  string
		l     *core.Lambda
		sweep bool
	}{{"map-reduce", sumSquares, true}, {"for", loop, true}, {"while", while, true}, {"scan", prefix, false}} {
		prog := &core.Program{}
		_, ok, err := revVJP(prog, freshOf(b), c.l, source.Pos{})
		if err != nil || ok != c.sweep {
			t.Errorf("%s: return sweep taken = %v, %v; want %v", c.name, ok, err, c.sweep)
		}
		vl, err := VJP(prog, freshOf(b), c.l, source.Pos{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fn := &core.Fun{Name: "main", Params: vl.Params, Ret: vl.Ret, Body: vl.Body, Entry: true}
		prog.Funs = append(prog.Funs, fn)
		if err := core.Verify(prog); err != nil {
			t.Fatalf("%s: does not verify: %v\n%s", c.name, err, core.Print(prog))
		}
		if got := strings.Contains(core.Print(prog), "seed_"); got == c.sweep {
			t.Errorf("%s: basis vectors in the code = %v, want %v:\n%s", c.name, got, !c.sweep, core.Print(prog))
		}
	}
}

// TestNotDifferentiable checks the error for an operator without a rule,
// in both modes, at the operation's position.
func TestNotDifferentiable(t *testing.T) {
	b := core.NewBuilder()
	b.Pos = source.Pos{Line: 3, Col: 7}
	l := b.Lambda([]core.Type{f64}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{lb.UnOp(core.Lgamma, ps[0])}
	})
	for name, tr := range map[string]func(*core.Program, Fresh, *core.Lambda, source.Pos) (*core.Lambda, error){"jvp": JVP, "vjp": VJP} {
		_, err := tr(&core.Program{}, freshOf(b), l, source.Pos{Line: 1, Col: 1})
		if err == nil || !strings.Contains(err.Error(), "3:7: cannot differentiate lgamma") {
			t.Errorf("%s: got %v, want the position of lgamma and a clear message", name, err)
		}
	}
}

// TestRulesCoverOps checks that every float operator either has a rule, is
// known to have a zero derivative, or is listed as not differentiable, so
// that a new operator in lang/core is not silently given derivative zero.
func TestRulesCoverOps(t *testing.T) {
	zeroUn := map[core.UnOp]bool{core.Signum: true, core.Floor: true, core.Ceil: true, core.Round: true, core.Trunc: true,
		core.IsNan: true, core.IsInf: true, core.Popc: true, core.Clz: true, core.Ctz: true, core.Not: true,
		core.ToBits: true, core.FromBits: true, core.HalfToBits: true, core.HalfFromBits: true}
	for op := core.UnOp(0); int(op) < len(core.UnOps); op++ {
		if _, ok := unRules[op]; !ok && !zeroUn[op] && !notDifferentiable[op] {
			t.Errorf("unary %s has no derivative rule", op)
		}
	}
	zeroBin := map[core.BinOp]bool{core.And: true, core.Or: true, core.Xor: true, core.Shl: true, core.Shr: true,
		core.LogAnd: true, core.LogOr: true, core.MulHi: true}
	for op := core.BinOp(0); int(op) < len(core.BinOps); op++ {
		if _, ok := binRules[op]; !ok && !zeroBin[op] && !core.BinOps[op].Comparison {
			t.Errorf("binary %s has no derivative rule", op)
		}
	}
}
