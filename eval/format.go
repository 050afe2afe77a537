package eval

// This file renders values for people and for programs. A value arrives as
// its source type (types.Type) plus the flat Values of the tuple-of-arrays
// representation; the printer walks the source type and takes one Value per
// primitive leaf, so `(i32, [3]f64)` consumes a scalar and an array and
// `[n](i32, f64)` consumes two arrays of the same outer shape.
//
// Three renderings share that walk:
//
//   - Format is `futhark repl` style: `45`, `3.5`, `[1, 2, 3]`,
//     `(1, [2, 3])`, `[(1, 2.0), (3, 4.0)]`, floats as `inf`, `-inf`, `nan`,
//     empty arrays as `empty([0]i32)`.
//   - FormatRun is `futhark run` style (Futhark's value syntax, which
//     ReadValues reads back): every number carries its type suffix (`45i64`,
//     `2.5f32`), special floats are `f32.nan`, `f64.inf`, `-f64.inf`, and a
//     tuple is its components, one per line.
//   - FormatHTML renders 1-D and 2-D arrays (and 1-D arrays of tuples) as an
//     HTML table for the Jupyter kernel; anything else as preformatted text.
//
// Elision. An array with more elements than the print limit (counting every
// element of every component) is summarised as numpy does: along each
// dimension longer than 2*e only the first and last e rows are shown, with
// `...` between them, and the whole array is followed by its actual type so
// the size is never lost. e is as large as the limit allows, at least one
// row at each end (edgeItems), so limit 100 shows 50 + 50 elements of a
// vector and 5 + 5 rows of 5 + 5 of a matrix:
//
//	[0, 1, ..., 9999] : [10000]i64                        (limit 2)
//	[[0, 1, 2, 3, 4, ..., 995, 996, 997, 998, 999], ...] : [1000][1000]i64
//
// A limit of zero or less prints everything. FormatRun never elides: its
// output is data.
//
// Floats print with the fewest digits that read back to the same value,
// always with a decimal point, switching to exponent notation outside
// [0.1, 10^7) the way Futhark (through Haskell's show) does: `1.0`, `0.25`,
// `1.0e7`, `1.0e-2`.

import (
	"context"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/types"
)

// DefaultPrintLimit is the REPL's print limit (elements per array) unless
// the user sets another with `:set print-limit N`.
const DefaultPrintLimit = 100

// edgeItems is how many rows each dimension of an elided array shows at
// each end: the most for which the elements shown (of every component vs)
// stay within the limit, and at least one.
func edgeItems(limit int, vs []Value) int64 {
	shown := func(e int64) int64 {
		total := int64(0)
		for _, v := range vs {
			n := int64(1)
			for _, d := range v.Shape {
				n *= min(d, 2*e)
			}
			total += n
		}
		return total
	}
	lo, hi := int64(1), int64(1)
	for _, v := range vs {
		for _, d := range v.Shape {
			hi = max(hi, d)
		}
	}
	// The largest e in [lo, hi] with shown(e) <= limit (shown grows with e).
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if shown(mid) <= int64(limit) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// style selects between the REPL and the value-syntax renderings.
type style int

const (
	replStyle style = iota // futhark repl: no suffixes
	runStyle               // futhark run: suffixed, readable back
)

// Format renders a value of source type t in `futhark repl` style, eliding
// arrays with more than limit elements (limit <= 0: never).
func Format(t types.Type, vs []Value, limit int) (string, error) {
	p := printer{style: replStyle, limit: limit}
	if err := p.top(t, vs); err != nil {
		return "", err
	}
	return p.b.String(), nil
}

// FormatRun renders a value of source type t in `futhark run` style: a
// tuple (at any depth) is its components on separate lines; anything else
// is one line. The output is Futhark value syntax that ReadValues reads
// back with the same type.
func FormatRun(t types.Type, vs []Value) (string, error) {
	vs, err := hostValues(vs)
	if err != nil {
		return "", err
	}
	if err := checkValues(t, vs); err != nil {
		return "", err
	}
	var lines []string
	var walk func(t types.Type, vs []Value) error
	walk = func(t types.Type, vs []Value) error {
		if tup, ok := t.(*types.Tuple); ok && !types.IsSum(tup) {
			for _, e := range tup.Elems {
				n := leafCount(e)
				if err := walk(e, vs[:n]); err != nil {
					return err
				}
				vs = vs[n:]
			}
			return nil
		}
		// An array of tuples is printed as its component arrays (the
		// tuple-of-arrays form), each on its own line, since value syntax
		// has no tuples.
		if a, ok := t.(*types.Array); ok {
			if tup, ok := a.Elem.(*types.Tuple); ok {
				for _, e := range tup.Elems {
					n := leafCount(e)
					if err := walk(arrayOf(e, a.Dims), vs[:n]); err != nil {
						return err
					}
					vs = vs[n:]
				}
				return nil
			}
		}
		p := printer{style: runStyle}
		if err := p.value(t, vs, false); err != nil {
			return err
		}
		lines = append(lines, p.b.String())
		return nil
	}
	if err := walk(t, vs); err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}

// FormatValue renders one flat Value in `futhark run` style (for messages
// such as a test runner's "expected ... got ...").
func FormatValue(v Value) (string, error) {
	return FormatRun(typeOfValue(v), []Value{v})
}

// FormatHTML renders a value for a notebook: a 1-D array (also of tuples,
// one column per component) or a 2-D array of primitives as a table with
// index headers, elided beyond limit elements like Format; anything else as
// the escaped Format text in a <pre>. Errors are rendered as text too, so
// the kernel always has something to show.
func FormatHTML(t types.Type, vs []Value, limit int) string {
	if len(vs) == 1 && limit > 0 && vs[0].Len() > int64(limit) && anyLongDim(vs, edgeItems(limit, vs)) {
		// The tables elide as the REPL printer does: fetch only what shows.
		if h, ok, err := shownOnly(vs[0], edgeItems(limit, vs)); err != nil {
			return "<pre>" + html.EscapeString(err.Error()) + "</pre>"
		} else if ok {
			vs = []Value{h}
		}
	}
	vs, err := hostValues(vs)
	if err == nil {
		err = checkValues(t, vs)
	}
	if err != nil {
		return "<pre>" + html.EscapeString(err.Error()) + "</pre>"
	}
	if a, ok := t.(*types.Array); ok && len(vs) > 0 && !containsSum(a.Elem) { // a sum prints as #some 3, not its components
		switch {
		case len(a.Dims) == 1 && vs[0].Shape[0] > 0:
			if s, ok := htmlTable1(a, vs, limit); ok {
				return s
			}
		case len(a.Dims) == 2 && vs[0].Shape[0] > 0 && vs[0].Shape[1] > 0:
			if _, prim := a.Elem.(types.Prim); prim {
				return htmlTable2(a, vs[0], limit)
			}
		}
	}
	s, err := Format(t, vs, limit)
	if err != nil {
		s = err.Error()
	}
	return "<pre>" + html.EscapeString(s) + "</pre>"
}

// FormatTimings is the one-line summary the REPL prints after a result with
// `:time on`: the stages that took time, then the total.
func FormatTimings(t Timings) string {
	var parts []string
	add := func(name string, d time.Duration) {
		if d > 0 {
			parts = append(parts, name+" "+fmtDuration(d))
		}
	}
	add("parse", t.Parse)
	add("lower", t.Lower)
	add("fuse", t.Fuse)
	if t.Compile > 0 || t.CacheHit {
		c := "compile " + fmtDuration(t.Compile)
		if t.CacheHit {
			c += " (cached)"
		}
		if t.FastTier {
			c += " (fast tier; optimised module in the background)"
		}
		parts = append(parts, c)
	}
	if t.Transfer > 0 {
		parts = append(parts, "transfer "+fmtDuration(t.Transfer)+fmtTransfers(t.Transfers))
	}
	add("run", t.Run)
	add("other", t.Other())
	s := "time: " + fmtDuration(t.Total)
	if t.Backend != "" {
		s += " on " + t.Backend
		if t.Why != "" {
			s += " [" + t.Why + "]"
		}
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	switch n := len(t.Kernels); {
	case n == 1:
		s += ", 1 kernel"
	case n > 1:
		s += fmt.Sprintf(", %d kernels", n)
	}
	if t.CPUStatements > 0 {
		s += fmt.Sprintf(", %d statements on the CPU", t.CPUStatements)
	}
	return s + perDevice(t)
}

// fmtTransfers lists copies by direction, with bytes and bandwidth:
// " [HtoD 1.07 GB at 24.1 GB/s; DtoH 4 B]" (no bandwidth for copies too
// small for one to mean anything).
func fmtTransfers(ts []TransferTiming) string {
	if len(ts) == 0 {
		return ""
	}
	type agg struct {
		n     int
		bytes int64
		time  time.Duration
	}
	var dirs []string
	by := map[string]*agg{}
	for _, x := range ts {
		a := by[x.Dir]
		if a == nil {
			a = &agg{}
			by[x.Dir] = a
			dirs = append(dirs, x.Dir)
		}
		a.n++
		a.bytes += x.Bytes
		a.time += x.Time
	}
	var out []string
	for _, d := range dirs {
		a := by[d]
		s := d
		if a.n > 1 {
			s += fmt.Sprintf(" %d×", a.n)
		}
		s += " " + fmtBytes(a.bytes)
		if a.bytes >= 1<<20 && a.time > 0 {
			s += fmt.Sprintf(" at %.3g GB/s", float64(a.bytes)/a.time.Seconds()/1e9)
		}
		out = append(out, s)
	}
	return " [" + strings.Join(out, "; ") + "]"
}

func fmtBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.3g GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.3g MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.3g kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// Other is the part of the total that no stage accounts for: reading the
// input, binding values in the session, checking the result's sizes, and
// on the GPU waiting for the device. Shown, the stages add up to the total.
func (t Timings) Other() time.Duration {
	rest := t.Total - t.Parse - t.Lower - t.Fuse - t.Compile - t.Transfer - t.Run
	return max(rest, 0)
}

// FormatDuration prints a duration as the timing line does (three
// significant digits in the unit that suits it).
func FormatDuration(d time.Duration) string { return fmtDuration(d) }

// fmtDuration prints a duration with three significant digits in the unit
// that suits it.
func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.3gµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3gms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3gs", d.Seconds())
}

// ---------------------------------------------------------------------------
// The printer

type printer struct {
	style style
	limit int
	edge  int64 // rows shown at each end of an elided dimension
	b     strings.Builder
}

// top prints a whole REPL value.
func (p *printer) top(t types.Type, vs []Value) error {
	if len(vs) == 1 && p.style == replStyle && p.limit > 0 && vs[0].Len() > int64(p.limit) && anyLongDim(vs, edgeItems(p.limit, vs)) {
		if h, ok, err := shownOnly(vs[0], edgeItems(p.limit, vs)); err != nil {
			return err
		} else if ok {
			vs = []Value{h}
		}
	}
	vs, err := hostValues(vs)
	if err != nil {
		return err
	}
	if err := checkValues(t, vs); err != nil {
		return err
	}
	return p.value(t, vs, false)
}

// value prints a value of type t from vs, which checkValues has validated.
// summarising is true inside an array that is being elided.
func (p *printer) value(t types.Type, vs []Value, summarising bool) error {
	switch t := t.(type) {
	case types.Prim:
		p.scalar(vs[0], 0)
		return nil
	case *types.Tuple:
		if types.IsSum(t) {
			return p.sum(t, vs, summarising)
		}
		open, close := byte('('), byte(')')
		if t.Names != nil {
			open, close = '{', '}' // a record: {a = 1, b = 2}, as Futhark prints it
		}
		p.b.WriteByte(open)
		for i, e := range t.Elems {
			if i > 0 {
				p.b.WriteString(", ")
			}
			if t.Names != nil {
				p.b.WriteString(t.Names[i] + " = ")
			}
			n := leafCount(e)
			if err := p.value(e, vs[:n], summarising); err != nil {
				return err
			}
			vs = vs[n:]
		}
		p.b.WriteByte(close)
		return nil
	case *types.Array:
		return p.array(t, vs, summarising)
	case *types.Arrow:
		return fmt.Errorf("a function of type %s has no printable value", t)
	}
	return fmt.Errorf("internal error: printing a value of unknown type %T", t)
}

func (p *printer) array(t *types.Array, vs []Value, summarising bool) error {
	shape := outerShape(t, vs)
	if product(shape) == 0 {
		p.b.WriteString("empty(")
		p.b.WriteString(shapeString(shape))
		p.b.WriteString(elemString(t.Elem, vs, len(shape)))
		p.b.WriteByte(')')
		return nil
	}
	elided := false
	if !summarising && p.style == replStyle && p.limit > 0 && totalLen(vs) > int64(p.limit) {
		// The type suffix marks that rows were left out; an array over
		// the limit whose dimensions are all short prints whole.
		p.edge = edgeItems(p.limit, vs)
		summarising, elided = true, anyLongDim(vs, p.edge)
	}
	var row types.Type = t.Elem
	if len(t.Dims) > 1 {
		row = &types.Array{Elem: t.Elem, Dims: t.Dims[1:]}
	}
	n := shape[0]
	p.b.WriteByte('[')
	rows := make([]Value, len(vs))
	for i := int64(0); i < n; i++ {
		if summarising && n > 2*p.edge && i == p.edge {
			p.b.WriteString(", ...")
			i = n - p.edge
		}
		if i > 0 {
			p.b.WriteString(", ")
		}
		for j, v := range vs {
			rows[j] = rowOf(v, i)
		}
		if err := p.value(row, rows, summarising); err != nil {
			return err
		}
	}
	p.b.WriteByte(']')
	if elided {
		p.b.WriteString(" : ")
		p.b.WriteString(shapeString(shape))
		p.b.WriteString(elemString(t.Elem, vs, len(shape)))
	}
	return nil
}

// scalar prints element i of v.
func (p *printer) scalar(v Value, i int64) {
	p.b.WriteString(formatElem(v.Elem, v.Data, i, p.style))
}

// formatElem renders element i of a typed slice.
func formatElem(t core.PrimType, data any, i int64, st style) string {
	suffix := ""
	if st == runStyle {
		suffix = t.String()
	}
	switch d := data.(type) {
	case []bool:
		return strconv.FormatBool(d[i])
	case []int8:
		return strconv.FormatInt(int64(d[i]), 10) + suffix
	case []int16:
		return strconv.FormatInt(int64(d[i]), 10) + suffix
	case []int32:
		return strconv.FormatInt(int64(d[i]), 10) + suffix
	case []int64:
		return strconv.FormatInt(d[i], 10) + suffix
	case []uint8:
		return strconv.FormatUint(uint64(d[i]), 10) + suffix
	case []uint16:
		return strconv.FormatUint(uint64(d[i]), 10) + suffix
	case []uint32:
		return strconv.FormatUint(uint64(d[i]), 10) + suffix
	case []uint64:
		return strconv.FormatUint(d[i], 10) + suffix
	case []float32:
		if t == core.F16 { // an f16 is held as the float32 of the same value
			return formatFloat(float64(d[i]), 16, st)
		}
		return formatFloat(float64(d[i]), 32, st)
	case []float64:
		return formatFloat(d[i], 64, st)
	}
	return fmt.Sprintf("<bad %T>", data)
}

// formatFloat prints x (of the given bit size) as Futhark does.
func formatFloat(x float64, bits int, st style) string {
	typ := "f" + strconv.Itoa(bits)
	switch {
	case math.IsNaN(x):
		if st == runStyle {
			return typ + ".nan"
		}
		return "nan"
	case math.IsInf(x, 1):
		if st == runStyle {
			return typ + ".inf"
		}
		return "inf"
	case math.IsInf(x, -1):
		if st == runStyle {
			return "-" + typ + ".inf"
		}
		return "-inf"
	}
	s := shortestFloat(x, bits)
	if st == runStyle {
		s += typ
	}
	return s
}

// shortestFloat renders a finite float with the fewest digits that round
// trip, in Haskell's show layout: fixed notation with at least one digit
// after the point in [0.1, 10^7), else d.ddde±x with no '+' and no padding.
func shortestFloat(x float64, bits int) string {
	if bits == 16 {
		// The fewest digits that read back as the same half, in the
		// layout below (strconv knows no 16-bit floats).
		x, _ = strconv.ParseFloat(core.FormatHalf(x), 64)
		bits = 64
	}
	a := math.Abs(x)
	if a == 0 || (a >= 0.1 && a < 1e7) {
		s := strconv.FormatFloat(x, 'f', -1, bits)
		if !strings.ContainsRune(s, '.') {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(x, 'e', -1, bits)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.ContainsRune(mant, '.') {
		mant += ".0"
	}
	e, err := strconv.Atoi(exp)
	if err != nil {
		return s
	}
	return mant + "e" + strconv.Itoa(e)
}

// ---------------------------------------------------------------------------
// Walking the tuple-of-arrays representation

// leafCount is the number of flat Values that a value of type t occupies.
func leafCount(t types.Type) int {
	switch t := t.(type) {
	case *types.Tuple:
		n := 0
		for _, e := range t.Elems {
			n += leafCount(e)
		}
		return n
	case *types.Array:
		return leafCount(t.Elem)
	}
	return 1
}

// Leaf is one flat component of a source type: its primitive element type
// and its rank (outer array dimensions included).
type Leaf struct {
	Elem core.PrimType
	Rank int
	// Dims are the component's dimensions as the source type states them,
	// outermost first (len(Dims) == Rank).
	Dims []types.Dim
}

// Leaves lists the flat components of a value of source type t, in the
// order of Session values: `(i32, [n](f64, bool))` is i32, [n]f64, [n]bool.
// It fails on function types and unresolved type variables.
func Leaves(t types.Type) ([]Leaf, error) {
	var out []Leaf
	var walk func(t types.Type, outer []types.Dim) error
	walk = func(t types.Type, outer []types.Dim) error {
		switch t := t.(type) {
		case types.Prim:
			out = append(out, Leaf{Elem: t.T, Rank: len(outer), Dims: outer})
			return nil
		case *types.Tuple:
			for _, e := range t.Elems {
				if err := walk(e, outer); err != nil {
					return err
				}
			}
			return nil
		case *types.Array:
			dims := append(append([]types.Dim(nil), outer...), t.Dims...)
			return walk(t.Elem, dims)
		case *types.Arrow:
			return fmt.Errorf("a function of type %s has no value representation", t)
		}
		return fmt.Errorf("type %v has no value representation", t)
	}
	if err := walk(t, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// checkValues verifies that vs is a well-formed value of type t, so that
// the printers can index without further checks: one Value per leaf, with
// the leaf's element type and rank, data of the right Go type and length,
// and components of an array of tuples sharing the array's outer shape.
func checkValues(t types.Type, vs []Value) error {
	leaves, err := Leaves(t)
	if err != nil {
		return err
	}
	if len(leaves) != len(vs) {
		return fmt.Errorf("internal error: a value of type %s has %d components, got %d", t, len(leaves), len(vs))
	}
	for i, l := range leaves {
		v := vs[i]
		if v.Elem != l.Elem || len(v.Shape) != l.Rank {
			return fmt.Errorf("internal error: component %d of a value of type %s is %s, want %s",
				i, t, v.Type(), core.ArrayOf(l.Elem, l.Rank))
		}
		if err := checkData(v); err != nil {
			return fmt.Errorf("internal error: component %d of a value of type %s: %v", i, t, err)
		}
	}
	return checkOuter(t, vs)
}

// checkOuter checks that every component of each array of tuples in t
// shares the array's outer dimensions.
func checkOuter(t types.Type, vs []Value) error {
	switch t := t.(type) {
	case *types.Tuple:
		for _, e := range t.Elems {
			n := leafCount(e)
			if err := checkOuter(e, vs[:n]); err != nil {
				return err
			}
			vs = vs[n:]
		}
	case *types.Array:
		k := len(t.Dims)
		for _, v := range vs[1:] {
			if !equalShape(v.Shape[:k], vs[0].Shape[:k]) {
				return fmt.Errorf("internal error: components of an array of type %s have shapes %v and %v",
					t, vs[0].Shape, v.Shape)
			}
		}
	}
	return nil
}

// checkData checks that v's data is a slice of its element type holding
// exactly the product of its shape.
func checkData(v Value) error {
	for _, d := range v.Shape {
		if d < 0 {
			return fmt.Errorf("negative dimension in shape %v", v.Shape)
		}
	}
	elem, n, ok := sliceInfo(v.Data)
	if elem == core.F32 && v.Elem == core.F16 {
		elem = core.F16 // an f16 is held as the float32 of the same value
	}
	if !ok || elem != v.Elem {
		return fmt.Errorf("data of Go type %T for elements of type %s", v.Data, v.Elem)
	}
	if int64(n) != v.Len() {
		return fmt.Errorf("%d elements for shape %v", n, v.Shape)
	}
	return nil
}

// sliceInfo is the element type and length of a typed slice of
// Value.Data; ok is false for anything else.
func sliceInfo(data any) (elem core.PrimType, n int, ok bool) {
	switch d := data.(type) {
	case []bool:
		return core.Bool, len(d), true
	case []int8:
		return core.I8, len(d), true
	case []int16:
		return core.I16, len(d), true
	case []int32:
		return core.I32, len(d), true
	case []int64:
		return core.I64, len(d), true
	case []uint8:
		return core.U8, len(d), true
	case []uint16:
		return core.U16, len(d), true
	case []uint32:
		return core.U32, len(d), true
	case []uint64:
		return core.U64, len(d), true
	case []float32:
		return core.F32, len(d), true
	case []float64:
		return core.F64, len(d), true
	}
	return 0, 0, false
}

// Row is row i of the host array v (a Value of rank one less), sharing its
// storage.
func Row(v Value, i int64) Value { return rowOf(v, i) }

// rowOf is row i of array v (a Value of rank one less), sharing storage.
func rowOf(v Value, i int64) Value {
	rest := v.Shape[1:]
	n := product(rest)
	return Value{Elem: v.Elem, Shape: rest, Data: SliceData(v.Data, int(i*n), int((i+1)*n))}
}

// shownOnly fetches, from a device array that the printer will elide, only
// the elements it shows (EdgeItems rows at each end of every long
// dimension), into a host slice of the array's full length whose other
// elements stay zero and are never read. A fresh slice that large is
// address space, not memory: the pages nobody writes are never touched.
// ok is false when the array is on the host or cannot copy ranges.
func shownOnly(v Value, edge int64) (Value, bool, error) {
	rr, ok := v.Dev.(RangeReader)
	if v.Data != nil || !ok || len(v.Shape) == 0 {
		return v, false, nil
	}
	data := makeSlice(v.Elem, int(v.Len()))
	last := v.Shape[len(v.Shape)-1]
	// Runs along the last dimension: its shown stretches, at every shown
	// position of the outer dimensions.
	var runs [][2]int64
	for _, i := range shownIndices(last, true, edge) {
		if i < 0 {
			continue
		}
		if k := len(runs) - 1; k >= 0 && runs[k][1] == i {
			runs[k][1]++
		} else {
			runs = append(runs, [2]int64{i, i + 1})
		}
	}
	var walk func(k int, base int64) error
	walk = func(k int, base int64) error {
		if k == len(v.Shape)-1 {
			for _, r := range runs {
				if err := rr.ReadRange(context.Background(), data, base*last+r[0], r[1]-r[0]); err != nil {
					return err
				}
			}
			return nil
		}
		for _, i := range shownIndices(v.Shape[k], true, edge) {
			if i >= 0 {
				if err := walk(k+1, base*v.Shape[k]+i); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(0, 0); err != nil {
		return v, false, err
	}
	v.Data = data
	return v, true, nil
}

// hostValues fetches any device-resident values to the host.
func hostValues(vs []Value) ([]Value, error) {
	out, copied := vs, false
	for i, v := range vs {
		if v.Data != nil || v.Dev == nil {
			continue
		}
		if !copied {
			out, copied = append([]Value(nil), vs...), true
		}
		h, err := v.Host(context.Background())
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// outerShape is the actual shape of the outer dimensions of array type t.
// An array of a tuple with no components has no Value to ask, so its
// dimensions come from the type (constants) or are taken as empty.
func outerShape(t *types.Array, vs []Value) []int64 {
	if len(vs) > 0 {
		return vs[0].Shape[:len(t.Dims)]
	}
	shape := make([]int64, len(t.Dims))
	for i, d := range t.Dims {
		shape[i] = max(d.Const, 0)
	}
	return shape
}

// elemString is the element type of an array for `empty(...)` and elision
// suffixes; inner arrays inside tuple elements take their actual sizes.
func elemString(elem types.Type, vs []Value, outer int) string {
	if _, ok := elem.(*types.Tuple); !ok || len(vs) == 0 {
		return elem.String()
	}
	return withShapes(elem, vs, outer)
}

// withShapes renders type t with array dimensions replaced by the sizes
// found in vs, skipping the outer dimensions that the caller printed.
func withShapes(t types.Type, vs []Value, outer int) string {
	switch t := t.(type) {
	case *types.Tuple:
		parts := make([]string, len(t.Elems))
		for i, e := range t.Elems {
			n := leafCount(e)
			parts[i] = withShapes(e, vs[:n], outer)
			vs = vs[n:]
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *types.Array:
		if len(vs) == 0 {
			return t.String()
		}
		k := len(t.Dims)
		return shapeString(vs[0].Shape[outer:outer+k]) + withShapes(t.Elem, vs, outer+k)
	}
	return t.String()
}

func shapeString(shape []int64) string {
	var b strings.Builder
	for _, d := range shape {
		fmt.Fprintf(&b, "[%d]", d)
	}
	return b.String()
}

// anyLongDim reports whether some dimension of some component is long
// enough to be elided.
func anyLongDim(vs []Value, edge int64) bool {
	for _, v := range vs {
		for _, d := range v.Shape {
			if d > 2*edge {
				return true
			}
		}
	}
	return false
}

func product(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

func totalLen(vs []Value) int64 {
	var n int64
	for _, v := range vs {
		n += v.Len()
	}
	return n
}

func equalShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// arrayOf is the type of an array with dims whose elements have type e.
func arrayOf(e types.Type, dims []types.Dim) types.Type {
	if a, ok := e.(*types.Array); ok {
		return &types.Array{Elem: a.Elem, Dims: append(append([]types.Dim(nil), dims...), a.Dims...)}
	}
	return &types.Array{Elem: e, Dims: dims}
}

// typeOfValue is the source type of a single flat Value, with its actual
// sizes as constant dimensions.
func typeOfValue(v Value) types.Type {
	if len(v.Shape) == 0 {
		return types.Prim{T: v.Elem}
	}
	dims := make([]types.Dim, len(v.Shape))
	for i, d := range v.Shape {
		dims[i] = types.Dim{Const: d}
	}
	return &types.Array{Elem: types.Prim{T: v.Elem}, Dims: dims}
}

// ---------------------------------------------------------------------------
// HTML tables

// shownIndices lists the indices of a dimension of length n that an elided
// rendering shows; -1 marks the gap.
func shownIndices(n int64, elide bool, edge int64) []int64 {
	var idx []int64
	for i := int64(0); i < n; i++ {
		if elide && n > 2*edge && i == edge {
			idx = append(idx, -1)
			i = n - edge
		}
		idx = append(idx, i)
	}
	return idx
}

// htmlTable1 renders a 1-D array (of primitives or of tuples of
// primitives) as a horizontal strip: a header row of indices, then one row
// per component. A strip reads like the array literal and takes a line or
// two of a notebook, where a column of one row per element pushed the
// rest of the output out of sight.
func htmlTable1(t *types.Array, vs []Value, limit int) (string, bool) {
	for _, v := range vs {
		if len(v.Shape) != 1 {
			return "", false
		}
	}
	n := vs[0].Shape[0]
	elide := limit > 0 && totalLen(vs) > int64(limit)
	idx := shownIndices(n, elide, edgeItems(limit, vs))
	var b strings.Builder
	tableHead(&b, t, vs)
	b.WriteString("<thead><tr><th></th>")
	for _, i := range idx {
		if i < 0 {
			b.WriteString("<th>…</th>")
		} else {
			fmt.Fprintf(&b, "<th>%d</th>", i)
		}
	}
	b.WriteString("</tr></thead><tbody>")
	for j, v := range vs {
		if len(vs) == 1 {
			b.WriteString("<tr><th>value</th>")
		} else {
			fmt.Fprintf(&b, "<tr><th>.%d</th>", j)
		}
		for _, i := range idx {
			if i < 0 {
				b.WriteString("<td>…</td>")
				continue
			}
			b.WriteString("<td>" + html.EscapeString(formatElem(v.Elem, v.Data, i, replStyle)) + "</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String(), true
}

// htmlTable2 renders a 2-D array of primitives with row and column headers.
func htmlTable2(t *types.Array, v Value, limit int) string {
	rows, cols := v.Shape[0], v.Shape[1]
	elide := limit > 0 && v.Len() > int64(limit)
	edge := edgeItems(limit, []Value{v})
	colIdx := shownIndices(cols, elide, edge)
	var b strings.Builder
	tableHead(&b, t, []Value{v})
	b.WriteString("<thead><tr><th></th>")
	for _, j := range colIdx {
		if j < 0 {
			b.WriteString("<th>…</th>")
		} else {
			fmt.Fprintf(&b, "<th>%d</th>", j)
		}
	}
	b.WriteString("</tr></thead><tbody>")
	for _, i := range shownIndices(rows, elide, edge) {
		if i < 0 {
			b.WriteString("<tr><th>⋮</th>")
			for range colIdx {
				b.WriteString("<td>⋮</td>")
			}
			b.WriteString("</tr>")
			continue
		}
		fmt.Fprintf(&b, "<tr><th>%d</th>", i)
		for _, j := range colIdx {
			if j < 0 {
				b.WriteString("<td>…</td>")
				continue
			}
			s := formatElem(v.Elem, v.Data, i*cols+j, replStyle)
			b.WriteString("<td>" + html.EscapeString(s) + "</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// tableHead opens a table whose caption is the array's actual type.
func tableHead(b *strings.Builder, t *types.Array, vs []Value) {
	shape := outerShape(t, vs)
	caption := shapeString(shape) + elemString(t.Elem, vs, len(shape))
	b.WriteString(`<table class="arepl-array"><caption>`)
	b.WriteString(html.EscapeString(caption))
	b.WriteString("</caption>")
}
