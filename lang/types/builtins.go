package types

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/arepl/arepl/lang/core"
)

// builtinDef is one builtin function: its generic signature, written in
// source type syntax with lowercase type parameters (a, b, ...) and size
// names (n, m, k), and a one-line description for :help and completion.
//
// sizeArgs names the result sizes that an argument determines: `iota 5`
// has type [5]i64 and `iota n` has type [n]i64 when the argument is a
// literal or a variable (Futhark gives sizes from variables the same way).
type builtinDef struct {
	name     string
	sig      string
	doc      string
	sizeArgs map[string]int
}

var builtinDefs = []builtinDef{
	{"map", "(a -> b) -> [n]a -> [n]b", "apply a function to every element of an array", nil},
	{"map2", "(a -> b -> c) -> [n]a -> [n]b -> [n]c", "apply a function to the elements of two arrays pairwise", nil},
	{"map3", "(a -> b -> c -> d) -> [n]a -> [n]b -> [n]c -> [n]d", "apply a function to the elements of three arrays", nil},
	{"reduce", "(a -> a -> a) -> a -> [n]a -> a", "reduce an array with an associative operator and its neutral element", nil},
	{"reduce_comm", "(a -> a -> a) -> a -> [n]a -> a", "reduce with an operator that is associative and commutative", nil},
	{"scan", "(a -> a -> a) -> a -> [n]a -> [n]a", "inclusive prefix scan with an associative operator and its neutral element", nil},
	{"filter", "(a -> bool) -> [n]a -> []a", "the elements of an array that satisfy a predicate", nil},
	{"partition", "(a -> bool) -> [n]a -> ([]a, []a)", "split an array into the elements that satisfy a predicate and the rest", nil},
	{"zip", "[n]a -> [n]b -> [n](a, b)", "pair up the elements of two arrays of the same size", nil},
	{"zip3", "[n]a -> [n]b -> [n]c -> [n](a, b, c)", "combine three arrays of the same size into an array of triples", nil},
	{"unzip", "[n](a, b) -> ([n]a, [n]b)", "split an array of pairs into two arrays", nil},
	{"unzip3", "[n](a, b, c) -> ([n]a, [n]b, [n]c)", "split an array of triples into three arrays", nil},
	{"iota", "i64 -> [n]i64", "the array [0, 1, ..., n-1]", map[string]int{"n": 0}},
	{"replicate", "i64 -> a -> [n]a", "an array of n copies of a value", map[string]int{"n": 0}},
	{"rep", "a -> [n]a", "an array of copies of a value, as many as the context needs (replicate with the size inferred)", nil},
	{"length", "[n]a -> i64", "the size of the outer dimension of an array", nil},
	{"reverse", "[n]a -> [n]a", "the elements of an array in reverse order", nil},
	{"concat", "[n]a -> [m]a -> []a", "concatenate two arrays (the same as ++)", nil},
	{"flatten", "[n][m]a -> [p]a", "combine the two outer dimensions of an array", nil},
	{"flatten_3d", "[n][m][l]a -> [p]a", "combine the three outer dimensions of an array", nil},
	{"flatten_4d", "[n][m][l][k]a -> [p]a", "combine the four outer dimensions of an array", nil},
	{"unflatten", "[p]a -> [n][m]a", "split the outer dimension of an array in two: [n*m]t to [n][m]t (sizes from the argument's type or the context)", nil},
	{"unflatten_3d", "[p]a -> [n][m][l]a", "split the outer dimension of an array in three: [n*m*l]t to [n][m][l]t", nil},
	{"unflatten_4d", "[p]a -> [n][m][l][k]a", "split the outer dimension of an array in four: [n*m*l*k]t to [n][m][l][k]t", nil},
	{"transpose", "[n][m]a -> [m][n]a", "swap the two outer dimensions of an array", nil},
	{"rotate", "i64 -> [n]a -> [n]a", "rotate an array r elements to the left (negative r rotates right)", nil},
	{"scatter", "[k]a -> [n]i64 -> [n]a -> [k]a", "write values at indices of a destination array; out-of-bounds indices are ignored", nil},
	{"hist", "(a -> a -> a) -> a -> i64 -> [n]i64 -> [n]a -> [k]a", "a histogram of k bins combining the values that fall in each bin", map[string]int{"k": 2}},
	{"reduce_by_index", "[k]a -> (a -> a -> a) -> a -> [n]i64 -> [n]a -> [k]a", "combine values into the bins of a destination array by index", nil},
	{"indices", "[n]a -> [n]i64", "the valid indices of an array: iota (length xs)", nil},
	{"and", "[n]bool -> bool", "whether all elements are true", nil},
	{"or", "[n]bool -> bool", "whether any element is true", nil},
	{"all", "(a -> bool) -> [n]a -> bool", "whether every element satisfies a predicate", nil},
	{"any", "(a -> bool) -> [n]a -> bool", "whether some element satisfies a predicate", nil},
	{"multiscan", "(a -> a -> a) -> a -> i64 -> [n]i64 -> [n]a -> [n]a",
		"arepl extension: multiscan op ne k keys xs scans xs separately for each of the k key values", nil},
	// Automatic differentiation (lang/ad): Futhark's prelude/ad.fut.
	{"jvp", "(a -> b) -> a -> a -> b", "forward mode: jvp f x dx is the derivative of f at x in the direction dx", nil},
	{"jvp2", "(a -> b) -> a -> a -> (b, b)", "forward mode, with the primal result: (f x, jvp f x dx)", nil},
	{"vjp", "(a -> b) -> a -> b -> a", "reverse mode: vjp f x dy pulls the cotangent dy of f's result back to x", nil},
	{"vjp2", "(a -> b) -> a -> b -> (b, a)", "reverse mode, with the primal result: (f x, vjp f x dy)", nil},
	{"jmp", "(a -> b) -> a -> [n]a -> [n]b", "jvp for each of an array of tangents", nil},
	{"jmp2", "(a -> b) -> a -> [n]a -> (b, [n]b)", "jmp, with the primal result", nil},
	{"mjp", "(a -> b) -> a -> [n]b -> [n]a", "vjp for each of an array of cotangents", nil},
	{"mjp2", "(a -> b) -> a -> [n]b -> (b, [n]a)", "mjp, with the primal result", nil},
}

// modEntry is one entry of the numeric modules: the name is qualified by
// every primitive type t in on (`i32.max`, `f64.sqrt`), and the signature
// is written with t standing for that type.
type modEntry struct {
	name string
	on   primSet
	sig  string
	doc  string
}

// modEntries drives every numeric-module name. The operator entries
// (`i32.+`) are what `(i32.+)` sections and `x i32.+ y` refer to.
var modEntries = func() []modEntry {
	es := []modEntry{
		{"+", numSet, "t -> t -> t", "addition (integers wrap)"},
		{"-", numSet, "t -> t -> t", "subtraction"},
		{"*", numSet, "t -> t -> t", "multiplication"},
		{"/", numSet, "t -> t -> t", "division (integers round towards minus infinity)"},
		{"%", numSet, "t -> t -> t", "remainder of / (sign of the divisor for integers)"},
		{"**", numSet, "t -> t -> t", "power"},
		{"//", intSet, "t -> t -> t", "division rounding towards zero"},
		{"%%", intSet, "t -> t -> t", "remainder of //"},
		{"&", intSet, "t -> t -> t", "bitwise and"},
		{"|", intSet, "t -> t -> t", "bitwise or"},
		{"^", intSet, "t -> t -> t", "bitwise exclusive or"},
		{"<<", intSet, "t -> t -> t", "shift left"},
		{">>", intSet, "t -> t -> t", "shift right (arithmetic on signed types)"},
		{"==", numSet, "t -> t -> bool", "equality"},
		{"!=", numSet, "t -> t -> bool", "inequality"},
		{"<", numSet, "t -> t -> bool", "less than"},
		{"<=", numSet, "t -> t -> bool", "less than or equal"},
		{">", numSet, "t -> t -> bool", "greater than"},
		{">=", numSet, "t -> t -> bool", "greater than or equal"},
		{"neg", numSet, "t -> t", "negation"},
		{"abs", numSet, "t -> t", "absolute value"},
		{"sgn", numSet, "t -> t", "sign: -1, 0 or 1"},
		{"max", numSet, "t -> t -> t", "the larger of two values"},
		{"min", numSet, "t -> t -> t", "the smaller of two values"},
		{"highest", numSet, "t", "the largest value of the type (inf for floats)"},
		{"lowest", numSet, "t", "the smallest value of the type (-inf for floats)"},
		{"sum", numSet, "[n]t -> t", "the sum of an array"},
		{"product", numSet, "[n]t -> t", "the product of an array"},
		{"maximum", numSet, "[n]t -> t", "the largest element of an array (lowest when empty)"},
		{"minimum", numSet, "[n]t -> t", "the smallest element of an array (highest when empty)"},
		{"to_i64", numSet, "t -> i64", "convert to i64"},
		{"num_bits", numSet, "i32", "the number of bits of the type"},
		{"not", intSet, "t -> t", "bitwise complement"},
		{"popc", intSet, "t -> i32", "the number of set bits"},
		{"clz", intSet, "t -> i32", "the number of leading zero bits"},
		{"atan2", floatSet, "t -> t -> t", "the angle of the point (x, y): atan2 y x"},
		{"pow", floatSet, "t -> t -> t", "power"},
		{"isnan", floatSet, "t -> bool", "whether a value is NaN"},
		{"isinf", floatSet, "t -> bool", "whether a value is infinite"},
		{"pi", floatSet, "t", "the constant pi"},
		{"e", floatSet, "t", "the constant e"},
		{"inf", floatSet, "t", "positive infinity"},
		{"nan", floatSet, "t", "not a number"},
		{">>>", intSet, "t -> t -> t", "logical shift right (fills with zeros)"},
		{"get_bit", numSet, "i32 -> t -> i32", "bit i of x (of its IEEE 754 bits for floats), as 0 or 1"},
		{"set_bit", numSet, "i32 -> t -> i32 -> t", "x with bit i (of its IEEE 754 bits for floats) set to b (0 or 1)"},
		{"to_bits", setOf(core.F32), "t -> u32", "the IEEE 754 bits of x"},
		{"to_bits", setOf(core.F64), "t -> u64", "the IEEE 754 bits of x"},
		{"from_bits", setOf(core.F32), "u32 -> t", "the float whose IEEE 754 bits are b"},
		{"from_bits", setOf(core.F64), "u64 -> t", "the float whose IEEE 754 bits are b"},
		{"to_bits", setOf(core.F16), "t -> u16", "the IEEE 754 bits of x"},
		{"from_bits", setOf(core.F16), "u16 -> t", "the float whose IEEE 754 bits are b"},
		{"ctz", intSet, "t -> i32", "the number of trailing zero bits"},
		{"mul_hi", intSet, "t -> t -> t", "the high half of the double-width product"},
		{"mad_hi", intSet, "t -> t -> t -> t", "mul_hi a b + c"},
		{"epsilon", floatSet, "t", "the difference between 1 and the next larger value"},
		{"recip", floatSet, "t -> t", "1 / x"},
		{"rsqrt", floatSet, "t -> t", "1 / sqrt x"},
		{"sinpi", floatSet, "t -> t", "sin (pi * x)"},
		{"cospi", floatSet, "t -> t", "cos (pi * x)"},
		{"tanpi", floatSet, "t -> t", "tan (pi * x)"},
		{"asinpi", floatSet, "t -> t", "asin x / pi"},
		{"acospi", floatSet, "t -> t", "acos x / pi"},
		{"atanpi", floatSet, "t -> t", "atan x / pi"},
		{"atan2pi", floatSet, "t -> t -> t", "atan2 y x / pi"},
		{"hypot", floatSet, "t -> t -> t", "sqrt (x*x + y*y) without undue overflow"},
		{"copysign", floatSet, "t -> t -> t", "x with the sign of y"},
		{"nextafter", floatSet, "t -> t -> t", "the next representable value after x towards y"},
		{"lerp", floatSet, "t -> t -> t -> t", "linear interpolation: lerp v0 v1 t = v0 + (v1 - v0) * t"},
		{"mad", floatSet, "t -> t -> t -> t", "a * b + c"},
		{"fma", floatSet, "t -> t -> t -> t", "a * b + c (fused where the hardware has it)"},
		{"from_fraction", floatSet, "i64 -> i64 -> t", "the fraction x / y"},
		{"to_f64", floatSet, "t -> f64", "convert to f64"},
		{"ldexp", floatSet, "t -> i32 -> t", "x * 2 ** n"},
	}
	// The float functions of one argument are exactly the FloatOnly unary
	// operators of the core IR that keep their type.
	for _, op := range core.UnOps {
		if op.FloatOnly && !op.BoolResult {
			es = append(es, modEntry{op.Name, floatSet, "t -> t", floatDocs[op.Name]})
		}
	}
	// Conversions: t.u8 converts an u8 to t. Every primitive module has
	// them, bool included.
	for _, from := range core.PrimTypes {
		es = append(es, modEntry{from.String(), allPrims, from.String() + " -> t", "convert from " + from.String()})
	}
	return es
}()

// floatDocs describes the float functions that come from core.UnOps.
var floatDocs = map[string]string{
	"sqrt": "square root", "exp": "e raised to a power", "log": "natural logarithm",
	"log2": "base-2 logarithm", "log10": "base-10 logarithm",
	"sin": "sine", "cos": "cosine", "tan": "tangent",
	"asin": "inverse sine", "acos": "inverse cosine", "atan": "inverse tangent",
	"sinh": "hyperbolic sine", "cosh": "hyperbolic cosine", "tanh": "hyperbolic tangent",
	"floor": "round down to an integral value", "ceil": "round up to an integral value",
	"round": "round to the nearest integral value, ties to even", "trunc": "round towards zero",
	"cbrt": "cube root", "log1p": "log (1 + x), accurate near 0", "erf": "the error function",
	"erfc": "the complementary error function", "gamma": "the gamma function",
	"lgamma": "the logarithm of the absolute gamma function", "asinh": "inverse hyperbolic sine",
	"acosh": "inverse hyperbolic cosine", "atanh": "inverse hyperbolic tangent",
}

// builtinObjects builds the objects of the initial environment.
func builtinObjects() map[string]*Object {
	objs := map[string]*Object{}
	for _, b := range builtinDefs {
		objs[b.name] = &Object{Kind: Builtin, Name: b.name, Type: mustParseSig(b.sig), Doc: b.doc}
	}
	for _, e := range modEntries {
		for _, t := range core.PrimTypes {
			if !e.on.has(t) {
				continue
			}
			name := t.String() + "." + e.name
			sig := substT(e.sig, t.String())
			objs[name] = &Object{Kind: ModuleFun, Name: name, Type: mustParseSig(sig), Doc: e.doc}
		}
	}
	return objs
}

var builtinByName = func() map[string]*builtinDef {
	m := map[string]*builtinDef{}
	for i := range builtinDefs {
		m[builtinDefs[i].name] = &builtinDefs[i]
	}
	return m
}()

// substT replaces the whole word t in sig by name.
func substT(sig, name string) string {
	fields := strings.Fields(sig)
	for i, f := range fields {
		if f == "t" {
			fields[i] = name
		} else if strings.HasSuffix(f, "]t") {
			fields[i] = strings.TrimSuffix(f, "t") + name
		}
	}
	return strings.Join(fields, " ")
}

// mustParseSig parses a signature of the tables above. The tables are part
// of the program, so a malformed one is a bug found by the first test.
func mustParseSig(sig string) Type {
	p := &sigParser{src: sig}
	t := p.typ()
	if p.err == nil {
		p.skip()
		if p.pos < len(p.src) {
			p.err = fmt.Errorf("trailing %q", p.src[p.pos:])
		}
	}
	if p.err != nil {
		panic(fmt.Sprintf("types: bad builtin signature %q: %v", sig, p.err))
	}
	return t
}

// sigParser reads the little type language of the tables:
//
//	type  = btype [ "->" type ]
//	btype = "[" [name] "]" btype | "(" [type {"," type}] ")" | name
type sigParser struct {
	src string
	pos int
	err error
}

func (p *sigParser) skip() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

func (p *sigParser) eat(s string) bool {
	p.skip()
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *sigParser) name() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.src) {
		r := rune(p.src[p.pos])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *sigParser) typ() Type {
	t := p.btype()
	if p.err == nil && p.eat("->") {
		return &Arrow{Param: t, Ret: p.typ()}
	}
	return t
}

func (p *sigParser) btype() Type {
	switch {
	case p.err != nil:
		return errT
	case p.eat("["):
		d := AnyDim
		if n := p.name(); n != "" {
			d = Dim{Name: n}
		}
		if !p.eat("]") {
			p.err = fmt.Errorf("missing ] at %d", p.pos)
			return errT
		}
		return arrayOf(p.btype(), []Dim{d})
	case p.eat("("):
		var elems []Type
		if !p.eat(")") {
			for {
				elems = append(elems, p.typ())
				if p.eat(")") {
					break
				}
				if !p.eat(",") {
					p.err = fmt.Errorf("missing , or ) at %d", p.pos)
					return errT
				}
			}
		}
		if len(elems) == 1 {
			return elems[0]
		}
		return &Tuple{Elems: elems}
	}
	n := p.name()
	if n == "" {
		p.err = fmt.Errorf("expected a type at %d", p.pos)
		return errT
	}
	if pt, ok := core.PrimByName(n); ok {
		return Prim{T: pt}
	}
	return &tyParam{name: n}
}
