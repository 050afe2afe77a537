package cpu

import (
	"fmt"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// TestChains checks every pair of chain operators on integer and float
// types, reduced and scanned with `+`: the chain is recognised, and the
// results are identical (bit for bit, floats included) to the same map
// run as statements, which it is when the constants are parameters
// instead (no longer a vector-scalar chain).
func TestChains(t *testing.T) {
	ops := []core.BinOp{core.Add, core.Sub, core.Mul}
	for _, pt := range []core.PrimType{core.I32, core.U8, core.I64, core.F32, core.F64} {
		for _, op1 := range ops {
			for _, op2 := range append([]core.BinOp{noOp}, ops...) {
				for _, scan := range []bool{false, true} {
					name := fmt.Sprintf("%v/%v/%v/scan=%v", pt, op1, op2, scan)
					t.Run(name, func(t *testing.T) { checkChain(t, pt, op1, op2, scan) })
				}
			}
		}
	}
}

// noOp stands for a chain of one step.
const noOp = core.BinOp(len(core.BinOps))

// checkChain runs `op (x op1 3) op2 5` (op2 noOp: no second step).
func checkChain(t *testing.T, pt core.PrimType, op1, op2 core.BinOp, scan bool) {
	st, at := core.Scalar(pt), core.ArrayOf(pt, 1)
	num := func(v int64) core.Const {
		if pt.IsFloat() {
			return core.FloatConst(pt, float64(v)/4)
		}
		return core.IntConst(pt, v)
	}
	build := func(hidden bool) *core.Program {
		return program(t, []core.Type{at, st, st}, func(b *core.Builder, ps []*core.Var) []core.Atom {
			c1, c2 := core.Atom(num(3)), core.Atom(num(5))
			if hidden {
				c1, c2 = ps[1], ps[2]
			}
			lam := b.Lambda([]core.Type{st}, func(lb *core.Builder, x []*core.Var) []core.Atom {
				v := lb.BinOp(op1, x[0], c1)
				if op2 != noOp {
					v = lb.BinOp(op2, v, c2)
				}
				return []core.Atom{v}
			})
			add := b.BinOpLambda(core.Add, pt)
			ne := []core.Atom{num(0)}
			s := &core.Screma{W: b.Size(ps[0], 0), Arrs: ps[:1], Map: lam}
			ops := []*opInfo{newOp(add, ne)}
			steps := 1
			if op2 != noOp {
				steps = 2
			}
			if scan {
				s.Scans = []*core.ScanOp{{Lambda: add, Neutral: ne}}
				heads, _ := scanHeads(s, ops, nil)
				if got := len(heads) > 0 && len(heads[0]) == steps; got == hidden {
					t.Fatalf("scan chain of %d steps recognised %v, hidden %v", steps, got, hidden)
				}
			} else {
				s.Reds = []*core.RedOp{{Lambda: add, Neutral: ne}}
				tails, _ := redTails(s, ops)
				got := len(tails) > 0 && tails[0] != nil && tails[0].vs && (tails[0].inner != nil) == (steps == 2)
				if got == hidden {
					t.Fatalf("reduction chain of %d steps recognised %v, hidden %v", steps, got, hidden)
				}
			}
			return []core.Atom{b.Bind("r", s)[0]}
		})
	}
	for _, n := range []int{0, 1, 64, 4097, 10001} {
		xs := eval.NewArray(pt, int64(n))
		for i := range n {
			if pt.IsFloat() {
				// Quarters: every sum is exact, whatever the chunking.
				setLane(xs.Data, i, eval.Scalar(core.FloatConst(pt, float64(i%17-8)/4)).Data, 0)
			} else {
				fillFromInt(xs.Data, i, int64(i*7919%1000)-300)
			}
		}
		args := []eval.Value{xs, eval.Scalar(num(3)), eval.Scalar(num(5))}
		chained := mustRun(t, build(false), args...)
		plain := mustRun(t, build(true), args...)
		if d := diffValues(chained, plain, 0); d != "" {
			t.Fatalf("n=%d: chain and statements differ: %s", n, d)
		}
		if !pt.IsFloat() {
			continue
		}
		// Inexact floats on one worker: every element rounds as the
		// statements round it.
		for i := range n {
			setLane(xs.Data, i, eval.Scalar(core.FloatConst(pt, float64(i%17)*0.37-2)).Data, 0)
		}
		one := Options{Workers: 1, Chunk: 100}
		c, err1 := runWith(t, one, build(false), args...)
		p, err2 := runWith(t, one, build(true), args...)
		if err1 != nil || err2 != nil {
			t.Fatalf("n=%d: %v, %v", n, err1, err2)
		}
		if d := diffValues(c, p, 0); d != "" {
			t.Fatalf("n=%d, inexact: chain and statements differ: %s", n, d)
		}
	}
}
