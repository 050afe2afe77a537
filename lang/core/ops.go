package core

// BinOp is a binary scalar operator. Integer operators follow Futhark:
// arithmetic wraps; Div and Mod round toward minus infinity (signed), Quot
// and Rem (`//`, `%%`) truncate toward zero; integer division by zero is a
// run-time error; float division by zero gives inf or nan. Shr is
// arithmetic on signed and logical on unsigned types.
type BinOp uint8

const (
	Add BinOp = iota
	Sub
	Mul
	Div
	Mod
	Quot
	Rem
	Pow
	Min
	Max
	And // bitwise and; logical and on bool
	Or
	Xor
	Shl
	Shr
	LogAnd // && (both operands already evaluated; lowering keeps short-circuit with IfExp)
	LogOr
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	Atan2
	Hypot     // sqrt(x*x + y*y) without undue overflow (floats)
	CopySign  // x with the sign of y (floats)
	NextAfter // the next float after x towards y
	MulHi     // the high half of the double-width product (integers)
	numBinOps
)

// BinOpInfo describes a binary operator: its spelling in the core printer
// and in Futhark source, and its algebraic properties (used by fusion plans
// and by backends to choose atomics).
type BinOpInfo struct {
	Name        string // printer name, e.g. "add"
	Source      string // Futhark spelling, e.g. "+"
	Comparison  bool   // result is bool
	Commutative bool
	Associative bool // on integers; float + and * are treated as associative, as Futhark does
}

// BinOps is the operator table, indexed by BinOp.
var BinOps = [numBinOps]BinOpInfo{
	Add:       {"add", "+", false, true, true},
	Sub:       {"sub", "-", false, false, false},
	Mul:       {"mul", "*", false, true, true},
	Div:       {"div", "/", false, false, false},
	Mod:       {"mod", "%", false, false, false},
	Quot:      {"quot", "//", false, false, false},
	Rem:       {"rem", "%%", false, false, false},
	Pow:       {"pow", "**", false, false, false},
	Min:       {"min", "min", false, true, true},
	Max:       {"max", "max", false, true, true},
	And:       {"and", "&", false, true, true},
	Or:        {"or", "|", false, true, true},
	Xor:       {"xor", "^", false, true, true},
	Shl:       {"shl", "<<", false, false, false},
	Shr:       {"shr", ">>", false, false, false},
	LogAnd:    {"logand", "&&", false, true, true},
	LogOr:     {"logor", "||", false, true, true},
	Eq:        {"eq", "==", true, true, false},
	Ne:        {"ne", "!=", true, true, false},
	Lt:        {"lt", "<", true, false, false},
	Le:        {"le", "<=", true, false, false},
	Gt:        {"gt", ">", true, false, false},
	Ge:        {"ge", ">=", true, false, false},
	Atan2:     {"atan2", "atan2", false, false, false},
	Hypot:     {"hypot", "hypot", false, true, false},
	CopySign:  {"copysign", "copysign", false, false, false},
	NextAfter: {"nextafter", "nextafter", false, false, false},
	MulHi:     {"mul_hi", "mul_hi", false, true, false},
}

func (op BinOp) String() string { return BinOps[op].Name }

// UnOp is a unary scalar operator or math function.
type UnOp uint8

const (
	Neg    UnOp = iota // arithmetic negation
	Not                // logical not (bool) / bitwise complement (ints)
	Abs                // abs
	Signum             // sgn
	Sqrt
	ExpF // e^x (named ExpF to keep Exp for expressions)
	Log
	Log2
	Log10
	Sin
	Cos
	Tan
	Asin
	Acos
	Atan
	Sinh
	Cosh
	Tanh
	Floor
	Ceil
	Round
	Trunc
	IsNan
	IsInf
	Popc // population count (ints)
	Clz  // count leading zeros (ints)
	Ctz  // count trailing zeros (ints)
	Cbrt
	Log1p
	Erf
	Erfc
	Gamma
	Lgamma
	Asinh
	Acosh
	Atanh
	ToBits   // the IEEE 754 bits of a float as the unsigned type of its width (Futhark's f64.to_bits)
	FromBits // the float whose IEEE 754 bits an unsigned integer holds (f64.from_bits)
	// The f16 operators of the widened program (half.go's WidenHalf):
	// no source name reaches them.
	HalfRound    // round an f32 or f64 to the nearest binary16 value, ties to even
	HalfToBits   // the binary16 bits (u16) of an f32 that holds a half
	HalfFromBits // the f32 value of the binary16 bits a u16 holds
	numUnOps
)

// UnOpInfo describes a unary operator; FloatOnly operators exist only on
// f32/f64, BoolResult ones return bool.
type UnOpInfo struct {
	Name       string
	FloatOnly  bool
	BoolResult bool
	IntResult  bool // result is i32 whatever the operand (popc, clz)
	// BitCast, where set, lists the operand types of a bit cast and the
	// type of the same width each is reinterpreted as: the bits are kept
	// exactly (NaN payloads included), nothing is converted or rounded.
	BitCast map[PrimType]PrimType
	// Operands, where set, lists the operand types of an operator that
	// user code cannot name (the f16 operators) and the result type of
	// each.
	Operands map[PrimType]PrimType
}

// UnOps is the unary operator table, indexed by UnOp.
var UnOps = [numUnOps]UnOpInfo{
	Neg:    {Name: "neg"},
	Not:    {Name: "not"},
	Abs:    {Name: "abs"},
	Signum: {Name: "sgn"},
	Sqrt:   {Name: "sqrt", FloatOnly: true},
	ExpF:   {Name: "exp", FloatOnly: true},
	Log:    {Name: "log", FloatOnly: true},
	Log2:   {Name: "log2", FloatOnly: true},
	Log10:  {Name: "log10", FloatOnly: true},
	Sin:    {Name: "sin", FloatOnly: true},
	Cos:    {Name: "cos", FloatOnly: true},
	Tan:    {Name: "tan", FloatOnly: true},
	Asin:   {Name: "asin", FloatOnly: true},
	Acos:   {Name: "acos", FloatOnly: true},
	Atan:   {Name: "atan", FloatOnly: true},
	Sinh:   {Name: "sinh", FloatOnly: true},
	Cosh:   {Name: "cosh", FloatOnly: true},
	Tanh:   {Name: "tanh", FloatOnly: true},
	Floor:  {Name: "floor", FloatOnly: true},
	Ceil:   {Name: "ceil", FloatOnly: true},
	Round:  {Name: "round", FloatOnly: true},
	Trunc:  {Name: "trunc", FloatOnly: true},
	IsNan:  {Name: "isnan", FloatOnly: true, BoolResult: true},
	IsInf:  {Name: "isinf", FloatOnly: true, BoolResult: true},
	Popc:   {Name: "popc", IntResult: true},
	Clz:    {Name: "clz", IntResult: true},
	Ctz:    {Name: "ctz", IntResult: true},
	Cbrt:   {Name: "cbrt", FloatOnly: true},
	Log1p:  {Name: "log1p", FloatOnly: true},
	Erf:    {Name: "erf", FloatOnly: true},
	Erfc:   {Name: "erfc", FloatOnly: true},
	Gamma:  {Name: "gamma", FloatOnly: true},
	Lgamma: {Name: "lgamma", FloatOnly: true},
	Asinh:  {Name: "asinh", FloatOnly: true},
	Acosh:  {Name: "acosh", FloatOnly: true},
	Atanh:  {Name: "atanh", FloatOnly: true},
	// Bit casts are operators, not conversions: a ConvExp converts the
	// value, and every backend already handles a unary operator whose
	// result type differs from its operand's (isnan, popc).
	ToBits:   {Name: "to_bits", BitCast: map[PrimType]PrimType{F32: U32, F64: U64, F16: U16}},
	FromBits: {Name: "from_bits", BitCast: map[PrimType]PrimType{U32: F32, U64: F64, U16: F16}},

	HalfRound:    {Name: "f16_round", Operands: map[PrimType]PrimType{F32: F32, F64: F64}},
	HalfToBits:   {Name: "f16_to_bits", Operands: map[PrimType]PrimType{F32: U16}},
	HalfFromBits: {Name: "f16_from_bits", Operands: map[PrimType]PrimType{U16: F32}},
}

func (op UnOp) String() string { return UnOps[op].Name }
