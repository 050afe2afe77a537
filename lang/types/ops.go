package types

// opClass says how an infix operator is typed.
type opClass int

const (
	opArith   opClass = iota // both operands one type from operands; result that type
	opCmp                    // both operands one type from operands; result bool
	opEq                     // any non-function type; result bool
	opConcat                 // ++, typed as concat
	opPipe                   // |> and <|, typed as application
	opCompose                // >-> and <-<, function composition
)

// opRule is the typing rule of one infix operator.
type opRule struct {
	class      opClass
	operands   primSet
	boolResult bool
}

// binOps is the table of unqualified infix operators (Futhark's overloaded
// built-in operators on primitive types). `==` and `!=` also compare
// tuples and arrays, as in Futhark.
var binOps = map[string]opRule{
	"+":   {opArith, numSet, false},
	"-":   {opArith, numSet, false},
	"*":   {opArith, numSet, false},
	"/":   {opArith, numSet, false},
	"%":   {opArith, numSet, false},
	"**":  {opArith, numSet, false},
	"//":  {opArith, intSet, false},
	"%%":  {opArith, intSet, false},
	"&":   {opArith, intSet, false},
	"|":   {opArith, intSet, false},
	"^":   {opArith, intSet, false},
	"<<":  {opArith, intSet, false},
	">>":  {opArith, intSet, false},
	">>>": {opArith, intSet, false},
	"&&":  {opArith, boolSet, false},
	"||":  {opArith, boolSet, false},
	"<":   {opCmp, numSet | boolSet, true},
	"<=":  {opCmp, numSet | boolSet, true},
	">":   {opCmp, numSet | boolSet, true},
	">=":  {opCmp, numSet | boolSet, true},
	"==":  {opEq, 0, true},
	"!=":  {opEq, 0, true},
	"++":  {opConcat, 0, false},
	"|>":  {opPipe, 0, false},
	"<|":  {opPipe, 0, false},
	">->": {opCompose, 0, false},
	"<-<": {opCompose, 0, false},
}
