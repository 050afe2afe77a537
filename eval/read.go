package eval

// This file reads Futhark value syntax: the inputs of `arepl run` and
// `arepl bench` and the input/output blocks of test files.
//
//	values  = { value }
//	value   = scalar | "[" value { "," value } [ "," ] "]" | empty
//	empty   = "empty" "(" { "[" int "]" } primtype ")"
//	scalar  = [ "-" ] number [ suffix ] | "true" | "false"
//	        | [ "-" ] ( "f32" | "f64" ) "." ( "nan" | "inf" )
//	number  = decimal | hex | binary | octal integers, with "_" between digits,
//	          or decimal/hex floats ("2.5", "1e-3", "0x1p4")
//	suffix  = "i8" | ... | "u64" | "f32" | "f64"
//
// Whitespace separates values and `--` starts a comment to the end of the
// line. With a wanted type, unsuffixed literals take it (an integer literal
// may stand for a float); without one, the array's element type is that of
// its first suffixed literal, else f64 if any literal is a decimal, else
// i32 (Futhark's defaults). A suffix that contradicts the wanted type, an
// out-of-range literal, an irregular array or a wrong number of values is
// an error at the line and column of the offending text.
//
// Inputs can be large (benchmarks read arrays of millions of elements) and
// hostile (a test block of three million "["), so the reader builds no
// tree and does not recurse: a first pass over a value's tokens (prescan)
// finds its rank and, with no wanted type, its element type; the second
// pass converts each literal as it is scanned and appends it to a typed
// buffer, keeping only a stack of the arrays open and the shape seen so
// far. A value costs its elements' bytes (and the buffer's growth), not a
// node per element, and nesting is bounded by MaxRank.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// MaxRank bounds the nesting of arrays in values read: deeper input is an
// error, not a stack or a shape of millions of dimensions.
const MaxRank = 1000

// ReadValues reads a sequence of values. With want non-nil (an empty
// slice means no values), it reads one value of
// each wanted type, a tuple type taking its components (and an array of
// tuples its component arrays) in sequence, and returns the flat Values of
// each: out[i] holds leafCount(want[i]) Values. Size variables shared
// between wanted types (`[n]i32`, `[n]f32`) must agree. With want nil it
// reads every value in src, each as a one-element []Value, with Futhark's
// default types. Errors are *source.Error values positioned in src (file
// name "<input>").
func ReadValues(src string, want []types.Type) ([][]Value, error) {
	return ReadValuesFile("", src, want)
}

// ReadValuesFile is ReadValues with errors positioned in the named file.
func ReadValuesFile(name, src string, want []types.Type) ([][]Value, error) {
	r := &reader{file: source.NewFile(name, src), src: src, line: 1, col: 1}
	r.next()
	if want == nil {
		var out [][]Value
		for r.tok != "" {
			v, _, err := r.value(nil)
			if err != nil {
				return nil, err
			}
			out = append(out, []Value{v})
		}
		return out, nil
	}
	sizes := map[string]sizeBinding{}
	out := make([][]Value, len(want))
	read := 0
	for i, t := range want {
		if containsSum(t) {
			return nil, r.file.Errorf(r.pos, "cannot read a value of type %s: a sum type is opaque to an entry point's caller, as in Futhark", t)
		}
		leaves, err := Leaves(t)
		if err != nil {
			return nil, r.file.Errorf(r.pos, "cannot read a value of type %s: %v", t, err)
		}
		for _, l := range leaves {
			if r.tok == "" {
				return nil, r.errorf("expected %d values for %s, found %d", totalLeaves(want), typeList(want), read)
			}
			v, pos, err := r.value(&l)
			if err != nil {
				return nil, err
			}
			read++
			if err := r.checkSizes(pos, l, v, sizes); err != nil {
				return nil, err
			}
			out[i] = append(out[i], v)
		}
	}
	if r.tok != "" {
		// Count the values beyond those wanted, for the message.
		pos := r.pos
		found := read
		for r.tok != "" {
			if _, _, err := r.value(nil); err != nil {
				return nil, err
			}
			found++
		}
		if len(want) == 0 {
			return nil, r.file.Errorf(pos, "expected no values, found %d", found)
		}
		return nil, r.file.Errorf(pos, "expected %d values for %s, found %d", totalLeaves(want), typeList(want), found)
	}
	return out, nil
}

func totalLeaves(ts []types.Type) int {
	n := 0
	for _, t := range ts {
		n += leafCount(t)
	}
	return n
}

func typeList(ts []types.Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}

// sizeBinding is the size a size variable took and where.
type sizeBinding struct {
	size int64
	pos  source.Pos
}

// checkSizes checks v's shape against the dimensions the wanted type
// states: constants must match and a size variable must have one size
// across all values read.
func (r *reader) checkSizes(pos source.Pos, l Leaf, v Value, sizes map[string]sizeBinding) error {
	for i, d := range l.Dims {
		got := v.Shape[i]
		switch {
		case d.Name != "":
			if b, ok := sizes[d.Name]; ok && b.size != got {
				return r.file.Errorf(pos, "dimension %d has size %d, but size %s is %d (from %s)",
					i+1, got, d.Name, b.size, b.pos)
			}
			sizes[d.Name] = sizeBinding{got, pos}
		case d.Const >= 0 && d.Const != got:
			return r.file.Errorf(pos, "dimension %d has size %d, want %d", i+1, got, d.Const)
		}
	}
	return nil
}

// CheckShape reports whether an array of the given shape can exist: no
// negative dimension, and the dimensions multiply to at most 2^63-1 even
// when one of them is 0 (a [2^62][4][0] array has no elements, but
// flattening or transposing it would compute sizes that overflow).
func CheckShape(shape []int64) error {
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("array shape %s has a negative dimension", shapeString(shape))
		}
		if d == 0 {
			continue
		}
		if n > math.MaxInt64/d {
			return fmt.Errorf("array shape %s is too large: its dimensions multiply to more than 2^63-1", shapeString(shape))
		}
		n *= d
	}
	return nil
}

// ---------------------------------------------------------------------------
// Scanner and parser

type reader struct {
	file      *source.File
	src       string
	off       int
	line, col int
	pos       source.Pos // position of the current token
	tok       string     // current token text; "" at the end
}

// skip passes over white space and comments.
func (r *reader) skip() {
	for r.off < len(r.src) {
		c := r.src[r.off]
		switch {
		case c == '\n':
			r.off++
			r.line++
			r.col = 1
		case c == ' ' || c == '\t' || c == '\r':
			r.advance(1)
		case strings.HasPrefix(r.src[r.off:], "--"):
			for r.off < len(r.src) && r.src[r.off] != '\n' {
				r.advance(1)
			}
		default:
			return
		}
	}
}

func (r *reader) advance(n int) {
	r.off += n
	r.col += n
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// next scans the next token: punctuation, "-", or a word (a number, name
// or special float; '.' is part of words).
func (r *reader) next() {
	r.skip()
	r.pos = source.Pos{File: r.file.Name, Line: r.line, Col: r.col}
	if r.off >= len(r.src) {
		r.tok = ""
		return
	}
	c := r.src[r.off]
	if !isWordByte(c) {
		r.tok = r.src[r.off : r.off+1]
		r.advance(1)
		return
	}
	start := r.off
	for r.off < len(r.src) {
		c := r.src[r.off]
		// An exponent sign belongs to a decimal float ("1e-3") or a hex
		// float ("0x1p-2").
		if (c == '+' || c == '-') && r.off > start && exponentSignOK(r.src[start:r.off]) {
			r.advance(1)
			continue
		}
		if !isWordByte(c) {
			break
		}
		r.advance(1)
	}
	r.tok = r.src[start:r.off]
}

// exponentSignOK reports whether a '+' or '-' after word w is an exponent
// sign.
func exponentSignOK(w string) bool {
	if w[0] < '0' || w[0] > '9' {
		return false
	}
	last := w[len(w)-1]
	if isHex(w) {
		return last == 'p' || last == 'P'
	}
	return last == 'e' || last == 'E'
}

func isHex(w string) bool { return len(w) > 1 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X') }

func (r *reader) errorf(format string, args ...any) error {
	return r.file.Errorf(r.pos, format, args...)
}

// describe names the current token for error messages.
func (r *reader) describe() string {
	if r.tok == "" {
		return "end of input"
	}
	return strconv.Quote(r.tok)
}

// lit is one scalar as written: a number (its numeral without sign, suffix
// or underscores, or "nan"/"inf" for a special float, whose type is fixed)
// or a bool.
type lit struct {
	pos       source.Pos
	isBool    bool
	b         bool
	neg       bool
	text      string
	isFloat   bool // written with a point, an exponent, or special
	special   bool
	suffix    core.PrimType
	hasSuffix bool
}

// prescan looks ahead over the value starting at the current token,
// without moving the reader, for its rank (the nesting of its first leaf)
// and, when elem is wanted, the element type Futhark's defaults give it.
// rank is -1 when no leaf comes before the end of the input or the nesting
// bound; the parse then reports what is wrong.
func (r *reader) prescan(wantElem bool) (rank int, elem core.PrimType) {
	p := *r
	rank, elem = -1, core.I32
	sawFloat := false
	depth := 0
	for {
		switch p.tok {
		case "":
			return rank, elem
		case "[":
			if depth++; depth > MaxRank {
				return rank, elem
			}
			p.next()
			continue
		case "]":
			depth--
			p.next()
		case ",", "-":
			p.next()
			continue
		case "empty":
			dims, t, err := p.parseEmpty()
			if err != nil {
				return rank, elem
			}
			if rank < 0 {
				rank = depth + len(dims)
			}
			return rank, t
		default:
			if rank < 0 {
				rank = depth
			}
			if !wantElem {
				return rank, elem
			}
			l, err := p.parseScalar()
			if err != nil {
				return rank, elem
			}
			switch {
			case l.isBool:
				return rank, core.Bool
			case l.hasSuffix:
				return rank, l.suffix
			}
			sawFloat = sawFloat || l.isFloat
		}
		if depth <= 0 {
			break
		}
	}
	if sawFloat {
		elem = core.F64
	}
	return rank, elem
}

// openArray is an array being read: where it starts and its elements so
// far.
type openArray struct {
	pos   source.Pos
	count int64
}

// value reads one value starting at the current token, of the wanted leaf
// type or, with want nil, of the type Futhark's defaults give it, and
// returns it with its position.
func (r *reader) value(want *Leaf) (Value, source.Pos, error) {
	start := r.pos
	rank, elem := r.prescan(want == nil)
	if want != nil {
		if rank >= 0 && rank != want.Rank {
			return Value{}, start, r.file.Errorf(start, "expected a value of type %s, found %s",
				core.ArrayOf(want.Elem, want.Rank), describeRank(rank))
		}
		elem = want.Elem
	}
	// shape[j] is the length of the arrays at nesting level j, -1 until
	// the first of them is complete; every later one must agree.
	shape := make([]int64, max(rank, 0))
	for i := range shape {
		shape[i] = -1
	}
	buf := newBuffer(elem)
	var stack []openArray
	for {
		// A value begins at nesting level len(stack).
		level := len(stack)
		pos := r.pos
		switch r.tok {
		case "[":
			if level >= MaxRank {
				return Value{}, start, r.errorf("arrays nested more than %d deep", MaxRank)
			}
			if rank >= 0 && level >= rank {
				return Value{}, start, r.errorf("irregular array: element of rank %d after one of shape %s",
					r.rankAhead(), shapeName(nil))
			}
			stack = append(stack, openArray{pos: pos})
			r.next()
			if r.tok == "]" {
				return Value{}, start, r.file.Errorf(pos, "an empty array is written empty([0]t), e.g. empty([0]i32)")
			}
			continue
		case "empty":
			dims, t, err := r.parseEmpty()
			if err != nil {
				return Value{}, start, err
			}
			if level+len(dims) != rank || !agree(tail(shape, level), dims) {
				return Value{}, start, r.file.Errorf(pos, "irregular array: element of shape %s after one of shape %s",
					shapeName(dims), shapeName(tail(shape, level)))
			}
			if t != elem {
				return Value{}, start, r.file.Errorf(pos, "expected elements of type %s, found empty array of %s", elem, t)
			}
			copy(shape[level:], dims)
		case "":
			return Value{}, start, r.errorf("expected a value, found end of input")
		default:
			l, err := r.parseScalar()
			if err != nil {
				return Value{}, start, err
			}
			if level != rank {
				return Value{}, start, r.file.Errorf(pos, "irregular array: element of shape %s after one of shape %s",
					shapeName(nil), shapeName(tail(shape, level)))
			}
			if err := r.store(&buf, l, elem); err != nil {
				return Value{}, start, err
			}
		}
		// A value is complete: count it in its array, then close the
		// arrays that end here.
		for {
			if len(stack) == 0 {
				if err := CheckShape(shape); err != nil {
					return Value{}, start, r.file.Errorf(start, "%v", err)
				}
				return Value{Elem: elem, Shape: shape, Data: buf.data()}, start, nil
			}
			top := &stack[len(stack)-1]
			top.count++
			if r.tok == "," {
				r.next()
				if r.tok != "]" {
					break
				}
			}
			if r.tok != "]" {
				return Value{}, start, r.errorf(`expected "," or "]", found %s`, r.describe())
			}
			r.next()
			j := len(stack) - 1
			switch {
			case shape[j] < 0:
				shape[j] = top.count
			case shape[j] != top.count:
				return Value{}, start, r.file.Errorf(top.pos, "irregular array: element of shape %s after one of shape %s",
					shapeName(append([]int64{top.count}, shape[j+1:]...)), shapeName(shape[j:]))
			}
			stack = stack[:j]
		}
	}
}

// tail is shape[level:], or nil past its end.
func tail(shape []int64, level int) []int64 {
	if level >= len(shape) {
		return nil
	}
	return shape[level:]
}

// agree reports whether dims matches the sizes known in shape (-1 is not
// known yet).
func agree(shape, dims []int64) bool {
	if len(shape) < len(dims) {
		return false
	}
	for i, d := range dims {
		if shape[i] >= 0 && shape[i] != d {
			return false
		}
	}
	return true
}

// rankAhead is the rank of the value at the current token, for messages.
func (r *reader) rankAhead() int {
	rank, _ := r.prescan(false)
	return rank
}

// parseEmpty parses empty([d]...t) at the current token.
func (r *reader) parseEmpty() ([]int64, core.PrimType, error) {
	pos := r.pos
	r.next()
	if r.tok != "(" {
		return nil, 0, r.errorf(`expected "(" after empty, found %s`, r.describe())
	}
	r.next()
	var dims []int64
	for r.tok == "[" {
		r.next()
		d, err := strconv.ParseInt(strings.ReplaceAll(r.tok, "_", ""), 0, 64)
		if err != nil || d < 0 {
			return nil, 0, r.errorf("expected a dimension size, found %s", r.describe())
		}
		if len(dims) == MaxRank {
			return nil, 0, r.errorf("arrays nested more than %d deep", MaxRank)
		}
		dims = append(dims, d)
		r.next()
		if r.tok != "]" {
			return nil, 0, r.errorf(`expected "]", found %s`, r.describe())
		}
		r.next()
	}
	t, ok := core.PrimByName(r.tok)
	if !ok {
		return nil, 0, r.errorf("expected an element type, found %s", r.describe())
	}
	if len(dims) == 0 {
		return nil, 0, r.errorf("empty needs at least one dimension, as in empty([0]%s)", t)
	}
	if !hasZero(dims) {
		return nil, 0, r.file.Errorf(pos, "empty array of shape %s has no dimension of size 0", shapeString(dims))
	}
	if err := CheckShape(dims); err != nil {
		return nil, 0, r.file.Errorf(pos, "%v", err)
	}
	r.next()
	if r.tok != ")" {
		return nil, 0, r.errorf(`expected ")", found %s`, r.describe())
	}
	r.next()
	return dims, t, nil
}

func hasZero(dims []int64) bool {
	for _, d := range dims {
		if d == 0 {
			return true
		}
	}
	return false
}

// suffixes are the type suffixes of literals, longest first so "i16" is
// not taken for "i1"+"6".
var suffixes = []core.PrimType{core.I16, core.I32, core.I64, core.U16, core.U32, core.U64, core.F32, core.F64, core.F16, core.I8, core.U8}

// parseScalar parses a scalar, with its sign, at the current token.
func (r *reader) parseScalar() (lit, error) {
	pos := r.pos
	if r.tok == "-" {
		r.next()
		if r.pos.Col != pos.Col+1 || r.pos.Line != pos.Line {
			return lit{}, r.file.Errorf(pos, `"-" must be followed directly by a number`)
		}
		l, err := r.parseUnsigned()
		if err != nil {
			return lit{}, err
		}
		if l.isBool {
			return lit{}, r.file.Errorf(pos, `"-" applies only to numbers`)
		}
		l.neg, l.pos = true, pos
		return l, nil
	}
	return r.parseUnsigned()
}

func (r *reader) parseUnsigned() (lit, error) {
	w, pos := r.tok, r.pos
	l := lit{pos: pos}
	switch w {
	case "true", "false":
		l.isBool, l.b = true, w == "true"
		r.next()
		return l, nil
	case "f32.nan", "f64.nan", "f32.inf", "f64.inf", "f16.nan", "f16.inf":
		l.text, l.isFloat, l.special = w[4:], true, true
		l.suffix, l.hasSuffix = core.F32, true
		if w[:3] == "f64" {
			l.suffix = core.F64
		}
		if w[:3] == "f16" {
			l.suffix = core.F16
		}
		r.next()
		return l, nil
	}
	if w == "" || w[0] < '0' || w[0] > '9' {
		return lit{}, r.errorf("expected a value, found %s", r.describe())
	}
	body := w
	hex := isHex(w)
	for _, t := range suffixes {
		s := t.String()
		// A hex integer's digits include 'f', so only i/u suffixes apply
		// to it unless it is a hex float (with a 'p' exponent).
		if hex && t.IsFloat() && !strings.ContainsAny(w, "pP") {
			continue
		}
		if strings.HasSuffix(w, s) && len(w) > len(s) {
			body, l.suffix, l.hasSuffix = w[:len(w)-len(s)], t, true
			break
		}
	}
	if strings.HasSuffix(body, "_") || strings.Contains(body, "__") {
		return lit{}, r.errorf("malformed number %s", r.describe())
	}
	l.text = strings.ReplaceAll(body, "_", "")
	if hex {
		l.isFloat = strings.ContainsAny(l.text, ".pP")
	} else {
		l.isFloat = strings.ContainsAny(l.text, ".eE")
	}
	// Validate the numeral now, so that a malformed one is reported
	// whatever type it gets.
	var err error
	if l.isFloat {
		_, err = strconv.ParseFloat(l.text, 64)
	} else {
		_, err = parseUint(l.text)
	}
	if err != nil && !isRangeErr(err) {
		return lit{}, r.errorf("malformed number %s", r.describe())
	}
	if l.hasSuffix && l.isFloat && !l.suffix.IsFloat() {
		return lit{}, r.errorf("%s is not an integer, but has suffix %s", body, l.suffix)
	}
	r.next()
	return l, nil
}

// hasBasePrefix reports whether an integer numeral starts with 0x, 0b or
// 0o.
func hasBasePrefix(s string) bool {
	return len(s) > 2 && s[0] == '0' && strings.ContainsAny(s[1:2], "xXbBoO")
}

// parseUint parses an integer numeral: decimal (a leading zero does not
// make it octal, unlike in Go) or with a 0x, 0b or 0o prefix.
func parseUint(s string) (uint64, error) {
	if hasBasePrefix(s) {
		return strconv.ParseUint(s, 0, 64)
	}
	return strconv.ParseUint(s, 10, 64)
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Typing

func describeRank(rank int) string {
	if rank == 0 {
		return "a scalar"
	}
	return fmt.Sprintf("an array of rank %d", rank)
}

func shapeName(s []int64) string {
	if len(s) == 0 {
		return "[] (a scalar)"
	}
	return shapeString(s)
}

// buffer collects the elements of one value in a slice of its element
// type: one field per type, so that appending neither boxes nor switches
// on the slice's dynamic type.
type buffer struct {
	elem core.PrimType
	// n counts the elements; at n == check the budget is asked for as
	// much again (Reserve), and check doubles.
	n, check int64
	b        []bool
	i8       []int8
	i16      []int16
	i32      []int32
	i64      []int64
	u8       []uint8
	u16      []uint16
	u32      []uint32
	u64      []uint64
	f32      []float32
	f64      []float64
}

func newBuffer(t core.PrimType) buffer { return buffer{elem: t, check: 1 << 16} }

// data is the elements read, as the typed slice a Value holds (empty, not
// nil, when there are none).
func (b *buffer) data() any {
	var d any
	switch b.elem {
	case core.Bool:
		d = b.b
	case core.I8:
		d = b.i8
	case core.I16:
		d = b.i16
	case core.I32:
		d = b.i32
	case core.I64:
		d = b.i64
	case core.U8:
		d = b.u8
	case core.U16:
		d = b.u16
	case core.U32:
		d = b.u32
	case core.U64:
		d = b.u64
	case core.F32, core.F16:
		d = b.f32
	case core.F64:
		d = b.f64
	}
	if DataLen(d) == 0 {
		return MakeSlice(b.elem, 0)
	}
	return d
}

// store converts literal l to type t and appends it to buf.
func (r *reader) store(buf *buffer, l lit, t core.PrimType) error {
	if buf.n++; buf.n == buf.check {
		// The buffer grows to about twice this: a value written with two
		// bytes an element ("0,") is 4 to 8 times its text in memory.
		buf.check *= 2
		if err := Reserve(buf.n * int64(t.Size())); err != nil {
			return r.file.Errorf(l.pos, "cannot read more elements: %v", err)
		}
	}
	if l.isBool {
		if t != core.Bool {
			return r.file.Errorf(l.pos, "expected a value of type %s, found %v", t, l.b)
		}
		buf.b = append(buf.b, l.b)
		return nil
	}
	if t == core.Bool {
		return r.file.Errorf(l.pos, "expected a value of type bool, found a number")
	}
	if l.hasSuffix && l.suffix != t {
		return r.file.Errorf(l.pos, "expected a value of type %s, found one of type %s", t, l.suffix)
	}
	if t.IsFloat() {
		f, err := r.floatOf(l, t)
		if err != nil {
			return err
		}
		switch t {
		case core.F32:
			buf.f32 = append(buf.f32, float32(f))
		case core.F16:
			buf.f32 = append(buf.f32, float32(core.RoundHalf(f)))
		default:
			buf.f64 = append(buf.f64, f)
		}
		return nil
	}
	if l.isFloat {
		return r.file.Errorf(l.pos, "expected a value of type %s, found a decimal number", t)
	}
	bits, err := r.intBits(l, t)
	if err != nil {
		return err
	}
	switch t {
	case core.I8:
		buf.i8 = append(buf.i8, int8(bits))
	case core.I16:
		buf.i16 = append(buf.i16, int16(bits))
	case core.I32:
		buf.i32 = append(buf.i32, int32(bits))
	case core.I64:
		buf.i64 = append(buf.i64, int64(bits))
	case core.U8:
		buf.u8 = append(buf.u8, uint8(bits))
	case core.U16:
		buf.u16 = append(buf.u16, uint16(bits))
	case core.U32:
		buf.u32 = append(buf.u32, uint32(bits))
	case core.U64:
		buf.u64 = append(buf.u64, bits)
	}
	return nil
}

// floatOf is the value of a literal as a float of type t. A NaN has no
// sign in Futhark (-f32.nan is f32.nan), so it is always the one NaN the
// printer writes back.
func (r *reader) floatOf(l lit, t core.PrimType) (float64, error) {
	var f float64
	switch {
	case l.special && l.text == "nan":
		return core.NaN(), nil
	case l.special:
		f = math.Inf(1)
	case l.isFloat:
		var err error
		f, err = strconv.ParseFloat(l.text, t.Bits())
		if err != nil && !isRangeErr(err) {
			return 0, r.file.Errorf(l.pos, "malformed number %s", l.text)
		}
	default:
		u, err := parseUint(l.text)
		if err != nil {
			return 0, r.file.Errorf(l.pos, "%s is out of range for %s", l.text, t)
		}
		f = float64(u)
		if t == core.F32 {
			f = float64(float32(f))
		}
	}
	if l.neg {
		f = -f
	}
	return f, nil
}

// intBits is the value of an integer literal of type t, as the 64-bit
// pattern the slice store truncates. As in Futhark's value reader, a
// literal that does not fit its type wraps around (300u8 is 44, -1u32 is
// 4294967295); only one that does not fit in 64 bits is an error.
func (r *reader) intBits(l lit, t core.PrimType) (uint64, error) {
	u, err := parseUint(l.text)
	if err != nil {
		sign := ""
		if l.neg {
			sign = "-"
		}
		return 0, r.file.Errorf(l.pos, "%s%s is out of range for %s", sign, l.text, t)
	}
	if l.neg {
		u = -u
	}
	if bits := uint(t.Bits()); bits < 64 && t.IsSigned() {
		return uint64(int64(u<<(64-bits)) >> (64 - bits)), nil
	}
	return u, nil
}
