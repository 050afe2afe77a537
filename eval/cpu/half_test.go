package cpu

import (
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// TestRecogniseHalf: the widened operator of an f16 sum (x + y on f32,
// then f16_round) runs from the F16 column of the fold and scan tables,
// which round after every step: 2048 + 1 is a tie that rounds to 2048.
func TestRecogniseHalf(t *testing.T) {
	f32 := core.Scalar(core.F32)
	x, y := &core.Var{Name: "x", Type: f32}, &core.Var{Name: "y", Type: f32}
	s, r := &core.Var{Name: "s", Type: f32}, &core.Var{Name: "r", Type: f32}
	l := &core.Lambda{Params: []*core.Var{x, y}, Ret: []core.Type{f32}, Body: &core.Body{
		Stmts: []*core.Stmt{
			{Pat: []*core.Var{s}, Exp: &core.BinOpExp{Op: core.Add, T: core.F32, X: x, Y: y}},
			{Pat: []*core.Var{r}, Exp: &core.UnOpExp{Op: core.HalfRound, T: core.F32, X: s}},
		},
		Result: []core.Atom{r},
	}}
	op, pt, ok := recognise(l)
	if !ok || op != core.Add || pt != core.F16 {
		t.Fatalf("recognise = %v %v %v, want add f16 true", op, pt, ok)
	}
	acc := []float32{2048}
	foldTab[op][pt](acc, []float32{1, 1, 1, 1})
	if acc[0] != 2048 {
		t.Errorf("f16 fold: got %v, want 2048 (every 2048 + 1 rounds to even)", acc[0])
	}
	// 0.1 + 0.2 rounds to 0.2998 (not f32's 0.30004883), + 1000 to
	// 1000.5, + 0.25 is a tie that rounds to the even 1001.
	dst, carry := make([]float32, 3), []float32{core.RoundHalf32(0.1)}
	scanTab[op][pt](dst, []float32{core.RoundHalf32(0.2), 1000, 0.25}, carry)
	if want := []float32{0.2998047, 1000.5, 1001}; dst[0] != want[0] || dst[1] != want[1] || dst[2] != want[2] || carry[0] != 1001 {
		t.Errorf("f16 scan: got %v (carry %v), want %v", dst, carry, want)
	}
	l.Body.Stmts[1].Exp = &core.UnOpExp{Op: core.Neg, T: core.F32, X: s}
	if _, _, ok := recognise(l); ok {
		t.Error("a lambda that does not round is recognised as f16")
	}
}
