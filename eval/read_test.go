package eval

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/types"
)

// TestReadValues reads values and shows them back in run style, one line
// per value read, so each case states the type and the data read.
func TestReadValues(t *testing.T) {
	tests := []struct {
		in   string
		want string // types to read ("" = none), separated by ";"
		out  string // FormatRun of each value, joined by " | "
	}{
		// No wanted type: suffixes or Futhark's defaults decide.
		{"6i32", "", "6i32"},
		{"-3", "", "-3i32"},
		{"2.5f32", "", "2.5f32"},
		{"2.5", "", "2.5f64"},
		{"1e3", "", "1000.0f64"},
		{"[1i32, 2i32]", "", "[1i32, 2i32]"},
		{"[[1,2],[3,4]]", "", "[[1i32, 2i32], [3i32, 4i32]]"},
		{"[1, 2.0]", "", "[1.0f64, 2.0f64]"},
		{"[1, 2u8]", "", "[1u8, 2u8]"},
		{"[1, 2,]", "", "[1i32, 2i32]"},
		{"empty([0]i32)", "", "empty([0]i32)"},
		{"empty([2][0]f64)", "", "empty([2][0]f64)"},
		{"[empty([0]i64), empty([0]i64)]", "", "empty([2][0]i64)"},
		{"true false", "", "true | false"},
		{"f32.nan f64.inf -f64.inf", "", "f32.nan | f64.inf | -f64.inf"},
		{"0xFFu8 0b101 0o17 1_000_000i64 010", "", "255u8 | 5i32 | 15i32 | 1000000i64 | 10i32"},
		{"0xFFi8 0x80i8 -128i8 0x1fi32", "", "-1i8 | -128i8 | -128i8 | 31i32"},
		// Integers that do not fit their type wrap, as Futhark reads them.
		{"-1u32 300u8 128i8 -129i8 0x100i8 32767i8", "", "4294967295u32 | 44u8 | -128i8 | 127i8 | 0i8 | -1i8"},
		{"300", "u8", "44u8"},
		{"[-1, 256]", "[]u8", "[255u8, 0u8]"},
		{"0x1p4f32 1_0.5_0", "", "16.0f32 | 10.5f64"},
		{"1 -- a comment\n  2", "", "1i32 | 2i32"},
		{"", "", ""},
		// Wanted types: unsuffixed literals take them.
		{"-3", "i64", "-3i64"},
		{"[1, 2]", "[]u16", "[1u16, 2u16]"},
		{"1 2.5", "f32;f64", "1.0f32 | 2.5f64"},
		{"[[1], [2]]", "[][]f32", "[[1.0f32], [2.0f32]]"},
		{"1 [2.0]", "(i32, []f64)", "1i32 | [2.0f64]"},
		{"[1, 2] [true, false]", "[](i64, bool)", "[1i64, 2i64] | [true, false]"},
		{"[1, 2] [3, 4]", "[n]i32;[n]i32", "[1i32, 2i32] | [3i32, 4i32]"},
		{"[1, 2]", "[2]i8", "[1i8, 2i8]"},
		{"18446744073709551615", "u64", "18446744073709551615u64"},
		{"-9223372036854775808", "i64", "-9223372036854775808i64"},
		{"16777217", "f32", "1.6777216e7f32"},
		{"-0", "f64", "-0.0f64"},
	}
	for _, tc := range tests {
		var want []types.Type
		if tc.want != "" {
			for _, s := range strings.Split(tc.want, ";") {
				want = append(want, parseType(t, s))
			}
		}
		got, err := ReadValues(tc.in, want)
		if err != nil {
			t.Errorf("ReadValues(%q, %s): %v", tc.in, tc.want, err)
			continue
		}
		var parts []string
		for _, vs := range got {
			for _, v := range vs {
				s, err := FormatValue(v)
				if err != nil {
					t.Fatalf("FormatValue: %v", err)
				}
				parts = append(parts, s)
			}
		}
		if s := strings.Join(parts, " | "); s != tc.out {
			t.Errorf("ReadValues(%q, %s) = %s, want %s", tc.in, tc.want, s, tc.out)
		}
	}
}

func TestReadValuesErrors(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"1i32", "i64", "<input>:1:1: expected a value of type i64, found one of type i32"},
		{"[1, 2.5]", "[]i32", "<input>:1:5: expected a value of type i32, found a decimal number"},
		{"[1, true]", "[]i32", "<input>:1:5: expected a value of type i32, found true"},
		{"1", "bool", "<input>:1:1: expected a value of type bool, found a number"},
		{"[1, 2]", "i32", "<input>:1:1: expected a value of type i32, found an array of rank 1"},
		{"1", "[]i32", "<input>:1:1: expected a value of type []i32, found a scalar"},
		{"[[1,2],\n [3]]", "", "<input>:2:2: irregular array: element of shape [1] after one of shape [2]"},
		{"[[1,2], 3]", "", "<input>:1:9: irregular array: element of shape [] (a scalar) after one of shape [2]"},
		{"99999999999999999999", "", "<input>:1:1: 99999999999999999999 is out of range for i32"},
		{"1.5i32", "", `<input>:1:1: 1.5 is not an integer, but has suffix i32`},
		{"1 2", "i32", "<input>:1:3: expected 1 values for i32, found 2"},
		{"1 2", "none", "<input>:1:1: expected no values, found 2"},
		{"1", "i32;i32", "<input>:1:2: expected 2 values for i32 i32, found 1"},
		{"1", "(i32, f64)", "<input>:1:2: expected 2 values for (i32, f64), found 1"},
		{"[1,2] [1,2,3]", "[n]i32;[n]i32", "<input>:1:7: dimension 1 has size 3, but size n is 2 (from <input>:1:1)"},
		{"[1,2]", "[3]i32", "<input>:1:1: dimension 1 has size 2, want 3"},
		{"empty([2][3]i32)", "", "<input>:1:1: empty array of shape [2][3] has no dimension of size 0"},
		{"empty([0]i32)", "[]f32", "<input>:1:1: expected elements of type f32, found empty array of i32"},
		{"empty(i32)", "", "<input>:1:7: empty needs at least one dimension, as in empty([0]i32)"},
		{"empty([0]int)", "", `<input>:1:10: expected an element type, found "int"`},
		{"empty[0]i32", "", `<input>:1:6: expected "(" after empty, found "["`},
		{"[]", "", "<input>:1:1: an empty array is written empty([0]t), e.g. empty([0]i32)"},
		{"[1 2]", "", `<input>:1:4: expected "," or "]", found "2"`},
		{"[1, 2", "", `<input>:1:6: expected "," or "]", found end of input`},
		{"[1,", "", "<input>:1:4: expected a value, found end of input"},
		{"foo", "", `<input>:1:1: expected a value, found "foo"`},
		{"- 1", "", `<input>:1:1: "-" must be followed directly by a number`},
		{"-true", "", `<input>:1:1: "-" applies only to numbers`},
		{"1__0", "", `<input>:1:1: malformed number "1__0"`},
		{"1.2.3", "", `<input>:1:1: malformed number "1.2.3"`},
		{"0xZZ", "", `<input>:1:1: malformed number "0xZZ"`},
		{"1 @", "", `<input>:1:3: expected a value, found "@"`},
		// Shapes whose sizes overflow (issue 14, item 9).
		{"empty([4611686018427387904][4]f32)", "",
			"<input>:1:1: empty array of shape [4611686018427387904][4] has no dimension of size 0"},
		{"empty([4611686018427387904][4][0]f32)", "",
			"<input>:1:1: array shape [4611686018427387904][4][0] is too large: its dimensions multiply to more than 2^63-1"},
		{"[empty([4611686018427387904][0]f32), empty([4611686018427387904][0]f32)]", "",
			"<input>:1:1: array shape [2][4611686018427387904][0] is too large: its dimensions multiply to more than 2^63-1"},
		// Irregular arrays found while reading, at the offending element.
		{"[1, [2]]", "", "<input>:1:5: irregular array: element of rank 1 after one of shape [] (a scalar)"},
		{"[[[1]], [2]]", "", "<input>:1:10: irregular array: element of shape [] (a scalar) after one of shape [1]"},
		{"[empty([0]i32), [1i32]]", "", "<input>:1:17: irregular array: element of shape [1] after one of shape [0]"},
		{"[[1], empty([0][0]i32)]", "", "<input>:1:7: irregular array: element of shape [0][0] after one of shape [1]"},
		// Nesting is bounded, and a deep input is an error, not a stack
		// overflow (issue 14, item 8).
		{strings.Repeat("[", 3000000), "", "<input>:1:1001: arrays nested more than 1000 deep"},
		{strings.Repeat("[", 3000000), "[]i32", "<input>:1:1001: arrays nested more than 1000 deep"},
		{strings.Repeat("[", 1001) + "1" + strings.Repeat("]", 1001), "", "<input>:1:1001: arrays nested more than 1000 deep"},
		{"empty(" + strings.Repeat("[0]", 1001) + "i32)", "", "<input>:1:3008: arrays nested more than 1000 deep"},
	}
	for _, tc := range tests {
		var want []types.Type
		switch tc.want {
		case "":
		case "none":
			want = []types.Type{}
		default:
			for _, s := range strings.Split(tc.want, ";") {
				want = append(want, parseType(t, s))
			}
		}
		_, err := ReadValues(tc.in, want)
		if err == nil {
			t.Errorf("ReadValues(%q, %s) succeeded, want error %q", tc.in, tc.want, tc.err)
			continue
		}
		if err.Error() != tc.err {
			t.Errorf("ReadValues(%q, %s) error:\n got %s\nwant %s", tc.in, tc.want, err, tc.err)
		}
	}
}

// TestReadDeep reads the deepest array the reader allows.
func TestReadDeep(t *testing.T) {
	src := strings.Repeat("[", MaxRank) + "7" + strings.Repeat("]", MaxRank)
	vs, err := ReadValues(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := vs[0][0]
	if len(v.Shape) != MaxRank || v.Len() != 1 || v.Data.([]int32)[0] != 7 {
		t.Errorf("read rank %d, %d elements", len(v.Shape), v.Len())
	}
}

// TestReadNaN checks that a NaN reads as the one NaN the printer writes,
// whatever its sign, so that values round-trip (issue 14, item 19).
func TestReadNaN(t *testing.T) {
	for _, src := range []string{"-f32.nan", "-f64.nan", "[f32.nan, -f32.nan]"} {
		vs, err := ReadValues(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		text, err := FormatValue(vs[0][0])
		if err != nil {
			t.Fatal(err)
		}
		back, err := ReadValues(text, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !sameValue(vs[0][0], back[0][0]) {
			t.Errorf("%q printed as %q, which reads back differently", src, text)
		}
	}
}

// TestReadValuesMemory checks that reading an array costs about its
// elements' bytes, not a tree node per element (issue 14, item 11: 50 MB
// of input took 4 GB).
func TestReadValuesMemory(t *testing.T) {
	const n = 1 << 18
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strconv.Itoa(i % 1000))
	}
	b.WriteString("]")
	src := b.String()
	for _, want := range [][]types.Type{nil, {parseType(t, "[]i32")}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		vs, err := ReadValues(src, want)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if got := vs[0][0].Len(); got != n {
			t.Fatalf("read %d elements, want %d", got, n)
		}
		// An i32 is 4 bytes; growing the buffer by appending allocates
		// about 5 times the final slice in all.
		if per := float64(after.TotalAlloc-before.TotalAlloc) / n; per > 24 {
			t.Errorf("reading %d i32 elements (want %v) allocated %.1f bytes per element", n, want, per)
		}
	}
}

// TestReadErrorDetail checks that read errors quote the input line, as the
// REPL and `arepl run` show them.
func TestReadErrorDetail(t *testing.T) {
	_, err := ReadValuesFile("args.in", "1\n[2, x]\n", nil)
	if err == nil {
		t.Fatal("no error")
	}
	d, ok := err.(interface{ Detail() string })
	if !ok {
		t.Fatalf("error %T has no Detail", err)
	}
	want := "args.in:2:5: expected a value, found \"x\"\n  | [2, x]\n  |     ^"
	if got := d.Detail(); got != want {
		t.Errorf("Detail =\n%s\nwant\n%s", got, want)
	}
}

// FuzzReadValues checks that no input makes the reader panic, and that
// whatever it reads prints in value syntax that reads back the same.
func FuzzReadValues(f *testing.F) {
	for _, s := range []string{
		"6i32", "-3", "[1i32, 2i32]", "[[1,2],[3,4]]", "empty([2][0]f64)", "true f32.nan -f64.inf",
		"0xFFu8 1_000 0b101", "0x1p4f32 2.5e-3", "[1, 2.0", "-- c\n[1,\n2]", "empty([0]i32",
		"-f32.nan", "[[1], [2, 3]]", "[empty([0]i32), [1]]", "empty([4611686018427387904][4]f32)",
		"empty([4611686018427387904][0]f32)", "empty([9223372036854775807][0][2]i8)",
		strings.Repeat("[", 3000), strings.Repeat("[", MaxRank) + "1" + strings.Repeat("]", MaxRank),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		vss, err := ReadValues(src, nil)
		if err != nil {
			return
		}
		for _, vs := range vss {
			v := vs[0]
			if err := CheckShape(v.Shape); err != nil || int64(DataLen(v.Data)) != v.Len() {
				t.Fatalf("%q read as shape %v holding %d elements (%v)", src, v.Shape, DataLen(v.Data), err)
			}
			text, err := FormatValue(vs[0])
			if err != nil {
				t.Fatalf("FormatValue of %q: %v", src, err)
			}
			back, err := ReadValues(text, nil)
			if err != nil {
				t.Fatalf("%q printed as %q, which does not read back: %v", src, text, err)
			}
			if len(back) != 1 || !sameValue(vs[0], back[0][0]) {
				t.Fatalf("%q printed as %q, which reads back differently", src, text)
			}
		}
	})
}
