package gpu

import "testing"

// TestHostEval checks the host's reading of the generator's C conditions
// (hostcond.go): C's precedence and integer semantics, and "not proved"
// outside the grammar.
func TestHostEval(t *testing.T) {
	vars := map[string]int64{"ar_space1": 4096, "v_n": 4096, "v_a": 1 << 20, "v_b": (1 << 20) + 4, "neg": -7}
	for _, c := range []struct {
		expr string
		want int64
		ok   bool
	}{
		{"ar_space1 % 4 == 0", 1, true},
		{"((u64)v_a & 15) == 0", 1, true},
		{"((u64)v_b & 15) == 0", 0, true},
		{"(double)v_n * (double)v_n < 2147483648.0", 1, true},
		{"(double)v_n * (double)ar_space1 * 256.0 < 2147483648.0", 0, true},
		{"min_i64(((v_n - 1) + ((i64)1LL)), (v_n - ((i64)1LL))) < v_n", 1, true},
		{"max_i64((((i64)0LL) - ((i64)1LL)), ((i64)0LL))", 0, true},
		{"(v_n >= -2305843009213693952LL && v_n <= 2305843009213693952LL)", 1, true},
		{"1 + 2 * 3 - 4", 3, true},
		{"neg / 2", -3, true},
		{"neg % 4", -3, true},
		{"(i32)4294967297LL", 1, true},
		{"1 || 0 && 0", 1, true},
		{"!0 && 2 > 1", 1, true},
		{"unknown_name > 0", 0, false},
		{"v_n / 0", 0, false},
		{"(u64)v_a < 5", 0, false},
		{"f(1)", 0, false},
		{"1 +", 0, false},
		{"(1", 0, false},
		{"2.5", 0, false},
	} {
		got, ok := hostEval(c.expr, vars)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("hostEval(%q) = %d, %v; want %d, %v", c.expr, got, ok, c.want, c.ok)
		}
	}
}
