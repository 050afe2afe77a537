package core

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/source"
)

// The verifier checks the invariants every pass must preserve: variables
// are defined before use and bound once per function, every reference
// carries its definition's type, operators apply to their operand types,
// lambdas agree with the SOAC inputs and neutral elements they are used
// with, and statement patterns match what their expressions produce (in
// the documented order for Screma). Tests run it after lowering and after
// every fusion pass, so a broken invariant is reported where it was
// introduced rather than as a wrong answer in a backend.

// VerifyError is one broken invariant, naming the function and the
// statement it was found in.
type VerifyError struct {
	Fun  string
	Stmt string // the statement's first line, "" for function-level errors
	Pos  source.Pos
	Msg  string
}

func (e *VerifyError) Error() string {
	var b strings.Builder
	b.WriteString("core: ")
	b.WriteString(e.Fun)
	if e.Stmt != "" {
		fmt.Fprintf(&b, ": in %q", e.Stmt)
	}
	if e.Pos.IsValid() {
		fmt.Fprintf(&b, " (%s)", e.Pos)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// VerifyErrors is every broken invariant of a program.
type VerifyErrors []*VerifyError

func (l VerifyErrors) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// maxVerifyErrors bounds the report: one early mistake tends to cascade.
const maxVerifyErrors = 20

// Verify checks p and returns VerifyErrors, or nil when p is well formed.
func Verify(p *Program) error {
	if p == nil {
		return VerifyErrors{{Fun: "<program>", Msg: "nil program"}}
	}
	v := &verifier{prog: p}
	names := map[string]bool{}
	for _, f := range p.Funs {
		if f == nil {
			v.errs = append(v.errs, &VerifyError{Fun: "<program>", Msg: "nil function"})
			continue
		}
		if names[f.Name] {
			v.errs = append(v.errs, &VerifyError{Fun: f.Name, Pos: f.Pos, Msg: "function defined twice"})
		}
		names[f.Name] = true
		v.fun(f)
	}
	if len(v.errs) == 0 {
		return nil
	}
	if len(v.errs) > maxVerifyErrors {
		v.errs = v.errs[:maxVerifyErrors]
	}
	return v.errs
}

// VerifyFun checks one function of p.
func VerifyFun(p *Program, f *Fun) error {
	v := &verifier{prog: p}
	v.fun(f)
	if len(v.errs) == 0 {
		return nil
	}
	return v.errs
}

type verifier struct {
	prog *Program
	errs VerifyErrors
	fn   *Fun
	stmt *Stmt
	// defined is every name bound so far in the function (uniqueness);
	// scope is what is visible at the current point.
	defined map[string]bool
	scope   *scope
}

type scope struct {
	vars   map[string]Type
	parent *scope
}

func (v *verifier) errorf(format string, args ...any) {
	e := &VerifyError{Msg: fmt.Sprintf(format, args...)}
	if v.fn != nil {
		e.Fun = v.fn.Name
		e.Pos = v.fn.Pos
	}
	if v.stmt != nil {
		e.Stmt = firstLine(PrintStmt(v.stmt))
		e.Pos = v.stmt.Pos
	}
	v.errs = append(v.errs, e)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

func (v *verifier) push() { v.scope = &scope{vars: map[string]Type{}, parent: v.scope} }
func (v *verifier) pop()  { v.scope = v.scope.parent }

func (v *verifier) lookup(name string) (Type, bool) {
	for s := v.scope; s != nil; s = s.parent {
		if t, ok := s.vars[name]; ok {
			return t, true
		}
	}
	return Type{}, false
}

// bind introduces a variable in the current scope.
func (v *verifier) bind(x *Var) {
	if x == nil {
		v.errorf("nil variable in a binding position")
		return
	}
	if x.Name == "" {
		v.errorf("variable with an empty name")
	}
	if !validType(x.Type) {
		v.errorf("variable %s has invalid type %v", x.Name, x.Type)
	}
	if v.defined[x.Name] {
		v.errorf("variable %s bound more than once", x.Name)
	}
	v.defined[x.Name] = true
	v.scope.vars[x.Name] = x.Type
}

func validType(t Type) bool { return int(t.Elem) < len(primNames) && t.Rank >= 0 }

func (v *verifier) fun(f *Fun) {
	v.fn, v.stmt = f, nil
	v.defined = map[string]bool{}
	v.scope = nil
	v.push()
	for _, p := range f.Params {
		v.bind(p)
	}
	if f.Body == nil {
		v.errorf("function has no body")
		return
	}
	res := v.body(f.Body)
	v.stmt = nil
	v.matchTypes("function result", res, f.Ret)
	v.pop()
}

// body checks a body in a new scope and returns its result types.
func (v *verifier) body(b *Body) []Type {
	if b == nil {
		v.errorf("missing body")
		return nil
	}
	v.push()
	defer v.pop()
	outer := v.stmt
	for _, s := range b.Stmts {
		if s == nil {
			v.errorf("nil statement")
			continue
		}
		v.stmt = s
		v.stmtCheck(s)
	}
	v.stmt = outer
	return v.atoms(b.Result)
}

func (v *verifier) atoms(as []Atom) []Type {
	ts := make([]Type, len(as))
	for i, a := range as {
		ts[i] = v.atom(a)
	}
	return ts
}

// atom checks that a variable is in scope with its definition's type, or
// that a constant is well formed, and returns the atom's type.
func (v *verifier) atom(a Atom) Type {
	switch a := a.(type) {
	case *Var:
		if a == nil {
			v.errorf("nil variable")
			return Type{}
		}
		return v.varRef(a)
	case Const:
		if int(a.T) >= len(primNames) {
			v.errorf("constant of invalid type %d", a.T)
		} else if (a.T.IsInt() || a.T == Bool) && Wrap(a.T, a.Bits) != a.Bits {
			v.errorf("constant bits %#x out of range for %v", a.Bits, a.T)
		}
		return a.AtomType()
	case nil:
		v.errorf("missing operand")
		return Type{}
	}
	v.errorf("internal error: unknown atom %T", a)
	return Type{}
}

func (v *verifier) varRef(x *Var) Type {
	if x == nil {
		v.errorf("nil variable")
		return Type{}
	}
	t, ok := v.lookup(x.Name)
	if !ok {
		if v.defined[x.Name] {
			v.errorf("variable %s used outside its scope", x.Name)
		} else {
			v.errorf("variable %s used before its definition", x.Name)
		}
		return x.Type
	}
	if t != x.Type {
		v.errorf("variable %s used at type %v but defined with type %v", x.Name, x.Type, t)
	}
	return x.Type
}

func (v *verifier) matchTypes(what string, got, want []Type) {
	if len(got) != len(want) {
		v.errorf("%s: %d values where %d are expected", what, len(got), len(want))
		return
	}
	for i := range got {
		if got[i] != want[i] {
			v.errorf("%s: value %d has type %v, expected %v", what, i, got[i], want[i])
		}
	}
}

func (v *verifier) scalarOf(what string, a Atom, want PrimType) {
	if t := v.atom(a); t != Scalar(want) {
		v.errorf("%s has type %v, expected %v", what, t, want)
	}
}

func (v *verifier) intScalar(what string, a Atom) {
	if t := v.atom(a); t.Rank != 0 || !t.Elem.IsInt() {
		v.errorf("%s has type %v, expected an integer", what, t)
	}
}

func (v *verifier) array(what string, x *Var, minRank int) Type {
	t := v.atom(x)
	if x != nil && t.Rank < minRank {
		v.errorf("%s %s has type %v, expected an array of rank at least %d", what, x.Name, t, minRank)
	}
	return t
}

func (v *verifier) stmtCheck(s *Stmt) {
	got := v.exp(s.Exp)
	for _, x := range s.Pat {
		v.bind(x)
	}
	if got != nil {
		v.matchTypes("pattern", TypesOf(s.Pat), got)
	}
}

// exp checks an expression and returns the types it produces, or nil when
// they could not be determined (an error has been reported then).
func (v *verifier) exp(e Exp) []Type {
	switch e := e.(type) {
	case *AtomExp:
		return []Type{v.atom(e.A)}
	case *BinOpExp:
		if !BinOpValid(e.Op, e.T) {
			v.errorf("operator %v does not apply to %v", e.Op, e.T)
		}
		v.scalarOf("left operand", e.X, e.T)
		v.scalarOf("right operand", e.Y, e.T)
	case *UnOpExp:
		if !UnOpValid(e.Op, e.T) {
			v.errorf("operator %v does not apply to %v", e.Op, e.T)
		}
		v.scalarOf("operand", e.X, e.T)
	case *ConvExp:
		if int(e.From) >= len(primNames) || int(e.To) >= len(primNames) {
			v.errorf("conversion between invalid types")
			return nil
		}
		v.scalarOf("conversion operand", e.X, e.From)
	case *IfExp:
		v.scalarOf("condition", e.Cond, Bool)
		v.matchTypes("then branch", v.body(e.Then), e.Ret)
		v.matchTypes("else branch", v.body(e.Else), e.Ret)
	case *LoopExp:
		v.loop(e)
	case *IndexExp:
		t := v.array("indexed array", e.Arr, 1)
		if len(e.Idx) > t.Rank {
			v.errorf("%d indices for an array of rank %d", len(e.Idx), t.Rank)
			return nil
		}
		v.dims(e.Idx)
	case *UpdateExp:
		t := v.array("updated array", e.Arr, 1)
		if len(e.Idx) > t.Rank {
			v.errorf("%d indices for an array of rank %d", len(e.Idx), t.Rank)
			return nil
		}
		v.dims(e.Idx)
		want, _ := ExpTypes(&IndexExp{Arr: e.Arr, Idx: e.Idx})
		if vt := v.atom(e.Val); len(want) == 1 && vt != want[0] {
			v.errorf("update value has type %v, expected %v", vt, want[0])
		}
	case *SizeExp:
		t := v.array("array", e.Arr, 1)
		if e.Dim < 0 || e.Dim >= t.Rank {
			v.errorf("size of dimension %d of an array of rank %d", e.Dim, t.Rank)
		}
	case *ArrayLitExp:
		if !validType(e.Elem) {
			v.errorf("array literal of invalid element type")
		}
		for i, a := range e.Elems {
			if t := v.atom(a); t != e.Elem {
				v.errorf("array literal element %d has type %v, expected %v", i, t, e.Elem)
			}
		}
	case *IotaExp:
		if !e.T.IsInt() {
			v.errorf("iota of non-integer type %v", e.T)
		}
		v.intScalar("iota size", e.N)
		v.scalarOf("iota start", e.Start, e.T)
		v.scalarOf("iota step", e.Step, e.T)
	case *ReplicateExp:
		v.intScalar("replicate count", e.N)
		v.atom(e.V)
	case *ReshapeExp:
		v.array("reshaped array", e.Arr, 1)
		if len(e.Shape) == 0 {
			v.errorf("reshape to rank 0")
		}
		for _, a := range e.Shape {
			v.intScalar("reshape dimension", a)
		}
	case *TransposeExp:
		v.array("transposed array", e.Arr, 2)
	case *ReverseExp:
		v.array("reversed array", e.Arr, 1)
	case *RotateExp:
		v.intScalar("rotation", e.R)
		v.array("rotated array", e.Arr, 1)
	case *ConcatExp:
		if len(e.Arrs) == 0 {
			v.errorf("concat of no arrays")
			return nil
		}
		t0 := v.array("concatenated array", e.Arrs[0], 1)
		for _, a := range e.Arrs[1:] {
			if t := v.array("concatenated array", a, 1); t != t0 {
				v.errorf("concat of %v and %v", t0, t)
			}
		}
	case *CopyExp:
		v.array("copied array", e.Arr, 1)
	case *ApplyExp:
		f := v.prog.Fun(e.Fun)
		args := v.atoms(e.Args)
		if f == nil {
			v.errorf("call of unknown function %s", e.Fun)
		} else {
			v.matchTypes("arguments of "+e.Fun, args, TypesOf(f.Params))
			v.matchTypes("result of "+e.Fun, e.Ret, f.Ret)
		}
	case *AssertExp:
		v.scalarOf("assertion", e.Cond, Bool)
		for _, a := range e.Args {
			v.scalarOf("assertion argument", a, I64)
		}
	case *Screma:
		v.screma(e, 0)
	case *Hist:
		v.hist(e)
	case *Scatter:
		v.scatter(e)
	case *Filter:
		v.intScalar("width", e.W)
		rows := v.soacInputs(e.Arrs, 0)
		if e.Map != nil {
			// A fused map: the predicate sees its results.
			v.withIndex(rows, e.Index, func() { rows = v.lambda("filter map", e.Map, rows, nil) })
		}
		v.lambda("predicate", e.Pred, rows, []Type{Scalar(Bool)})
	case *Segmented:
		for _, a := range e.Outer {
			v.intScalar("segment count", a)
		}
		if e.Op == nil {
			v.errorf("segmented without an operation")
			return nil
		}
		v.screma(e.Op, len(e.Outer))
	case *MultiScan:
		v.intScalar("width", e.W)
		v.intScalar("label count", e.K)
		if lt := v.array("labels", e.Labels, 1); e.Labels != nil && (lt.Rank != 1 || !lt.Elem.IsInt()) {
			v.errorf("labels have type %v, expected a one-dimensional integer array", lt)
		}
		rows := v.soacInputs(e.Arrs, 0)
		if e.Op == nil {
			v.errorf("multiscan without an operator")
			return nil
		}
		ne := v.atoms(e.Op.Neutral)
		v.matchTypes("multiscan input", rows, ne)
		v.lambda("multiscan operator", e.Op.Lambda, append(append([]Type{}, ne...), ne...), ne)
	case nil:
		v.errorf("missing expression")
		return nil
	default:
		v.errorf("internal error: unknown expression %T", e)
		return nil
	}
	ts, err := ExpTypes(e)
	if err != nil {
		v.errorf("%v", err)
		return nil
	}
	return ts
}

func (v *verifier) dims(idx []DimIndex) {
	for _, d := range idx {
		if d.Fix != nil {
			v.intScalar("index", *d.Fix)
			continue
		}
		v.intScalar("slice start", d.Start)
		v.intScalar("slice end", d.End)
		v.intScalar("slice stride", d.Stride)
	}
}

func (v *verifier) loop(e *LoopExp) {
	if len(e.Params) != len(e.Init) {
		v.errorf("loop has %d parameters but %d initial values", len(e.Params), len(e.Init))
	}
	init := v.atoms(e.Init)
	v.push()
	defer v.pop()
	for _, p := range e.Params {
		v.bind(p)
	}
	if len(e.Params) == len(e.Init) {
		v.matchTypes("loop initial values", init, TypesOf(e.Params))
	}
	if f := ForOf(e.Form); f != nil {
		v.intScalar("loop bound", f.Bound)
		v.bind(f.I)
		if f.I != nil && f.Bound != nil && f.I.Type != f.Bound.AtomType() {
			v.errorf("loop index %s has type %v but the bound has type %v", f.I.Name, f.I.Type, f.Bound.AtomType())
		}
	} else if w := WhileOf(e.Form); w != nil {
		found := false
		for _, p := range e.Params {
			if w.Cond != nil && p.Name == w.Cond.Name {
				found = true
			}
		}
		if !found || w.Cond.Type != Scalar(Bool) {
			v.errorf("while-loop condition must be a bool loop parameter")
		}
	} else {
		v.errorf("internal error: unknown loop form %T", e.Form)
	}
	v.matchTypes("loop body", v.body(e.Body), TypesOf(e.Params))
}

// lambda checks a lambda against the parameter and result types its use
// demands (nil want leaves the results unchecked and returns them).
func (v *verifier) lambda(what string, l *Lambda, params, want []Type) []Type {
	if l == nil {
		v.errorf("%s: missing lambda", what)
		return nil
	}
	v.push()
	defer v.pop()
	for _, p := range l.Params {
		v.bind(p)
	}
	v.matchTypes(what+" parameters", TypesOf(l.Params), params)
	got := v.body(l.Body)
	v.matchTypes(what+" body", got, l.Ret)
	if want != nil {
		v.matchTypes(what+" results", l.Ret, want)
	}
	return l.Ret
}

// soacInputs checks the input arrays of a SOAC (with extra outer segment
// dimensions) and returns the types of one element of each.
func (v *verifier) soacInputs(arrs []*Var, outer int) []Type {
	rows := make([]Type, len(arrs))
	for i, a := range arrs {
		t := v.array("input", a, outer+1)
		rows[i] = Type{Elem: t.Elem, Rank: t.Rank - outer - 1}
		if rows[i].Rank < 0 {
			rows[i].Rank = 0
		}
	}
	return rows
}

func (v *verifier) withIndex(params []Type, idx *Var, body func()) {
	if idx == nil {
		body()
		return
	}
	v.push()
	defer v.pop()
	v.bind(idx)
	if idx.Type != Scalar(I64) {
		v.errorf("index parameter %s has type %v, expected i64", idx.Name, idx.Type)
	}
	body()
}

func (v *verifier) screma(s *Screma, outer int) {
	v.intScalar("width", s.W)
	rows := v.soacInputs(s.Arrs, outer)
	var mapRet []Type
	v.withIndex(rows, s.Index, func() { mapRet = v.lambda("map lambda", s.Map, rows, nil) })
	ns, nr := s.NumScanned(), s.NumReduced()
	if len(mapRet) < ns+nr {
		v.errorf("map lambda returns %d values but the scans and reductions take %d", len(mapRet), ns+nr)
		return
	}
	off := 0
	for i, op := range s.Scans {
		ne := v.atoms(op.Neutral)
		v.matchTypes(fmt.Sprintf("scan %d input", i), mapRet[off:off+len(ne)], ne)
		v.lambda(fmt.Sprintf("scan %d operator", i), op.Lambda, append(append([]Type{}, ne...), ne...), ne)
		off += len(ne)
	}
	for i, op := range s.Reds {
		ne := v.atoms(op.Neutral)
		v.matchTypes(fmt.Sprintf("reduction %d input", i), mapRet[off:off+len(ne)], ne)
		v.lambda(fmt.Sprintf("reduction %d operator", i), op.Lambda, append(append([]Type{}, ne...), ne...), ne)
		off += len(ne)
	}
	if s.Post != nil {
		in := append(append([]Type{}, mapRet[:ns]...), mapRet[ns+nr:]...)
		v.lambda("post lambda", s.Post, in, nil)
	}
}

func (v *verifier) hist(h *Hist) {
	v.intScalar("width", h.W)
	rows := v.soacInputs(h.Arrs, 0)
	var want []Type
	for i, op := range h.Ops {
		ne := v.atoms(op.Neutral)
		if len(op.Dests) != len(ne) {
			v.errorf("histogram %d has %d destinations but %d neutral values", i, len(op.Dests), len(ne))
		}
		for j, d := range op.Dests {
			t := v.array("histogram destination", d, 1)
			if j < len(ne) && t.Row() != ne[j] {
				v.errorf("histogram %d destination %s has type %v for values of type %v", i, d.Name, t, ne[j])
			}
		}
		want = append(want, Scalar(I64))
		want = append(want, ne...)
		v.lambda(fmt.Sprintf("histogram %d operator", i), op.Lambda, append(append([]Type{}, ne...), ne...), ne)
	}
	v.withIndex(rows, h.Index, func() { v.lambda("map lambda", h.Map, rows, want) })
}

func (v *verifier) scatter(s *Scatter) {
	v.intScalar("width", s.W)
	rows := v.soacInputs(s.Arrs, 0)
	var want []Type
	for _, d := range s.Dests {
		t := v.array("scatter destination", d, 1)
		want = append(want, Scalar(I64), t.Row())
	}
	v.withIndex(rows, s.Index, func() { v.lambda("map lambda", s.Map, rows, want) })
}
