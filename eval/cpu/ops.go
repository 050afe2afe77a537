package cpu

import (
	"fmt"
	"unsafe"

	"github.com/arepl/arepl/lang/core"
)

// Builtin reduce, scan and histogram operators. A reduce or scan whose
// operator lambda is exactly one associative builtin operator applied to
// its two parameters (`(+)`, `i32.max`, `(&&)`, ...) runs as one typed loop
// per chunk from these tables instead of through the vectorised lambda.

// foldK folds x into acc[0] (acc is a one-element slice).
type foldK func(acc, x any)

// scanK writes the inclusive scan of x, starting from carry[0], into dst
// and leaves the last value in carry[0].
type scanK func(dst, x, carry any)

// histK combines v[i] into d[idx[i]] for every in-range index.
type histK func(d any, idx []int64, v any)

// msK is the multiscan of x by label: acc holds one running value per
// class (initialised to the neutral element), out[i] the running value of
// labels[i] after x[i]. It returns the index of the first label out of
// range, or -1.
type msK func(out, acc any, labels []int64, x any) int

// msCarryK finishes a block of a parallel multiscan: out[i] becomes
// carry[labels[i]] combined with out[i] (labels already checked).
type msCarryK func(out, carry any, labels []int64)

// msZipK combines two blocks' running values class by class: acc[c]
// becomes before[c] combined with acc[c].
type msZipK func(acc, before any)

var (
	msTab   [len(core.BinOps)][core.NumPrims]msK
	msCarry [len(core.BinOps)][core.NumPrims]msCarryK
	msZip   [len(core.BinOps)][core.NumPrims]msZipK
	foldTab [len(core.BinOps)][core.NumPrims]foldK
	scanTab [len(core.BinOps)][core.NumPrims]scanK
	histTab [len(core.BinOps)][core.NumPrims]histK
)

// recognise returns the builtin operator a reduce/scan lambda consists of.
func recognise(l *core.Lambda) (core.BinOp, core.PrimType, bool) {
	if op, t, ok := recogniseSelect(l); ok {
		return op, t, true
	}
	if op, ok := recogniseHalf(l); ok {
		return op, core.F16, true
	}
	if l == nil || len(l.Params) != 2 || len(l.Body.Stmts) != 1 || len(l.Body.Result) != 1 {
		return 0, 0, false
	}
	s := l.Body.Stmts[0]
	e, ok := s.Exp.(*core.BinOpExp)
	if !ok || len(s.Pat) != 1 {
		return 0, 0, false
	}
	r, ok := l.Body.Result[0].(*core.Var)
	if !ok || r.Name != s.Pat[0].Name {
		return 0, 0, false
	}
	x, xok := e.X.(*core.Var)
	y, yok := e.Y.(*core.Var)
	if !xok || !yok {
		return 0, 0, false
	}
	p0, p1 := l.Params[0].Name, l.Params[1].Name
	info := core.BinOps[e.Op]
	inOrder := x.Name == p0 && y.Name == p1
	swapped := x.Name == p1 && y.Name == p0 && info.Commutative
	if !inOrder && !swapped {
		return 0, 0, false
	}
	if foldTab[e.Op][e.T] == nil {
		return 0, 0, false
	}
	return e.Op, e.T, true
}

func ms1[T any](op func(a, b T) T) msK {
	return func(out, acc any, labels []int64, x any) int {
		o, a, xs := out.([]T), acc.([]T), x.([]T)
		k := int64(len(a))
		xs = xs[:len(labels)]
		for i, l := range labels {
			if l < 0 || l >= k {
				return i
			}
			a[l] = op(a[l], xs[i])
			o[i] = a[l]
		}
		return -1
	}
}

// regMS registers the multiscan kernels of op on T.
func regMS[T any](bop core.BinOp, t core.PrimType, op func(a, b T) T) {
	msTab[bop][t] = ms1(op)
	msCarry[bop][t] = func(out, carry any, labels []int64) {
		o, c := out.([]T), carry.([]T)
		for i, l := range labels {
			o[i] = op(c[l], o[i])
		}
	}
	msZip[bop][t] = func(acc, before any) {
		a, bs := acc.([]T), before.([]T)
		for i := range a {
			a[i] = op(bs[i], a[i])
		}
	}
}

// msAdd is ms1 of + without a call per element (the loop of a multiscan
// of sums is otherwise the function call).
func msAdd[T number](out, acc any, labels []int64, x any) int {
	o, a, xs := out.([]T), acc.([]T), x.([]T)
	k := int64(len(a))
	xs, o = xs[:len(labels)], o[:len(labels)]
	for i, l := range labels {
		if uint64(l) >= uint64(k) {
			return i
		}
		a[l] += xs[i]
		o[i] = a[l]
	}
	return -1
}

func fold1[T any](op func(a, b T) T) foldK {
	return func(acc, x any) {
		a := acc.([]T)
		v := a[0]
		for _, e := range x.([]T) {
			v = op(v, e)
		}
		a[0] = v
	}
}

func scan1[T any](op func(a, b T) T) scanK {
	return func(dst, x, carry any) {
		d, c := dst.([]T), carry.([]T)
		xs := x.([]T)
		d = d[:len(xs)]
		v := c[0]
		for i, e := range xs {
			v = op(v, e)
			d[i] = v
		}
		c[0] = v
	}
}

func hist1[T any](op func(a, b T) T) histK {
	return func(d any, idx []int64, v any) {
		dd, vv := d.([]T), v.([]T)
		n := int64(len(dd))
		vv = vv[:len(idx)]
		for i, b := range idx {
			if b >= 0 && b < n {
				dd[b] = op(dd[b], vv[i])
			}
		}
	}
}

// The sum, max and min loops are written out so the compiler sees the
// operator (the func-value versions above are for the rarer operators).
// foldAdd keeps one running value: float addition is not associative, and
// a float sum must not depend on how it is unrolled.
func foldAdd[T number](acc, x any) {
	a := acc.([]T)
	v := a[0]
	for _, e := range x.([]T) {
		v += e
	}
	a[0] = v
}

func scanAdd[T number](dst, x, carry any) {
	d, c := dst.([]T), carry.([]T)
	xs := x.([]T)
	d = d[:len(xs)]
	v := c[0]
	for i, e := range xs {
		v += e
		d[i] = v
	}
	c[0] = v
}

// Integer folds keep eight independent accumulators: a single running
// value makes every element wait for the previous addition (one element
// per cycle at best), eight let the additions overlap. Wrapping integer
// addition, max and min are associative and commutative, so the result is
// exactly that of the sequential fold.
func foldAddInt[T integer](acc, x any) {
	acc.([]T)[0] += sumInt(x.([]T))
}

// sumInt is the wrapping sum of xs.
func sumInt[T integer](xs []T) T {
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += xs[0]
		s1 += xs[1]
		s2 += xs[2]
		s3 += xs[3]
		s4 += xs[4]
		s5 += xs[5]
		s6 += xs[6]
		s7 += xs[7]
		xs = xs[8:]
	}
	for _, e := range xs {
		s0 += e
	}
	return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

// scanAddInt is scanAdd for integers, in blocks of four: each block's own
// prefix sums are independent of the running total, so only one addition
// per block waits for the previous block.
func scanAddInt[T integer](dst, x, carry any) {
	d, c := dst.([]T), carry.([]T)
	xs := x.([]T)
	d = d[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := q[0]
		p1 := p0 + q[1]
		p2 := p1 + q[2]
		p3 := p2 + q[3]
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += xs[i]
		d[i] = s
	}
	c[0] = s
}

func foldMaxInt[T integer](acc, x any) {
	a := acc.([]T)
	a[0] = max(a[0], maxOf(x.([]T)))
}

func foldMinInt[T integer](acc, x any) {
	a := acc.([]T)
	a[0] = min(a[0], minOf(x.([]T)))
}

// maxOf is the largest element of xs (the smallest T when empty).
func maxOf[T integer](xs []T) T {
	var lowest T
	if ^lowest < 0 { // signed: the most negative value
		lowest = T(1) << (8*unsafe.Sizeof(lowest) - 1)
	}
	s0, s1, s2, s3, s4, s5, s6, s7 := lowest, lowest, lowest, lowest, lowest, lowest, lowest, lowest
	for len(xs) >= 8 {
		s0 = max(s0, xs[0])
		s1 = max(s1, xs[1])
		s2 = max(s2, xs[2])
		s3 = max(s3, xs[3])
		s4 = max(s4, xs[4])
		s5 = max(s5, xs[5])
		s6 = max(s6, xs[6])
		s7 = max(s7, xs[7])
		xs = xs[8:]
	}
	for _, e := range xs {
		s0 = max(s0, e)
	}
	return max(s0, s1, s2, s3, s4, s5, s6, s7)
}

// minOf is the smallest element of xs (the largest T when empty).
func minOf[T integer](xs []T) T {
	highest := ^T(0)
	if highest < 0 { // signed: the most positive value
		highest = ^(T(1) << (8*unsafe.Sizeof(highest) - 1))
	}
	s0, s1, s2, s3, s4, s5, s6, s7 := highest, highest, highest, highest, highest, highest, highest, highest
	for len(xs) >= 8 {
		s0 = min(s0, xs[0])
		s1 = min(s1, xs[1])
		s2 = min(s2, xs[2])
		s3 = min(s3, xs[3])
		s4 = min(s4, xs[4])
		s5 = min(s5, xs[5])
		s6 = min(s6, xs[6])
		s7 = min(s7, xs[7])
		xs = xs[8:]
	}
	for _, e := range xs {
		s0 = min(s0, e)
	}
	return min(s0, s1, s2, s3, s4, s5, s6, s7)
}

func redNum[T number](t core.PrimType) {
	foldTab[core.Add][t] = foldAdd[T]
	scanTab[core.Add][t] = scanAdd[T]
	histTab[core.Add][t] = hist1(func(a, b T) T { return a + b })
	regMS(core.Add, t, func(a, b T) T { return a + b })
	msTab[core.Add][t] = msAdd[T]
	mul := func(a, b T) T { return a * b }
	regMS(core.Mul, t, mul)
	foldTab[core.Mul][t] = fold1(mul)
	scanTab[core.Mul][t] = scan1(mul)
	histTab[core.Mul][t] = hist1(mul)
}

func redInt[T integer](t core.PrimType) {
	redNum[T](t)
	foldTab[core.Add][t] = foldAddInt[T]
	scanTab[core.Add][t] = scanAddInt[T]
	mn := func(a, b T) T { return min(a, b) }
	mx := func(a, b T) T { return max(a, b) }
	foldTab[core.Min][t] = foldMinInt[T]
	foldTab[core.Max][t] = foldMaxInt[T]
	scanTab[core.Min][t] = scan1(mn)
	scanTab[core.Max][t] = scan1(mx)
	histTab[core.Min][t] = hist1(mn)
	histTab[core.Max][t] = hist1(mx)
	regMS(core.Min, t, mn)
	regMS(core.Max, t, mx)
	for op, fn := range map[core.BinOp]func(a, b T) T{
		core.And: func(a, b T) T { return a & b },
		core.Or:  func(a, b T) T { return a | b },
		core.Xor: func(a, b T) T { return a ^ b },
	} {
		foldTab[op][t] = fold1(fn)
		scanTab[op][t] = scan1(fn)
		histTab[op][t] = hist1(fn)
		regMS(op, t, fn)
	}
}

// foldMinF and foldMaxF call fmin/fmax directly, so they are inlined
// (through fold1's func value they are a call per element).
func foldMinF[T float](acc, x any) {
	a := acc.([]T)
	v := a[0]
	for _, e := range x.([]T) {
		v = fmin(v, e)
	}
	a[0] = v
}

func foldMaxF[T float](acc, x any) {
	a := acc.([]T)
	v := a[0]
	for _, e := range x.([]T) {
		v = fmax(v, e)
	}
	a[0] = v
}

func redFloat[T float](t core.PrimType) {
	redNum[T](t)
	foldTab[core.Min][t] = foldMinF[T]
	foldTab[core.Max][t] = foldMaxF[T]
	scanTab[core.Min][t] = scan1(fmin[T])
	scanTab[core.Max][t] = scan1(fmax[T])
	histTab[core.Min][t] = hist1(fmin[T])
	histTab[core.Max][t] = hist1(fmax[T])
	regMS(core.Min, t, fmin[T])
	regMS(core.Max, t, fmax[T])
}

// initReduceTables fills the fold, scan, hist and multiscan tables (tables.go calls it).
func initReduceTables() {
	redInt[int8](core.I8)
	redInt[int16](core.I16)
	redInt[int32](core.I32)
	redInt[int64](core.I64)
	redInt[uint8](core.U8)
	redInt[uint16](core.U16)
	redInt[uint32](core.U32)
	redInt[uint64](core.U64)
	redFloat[float32](core.F32)
	redFloat[float64](core.F64)
	and := func(a, b bool) bool { return a && b }
	or := func(a, b bool) bool { return a || b }
	for _, op := range []core.BinOp{core.And, core.LogAnd} {
		foldTab[op][core.Bool] = fold1(and)
		scanTab[op][core.Bool] = scan1(and)
		histTab[op][core.Bool] = hist1(and)
		regMS(op, core.Bool, and)
	}
	for _, op := range []core.BinOp{core.Or, core.LogOr} {
		foldTab[op][core.Bool] = fold1(or)
		scanTab[op][core.Bool] = scan1(or)
		histTab[op][core.Bool] = hist1(or)
		regMS(op, core.Bool, or)
	}
}

// scatterIdx writes src[i] to dst[idx[i]] for every in-range index.
func scatterIdx(dst any, idx []int64, src any) {
	switch d := dst.(type) {
	case []bool:
		scatterT(d, idx, src.([]bool))
	case []int8:
		scatterT(d, idx, src.([]int8))
	case []int16:
		scatterT(d, idx, src.([]int16))
	case []int32:
		scatterT(d, idx, src.([]int32))
	case []int64:
		scatterT(d, idx, src.([]int64))
	case []uint8:
		scatterT(d, idx, src.([]uint8))
	case []uint16:
		scatterT(d, idx, src.([]uint16))
	case []uint32:
		scatterT(d, idx, src.([]uint32))
	case []uint64:
		scatterT(d, idx, src.([]uint64))
	case []float32:
		scatterT(d, idx, src.([]float32))
	case []float64:
		scatterT(d, idx, src.([]float64))
	default:
		panic(fmt.Sprintf("cpu: scatterIdx of %T", dst))
	}
}

func scatterT[T any](d []T, idx []int64, s []T) {
	n := int64(len(d))
	s = s[:len(idx)]
	for i, b := range idx {
		if b >= 0 && b < n {
			d[b] = s[i]
		}
	}
}

// recogniseSelect recognises max and min written with a comparison and an
// if, `\x y -> if x < y then y else x`, on integer types (on floats the
// if and f32.max treat NaN differently, so those stay general lambdas).
func recogniseSelect(l *core.Lambda) (core.BinOp, core.PrimType, bool) {
	if l == nil || len(l.Params) != 2 || len(l.Body.Stmts) != 2 || len(l.Body.Result) != 1 {
		return 0, 0, false
	}
	cs, is := l.Body.Stmts[0], l.Body.Stmts[1]
	cmp, ok1 := cs.Exp.(*core.BinOpExp)
	ife, ok2 := is.Exp.(*core.IfExp)
	if !ok1 || !ok2 || len(cs.Pat) != 1 || len(is.Pat) != 1 || !cmp.T.IsInt() {
		return 0, 0, false
	}
	if c, ok := ife.Cond.(*core.Var); !ok || c.Name != cs.Pat[0].Name {
		return 0, 0, false
	}
	if r, ok := l.Body.Result[0].(*core.Var); !ok || r.Name != is.Pat[0].Name {
		return 0, 0, false
	}
	if len(ife.Then.Stmts) != 0 || len(ife.Else.Stmts) != 0 || len(ife.Then.Result) != 1 || len(ife.Else.Result) != 1 {
		return 0, 0, false
	}
	name := func(a core.Atom) string {
		if v, ok := a.(*core.Var); ok {
			return v.Name
		}
		return ""
	}
	p0, p1 := l.Params[0].Name, l.Params[1].Name
	x, y := name(cmp.X), name(cmp.Y)
	if !(x == p0 && y == p1) && !(x == p1 && y == p0) {
		return 0, 0, false
	}
	t, e := name(ife.Then.Result[0]), name(ife.Else.Result[0])
	if !(t == x && e == y) && !(t == y && e == x) {
		return 0, 0, false
	}
	// With c = x < y (or <=): "then y" picks the larger, "then x" the
	// smaller; > and >= the other way round. Ties give equal integers.
	thenLarger := t == y
	switch cmp.Op {
	case core.Lt, core.Le:
	case core.Gt, core.Ge:
		thenLarger = !thenLarger
	default:
		return 0, 0, false
	}
	op := core.Min
	if thenLarger {
		op = core.Max
	}
	if foldTab[op][cmp.T] == nil {
		return 0, 0, false
	}
	return op, cmp.T, true
}
