package jupyter

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestCursorConversion(t *testing.T) {
	// ⍴ is three bytes, 𝔸 four (two UTF-16 units): code points differ from
	// both byte offsets and UTF-16 offsets.
	s := "a⍴𝔸b"
	for _, tc := range []struct{ cp, b int }{
		{-1, 0}, {0, 0}, {1, 1}, {2, 4}, {3, 8}, {4, 9}, {5, 9}, {100, 9},
	} {
		if got := byteOffset(s, tc.cp); got != tc.b {
			t.Errorf("byteOffset(%q, %d) = %d, want %d", s, tc.cp, got, tc.b)
		}
	}
	for _, tc := range []struct{ b, cp int }{
		{-3, 0}, {0, 0}, {1, 1}, {4, 2}, {8, 3}, {9, 4}, {50, 4},
	} {
		if got := codePoints(s, tc.b); got != tc.cp {
			t.Errorf("codePoints(%q, %d) = %d, want %d", s, tc.b, got, tc.cp)
		}
	}
}

func TestNameAt(t *testing.T) {
	for _, tc := range []struct {
		code string
		cur  int
		want string
	}{
		{"map f xs", 1, "map"},
		{"map f xs", 3, "map"},
		{"i32.max 1 2", 5, "i32.max"},
		{"x.0", 1, "x.0"},
		{"  ", 1, ""},
		{"f (ys)", 4, "ys"},
		{"", 7, ""},
	} {
		if got := nameAt(tc.code, tc.cur); got != tc.want {
			t.Errorf("nameAt(%q, %d) = %q, want %q", tc.code, tc.cur, got, tc.want)
		}
	}
}

func TestUnbalancedClose(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{"f (1, 2)", false},
		{"[1, 2", false},
		{"1 + 2)", true},
		{"[1, 2)", true},
		{"-- )\n1", false},
		{`"])"`, false},
		{"}", true},
	} {
		if got := unbalancedClose(tc.code); got != tc.want {
			t.Errorf("unbalancedClose(%q) = %v, want %v", tc.code, got, tc.want)
		}
	}
}

func TestCompleteLoad(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.fut", "ab.fut", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "asub"), 0o755); err != nil {
		t.Fatal(err)
	}
	line := ":load " + dir + "/a"
	e := newEvaluator(newFake())
	start, cands, ok := e.completeCommand(line)
	var got []string
	for _, c := range cands {
		got = append(got, c.text)
	}
	want := []string{dir + "/a.fut", dir + "/ab.fut", dir + "/asub/"}
	if !ok || start != len(":load ") || !reflect.DeepEqual(got, want) {
		t.Errorf("completeCommand(%q) = %d, %q, %v; want %d, %q", line, start, got, ok, len(":load "), want)
	}
	if _, _, ok := e.completeCommand(":type a"); ok {
		t.Error(":type completes file names")
	}
}
