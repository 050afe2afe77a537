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
// line. Reading happens in two steps: a hand-written scanner and parser
// build an untyped tree (literals keep their text and optional suffix),
// then each tree is typed against the wanted type. With a wanted type,
// unsuffixed literals take it (an integer literal may stand for a float);
// without one, the array's element type is that of its first suffixed
// literal, else f64 if any literal is a decimal, else i32 (Futhark's
// defaults). A suffix that contradicts the wanted type, an out-of-range
// literal, an irregular array or a wrong number of values is an error at
// the line and column of the offending text.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

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
	nodes, err := r.parseAll()
	if err != nil {
		return nil, err
	}
	if want == nil {
		out := make([][]Value, len(nodes))
		for i, n := range nodes {
			v, err := r.typed(n, nil)
			if err != nil {
				return nil, err
			}
			out[i] = []Value{v}
		}
		return out, nil
	}
	sizes := map[string]sizeBinding{}
	out := make([][]Value, len(want))
	next := 0
	for i, t := range want {
		leaves, err := Leaves(t)
		if err != nil {
			return nil, r.file.Errorf(r.pos, "cannot read a value of type %s: %v", t, err)
		}
		for _, l := range leaves {
			if next >= len(nodes) {
				return nil, r.file.Errorf(r.pos, "expected %d values for %s, found %d",
					totalLeaves(want), typeList(want), len(nodes))
			}
			n := nodes[next]
			next++
			v, err := r.typed(n, &l)
			if err != nil {
				return nil, err
			}
			if err := r.checkSizes(n, l, v, sizes); err != nil {
				return nil, err
			}
			out[i] = append(out[i], v)
		}
	}
	if next < len(nodes) {
		if len(want) == 0 {
			return nil, r.file.Errorf(nodes[next].pos, "expected no values, found %d", len(nodes))
		}
		return nil, r.file.Errorf(nodes[next].pos, "expected %d values for %s, found %d",
			totalLeaves(want), typeList(want), len(nodes))
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
func (r *reader) checkSizes(n *rnode, l Leaf, v Value, sizes map[string]sizeBinding) error {
	for i, d := range l.Dims {
		got := v.Shape[i]
		switch {
		case d.Name != "":
			if b, ok := sizes[d.Name]; ok && b.size != got {
				return r.file.Errorf(n.pos, "dimension %d has size %d, but size %s is %d (from %s)",
					i+1, got, d.Name, b.size, b.pos)
			}
			sizes[d.Name] = sizeBinding{got, n.pos}
		case d.Const >= 0 && d.Const != got:
			return r.file.Errorf(n.pos, "dimension %d has size %d, want %d", i+1, got, d.Const)
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// Untyped trees

type rkind int

const (
	litNode   rkind = iota // a number or special float
	boolNode               // true or false
	arrayNode              // [e, ...]
	emptyNode              // empty([d]...t)
)

// rnode is a value as written, before typing.
type rnode struct {
	kind rkind
	pos  source.Pos

	// litNode: the numeral without sign, suffix or underscores (or "nan",
	// "inf" for a special float, whose type is fixed), and whether it is
	// written as a float (point, exponent or special).
	neg       bool
	text      string
	isFloat   bool
	special   bool
	suffix    core.PrimType
	hasSuffix bool

	b bool // boolNode

	elems []*rnode // arrayNode

	dims []int64       // emptyNode
	elem core.PrimType // emptyNode
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

func (r *reader) parseAll() ([]*rnode, error) {
	var out []*rnode
	r.next()
	for r.tok != "" {
		n, err := r.parseValue()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// parseValue parses one value starting at the current token and leaves the
// token after it current.
func (r *reader) parseValue() (*rnode, error) {
	pos := r.pos
	switch r.tok {
	case "[":
		return r.parseArray()
	case "-":
		r.next()
		if r.pos.Col != pos.Col+1 || r.pos.Line != pos.Line {
			return nil, r.file.Errorf(pos, `"-" must be followed directly by a number`)
		}
		n, err := r.parseScalar()
		if err != nil {
			return nil, err
		}
		if n.kind != litNode {
			return nil, r.file.Errorf(pos, `"-" applies only to numbers`)
		}
		n.neg, n.pos = true, pos
		return n, nil
	case "empty":
		return r.parseEmpty()
	case "":
		return nil, r.errorf("expected a value, found end of input")
	}
	return r.parseScalar()
}

func (r *reader) parseArray() (*rnode, error) {
	n := &rnode{kind: arrayNode, pos: r.pos}
	r.next()
	for r.tok != "]" {
		e, err := r.parseValue()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, e)
		switch r.tok {
		case ",":
			r.next()
		case "]":
		default:
			return nil, r.errorf(`expected "," or "]", found %s`, r.describe())
		}
	}
	r.next()
	if len(n.elems) == 0 {
		return nil, r.file.Errorf(n.pos, "an empty array is written empty([0]t), e.g. empty([0]i32)")
	}
	return n, nil
}

func (r *reader) parseEmpty() (*rnode, error) {
	n := &rnode{kind: emptyNode, pos: r.pos}
	r.next()
	if r.tok != "(" {
		return nil, r.errorf(`expected "(" after empty, found %s`, r.describe())
	}
	r.next()
	for r.tok == "[" {
		r.next()
		d, err := strconv.ParseInt(strings.ReplaceAll(r.tok, "_", ""), 0, 64)
		if err != nil || d < 0 {
			return nil, r.errorf("expected a dimension size, found %s", r.describe())
		}
		n.dims = append(n.dims, d)
		r.next()
		if r.tok != "]" {
			return nil, r.errorf(`expected "]", found %s`, r.describe())
		}
		r.next()
	}
	t, ok := core.PrimByName(r.tok)
	if !ok {
		return nil, r.errorf("expected an element type, found %s", r.describe())
	}
	if len(n.dims) == 0 {
		return nil, r.errorf("empty needs at least one dimension, as in empty([0]%s)", t)
	}
	if product(n.dims) != 0 {
		return nil, r.file.Errorf(n.pos, "empty array of shape %s has no dimension of size 0", shapeString(n.dims))
	}
	n.elem = t
	r.next()
	if r.tok != ")" {
		return nil, r.errorf(`expected ")", found %s`, r.describe())
	}
	r.next()
	return n, nil
}

// suffixes are the type suffixes of literals, longest first so "i16" is
// not taken for "i1"+"6".
var suffixes = []core.PrimType{core.I16, core.I32, core.I64, core.U16, core.U32, core.U64, core.F32, core.F64, core.I8, core.U8}

func (r *reader) parseScalar() (*rnode, error) {
	w, pos := r.tok, r.pos
	n := &rnode{kind: litNode, pos: pos}
	switch w {
	case "true", "false":
		n.kind, n.b = boolNode, w == "true"
		r.next()
		return n, nil
	case "f32.nan", "f64.nan", "f32.inf", "f64.inf":
		n.text, n.isFloat, n.special = w[4:], true, true
		n.suffix, n.hasSuffix = core.F32, true
		if w[:3] == "f64" {
			n.suffix = core.F64
		}
		r.next()
		return n, nil
	}
	if w == "" || w[0] < '0' || w[0] > '9' {
		return nil, r.errorf("expected a value, found %s", r.describe())
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
			body, n.suffix, n.hasSuffix = w[:len(w)-len(s)], t, true
			break
		}
	}
	if strings.HasSuffix(body, "_") || strings.Contains(body, "__") {
		return nil, r.errorf("malformed number %s", r.describe())
	}
	n.text = strings.ReplaceAll(body, "_", "")
	if hex {
		n.isFloat = strings.ContainsAny(n.text, ".pP")
	} else {
		n.isFloat = strings.ContainsAny(n.text, ".eE")
	}
	// Validate the numeral now, so that a malformed one is reported at
	// parse time whatever type it gets later.
	var err error
	if n.isFloat {
		_, err = strconv.ParseFloat(n.text, 64)
	} else {
		_, err = parseUint(n.text)
	}
	if err != nil && !isRangeErr(err) {
		return nil, r.errorf("malformed number %s", r.describe())
	}
	if n.hasSuffix && n.isFloat && !n.suffix.IsFloat() {
		return nil, r.errorf("%s is not an integer, but has suffix %s", body, n.suffix)
	}
	r.next()
	return n, nil
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
// Typing

// typed turns a tree into a Value of the wanted leaf type, or of the type
// the tree implies when want is nil.
func (r *reader) typed(n *rnode, want *Leaf) (Value, error) {
	elem, rank := inferElem(n), rankOf(n)
	if want != nil {
		if rank != want.Rank {
			return Value{}, r.file.Errorf(n.pos, "expected a value of type %s, found %s",
				core.ArrayOf(want.Elem, want.Rank), describeRank(rank))
		}
		elem = want.Elem
	}
	shape, err := r.shapeOf(n)
	if err != nil {
		return Value{}, err
	}
	v := NewArray(elem, shape...)
	i := 0
	var fill func(n *rnode) error
	fill = func(n *rnode) error {
		switch n.kind {
		case arrayNode:
			for _, e := range n.elems {
				if err := fill(e); err != nil {
					return err
				}
			}
			return nil
		case emptyNode:
			if n.elem != elem {
				return r.file.Errorf(n.pos, "expected elements of type %s, found empty array of %s", elem, n.elem)
			}
			return nil
		case litNode, boolNode:
			if err := r.store(v.Data, i, n, elem); err != nil {
				return err
			}
			i++
			return nil
		}
		return r.file.Errorf(n.pos, "internal error: unknown value node %d", n.kind)
	}
	if err := fill(n); err != nil {
		return Value{}, err
	}
	return v, nil
}

func describeRank(rank int) string {
	if rank == 0 {
		return "a scalar"
	}
	return fmt.Sprintf("an array of rank %d", rank)
}

// rankOf is the rank a tree has (its first element decides for arrays;
// shapeOf checks the others).
func rankOf(n *rnode) int {
	switch n.kind {
	case arrayNode:
		return 1 + rankOf(n.elems[0])
	case emptyNode:
		return len(n.dims)
	}
	return 0
}

// inferElem is the element type of a tree read with no wanted type.
func inferElem(n *rnode) core.PrimType {
	sawFloat := false
	var first *rnode
	var walk func(n *rnode) bool
	walk = func(n *rnode) bool {
		switch n.kind {
		case arrayNode:
			for _, e := range n.elems {
				if walk(e) {
					return true
				}
			}
		case emptyNode, boolNode:
			first = n
			return true
		case litNode:
			if n.hasSuffix {
				first = n
				return true
			}
			sawFloat = sawFloat || n.isFloat
		}
		return false
	}
	walk(n)
	switch {
	case first != nil && first.kind == emptyNode:
		return first.elem
	case first != nil && first.kind == boolNode:
		return core.Bool
	case first != nil:
		return first.suffix
	case sawFloat:
		return core.F64
	}
	return core.I32
}

// shapeOf computes a tree's shape, rejecting irregular arrays.
func (r *reader) shapeOf(n *rnode) ([]int64, error) {
	switch n.kind {
	case emptyNode:
		return n.dims, nil
	case arrayNode:
		inner, err := r.shapeOf(n.elems[0])
		if err != nil {
			return nil, err
		}
		for _, e := range n.elems[1:] {
			s, err := r.shapeOf(e)
			if err != nil {
				return nil, err
			}
			if !equalShape(s, inner) {
				return nil, r.file.Errorf(e.pos, "irregular array: element of shape %s after one of shape %s",
					shapeName(s), shapeName(inner))
			}
		}
		return append([]int64{int64(len(n.elems))}, inner...), nil
	}
	return nil, nil
}

func shapeName(s []int64) string {
	if len(s) == 0 {
		return "[] (a scalar)"
	}
	return shapeString(s)
}

// store converts literal n to type t and writes it at data[i].
func (r *reader) store(data any, i int, n *rnode, t core.PrimType) error {
	if n.kind == boolNode {
		d, ok := data.([]bool)
		if !ok {
			return r.file.Errorf(n.pos, "expected a value of type %s, found %v", t, n.b)
		}
		d[i] = n.b
		return nil
	}
	if t == core.Bool {
		return r.file.Errorf(n.pos, "expected a value of type bool, found a number")
	}
	if n.hasSuffix && n.suffix != t {
		return r.file.Errorf(n.pos, "expected a value of type %s, found one of type %s", t, n.suffix)
	}
	if t.IsFloat() {
		f, err := r.floatOf(n, t)
		if err != nil {
			return err
		}
		switch d := data.(type) {
		case []float32:
			d[i] = float32(f)
		case []float64:
			d[i] = f
		}
		return nil
	}
	if n.isFloat {
		return r.file.Errorf(n.pos, "expected a value of type %s, found a decimal number", t)
	}
	bits, err := r.intBits(n, t)
	if err != nil {
		return err
	}
	switch d := data.(type) {
	case []int8:
		d[i] = int8(bits)
	case []int16:
		d[i] = int16(bits)
	case []int32:
		d[i] = int32(bits)
	case []int64:
		d[i] = int64(bits)
	case []uint8:
		d[i] = uint8(bits)
	case []uint16:
		d[i] = uint16(bits)
	case []uint32:
		d[i] = uint32(bits)
	case []uint64:
		d[i] = bits
	}
	return nil
}

// floatOf is the value of a literal as a float of type t.
func (r *reader) floatOf(n *rnode, t core.PrimType) (float64, error) {
	var f float64
	switch {
	case n.special && n.text == "nan":
		f = math.NaN()
	case n.special:
		f = math.Inf(1)
	case n.isFloat:
		var err error
		f, err = strconv.ParseFloat(n.text, t.Bits())
		if err != nil && !isRangeErr(err) {
			return 0, r.file.Errorf(n.pos, "malformed number %s", n.text)
		}
	default:
		u, err := parseUint(n.text)
		if err != nil {
			return 0, r.file.Errorf(n.pos, "%s is out of range for %s", n.text, t)
		}
		f = float64(u)
		if t == core.F32 {
			f = float64(float32(f))
		}
	}
	if n.neg {
		f = -f
	}
	return f, nil
}

// intBits is the value of an integer literal of type t, as the 64-bit
// pattern the slice store truncates. As in Futhark's value reader, a
// literal that does not fit its type wraps around (300u8 is 44, -1u32 is
// 4294967295); only one that does not fit in 64 bits is an error.
func (r *reader) intBits(n *rnode, t core.PrimType) (uint64, error) {
	u, err := parseUint(n.text)
	if err != nil {
		sign := ""
		if n.neg {
			sign = "-"
		}
		return 0, r.file.Errorf(n.pos, "%s%s is out of range for %s", sign, n.text, t)
	}
	if n.neg {
		u = -u
	}
	if bits := uint(t.Bits()); bits < 64 && t.IsSigned() {
		return uint64(int64(u<<(64-bits)) >> (64 - bits)), nil
	}
	return u, nil
}
