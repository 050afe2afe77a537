package cpu

import "github.com/arepl/arepl/lang/core"

// Vector-scalar chains. The last one or two statements of a map are often
// arithmetic with constants on a column, `x*2 + 1`, whose result only
// feeds a builtin `+` reduction or scan. Run as statements, each is a pass
// over the chunk (the first reading the input from memory) before the
// reduction or scan makes another; here the reduction or scan evaluates
// the chain itself, element by element, in its own loop, as a hand-written
// Go loop would. The kernels are written out per pair of operators (an
// operator table, chainOps), for +, - and * with the constant on the
// right. Integer arithmetic is exact in any order, so integer sums keep
// eight accumulators and integer scans sum blocks of four elements before
// adding the running total (one dependent addition per four elements
// instead of per element); float sums and scans keep the sequential order,
// and every intermediate is converted to its type so that each operation
// rounds as the statement would.

// chainOp is the index of an operator in the chain tables.
var chainOps = map[core.BinOp]int{core.Add: 0, core.Sub: 1, core.Mul: 2}

// chainFoldK adds the chain's value for every x[i] into acc[0]; c1 and
// c2 are one-element slices.
type chainFoldK func(acc, x, c1, c2 any)

// chainScanK writes the inclusive sum of the chain's values, starting
// from carry[0], to dst and leaves the total in carry[0]; c2 is unused by
// one-operation chains.
type chainScanK func(dst, x, c1, c2, carry any)

var (
	chainFold2 [3][3][core.NumPrims]chainFoldK
	chainScan1 [3][core.NumPrims]chainScanK
	chainScan2 [3][3][core.NumPrims]chainScanK
)

func cfIAddAdd[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] + a) + b
		s1 += (xs[1] + a) + b
		s2 += (xs[2] + a) + b
		s3 += (xs[3] + a) + b
		s4 += (xs[4] + a) + b
		s5 += (xs[5] + a) + b
		s6 += (xs[6] + a) + b
		s7 += (xs[7] + a) + b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v + a) + b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfIAddSub[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] + a) - b
		s1 += (xs[1] + a) - b
		s2 += (xs[2] + a) - b
		s3 += (xs[3] + a) - b
		s4 += (xs[4] + a) - b
		s5 += (xs[5] + a) - b
		s6 += (xs[6] + a) - b
		s7 += (xs[7] + a) - b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v + a) - b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfIAddMul[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] + a) * b
		s1 += (xs[1] + a) * b
		s2 += (xs[2] + a) * b
		s3 += (xs[3] + a) * b
		s4 += (xs[4] + a) * b
		s5 += (xs[5] + a) * b
		s6 += (xs[6] + a) * b
		s7 += (xs[7] + a) * b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v + a) * b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfISubAdd[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] - a) + b
		s1 += (xs[1] - a) + b
		s2 += (xs[2] - a) + b
		s3 += (xs[3] - a) + b
		s4 += (xs[4] - a) + b
		s5 += (xs[5] - a) + b
		s6 += (xs[6] - a) + b
		s7 += (xs[7] - a) + b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v - a) + b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfISubSub[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] - a) - b
		s1 += (xs[1] - a) - b
		s2 += (xs[2] - a) - b
		s3 += (xs[3] - a) - b
		s4 += (xs[4] - a) - b
		s5 += (xs[5] - a) - b
		s6 += (xs[6] - a) - b
		s7 += (xs[7] - a) - b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v - a) - b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfISubMul[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] - a) * b
		s1 += (xs[1] - a) * b
		s2 += (xs[2] - a) * b
		s3 += (xs[3] - a) * b
		s4 += (xs[4] - a) * b
		s5 += (xs[5] - a) * b
		s6 += (xs[6] - a) * b
		s7 += (xs[7] - a) * b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v - a) * b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfIMulAdd[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] * a) + b
		s1 += (xs[1] * a) + b
		s2 += (xs[2] * a) + b
		s3 += (xs[3] * a) + b
		s4 += (xs[4] * a) + b
		s5 += (xs[5] * a) + b
		s6 += (xs[6] * a) + b
		s7 += (xs[7] * a) + b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v * a) + b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfIMulSub[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] * a) - b
		s1 += (xs[1] * a) - b
		s2 += (xs[2] * a) - b
		s3 += (xs[3] * a) - b
		s4 += (xs[4] * a) - b
		s5 += (xs[5] * a) - b
		s6 += (xs[6] * a) - b
		s7 += (xs[7] * a) - b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v * a) - b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfIMulMul[T integer](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(xs) >= 8 {
		s0 += (xs[0] * a) * b
		s1 += (xs[1] * a) * b
		s2 += (xs[2] * a) * b
		s3 += (xs[3] * a) * b
		s4 += (xs[4] * a) * b
		s5 += (xs[5] * a) * b
		s6 += (xs[6] * a) * b
		s7 += (xs[7] * a) * b
		xs = xs[8:]
	}
	for _, v := range xs {
		s0 += (v * a) * b
	}
	acc.([]T)[0] += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

func cfFAddAdd[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v+a) + b)
	}
	acc.([]T)[0] = s
}

func cfFAddSub[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v+a) - b)
	}
	acc.([]T)[0] = s
}

func cfFAddMul[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v+a) * b)
	}
	acc.([]T)[0] = s
}

func cfFSubAdd[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v-a) + b)
	}
	acc.([]T)[0] = s
}

func cfFSubSub[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v-a) - b)
	}
	acc.([]T)[0] = s
}

func cfFSubMul[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v-a) * b)
	}
	acc.([]T)[0] = s
}

func cfFMulAdd[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v*a) + b)
	}
	acc.([]T)[0] = s
}

func cfFMulSub[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v*a) - b)
	}
	acc.([]T)[0] = s
}

func cfFMulMul[T float](acc, x, c1, c2 any) {
	xs, a, b := x.([]T), c1.([]T)[0], c2.([]T)[0]
	s := acc.([]T)[0]
	for _, v := range xs {
		s += T(T(v*a) * b)
	}
	acc.([]T)[0] = s
}

func csFAdd[T float](dst, x, c1, _, carry any) {
	xs, a, c := x.([]T), c1.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(v + a)
		d[i] = s
	}
	c[0] = s
}

func csFSub[T float](dst, x, c1, _, carry any) {
	xs, a, c := x.([]T), c1.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(v - a)
		d[i] = s
	}
	c[0] = s
}

func csFMul[T float](dst, x, c1, _, carry any) {
	xs, a, c := x.([]T), c1.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(v * a)
		d[i] = s
	}
	c[0] = s
}

func csFAddAdd[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v+a) + b)
		d[i] = s
	}
	c[0] = s
}

func csFAddSub[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v+a) - b)
		d[i] = s
	}
	c[0] = s
}

func csFAddMul[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v+a) * b)
		d[i] = s
	}
	c[0] = s
}

func csFSubAdd[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v-a) + b)
		d[i] = s
	}
	c[0] = s
}

func csFSubSub[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v-a) - b)
		d[i] = s
	}
	c[0] = s
}

func csFSubMul[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v-a) * b)
		d[i] = s
	}
	c[0] = s
}

func csFMulAdd[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v*a) + b)
		d[i] = s
	}
	c[0] = s
}

func csFMulSub[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v*a) - b)
		d[i] = s
	}
	c[0] = s
}

func csFMulMul[T float](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	for i, v := range xs {
		s += T(T(v*a) * b)
		d[i] = s
	}
	c[0] = s
}

func csIAdd[T integer](dst, x, c1, _, carry any) {
	xs, a, c := x.([]T), c1.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := (q[0] + a)
		p1 := p0 + (q[1] + a)
		p2 := p1 + (q[2] + a)
		p3 := p2 + (q[3] + a)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += xs[i] + a
		d[i] = s
	}
	c[0] = s
}

func csIAddAdd[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] + a) + b)
		p1 := p0 + ((q[1] + a) + b)
		p2 := p1 + ((q[2] + a) + b)
		p3 := p2 + ((q[3] + a) + b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] + a) + b
		d[i] = s
	}
	c[0] = s
}

func csIAddSub[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] + a) - b)
		p1 := p0 + ((q[1] + a) - b)
		p2 := p1 + ((q[2] + a) - b)
		p3 := p2 + ((q[3] + a) - b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] + a) - b
		d[i] = s
	}
	c[0] = s
}

func csIAddMul[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] + a) * b)
		p1 := p0 + ((q[1] + a) * b)
		p2 := p1 + ((q[2] + a) * b)
		p3 := p2 + ((q[3] + a) * b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] + a) * b
		d[i] = s
	}
	c[0] = s
}

func csISub[T integer](dst, x, c1, _, carry any) {
	xs, a, c := x.([]T), c1.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := (q[0] - a)
		p1 := p0 + (q[1] - a)
		p2 := p1 + (q[2] - a)
		p3 := p2 + (q[3] - a)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += xs[i] - a
		d[i] = s
	}
	c[0] = s
}

func csISubAdd[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] - a) + b)
		p1 := p0 + ((q[1] - a) + b)
		p2 := p1 + ((q[2] - a) + b)
		p3 := p2 + ((q[3] - a) + b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] - a) + b
		d[i] = s
	}
	c[0] = s
}

func csISubSub[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] - a) - b)
		p1 := p0 + ((q[1] - a) - b)
		p2 := p1 + ((q[2] - a) - b)
		p3 := p2 + ((q[3] - a) - b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] - a) - b
		d[i] = s
	}
	c[0] = s
}

func csISubMul[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] - a) * b)
		p1 := p0 + ((q[1] - a) * b)
		p2 := p1 + ((q[2] - a) * b)
		p3 := p2 + ((q[3] - a) * b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] - a) * b
		d[i] = s
	}
	c[0] = s
}

func csIMul[T integer](dst, x, c1, _, carry any) {
	xs, a, c := x.([]T), c1.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := (q[0] * a)
		p1 := p0 + (q[1] * a)
		p2 := p1 + (q[2] * a)
		p3 := p2 + (q[3] * a)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += xs[i] * a
		d[i] = s
	}
	c[0] = s
}

func csIMulAdd[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] * a) + b)
		p1 := p0 + ((q[1] * a) + b)
		p2 := p1 + ((q[2] * a) + b)
		p3 := p2 + ((q[3] * a) + b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] * a) + b
		d[i] = s
	}
	c[0] = s
}

func csIMulSub[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] * a) - b)
		p1 := p0 + ((q[1] * a) - b)
		p2 := p1 + ((q[2] * a) - b)
		p3 := p2 + ((q[3] * a) - b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] * a) - b
		d[i] = s
	}
	c[0] = s
}

func csIMulMul[T integer](dst, x, c1, c2, carry any) {
	xs, a, b, c := x.([]T), c1.([]T)[0], c2.([]T)[0], carry.([]T)
	d := dst.([]T)[:len(xs)]
	s := c[0]
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		q, dd := xs[i:i+4:i+4], d[i:i+4:i+4]
		p0 := ((q[0] * a) * b)
		p1 := p0 + ((q[1] * a) * b)
		p2 := p1 + ((q[2] * a) * b)
		p3 := p2 + ((q[3] * a) * b)
		dd[0], dd[1], dd[2], dd[3] = s+p0, s+p1, s+p2, s+p3
		s += p3
	}
	for ; i < len(xs); i++ {
		s += (xs[i] * a) * b
		d[i] = s
	}
	c[0] = s
}

func chainIntOps[T integer](t core.PrimType) {
	chainFold2[0][0][t] = cfIAddAdd[T]
	chainFold2[0][1][t] = cfIAddSub[T]
	chainFold2[0][2][t] = cfIAddMul[T]
	chainFold2[1][0][t] = cfISubAdd[T]
	chainFold2[1][1][t] = cfISubSub[T]
	chainFold2[1][2][t] = cfISubMul[T]
	chainFold2[2][0][t] = cfIMulAdd[T]
	chainFold2[2][1][t] = cfIMulSub[T]
	chainFold2[2][2][t] = cfIMulMul[T]
	chainScanIntOps[T](t)
}

func chainFloatOps[T float](t core.PrimType) {
	chainFold2[0][0][t] = cfFAddAdd[T]
	chainFold2[0][1][t] = cfFAddSub[T]
	chainFold2[0][2][t] = cfFAddMul[T]
	chainFold2[1][0][t] = cfFSubAdd[T]
	chainFold2[1][1][t] = cfFSubSub[T]
	chainFold2[1][2][t] = cfFSubMul[T]
	chainFold2[2][0][t] = cfFMulAdd[T]
	chainFold2[2][1][t] = cfFMulSub[T]
	chainFold2[2][2][t] = cfFMulMul[T]
	chainScanFloatOps[T](t)
}

func chainScanIntOps[T integer](t core.PrimType) {
	chainScan1[0][t] = csIAdd[T]
	chainScan2[0][0][t] = csIAddAdd[T]
	chainScan2[0][1][t] = csIAddSub[T]
	chainScan2[0][2][t] = csIAddMul[T]
	chainScan1[1][t] = csISub[T]
	chainScan2[1][0][t] = csISubAdd[T]
	chainScan2[1][1][t] = csISubSub[T]
	chainScan2[1][2][t] = csISubMul[T]
	chainScan1[2][t] = csIMul[T]
	chainScan2[2][0][t] = csIMulAdd[T]
	chainScan2[2][1][t] = csIMulSub[T]
	chainScan2[2][2][t] = csIMulMul[T]
}

func chainScanFloatOps[T float](t core.PrimType) {
	chainScan1[0][t] = csFAdd[T]
	chainScan2[0][0][t] = csFAddAdd[T]
	chainScan2[0][1][t] = csFAddSub[T]
	chainScan2[0][2][t] = csFAddMul[T]
	chainScan1[1][t] = csFSub[T]
	chainScan2[1][0][t] = csFSubAdd[T]
	chainScan2[1][1][t] = csFSubSub[T]
	chainScan2[1][2][t] = csFSubMul[T]
	chainScan1[2][t] = csFMul[T]
	chainScan2[2][0][t] = csFMulAdd[T]
	chainScan2[2][1][t] = csFMulSub[T]
	chainScan2[2][2][t] = csFMulMul[T]
}

// initChainTables fills the chained-kernel tables (tables.go calls it).
func initChainTables() {
	chainIntOps[int8](core.I8)
	chainIntOps[int16](core.I16)
	chainIntOps[int32](core.I32)
	chainIntOps[int64](core.I64)
	chainIntOps[uint8](core.U8)
	chainIntOps[uint16](core.U16)
	chainIntOps[uint32](core.U32)
	chainIntOps[uint64](core.U64)
	chainFloatOps[float32](core.F32)
	chainFloatOps[float64](core.F64)
}
