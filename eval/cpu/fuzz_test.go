package cpu

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// FuzzInterp generates random well-typed core pipelines from the fuzz
// input (maps with random scalar lambdas, including branches and gathers;
// reductions and scans with builtin and general associative operators;
// fused Scremas with map-outs; sequential loops over the elements that
// update a loop-carried array under a branch; maps whose lambdas run
// Mandelbrot's escape loop in f64, for loops with tuple states and while
// loops, which run as masked loops) over random integer data,
// and checks that one worker with large chunks, many workers with small
// chunks, and the frame interpreter without compiled sequential code
// (Options.Interpret) give identical results, or all fail with a
// positioned error.
func FuzzInterp(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{200, 17, 0, 3, 99, 1, 250, 4, 8, 15, 16, 23, 42, 7, 7, 7, 1, 2, 3})
	f.Add([]byte{64, 3, 2, 1, 0, 255, 128, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 2, 2, 2, 2})
	// Maps of the escape loop (escapeMap) over i32 and u8.
	f.Add([]byte("\x00\x28\x00\x5c\x3e\xe5\xab\x7a\x65\xfa\xfc\x5d\xf5\x97\xea\x87\x64\x81\x3c\xa6\x59\x78\x56\x79\x66\xbb\x67\xfc\x6e\x99\x87\x03\xaf\xcf\x70\xcf\xb1\x8b\x8a\x9b\x3a\x90\xf4\x4a\xfd\x52\x61\x69\xdf\x43\xd0\xf5\x33\x67\x84\xad\xf0\x2d\xfb\x4b\xf4\x4d\xfa\x28\x7f\x2f\xb4\x68\xc9\x03\x44\x2c\xf4\xcc\xcf\x5c\xc5\xd5\x42\x8a\xcb\xb8\x49\xab\xad\x9a\x40\xde\x09\xd8\x4a\x53\xda\x02\xea\x33\x04\x83\xd8\xce\xf5\xf1\xd4\x4d\x73\x58\x5a\xbc\x98\xfd\x1d\x2f\xb4\x5b\x4d\x6c\x86\x27\x53\x76\x42\x99\x36\x01\x07\x32\x01\x00\x00\x15\x09\x00\x02\x03"))
	f.Add([]byte("\x02\x1e\x00\xbf\x21\xb7\xa8\x2d\x88\xb1\x57\xcb\xd0\xd1\x05\x8b\xde\x17\x83\xcd\x8c\x2d\x6e\x91\x53\xbf\x45\xe0\x2d\x36\xa7\x85\xee\x2d\x70\x26\xef\xa1\x53\x2f\x70\xba\xfb\xc2\xce\x9d\xe9\x0a\x61\x68\x08\x2a\xcb\xba\x21\x06\x8f\x6d\x7e\x47\xa0\x09\x42\x75\xe4\x8d\x08\xd9\x55\x89\xd4\x46\xff\x7c\x8c\xf3\x1f\xb3\x1c\xe8\x95\x92\x07\x61\x6e\x0b\x55\x98\x78\x60\xd2\x22\x5a\x02\x23\x1e\x01\x03\x02\x01\x07\x3c\x04\x01\x01\x05"))
	f.Fuzz(fuzzOne)
}

// fuzzOne checks one generated program.

func fuzzOne(t *testing.T, data []byte) {
	g := &gen{data: data}
	p, args := g.program()
	if err := core.Verify(p); err != nil {
		t.Fatalf("generator made an ill-typed program: %v\n%s", err, core.Print(p))
	}
	var first []eval.Value
	var firstErr error
	for i, o := range fuzzOptions {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := New(o).Run(ctx, p, "main", args, nil)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("options %+v: no result within 20s\n%s", o, core.Print(p))
		}
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("options %+v: non-positioned error %v\n%s", o, err, core.Print(p))
			}
		}
		if i == 0 {
			first, firstErr = res, err
			continue
		}
		if (err == nil) != (firstErr == nil) {
			t.Fatalf("options %+v: error %v, but %+v gave %v\n%s", o, err, fuzzOptions[0], firstErr, core.Print(p))
		}
		if err == nil {
			if d := diffValues(first, res, 0); d != "" {
				t.Fatalf("options %+v disagree with %+v: %s\n%s", o, fuzzOptions[0], d, core.Print(p))
			}
		}
	}
}

// fuzzOptions: the first is the reference; FoldLanes of 4 and 8 make the
// lane-major folds (lanefold.go) run on inputs of a few dozen elements.
var fuzzOptions = []Options{
	{Workers: 1, Chunk: 4096},
	{Workers: 4, Chunk: 1},
	{Workers: 3, Chunk: 7},
	{Workers: 2, Chunk: 64, FoldLanes: 4},
	{Workers: 1, Chunk: 512, FoldLanes: 8},
	{Workers: 2, Chunk: 3, Interpret: true},
}

// gen draws decisions from the fuzz input; past its end every draw is 0,
// so every input gives a finite program.
type gen struct {
	data []byte
	pos  int
	b    *core.Builder
	t    core.PrimType
}

func (g *gen) byte() int {
	if g.pos >= len(g.data) {
		return 0
	}
	g.pos++
	return int(g.data[g.pos-1])
}

func (g *gen) pick(n int) int { return g.byte() % n }

var fuzzTypes = []core.PrimType{core.I32, core.I64, core.U8, core.I8, core.U32}

func (g *gen) program() (*core.Program, []eval.Value) {
	g.b = core.NewBuilder()
	g.b.Pos = testPos
	g.t = fuzzTypes[g.pick(len(fuzzTypes))]
	n := g.byte() + g.byte()*4 // up to ~1300 elements
	xs := eval.NewArray(g.t, int64(n))
	ys := eval.NewArray(g.t, int64(n))
	for i := 0; i < n; i++ {
		fillFromInt(xs.Data, i, int64(g.byte())-int64(g.byte()))
		fillFromInt(ys.Data, i, int64(g.byte()%16))
	}
	at := core.ArrayOf(g.t, 1)
	px, py := g.b.Fresh("xs", at), g.b.Fresh("ys", at)
	fn := g.b.Fun("main", true, []*core.Var{px, py}, func(fb *core.Builder) []core.Atom {
		w := fb.Size(px, 0)
		cur := []*core.Var{px, py}
		var results []core.Atom
		stages := 1 + g.pick(4)
		for s := 0; s < stages; s++ {
			switch v := g.byte(); v % 7 {
			case 1:
				if v%14 != 8 {
					lam := g.lambda(fb, 2, py)
					out := fb.Map(w, cur[:2], lam)[0]
					cur = []*core.Var{out, cur[0]}
					break
				}
				// A 2-D map whose inner lambda runs a while loop: the
				// masked loop over blocks of flattened rows (flatMaskedMap).
				results = append(results, fb.Map(w, cur[:1], g.nestedLoopMap(fb))[0])
			case 0: // map2 with a random lambda
				if v%14 == 7 {
					// Mandelbrot's escape loop in f64 and a for loop with a
					// tuple state, both run as masked loops.
					counts, zr := g.escapeMap(fb, w, cur[:2])
					results = append(results, zr)
					cur = []*core.Var{counts, cur[0]}
					break
				}
				lam := g.lambda(fb, 2, py)
				out := fb.Map(w, cur[:2], lam)[0]
				cur = []*core.Var{out, cur[0]}
			case 2: // reduce
				results = append(results, fb.Bind("r", g.screma(fb, w, cur[:1], 0, 1, false))[0])
			case 3: // scan
				out := fb.Bind("s", g.screma(fb, w, cur[:1], 1, 0, false))[0]
				cur = []*core.Var{out, cur[0]}
			case 4: // fused: map feeding a scan, a reduction and a map-out
				r := fb.Bind("f", g.screma(fb, w, cur[:2], 1, 1, true))
				results = append(results, r[1])
				cur = []*core.Var{r[0], r[2]}
			case 5: // sequential loop: acc and a copy of cur[0] updated where x < e
				acc, arr := fb.Fresh("acc", core.Scalar(g.t)), fb.Fresh("arr", at)
				i := fb.Fresh("i", core.Scalar(core.I64))
				bb := fb.Nested()
				x := bb.Let("x", &core.IndexExp{Arr: arr, Idx: []core.DimIndex{core.Fix(i)}})
				e := g.expr(bb, []*core.Var{x, acc}, i, py, 2)
				c := bb.BinOp(core.Lt, x, e)
				tb, eb := bb.Nested(), bb.Nested()
				u := tb.Let("u", &core.UpdateExp{Arr: arr, Idx: []core.DimIndex{core.Fix(i)}, Val: e})
				arr2 := bb.Bind("if", &core.IfExp{Cond: c, Then: tb.Body(u), Else: eb.Body(arr), Ret: []core.Type{at}})[0]
				out := fb.Bind("seq", &core.LoopExp{Params: []*core.Var{acc, arr}, Init: []core.Atom{core.IntConst(g.t, 0), cur[0]},
					Form: core.ForLoop{I: i, Bound: w}, Body: bb.Body(e, arr2)})
				results = append(results, out[0])
				cur = []*core.Var{out[1], cur[0]}
			case 6: // reduce by a non-commutative tuple operator
				if g.t == core.I32 || g.t == core.I64 {
					if g.pick(2) == 0 {
						results = append(results, fb.Bind("mss", g.msspScrema(fb, w, cur[:2]))[0])
						break
					}
				}
				for _, v := range fb.Bind("m", g.matScrema(fb, w, cur[:2])) {
					results = append(results, v)
				}
			}
		}
		return append(results, cur[0])
	})
	return &core.Program{Funs: []*core.Fun{fn, g.recFun()}}, []eval.Value{xs, ys}
}

// nestedLoopMap is \x -> map (\j -> while-halving (x*j + e)) (iota k)
// for a k in 1..8 and a random expression e of x and j: a map inside a
// map whose lambda holds a loop that maskedLoop runs.
func (g *gen) nestedLoopMap(b *core.Builder) *core.Lambda {
	k := core.IntConst(core.I64, int64(1+g.pick(8)))
	return b.Lambda([]core.Type{core.Scalar(g.t)}, func(ob *core.Builder, xs []*core.Var) []core.Atom {
		j := ob.Fresh("j", core.Scalar(core.I64))
		inner := ob.Lambda(nil, func(lb *core.Builder, _ []*core.Var) []core.Atom {
			e := g.expr(lb, xs, j, nil, 2)
			init := lb.BinOp(core.Add, lb.BinOp(core.Mul, xs[0], lb.Conv(g.t, j)), e)
			return []core.Atom{g.halving(lb, init)}
		})
		return []core.Atom{ob.Bind("row", &core.Screma{W: k, Map: inner, Index: j})[0]}
	})
}

// escapeMap maps Mandelbrot's escape loop (escapeLoop, in a random
// shape) over the points (x/40, y/60) of two arrays, and a for loop
// with a tuple state over its count; it returns the result of the for
// loop, converted to g.t, and the final zr (f64, compared bit for bit:
// the fused f64 kernels against the frame interpreter's statements).
func (g *gen) escapeMap(b *core.Builder, w core.Atom, arrs []*core.Var) (*core.Var, *core.Var) {
	st := core.Scalar(g.t)
	limit := int64(1 + g.pick(60))
	sh := escapeShape{plus: g.pick(4) == 0, k: []float64{2, 2, -1, 0.5}[g.pick(4)], bound: []float64{4, 4, 1e9, 0.25}[g.pick(4)]}
	lam := b.Lambda([]core.Type{st, st}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		cr := lb.BinOp(core.Div, lb.Conv(core.F64, ps[0]), core.FloatConst(core.F64, 40))
		ci := lb.BinOp(core.Div, lb.Conv(core.F64, ps[1]), core.FloatConst(core.F64, 60))
		r := escapeLoop(lb, cr, ci, limit, sh)
		// loop (a, s) = (count, y) for i < (count & 7) do (a*3 + i, s ^ a)
		n := lb.Conv(g.t, r[0])
		bb := lb.Nested()
		a, s, i := bb.Fresh("a", st), bb.Fresh("s", st), bb.Fresh("i", st)
		a2 := bb.BinOp(core.Add, bb.BinOp(core.Mul, a, core.IntConst(g.t, 3)), i)
		s2 := bb.BinOp(core.Xor, s, a)
		fl := lb.Bind("loop", &core.LoopExp{Params: []*core.Var{a, s}, Init: []core.Atom{n, ps[1]},
			Form: core.ForLoop{I: i, Bound: lb.BinOp(core.And, n, core.IntConst(g.t, 7))}, Body: bb.Body(a2, s2)})
		return []core.Atom{lb.BinOp(core.Add, fl[0], fl[1]), r[1]}
	})
	out := b.Map(w, arrs, lam)
	return out[0], out[1]
}

// halving is a while loop shifting init right until it is 0 or -1 (on
// signed types), counting its steps: a body that cannot fail, which
// maskedLoop runs (a quot could divide by zero, and is not run so).
func (g *gen) halving(b *core.Builder, init core.Atom) core.Atom {
	going := func(b *core.Builder, x core.Atom) core.Atom {
		return b.BinOp(core.LogAnd, b.BinOp(core.Ne, x, core.IntConst(g.t, 0)), b.BinOp(core.Ne, x, core.IntConst(g.t, -1)))
	}
	c0 := going(b, init)
	bb := b.Nested()
	x, c, steps := bb.Fresh("x", core.Scalar(g.t)), bb.Fresh("c", core.Scalar(core.Bool)), bb.Fresh("n", core.Scalar(g.t))
	x2 := bb.BinOp(core.Shr, x, core.IntConst(g.t, 1))
	c2 := going(bb, x2)
	s2 := bb.BinOp(core.Add, steps, core.IntConst(g.t, 1))
	r := b.Bind("while", &core.LoopExp{Params: []*core.Var{x, c, steps}, Init: []core.Atom{init, c0, core.IntConst(g.t, 0)},
		Form: core.WhileLoop{Cond: c}, Body: bb.Body(x2, c2, s2)})
	return r[2]
}

// recFun is rec(x, k) = if k <= 0 then x else rec(x*3+1, k-1), called from
// generated lambdas with k in 0..7.
func (g *gen) recFun() *core.Fun {
	st := core.Scalar(g.t)
	x, k := g.b.Fresh("x", st), g.b.Fresh("k", st)
	return g.b.Fun("rec", false, []*core.Var{x, k}, func(fb *core.Builder) []core.Atom {
		c := fb.BinOp(core.Le, k, core.IntConst(g.t, 0))
		tb, eb := fb.Nested(), fb.Nested()
		x2 := eb.BinOp(core.Add, eb.BinOp(core.Mul, x, core.IntConst(g.t, 3)), core.IntConst(g.t, 1))
		k2 := eb.BinOp(core.Sub, k, core.IntConst(g.t, 1))
		r := eb.Bind("r", &core.ApplyExp{Fun: "rec", Args: []core.Atom{x2, k2}, Ret: []core.Type{st}})[0]
		return []core.Atom{fb.Bind("if", &core.IfExp{Cond: c, Then: tb.Body(x), Else: eb.Body(r), Ret: []core.Type{st}})[0]}
	})
}

func fillFromInt(d any, i int, v int64) {
	setLane(d, i, eval.Scalar(core.IntConst(primOf(d), v)).Data, 0)
}

func primOf(d any) core.PrimType {
	switch d.(type) {
	case []int8:
		return core.I8
	case []int16:
		return core.I16
	case []int32:
		return core.I32
	case []int64:
		return core.I64
	case []uint8:
		return core.U8
	case []uint16:
		return core.U16
	case []uint32:
		return core.U32
	case []uint64:
		return core.U64
	}
	return core.Bool
}

// screma builds a Screma over arrs whose map lambda is random, with nScan
// scans and nRed reductions of random associative operators, and one
// map-out when mapOut is set.
func (g *gen) screma(b *core.Builder, w core.Atom, arrs []*core.Var, nScan, nRed int, mapOut bool) *core.Screma {
	st := core.Scalar(g.t)
	params := make([]core.Type, len(arrs))
	for i := range params {
		params[i] = st
	}
	outs := nScan + nRed
	if mapOut {
		outs++
	}
	idx := b.Fresh("i", core.Scalar(core.I64))
	mapL := b.Lambda(params, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		var res []core.Atom
		for k := 0; k < outs; k++ {
			res = append(res, g.expr(lb, ps, idx, nil, 2))
		}
		return res
	})
	s := &core.Screma{W: w, Arrs: arrs, Map: mapL, Index: idx}
	for k := 0; k < nScan; k++ {
		op, ne := g.assocOp(b)
		s.Scans = append(s.Scans, &core.ScanOp{Lambda: op, Neutral: []core.Atom{ne}})
	}
	for k := 0; k < nRed; k++ {
		op, ne := g.assocOp(b)
		s.Reds = append(s.Reds, &core.RedOp{Lambda: op, Neutral: []core.Atom{ne}})
	}
	return s
}

// matScrema is a redomap whose operator is the product of 2x2 matrices
// over g.t (associative in wrapping arithmetic, not commutative) written
// as a*b + c*d per entry, as Reduce2x2MM's is, and whose map makes the
// four entries from random expressions of the two inputs; on 8-bit types
// both run in i32 lanes (veccode.go).
func (g *gen) matScrema(b *core.Builder, w core.Atom, arrs []*core.Var) *core.Screma {
	st := core.Scalar(g.t)
	mapL := b.Lambda([]core.Type{st, st}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		var res []core.Atom
		for k := 0; k < 4; k++ {
			res = append(res, g.expr(lb, ps, nil, nil, 1))
		}
		return res
	})
	op := b.Lambda([]core.Type{st, st, st, st, st, st, st, st}, func(lb *core.Builder, p []*core.Var) []core.Atom {
		x11, x12, x21, x22, y11, y12, y21, y22 := p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]
		dot := func(a, b, c, d *core.Var) core.Atom {
			return lb.BinOp(core.Add, lb.BinOp(core.Mul, a, b), lb.BinOp(core.Mul, c, d))
		}
		return []core.Atom{dot(x11, y11, x12, y21), dot(x11, y12, x12, y22), dot(x21, y11, x22, y21), dot(x21, y12, x22, y22)}
	})
	one, zero := core.IntConst(g.t, 1), core.IntConst(g.t, 0)
	return &core.Screma{W: w, Arrs: arrs, Map: mapL,
		Reds: []*core.RedOp{{Lambda: op, Neutral: []core.Atom{one, zero, zero, one}}}}
}

// msspScrema is MSSP's redomap (the maximum segment sum's 4-tuple, whose
// operator is max(c, a+b) three times) over a random expression of the
// inputs bounded to -128..127, so that no sum of up to 1300 of them
// overflows g.t (i32 or i64) and the operator is associative.
func (g *gen) msspScrema(b *core.Builder, w core.Atom, arrs []*core.Var) *core.Screma {
	st := core.Scalar(g.t)
	mapL := b.Lambda([]core.Type{st, st}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		e := lb.BinOp(core.And, g.expr(lb, ps, nil, nil, 1), core.IntConst(g.t, 255))
		x := lb.BinOp(core.Sub, e, core.IntConst(g.t, 128))
		p := lb.BinOp(core.Max, x, core.IntConst(g.t, 0))
		return []core.Atom{p, p, p, x}
	})
	op := b.Lambda([]core.Type{st, st, st, st, st, st, st, st}, func(lb *core.Builder, q []*core.Var) []core.Atom {
		mssx, misx, mcsx, tsx, mssy, misy, mcsy, tsy := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
		mss := lb.BinOp(core.Max, mssx, lb.BinOp(core.Max, lb.BinOp(core.Add, mcsx, misy), mssy))
		mis := lb.BinOp(core.Max, misx, lb.BinOp(core.Add, tsx, misy))
		mcs := lb.BinOp(core.Max, lb.BinOp(core.Add, mcsx, tsy), mcsy)
		return []core.Atom{mss, mis, mcs, lb.BinOp(core.Add, tsx, tsy)}
	})
	zero := core.IntConst(g.t, 0)
	return &core.Screma{W: w, Arrs: arrs, Map: mapL,
		Reds: []*core.RedOp{{Lambda: op, Neutral: []core.Atom{zero, zero, zero, zero}}}}
}

// assocOp is an associative operator with its neutral element: a builtin
// (recognised and run as a typed loop) or the same operator hidden behind
// an extra statement (run as a general vectorised lambda).
func (g *gen) assocOp(b *core.Builder) (*core.Lambda, core.Atom) {
	ops := []core.BinOp{core.Add, core.Mul, core.Min, core.Max, core.And, core.Or, core.Xor}
	op := ops[g.pick(len(ops))]
	var ne core.Const
	switch op {
	case core.Add, core.Or, core.Xor:
		ne = core.IntConst(g.t, 0)
	case core.Mul:
		ne = core.IntConst(g.t, 1)
	case core.And:
		ne = core.IntConst(g.t, -1)
	case core.Min:
		ne = maxConst(g.t)
	case core.Max:
		ne = minConst(g.t)
	}
	if g.pick(2) == 0 {
		return b.BinOpLambda(op, g.t), ne
	}
	st := core.Scalar(g.t)
	return b.Lambda([]core.Type{st, st}, func(lb *core.Builder, p []*core.Var) []core.Atom {
		x := lb.BinOp(core.Or, p[0], core.IntConst(g.t, 0))
		return []core.Atom{lb.BinOp(op, x, p[1])}
	}), ne
}

func maxConst(t core.PrimType) core.Const {
	if t.IsUnsigned() {
		return core.IntConst(t, -1)
	}
	return core.IntConst(t, int64(uint64(1)<<(t.Bits()-1)-1))
}

func minConst(t core.PrimType) core.Const {
	if t.IsUnsigned() {
		return core.IntConst(t, 0)
	}
	return core.IntConst(t, -int64(uint64(1)<<(t.Bits()-1)))
}

// lambda is a random map lambda of arity params over g.t, which may read
// the free array tab.
func (g *gen) lambda(b *core.Builder, arity int, tab *core.Var) *core.Lambda {
	params := make([]core.Type, arity)
	for i := range params {
		params[i] = core.Scalar(g.t)
	}
	return b.Lambda(params, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{g.expr(lb, ps, nil, tab, 3)}
	})
}

// expr builds a random scalar expression of type g.t.
func (g *gen) expr(b *core.Builder, ps []*core.Var, idx, tab *core.Var, depth int) core.Atom {
	leaf := func() core.Atom {
		switch g.pick(4) {
		case 0:
			return core.IntConst(g.t, int64(g.byte()%9)-2)
		case 1:
			if idx != nil {
				return b.Conv(g.t, idx)
			}
		}
		return ps[g.pick(len(ps))]
	}
	if depth == 0 {
		return leaf()
	}
	switch g.pick(10) {
	case 0:
		return leaf()
	case 7: // for loop with a per-lane bound in 0..7
		n := b.BinOp(core.And, g.expr(b, ps, idx, tab, depth-1), core.IntConst(g.t, 7))
		init := g.expr(b, ps, idx, tab, depth-1)
		bb := b.Nested()
		acc, i := bb.Fresh("acc", core.Scalar(g.t)), bb.Fresh("i", core.Scalar(g.t))
		nx := bb.BinOp(core.Add, bb.BinOp(core.Mul, acc, core.IntConst(g.t, 3)), i)
		return b.Bind("loop", &core.LoopExp{Params: []*core.Var{acc}, Init: []core.Atom{init},
			Form: core.ForLoop{I: i, Bound: n}, Body: bb.Body(nx)})[0]
	case 8: // while loop halving toward zero
		init := g.expr(b, ps, idx, tab, depth-1)
		c0 := b.BinOp(core.Ne, init, core.IntConst(g.t, 0))
		bb := b.Nested()
		x, c, steps := bb.Fresh("x", core.Scalar(g.t)), bb.Fresh("c", core.Scalar(core.Bool)), bb.Fresh("n", core.Scalar(g.t))
		x2 := bb.BinOp(core.Quot, x, core.IntConst(g.t, 2))
		c2 := bb.BinOp(core.Ne, x2, core.IntConst(g.t, 0))
		s2 := bb.BinOp(core.Add, steps, core.IntConst(g.t, 1))
		r := b.Bind("while", &core.LoopExp{Params: []*core.Var{x, c, steps}, Init: []core.Atom{init, c0, core.IntConst(g.t, 0)},
			Form: core.WhileLoop{Cond: c}, Body: bb.Body(x2, c2, s2)})
		return r[2]
	case 9: // recursive call
		k := b.BinOp(core.And, g.expr(b, ps, idx, tab, depth-1), core.IntConst(g.t, 7))
		x := g.expr(b, ps, idx, tab, depth-1)
		return b.Bind("call", &core.ApplyExp{Fun: "rec", Args: []core.Atom{x, k}, Ret: []core.Type{core.Scalar(g.t)}})[0]
	case 1, 2: // binary operator
		ops := []core.BinOp{core.Add, core.Sub, core.Mul, core.Div, core.Mod, core.Quot, core.Rem,
			core.Min, core.Max, core.And, core.Or, core.Xor, core.Shl, core.Shr, core.Pow}
		op := ops[g.pick(len(ops))]
		x, y := g.expr(b, ps, idx, tab, depth-1), g.expr(b, ps, idx, tab, depth-1)
		if op == core.Pow {
			y = b.BinOp(core.And, y, core.IntConst(g.t, 7))
		}
		return b.BinOp(op, x, y)
	case 3: // unary operator
		ops := []core.UnOp{core.Neg, core.Abs, core.Signum, core.Not}
		return b.UnOp(ops[g.pick(len(ops))], g.expr(b, ps, idx, tab, depth-1))
	case 4: // conversion round trip through another width
		x := g.expr(b, ps, idx, tab, depth-1)
		mid := []core.PrimType{core.I8, core.U16, core.I64, core.F64}[g.pick(4)]
		return b.Conv(g.t, b.Conv(mid, x))
	case 5: // branch: each side only runs on its lanes
		l, r := g.expr(b, ps, idx, tab, depth-1), g.expr(b, ps, idx, tab, depth-1)
		c := b.BinOp(core.Lt, l, r)
		tb, eb := b.Nested(), b.Nested()
		tv := g.expr(tb, ps, idx, tab, depth-1)
		ev := g.expr(eb, ps, idx, tab, depth-1)
		return b.Bind("if", &core.IfExp{Cond: c, Then: tb.Body(tv), Else: eb.Body(ev), Ret: []core.Type{core.Scalar(g.t)}})[0]
	case 6: // gather from a free array (may be out of bounds: an error)
		if tab == nil {
			return leaf()
		}
		i := b.Conv(core.I64, g.expr(b, ps, idx, tab, depth-1))
		return b.Let("g", &core.IndexExp{Arr: tab, Idx: []core.DimIndex{core.Fix(i)}})
	}
	return leaf()
}
