package eval

import (
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// TestWidenHalf: a program without f16 comes back as itself (its IR, and
// so the GPU's fingerprints and module texts, unchanged); one with f16
// comes back as a copy with no f16 left, a rounding after the addition and
// the bit cast replaced, and the original untouched.
func TestWidenHalf(t *testing.T) {
	mk := func(pt core.PrimType) *core.Program {
		x := &core.Var{Name: "x", Type: core.Scalar(pt)}
		s := &core.Var{Name: "s", Type: core.Scalar(pt)}
		outs := []*core.Stmt{{Pat: []*core.Var{s}, Exp: &core.BinOpExp{Op: core.Add, T: pt, X: x, Y: core.FloatConst(pt, 0.1)}}}
		res := []core.Atom{s}
		if pt == core.F16 {
			b := &core.Var{Name: "b", Type: core.Scalar(core.U16)}
			outs = append(outs, &core.Stmt{Pat: []*core.Var{b}, Exp: &core.UnOpExp{Op: core.ToBits, T: pt, X: s}})
			res = append(res, b)
		}
		var ret []core.Type
		for _, a := range res {
			ret = append(ret, a.AtomType())
		}
		return &core.Program{Funs: []*core.Fun{{Name: "main", Params: []*core.Var{x}, Ret: ret, Body: &core.Body{Stmts: outs, Result: res}}}}
	}
	if p := mk(core.F32); WidenHalf(p) != p {
		t.Error("a program without f16 was rewritten")
	}
	p := mk(core.F16)
	before := core.Print(p)
	w := WidenHalf(p)
	if HasHalf(w) {
		t.Fatalf("f16 left after widening:\n%s", core.Print(w))
	}
	text := core.Print(w)
	for _, want := range []string{"f16_round", "f16_to_bits"} {
		if !strings.Contains(text, want) {
			t.Errorf("widened program lacks %s:\n%s", want, text)
		}
	}
	if core.Print(p) != before {
		t.Errorf("WidenHalf changed its argument:\n%s", core.Print(p))
	}
	if err := core.Verify(w); err != nil {
		t.Errorf("widened program does not verify: %v\n%s", err, text)
	}
}
