package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// escapeProgram is Mandelbrot's escape loop (escapeLoop) over the points
// (crs[i], cis[i]), returning each point's count and final z: a map whose
// lambda holds a while loop that maskedLoop runs, with lanes ending at
// every iteration from 0 to limit.
func escapeProgram(t *testing.T, limit int64) *core.Program {
	f64 := core.Scalar(core.F64)
	return program(t, []core.Type{core.ArrayOf(core.F64, 1), core.ArrayOf(core.F64, 1)}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		lam := b.Lambda([]core.Type{f64, f64}, func(lb *core.Builder, pt []*core.Var) []core.Atom {
			return escapeLoop(lb, pt[0], pt[1], limit, escapeShape{})
		})
		return toAtoms(b.Map(w, ps, lam))
	})
}

// escapeShape varies the escape loop's body: zr' = zr*zr ∓ zi*zi + cr
// (plus: the sum), zi' = (k*zr)*zi + ci (k 2 when zero), and the bound on
// zr*zr + zi*zi (4 when zero).
type escapeShape struct {
	plus     bool
	k, bound float64
}

// escapeLoop builds Mandelbrot's escape loop from (cr, ci) as lowering
// writes it (the `&&` of the condition an if whose else is false),
// returning the count (i32) and the final zr and zi.
func escapeLoop(lb *core.Builder, cr, ci core.Atom, limit int64, sh escapeShape) []core.Atom {
	f64, i32 := core.Scalar(core.F64), core.Scalar(core.I32)
	c := func(v float64) core.Const { return core.FloatConst(core.F64, v) }
	k, bound := sh.k, sh.bound
	if k == 0 {
		k = 2
	}
	if bound == 0 {
		bound = 4
	}
	// going is i < limit && zr*zr + zi*zi < bound.
	going := func(b *core.Builder, i, zr, zi core.Atom) *core.Var {
		lt := b.BinOp(core.Lt, i, core.IntConst(core.I32, limit))
		tb, eb := b.Nested(), b.Nested()
		m := tb.BinOp(core.Add, tb.BinOp(core.Mul, zr, zr), tb.BinOp(core.Mul, zi, zi))
		return b.Bind("b", &core.IfExp{Cond: lt, Then: tb.Body(tb.BinOp(core.Lt, m, c(bound))),
			Else: eb.Body(core.BoolConst(false)), Ret: []core.Type{core.Scalar(core.Bool)}})[0]
	}
	c0 := going(lb, core.IntConst(core.I32, 0), c(0), c(0))
	bb := lb.Nested()
	cond, zr, zi, i := bb.Fresh("cond", core.Scalar(core.Bool)), bb.Fresh("zr", f64), bb.Fresh("zi", f64), bb.Fresh("i", i32)
	op := core.Sub
	if sh.plus {
		op = core.Add
	}
	zr2 := bb.BinOp(core.Add, bb.BinOp(op, bb.BinOp(core.Mul, zr, zr), bb.BinOp(core.Mul, zi, zi)), cr)
	zi2 := bb.BinOp(core.Add, bb.BinOp(core.Mul, bb.BinOp(core.Mul, c(k), zr), zi), ci)
	i2 := bb.BinOp(core.Add, i, core.IntConst(core.I32, 1))
	r := lb.Bind("loop", &core.LoopExp{Params: []*core.Var{cond, zr, zi, i},
		Init: []core.Atom{c0, c(0), c(0), core.IntConst(core.I32, 0)},
		Form: core.WhileLoop{Cond: cond}, Body: bb.Body(going(bb, i2, zr2, zi2), zr2, zi2, i2)})
	return []core.Atom{r[3], r[1], r[2]}
}

func toAtoms(vs []*core.Var) []core.Atom {
	as := make([]core.Atom, len(vs))
	for i, v := range vs {
		as[i] = v
	}
	return as
}

// TestMaskedEscapeLoop runs the escape loop over a grid of points that
// leave at every count (and n not a multiple of 8, so the word-wise test
// of ended lanes has a tail), in column code under several worker and
// chunk settings and in the frame interpreter, and requires the same
// counts and bit-identical final values.
func TestMaskedEscapeLoop(t *testing.T) {
	for _, n := range []int{1, 7, 61, 999} {
		crs, cis := make([]float64, n), make([]float64, n)
		for i := range crs {
			crs[i] = -2 + 2.6*float64(i)/float64(n)
			cis[i] = -1.2 + 2.4*float64((i*37)%n)/float64(n)
		}
		p := escapeProgram(t, 60)
		args := vals(arr(core.F64, crs...), arr(core.F64, cis...))
		got := mustRun(t, p, args...)
		want, err := runWith(t, Options{Workers: 1, Interpret: true}, p, args...)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffValues(want, got, 0); d != "" {
			t.Fatalf("n=%d: column code and interpreter differ: %s", n, d)
		}
		counts := map[int32]bool{}
		for _, c := range got[0].Data.([]int32) {
			counts[c] = true
		}
		if n == 999 && len(counts) < 20 {
			t.Fatalf("only %d distinct counts: the lanes do not end at different iterations", len(counts))
		}
	}
}

// TestMaskedForLoop runs a map whose lambda holds a for loop with a
// tuple state and a count of its own per lane (x & 15, so that lanes end
// at every iteration up to 15, and a u32 count, whose values over 2^31
// are large counts), against the frame interpreter.
func TestMaskedForLoop(t *testing.T) {
	for _, bt := range []core.PrimType{core.I32, core.U32} {
		p := program(t, []core.Type{core.ArrayOf(core.I32, 1)}, func(b *core.Builder, ps []*core.Var) []core.Atom {
			w := b.Size(ps[0], 0)
			lam := b.Lambda([]core.Type{core.Scalar(core.I32)}, func(lb *core.Builder, x []*core.Var) []core.Atom {
				bound := lb.Conv(bt, lb.BinOp(core.And, x[0], core.IntConst(core.I32, 15)))
				bb := lb.Nested()
				a, s, i := bb.Fresh("a", core.Scalar(core.I32)), bb.Fresh("s", core.Scalar(core.I32)), bb.Fresh("i", core.Scalar(bt))
				a2 := bb.BinOp(core.Add, bb.BinOp(core.Mul, a, core.IntConst(core.I32, 3)), bb.Conv(core.I32, i))
				s2 := bb.BinOp(core.Xor, s, a2)
				r := lb.Bind("loop", &core.LoopExp{Params: []*core.Var{a, s}, Init: []core.Atom{x[0], core.IntConst(core.I32, 1)},
					Form: core.ForLoop{I: i, Bound: bound}, Body: bb.Body(a2, s2)})
				return []core.Atom{r[0], r[1]}
			})
			return toAtoms(b.Map(w, ps, lam))
		})
		r := rand.New(rand.NewPCG(18, 3))
		for _, n := range []int{1, 9, 100, 4099} {
			xs := make([]int32, n)
			for i := range xs {
				xs[i] = r.Int32N(1000) - 500
			}
			got := mustRun(t, p, arr(core.I32, xs...))
			want, err := runWith(t, Options{Workers: 1, Interpret: true}, p, arr(core.I32, xs...))
			if err != nil {
				t.Fatal(err)
			}
			if d := diffValues(want, got, 0); d != "" {
				t.Fatalf("%v n=%d: column code and interpreter differ: %s", bt, n, d)
			}
		}
	}
}

// TestSelectBools checks the word-wise bool select against the lane by
// lane one at lengths with and without a tail.
func TestSelectBools(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 4))
	for n := range 40 {
		c, a, b := make([]bool, n), make([]bool, n), make([]bool, n)
		for i := range c {
			c[i], a[i], b[i] = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
		}
		got, want := make([]bool, n), make([]bool, n)
		selectBools(got, c, a, b)
		selectInto(want, c, a, b)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d lane %d: cond %v then %v else %v: %v", n, i, c[i], a[i], b[i], got[i])
			}
		}
	}
}

// TestEscapeLoopFuses checks that the escape loop's body compiles to six
// kernels: (zr*zr - zi*zi) + cr, (2*zr)*zi + ci and zr'*zr' + zi'*zi' < 4
// fused (fused.go), the count's add and compare, and the &&'s select.
func TestEscapeLoopFuses(t *testing.T) {
	p := escapeProgram(t, 60)
	var loop *core.LoopExp
	for _, s := range p.Funs[0].Body.Stmts {
		if sc, ok := s.Exp.(*core.Screma); ok {
			for _, st := range sc.Map.Body.Stmts {
				if l, ok := st.Exp.(*core.LoopExp); ok {
					loop = l
				}
			}
		}
	}
	ml := compileMaskLoop(loop)
	if ml == nil {
		t.Fatal("the escape loop is not a masked loop")
	}
	var names []string
	for _, op := range ml.u.ops {
		names = append(names, op.s.Pat[0].Name)
	}
	if len(names) != 6 {
		t.Fatalf("%d kernels (%v), want 6", len(names), names)
	}
}
