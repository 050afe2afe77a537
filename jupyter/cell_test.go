package jupyter

import (
	"reflect"
	"testing"
)

func TestSplitCell(t *testing.T) {
	for _, tc := range []struct {
		name string
		cell string
		want []item
	}{
		{"one expression", "1 + 2", []item{{exprItem, "1 + 2", 1}}},
		{"decls then expression",
			"def f x = x + 1\n\ndef g x =\n  f x * 2\n-- use them\ng 3",
			[]item{{declItem, "def f x = x + 1\n\ndef g x =\n  f x * 2\n-- use them", 1}, {exprItem, "g 3", 6}}},
		{"commands between", ":time on\nreduce (+) 0 (iota 10)\n:type iota 3",
			[]item{{commandItem, ":time on", 1}, {exprItem, "reduce (+) 0 (iota 10)", 2}, {commandItem, ":type iota 3", 3}}},
		{"let in at column 0", "let x = 1\nin x + 1", []item{{declItem, "let x = 1\nin x + 1", 1}}},
		{"pipeline continuation", "iota 10\n|> map (*2)\n|> reduce (+) 0",
			[]item{{exprItem, "iota 10\n|> map (*2)\n|> reduce (+) 0", 1}}},
		{"two expressions", "1 + 2\n3 * 4", []item{{exprItem, "1 + 2", 1}, {exprItem, "3 * 4", 2}}},
		{"keyword prefix is not a keyword", "definitely 3", []item{{exprItem, "definitely 3", 1}}},
		{"blank", "\n  \n", nil},
		{"leading comment", "-- squares\ndef sq (x: i32) = x * x\nsq 3",
			[]item{{declItem, "def sq (x: i32) = x * x", 2}, {exprItem, "sq 3", 3}}},
	} {
		if got := splitCell(tc.cell); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: splitCell = %#v, want %#v", tc.name, got, tc.want)
		}
	}
}
