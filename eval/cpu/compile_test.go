package cpu

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// branchUpdateLoop is main(xs) = (xs, loop a = xs for i < length xs do
// if a[i] % 2 == 0 then a with [i] = i else a).
func branchUpdateLoop(t *testing.T) *core.Program {
	at := core.ArrayOf(core.I64, 1)
	return program(t, []core.Type{at}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		xs := ps[0]
		n := b.Size(xs, 0)
		a, i := b.Fresh("a", at), b.Fresh("i", core.Scalar(core.I64))
		bb := b.Nested()
		x := bb.Let("x", &core.IndexExp{Arr: a, Idx: []core.DimIndex{core.Fix(i)}})
		even := bb.BinOp(core.Eq, bb.BinOp(core.Rem, x, core.IntConst(core.I64, 2)), core.IntConst(core.I64, 0))
		tb, eb := bb.Nested(), bb.Nested()
		u := tb.Let("u", &core.UpdateExp{Arr: a, Idx: []core.DimIndex{core.Fix(i)}, Val: i})
		a2 := bb.Bind("if", &core.IfExp{Cond: even, Then: tb.Body(u), Else: eb.Body(a), Ret: []core.Type{at}})[0]
		ys := b.Bind("loop", &core.LoopExp{Params: []*core.Var{a}, Init: []core.Atom{xs},
			Form: core.ForLoop{I: i, Bound: n}, Body: bb.Body(a2)})[0]
		return []core.Atom{xs, ys}
	})
}

// An array carried by a loop and updated under a branch is updated in
// place: the loop allocates about one copy of it (the first update's),
// not one per iteration, and the loop's initial array is left unchanged.
func TestCompiledInPlaceUnderBranch(t *testing.T) {
	p := branchUpdateLoop(t)
	const n = 20000
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(i % 3)
	}
	in := arr(core.I64, xs...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := runWith(t, Options{Workers: 1}, p, in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8*n*8 {
		t.Errorf("loop allocated %d bytes for an array of %d bytes: the update copies", got, 8*n)
	}
	orig, ys := res[0].Data.([]int64), res[1].Data.([]int64)
	for i := range xs {
		want := xs[i]
		if xs[i]%2 == 0 {
			want = int64(i)
		}
		if orig[i] != int64(i%3) || ys[i] != want {
			t.Fatalf("element %d: xs %d (want %d), result %d (want %d)", i, orig[i], i%3, ys[i], want)
		}
	}
	small := arr(core.I64, xs[:500]...)
	ref, err := runWith(t, Options{Workers: 1, Interpret: true}, p, small)
	if err != nil {
		t.Fatal(err)
	}
	if res, err = runWith(t, Options{Workers: 1}, p, small); err != nil {
		t.Fatal(err)
	}
	if d := diffValues(ref, res, 0); d != "" {
		t.Errorf("compiled and interpreted differ: %s", d)
	}
}

// The update under the branch is in consumePlan.
func TestConsumePlanSeesBranches(t *testing.T) {
	p := branchUpdateLoop(t)
	var loop *core.LoopExp
	for _, s := range p.Funs[0].Body.Stmts {
		if l, ok := s.Exp.(*core.LoopExp); ok {
			loop = l
		}
	}
	plan := consumePlan(loop)
	if len(plan) != 1 {
		t.Fatalf("plan has %d updates, want 1", len(plan))
	}
}

// recursive is main(n) = depth n with depth n = if n == 0 then 0 else
// 1 + depth (n - 1), the call at callPos.
var callPos = source.Pos{File: "t.fut", Line: 9, Col: 21}

func recursive(t *testing.T) *core.Program {
	st := core.Scalar(core.I64)
	b := core.NewBuilder()
	b.Pos = testPos
	n := b.Fresh("n", st)
	depth := b.Fun("depth", false, []*core.Var{n}, func(fb *core.Builder) []core.Atom {
		c := fb.BinOp(core.Eq, n, core.IntConst(core.I64, 0))
		tb, eb := fb.Nested(), fb.Nested()
		m := eb.BinOp(core.Sub, n, core.IntConst(core.I64, 1))
		eb.Pos = callPos
		r := eb.Bind("r", &core.ApplyExp{Fun: "depth", Args: []core.Atom{m}, Ret: []core.Type{st}})[0]
		eb.Pos = testPos
		r1 := eb.BinOp(core.Add, r, core.IntConst(core.I64, 1))
		return []core.Atom{fb.Bind("if", &core.IfExp{Cond: c, Then: tb.Body(core.IntConst(core.I64, 0)), Else: eb.Body(r1), Ret: []core.Type{st}})[0]}
	})
	k := b.Fresh("k", st)
	main := b.Fun("main", true, []*core.Var{k}, func(fb *core.Builder) []core.Atom {
		return []core.Atom{fb.Bind("d", &core.ApplyExp{Fun: "depth", Args: []core.Atom{k}, Ret: []core.Type{st}})[0]}
	})
	p := &core.Program{Funs: []*core.Fun{main, depth}}
	if err := core.Verify(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Compiled recursion keeps the configurable depth limit, and the error
// names the recursive call.
func TestCompiledRecursionLimit(t *testing.T) {
	p := recursive(t)
	for _, o := range []Options{{MaxDepth: 50}, {MaxDepth: 50, Interpret: true}} {
		res, err := runWith(t, o, p, scalar(core.I64, int64(40)))
		if err != nil || res[0].Data.([]int64)[0] != 40 {
			t.Fatalf("%+v: depth 40 gave %v, %v", o, res, err)
		}
		_, err = runWith(t, o, p, scalar(core.I64, int64(60)))
		var se *source.Error
		if !errors.As(err, &se) || se.Pos != callPos || !strings.Contains(err.Error(), "more than 50 nested calls") {
			t.Fatalf("%+v: depth 60 gave %v, want the limit at %v", o, err, callPos)
		}
	}
	res, err := runWith(t, Options{MaxDepth: 100000}, p, scalar(core.I64, int64(90000)))
	if err != nil || res[0].Data.([]int64)[0] != 90000 {
		t.Fatalf("depth 90000 under a limit of 100000: %v, %v", res, err)
	}
}

// A loop result computed into its parameter's slot must not clobber a
// copy of the parameter that another result still needs:
// loop (x, y) = (1, 2) for i < 3 do let t = x; let x2 = x + 1 in (x2, t).
func TestCoalescedResultKeepsAliases(t *testing.T) {
	st := core.Scalar(core.I64)
	p := program(t, nil, func(b *core.Builder, _ []*core.Var) []core.Atom {
		x, y, i := b.Fresh("x", st), b.Fresh("y", st), b.Fresh("i", st)
		bb := b.Nested()
		tv := bb.Let("t", &core.AtomExp{A: x})
		x2 := bb.BinOp(core.Add, x, core.IntConst(core.I64, 1))
		r := b.Bind("loop", &core.LoopExp{Params: []*core.Var{x, y},
			Init: []core.Atom{core.IntConst(core.I64, 1), core.IntConst(core.I64, 2)},
			Form: core.ForLoop{I: i, Bound: core.IntConst(core.I64, 3)}, Body: bb.Body(x2, tv)})
		return []core.Atom{r[0], r[1]}
	})
	for _, o := range []Options{{}, {Interpret: true}} {
		res, err := runWith(t, o, p)
		if err != nil {
			t.Fatal(err)
		}
		if x, y := res[0].Data.([]int64)[0], res[1].Data.([]int64)[0]; x != 4 || y != 3 {
			t.Errorf("%+v: got (%d, %d), want (4, 3)", o, x, y)
		}
	}
}
