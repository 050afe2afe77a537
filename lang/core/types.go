package core

import "fmt"

// This file derives the result types of expressions and says which
// operators apply to which primitive types. The verifier, the builder and
// the backends share it, so that "what does this statement produce" has one
// answer.

// BinOpValid reports whether op applies to operands of type t.
func BinOpValid(op BinOp, t PrimType) bool {
	if int(op) >= len(BinOps) || int(t) >= len(primNames) {
		return false
	}
	switch op {
	case Add, Sub, Mul, Div, Mod, Quot, Rem, Pow, Min, Max:
		return t != Bool
	case And, Or, Xor:
		return t == Bool || t.IsInt()
	case Shl, Shr:
		return t.IsInt()
	case LogAnd, LogOr:
		return t == Bool
	case Eq, Ne, Lt, Le, Gt, Ge:
		return true
	case Atan2, Hypot, CopySign, NextAfter:
		return t.IsFloat()
	case MulHi:
		return t.IsInt()
	}
	return false
}

// BinOpResult is the result type of op applied to operands of type t.
func BinOpResult(op BinOp, t PrimType) PrimType {
	if int(op) < len(BinOps) && BinOps[op].Comparison {
		return Bool
	}
	return t
}

// UnOpValid reports whether op applies to an operand of type t.
func UnOpValid(op UnOp, t PrimType) bool {
	if int(op) >= len(UnOps) || int(t) >= len(primNames) {
		return false
	}
	info := UnOps[op]
	switch {
	case info.BitCast != nil:
		_, ok := info.BitCast[t]
		return ok
	case info.Operands != nil:
		_, ok := info.Operands[t]
		return ok
	case info.FloatOnly:
		return t.IsFloat()
	case op == Popc || op == Clz || op == Ctz:
		return t.IsInt()
	case op == Not:
		return t == Bool || t.IsInt()
	}
	return t != Bool // Neg, Abs, Signum
}

// UnOpResult is the result type of op applied to an operand of type t.
func UnOpResult(op UnOp, t PrimType) PrimType {
	if int(op) >= len(UnOps) {
		return t
	}
	switch info := UnOps[op]; {
	case info.BitCast != nil:
		if r, ok := info.BitCast[t]; ok {
			return r
		}
	case info.Operands != nil:
		if r, ok := info.Operands[t]; ok {
			return r
		}
	case info.BoolResult:
		return Bool
	case info.IntResult:
		return I32
	}
	return t
}

// TypesOf returns the types of a list of variables.
func TypesOf(vs []*Var) []Type {
	ts := make([]Type, len(vs))
	for i, v := range vs {
		ts[i] = v.Type
	}
	return ts
}

// AtomTypes returns the types of a list of atoms.
func AtomTypes(as []Atom) []Type {
	ts := make([]Type, len(as))
	for i, a := range as {
		ts[i] = a.AtomType()
	}
	return ts
}

func liftAll(ts []Type, by int) []Type {
	out := make([]Type, len(ts))
	for i, t := range ts {
		out[i] = Type{Elem: t.Elem, Rank: t.Rank + by}
	}
	return out
}

// NumScanned is the number of values all scans of s produce.
func (s *Screma) NumScanned() int {
	n := 0
	for _, op := range s.Scans {
		n += len(op.Neutral)
	}
	return n
}

// NumReduced is the number of values all reductions of s produce.
func (s *Screma) NumReduced() int {
	n := 0
	for _, op := range s.Reds {
		n += len(op.Neutral)
	}
	return n
}

// NumMapOut is the number of map-out values of s (Map's results after the
// scan and reduction inputs).
func (s *Screma) NumMapOut() int {
	if s.Map == nil {
		return 0
	}
	return len(s.Map.Ret) - s.NumScanned() - s.NumReduced()
}

// ResultTypes is the documented result order of a Screma: without Post,
// scanned arrays, reduced values, map-out arrays; with Post, Post's outputs
// as arrays followed by the reduced values.
func (s *Screma) ResultTypes() []Type {
	ns, nr := s.NumScanned(), s.NumReduced()
	var out []Type
	reds := []Type{}
	for _, op := range s.Reds {
		reds = append(reds, AtomTypes(op.Neutral)...)
	}
	if s.Post != nil {
		out = append(out, liftAll(s.Post.Ret, 1)...)
		return append(out, reds...)
	}
	if s.Map == nil || len(s.Map.Ret) < ns+nr {
		return append(out, reds...)
	}
	out = append(out, liftAll(s.Map.Ret[:ns], 1)...)
	out = append(out, reds...)
	return append(out, liftAll(s.Map.Ret[ns+nr:], 1)...)
}

// ExpTypes returns the types of the values e produces, which is what a
// statement binding e must declare in its pattern. It relies only on the
// expression (operands carry their types), not on an environment.
func ExpTypes(e Exp) ([]Type, error) {
	switch e := e.(type) {
	case *AtomExp:
		return []Type{e.A.AtomType()}, nil
	case *BinOpExp:
		return []Type{Scalar(BinOpResult(e.Op, e.T))}, nil
	case *UnOpExp:
		return []Type{Scalar(UnOpResult(e.Op, e.T))}, nil
	case *ConvExp:
		return []Type{Scalar(e.To)}, nil
	case *IfExp:
		return e.Ret, nil
	case *LoopExp:
		return TypesOf(e.Params), nil
	case *IndexExp:
		t := e.Arr.Type
		for _, d := range e.Idx {
			if d.Fix != nil {
				t.Rank--
			}
		}
		if t.Rank < 0 {
			return nil, fmt.Errorf("too many indices for %v", e.Arr.Type)
		}
		return []Type{t}, nil
	case *UpdateExp:
		return []Type{e.Arr.Type}, nil
	case *SizeExp:
		return []Type{Scalar(I64)}, nil
	case *ArrayLitExp:
		return []Type{e.Elem.Lift()}, nil
	case *IotaExp:
		return []Type{ArrayOf(e.T, 1)}, nil
	case *ReplicateExp:
		return []Type{e.V.AtomType().Lift()}, nil
	case *ReshapeExp:
		return []Type{ArrayOf(e.Arr.Type.Elem, len(e.Shape))}, nil
	case *TransposeExp:
		return []Type{e.Arr.Type}, nil
	case *ReverseExp:
		return []Type{e.Arr.Type}, nil
	case *RotateExp:
		return []Type{e.Arr.Type}, nil
	case *ConcatExp:
		if len(e.Arrs) == 0 {
			return nil, fmt.Errorf("concat of no arrays")
		}
		return []Type{e.Arrs[0].Type}, nil
	case *CopyExp:
		return []Type{e.Arr.Type}, nil
	case *ApplyExp:
		return e.Ret, nil
	case *AssertExp:
		return nil, nil
	case *Screma:
		return e.ResultTypes(), nil
	case *Hist:
		var out []Type
		for _, op := range e.Ops {
			out = append(out, TypesOf(op.Dests)...)
		}
		return out, nil
	case *Scatter:
		return TypesOf(e.Dests), nil
	case *Filter:
		ts := TypesOf(e.Arrs)
		if e.Map != nil {
			ts = liftAll(e.Map.Ret, 1)
		}
		if e.Partition {
			ts = append(ts, ts...)
		}
		return ts, nil
	case *Segmented:
		if e.Op == nil {
			return nil, fmt.Errorf("segmented without an operation")
		}
		return liftAll(e.Op.ResultTypes(), len(e.Outer)), nil
	case *MultiScan:
		if e.Op == nil {
			return nil, fmt.Errorf("multiscan without an operator")
		}
		return liftAll(AtomTypes(e.Op.Neutral), 1), nil
	}
	return nil, fmt.Errorf("internal error: unknown expression %T", e)
}

// ScremaKind names the special case a Screma is, as plans and timings show
// it: "map", "reduce", "scan", "redomap", "scanomap" or "screma".
func (s *Screma) Kind() string {
	scans, reds, outs := len(s.Scans) > 0, len(s.Reds) > 0, s.NumMapOut() > 0
	switch {
	case !scans && !reds:
		return "map"
	case scans && !reds:
		if outs || s.Post != nil || !IsIdentityLambda(s.Map) {
			return "scanomap"
		}
		return "scan"
	case reds && !scans:
		if outs || !IsIdentityLambda(s.Map) {
			return "redomap"
		}
		return "reduce"
	}
	return "screma"
}

// IsIdentityLambda reports whether l returns its parameters unchanged, in
// order (the map lambda of a plain reduce or scan).
func IsIdentityLambda(l *Lambda) bool {
	if l == nil || len(l.Body.Stmts) != 0 || len(l.Body.Result) != len(l.Params) {
		return false
	}
	for i, r := range l.Body.Result {
		if v, ok := r.(*Var); !ok || v.Name != l.Params[i].Name {
			return false
		}
	}
	return true
}

// ForOf and WhileOf normalise a LoopForm, which may be held by value or by
// pointer (both satisfy the interface): ForOf returns the for-loop form or
// nil, WhileOf the while-loop form or nil.
func ForOf(f LoopForm) *ForLoop {
	switch f := f.(type) {
	case ForLoop:
		return &f
	case *ForLoop:
		return f
	}
	return nil
}

// WhileOf returns the while-loop form of f, or nil.
func WhileOf(f LoopForm) *WhileLoop {
	switch f := f.(type) {
	case WhileLoop:
		return &f
	case *WhileLoop:
		return f
	}
	return nil
}
