package gpu

// Index ranges: the bounds checks of a segmented map that hold for every
// thread of a launch, decided once per thread instead of once per read.
//
// A stencil reads a[max(i-1, 0), j], a[min(i+1, n-1), j], ... with i and j
// the indices of the nest's levels: each read's check costs a few 64-bit
// compares and a branch, a good part of the kernel's instructions (ncu:
// about 134 instructions a point, issue-bound; bench/RESULTS.md). Here
// every i64 variable the body computes by +, -, min and max from the
// levels' indices, constants and the kernel's scalar parameters gets an
// interval [lo, hi] written as C expressions over values every thread has
// at its start (parameters, array dimensions, the index space's sizes). A
// read a[x, y] of a kernel parameter array is then in bounds for every
// point when lo(x) >= 0 && hi(x) < a_d0 and likewise for y: conditions
// that do not depend on the point. segmap.go emits the body twice, with and
// without the checks these conditions cover, and each thread runs the
// unchecked one when all of them hold (ar_fast). Any other computation, a
// loop parameter, a thread-local array's size, has no interval, and its
// check stays.

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

// interval is a closed range of an i64 variable, as C expressions over
// kernel-uniform values. The bounds of a sum or difference are themselves
// i64 sums, which wrap for extreme parameters (an offset near 2^63 would
// make hi negative and pass hi < n while the reads run far out of bounds):
// guard holds the conditions under which no bound wrapped, and every
// condition built on the interval requires them too.
type interval struct {
	lo, hi string
	guard  []string
}

// noWrap bounds every operand of a sum of intervals by 2^61 in magnitude,
// so that the sum's bounds (within 2^62) are exact in i64 and may be
// operands again.
const noWrapBound = "2305843009213693952LL"

// sum is the interval with bounds lo and hi computed from a and b by an
// addition or subtraction: a's and b's guards, and theirs bounds' limits.
func sum(a, b interval, lo, hi string) interval {
	g := append(append([]string{}, a.guard...), b.guard...)
	for _, x := range []string{a.lo, a.hi, b.lo, b.hi} {
		g = append(g, fmt.Sprintf("%s >= -%s && %s <= %s", x, noWrapBound, x, noWrapBound))
	}
	return interval{lo: lo, hi: hi, guard: g}
}

// within is the interval of a min or max of a and b: no new arithmetic,
// but both operands' guards.
func within(a, b interval, lo, hi string) interval {
	return interval{lo: lo, hi: hi, guard: append(append([]string{}, a.guard...), b.guard...)}
}

// rangeSet tracks intervals while an emitter renders a body (see above).
type rangeSet struct {
	uniform map[string]bool     // core names of the kernel's parameters (scalars and arrays)
	vars    map[string]interval // by core name
	elide   bool                // render reads without the checks the conditions cover
	pre     []string            // the conditions the elided checks need
	// narrow, with elide, also renders the i64 arithmetic that has
	// intervals, and the offsets of the reads it proves in bounds, in
	// 32 bits, adding the conditions that make that exact (narrowOp,
	// narrowRead): 64-bit adds, min/max and multiplies are two to four
	// instructions each, and a stencil's index math was most of its
	// 134 instructions a point.
	narrow bool
	seen   map[string]bool // conditions already in pre
}

func newRangeSet(env []*core.Var) *rangeSet {
	rs := &rangeSet{uniform: map[string]bool{}, vars: map[string]interval{}, seen: map[string]bool{}}
	for _, v := range env {
		rs.uniform[v.Name] = true
	}
	return rs
}

// of is a's interval, if it has one.
func (rs *rangeSet) of(a core.Atom) (interval, bool) {
	switch a := a.(type) {
	case core.Const:
		return constInterval(a)
	case *core.Const:
		return constInterval(*a)
	case *core.Var:
		if iv, ok := rs.vars[a.Name]; ok {
			return iv, true
		}
		if rs.uniform[a.Name] && !a.Type.IsArray() && a.Type.Elem == core.I64 {
			c := cname(a.Name)
			return interval{lo: c, hi: c}, true
		}
	}
	return interval{}, false
}

func constInterval(c core.Const) (interval, bool) {
	if c.T != core.I64 {
		return interval{}, false
	}
	s := fmt.Sprintf("((i64)%dLL)", c.Int())
	return interval{lo: s, hi: s}, true
}

// note records the interval of what s binds, where it has one.
func (rs *rangeSet) note(s *core.Stmt) {
	if len(s.Pat) != 1 || s.Pat[0].Type.IsArray() || s.Pat[0].Type.Elem != core.I64 {
		return
	}
	name := s.Pat[0].Name
	switch x := s.Exp.(type) {
	case *core.AtomExp:
		if iv, ok := rs.of(x.A); ok {
			rs.vars[name] = iv
		}
	case *core.SizeExp:
		if rs.uniform[x.Arr.Name] {
			d := fmt.Sprintf("%s_d%d", cname(x.Arr.Name), x.Dim)
			rs.vars[name] = interval{lo: d, hi: d}
		}
	case *core.BinOpExp:
		if x.T != core.I64 {
			return
		}
		a, ok1 := rs.of(x.X)
		b, ok2 := rs.of(x.Y)
		if !ok1 || !ok2 {
			return
		}
		switch x.Op {
		case core.Add:
			rs.vars[name] = sum(a, b, "("+a.lo+" + "+b.lo+")", "("+a.hi+" + "+b.hi+")")
		case core.Sub:
			rs.vars[name] = sum(a, b, "("+a.lo+" - "+b.hi+")", "("+a.hi+" - "+b.lo+")")
		case core.Min:
			rs.vars[name] = within(a, b, "min_i64("+a.lo+", "+b.lo+")", "min_i64("+a.hi+", "+b.hi+")")
		case core.Max:
			rs.vars[name] = within(a, b, "max_i64("+a.lo+", "+b.lo+")", "max_i64("+a.hi+", "+b.hi+")")
		}
	}
}

// covered reports whether index a into dimension dim of array arr is in
// bounds whenever a condition on uniform values holds, and records that
// condition; only while eliding, and only for the kernel's own arrays.
func (rs *rangeSet) covered(arr *core.Var, dim int, a core.Atom) bool {
	if rs == nil || !rs.elide || !rs.uniform[arr.Name] {
		return false
	}
	iv, ok := rs.of(a)
	if !ok {
		return false
	}
	for _, g := range iv.guard {
		rs.need(g)
	}
	rs.pre = append(rs.pre, fmt.Sprintf("%s >= 0 && %s < %s_d%d", iv.lo, iv.hi, cname(arr.Name), dim))
	return true
}

// need records condition c once.
func (rs *rangeSet) need(c string) {
	if !rs.seen[c] {
		rs.seen[c] = true
		rs.pre = append(rs.pre, c)
	}
}

// fits32 records that interval iv lies within int32 (one below its least
// value, so that negation cannot overflow either).
func (rs *rangeSet) fits32(iv interval) {
	for _, g := range iv.guard {
		rs.need(g)
	}
	rs.need(fmt.Sprintf("%s >= -2147483647LL && %s <= 2147483647LL", iv.lo, iv.hi))
}

// narrowOp renders x, the i64 operation binding name with operands
// rendered a and b, in 32-bit arithmetic, when narrowing and when the
// operands and the result have intervals: under the conditions it records
// (each of the three fits in int32) the 32-bit result is the 64-bit one.
// Signed C arithmetic, so that the compiler may fold constant offsets
// into addresses.
func (rs *rangeSet) narrowOp(x *core.BinOpExp, name, a, b string) (string, bool) {
	if rs == nil || !rs.narrow || x.T != core.I64 {
		return "", false
	}
	r, ok := rs.vars[name]
	ia, ok1 := rs.of(x.X)
	ib, ok2 := rs.of(x.Y)
	if !ok || !ok1 || !ok2 {
		return "", false
	}
	a, b = "(i32)"+a, "(i32)"+b
	var c string
	switch x.Op {
	case core.Add:
		c = a + " + " + b
	case core.Sub:
		c = a + " - " + b
	case core.Min:
		c = fmt.Sprintf("(%s < %s ? %s : %s)", a, b, a, b)
	case core.Max:
		c = fmt.Sprintf("(%s > %s ? %s : %s)", a, b, a, b)
	default:
		return "", false
	}
	rs.fits32(ia)
	rs.fits32(ib)
	rs.fits32(r)
	return c, true
}

// narrowRead reports whether a read of kernel array arr whose every index
// is covered may compute its offset in 32 bits, and records the condition
// that makes it exact: the array has fewer than 2^31 elements, so every
// offset in bounds fits (the product is taken in double, exact below 2^53
// and monotone above, so it cannot wrap).
func (rs *rangeSet) narrowRead(arr *core.Var) bool {
	if rs == nil || !rs.narrow || !rs.elide || !rs.uniform[arr.Name] {
		return false
	}
	var p []string
	for q := 0; q < arr.Type.Rank; q++ {
		p = append(p, fmt.Sprintf("(double)%s_d%d", cname(arr.Name), q))
	}
	if len(p) == 0 {
		return false
	}
	rs.need(strings.Join(p, " * ") + " < 2147483648.0")
	return true
}
