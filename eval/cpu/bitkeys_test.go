package cpu

import (
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// TestSimplifyBits checks the bit-field rules on IndexOfMaxPack's pack and
// unpack, and that look-alikes the rules do not cover keep their unpacking.
func TestSimplifyBits(t *testing.T) {
	c := func(v int64) core.Atom { return core.IntConst(core.I64, v) }
	const mask = 0xFFFFFFFF
	b := core.NewBuilder()
	for _, tc := range []struct {
		name      string
		from      core.PrimType
		masked    bool // the low field is i & mask (else i itself)
		hiIsParam bool // the high key simplifies to the parameter
		loIsField bool // the low key simplifies to the low field
	}{
		{"pack", core.I32, true, true, true},
		// An unmasked low field may reach into the high one: no rule.
		{"unmasked", core.I32, false, false, false},
		// A u32 shifted up by 32 sets the sign bit: >> 32 does not undo it.
		{"unsigned", core.U32, true, false, true},
	} {
		var x, field *core.Var
		var hi, lo core.Atom
		l := b.Lambda([]core.Type{core.Scalar(tc.from), core.Scalar(core.I64)}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
			x, field = ps[0], ps[1]
			if tc.masked {
				field = lb.BinOp(core.And, ps[1], c(mask))
			}
			p := lb.BinOp(core.Or, lb.BinOp(core.Shl, lb.Conv(core.I64, x), c(32)), field)
			hi, lo = lb.Conv(tc.from, lb.BinOp(core.Shr, p, c(32))), lb.BinOp(core.And, p, c(mask))
			return []core.Atom{hi, lo}
		})
		s := simplifyBits(l)
		if s == nil {
			t.Fatalf("%s: refused", tc.name)
		}
		if got := s.Body.Result[0] == core.Atom(x); got != tc.hiIsParam {
			t.Errorf("%s: high key is the parameter: %v, want %v\n%s", tc.name, got, tc.hiIsParam, core.PrintBody(s.Body))
		}
		if got := s.Body.Result[1] == core.Atom(field); got != tc.loIsField {
			t.Errorf("%s: low key is the field: %v, want %v\n%s", tc.name, got, tc.loIsField, core.PrintBody(s.Body))
		}
		if !tc.hiIsParam && s.Body.Result[0] != hi {
			t.Errorf("%s: high key rewritten to %v", tc.name, s.Body.Result[0])
		}
		if !tc.loIsField && s.Body.Result[1] != lo {
			t.Errorf("%s: low key rewritten to %v", tc.name, s.Body.Result[1])
		}
	}
	// Statements of other kinds are not rewritten at all.
	l := b.Lambda([]core.Type{core.Scalar(core.I64)}, func(lb *core.Builder, ps []*core.Var) []core.Atom {
		return []core.Atom{lb.UnOp(core.Neg, ps[0])}
	})
	if simplifyBits(l) != nil {
		t.Error("a lambda with a unary operator was rewritten")
	}
}
