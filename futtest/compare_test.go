package futtest

import (
	"context"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

func read(t *testing.T, src string) []eval.Value {
	t.Helper()
	vss, err := eval.ReadValues(src, nil)
	if err != nil {
		t.Fatalf("ReadValues(%q): %v", src, err)
	}
	var out []eval.Value
	for _, vs := range vss {
		out = append(out, vs...)
	}
	return out
}

func TestCompare(t *testing.T) {
	tests := []struct {
		got, want string
		err       string // "" when they should agree
	}{
		{"1i32 true", "1i32 true", ""},
		{"[1i64, 2i64]", "[1i64, 2i64]", ""},
		{"[1i64, 2i64]", "[1i64, 3i64]", "[1]: got 2, want 3"},
		{"5u8", "5i8", "got element type u8, want i8"},
		{"[1i32, 2i32]", "[[1i32, 2i32]]", "got shape [2], want [1][2]"},
		{"empty([0][3]i32)", "empty([0][4]i32)", "got shape [0][3], want [0][4]"},
		{"1i32 2i32", "1i32", "got 2 values, want 1"},
		{"true", "false", "value: got true, want false"},
		{"[[1i32, 2i32], [3i32, 4i32]]", "[[1i32, 2i32], [3i32, 5i32]]", "[1,1]: got 4, want 5"},
		{"[1i32, 2i32, 3i32, 4i32, 5i32]", "[0i32, 0i32, 0i32, 0i32, 0i32]", "[0]: got 1, want 0; [1]: got 2, want 0; [2]: got 3, want 0; ..."},
		// Floats: absolute tolerance 0.002 near zero ...
		{"0.0015f32", "0.0f32", ""},
		{"0.0025f32", "0.0f32", "got 0.0024999999441206455, want 0"},
		// ... and relative to the largest expected magnitude otherwise.
		{"[1000.0f64, 0.5f64]", "[1001.5f64, 1.5f64]", ""},
		{"[1000.0f64, 0.5f64]", "[1003.0f64, 0.5f64]", "[0]: got 1000, want 1003"},
		{"f32.nan", "f32.nan", ""},
		{"f64.nan", "1.0f64", "got NaN, want 1"},
		{"1.0f64", "f64.nan", "got 1, want NaN"},
		{"f32.inf", "f32.inf", ""},
		{"-f32.inf", "f32.inf", "got -Inf, want +Inf"},
		{"1e30f32", "f32.inf", "want +Inf"},
		{"[f64.nan, 2.0f64]", "[f64.nan, 2.001f64]", ""},
		{"1.0f32 2i32", "1.0f32 3i32", "value 1: value: got 2, want 3"},
	}
	for _, tt := range tests {
		err := Compare(context.Background(), read(t, tt.got), read(t, tt.want))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("Compare(%s, %s): %v", tt.got, tt.want, err)
		case tt.err != "" && err == nil:
			t.Errorf("Compare(%s, %s) agreed, want %q", tt.got, tt.want, tt.err)
		case tt.err != "" && !strings.Contains(err.Error(), tt.err):
			t.Errorf("Compare(%s, %s) = %q, want it to contain %q", tt.got, tt.want, err, tt.err)
		}
	}
}

func TestCompareBadData(t *testing.T) {
	got := eval.Value{Elem: core.Bool, Data: []int32{1}}
	want := read(t, "true")[0]
	err := Compare(context.Background(), []eval.Value{got}, []eval.Value{want})
	if err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("got %v, want an internal error for mismatched data", err)
	}
}
