package cpu

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

func c64(v int64) core.Const { return core.IntConst(core.I64, v) }

func slice(i, j, s int64) core.DimIndex {
	return core.DimIndex{Start: c64(i), End: c64(j), Stride: c64(s)}
}

// TestArrayOps checks the array expressions on a 2x3 matrix m = [[0,1,2],[3,4,5]].
func TestArrayOps(t *testing.T) {
	m := eval.Value{Elem: core.I64, Shape: []int64{2, 3}, Data: []int64{0, 1, 2, 3, 4, 5}}
	mt := core.ArrayOf(core.I64, 2)
	cases := []struct {
		name  string
		build func(b *core.Builder, m *core.Var) core.Exp
		want  string // shape and elements
	}{
		{"index row", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.IndexExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(1))}}
		}, "[3] [3 4 5]"},
		{"index element", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.IndexExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(1)), core.Fix(c64(2))}}
		}, "[] 5"},
		{"slice columns", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.IndexExp{Arr: m, Idx: []core.DimIndex{slice(0, 2, 1), slice(2, -1, -2)}}
		}, "[2 2] [2 0 5 3]"},
		{"empty slice", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.IndexExp{Arr: m, Idx: []core.DimIndex{slice(1, 1, 1)}}
		}, "[0 3] []"},
		{"update element", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.UpdateExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(0)), core.Fix(c64(1))}, Val: c64(9)}
		}, "[2 3] [0 9 2 3 4 5]"},
		{"update row", func(b *core.Builder, m *core.Var) core.Exp {
			r := b.Let("r", &core.IndexExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(1))}})
			return &core.UpdateExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(0))}, Val: r}
		}, "[2 3] [3 4 5 3 4 5]"},
		{"transpose", func(b *core.Builder, m *core.Var) core.Exp { return &core.TransposeExp{Arr: m} }, "[3 2] [0 3 1 4 2 5]"},
		{"reverse", func(b *core.Builder, m *core.Var) core.Exp { return &core.ReverseExp{Arr: m} }, "[2 3] [3 4 5 0 1 2]"},
		{"rotate", func(b *core.Builder, m *core.Var) core.Exp {
			r := b.Let("r", &core.IndexExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(0))}})
			return &core.RotateExp{R: c64(-4), Arr: r}
		}, "[3] [2 0 1]"},
		{"reshape", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.ReshapeExp{Arr: m, Shape: []core.Atom{c64(6)}}
		}, "[6] [0 1 2 3 4 5]"},
		{"concat", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.ConcatExp{Arrs: []*core.Var{m, m}}
		}, "[4 3] [0 1 2 3 4 5 0 1 2 3 4 5]"},
		{"copy", func(b *core.Builder, m *core.Var) core.Exp { return &core.CopyExp{Arr: m} }, "[2 3] [0 1 2 3 4 5]"},
		{"replicate row", func(b *core.Builder, m *core.Var) core.Exp {
			r := b.Let("r", &core.IndexExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(1))}})
			return &core.ReplicateExp{N: c64(2), V: r}
		}, "[2 3] [3 4 5 3 4 5]"},
		{"replicate scalar", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.ReplicateExp{N: c64(3), V: c64(7)}
		}, "[3] [7 7 7]"},
		{"iota", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.IotaExp{N: c64(4), Start: c64(10), Step: c64(-3), T: core.I64}
		}, "[4] [10 7 4 1]"},
		{"array literal", func(b *core.Builder, m *core.Var) core.Exp {
			r := b.Let("r", &core.IndexExp{Arr: m, Idx: []core.DimIndex{core.Fix(c64(1))}})
			return &core.ArrayLitExp{Elems: []core.Atom{r, r}, Elem: core.ArrayOf(core.I64, 1)}
		}, "[2 3] [3 4 5 3 4 5]"},
		{"empty literal", func(b *core.Builder, m *core.Var) core.Exp {
			return &core.ArrayLitExp{Elem: core.ArrayOf(core.I64, 1)}
		}, "[0 0] []"},
		{"size", func(b *core.Builder, m *core.Var) core.Exp { return &core.SizeExp{Arr: m, Dim: 1} }, "[] 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := program(t, []core.Type{mt}, func(b *core.Builder, ps []*core.Var) []core.Atom {
				return []core.Atom{b.Let("r", c.build(b, ps[0]))}
			})
			res := mustRun(t, p, m)
			got := fmtShape(res[0].Shape) + " " + valueString(res[0])
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func fmtShape(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = elemString([]int64{d}, 0)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestRuntimeErrors checks the text and position of every run-time error.
func TestRuntimeErrors(t *testing.T) {
	a := core.ArrayOf(core.I64, 1)
	cases := []struct {
		name  string
		build func(b *core.Builder, xs *core.Var) []core.Atom
		want  string
	}{
		{"index out of bounds", func(b *core.Builder, xs *core.Var) []core.Atom {
			return []core.Atom{b.Let("r", &core.IndexExp{Arr: xs, Idx: []core.DimIndex{core.Fix(c64(5))}})}
		}, "Index [5] out of bounds for array of shape [3]."},
		{"negative index in a map", func(b *core.Builder, xs *core.Var) []core.Atom {
			w := b.Size(xs, 0)
			lam := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
				j := lb.BinOp(core.Sub, x[0], core.IntConst(core.I64, 2))
				return []core.Atom{lb.Let("g", &core.IndexExp{Arr: xs, Idx: []core.DimIndex{core.Fix(j)}})}
			})
			return []core.Atom{b.Map(w, []*core.Var{xs}, lam)[0]}
		}, "Index [-1] out of bounds for array of shape [3]."},
		{"slice out of bounds", func(b *core.Builder, xs *core.Var) []core.Atom {
			return []core.Atom{b.Let("r", &core.IndexExp{Arr: xs, Idx: []core.DimIndex{slice(1, 4, 1)}})}
		}, "Index [1:4:1] out of bounds for array of shape [3]."},
		{"division by zero in a map", func(b *core.Builder, xs *core.Var) []core.Atom {
			w := b.Size(xs, 0)
			lam := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
				d := lb.BinOp(core.Sub, x[0], core.IntConst(core.I64, 2))
				return []core.Atom{lb.BinOp(core.Div, core.IntConst(core.I64, 10), d)}
			})
			return []core.Atom{b.Map(w, []*core.Var{xs}, lam)[0]}
		}, "division by zero"},
		{"negative iota", func(b *core.Builder, xs *core.Var) []core.Atom {
			return []core.Atom{b.Iota(c64(-3), core.I64)}
		}, "Range 0..1..<-3 is invalid."},
		{"huge iota", func(b *core.Builder, xs *core.Var) []core.Atom {
			return []core.Atom{b.Iota(c64(1_000_000_000_000), core.I64)}
		}, "cannot allocate 8000000000000 bytes"},
		{"huge replicate", func(b *core.Builder, xs *core.Var) []core.Atom {
			return []core.Atom{b.Let("r", &core.ReplicateExp{N: c64(1 << 40), V: xs})}
		}, "cannot allocate 26388279066624 bytes"},
		{"negative replicate", func(b *core.Builder, xs *core.Var) []core.Atom {
			return []core.Atom{b.Let("r", &core.ReplicateExp{N: c64(-1), V: c64(0)})}
		}, "Range 0..1..<-1 is invalid."},
		{"assert", func(b *core.Builder, xs *core.Var) []core.Atom {
			b.Add(nil, &core.AssertExp{Cond: core.BoolConst(false), Msg: "size mismatch"})
			return []core.Atom{xs}
		}, "size mismatch"},
		{"irregular literal", func(b *core.Builder, xs *core.Var) []core.Atom {
			r := b.Let("r", &core.IndexExp{Arr: xs, Idx: []core.DimIndex{slice(0, 2, 1)}})
			return []core.Atom{b.Let("l", &core.ArrayLitExp{Elems: []core.Atom{xs, r}, Elem: a})}
		}, "irregular array literal: element 1 has shape [2] but element 0 has shape [3]"},
		{"bad reshape", func(b *core.Builder, xs *core.Var) []core.Atom {
			return []core.Atom{b.Let("r", &core.ReshapeExp{Arr: xs, Shape: []core.Atom{c64(2), c64(2)}})}
		}, "cannot reshape array of shape [3] to shape [2][2]"},
		{"irregular map result", func(b *core.Builder, xs *core.Var) []core.Atom {
			w := b.Size(xs, 0)
			lam := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
				return []core.Atom{lb.Iota(x[0], core.I64)}
			})
			return []core.Atom{b.Map(w, []*core.Var{xs}, lam)[0]}
		}, "irregular array: element 1 has shape [2] but element 0 has shape [1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := program(t, []core.Type{a}, func(b *core.Builder, ps []*core.Var) []core.Atom { return c.build(b, ps[0]) })
			for _, o := range testOptions {
				_, err := runWith(t, o, p, arr[int64](core.I64, 1, 2, 3))
				var se *source.Error
				if !errors.As(err, &se) {
					t.Fatalf("options %+v: got %v, want a positioned error %q", o, err, c.want)
				}
				if !strings.HasPrefix(se.Msg, c.want) || se.Pos != testPos {
					t.Fatalf("options %+v: got %q at %v, want %q at %v", o, se.Msg, se.Pos, c.want, testPos)
				}
			}
		})
	}
}

// TestRecursionTooDeep checks that unbounded recursion is an error, not a
// Go stack overflow.
func TestRecursionTooDeep(t *testing.T) {
	b := core.NewBuilder()
	b.Pos = testPos
	x := b.Fresh("x", tI64)
	f := b.Fun("f", false, []*core.Var{x}, func(fb *core.Builder) []core.Atom {
		y := fb.BinOp(core.Add, x, c64(1))
		return []core.Atom{fb.Bind("r", &core.ApplyExp{Fun: "f", Args: []core.Atom{y}, Ret: []core.Type{tI64}})[0]}
	})
	mainF := b.Fun("main", true, nil, func(fb *core.Builder) []core.Atom {
		return []core.Atom{fb.Bind("r", &core.ApplyExp{Fun: "f", Args: []core.Atom{c64(0)}, Ret: []core.Type{tI64}})[0]}
	})
	p := &core.Program{Funs: []*core.Fun{f, mainF}}
	if err := core.Verify(p); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{}).Run(context.Background(), p, "main", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "recursion too deep") {
		t.Fatalf("got %v", err)
	}
}

// TestCancelLoop checks that a long loop stops promptly when the context
// is cancelled: loop s = 0 for i < 4000000000 do s + i.
func TestCancelLoop(t *testing.T) {
	p := program(t, nil, func(b *core.Builder, _ []*core.Var) []core.Atom {
		bb := b.Nested()
		s, i := bb.Fresh("s", tI64), bb.Fresh("i", tI64)
		nx := bb.BinOp(core.Add, s, i)
		return []core.Atom{b.Bind("l", &core.LoopExp{Params: []*core.Var{s}, Init: []core.Atom{c64(0)},
			Form: core.ForLoop{I: i, Bound: c64(4_000_000_000)}, Body: bb.Body(nx)})[0]}
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := New(Options{}).Run(ctx, p, "main", nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancellation took %v", d)
	}
}

// TestCancelSOAC checks cancellation between the chunks of a large map.
func TestCancelSOAC(t *testing.T) {
	p := program(t, nil, func(b *core.Builder, _ []*core.Var) []core.Atom {
		xs := b.Iota(c64(1<<26), core.I64)
		lam := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			return []core.Atom{lb.UnOp(core.Sqrt, lb.Conv(core.F64, x[0]))}
		})
		return []core.Atom{b.Map(c64(1<<26), []*core.Var{xs}, lam)[0]}
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(Options{}).Run(ctx, p, "main", nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestTimings checks that SOACs are recorded with their kind and bytes.
func TestTimings(t *testing.T) {
	p := program(t, []core.Type{core.ArrayOf(core.I32, 1)}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		return []core.Atom{b.Reduce(w, ps, b.BinOpLambda(core.Add, core.I32), []core.Atom{core.IntConst(core.I32, 0)}, true)[0]}
	})
	var tm eval.Timings
	if _, err := New(Options{}).Run(context.Background(), p, "main", vals(arr[int32](core.I32, 1, 2, 3)), &tm); err != nil {
		t.Fatal(err)
	}
	if len(tm.Kernels) != 1 || tm.Kernels[0].Name != "screma(reduce)" || tm.Kernels[0].Bytes != 16 || tm.Backend != "cpu" || tm.Run <= 0 {
		t.Fatalf("timings %+v", tm)
	}
}

// TestBadArguments checks that mistyped arguments are errors, not panics.
func TestBadArguments(t *testing.T) {
	p := program(t, []core.Type{core.ArrayOf(core.I32, 1)}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{ps[0]}
	})
	for _, args := range [][]eval.Value{nil, {scalar[int32](core.I32, 1)}, {arr[int64](core.I64, 1)},
		{{Elem: core.I32, Shape: []int64{5}, Data: []int32{1}}}} {
		if _, err := New(Options{}).Run(context.Background(), p, "main", args, nil); err == nil {
			t.Errorf("arguments %v accepted", args)
		}
	}
	if _, err := New(Options{}).Run(context.Background(), p, "nope", nil, nil); err == nil {
		t.Error("unknown function accepted")
	}
}

// TestInPlaceLoop checks the in-place update of loop parameters: a
// prefix sum written as a sequential loop, which must leave the argument
// unchanged and must not let an earlier read see a later write.
func TestInPlaceLoop(t *testing.T) {
	p := program(t, []core.Type{aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		n := b.Size(ps[0], 0)
		bb := b.Nested()
		xs, first, i := bb.Fresh("xs", aI64), bb.Fresh("first", tI64), bb.Fresh("i", tI64)
		j := bb.BinOp(core.Add, i, c64(1))
		prev := bb.Let("prev", &core.IndexExp{Arr: xs, Idx: []core.DimIndex{core.Fix(i)}})
		cur := bb.Let("cur", &core.IndexExp{Arr: xs, Idx: []core.DimIndex{core.Fix(j)}})
		sum := bb.BinOp(core.Add, prev, cur)
		xs2 := bb.Let("xs2", &core.UpdateExp{Arr: xs, Idx: []core.DimIndex{core.Fix(j)}, Val: sum})
		f2 := bb.BinOp(core.Add, first, cur) // reads the element before it was overwritten
		m := b.BinOp(core.Sub, n, c64(1))
		r := b.Bind("l", &core.LoopExp{Params: []*core.Var{xs, first}, Init: []core.Atom{ps[0], c64(0)},
			Form: core.ForLoop{I: i, Bound: m}, Body: bb.Body(xs2, f2)})
		return []core.Atom{r[0], r[1], ps[0]}
	})
	res := mustRun(t, p, arr[int64](core.I64, 1, 2, 3, 4, 5))
	want := []eval.Value{arr[int64](core.I64, 1, 3, 6, 10, 15), scalar[int64](core.I64, 14), arr[int64](core.I64, 1, 2, 3, 4, 5)}
	if d := diffValues(res, want, 0); d != "" {
		t.Fatal(d)
	}
	loop := p.Funs[0].Body.Stmts[len(p.Funs[0].Body.Stmts)-1].Exp.(*core.LoopExp)
	if plan := inPlacePlan(loop); len(plan) != 1 {
		t.Fatalf("the update was not recognised as in-place: %v", plan)
	}
}

// TestInPlaceRefused checks that an update whose array is still used
// afterwards is not done in place.
func TestInPlaceRefused(t *testing.T) {
	p := program(t, []core.Type{aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		bb := b.Nested()
		xs, keep, i := bb.Fresh("xs", aI64), bb.Fresh("keep", aI64), bb.Fresh("i", tI64)
		xs2 := bb.Let("xs2", &core.UpdateExp{Arr: xs, Idx: []core.DimIndex{core.Fix(i)}, Val: c64(0)})
		k2 := bb.Let("k2", &core.CopyExp{Arr: xs})
		r := b.Bind("l", &core.LoopExp{Params: []*core.Var{xs, keep}, Init: []core.Atom{ps[0], ps[0]},
			Form: core.ForLoop{I: i, Bound: c64(3)}, Body: bb.Body(xs2, k2)})
		return []core.Atom{r[0], r[1]}
	})
	loop := p.Funs[0].Body.Stmts[0].Exp.(*core.LoopExp)
	if plan := inPlacePlan(loop); len(plan) != 0 {
		t.Fatalf("an update of a still-used array was planned in place: %v", plan)
	}
	res := mustRun(t, p, arr[int64](core.I64, 7, 8, 9))
	want := []eval.Value{arr[int64](core.I64, 0, 0, 0), arr[int64](core.I64, 0, 0, 9)}
	if d := diffValues(res, want, 0); d != "" {
		t.Fatal(d)
	}
}
