package gpu

import (
	"math"
	"strings"
	"testing"

	. "github.com/arepl/arepl/lang/core"
)

// TestDivByConst checks which f32 divisions by a constant divByConst
// rewrites, and how; testdata/nested/stencil_div.fut checks the quotients
// on the GPU, bit for bit.
func TestDivByConst(t *testing.T) {
	for _, c := range []struct {
		d    float64
		want string // "" for no rewrite
	}{
		{5, "(f32)((f64)x * 0.2)"},
		{-7, "(f32)((f64)x * -0.14285714285714285)"},
		{1, "(x * 1.0f)"},
		{4, "(x * 0.25f)"},
		{0.25, "(x * 4.0f)"},
		{-0.5, "(x * -2.0f)"},
		{math.Ldexp(1, 126), "(x * 1.1754944e-38f)"},
		{math.Ldexp(1, 127), ""}, // 1/d is subnormal in f32
		{6, ""},                  // even, not a power of two
		{0.3, ""},
		{0, ""},
		{math.Inf(1), ""},
		{1<<24 + 1, ""}, // no f32 constant: f32 has 24 bits
		{1<<24 - 1, "(f32)((f64)x * 5.960464832810452e-08)"},
	} {
		x := &BinOpExp{Op: Div, T: F32, X: IntConst(I64, 0), Y: Const{T: F32, Bits: math.Float64bits(c.d)}}
		got, ok := divByConst(x, "x")
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("x / %v: got %q, want %q", c.d, got, c.want)
		}
	}
	// Only f32 division.
	x := &BinOpExp{Op: Div, T: F64, X: IntConst(I64, 0), Y: Const{T: F64, Bits: math.Float64bits(5)}}
	if got, ok := divByConst(x, "x"); ok || strings.Contains(got, "f64") {
		t.Errorf("f64 x / 5 rewritten: %q", got)
	}
}
