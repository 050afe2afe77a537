package cpu

import (
	"fmt"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

var testSizes = []int{0, 1, 2, 3, 63, 64, 65, 4095, 4096, 4097, 10001}

func i64s(n int, f func(i int) int64) eval.Value {
	d := make([]int64, n)
	for i := range d {
		d[i] = f(i)
	}
	return eval.Value{Elem: core.I64, Shape: []int64{int64(n)}, Data: d}
}

var (
	tI64 = core.Scalar(core.I64)
	aI64 = core.ArrayOf(core.I64, 1)
)

// linComp is the composition of linear functions x -> a*x + b, an
// associative but not commutative operator on pairs:
// (a1, b1) then (a2, b2) = (a1*a2, b1*a2 + b2).
func linComp(b *core.Builder) *core.Lambda {
	return b.Lambda([]core.Type{tI64, tI64, tI64, tI64}, func(lb *core.Builder, p []*core.Var) []core.Atom {
		a := lb.BinOp(core.Mul, p[0], p[2])
		t := lb.BinOp(core.Mul, p[1], p[2])
		return []core.Atom{a, lb.BinOp(core.Add, t, p[3])}
	})
}

func linRef(as, bs []int64) (ra, rb []int64) {
	a, b := int64(1), int64(0)
	for i := range as {
		a, b = a*as[i], b*as[i]+bs[i]
		ra, rb = append(ra, a), append(rb, b)
	}
	return ra, rb
}

// TestScremaFused checks one Screma with a scan, a builtin reduction, a
// general non-commutative reduction, a map-out and the index parameter,
// against a sequential reference, under every worker/chunk setting.
func TestScremaFused(t *testing.T) {
	for _, n := range testSizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := program(t, []core.Type{aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
				w := b.Size(ps[0], 0)
				idx := b.Fresh("i", tI64)
				mapL := b.Lambda([]core.Type{tI64, tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
					a := lb.BinOp(core.Mod, x[0], core.IntConst(core.I64, 3))
					a = lb.BinOp(core.Add, a, core.IntConst(core.I64, 1))
					sq := lb.BinOp(core.Mul, x[1], idx)
					return []core.Atom{a, x[1], sq, a, x[1], sq}
				})
				s := &core.Screma{W: w, Arrs: ps, Index: idx, Map: mapL,
					Scans: []*core.ScanOp{{Lambda: linComp(b), Neutral: []core.Atom{core.IntConst(core.I64, 1), core.IntConst(core.I64, 0)}}},
					Reds: []*core.RedOp{
						{Lambda: b.BinOpLambda(core.Add, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, 0)}, Comm: true},
						{Lambda: linComp(b), Neutral: []core.Atom{core.IntConst(core.I64, 1), core.IntConst(core.I64, 0)}},
					}}
				out := b.Bind("r", s)
				return []core.Atom{out[0], out[1], out[2], out[3], out[4], out[5]}
			})
			xs := i64s(n, func(i int) int64 { return int64(i*7 + 1) })
			ys := i64s(n, func(i int) int64 { return int64(i%5 - 2) })
			res := mustRun(t, p, xs, ys)
			as := make([]int64, n)
			sum := int64(0)
			sq := make([]int64, n)
			for i := range as {
				as[i] = xs.Data.([]int64)[i]%3 + 1
				sq[i] = ys.Data.([]int64)[i] * int64(i)
				sum += sq[i]
			}
			sa, sb := linRef(as, ys.Data.([]int64))
			ra, rb := int64(1), int64(0)
			if n > 0 {
				ra, rb = sa[n-1], sb[n-1]
			}
			want := []eval.Value{arr(core.I64, sa...), arr(core.I64, sb...), scalar(core.I64, sum),
				scalar(core.I64, ra), scalar(core.I64, rb), arr(core.I64, sq...)}
			if d := diffValues(res, want, 0); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// TestScanPost checks a scanomap with a post-map (map-scan-map fusion).
func TestScanPost(t *testing.T) {
	p := program(t, []core.Type{aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		post := b.Lambda([]core.Type{tI64, tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			return []core.Atom{lb.BinOp(core.Sub, x[0], x[1])}
		})
		s := &core.Screma{W: w, Arrs: ps, Map: b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			return []core.Atom{x[0], x[0], x[0]}
		}), Scans: []*core.ScanOp{{Lambda: b.BinOpLambda(core.Add, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, 0)}}},
			Reds: []*core.RedOp{{Lambda: b.BinOpLambda(core.Max, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, -1<<63)}}},
			Post: post}
		r := b.Bind("r", s)
		return []core.Atom{r[0], r[1]}
	})
	for _, n := range testSizes {
		xs := i64s(n, func(i int) int64 { return int64(i) })
		res := mustRun(t, p, xs)
		ex := make([]int64, n)
		acc := int64(0)
		for i := range ex {
			ex[i] = acc // inclusive scan minus the element: exclusive scan
			acc += int64(i)
		}
		mx := int64(-1 << 63)
		if n > 0 {
			mx = int64(n - 1)
		}
		if d := diffValues(res, []eval.Value{arr(core.I64, ex...), scalar(core.I64, mx)}, 0); d != "" {
			t.Fatalf("n=%d: %s", n, d)
		}
	}
}

// TestIfInMap checks that a branch runs only on the lanes that take it: the
// division by zero in the untaken branch must not fail.
func TestIfInMap(t *testing.T) {
	p := program(t, []core.Type{aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		lam := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			c := lb.BinOp(core.Eq, x[0], core.IntConst(core.I64, 0))
			tb, eb := lb.Nested(), lb.Nested()
			q := eb.BinOp(core.Div, core.IntConst(core.I64, 100), x[0])
			r := lb.Bind("r", &core.IfExp{Cond: c, Then: tb.Body(core.IntConst(core.I64, -1)), Else: eb.Body(q), Ret: []core.Type{tI64}})
			return []core.Atom{r[0]}
		})
		return []core.Atom{b.Map(w, ps, lam)[0]}
	})
	xs := i64s(100, func(i int) int64 { return int64(i%7 - 3) })
	res := mustRun(t, p, xs)
	for i, x := range xs.Data.([]int64) {
		want := int64(-1)
		if x != 0 {
			want = 100 / x
			if 100%x != 0 && x < 0 {
				want--
			}
		}
		if got := res[0].Data.([]int64)[i]; got != want {
			t.Fatalf("element %d (%d): got %d, want %d", i, x, got, want)
		}
	}
}

// TestNestedRows checks per-lane fallback: a reduction over each row of a
// matrix, a loop in a map, and a gather from a free array.
func TestNestedRows(t *testing.T) {
	m := core.ArrayOf(core.I64, 2)
	p := program(t, []core.Type{m, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		rows := b.Size(ps[0], 0)
		lam := b.Lambda([]core.Type{aI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			cols := lb.Size(x[0], 0)
			s := lb.Reduce(cols, x, lb.BinOpLambda(core.Add, core.I64), []core.Atom{core.IntConst(core.I64, 0)}, true)[0]
			// loop acc = 0 for i < s%5 do acc + i
			k := lb.BinOp(core.Mod, s, core.IntConst(core.I64, 5))
			bb := lb.Nested()
			acc, i := bb.Fresh("acc", tI64), bb.Fresh("i", tI64)
			nx := bb.BinOp(core.Add, acc, i)
			l := lb.Bind("l", &core.LoopExp{Params: []*core.Var{acc}, Init: []core.Atom{core.IntConst(core.I64, 0)},
				Form: core.ForLoop{I: i, Bound: k}, Body: bb.Body(nx)})[0]
			g := lb.Let("g", &core.IndexExp{Arr: ps[1], Idx: []core.DimIndex{core.Fix(k)}})
			return []core.Atom{s, l, g}
		})
		r := b.Map(rows, []*core.Var{ps[0]}, lam)
		return []core.Atom{r[0], r[1], r[2]}
	})
	const R, C = 50, 9
	d := make([]int64, R*C)
	for i := range d {
		d[i] = int64(i*i%17 - 4)
	}
	mat := eval.Value{Elem: core.I64, Shape: []int64{R, C}, Data: d}
	tab := i64s(5, func(i int) int64 { return int64(100 + i) })
	res := mustRun(t, p, mat, tab)
	for r := 0; r < R; r++ {
		s := int64(0)
		for c := 0; c < C; c++ {
			s += d[r*C+c]
		}
		k := ((s % 5) + 5) % 5
		l := k * (k - 1) / 2
		got := []int64{res[0].Data.([]int64)[r], res[1].Data.([]int64)[r], res[2].Data.([]int64)[r]}
		if got[0] != s || got[1] != l || got[2] != 100+k {
			t.Fatalf("row %d: got %v, want [%d %d %d]", r, got, s, l, 100+k)
		}
	}
}

// TestSegmented checks segmented scan and reduction over rows.
func TestSegmented(t *testing.T) {
	m := core.ArrayOf(core.I64, 2)
	p := program(t, []core.Type{m}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		rows, cols := b.Size(ps[0], 0), b.Size(ps[0], 1)
		op := &core.Screma{W: cols, Arrs: ps, Map: b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			return []core.Atom{x[0], x[0]}
		}), Scans: []*core.ScanOp{{Lambda: b.BinOpLambda(core.Add, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, 0)}}},
			Reds: []*core.RedOp{{Lambda: b.BinOpLambda(core.Max, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, -1<<63)}}}}
		r := b.Bind("s", &core.Segmented{Outer: []core.Atom{rows}, Op: op})
		return []core.Atom{r[0], r[1]}
	})
	for _, shape := range [][2]int{{0, 3}, {3, 0}, {1, 1}, {7, 5}, {300, 17}} {
		R, C := shape[0], shape[1]
		d := make([]int64, R*C)
		for i := range d {
			d[i] = int64((i * 31) % 11)
		}
		res := mustRun(t, p, eval.Value{Elem: core.I64, Shape: []int64{int64(R), int64(C)}, Data: d})
		sc := make([]int64, R*C)
		mx := make([]int64, R)
		for r := 0; r < R; r++ {
			acc, m := int64(0), int64(-1<<63)
			for c := 0; c < C; c++ {
				acc += d[r*C+c]
				m = max(m, d[r*C+c])
				sc[r*C+c] = acc
			}
			mx[r] = m
		}
		want := []eval.Value{{Elem: core.I64, Shape: []int64{int64(R), int64(C)}, Data: sc}, arr(core.I64, mx...)}
		if d := diffValues(res, want, 0); d != "" {
			t.Fatalf("shape %v: %s", shape, d)
		}
	}
}

// TestHistScatterFilter covers reduce_by_index (builtin and general
// operators), scatter with out-of-range indices, and partition.
func TestHistScatterFilter(t *testing.T) {
	p := program(t, []core.Type{aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		h := b.Fresh("h", tI64)
		_ = h
		hm := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			bk := lb.BinOp(core.Mod, x[0], core.IntConst(core.I64, 7))
			bk = lb.BinOp(core.Sub, bk, core.IntConst(core.I64, 1)) // bucket -1 is ignored
			return []core.Atom{bk, x[0], bk, core.IntConst(core.I64, 2), core.IntConst(core.I64, 1)}
		})
		hist := b.Bind("h", &core.Hist{W: w, Arrs: ps[:1], Map: hm, Ops: []*core.HistOp{
			{Dests: ps[1:2], Lambda: b.BinOpLambda(core.Add, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, 0)}},
			{Dests: []*core.Var{ps[1], ps[1]}, Lambda: linComp(b), Neutral: []core.Atom{core.IntConst(core.I64, 1), core.IntConst(core.I64, 0)}},
		}})
		idx := b.Fresh("i", tI64)
		sm := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			at := lb.BinOp(core.Sub, idx, core.IntConst(core.I64, 2))
			return []core.Atom{at, x[0]}
		})
		sc := b.Bind("sc", &core.Scatter{W: w, Arrs: ps[:1], Index: idx, Map: sm, Dests: ps[1:2]})
		pred := b.Lambda([]core.Type{tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			m := lb.BinOp(core.Mod, x[0], core.IntConst(core.I64, 3))
			return []core.Atom{lb.BinOp(core.Eq, m, core.IntConst(core.I64, 0))}
		})
		fl := b.Bind("f", &core.Filter{W: w, Arrs: ps[:1], Pred: pred, Partition: true})
		return []core.Atom{hist[0], hist[1], hist[2], sc[0], fl[0], fl[1]}
	})
	for _, n := range []int{0, 1, 10, 5000, 9000} {
		xs := i64s(n, func(i int) int64 { return int64(i * 13 % 101) })
		dst := i64s(6, func(i int) int64 { return int64(i) })
		res := mustRun(t, p, xs, dst)
		h0 := append([]int64{}, dst.Data.([]int64)...)
		ha := append([]int64{}, dst.Data.([]int64)...)
		hb := append([]int64{}, dst.Data.([]int64)...)
		sc := append([]int64{}, dst.Data.([]int64)...)
		var keep, rej []int64
		for i, x := range xs.Data.([]int64) {
			if bk := x%7 - 1; bk >= 0 && bk < 6 {
				h0[bk] += x
				ha[bk], hb[bk] = ha[bk]*2, hb[bk]*2+1
			}
			if i-2 >= 0 && i-2 < 6 {
				sc[i-2] = x
			}
			if x%3 == 0 {
				keep = append(keep, x)
			} else {
				rej = append(rej, x)
			}
		}
		want := []eval.Value{arr(core.I64, h0...), arr(core.I64, ha...), arr(core.I64, hb...), arr(core.I64, sc...),
			arr(core.I64, keep...), arr(core.I64, rej...)}
		if d := diffValues(res, want, 0); d != "" {
			t.Fatalf("n=%d: %s", n, d)
		}
	}
}

func TestMultiScan(t *testing.T) {
	p := program(t, []core.Type{aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		r := b.Bind("m", &core.MultiScan{W: w, K: core.IntConst(core.I64, 3), Labels: ps[0], Arrs: ps[1:],
			Op: &core.ScanOp{Lambda: b.BinOpLambda(core.Add, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, 0)}}})
		return []core.Atom{r[0]}
	})
	labels := arr[int64](core.I64, 0, 1, 0, 2, 1, 0)
	xs := arr[int64](core.I64, 1, 2, 3, 4, 5, 6)
	res := mustRun(t, p, labels, xs)
	if d := diffValues(res, []eval.Value{arr[int64](core.I64, 1, 2, 4, 4, 7, 10)}, 0); d != "" {
		t.Fatal(d)
	}
	_, err := runWith(t, Options{}, p, arr[int64](core.I64, 0, 3), arr[int64](core.I64, 1, 2))
	if err == nil || err.Error() != "t.fut:3:7: label 3 out of bounds for 3 classes" {
		t.Fatalf("got %v", err)
	}
}

// TestMultiScanBlocks runs the builtin multiscan in parallel blocks
// (three workers, tiny chunks) against a Go loop, and checks that an
// out-of-range label in a later block is reported at the first one.
func TestMultiScanBlocks(t *testing.T) {
	p := program(t, []core.Type{aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		r := b.Bind("m", &core.MultiScan{W: w, K: core.IntConst(core.I64, 5), Labels: ps[0], Arrs: ps[1:],
			Op: &core.ScanOp{Lambda: b.BinOpLambda(core.Add, core.I64), Neutral: []core.Atom{core.IntConst(core.I64, 0)}}})
		return []core.Atom{r[0]}
	})
	const n = 1000
	labels, xs, want := make([]int64, n), make([]int64, n), make([]int64, n)
	var run [5]int64
	for i := range labels {
		labels[i] = int64(i*i+3*i) % 5
		xs[i] = int64(i%17) - 8
		run[labels[i]] += xs[i]
		want[i] = run[labels[i]]
	}
	opts := Options{Workers: 3, Chunk: 2}
	lv := eval.Value{Elem: core.I64, Shape: []int64{n}, Data: labels}
	xv := eval.Value{Elem: core.I64, Shape: []int64{n}, Data: xs}
	res, err := runWith(t, opts, p, lv, xv)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffValues(res, []eval.Value{{Elem: core.I64, Shape: []int64{n}, Data: want}}, 0); d != "" {
		t.Fatal(d)
	}
	bad := append([]int64(nil), labels...)
	bad[900], bad[600] = 7, 9
	_, err = runWith(t, opts, p, eval.Value{Elem: core.I64, Shape: []int64{n}, Data: bad}, xv)
	if err == nil || err.Error() != "t.fut:3:7: label 9 out of bounds for 5 classes" {
		t.Fatalf("got %v, want the label at index 600", err)
	}
}

// TestScatterRows checks scatter into a matrix (rows as values) with
// out-of-range indices ignored.
func TestScatterRows(t *testing.T) {
	m := core.ArrayOf(core.I64, 2)
	p := program(t, []core.Type{m, aI64, m}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[1], 0)
		lam := b.Lambda([]core.Type{tI64, aI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			return []core.Atom{x[0], x[1]}
		})
		return []core.Atom{b.Bind("s", &core.Scatter{W: w, Arrs: ps[1:], Map: lam, Dests: ps[:1]})[0]}
	})
	dest := eval.Value{Elem: core.I64, Shape: []int64{3, 2}, Data: []int64{0, 0, 0, 0, 0, 0}}
	vals := eval.Value{Elem: core.I64, Shape: []int64{3, 2}, Data: []int64{1, 2, 3, 4, 5, 6}}
	res := mustRun(t, p, dest, arr[int64](core.I64, 2, -1, 0), vals)
	want := eval.Value{Elem: core.I64, Shape: []int64{3, 2}, Data: []int64{5, 6, 0, 0, 1, 2}}
	if d := diffValues(res, []eval.Value{want}, 0); d != "" {
		t.Fatal(d)
	}
}

// TestMultiScanGeneral runs multiscan with an operator that is not a
// builtin (the per-element path) and compares with the builtin one.
func TestMultiScanGeneral(t *testing.T) {
	p := program(t, []core.Type{aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		op := b.Lambda([]core.Type{tI64, tI64}, func(lb *core.Builder, x []*core.Var) []core.Atom {
			y := lb.BinOp(core.Or, x[0], c64(0))
			return []core.Atom{lb.BinOp(core.Add, y, x[1])}
		})
		r := b.Bind("m", &core.MultiScan{W: w, K: c64(3), Labels: ps[0], Arrs: ps[1:],
			Op: &core.ScanOp{Lambda: op, Neutral: []core.Atom{c64(0)}}})
		return []core.Atom{r[0]}
	})
	res := mustRun(t, p, arr[int64](core.I64, 0, 1, 0, 2, 1, 0), arr[int64](core.I64, 1, 2, 3, 4, 5, 6))
	if d := diffValues(res, []eval.Value{arr[int64](core.I64, 1, 2, 4, 4, 7, 10)}, 0); d != "" {
		t.Fatal(d)
	}
}

// TestMultiScanGeneralBlocks runs multiscan with a non-commutative tuple
// operator (linear-function composition) in parallel blocks (three
// workers, tiny chunks) against a Go loop per class.
func TestMultiScanGeneralBlocks(t *testing.T) {
	p := program(t, []core.Type{aI64, aI64, aI64}, func(b *core.Builder, ps []*core.Var) []core.Atom {
		w := b.Size(ps[0], 0)
		r := b.Bind("m", &core.MultiScan{W: w, K: c64(4), Labels: ps[0], Arrs: ps[1:],
			Op: &core.ScanOp{Lambda: linComp(b), Neutral: []core.Atom{c64(1), c64(0)}}})
		return []core.Atom{r[0], r[1]}
	})
	const n = 600
	ls, as, bs := make([]int64, n), make([]int64, n), make([]int64, n)
	wa, wb := make([]int64, n), make([]int64, n)
	var ra, rb [4]int64
	for l := range ra {
		ra[l] = 1
	}
	for i := range ls {
		ls[i] = int64(i*i+7*i) % 4
		as[i], bs[i] = int64(i%3)-1, int64(i%11)-5
		l := ls[i]
		ra[l], rb[l] = ra[l]*as[i], rb[l]*as[i]+bs[i]
		wa[i], wb[i] = ra[l], rb[l]
	}
	vec := func(xs []int64) eval.Value { return eval.Value{Elem: core.I64, Shape: []int64{n}, Data: xs} }
	res, err := runWith(t, Options{Workers: 3, Chunk: 2}, p, vec(ls), vec(as), vec(bs))
	if err != nil {
		t.Fatal(err)
	}
	if d := diffValues(res, []eval.Value{vec(wa), vec(wb)}, 0); d != "" {
		t.Fatal(d)
	}
}

// TestFusedTails checks reductions fused with their input statement
// (tail.go): a dot product, x*2+1 with constants on either side, and a
// subtraction with the constant on the left (not fusable as
// vector-scalar), on integers and floats.
func TestFusedTails(t *testing.T) {
	for _, pt := range []core.PrimType{core.I32, core.F64} {
		st, at := core.Scalar(pt), core.ArrayOf(pt, 1)
		num := func(v int64) core.Const {
			if pt.IsFloat() {
				return core.FloatConst(pt, float64(v))
			}
			return core.IntConst(pt, v)
		}
		p := program(t, []core.Type{at, at}, func(b *core.Builder, ps []*core.Var) []core.Atom {
			w := b.Size(ps[0], 0)
			lam := b.Lambda([]core.Type{st, st}, func(lb *core.Builder, x []*core.Var) []core.Atom {
				dot := lb.BinOp(core.Mul, x[0], x[1])
				t1 := lb.Let("t", &core.BinOpExp{Op: core.Mul, T: pt, X: num(2), Y: x[0]})
				lin := lb.BinOp(core.Add, t1, num(1))
				sub := lb.Let("t", &core.BinOpExp{Op: core.Sub, T: pt, X: num(3), Y: x[1]})
				return []core.Atom{dot, lin, sub}
			})
			add := func() *core.RedOp {
				return &core.RedOp{Lambda: b.BinOpLambda(core.Add, pt), Neutral: []core.Atom{num(0)}, Comm: true}
			}
			s := &core.Screma{W: w, Arrs: ps, Map: lam, Reds: []*core.RedOp{add(), add(), add()}}
			if tails, _ := redTails(s, []*opInfo{newOp(s.Reds[0].Lambda, s.Reds[0].Neutral),
				newOp(s.Reds[1].Lambda, s.Reds[1].Neutral), newOp(s.Reds[2].Lambda, s.Reds[2].Neutral)}); len(tails) != 3 ||
				tails[0] == nil || tails[1] == nil || !tails[1].vs || tails[2] == nil || tails[2].vs {
				t.Fatalf("fused tails not recognised as expected: %v", tails)
			}
			r := b.Bind("r", s)
			return []core.Atom{r[0], r[1], r[2]}
		})
		for _, n := range testSizes {
			xs, ys := eval.NewArray(pt, int64(n)), eval.NewArray(pt, int64(n))
			var dot, lin, sub float64
			for i := 0; i < n; i++ {
				x, y := int64(i%13-6), int64(i%7)
				if pt.IsFloat() {
					xs.Data.([]float64)[i], ys.Data.([]float64)[i] = float64(x), float64(y)
				} else {
					fillFromInt(xs.Data, i, x)
					fillFromInt(ys.Data, i, y)
				}
				dot += float64(x * y)
				lin += float64(2*x + 1)
				sub += float64(3 - y)
			}
			res := mustRun(t, p, xs, ys)
			for k, want := range []float64{dot, lin, sub} {
				var got float64
				switch d := res[k].Data.(type) {
				case []int32:
					got = float64(d[0])
				case []float64:
					got = d[0]
				}
				if got != want {
					t.Fatalf("%v n=%d result %d: got %v, want %v", pt, n, k, got, want)
				}
			}
		}
	}
}
