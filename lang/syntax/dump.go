package syntax

import (
	"fmt"
	"strconv"
	"strings"
)

// Dump renders a node as an s-expression, for tests and debugging. Types
// are shown as written (`[n]i32`); positions are left out. The forms:
//
//	(def NAME [SIZES] (PARAMS) RET BODY)     ret is _ when not written; let/entry likewise
//	(int 255 u32) (float 2.5) true x i32.max  literal values, suffix if written
//	(+ a b) (i32.+ a b) (neg x) (not x)      operators
//	(apply f a b) (index a i (: i j s)) (proj x 0)
//	(tuple a b) (paren e) (array a b)
//	(section +) (lsection - 2) (rsection * 2) (psection 0 1)
//	(ascribe e T) (if c a b) (let P v body) (letfun f [n] (PARAMS) RET fnbody body)
//	(letwith a (INDICES) v body) (with a (INDICES) v) (lambda (PARAMS) RET body)
//	(loop P init (for i n) body) (for-in P xs) (while c)
//	patterns: x _ (tuple-pat P...) (: P T)
func Dump(n Node) string {
	var b strings.Builder
	dump(&b, n)
	return b.String()
}

func dump(b *strings.Builder, n Node) {
	w := func(parts ...any) {
		b.WriteByte('(')
		for i, p := range parts {
			if i > 0 {
				b.WriteByte(' ')
			}
			switch p := p.(type) {
			case nil:
				b.WriteByte('_')
			case string:
				b.WriteString(p)
			case Node:
				dumpOpt(b, p)
			case []Expr:
				b.WriteByte('(')
				for j, e := range p {
					if j > 0 {
						b.WriteByte(' ')
					}
					dump(b, e)
				}
				b.WriteByte(')')
			case []Pat:
				b.WriteByte('(')
				for j, e := range p {
					if j > 0 {
						b.WriteByte(' ')
					}
					dump(b, e)
				}
				b.WriteByte(')')
			case []DimIndex:
				b.WriteByte('(')
				for j, e := range p {
					if j > 0 {
						b.WriteByte(' ')
					}
					dump(b, e)
				}
				b.WriteByte(')')
			case []SizeParam:
				b.WriteByte('[')
				for j, s := range p {
					if j > 0 {
						b.WriteByte(' ')
					}
					b.WriteString(s.Name)
				}
				b.WriteByte(']')
			default:
				fmt.Fprintf(b, "%v", p)
			}
		}
		b.WriteByte(')')
	}
	switch n := n.(type) {
	case *File:
		for i, d := range n.Decls {
			if i > 0 {
				b.WriteByte('\n')
			}
			dump(b, d)
		}
	case *ValDecl:
		kind := [...]string{KindDef: "def", KindLet: "let", KindEntry: "entry"}[n.Kind]
		w(kind, n.Name, n.SizeParams, n.Params, n.Ret, n.Body)
	case *IntLit:
		w(withSuffix([]any{"int", strconv.FormatUint(n.Value, 10)}, n.Suffix)...)
	case *FloatLit:
		w(withSuffix([]any{"float", strconv.FormatFloat(n.Value, 'g', -1, 64)}, n.Suffix)...)
	case *BoolLit:
		b.WriteString(strconv.FormatBool(n.Value))
	case *Var:
		b.WriteString(qualified(n.Qual, n.Name))
	case *TupleExpr:
		w(append([]any{"tuple"}, exprs(n.Elems)...)...)
	case *ParenExpr:
		if n.Open != "" {
			w("open", n.Open, n.X)
			break
		}
		w("paren", n.X)
	case *ArrayLit:
		w(append([]any{"array"}, exprs(n.Elems)...)...)
	case *Project:
		if n.Name != "" {
			w("field", n.X, n.Name)
			break
		}
		w("proj", n.X, strconv.Itoa(n.Field))
	case *Index:
		w(append([]any{"index", n.X}, dims(n.Indices)...)...)
	case *DimFix:
		dump(b, n.I)
	case *DimSlice:
		w(":", n.Start, n.End, n.Stride)
	case *Apply:
		w(append([]any{"apply", n.Fn}, exprs(n.Args)...)...)
	case *BinOp:
		w(qualified(n.Qual, n.Op), n.Lhs, n.Rhs)
	case *Negate:
		w("neg", n.X)
	case *Not:
		w("not", n.X)
	case *OpSection:
		w("section", qualified(n.Qual, n.Op))
	case *LeftSection:
		w("lsection", qualified(n.Qual, n.Op), n.X)
	case *RightSection:
		w("rsection", qualified(n.Qual, n.Op), n.X)
	case *ProjectSection:
		parts := []any{"psection"}
		for i, f := range n.Fields {
			if n.Names != nil && n.Names[i] != "" {
				parts = append(parts, n.Names[i])
				continue
			}
			parts = append(parts, strconv.Itoa(f))
		}
		w(parts...)
	case *Ascribe:
		if n.Coerce {
			w("coerce", n.X, n.Type)
			break
		}
		w("ascribe", n.X, n.Type)
	case *RecordExpr:
		parts := []any{"record"}
		for _, f := range n.Fields {
			parts = append(parts, f.Name, f.Value)
		}
		w(parts...)
	case *RecordPat:
		parts := []any{"record-pat"}
		for _, f := range n.Fields {
			parts = append(parts, f.Name, f.Pat)
		}
		w(parts...)
	case *Range:
		w("range", n.Op, n.Start, n.Second, n.End)
	case *Assert:
		w("assert", n.Cond, n.X)
	case *IndexSection:
		w(append([]any{"isection"}, dims(n.Indices)...)...)
	case *Hole:
		w("hole")
	case *TypeDecl:
		w("type", n.Name, n.Params, n.Type)
	case *If:
		w("if", n.Cond, n.Then, n.Else)
	case *LetIn:
		w("let", n.Pat, n.Val, n.Body)
	case *LetFun:
		w("letfun", n.Name, n.SizeParams, n.Params, n.Ret, n.FnBody, n.Body)
	case *LetWith:
		w("letwith", n.Name, n.Indices, n.Val, n.Body)
	case *Update:
		if n.Path != nil {
			w("with-field", n.X, strings.Join(n.Path, "."), n.Val)
			break
		}
		w("with", n.X, n.Indices, n.Val)
	case *Lambda:
		w("lambda", n.Params, n.Ret, n.Body)
	case *Loop:
		w("loop", n.Pat, n.Init, n.Form, n.Body)
	case *ForLoop:
		w("for", n.I, n.Bound)
	case *ForInLoop:
		w("for-in", n.Pat, n.Arr)
	case *WhileLoop:
		w("while", n.Cond)
	case *IdPat:
		b.WriteString(n.Name)
	case *WildPat:
		b.WriteString("_")
	case *TuplePat:
		parts := []any{"tuple-pat"}
		for _, e := range n.Elems {
			parts = append(parts, e)
		}
		w(parts...)
	case *AscribedPat:
		w(":", n.Pat, n.Type)
	case *Constr, *ConTest, *ConField, *Match:
		dumpSum(b, n, w)
	case TypeExpr:
		b.WriteString(TypeString(n))
	default:
		fmt.Fprintf(b, "<unknown node %T>", n)
	}
}

// dumpOpt dumps a node that may be nil (written as _).
func dumpOpt(b *strings.Builder, n Node) {
	if isNil(n) {
		b.WriteByte('_')
		return
	}
	dump(b, n)
}

// isNil reports whether n is nil or a typed nil of one of the optional
// fields (Ret, Init, slice parts).
func isNil(n Node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case TypeExpr:
		return n == nil || typeIsNil(n)
	case Expr:
		return n == nil
	}
	return false
}

func typeIsNil(t TypeExpr) bool {
	switch t := t.(type) {
	case *PrimTypeExpr:
		return t == nil
	case *ArrayTypeExpr:
		return t == nil
	case *TupleTypeExpr:
		return t == nil
	case *UniqueTypeExpr:
		return t == nil
	case *FuncTypeExpr:
		return t == nil
	case *RecordTypeExpr:
		return t == nil
	case *NamedTypeExpr:
		return t == nil
	case *SumTypeExpr:
		return t == nil
	}
	return false
}

func withSuffix(parts []any, suffix string) []any {
	if suffix != "" {
		parts = append(parts, suffix)
	}
	return parts
}

func exprs(es []Expr) []any {
	out := make([]any, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func dims(ds []DimIndex) []any {
	out := make([]any, len(ds))
	for i, d := range ds {
		out[i] = d
	}
	return out
}

func qualified(qual, name string) string {
	if qual == "" {
		return name
	}
	return qual + "." + name
}

// TypeString renders a type as it is written in source: `[n]i32`,
// `*[]f32`, `(i32, bool)`, `i32 -> i32`.
func TypeString(t TypeExpr) string {
	switch t := t.(type) {
	case *PrimTypeExpr:
		return t.Name
	case *ArrayTypeExpr:
		dim := ""
		if t.Dim != nil {
			dim = dimString(t.Dim)
		}
		return "[" + dim + "]" + TypeString(t.Elem)
	case *RecordTypeExpr:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Name + ": " + TypeString(f.Type)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *NamedTypeExpr:
		parts := []string{t.Name}
		for _, a := range t.Args {
			if a.Type != nil {
				parts = append(parts, TypeString(a.Type))
			} else {
				parts = append(parts, "["+dimString(a.Dim)+"]")
			}
		}
		return strings.Join(parts, " ")
	case *TupleTypeExpr:
		parts := make([]string, len(t.Elems))
		for i, e := range t.Elems {
			parts[i] = TypeString(e)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *UniqueTypeExpr:
		return "*" + TypeString(t.Elem)
	case *FuncTypeExpr:
		param := TypeString(t.Param)
		if _, ok := t.Param.(*FuncTypeExpr); ok {
			param = "(" + param + ")"
		}
		return param + " -> " + TypeString(t.Ret)
	case *SumTypeExpr:
		return sumTypeString(t)
	case nil:
		return "_"
	}
	return fmt.Sprintf("<unknown type %T>", t)
}

func dimString(d *DimExpr) string {
	switch {
	case d.Name != "":
		return d.Name
	case d.Expr != nil:
		return Dump(d.Expr)
	case d.Const < 0:
		return ""
	}
	return strconv.FormatInt(d.Const, 10)
}
