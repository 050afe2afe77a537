package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFusedMulAdd2F64 checks the f64 a*b ± c*d kernels (the AVX2 ones
// where installed) against the three statements they replace, each
// rounded to float64, bit for bit: an FMA, or products kept wider, would
// differ in the last bit on most random inputs. Lengths cover the
// vector body and the scalar tail; the inputs include zeros, infinities,
// NaNs and values whose products overflow or underflow.
func TestFusedMulAdd2F64(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 2))
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1e200, 1e-200, 3}
	for _, n := range []int{0, 1, 3, 4, 5, 8, 63, 1000} {
		in := make([][]float64, 4)
		for k := range in {
			in[k] = make([]float64, n)
			for i := range in[k] {
				if r.IntN(8) == 0 {
					in[k][i] = special[r.IntN(len(special))]
				} else {
					in[k][i] = (r.Float64() - 0.5) * math.Pow(2, float64(r.IntN(40)-20))
				}
			}
		}
		a, b, c, e := in[0], in[1], in[2], in[3]
		for _, k := range []struct {
			name string
			run  func(d, a, b, c, e []float64)
			want func(p, q float64) float64
		}{
			{"add", fusedMulAdd2F64, func(p, q float64) float64 { return p + q }},
			{"sub", fusedMulSub2F64, func(p, q float64) float64 { return p - q }},
		} {
			d := make([]float64, n)
			k.run(d, a, b, c, e)
			for i := range d {
				p, q := a[i]*b[i], c[i]*e[i] // each statement's own rounding
				w := k.want(p, q)
				if math.Float64bits(d[i]) != math.Float64bits(w) && !(math.IsNaN(d[i]) && math.IsNaN(w)) {
					t.Fatalf("%s n=%d lane %d: %v*%v ∓ %v*%v = %v, want %v", k.name, n, i, a[i], b[i], c[i], e[i], d[i], w)
				}
			}
		}
	}
}

// TestFusedOuterF64 checks the kernels of Mandelbrot's shapes, (a*b ±
// c*e) + f, (a*k)*b + c and a*b + c*e < k, against their statements,
// each rounded to float64, bit for bit (any NaN for a NaN: Go may swap
// the operands of a commutative scalar operator, so the statements fix no
// NaN's payload either).
func TestFusedOuterF64(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 5))
	nan2 := math.Float64frombits(0x7ff8000000000123)
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), nan2,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1e200, 1e-200, 3, 2}
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	for _, n := range []int{0, 1, 3, 4, 5, 8, 63, 1000} {
		in := make([][]float64, 5)
		for k := range in {
			in[k] = make([]float64, n)
			for i := range in[k] {
				if r.IntN(6) == 0 {
					in[k][i] = special[r.IntN(len(special))]
				} else {
					in[k][i] = (r.Float64() - 0.5) * math.Pow(2, float64(r.IntN(40)-20))
				}
			}
		}
		a, b, c, e, f := in[0], in[1], in[2], in[3], in[4]
		d := make([]float64, n)
		fusedMulAdd2AddF64(d, a, b, c, e, f)
		for i := range d {
			p, q := a[i]*b[i], c[i]*e[i]
			s := p + q
			if w := s + f[i]; !same(d[i], w) {
				t.Fatalf("n=%d lane %d: (%v*%v + %v*%v) + %v = %v, want %v", n, i, a[i], b[i], c[i], e[i], f[i], d[i], w)
			}
		}
		fusedMulSub2AddF64(d, a, b, c, e, f)
		for i := range d {
			p, q := a[i]*b[i], c[i]*e[i]
			s := p - q
			if w := s + f[i]; !same(d[i], w) {
				t.Fatalf("n=%d lane %d: (%v*%v - %v*%v) + %v = %v, want %v", n, i, a[i], b[i], c[i], e[i], f[i], d[i], w)
			}
		}
		for _, k := range special {
			fusedScaledMulAddF64(d, a, b, c, k)
			for i := range d {
				t1 := a[i] * k
				u := t1 * b[i]
				if w := u + c[i]; !same(d[i], w) {
					t.Fatalf("n=%d lane %d: (%v*%v)*%v + %v = %v, want %v", n, i, a[i], k, b[i], c[i], d[i], w)
				}
			}
			l := make([]bool, n)
			fusedMulAdd2LtF64(l, a, b, c, e, k)
			for i := range l {
				p, q := a[i]*b[i], c[i]*e[i]
				s := p + q
				if w := s < k; l[i] != w {
					t.Fatalf("n=%d lane %d: %v*%v + %v*%v < %v = %v, want %v", n, i, a[i], b[i], c[i], e[i], k, l[i], w)
				}
			}
		}
	}
}
