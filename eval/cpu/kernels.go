package cpu

import (
	"math"
	"math/bits"

	"github.com/arepl/arepl/lang/core"
)

// Operator tables. Every scalar operator on every primitive type is one
// typed loop over a chunk (a "kernel"), looked up once per statement and
// chunk in binTab/unTab/convTab; a kernel's inner loop has no interface
// conversion and no switch. Kernels are written once as generic functions
// and instantiated per element type in init, so each instantiation is
// compiled for its concrete type.

// kerr is what a kernel reports: 0, or the reason an element failed.
type kerr uint8

const (
	kOK kerr = iota
	kDivZero
	kNegExp
)

func (k kerr) msg() string {
	switch k {
	case kDivZero:
		return "division by zero"
	case kNegExp:
		return "negative exponent"
	}
	return "internal error: kernel failed"
}

// binK computes dst[i] = x[i] op y[i] over typed slices of equal length.
type binK func(dst, x, y any) kerr

// unK computes dst[i] = op x[i].
type unK func(dst, x any) kerr

var (
	binTab  [len(core.BinOps)][core.NumPrims]binK
	unTab   [len(core.UnOps)][core.NumPrims]unK
	convTab [core.NumPrims][core.NumPrims]unK
)

type signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}

type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

type integer interface{ signed | unsigned }

type float interface{ ~float32 | ~float64 }

type number interface{ integer | float }

type ordered interface{ number }

func b2[T, R any](k func(d []R, x, y []T) kerr) binK {
	return func(d, x, y any) kerr { return k(d.([]R), x.([]T), y.([]T)) }
}

func u1[T, R any](k func(d []R, x []T) kerr) unK {
	return func(d, x any) kerr { return k(d.([]R), x.([]T)) }
}

// ---------------------------------------------------------------------------
// Arithmetic common to all numbers

func kAdd[T number](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] + y[i]
	}
	return kOK
}

func kSub[T number](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] - y[i]
	}
	return kOK
}

func kMul[T number](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] * y[i]
	}
	return kOK
}

func kMinInt[T integer](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = min(x[i], y[i])
	}
	return kOK
}

func kMaxInt[T integer](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = max(x[i], y[i])
	}
	return kOK
}

// fmin and fmax ignore a NaN operand, and otherwise keep the first operand
// on ties (so min of 0.0 and -0.0 is 0.0), as Futhark's reference
// interpreter does.
func fmin[T float](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a <= b:
		return a
	}
	return b
}

func fmax[T float](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a <= b:
		return b
	}
	return a
}

func kMinF[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = fmin(x[i], y[i])
	}
	return kOK
}

func kMaxF[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = fmax(x[i], y[i])
	}
	return kOK
}

// ---------------------------------------------------------------------------
// Comparisons

func kEq[T comparable](d []bool, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] == y[i]
	}
	return kOK
}

func kNe[T comparable](d []bool, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] != y[i]
	}
	return kOK
}

func kLt[T ordered](d []bool, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] < y[i]
	}
	return kOK
}

func kLe[T ordered](d []bool, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] <= y[i]
	}
	return kOK
}

func kGt[T ordered](d []bool, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] > y[i]
	}
	return kOK
}

func kGe[T ordered](d []bool, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] >= y[i]
	}
	return kOK
}

// Bool has no ordering in Go; false < true as in Futhark.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func boolCmp(cmp func(a, b int) bool) func(d []bool, x, y []bool) kerr {
	return func(d []bool, x, y []bool) kerr {
		x, y = x[:len(d)], y[:len(d)]
		for i := range d {
			d[i] = cmp(b2i(x[i]), b2i(y[i]))
		}
		return kOK
	}
}

// ---------------------------------------------------------------------------
// Integer division. Signed / and % round toward minus infinity; // and %%
// truncate. MinInt / -1 wraps to MinInt (Go's defined behaviour matches).

func kDivS[T signed](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		a, b := x[i], y[i]
		if b == 0 {
			return kDivZero
		}
		q, r := a/b, a%b
		if r != 0 && (r < 0) != (b < 0) {
			q--
		}
		d[i] = q
	}
	return kOK
}

func kModS[T signed](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		a, b := x[i], y[i]
		if b == 0 {
			return kDivZero
		}
		r := a % b
		if r != 0 && (r < 0) != (b < 0) {
			r += b
		}
		d[i] = r
	}
	return kOK
}

func kQuot[T integer](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		if y[i] == 0 {
			return kDivZero
		}
		d[i] = x[i] / y[i]
	}
	return kOK
}

func kRem[T integer](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		if y[i] == 0 {
			return kDivZero
		}
		d[i] = x[i] % y[i]
	}
	return kOK
}

func kDivF[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] / y[i]
	}
	return kOK
}

// Float % is floored (x - y*floor(x/y), Haskell's mod' in Futhark's
// interpreter); %% is C's fmod (truncated); // truncates the quotient.
func kModF[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		a, b := float64(x[i]), float64(y[i])
		d[i] = T(a - b*math.Floor(a/b))
	}
	return kOK
}

func kRemF[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(math.Mod(float64(x[i]), float64(y[i])))
	}
	return kOK
}

func kQuotF[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(math.Trunc(float64(x[i]) / float64(y[i])))
	}
	return kOK
}

func kPowF[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(math.Pow(float64(x[i]), float64(y[i])))
	}
	return kOK
}

func kAtan2[T float](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(math.Atan2(float64(x[i]), float64(y[i])))
	}
	return kOK
}

// ipow is exponentiation by squaring in T's width, which wraps exactly as
// Futhark's 64-bit power truncated to the type.
func ipow[T integer](x, n T) T {
	r := T(1)
	for n != 0 {
		if n&1 != 0 {
			r *= x
		}
		n >>= 1
		x *= x
	}
	return r
}

func kPowS[T signed](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		if y[i] < 0 {
			return kNegExp
		}
		d[i] = ipow(x[i], y[i])
	}
	return kOK
}

func kPowU[T unsigned](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = ipow(x[i], y[i])
	}
	return kOK
}

// ---------------------------------------------------------------------------
// Bitwise operators and shifts. A shift amount is taken as a signed
// 64-bit count: past the width gives 0 (or the sign for >> on signed
// types), a negative amount shifts the other way (Haskell's `shift`, which
// Futhark's interpreter uses).

func kAnd[T integer](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] & y[i]
	}
	return kOK
}

func kOr[T integer](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] | y[i]
	}
	return kOK
}

func kXor[T integer](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] ^ y[i]
	}
	return kOK
}

func shl64(v uint64, n int64) uint64 {
	switch {
	case n >= 64 || n <= -64:
		return 0
	case n >= 0:
		return v << uint(n)
	}
	return v >> uint(-n)
}

func ashr64(v int64, n int64) int64 {
	switch {
	case n >= 64:
		return v >> 63
	case n <= -64:
		return 0
	case n >= 0:
		return v >> uint(n)
	}
	return v << uint(-n)
}

func kShlS[T signed](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(shl64(uint64(int64(x[i])), int64(y[i])))
	}
	return kOK
}

func kShlU[T unsigned](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(shl64(uint64(x[i]), int64(uint64(y[i]))))
	}
	return kOK
}

func kShrS[T signed](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(ashr64(int64(x[i]), int64(y[i])))
	}
	return kOK
}

func kShrU[T unsigned](d, x, y []T) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = T(shl64(uint64(x[i]), -int64(uint64(y[i])&(1<<63-1))))
	}
	return kOK
}

// Bool operators.
func kBoolAnd(d, x, y []bool) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] && y[i]
	}
	return kOK
}

func kBoolOr(d, x, y []bool) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] || y[i]
	}
	return kOK
}

func kBoolXor(d, x, y []bool) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = x[i] != y[i]
	}
	return kOK
}

// ---------------------------------------------------------------------------
// Unary operators

func kNeg[T number](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = -x[i]
	}
	return kOK
}

func kNot(d, x []bool) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = !x[i]
	}
	return kOK
}

func kCompl[T integer](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = ^x[i]
	}
	return kOK
}

func kAbsS[T signed](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		if x[i] < 0 {
			d[i] = -x[i]
		} else {
			d[i] = x[i]
		}
	}
	return kOK
}

func kCopy[T any](d, x []T) kerr {
	copy(d, x)
	return kOK
}

func kAbsF[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.Abs(float64(x[i])))
	}
	return kOK
}

func kSgnS[T signed](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		switch {
		case x[i] > 0:
			d[i] = 1
		case x[i] < 0:
			d[i] = -1
		default:
			d[i] = 0
		}
	}
	return kOK
}

func kSgnU[T unsigned](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		if x[i] != 0 {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
	return kOK
}

// Float signum keeps NaN and signed zeros (Haskell's signum).
func kSgnF[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		switch v := x[i]; {
		case v > 0:
			d[i] = 1
		case v < 0:
			d[i] = -1
		default:
			d[i] = v
		}
	}
	return kOK
}

// kMath applies a float64 math function; f32 values are widened and the
// result rounded back, which is exact for the correctly rounded functions
// and within Futhark's tolerance for the others.
func kMath[T float](f func(float64) float64) func(d, x []T) kerr {
	return func(d, x []T) kerr {
		x = x[:len(d)]
		for i := range d {
			d[i] = T(f(float64(x[i])))
		}
		return kOK
	}
}

// The most used math functions are also written out with a direct call:
// through a func value, math.Sqrt, Floor, Ceil, Trunc and RoundToEven are
// ordinary (software) calls, where a direct call compiles to one
// instruction, and Exp and Log save the indirect call per element.
func kMathSqrt[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.Sqrt(float64(x[i])))
	}
	return kOK
}

func kMathExp[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.Exp(float64(x[i])))
	}
	return kOK
}

func kMathLog[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.Log(float64(x[i])))
	}
	return kOK
}

func kMathFloor[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.Floor(float64(x[i])))
	}
	return kOK
}

func kMathCeil[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.Ceil(float64(x[i])))
	}
	return kOK
}

func kMathTrunc[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.Trunc(float64(x[i])))
	}
	return kOK
}

func kMathRound[T float](d, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(math.RoundToEven(float64(x[i])))
	}
	return kOK
}

func kIsNan[T float](d []bool, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] != x[i]
	}
	return kOK
}

func kIsInf[T float](d []bool, x []T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = math.IsInf(float64(x[i]), 0)
	}
	return kOK
}

func kPopc[T integer](width int) func(d []int32, x []T) kerr {
	return func(d []int32, x []T) kerr {
		x = x[:len(d)]
		mask := uint64(1)<<uint(width) - 1
		if width == 64 {
			mask = ^uint64(0)
		}
		for i := range d {
			d[i] = int32(bits.OnesCount64(uint64(x[i]) & mask))
		}
		return kOK
	}
}

func kClz[T integer](width int) func(d []int32, x []T) kerr {
	return func(d []int32, x []T) kerr {
		x = x[:len(d)]
		mask := uint64(1)<<uint(width) - 1
		if width == 64 {
			mask = ^uint64(0)
		}
		for i := range d {
			d[i] = int32(bits.LeadingZeros64(uint64(x[i])&mask) - (64 - width))
		}
		return kOK
	}
}

// round is rint: halves to even, as Futhark's f32.round/f64.round.
func round(x float64) float64 { return math.RoundToEven(x) }

// ---------------------------------------------------------------------------
// Conversions

func kConvNum[F, T number](d []T, x []F) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(x[i])
	}
	return kOK
}

// Float to integer truncates toward zero; NaN, infinities and values out
// of the 64-bit range give 0 (Futhark's C backend), others wrap.
func kF2I[F float, T integer](d []T, x []F) kerr {
	x = x[:len(d)]
	for i := range d {
		v := float64(x[i])
		switch {
		case v != v || v >= 1<<64 || v <= -(1<<63):
			d[i] = 0
		case v >= 1<<63:
			d[i] = T(uint64(v))
		default:
			d[i] = T(int64(v))
		}
	}
	return kOK
}

func kToBool[F number](d []bool, x []F) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] != 0
	}
	return kOK
}

func kFromBool[T number](d []T, x []bool) kerr {
	x = x[:len(d)]
	for i := range d {
		if x[i] {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
	return kOK
}

// ---------------------------------------------------------------------------
// Table construction

func numOps[T number](t core.PrimType) {
	binTab[core.Add][t] = b2(kAdd[T])
	binTab[core.Sub][t] = b2(kSub[T])
	binTab[core.Mul][t] = b2(kMul[T])
	binTab[core.Eq][t] = b2(kEq[T])
	binTab[core.Ne][t] = b2(kNe[T])
	binTab[core.Lt][t] = b2(kLt[T])
	binTab[core.Le][t] = b2(kLe[T])
	binTab[core.Gt][t] = b2(kGt[T])
	binTab[core.Ge][t] = b2(kGe[T])
	unTab[core.Neg][t] = u1(kNeg[T])
	convTo[T](t)
}

func intOps[T integer](t core.PrimType) {
	numOps[T](t)
	binTab[core.Quot][t] = b2(kQuot[T])
	binTab[core.Rem][t] = b2(kRem[T])
	binTab[core.Min][t] = b2(kMinInt[T])
	binTab[core.Max][t] = b2(kMaxInt[T])
	binTab[core.And][t] = b2(kAnd[T])
	binTab[core.Or][t] = b2(kOr[T])
	binTab[core.Xor][t] = b2(kXor[T])
	unTab[core.Not][t] = u1(kCompl[T])
	unTab[core.Popc][t] = u1(kPopc[T](t.Bits()))
	unTab[core.Clz][t] = u1(kClz[T](t.Bits()))
	unTab[core.Ctz][t] = u1(kCtz[T](t.Bits()))
	binTab[core.MulHi][t] = b2(kMulHi[T](t.Bits(), t.IsSigned()))
}

func signedOps[T signed](t core.PrimType) {
	intOps[T](t)
	binTab[core.Div][t] = b2(kDivS[T])
	binTab[core.Mod][t] = b2(kModS[T])
	binTab[core.Pow][t] = b2(kPowS[T])
	binTab[core.Shl][t] = b2(kShlS[T])
	binTab[core.Shr][t] = b2(kShrS[T])
	unTab[core.Abs][t] = u1(kAbsS[T])
	unTab[core.Signum][t] = u1(kSgnS[T])
}

func unsignedOps[T unsigned](t core.PrimType) {
	intOps[T](t)
	binTab[core.Div][t] = b2(kQuot[T])
	binTab[core.Mod][t] = b2(kRem[T])
	binTab[core.Pow][t] = b2(kPowU[T])
	binTab[core.Shl][t] = b2(kShlU[T])
	binTab[core.Shr][t] = b2(kShrU[T])
	unTab[core.Abs][t] = u1(kCopy[T])
	unTab[core.Signum][t] = u1(kSgnU[T])
}

var mathFuns = map[core.UnOp]func(float64) float64{
	core.Sqrt: math.Sqrt, core.ExpF: math.Exp, core.Log: math.Log, core.Log2: math.Log2,
	core.Log10: math.Log10, core.Sin: math.Sin, core.Cos: math.Cos, core.Tan: math.Tan,
	core.Asin: math.Asin, core.Acos: math.Acos, core.Atan: math.Atan, core.Sinh: math.Sinh,
	core.Cosh: math.Cosh, core.Tanh: math.Tanh, core.Floor: math.Floor, core.Ceil: math.Ceil,
	core.Round: round, core.Trunc: math.Trunc,
	core.Cbrt: math.Cbrt, core.Log1p: math.Log1p, core.Erf: math.Erf, core.Erfc: math.Erfc,
	core.Gamma: math.Gamma, core.Lgamma: lgamma, core.Asinh: math.Asinh, core.Acosh: math.Acosh,
	core.Atanh: math.Atanh,
}

// lgamma is the logarithm of the absolute value of Γ(x), as C's lgamma.
func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// kFloat2 applies a binary float64 function to f32 or f64 operands.
func kFloat2[T float](f func(x, y float64) float64) func(d, x, y []T) kerr {
	return func(d, x, y []T) kerr {
		x, y = x[:len(d)], y[:len(d)]
		for i := range d {
			d[i] = T(f(float64(x[i]), float64(y[i])))
		}
		return kOK
	}
}

// kNextAfter32 is nextafter in f32's own precision.
func kNextAfter32(d, x, y []float32) kerr {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		d[i] = math.Nextafter32(x[i], y[i])
	}
	return kOK
}

// kCtz counts trailing zero bits; zero has width of them.
func kCtz[T integer](width int) func(d []int32, x []T) kerr {
	return func(d []int32, x []T) kerr {
		x = x[:len(d)]
		for i := range d {
			d[i] = int32(min(bits.TrailingZeros64(uint64(x[i])), width))
		}
		return kOK
	}
}

// kMulHi is the high half of the double-width product, signed or not.
func kMulHi[T integer](width int, signed bool) func(d, x, y []T) kerr {
	return func(d, x, y []T) kerr {
		x, y = x[:len(d)], y[:len(d)]
		for i := range d {
			switch {
			case width < 64 && signed:
				d[i] = T((int64(x[i]) * int64(y[i])) >> width)
			case width < 64:
				mask := uint64(1)<<width - 1
				d[i] = T(((uint64(x[i]) & mask) * (uint64(y[i]) & mask)) >> width)
			default:
				hi, _ := bits.Mul64(uint64(x[i]), uint64(y[i]))
				if signed {
					// The signed high half corrects the unsigned one
					// for each negative operand.
					if int64(x[i]) < 0 {
						hi -= uint64(y[i])
					}
					if int64(y[i]) < 0 {
						hi -= uint64(x[i])
					}
				}
				d[i] = T(hi)
			}
		}
		return kOK
	}
}

func floatOps[T float](t core.PrimType) {
	numOps[T](t)
	binTab[core.Div][t] = b2(kDivF[T])
	binTab[core.Mod][t] = b2(kModF[T])
	binTab[core.Quot][t] = b2(kQuotF[T])
	binTab[core.Rem][t] = b2(kRemF[T])
	binTab[core.Pow][t] = b2(kPowF[T])
	binTab[core.Min][t] = b2(kMinF[T])
	binTab[core.Max][t] = b2(kMaxF[T])
	binTab[core.Atan2][t] = b2(kAtan2[T])
	binTab[core.Hypot][t] = b2(kFloat2[T](math.Hypot))
	binTab[core.CopySign][t] = b2(kFloat2[T](math.Copysign))
	binTab[core.NextAfter][t] = b2(kFloat2[T](math.Nextafter))
	unTab[core.Abs][t] = u1(kAbsF[T])
	unTab[core.Signum][t] = u1(kSgnF[T])
	unTab[core.IsNan][t] = u1(kIsNan[T])
	unTab[core.IsInf][t] = u1(kIsInf[T])
	for op, f := range mathFuns {
		unTab[op][t] = u1(kMath[T](f))
	}
	unTab[core.Sqrt][t] = u1(kMathSqrt[T])
	unTab[core.ExpF][t] = u1(kMathExp[T])
	unTab[core.Log][t] = u1(kMathLog[T])
	unTab[core.Floor][t] = u1(kMathFloor[T])
	unTab[core.Ceil][t] = u1(kMathCeil[T])
	unTab[core.Trunc][t] = u1(kMathTrunc[T])
	unTab[core.Round][t] = u1(kMathRound[T])
}

func init() {
	binTab[core.NextAfter][core.F32] = b2(kNextAfter32)
}

// convTo fills the conversions from every type to T.
func convTo[T number](to core.PrimType) {
	convTab[core.Bool][to] = u1(kFromBool[T])
	convTab[to][core.Bool] = u1(kToBool[T])
	convFrom[int8, T](core.I8, to)
	convFrom[int16, T](core.I16, to)
	convFrom[int32, T](core.I32, to)
	convFrom[int64, T](core.I64, to)
	convFrom[uint8, T](core.U8, to)
	convFrom[uint16, T](core.U16, to)
	convFrom[uint32, T](core.U32, to)
	convFrom[uint64, T](core.U64, to)
	convFrom[float32, T](core.F32, to)
	convFrom[float64, T](core.F64, to)
}

func convFrom[F, T number](from, to core.PrimType) {
	if from.IsFloat() && to.IsInt() {
		convTab[from][to] = floatToInt[F, T](from, to)
		return
	}
	convTab[from][to] = u1(kConvNum[F, T])
}

// floatToInt picks the float-to-integer kernel; the type switch runs once
// per table entry, not per element.
func floatToInt[F, T number](from, to core.PrimType) unK {
	switch any(*new(F)).(type) {
	case float32:
		return f2iFor[float32](to)
	case float64:
		return f2iFor[float64](to)
	}
	return nil
}

func f2iFor[F float](to core.PrimType) unK {
	switch to {
	case core.I8:
		return u1(kF2I[F, int8])
	case core.I16:
		return u1(kF2I[F, int16])
	case core.I32:
		return u1(kF2I[F, int32])
	case core.I64:
		return u1(kF2I[F, int64])
	case core.U8:
		return u1(kF2I[F, uint8])
	case core.U16:
		return u1(kF2I[F, uint16])
	case core.U32:
		return u1(kF2I[F, uint32])
	case core.U64:
		return u1(kF2I[F, uint64])
	}
	return nil
}

// initKernelTables fills binTab, unTab and convTab (tables.go calls it).
func initKernelTables() {
	signedOps[int8](core.I8)
	signedOps[int16](core.I16)
	signedOps[int32](core.I32)
	signedOps[int64](core.I64)
	unsignedOps[uint8](core.U8)
	unsignedOps[uint16](core.U16)
	unsignedOps[uint32](core.U32)
	unsignedOps[uint64](core.U64)
	floatOps[float32](core.F32)
	floatOps[float64](core.F64)

	b := core.Bool
	binTab[core.And][b] = b2(kBoolAnd)
	binTab[core.Or][b] = b2(kBoolOr)
	binTab[core.Xor][b] = b2(kBoolXor)
	binTab[core.LogAnd][b] = b2(kBoolAnd)
	binTab[core.LogOr][b] = b2(kBoolOr)
	binTab[core.Eq][b] = b2(kEq[bool])
	binTab[core.Ne][b] = b2(kNe[bool])
	binTab[core.Lt][b] = b2(boolCmp(func(x, y int) bool { return x < y }))
	binTab[core.Le][b] = b2(boolCmp(func(x, y int) bool { return x <= y }))
	binTab[core.Gt][b] = b2(boolCmp(func(x, y int) bool { return x > y }))
	binTab[core.Ge][b] = b2(boolCmp(func(x, y int) bool { return x >= y }))
	unTab[core.Not][b] = u1(kNot)
	convTab[b][b] = u1(kCopy[bool])

	unTab[core.ToBits][core.F32] = u1(kBitCast(math.Float32bits))
	unTab[core.ToBits][core.F64] = u1(kBitCast(math.Float64bits))
	unTab[core.FromBits][core.U32] = u1(kBitCast(math.Float32frombits))
	unTab[core.FromBits][core.U64] = u1(kBitCast(math.Float64frombits))
}

// kBitCast reinterprets each element's bits (f64.to_bits, from_bits)
// through one of the math package's exact bit casts.
func kBitCast[T, R any](cast func(T) R) func(d []R, x []T) kerr {
	return func(d []R, x []T) kerr {
		x = x[:len(d)]
		for i := range d {
			d[i] = cast(x[i])
		}
		return kOK
	}
}

// ---------------------------------------------------------------------------
// Vector-scalar kernels: the operators that most often have a constant
// right operand (`x * 2 + 1`, `x < 0`) read it once instead of from a
// broadcast column.

// binVSK computes dst[i] = x[i] op c[0].
type binVSK func(dst, x, c any) kerr

var binVSTab [len(core.BinOps)][core.NumPrims]binVSK

func vs[T, R any](k func(d []R, x []T, c T) kerr) binVSK {
	return func(d, x, c any) kerr { return k(d.([]R), x.([]T), c.([]T)[0]) }
}

// The arithmetic vector-scalar kernels are unrolled by four: with one
// operation per element, the loop's own compare and branch are a large
// share of each iteration (these are the `x*2+1` passes of every map).
func kAddVS[T number](d, x []T, c T) kerr {
	x = x[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx := d[i:i+4:i+4], x[i:i+4:i+4]
		dd[0] = xx[0] + c
		dd[1] = xx[1] + c
		dd[2] = xx[2] + c
		dd[3] = xx[3] + c
	}
	for ; i < len(d); i++ {
		d[i] = x[i] + c
	}
	return kOK
}

func kSubVS[T number](d, x []T, c T) kerr {
	x = x[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx := d[i:i+4:i+4], x[i:i+4:i+4]
		dd[0] = xx[0] - c
		dd[1] = xx[1] - c
		dd[2] = xx[2] - c
		dd[3] = xx[3] - c
	}
	for ; i < len(d); i++ {
		d[i] = x[i] - c
	}
	return kOK
}

func kMulVS[T number](d, x []T, c T) kerr {
	x = x[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, xx := d[i:i+4:i+4], x[i:i+4:i+4]
		dd[0] = xx[0] * c
		dd[1] = xx[1] * c
		dd[2] = xx[2] * c
		dd[3] = xx[3] * c
	}
	for ; i < len(d); i++ {
		d[i] = x[i] * c
	}
	return kOK
}

func kLtVS[T number](d []bool, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] < c
	}
	return kOK
}

func kLeVS[T number](d []bool, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] <= c
	}
	return kOK
}

func kGtVS[T number](d []bool, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] > c
	}
	return kOK
}

func kGeVS[T number](d []bool, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] >= c
	}
	return kOK
}

func kEqVS[T number](d []bool, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] == c
	}
	return kOK
}

func kAndVS[T integer](d, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] & c
	}
	return kOK
}

func kOrVS[T integer](d, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] | c
	}
	return kOK
}

func kXorVS[T integer](d, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] ^ c
	}
	return kOK
}

// Shifts by a constant. For an amount in [0, 64), Go's shift of T gives
// the bits of the 64-bit shift truncated to T that kShl*/kShr* compute
// (shifting past T's width gives 0, or the sign for >> on signed types),
// with no per-element range tests; other amounts take the general path.

func kShlVSs[T signed](d, x []T, c T) kerr {
	n := int64(c)
	if n < 0 || n >= 64 {
		x = x[:len(d)]
		for i := range d {
			d[i] = T(shl64(uint64(int64(x[i])), n))
		}
		return kOK
	}
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] << uint(n)
	}
	return kOK
}

func kShrVSs[T signed](d, x []T, c T) kerr {
	n := int64(c)
	if n < 0 || n >= 64 {
		x = x[:len(d)]
		for i := range d {
			d[i] = T(ashr64(int64(x[i]), n))
		}
		return kOK
	}
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] >> uint(n)
	}
	return kOK
}

func kShlVSu[T unsigned](d, x []T, c T) kerr {
	if uint64(c) >= 64 {
		return kShlU(d, x, fillN(len(d), c))
	}
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] << uint(c)
	}
	return kOK
}

func kShrVSu[T unsigned](d, x []T, c T) kerr {
	if uint64(c) >= 64 {
		return kShrU(d, x, fillN(len(d), c))
	}
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] >> uint(c)
	}
	return kOK
}

// kMaxVS and kMinVS are max and min with a constant (integers: a float
// max must order NaNs as kMaxF does).
func kMaxVS[T integer](d, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = max(x[i], c)
	}
	return kOK
}

func kMinVS[T integer](d, x []T, c T) kerr {
	x = x[:len(d)]
	for i := range d {
		d[i] = min(x[i], c)
	}
	return kOK
}

// fillN is n copies of c.
func fillN[T any](n int, c T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = c
	}
	return s
}

func vsOps[T number](t core.PrimType) {
	binVSTab[core.Add][t] = vs(kAddVS[T])
	binVSTab[core.Sub][t] = vs(kSubVS[T])
	binVSTab[core.Mul][t] = vs(kMulVS[T])
	binVSTab[core.Lt][t] = vs(kLtVS[T])
	binVSTab[core.Le][t] = vs(kLeVS[T])
	binVSTab[core.Gt][t] = vs(kGtVS[T])
	binVSTab[core.Ge][t] = vs(kGeVS[T])
	binVSTab[core.Eq][t] = vs(kEqVS[T])
}

func vsIntOps[T integer](t core.PrimType) {
	vsOps[T](t)
	binVSTab[core.Max][t] = vs(kMaxVS[T])
	binVSTab[core.Min][t] = vs(kMinVS[T])
	binVSTab[core.And][t] = vs(kAndVS[T])
	binVSTab[core.Or][t] = vs(kOrVS[T])
	binVSTab[core.Xor][t] = vs(kXorVS[T])
}

func vsSignedOps[T signed](t core.PrimType) {
	vsIntOps[T](t)
	binVSTab[core.Shl][t] = vs(kShlVSs[T])
	binVSTab[core.Shr][t] = vs(kShrVSs[T])
}

func vsUnsignedOps[T unsigned](t core.PrimType) {
	vsIntOps[T](t)
	binVSTab[core.Shl][t] = vs(kShlVSu[T])
	binVSTab[core.Shr][t] = vs(kShrVSu[T])
}

// initVSTables fills binVSTab (tables.go calls it).
func initVSTables() {
	vsSignedOps[int8](core.I8)
	vsSignedOps[int16](core.I16)
	vsSignedOps[int32](core.I32)
	vsSignedOps[int64](core.I64)
	vsUnsignedOps[uint8](core.U8)
	vsUnsignedOps[uint16](core.U16)
	vsUnsignedOps[uint32](core.U32)
	vsUnsignedOps[uint64](core.U64)
	vsOps[float32](core.F32)
	vsOps[float64](core.F64)
}
