// Package core is arepl's typed intermediate representation: A-normal form
// after Futhark's IR (IR/Syntax.hs, IR/SOACS/SOAC.hs).
//
// A Body is a sequence of statements followed by result atoms; every
// statement binds a pattern of variables to one expression whose operands
// are atoms (a variable or a constant), so evaluation order and every
// intermediate array are explicit. Types are primitives or arrays of
// primitives: source tuples are gone (a tuple is several variables, an array
// of tuples is several arrays), and so are higher-order functions (lowering
// inlines every function value; only first-order, possibly recursive
// functions remain as Funs).
//
// Data parallelism lives in the SOACs. Screma is the one map-scan-reduce
// form: a map lambda applied to each element of its input arrays whose
// results feed scans, reductions and map-out arrays; `map`, `reduce`, `scan`,
// redomap and scanomap are its special cases, which is what lets fusion
// compose them (package fusion). Hist, Scatter and Filter are the other
// SOACs, and Segmented wraps a Screma applied to every row of its inputs
// (the regular segmented scan/reduce of the seeds).
//
// Every Stmt carries the source position it came from, so run-time errors
// (bounds, division by zero, negative iota, size mismatches) name the line
// and column of the user's program on every backend.
package core

import (
	"fmt"
	"math"
	"strings"

	"github.com/arepl/arepl/lang/source"
)

// PrimType is a primitive scalar type.
type PrimType uint8

const (
	Bool PrimType = iota
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F32
	F64
	F16 // after F64: PrimType values index tables and feed IR fingerprints
)

// PrimTypes lists every primitive type, in declaration order.
var PrimTypes = []PrimType{Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, F16}

// NumPrims is the number of primitive types: the size of tables indexed by PrimType.
const NumPrims = int(F16) + 1

var primNames = [...]string{"bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "f16"}

func (t PrimType) String() string {
	if int(t) < len(primNames) {
		return primNames[t]
	}
	return fmt.Sprintf("prim(%d)", t)
}

// PrimByName returns the primitive type named s ("i32", ...).
func PrimByName(s string) (PrimType, bool) {
	for i, n := range primNames {
		if n == s {
			return PrimType(i), true
		}
	}
	return 0, false
}

// IsInt reports whether t is a signed or unsigned integer type.
func (t PrimType) IsInt() bool { return t >= I8 && t <= U64 }

// IsSigned reports whether t is a signed integer type.
func (t PrimType) IsSigned() bool { return t >= I8 && t <= I64 }

// IsUnsigned reports whether t is an unsigned integer type.
func (t PrimType) IsUnsigned() bool { return t >= U8 && t <= U64 }

// IsFloat reports whether t is f16, f32 or f64.
func (t PrimType) IsFloat() bool { return t == F32 || t == F64 || t == F16 }

// Size is the size of one element in bytes (bool is one byte).
func (t PrimType) Size() int {
	switch t {
	case Bool, I8, U8:
		return 1
	case I16, U16, F16:
		return 2
	case I32, U32, F32:
		return 4
	case I64, U64, F64:
		return 8
	}
	panic("core: bad PrimType")
}

// Bits is the width of t in bits.
func (t PrimType) Bits() int { return 8 * t.Size() }

// Type is a primitive (Rank 0) or an array of primitives of the given rank.
// Array sizes are run-time values; where two arrays must have the same size
// the IR says so with an explicit width atom (Screma.W) or an Assert.
type Type struct {
	Elem PrimType
	Rank int
}

// Scalar returns the rank-0 type of t.
func Scalar(t PrimType) Type { return Type{Elem: t} }

// ArrayOf returns the type of an array of rank r of t.
func ArrayOf(t PrimType, r int) Type { return Type{Elem: t, Rank: r} }

// IsArray reports whether the type has rank > 0.
func (t Type) IsArray() bool { return t.Rank > 0 }

// Row is the type of one element of an array of type t (rank minus one).
func (t Type) Row() Type { return Type{Elem: t.Elem, Rank: t.Rank - 1} }

// Lift is the type of an array whose elements have type t.
func (t Type) Lift() Type { return Type{Elem: t.Elem, Rank: t.Rank + 1} }

func (t Type) String() string {
	s := ""
	for i := 0; i < t.Rank; i++ {
		s += "[]"
	}
	return s + t.Elem.String()
}

// ---------------------------------------------------------------------------
// Atoms

// Atom is an operand: a *Var or a Const.
type Atom interface {
	AtomType() Type
	atom()
}

// Var is a variable. Names are unique within a Fun (lowering appends a tag:
// "xs_12"), so passes may rename and substitute without capture. The type
// travels with every reference, so backends never need an environment to
// know an operand's type.
type Var struct {
	Name string
	Type Type
}

// AtomType returns the variable's type.
func (v *Var) AtomType() Type { return v.Type }
func (v *Var) String() string { return v.Name }
func (*Var) atom()            {}

// Const is a primitive constant. Bits holds the value: integers
// sign-extended (signed) or zero-extended (unsigned) to 64 bits, f64 as
// math.Float64bits, f32 and f16 as math.Float64bits of the (exactly
// representable) f32 or f16 value, bool as 0 or 1.
type Const struct {
	T    PrimType
	Bits uint64
}

// AtomType returns the constant's (scalar) type.
func (c Const) AtomType() Type { return Scalar(c.T) }
func (Const) atom()            {}

// IntConst returns the constant v of integer type t, wrapped to t's width.
func IntConst(t PrimType, v int64) Const { return Const{T: t, Bits: Wrap(t, uint64(v))} }

// NaN is Futhark's f64.nan (C's NAN): the positive quiet NaN with no
// payload, 0x7ff8000000000000, whose f32 is 0x7fc00000. Go's math.NaN()
// has a payload of 1, which to_bits would show.
func NaN() float64 { return math.Float64frombits(0x7ff8000000000000) }

// FloatConst returns the constant v of float type t (rounded to f32 for F32,
// to binary16 for F16).
func FloatConst(t PrimType, v float64) Const {
	switch t {
	case F32:
		v = float64(float32(v))
	case F16:
		v = RoundHalf(v)
	}
	return Const{T: t, Bits: math.Float64bits(v)}
}

// BoolConst returns true or false.
func BoolConst(b bool) Const {
	if b {
		return Const{T: Bool, Bits: 1}
	}
	return Const{T: Bool}
}

// Int returns the value of a signed or unsigned integer constant as int64.
func (c Const) Int() int64 { return int64(c.Bits) }

// Float returns the value of a float constant.
func (c Const) Float() float64 { return math.Float64frombits(c.Bits) }

// Bool returns the value of a bool constant.
func (c Const) Bool() bool { return c.Bits != 0 }

func (c Const) String() string {
	switch {
	case c.T == Bool:
		return fmt.Sprint(c.Bool())
	case c.T.IsFloat():
		return fmt.Sprintf("%v%s", c.Float(), c.T)
	case c.T.IsUnsigned():
		return fmt.Sprintf("%d%s", c.Bits, c.T)
	}
	return fmt.Sprintf("%d%s", c.Int(), c.T)
}

// Wrap truncates v to the width of integer type t and re-extends it to 64
// bits (sign-extension for signed types), which is Futhark's wrapping
// integer arithmetic.
func Wrap(t PrimType, v uint64) uint64 {
	switch t {
	case I8:
		return uint64(int64(int8(v)))
	case I16:
		return uint64(int64(int16(v)))
	case I32:
		return uint64(int64(int32(v)))
	case U8:
		return uint64(uint8(v))
	case U16:
		return uint64(uint16(v))
	case U32:
		return uint64(uint32(v))
	case Bool:
		return v & 1
	}
	return v
}

// ---------------------------------------------------------------------------
// Programs, functions, bodies, statements

// Program is a set of first-order functions. Entry points and the
// functions the REPL evaluates are among them.
type Program struct {
	Funs []*Fun
}

// Fun returns the function called name, or nil.
func (p *Program) Fun(name string) *Fun {
	for _, f := range p.Funs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Fun is a first-order function. Ret lists the result types (a source
// tuple result is several results).
type Fun struct {
	Name   string
	Params []*Var
	Ret    []Type
	Body   *Body
	Entry  bool
	Pos    source.Pos
}

// Body is statements followed by the result atoms.
type Body struct {
	Stmts  []*Stmt
	Result []Atom
}

// Stmt binds the variables of Pat to the results of Exp, in order.
type Stmt struct {
	Pat []*Var
	Exp Exp
	Pos source.Pos
}

// Lambda is an anonymous first-order function used by SOACs and loops.
type Lambda struct {
	Params []*Var
	Body   *Body
	Ret    []Type
}

// ---------------------------------------------------------------------------
// Expressions

// Exp is the right-hand side of a statement. The set of expressions is
// closed: every consumer switches over all of them.
type Exp interface {
	exp()
}

// AtomExp is an atom (a copy of a variable or a constant).
type AtomExp struct{ A Atom }

// BinOpExp applies a binary scalar operator. T is the operand type; the
// result type is Bool for comparisons and T otherwise.
type BinOpExp struct {
	Op   BinOp
	T    PrimType
	X, Y Atom
}

// UnOpExp applies a unary scalar operator or math function.
type UnOpExp struct {
	Op UnOp
	T  PrimType
	X  Atom
}

// ConvExp converts a scalar between primitive types (Futhark's
// `i64.i32`, `f32.i64`, `bool.i32`, ... ; float to int truncates toward
// zero, int to int wraps).
type ConvExp struct {
	From, To PrimType
	X        Atom
}

// IfExp is `if Cond then Then else Else`; the branches' results are the
// statement's pattern.
type IfExp struct {
	Cond       Atom
	Then, Else *Body
	Ret        []Type
}

// LoopExp is a sequential loop. Params are the loop-carried (merge)
// variables, initialised from Init; Body computes their next values. For a
// ForLoop, I ranges over 0..Bound-1 (Bound's integer type). For a
// WhileLoop, Cond is one of Params, re-computed by Body each iteration.
type LoopExp struct {
	Params []*Var
	Init   []Atom
	Form   LoopForm
	Body   *Body
}

// LoopForm is ForLoop or WhileLoop.
type LoopForm interface{ loopForm() }

// ForLoop iterates I from 0 to Bound-1.
type ForLoop struct {
	I     *Var
	Bound Atom
}

// WhileLoop iterates while Cond (a loop parameter) is true.
type WhileLoop struct {
	Cond *Var
}

func (ForLoop) loopForm()   {}
func (WhileLoop) loopForm() {}

// DimIndex is one component of an index: a fixed position (Fix non-nil)
// or a slice start:end:stride (Fix nil; Start, End, Stride always set by
// lowering, with defaults made explicit). Omit records which parts the
// source left out, only so that an out-of-bounds error shows the slice as
// it was written (Futhark's `Index [2:5]`, `Index [1:]`).
type DimIndex struct {
	Fix                *Atom
	Start, End, Stride Atom
	Omit               Omitted
}

// Omitted is the set of slice parts that the source did not write.
type Omitted uint8

const (
	OmitStart Omitted = 1 << iota
	OmitEnd
	OmitStride
)

// SliceText is a slice with start i, end j and stride s as Futhark's
// index errors show it: the parts as written, with the values they had
// (`2:5`, `:5`, `1::2`, `3:`); an omitted start still shows its value when
// nothing follows it, as Futhark's does.
func (o Omitted) SliceText(i, j, s int64) string {
	opt := func(part Omitted, v int64) string {
		if o&part != 0 {
			return ""
		}
		return fmt.Sprint(v)
	}
	switch {
	case o&OmitStride == 0:
		return opt(OmitStart, i) + ":" + opt(OmitEnd, j) + ":" + fmt.Sprint(s)
	case o&OmitEnd == 0:
		return opt(OmitStart, i) + ":" + fmt.Sprint(j)
	default:
		return fmt.Sprint(i) + ":"
	}
}

// IndexExp indexes or slices an array: `a[i]`, `a[i, j]`, `a[i:j:s]`.
// Dimensions not mentioned are taken whole. Out-of-bounds indices are a
// run-time error at the statement's position.
type IndexExp struct {
	Arr *Var
	Idx []DimIndex
}

// UpdateExp is `a with [idx] = v`: a copy of Arr with the indexed element
// or slice replaced (the in-place update of the source language).
type UpdateExp struct {
	Arr *Var
	Idx []DimIndex
	Val Atom
}

// SizeExp is the size of dimension Dim of Arr, as i64 (`length`).
type SizeExp struct {
	Arr *Var
	Dim int
}

// ArrayLitExp is `[e1, e2, ...]`; elements are scalars or arrays of equal
// shape (checked at run time: irregular arrays are an error). Elem is the
// type of one element, so empty literals are typed.
type ArrayLitExp struct {
	Elems []Atom
	Elem  Type
}

// IotaExp is `iota N` with element type T: Start, Start+Step, ...
type IotaExp struct {
	N, Start, Step Atom
	T              PrimType
}

// ReplicateExp is `replicate N V`.
type ReplicateExp struct {
	N Atom
	V Atom
}

// ReshapeExp gives Arr a new shape of the same element count (flatten,
// unflatten).
type ReshapeExp struct {
	Arr   *Var
	Shape []Atom
}

// TransposeExp swaps the two outermost dimensions.
type TransposeExp struct{ Arr *Var }

// ReverseExp reverses the outermost dimension.
type ReverseExp struct{ Arr *Var }

// RotateExp rotates the outermost dimension left by R (negative: right).
type RotateExp struct {
	R   Atom
	Arr *Var
}

// ConcatExp concatenates arrays along the outermost dimension.
type ConcatExp struct{ Arrs []*Var }

// CopyExp copies an array (so a later in-place update cannot alias).
type CopyExp struct{ Arr *Var }

// ApplyExp calls a (possibly recursive) function of the program.
type ApplyExp struct {
	Fun  string
	Args []Atom
	Ret  []Type
}

// AssertExp fails at run time with Msg when Cond is false (size
// mismatches, irregular results, negative sizes). It binds nothing.
type AssertExp struct {
	Cond Atom
	Msg  string
	// Args are i64 scalars whose values replace the %v verbs of Msg, in
	// order (Futhark's `Range 0..1..<-1 is invalid.`); where a backend
	// cannot read them (inside a GPU kernel) they show as "?".
	Args []Atom
}

// Message is Msg with the values of Args (as text) in place of its %v
// verbs; with vals nil, each shows as "?".
func (e *AssertExp) Message(vals []string) string {
	var b strings.Builder
	rest := e.Msg
	for i := 0; ; i++ {
		j := strings.Index(rest, "%v")
		if j < 0 || i >= len(e.Args) {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:j])
		if i < len(vals) {
			b.WriteString(vals[i])
		} else {
			b.WriteString("?")
		}
		rest = rest[j+2:]
	}
}

// ---------------------------------------------------------------------------
// SOACs

// Screma is the map-scan-reduce SOAC over W elements of the arrays Arrs
// (each with outer size W).
//
// Map is applied to each element: its parameters are one element of each
// array in Arrs, in order (and, when Index is non-nil, Index is bound to
// the element's position as i64 inside Map — fusion uses it to turn iota
// and replicate producers into index arithmetic). Map returns, in order:
// the inputs of every scan (len(Neutral) values each), then the inputs of
// every reduction, then the map-out values.
//
// Results of the statement, in order: without Post, one array per scanned
// value, one scalar per reduced value, one array per map-out value; with
// Post, Post is applied element-wise to (scanned values..., map-out
// values...) and the results are Post's outputs (arrays) followed by the
// reduced scalars. Post is the post-map of map-scan-map fusion.
type Screma struct {
	W     Atom
	Arrs  []*Var
	Index *Var
	Map   *Lambda
	Scans []*ScanOp
	Reds  []*RedOp
	Post  *Lambda
}

// ScanOp is one inclusive scan with an associative operator over a tuple of
// len(Neutral) values: Lambda takes 2k parameters (accumulator, element).
type ScanOp struct {
	Lambda  *Lambda
	Neutral []Atom
}

// RedOp is one reduction; Comm records that the operator was declared
// commutative (reduce_comm, or a known commutative builtin operator), which
// lets backends reorder.
type RedOp struct {
	Lambda  *Lambda
	Neutral []Atom
	Comm    bool
}

// Hist is reduce_by_index / hist: for each of W elements, Map computes, for
// each op in order, a bucket index (i64) followed by len(Neutral) values,
// which are combined into the op's destination arrays at that index with
// the op's operator. Indices outside the destination are ignored. Results:
// the updated destination arrays of every op, in order.
type Hist struct {
	W     Atom
	Arrs  []*Var
	Index *Var
	Map   *Lambda
	Ops   []*HistOp
}

// HistOp is one histogram: Dests are its initial arrays (one per value of
// the operator's tuple), all of the same length.
type HistOp struct {
	Dests   []*Var
	Lambda  *Lambda
	Neutral []Atom
}

// Scatter writes, for each of W elements, the values Map computes into
// copies of Dests: Map returns, for each destination in order, an i64
// index and a value. Out-of-range indices are ignored (Futhark's
// semantics). Results: the updated Dests.
type Scatter struct {
	W     Atom
	Arrs  []*Var
	Index *Var
	Map   *Lambda
	Dests []*Var
}

// Filter keeps the elements for which Pred is true. The elements are one
// element of each array of Arrs — or, when Map is non-nil, the values Map
// computes from them (Map is a map fused into the filter's input; Index as
// for Screma). Pred takes one element (one value per array, or per Map
// result). Results: the kept elements of every array (or Map result); with
// Partition, followed by the rejected elements of every array (Futhark's
// partition returns the trues, then the falses).
type Filter struct {
	W         Atom
	Arrs      []*Var
	Index     *Var
	Map       *Lambda
	Pred      *Lambda
	Partition bool
}

// Segmented applies Op to every row of its input arrays: Op.Arrs have outer
// dimensions Outer followed by the segment width Op.W. Map, scans,
// reductions and post-map act within each segment; results have the Outer
// dimensions prepended (a reduction gives one value per row). This is the
// regular segmented scan and reduction of the seeds, recognised from
// `map (scan op ne)` and `map (reduce op ne)` over rows.
type Segmented struct {
	Outer []Atom
	Op    *Screma
}

// MultiScan is arepl's `multiscan op ne k labels vs`: the inclusive scan of
// Op within each label class, labels in 0..K-1 (multireduce thesis §1.2).
// Results: one array per scanned value.
type MultiScan struct {
	W      Atom
	K      Atom
	Labels *Var
	Arrs   []*Var
	Op     *ScanOp
}

func (*AtomExp) exp()      {}
func (*BinOpExp) exp()     {}
func (*UnOpExp) exp()      {}
func (*ConvExp) exp()      {}
func (*IfExp) exp()        {}
func (*LoopExp) exp()      {}
func (*IndexExp) exp()     {}
func (*UpdateExp) exp()    {}
func (*SizeExp) exp()      {}
func (*ArrayLitExp) exp()  {}
func (*IotaExp) exp()      {}
func (*ReplicateExp) exp() {}
func (*ReshapeExp) exp()   {}
func (*TransposeExp) exp() {}
func (*ReverseExp) exp()   {}
func (*RotateExp) exp()    {}
func (*ConcatExp) exp()    {}
func (*CopyExp) exp()      {}
func (*ApplyExp) exp()     {}
func (*AssertExp) exp()    {}
func (*Screma) exp()       {}
func (*Hist) exp()         {}
func (*Scatter) exp()      {}
func (*Filter) exp()       {}
func (*Segmented) exp()    {}
func (*MultiScan) exp()    {}
