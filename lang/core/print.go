package core

import (
	"fmt"
	"strconv"
	"strings"
)

// The printer renders core IR as readable text in the style of Futhark's
// IR dumps: one `let` per statement, results after `in`, SOAC lambdas on
// their own indented lines. The output depends only on the program (no map
// iteration, no pointers), so it is stable for golden files.

// Print renders a whole program.
func Print(p *Program) string {
	var pr printer
	for i, f := range p.Funs {
		if i > 0 {
			pr.b.WriteByte('\n')
		}
		pr.fun(f)
	}
	return pr.b.String()
}

// PrintFun renders one function.
func PrintFun(f *Fun) string {
	var pr printer
	pr.fun(f)
	return pr.b.String()
}

// PrintBody renders a body at indentation zero.
func PrintBody(b *Body) string {
	var pr printer
	pr.body(b)
	return pr.b.String()
}

// PrintExp renders one expression (multi-line for SOACs, ifs and loops).
func PrintExp(e Exp) string {
	var pr printer
	pr.exp(e)
	return pr.b.String()
}

// PrintStmt renders one statement on its first line (nested bodies follow
// on further lines).
func PrintStmt(s *Stmt) string {
	var pr printer
	pr.stmt(s)
	return strings.TrimRight(pr.b.String(), "\n")
}

// PrintLambda renders a lambda.
func PrintLambda(l *Lambda) string {
	var pr printer
	pr.lambda(l)
	return pr.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(&p.b, format, args...) }

// nl starts a new line at the current indentation.
func (p *printer) nl() {
	p.b.WriteByte('\n')
	for i := 0; i < p.indent; i++ {
		p.b.WriteString("  ")
	}
}

func (p *printer) fun(f *Fun) {
	kw := "fun"
	if f.Entry {
		kw = "entry"
	}
	p.printf("%s %s (%s): %s =", kw, f.Name, params(f.Params), typeList(f.Ret))
	p.indent++
	p.nl()
	p.body(f.Body)
	p.indent--
	p.b.WriteByte('\n')
}

func params(vs []*Var) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Name + ": " + v.Type.String()
	}
	return strings.Join(parts, ", ")
}

func typeList(ts []Type) string {
	if len(ts) == 1 {
		return ts[0].String()
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// AtomString renders an atom: a variable's name or a constant with its
// type suffix (f32.nan, f64.inf for the special floats, as Futhark writes
// them).
func AtomString(a Atom) string {
	switch a := a.(type) {
	case *Var:
		if a == nil {
			return "<nil>"
		}
		return a.Name
	case Const:
		return ConstString(a)
	case nil:
		return "<nil>"
	}
	return fmt.Sprintf("<%T>", a)
}

// ConstString renders a constant in Futhark value syntax.
func ConstString(c Const) string {
	if c.T.IsFloat() {
		f := c.Float()
		switch {
		case f != f:
			return c.T.String() + ".nan"
		case f > 0 && f*0.5 == f:
			return c.T.String() + ".inf"
		case f < 0 && f*0.5 == f:
			return "-" + c.T.String() + ".inf"
		}
		bits := 64
		if c.T == F32 {
			bits = 32
		}
		s := strconv.FormatFloat(f, 'g', -1, bits)
		if c.T == F16 {
			s = FormatHalf(f)
		}
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s + c.T.String()
	}
	return c.String()
}

func atoms(as []Atom) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = AtomString(a)
	}
	return strings.Join(parts, ", ")
}

func vars(vs []*Var) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Name
	}
	return strings.Join(parts, ", ")
}

func (p *printer) body(b *Body) {
	if b == nil {
		p.printf("<nil body>")
		return
	}
	for _, s := range b.Stmts {
		p.stmt(s)
		p.nl()
	}
	if len(b.Result) == 1 {
		p.printf("in %s", AtomString(b.Result[0]))
	} else {
		p.printf("in (%s)", atoms(b.Result))
	}
}

func (p *printer) stmt(s *Stmt) {
	switch len(s.Pat) {
	case 0:
		p.printf("let () = ")
	case 1:
		p.printf("let %s: %s = ", s.Pat[0].Name, s.Pat[0].Type)
	default:
		p.printf("let (%s) = ", params(s.Pat))
	}
	p.exp(s.Exp)
}

func (p *printer) lambda(l *Lambda) {
	if l == nil {
		p.printf("<nil lambda>")
		return
	}
	p.printf(`\(%s): %s ->`, params(l.Params), typeList(l.Ret))
	p.indent++
	p.nl()
	p.body(l.Body)
	p.indent--
}

// block prints a nested body on the following lines, one level deeper.
func (p *printer) block(b *Body) {
	p.indent++
	p.nl()
	p.body(b)
	p.indent--
}

func dimIndex(d DimIndex) string {
	if d.Fix != nil {
		return AtomString(*d.Fix)
	}
	return AtomString(d.Start) + ":" + AtomString(d.End) + ":" + AtomString(d.Stride)
}

func index(idx []DimIndex) string {
	parts := make([]string, len(idx))
	for i, d := range idx {
		parts[i] = dimIndex(d)
	}
	return strings.Join(parts, ", ")
}

func (p *printer) exp(e Exp) {
	switch e := e.(type) {
	case *AtomExp:
		p.printf("%s", AtomString(e.A))
	case *BinOpExp:
		p.printf("%s_%s(%s, %s)", e.Op, e.T, AtomString(e.X), AtomString(e.Y))
	case *UnOpExp:
		p.printf("%s_%s(%s)", e.Op, e.T, AtomString(e.X))
	case *ConvExp:
		p.printf("%s.%s(%s)", e.To, e.From, AtomString(e.X))
	case *IfExp:
		p.printf("if %s : %s then", AtomString(e.Cond), typeList(e.Ret))
		p.block(e.Then)
		p.nl()
		p.printf("else")
		p.block(e.Else)
	case *LoopExp:
		parts := make([]string, len(e.Params))
		for i, v := range e.Params {
			init := "<missing>"
			if i < len(e.Init) {
				init = AtomString(e.Init[i])
			}
			parts[i] = fmt.Sprintf("%s: %s = %s", v.Name, v.Type, init)
		}
		p.printf("loop (%s) ", strings.Join(parts, ", "))
		if f := ForOf(e.Form); f != nil {
			p.printf("for %s: %s < %s do", varName(f.I), varType(f.I), AtomString(f.Bound))
		} else if w := WhileOf(e.Form); w != nil {
			p.printf("while %s do", varName(w.Cond))
		} else {
			p.printf("<loop form %T> do", e.Form)
		}
		p.block(e.Body)
	case *IndexExp:
		p.printf("%s[%s]", varName(e.Arr), index(e.Idx))
	case *UpdateExp:
		p.printf("%s with [%s] = %s", varName(e.Arr), index(e.Idx), AtomString(e.Val))
	case *SizeExp:
		p.printf("size(%s, %d)", varName(e.Arr), e.Dim)
	case *ArrayLitExp:
		p.printf("[%s]: %s", atoms(e.Elems), e.Elem.Lift())
	case *IotaExp:
		p.printf("iota_%s(%s, %s, %s)", e.T, AtomString(e.N), AtomString(e.Start), AtomString(e.Step))
	case *ReplicateExp:
		p.printf("replicate(%s, %s)", AtomString(e.N), AtomString(e.V))
	case *ReshapeExp:
		p.printf("reshape([%s], %s)", atoms(e.Shape), varName(e.Arr))
	case *TransposeExp:
		p.printf("transpose(%s)", varName(e.Arr))
	case *ReverseExp:
		p.printf("reverse(%s)", varName(e.Arr))
	case *RotateExp:
		p.printf("rotate(%s, %s)", AtomString(e.R), varName(e.Arr))
	case *ConcatExp:
		p.printf("concat(%s)", vars(e.Arrs))
	case *CopyExp:
		p.printf("copy(%s)", varName(e.Arr))
	case *ApplyExp:
		p.printf("%s(%s): %s", e.Fun, atoms(e.Args), typeList(e.Ret))
	case *AssertExp:
		if len(e.Args) > 0 {
			p.printf("assert(%s, %q, %s)", AtomString(e.Cond), e.Msg, atoms(e.Args))
			break
		}
		p.printf("assert(%s, %q)", AtomString(e.Cond), e.Msg)
	case *Screma:
		p.screma(e)
	case *Hist:
		p.printf("hist(%s, {%s}%s)", AtomString(e.W), vars(e.Arrs), indexSuffix(e.Index))
		p.indent++
		p.nl()
		p.printf("map: ")
		p.lambda(e.Map)
		for _, op := range e.Ops {
			p.nl()
			p.printf("op {%s} neutral (%s): ", vars(op.Dests), atoms(op.Neutral))
			p.lambda(op.Lambda)
		}
		p.indent--
	case *Scatter:
		p.printf("scatter(%s, {%s}%s) into {%s}", AtomString(e.W), vars(e.Arrs), indexSuffix(e.Index), vars(e.Dests))
		p.indent++
		p.nl()
		p.printf("map: ")
		p.lambda(e.Map)
		p.indent--
	case *Filter:
		kw := "filter"
		if e.Partition {
			kw = "partition"
		}
		p.printf("%s(%s, {%s}%s)", kw, AtomString(e.W), vars(e.Arrs), indexSuffix(e.Index))
		p.indent++
		if e.Map != nil {
			p.nl()
			p.printf("map: ")
			p.lambda(e.Map)
		}
		p.nl()
		p.printf("pred: ")
		p.lambda(e.Pred)
		p.indent--
	case *Segmented:
		p.printf("segmented[%s] ", atoms(e.Outer))
		if e.Op == nil {
			p.printf("<nil>")
			return
		}
		p.screma(e.Op)
	case *MultiScan:
		p.printf("multiscan(%s, %s, %s, {%s}) neutral (%s): ", AtomString(e.W), AtomString(e.K),
			varName(e.Labels), vars(e.Arrs), opNeutral(e.Op))
		if e.Op != nil {
			p.lambda(e.Op.Lambda)
		}
	case nil:
		p.printf("<nil expression>")
	default:
		p.printf("<unknown expression %T>", e)
	}
}

func opNeutral(op *ScanOp) string {
	if op == nil {
		return "<nil>"
	}
	return atoms(op.Neutral)
}

func varName(v *Var) string {
	if v == nil {
		return "<nil>"
	}
	return v.Name
}

func varType(v *Var) string {
	if v == nil {
		return "<nil>"
	}
	return v.Type.String()
}

func indexSuffix(v *Var) string {
	if v == nil {
		return ""
	}
	return ", index " + v.Name
}

func (p *printer) screma(s *Screma) {
	p.printf("%s(%s, {%s}%s)", s.Kind(), AtomString(s.W), vars(s.Arrs), indexSuffix(s.Index))
	p.indent++
	p.nl()
	p.printf("map: ")
	p.lambda(s.Map)
	for _, op := range s.Scans {
		p.nl()
		p.printf("scan neutral (%s): ", atoms(op.Neutral))
		p.lambda(op.Lambda)
	}
	for _, op := range s.Reds {
		p.nl()
		comm := ""
		if op.Comm {
			comm = " comm"
		}
		p.printf("reduce%s neutral (%s): ", comm, atoms(op.Neutral))
		p.lambda(op.Lambda)
	}
	if s.Post != nil {
		p.nl()
		p.printf("post: ")
		p.lambda(s.Post)
	}
	p.indent--
}
