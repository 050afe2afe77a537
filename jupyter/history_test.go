package jupyter

import (
	"reflect"
	"testing"
)

func TestHistoryQuery(t *testing.T) {
	var h history
	for _, in := range []string{"1 + 2", "def x = 3", "x * 2", "1 + 2"} {
		n := h.next()
		h.add(n, in, "out")
	}
	n := func(i int) *int { return &i }
	inputs := func(rows []any) []string {
		var out []string
		for _, r := range rows {
			out = append(out, r.([]any)[2].(string))
		}
		return out
	}
	for _, tc := range []struct {
		name string
		req  histRequest
		want []string
	}{
		{"tail n", histRequest{AccessType: "tail", N: n(2)}, []string{"x * 2", "1 + 2"}},
		{"tail all", histRequest{AccessType: "tail"}, []string{"1 + 2", "def x = 3", "x * 2", "1 + 2"}},
		{"range", histRequest{AccessType: "range", Session: 1, Start: 2, Stop: 4}, []string{"def x = 3", "x * 2"}},
		{"search", histRequest{AccessType: "search", Pattern: "1 *"}, []string{"1 + 2", "1 + 2"}},
		{"search unique", histRequest{AccessType: "search", Pattern: "1 *", Unique: true}, []string{"1 + 2"}},
		{"search n", histRequest{AccessType: "search", Pattern: "*", N: n(3)}, []string{"def x = 3", "x * 2", "1 + 2"}},
		{"search ?", histRequest{AccessType: "search", Pattern: "x ? 2"}, []string{"x * 2"}},
	} {
		if got := inputs(h.query(tc.req)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	rows := h.query(histRequest{AccessType: "tail", N: n(1), Output: true})
	if got := rows[0].([]any)[2]; !reflect.DeepEqual(got, []any{"1 + 2", "out"}) {
		t.Errorf("with output: %v", got)
	}
}
