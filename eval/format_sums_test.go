package eval

import (
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/types"
)

// optType is `#none | #some i32` as the checker represents it: a record of
// the u8 tag and each constructor's payload.
var optType = &types.Tuple{
	Names: []string{"#", "#none", "#some"},
	Elems: []types.Type{types.Prim{T: core.U8}, &types.Tuple{}, &types.Tuple{Elems: []types.Type{types.Prim{T: core.I32}}}},
}

// TestFormatSum checks that sum values print as constructors in the REPL,
// in `arepl run`'s value syntax and in a notebook (never as the record of
// their representation, nor as a table of its components).
func TestFormatSum(t *testing.T) {
	tags := Value{Elem: core.U8, Shape: []int64{3}, Data: []uint8{1, 0, 1}}
	payload := Value{Elem: core.I32, Shape: []int64{3}, Data: []int32{3, 0, -4}}
	arr := &types.Array{Elem: optType, Dims: []types.Dim{{Const: 3}}}
	got, err := Format(arr, []Value{tags, payload}, 0)
	if want := "[#some 3, #none, #some (-4)]"; err != nil || got != want {
		t.Errorf("Format = %q, %v; want %q", got, err, want)
	}
	one := []Value{
		{Elem: core.U8, Shape: []int64{}, Data: []uint8{1}},
		{Elem: core.I32, Shape: []int64{}, Data: []int32{7}},
	}
	got, err = FormatRun(optType, one)
	if want := "#some 7i32"; err != nil || got != want {
		t.Errorf("FormatRun = %q, %v; want %q", got, err, want)
	}
	html := FormatHTML(arr, []Value{tags, payload}, 0)
	if !strings.Contains(html, "#some 3, #none") || strings.Contains(html, "<table") {
		t.Errorf("FormatHTML = %q; want the constructors in a <pre>", html)
	}
	if _, err := ReadValues("1u8 3", []types.Type{optType}); err == nil || !strings.Contains(err.Error(), "opaque") {
		t.Errorf("ReadValues of a sum type: %v; want an error that it is opaque", err)
	}
}
