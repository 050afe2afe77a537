package eval

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/types"
)

// parseType reads a source type written as :type prints it ("[3]i32",
// "(i32, [n]f64)", "[](i32, f64)"); a test helper so tables stay readable.
func parseType(t *testing.T, s string) types.Type {
	t.Helper()
	ty, rest := parseTypePrefix(t, strings.TrimSpace(s))
	if strings.TrimSpace(rest) != "" {
		t.Fatalf("parseType(%q): trailing %q", s, rest)
	}
	return ty
}

func parseTypePrefix(t *testing.T, s string) (types.Type, string) {
	t.Helper()
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "["):
		var dims []types.Dim
		for strings.HasPrefix(s, "[") {
			end := strings.IndexByte(s, ']')
			inner := s[1:end]
			s = s[end+1:]
			switch n, err := strconv.ParseInt(inner, 10, 64); {
			case inner == "":
				dims = append(dims, types.AnyDim)
			case err == nil:
				dims = append(dims, types.Dim{Const: n})
			default:
				dims = append(dims, types.Dim{Name: inner})
			}
		}
		elem, rest := parseTypePrefix(t, s)
		return &types.Array{Elem: elem, Dims: dims}, rest
	case strings.HasPrefix(s, "("):
		s = s[1:]
		tup := &types.Tuple{}
		for {
			s = strings.TrimSpace(s)
			if strings.HasPrefix(s, ")") {
				return tup, s[1:]
			}
			var e types.Type
			e, s = parseTypePrefix(t, s)
			tup.Elems = append(tup.Elems, e)
			s = strings.TrimPrefix(strings.TrimSpace(s), ",")
		}
	}
	for _, p := range core.PrimTypes {
		if strings.HasPrefix(s, p.String()) {
			return types.Prim{T: p}, s[len(p.String()):]
		}
	}
	t.Fatalf("parseType: cannot read %q", s)
	return nil, ""
}

// read is ReadValues of one value of type ty, failing the test on error.
func read(t *testing.T, ty types.Type, src string) []Value {
	t.Helper()
	vs, err := ReadValues(src, []types.Type{ty})
	if err != nil {
		t.Fatalf("ReadValues(%q, %s): %v", src, ty, err)
	}
	return vs[0]
}

func iotaI64(n int) Value {
	v := NewArray(core.I64, int64(n))
	d := v.Data.([]int64)
	for i := range d {
		d[i] = int64(i)
	}
	return v
}

func f64s(xs ...float64) Value {
	return Value{Elem: core.F64, Shape: []int64{int64(len(xs))}, Data: xs}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		typ, in string // the value, read with ReadValues
		limit   int
		want    string
	}{
		{"i32", "45", 100, "45"},
		{"i8", "-1", 100, "-1"},
		{"u8", "255", 100, "255"},
		{"u64", "18446744073709551615", 100, "18446744073709551615"},
		{"bool", "true", 100, "true"},
		{"f64", "3.5", 100, "3.5"},
		{"f64", "1", 100, "1.0"},
		{"f64", "-0.0", 100, "-0.0"},
		{"f64", "1e7", 100, "1.0e7"},
		{"f64", "9999999.5", 100, "9999999.5"},
		{"f64", "0.01", 100, "1.0e-2"},
		{"f64", "0.1", 100, "0.1"},
		{"f64", "1.5e300", 100, "1.5e300"},
		{"f32", "0.1", 100, "0.1"},
		{"f32", "f32.inf", 100, "inf"},
		{"f64", "-f64.inf", 100, "-inf"},
		{"f64", "f64.nan", 100, "nan"},
		{"[]i32", "[1, 2, 3]", 100, "[1, 2, 3]"},
		{"[][]i32", "[[1, 2], [3, 4]]", 100, "[[1, 2], [3, 4]]"},
		{"(i32, []i32)", "1 [2, 3]", 100, "(1, [2, 3])"},
		{"(i32, (bool, f32))", "1 true 2", 100, "(1, (true, 2.0))"},
		{"[](i32, f64)", "[1, 3] [2, 4]", 100, "[(1, 2.0), (3, 4.0)]"},
		{"[]([]i32, bool)", "[[1, 2], [3, 4]] [true, false]", 100, "[([1, 2], true), ([3, 4], false)]"},
		{"[]i32", "empty([0]i32)", 100, "empty([0]i32)"},
		{"[][]f64", "empty([2][0]f64)", 100, "empty([2][0]f64)"},
		{"[](i32, f64)", "empty([0]i32) empty([0]f64)", 100, "empty([0](i32, f64))"},
		{"()", "", 100, "()"},
		// Elision: beyond the limit, as many at each end as the limit
		// allows (at least one), and the type (issue 19, defect 1).
		{"[]i32", "[1, 2, 3]", 2, "[1, ..., 3] : [3]i32"},
		{"[]i32", "[1, 2, 3, 4, 5, 6, 7]", 1, "[1, ..., 7] : [7]i32"},
		{"[]i32", "[1, 2, 3, 4, 5, 6, 7]", 4, "[1, 2, ..., 6, 7] : [7]i32"},
		{"[]i32", "[1, 2, 3, 4, 5, 6, 7]", 7, "[1, 2, 3, 4, 5, 6, 7]"},
		{"[]i32", "[1, 2, 3, 4, 5, 6, 7]", 6, "[1, 2, 3, ..., 5, 6, 7] : [7]i32"},
		{"[]i32", "[1, 2, 3, 4, 5, 6, 7]", 0, "[1, 2, 3, 4, 5, 6, 7]"},
		{"[][]i32", "[[1, 2], [3, 4]]", 3, "[[1, 2], [3, 4]]"},
		{"[][]i32", "[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12], [13, 14]]", 10,
			"[[1, 2], [3, 4], ..., [11, 12], [13, 14]] : [7][2]i32"},
		{"[](i32, bool)", "[1, 2, 3, 4, 5, 6, 7] [true, true, true, true, true, true, false]", 10,
			"[(1, true), (2, true), ..., (6, true), (7, false)] : [7](i32, bool)"},
		{"(i32, []i32)", "0 [1, 2, 3, 4, 5, 6, 7]", 5, "(0, [1, 2, ..., 6, 7] : [7]i32)"},
	}
	for _, tc := range tests {
		ty := parseType(t, tc.typ)
		got, err := Format(ty, read(t, ty, tc.in), tc.limit)
		if err != nil {
			t.Errorf("Format(%s, %q): %v", tc.typ, tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Format(%s, %q, %d) = %q, want %q", tc.typ, tc.in, tc.limit, got, tc.want)
		}
	}
}

func TestFormatElidedIota(t *testing.T) {
	ty := parseType(t, "[n]i64")
	got, err := Format(ty, []Value{iotaI64(10000)}, DefaultPrintLimit)
	if err != nil {
		t.Fatal(err)
	}
	// The limit (100) allows 50 at each end.
	want := "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, ..., " +
		"9950, 9951, 9952, 9953, 9954, 9955, 9956, 9957, 9958, 9959, 9960, 9961, 9962, 9963, 9964, 9965, 9966, 9967, 9968, 9969, 9970, 9971, 9972, 9973, 9974, 9975, 9976, 9977, 9978, 9979, 9980, 9981, 9982, 9983, 9984, 9985, 9986, 9987, 9988, 9989, 9990, 9991, 9992, 9993, 9994, 9995, 9996, 9997, 9998, 9999] : [10000]i64"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A matrix elides along both dimensions: 5 + 5 rows of 5 + 5.
	m := iotaI64(1000 * 1000)
	m.Shape = []int64{1000, 1000}
	got, err = Format(parseType(t, "[n][n]i64"), []Value{m}, 16)
	if err != nil {
		t.Fatal(err)
	}
	want = "[[0, 1, ..., 998, 999], [1000, 1001, ..., 1998, 1999], ..., " +
		"[998000, 998001, ..., 998998, 998999], [999000, 999001, ..., 999998, 999999]] : [1000][1000]i64"
	if got != want {
		t.Errorf("got %q,\nwant %q", got, want)
	}
}

func TestFormatRun(t *testing.T) {
	tests := []struct{ typ, in, want string }{
		{"i64", "45", "45i64"},
		{"i8", "-128", "-128i8"},
		{"u16", "65535", "65535u16"},
		{"bool", "false", "false"},
		{"f32", "2.5", "2.5f32"},
		{"f64", "1", "1.0f64"},
		{"f64", "1e-9", "1.0e-9f64"},
		{"f32", "f32.nan", "f32.nan"},
		{"f64", "f64.inf", "f64.inf"},
		{"f64", "-f64.inf", "-f64.inf"},
		{"[]i32", "[1, 2]", "[1i32, 2i32]"},
		{"[][]u8", "[[1], [2]]", "[[1u8], [2u8]]"},
		{"[]f32", "empty([0]f32)", "empty([0]f32)"},
		{"[][]i32", "empty([3][0]i32)", "empty([3][0]i32)"},
		{"(i32, []bool)", "1 [true]", "1i32\n[true]"},
		{"(i32, (f64, i64))", "1 2 3", "1i32\n2.0f64\n3i64"},
		{"[](i32, f64)", "[1, 2] [3, 4]", "[1i32, 2i32]\n[3.0f64, 4.0f64]"},
		// A large array is data: never elided.
		{"[]i32", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101]",
			"[1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32, 10i32, 11i32, 12i32, 13i32, 14i32, 15i32, 16i32, 17i32, 18i32, 19i32, 20i32, 21i32, 22i32, 23i32, 24i32, 25i32, 26i32, 27i32, 28i32, 29i32, 30i32, 31i32, 32i32, 33i32, 34i32, 35i32, 36i32, 37i32, 38i32, 39i32, 40i32, 41i32, 42i32, 43i32, 44i32, 45i32, 46i32, 47i32, 48i32, 49i32, 50i32, 51i32, 52i32, 53i32, 54i32, 55i32, 56i32, 57i32, 58i32, 59i32, 60i32, 61i32, 62i32, 63i32, 64i32, 65i32, 66i32, 67i32, 68i32, 69i32, 70i32, 71i32, 72i32, 73i32, 74i32, 75i32, 76i32, 77i32, 78i32, 79i32, 80i32, 81i32, 82i32, 83i32, 84i32, 85i32, 86i32, 87i32, 88i32, 89i32, 90i32, 91i32, 92i32, 93i32, 94i32, 95i32, 96i32, 97i32, 98i32, 99i32, 100i32, 101i32]"},
	}
	for _, tc := range tests {
		ty := parseType(t, tc.typ)
		got, err := FormatRun(ty, read(t, ty, tc.in))
		if err != nil {
			t.Errorf("FormatRun(%s, %q): %v", tc.typ, tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("FormatRun(%s, %q) = %q, want %q", tc.typ, tc.in, got, tc.want)
		}
	}
}

// TestRoundTrip checks read(FormatRun(v)) == v bit for bit, for values at
// the edges of every primitive type.
func TestRoundTrip(t *testing.T) {
	values := []Value{
		{Elem: core.Bool, Shape: []int64{2}, Data: []bool{true, false}},
		{Elem: core.I8, Shape: []int64{3}, Data: []int8{math.MinInt8, -1, math.MaxInt8}},
		{Elem: core.I16, Shape: []int64{2}, Data: []int16{math.MinInt16, math.MaxInt16}},
		{Elem: core.I32, Shape: []int64{2}, Data: []int32{math.MinInt32, math.MaxInt32}},
		{Elem: core.I64, Shape: []int64{2}, Data: []int64{math.MinInt64, math.MaxInt64}},
		{Elem: core.U8, Shape: []int64{2}, Data: []uint8{0, math.MaxUint8}},
		{Elem: core.U16, Shape: []int64{1}, Data: []uint16{math.MaxUint16}},
		{Elem: core.U32, Shape: []int64{1}, Data: []uint32{math.MaxUint32}},
		{Elem: core.U64, Shape: []int64{1}, Data: []uint64{math.MaxUint64}},
		{Elem: core.F32, Shape: []int64{2, 4}, Data: []float32{
			0.1, -0.0, math.MaxFloat32, math.SmallestNonzeroFloat32,
			float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-7}},
		{Elem: core.F64, Shape: []int64{6}, Data: []float64{
			0.1, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64, core.NaN(), 123456789.125}},
		{Elem: core.F64, Shape: []int64{2, 0, 3}, Data: []float64{}},
		{Elem: core.I32, Data: []int32{-7}},
	}
	for _, v := range values {
		text, err := FormatValue(v)
		if err != nil {
			t.Fatalf("FormatValue(%v): %v", v, err)
		}
		back, err := ReadValues(text, []types.Type{typeOfValue(v)})
		if err != nil {
			t.Fatalf("reading %q back: %v", text, err)
		}
		if !sameValue(v, back[0][0]) {
			t.Errorf("round trip of %q gave %v, want %v", text, back[0][0], v)
		}
		// Read with no wanted type, the suffixes alone restore the type.
		back, err = ReadValues(text, nil)
		if err != nil {
			t.Fatalf("reading %q back untyped: %v", text, err)
		}
		if !sameValue(v, back[0][0]) {
			t.Errorf("untyped round trip of %q gave %v, want %v", text, back[0][0], v)
		}
	}
}

// sameValue compares values element by element, floats by their bits (so
// NaN equals NaN and -0.0 differs from 0.0).
func sameValue(a, b Value) bool {
	if a.Elem != b.Elem || !equalShape(a.Shape, b.Shape) {
		return false
	}
	for i := int64(0); i < a.Len(); i++ {
		if elemKey(a.Data, i) != elemKey(b.Data, i) {
			return false
		}
	}
	return true
}

func elemKey(data any, i int64) string {
	switch d := data.(type) {
	case []float32:
		return strconv.FormatUint(uint64(math.Float32bits(d[i])), 16)
	case []float64:
		return strconv.FormatUint(math.Float64bits(d[i]), 16)
	}
	return formatElem(0, data, i, runStyle)
}

func TestFormatErrors(t *testing.T) {
	tests := []struct {
		typ  types.Type
		vs   []Value
		want string
	}{
		{types.Prim{T: core.I32}, nil,
			"internal error: a value of type i32 has 1 components, got 0"},
		{types.Prim{T: core.I32}, []Value{{Elem: core.I64, Data: []int64{1}}},
			"internal error: component 0 of a value of type i32 is i64, want i32"},
		{types.Prim{T: core.I32}, []Value{{Elem: core.I32, Data: []int64{1}}},
			"internal error: component 0 of a value of type i32: data of Go type []int64 for elements of type i32"},
		{&types.Array{Elem: types.Prim{T: core.I32}, Dims: []types.Dim{types.AnyDim}},
			[]Value{{Elem: core.I32, Shape: []int64{3}, Data: []int32{1}}},
			"internal error: component 0 of a value of type []i32: 1 elements for shape [3]"},
		{&types.Array{Elem: &types.Tuple{Elems: []types.Type{types.Prim{T: core.I32}, types.Prim{T: core.F64}}},
			Dims: []types.Dim{types.AnyDim}},
			[]Value{{Elem: core.I32, Shape: []int64{1}, Data: []int32{1}}, f64s(1, 2)},
			"internal error: components of an array of type [](i32, f64) have shapes [1] and [2]"},
		{&types.Arrow{Param: types.Prim{T: core.I32}, Ret: types.Prim{T: core.I32}}, nil,
			"a function of type i32 -> i32 has no value representation"},
	}
	for _, tc := range tests {
		for name, f := range map[string]func() error{
			"Format":    func() error { _, err := Format(tc.typ, tc.vs, 10); return err },
			"FormatRun": func() error { _, err := FormatRun(tc.typ, tc.vs); return err },
		} {
			err := f()
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s(%s) error = %v, want %q", name, tc.typ, err, tc.want)
			}
		}
	}
}

func TestFormatHTML(t *testing.T) {
	tests := []struct {
		typ, in string
		limit   int
		want    string
	}{
		{"[]i32", "[1, 2]", 100,
			`<table class="arepl-array"><caption>[2]i32</caption><thead><tr><th></th><th>0</th><th>1</th></tr></thead>` +
				`<tbody><tr><th>value</th><td>1</td><td>2</td></tr></tbody></table>`},
		{"[](i32, bool)", "[1] [true]", 100,
			`<table class="arepl-array"><caption>[1](i32, bool)</caption><thead><tr><th></th><th>0</th></tr></thead>` +
				`<tbody><tr><th>.0</th><td>1</td></tr><tr><th>.1</th><td>true</td></tr></tbody></table>`},
		{"[][]f64", "[[1, 2], [3, 4]]", 100,
			`<table class="arepl-array"><caption>[2][2]f64</caption><thead><tr><th></th><th>0</th><th>1</th></tr></thead>` +
				`<tbody><tr><th>0</th><td>1.0</td><td>2.0</td></tr><tr><th>1</th><td>3.0</td><td>4.0</td></tr></tbody></table>`},
		{"[]i32", "[1, 2, 3, 4, 5, 6, 7]", 6,
			`<table class="arepl-array"><caption>[7]i32</caption><thead><tr><th></th>` +
				`<th>0</th><th>1</th><th>2</th><th>…</th><th>4</th><th>5</th><th>6</th></tr></thead><tbody>` +
				`<tr><th>value</th><td>1</td><td>2</td><td>3</td><td>…</td><td>5</td><td>6</td><td>7</td></tr></tbody></table>`},
		{"[][]i32", "[[1, 2, 3, 4, 5, 6, 7]]", 6,
			`<table class="arepl-array"><caption>[1][7]i32</caption><thead><tr><th></th>` +
				`<th>0</th><th>1</th><th>2</th><th>…</th><th>4</th><th>5</th><th>6</th></tr></thead><tbody>` +
				`<tr><th>0</th><td>1</td><td>2</td><td>3</td><td>…</td><td>5</td><td>6</td><td>7</td></tr></tbody></table>`},
		// Scalars, tuples, empty and higher-rank arrays are text.
		{"i32", "3", 100, "<pre>3</pre>"},
		{"(i32, bool)", "3 true", 100, "<pre>(3, true)</pre>"},
		{"[]i32", "empty([0]i32)", 100, "<pre>empty([0]i32)</pre>"},
		{"[][][]i32", "[[[1]]]", 100, "<pre>[[[1]]]</pre>"},
		{"[]([]i32, bool)", "[[1]] [true]", 100, "<pre>[([1], true)]</pre>"},
	}
	for _, tc := range tests {
		ty := parseType(t, tc.typ)
		got := FormatHTML(ty, read(t, ty, tc.in), tc.limit)
		if got != tc.want {
			t.Errorf("FormatHTML(%s, %q) =\n%s\nwant\n%s", tc.typ, tc.in, got, tc.want)
		}
	}
	// Errors become escaped text, never a panic.
	got := FormatHTML(types.Prim{T: core.I32}, nil, 10)
	if want := "<pre>internal error: a value of type i32 has 1 components, got 0</pre>"; got != want {
		t.Errorf("FormatHTML of a bad value = %q, want %q", got, want)
	}
}

func TestFormatTimings(t *testing.T) {
	tm := Timings{Parse: 1500 * 1000, Run: 2 * 1000 * 1000 * 1000, Total: 2002 * 1000 * 1000, Backend: "cpu"}
	if got, want := FormatTimings(tm), "time: 2s on cpu (parse 1.5ms, run 2s, other 500µs)"; got != want {
		t.Errorf("FormatTimings = %q, want %q", got, want)
	}
	tm = Timings{Compile: 40 * 1000 * 1000, CacheHit: true, Total: 41 * 1000 * 1000, Backend: "gpu",
		Kernels: []KernelTiming{{Name: "k", Time: 1000}}}
	// The stages add up to the total ("other" is the rest), and one
	// kernel is "1 kernel" (issue 19, defect 9).
	if got, want := FormatTimings(tm), "time: 41ms on gpu (compile 40ms (cached), other 1ms), 1 kernel"; got != want {
		t.Errorf("FormatTimings = %q, want %q", got, want)
	}
	// A module compiled fast says so (eval/gpu/tier.go).
	tm = Timings{Compile: 118 * 1000 * 1000, FastTier: true, Total: 118 * 1000 * 1000, Backend: "gpu"}
	if got, want := FormatTimings(tm), "time: 118ms on gpu (compile 118ms (fast tier; optimised module in the background))"; got != want {
		t.Errorf("FormatTimings = %q, want %q", got, want)
	}
}

// fakeDevice is a device array whose data is already at hand.
type fakeDevice struct{ data any }

func (d fakeDevice) ToHost(context.Context) (any, error) { return d.data, nil }
func (d fakeDevice) Bytes() int64                        { return 0 }
func (d fakeDevice) Free()                               {}

// TestFormatDeviceValue checks that values left on a device are fetched
// before printing.
func TestFormatDeviceValue(t *testing.T) {
	v := Value{Elem: core.I32, Shape: []int64{2}, Dev: fakeDevice{[]int32{7, 8}}}
	ty := parseType(t, "[]i32")
	if got, err := Format(ty, []Value{v}, 10); err != nil || got != "[7, 8]" {
		t.Errorf("Format = %q, %v; want [7, 8]", got, err)
	}
	if got, err := FormatRun(ty, []Value{v}); err != nil || got != "[7i32, 8i32]" {
		t.Errorf("FormatRun = %q, %v; want [7i32, 8i32]", got, err)
	}
	if got := FormatHTML(ty, []Value{v}, 10); !strings.Contains(got, "<td>8</td>") {
		t.Errorf("FormatHTML = %q, want a cell with 8", got)
	}
}

// rangeDevice is a device array that can copy ranges and counts the
// elements it was asked for.
type rangeDevice struct {
	data  []int32
	whole *bool
	read  *int64
}

func (d rangeDevice) ToHost(context.Context) (any, error) {
	*d.whole = true
	return append([]int32(nil), d.data...), nil
}
func (d rangeDevice) Bytes() int64 { return 4 * int64(len(d.data)) }
func (d rangeDevice) Free()        {}
func (d rangeDevice) ReadRange(_ context.Context, dst any, off, n int64) error {
	*d.read += n
	copy(dst.([]int32)[off:off+n], d.data[off:off+n])
	return nil
}

// TestFormatElidedDeviceReadsShown: printing an elided device array
// copies only the elements the printout shows (issue 16: `ys` of 2^28
// elements used to come to the host whole), and prints what a host copy
// prints.
func TestFormatElidedDeviceReadsShown(t *testing.T) {
	for _, shape := range [][]int64{{100000}, {300, 500}, {20, 30, 40}} {
		n := product(shape)
		data := make([]int32, n)
		for i := range data {
			data[i] = int32(i*3 + 1)
		}
		ty := parseType(t, strings.Repeat("[]", len(shape))+"i32")
		want, err := Format(ty, []Value{{Elem: core.I32, Shape: shape, Data: data}}, DefaultPrintLimit)
		if err != nil {
			t.Fatal(err)
		}
		var whole bool
		var read int64
		v := Value{Elem: core.I32, Shape: shape, Dev: rangeDevice{data, &whole, &read}}
		got, err := Format(ty, []Value{v}, DefaultPrintLimit)
		if err != nil || got != want {
			t.Errorf("%v: Format = %q, %v; want %q", shape, got, err, want)
		}
		shown := int64(1)
		edge := edgeItems(DefaultPrintLimit, []Value{v})
		for _, d := range shape {
			shown *= min(d, 2*edge)
		}
		if whole || read != shown {
			t.Errorf("%v: fetched the whole array: %v, elements read %d, want %d", shape, whole, read, shown)
		}
		// The notebook's tables elide the same way.
		wantHTML := FormatHTML(ty, []Value{{Elem: core.I32, Shape: shape, Data: data}}, DefaultPrintLimit)
		read = 0
		if got := FormatHTML(ty, []Value{v}, DefaultPrintLimit); got != wantHTML || whole || read != shown {
			t.Errorf("%v: FormatHTML = %q (whole %v, %d elements read), want %q reading %d", shape, got, whole, read, wantHTML, shown)
		}
	}
}
