package fusion

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// These tests build core programs directly, so the engine is checked
// independently of the front end; testdata golden files check the plans
// of the seeds' programs from their Futhark source.

func mustVerify(t *testing.T, p *core.Program) {
	t.Helper()
	if err := core.Verify(p); err != nil {
		t.Fatalf("verify: %v\n%s", err, core.Print(p))
	}
}

func fuse(t *testing.T, p *core.Program) (*core.Program, *Plan) {
	t.Helper()
	mustVerify(t, p)
	out, plan, err := FuseChecked(p, core.Verify)
	if err != nil {
		t.Fatal(err)
	}
	mustVerify(t, out)
	return out, plan
}

func i32(b *core.Builder, op core.BinOp, k int64) *core.Lambda {
	return b.Lambda([]core.Type{core.Scalar(core.I32)}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{lb.BinOp(op, ps[0], core.IntConst(core.I32, k))}
	})
}

// reduce (+) 0 (map (*2) xs) is one redomap.
func TestMapReduceIsRedomap(t *testing.T) {
	b := core.NewBuilder()
	xs := b.Fresh("xs", core.ArrayOf(core.I32, 1))
	fn := b.Fun("main", true, []*core.Var{xs}, func(fb *core.Builder) []core.Atom {
		n := fb.Size(xs, 0)
		ys := fb.Map(n, []*core.Var{xs}, i32(fb, core.Mul, 2))
		r := fb.Reduce(n, ys, fb.BinOpLambda(core.Add, core.I32), []core.Atom{core.IntConst(core.I32, 0)}, false)
		return []core.Atom{r[0]}
	})
	out, plan := fuse(t, &core.Program{Funs: []*core.Fun{fn}})
	if got := plan.Counts(); got["redomap"] != 1 || len(plan.After) != 1 {
		t.Fatalf("want one redomap, got %v\n%s\n%s", got, plan.Text(), core.Print(out))
	}
}

// A map whose result is also returned stays as a map-out of the redomap.
func TestMapOut(t *testing.T) {
	b := core.NewBuilder()
	xs := b.Fresh("xs", core.ArrayOf(core.I32, 1))
	fn := b.Fun("main", true, []*core.Var{xs}, func(fb *core.Builder) []core.Atom {
		n := fb.Size(xs, 0)
		ys := fb.Map(n, []*core.Var{xs}, i32(fb, core.Add, 1))
		r := fb.Reduce(n, ys, fb.BinOpLambda(core.Max, core.I32), []core.Atom{core.IntConst(core.I32, -100)}, false)
		return []core.Atom{r[0], ys[0]}
	})
	out, plan := fuse(t, &core.Program{Funs: []*core.Fun{fn}})
	if len(plan.After) != 1 || !strings.Contains(plan.Text(), "map-out") {
		t.Fatalf("want one redomap with a map-out\n%s\n%s", plan.Text(), core.Print(out))
	}
	if k := plan.After[0]; len(k.Writes) != 1 {
		t.Fatalf("the redomap should write the map-out: %+v", k)
	}
}

// scan (+) 0 (map f (iota n)) |> map g: one scanomap with index input and
// a post-map.
func TestIotaScanPostMap(t *testing.T) {
	b := core.NewBuilder()
	n := b.Fresh("n", core.Scalar(core.I64))
	fn := b.Fun("main", true, []*core.Var{n}, func(fb *core.Builder) []core.Atom {
		is := fb.Iota(n, core.I32)
		ys := fb.Map(n, []*core.Var{is}, i32(fb, core.Mul, 3))
		ss := fb.Scan(n, ys, fb.BinOpLambda(core.Add, core.I32), []core.Atom{core.IntConst(core.I32, 0)})
		zs := fb.Map(n, ss, i32(fb, core.Sub, 1))
		return []core.Atom{zs[0]}
	})
	out, plan := fuse(t, &core.Program{Funs: []*core.Fun{fn}})
	if len(plan.After) != 1 || plan.After[0].Kind != "scanomap" || len(plan.After[0].Reads) != 0 {
		t.Fatalf("want one scanomap reading nothing\n%s\n%s", plan.Text(), core.Print(out))
	}
}

// Two reductions over the same array fuse horizontally.
func TestHorizontal(t *testing.T) {
	b := core.NewBuilder()
	xs := b.Fresh("xs", core.ArrayOf(core.F32, 1))
	fn := b.Fun("main", true, []*core.Var{xs}, func(fb *core.Builder) []core.Atom {
		n1 := fb.Size(xs, 0)
		n2 := fb.Size(xs, 0)
		a := fb.Reduce(n1, []*core.Var{xs}, fb.BinOpLambda(core.Add, core.F32), []core.Atom{core.FloatConst(core.F32, 0)}, true)
		m := fb.Reduce(n2, []*core.Var{xs}, fb.BinOpLambda(core.Mul, core.F32), []core.Atom{core.FloatConst(core.F32, 1)}, true)
		return []core.Atom{a[0], m[0]}
	})
	out, plan := fuse(t, &core.Program{Funs: []*core.Fun{fn}})
	if len(plan.After) != 1 || len(plan.After[0].Operators) != 2 {
		t.Fatalf("want one reduce with two operators\n%s\n%s", plan.Text(), core.Print(out))
	}
}

// A map used inside a loop is not fused into it (Figure 3, case 3).
func TestRefuseLoop(t *testing.T) {
	b := core.NewBuilder()
	xs := b.Fresh("xs", core.ArrayOf(core.I32, 1))
	fn := b.Fun("main", true, []*core.Var{xs}, func(fb *core.Builder) []core.Atom {
		n := fb.Size(xs, 0)
		ys := fb.Map(n, []*core.Var{xs}, i32(fb, core.Add, 1))
		acc := fb.Fresh("acc", core.ArrayOf(core.I32, 1))
		i := fb.Fresh("i", core.Scalar(core.I64))
		lb := fb.Nested()
		zs := lb.Bind("z", &core.Screma{W: n, Arrs: []*core.Var{acc, ys[0]}, Map: lb.Lambda(
			[]core.Type{core.Scalar(core.I32), core.Scalar(core.I32)},
			func(l *core.Builder, ps []*core.Var) []core.Atom { return []core.Atom{l.BinOp(core.Add, ps[0], ps[1])} })})
		loop := fb.Let("loop", &core.LoopExp{Params: []*core.Var{acc}, Init: []core.Atom{xs},
			Form: core.ForLoop{I: i, Bound: core.IntConst(core.I64, 3)}, Body: lb.Body(zs[0])})
		return []core.Atom{loop}
	})
	_, plan := fuse(t, &core.Program{Funs: []*core.Fun{fn}})
	if len(plan.Refused) == 0 || plan.Refused[0].Case != 3 {
		t.Fatalf("want a case 3 refusal\n%s", plan.Text())
	}
}

// map (reduce (+) 0) over rows becomes a segmented reduce.
func TestRows(t *testing.T) {
	b := core.NewBuilder()
	xss := b.Fresh("xss", core.ArrayOf(core.I32, 2))
	fn := b.Fun("main", true, []*core.Var{xss}, func(fb *core.Builder) []core.Atom {
		n := fb.Size(xss, 0)
		rs := fb.Map(n, []*core.Var{xss}, fb.Lambda([]core.Type{core.ArrayOf(core.I32, 1)},
			func(lb *core.Builder, ps []*core.Var) []core.Atom {
				m := lb.Size(ps[0], 0)
				r := lb.Reduce(m, ps, lb.BinOpLambda(core.Add, core.I32), []core.Atom{core.IntConst(core.I32, 0)}, false)
				return []core.Atom{r[0]}
			}))
		return []core.Atom{rs[0]}
	})
	out, plan := fuse(t, &core.Program{Funs: []*core.Fun{fn}})
	if len(plan.After) != 1 || plan.After[0].Kind != "segmented reduce" {
		t.Fatalf("want a segmented reduce\n%s\n%s", plan.Text(), core.Print(out))
	}
}

// The SVG rendering is well-formed XML with a box per kernel.
func TestSVG(t *testing.T) {
	b := core.NewBuilder()
	xs := b.Fresh("xs", core.ArrayOf(core.I32, 1))
	fn := b.Fun("main", true, []*core.Var{xs}, func(fb *core.Builder) []core.Atom {
		n := fb.Size(xs, 0)
		ys := fb.Map(n, []*core.Var{xs}, i32(fb, core.Mul, 2))
		r := fb.Reduce(n, ys, fb.BinOpLambda(core.Add, core.I32), []core.Atom{core.IntConst(core.I32, 0)}, false)
		return []core.Atom{r[0]}
	})
	_, plan := fuse(t, &core.Program{Funs: []*core.Fun{fn}})
	svg := plan.SVG()
	dec := xml.NewDecoder(strings.NewReader(svg))
	rects := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("bad SVG: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
			rects++
		}
	}
	if rects != len(plan.Before)+len(plan.After) {
		t.Fatalf("want %d boxes, got %d", len(plan.Before)+len(plan.After), rects)
	}
	if !strings.Contains(svg, "redomap") {
		t.Fatal("the fused kernel is not named in the SVG")
	}
}
