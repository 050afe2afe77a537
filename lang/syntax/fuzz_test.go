package syntax

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/lang/source"
)

// The checks run on a goroutine of their own (see the timeout in
// FuzzParse), so they report with Errorf, never FailNow.

// FuzzParse feeds mutated programs to ParseFile, ParseInput and ParseExpr.
// None may panic or report an internal error (a recovered panic or a
// grammar struct the conversion did not expect), every error must be a
// source.ErrorList whose positions lie in the input, and every node of a
// successful parse must have a span inside the input. Crashers that the
// fuzzer finds stay in testdata/fuzz/FuzzParse and replay on go test.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/files/*.fut")
	for _, path := range seeds {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	cases, _ := filepath.Glob("testdata/*.txt")
	for _, path := range cases {
		cs, _ := readCases(f, path)
		for _, c := range cs {
			f.Add(c.input)
		}
	}
	for _, s := range []string{
		"def f [n] (xs: [n]i32) : [n]i32 = map (\\x -> x + 1) xs",
		"let a[i] = v in a with [j] = 2",
		"loop (x, y) = (0, 1) for i < n do (y, x + y)",
		"(+) (.0) (*2) (2-) (i32.+) x.0.1 a[1:2:3] f a [i] -1 0x1.8p1f32",
		"if c then a else b : i32 |> f <| g",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// A parse that runs away (exponential backtracking, a loop that
		// does not advance) fails here with its input rather than hanging
		// the fuzzer.
		done := make(chan struct{})
		go func() {
			defer close(done)
			parseAll(t, src)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("parsing %q took more than 5s", src)
		}
	})
}

func parseAll(t *testing.T, src string) {
	{
		file := source.NewFile("fuzz.fut", src)
		fl, err := ParseFile(file)
		checkResult(t, src, fl, err)
		in, err := ParseInput(file)
		if err == nil && (in.Expr == nil) == (in.Decls == nil) {
			t.Errorf("ParseInput(%q): exactly one of Expr and Decls must be set", src)
		}
		if err == nil && in.Expr != nil {
			checkResult(t, src, in.Expr, nil)
		}
		checkResult(t, src, nil, err)
		e, err := ParseExpr(file)
		checkResult(t, src, e, err)
	}
}

func checkResult(t *testing.T, src string, n Node, err error) {
	t.Helper()
	lines := strings.Count(src, "\n") + 1
	if err != nil {
		var list source.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%q: error %v is not a source.ErrorList", src, err)
			return
		}
		for _, e := range list {
			if strings.Contains(e.Msg, "internal error") {
				t.Errorf("%q: %v", src, e)
			}
			if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
				t.Errorf("%q: error position %v outside the input", src, e.Pos)
			}
		}
		return
	}
	if n == nil || isNil(n) {
		return
	}
	_ = Dump(n)
	checkSpans(t, src, lines, n, source.Span{})
}

// checkSpans checks that every node has a span inside the input and inside
// its parent's span.
func checkSpans(t *testing.T, src string, lines int, n Node, parent source.Span) {
	t.Helper()
	sp := n.Span()
	if !sp.Start.IsValid() || sp.End.Before(sp.Start) || sp.End.Line > lines {
		t.Errorf("%q: bad span %v-%v for %s", src, sp.Start, sp.End, Dump(n))
		return
	}
	if parent.Start.IsValid() && (sp.Start.Before(parent.Start) || parent.End.Before(sp.End)) {
		t.Errorf("%q: span %v-%v of %s is outside its parent's %v-%v", src, sp.Start, sp.End, Dump(n), parent.Start, parent.End)
		return
	}
	for _, c := range children(t, n) {
		checkSpans(t, src, lines, c, sp)
	}
}

// children lists the sub-nodes of n that are present.
func children(t *testing.T, n Node) []Node {
	var out []Node
	add := func(ns ...Node) {
		for _, c := range ns {
			if !isNil(c) {
				out = append(out, c)
			}
		}
	}
	switch n := n.(type) {
	case *File:
		for _, d := range n.Decls {
			add(d)
		}
	case *ValDecl:
		for i := range n.SizeParams {
			add(&n.SizeParams[i])
		}
		for _, p := range n.Params {
			add(p)
		}
		add(n.Ret, n.Body)
	case *SizeParam, *IntLit, *FloatLit, *BoolLit, *Var, *OpSection, *ProjectSection,
		*IdPat, *WildPat, *PrimTypeExpr:
	case *DimExpr:
		add(n.Expr)
	case *ModDecl:
		for i := range n.Params {
			add(&n.Params[i])
		}
		add(n.Sig, n.Body)
	case *ModParam:
		add(n.Sig)
	case *ModTypeDecl:
		add(n.Sig)
	case *OpenDecl:
		add(n.Mod)
	case *LocalDecl:
		add(n.Decl)
	case *ImportDecl, *ModName, *ModImport, *SigName:
	case *ModStruct:
		for _, d := range n.Decls {
			add(d)
		}
	case *ModAscribe:
		add(n.Mod, n.Sig)
	case *ModApply:
		add(n.Fun, n.Arg)
	case *ModLambda:
		add(&n.Param, n.Sig, n.Body)
	case *SigSpecs:
		for _, sp := range n.Specs {
			add(sp)
		}
	case *SigWith:
		add(n.Sig, n.Def)
	case *SigFunctor:
		add(n.ParamSig, n.Result)
	case *ValSpec:
		add(n.Type)
	case *TypeSpec:
		add(n.Type)
	case *ModSpec:
		add(n.Sig)
	case *IncludeSpec:
		add(n.Sig)
	case *TypeDecl:
		for i := range n.Params {
			add(&n.Params[i])
		}
		add(n.Type)
	case *NamedTypeExpr:
		for _, a := range n.Args {
			if a.Type != nil {
				add(a.Type)
			} else {
				add(a.Dim)
			}
		}
	case *Range:
		add(n.Start, n.Second, n.End)
	case *RecordExpr:
		for _, f := range n.Fields {
			add(f.Value)
		}
	case *RecordPat:
		for _, f := range n.Fields {
			add(f.Pat)
		}
	case *RecordTypeExpr:
		for _, f := range n.Fields {
			add(f.Type)
		}
	case *Assert:
		add(n.Cond, n.X)
	case *Hole:
	case *IndexSection:
		for _, d := range n.Indices {
			add(d)
		}
	case *TupleExpr:
		for _, e := range n.Elems {
			add(e)
		}
	case *ArrayLit:
		for _, e := range n.Elems {
			add(e)
		}
	case *ParenExpr:
		add(n.X)
	case *Project:
		add(n.X)
	case *Index:
		add(n.X)
		for _, d := range n.Indices {
			add(d)
		}
	case *DimFix:
		add(n.I)
	case *DimSlice:
		add(n.Start, n.End, n.Stride)
	case *Apply:
		add(n.Fn)
		for _, a := range n.Args {
			add(a)
		}
	case *BinOp:
		add(n.Lhs, n.Rhs)
	case *Negate:
		add(n.X)
	case *Not:
		add(n.X)
	case *LeftSection:
		add(n.X)
	case *RightSection:
		add(n.X)
	case *Ascribe:
		add(n.X, n.Type)
	case *If:
		add(n.Cond, n.Then, n.Else)
	case *LetIn:
		add(n.Pat, n.Val, n.Body)
	case *LetFun:
		for i := range n.SizeParams {
			add(&n.SizeParams[i])
		}
		for _, p := range n.Params {
			add(p)
		}
		add(n.Ret, n.FnBody, n.Body)
	case *LetWith:
		for _, d := range n.Indices {
			add(d)
		}
		add(n.Val, n.Body)
	case *Update:
		add(n.X)
		for _, d := range n.Indices {
			add(d)
		}
		add(n.Val)
	case *Lambda:
		for _, p := range n.Params {
			add(p)
		}
		add(n.Ret, n.Body)
	case *Loop:
		add(n.Pat, n.Init, n.Form, n.Body)
	case *ForLoop:
		add(n.Bound)
	case *ForInLoop:
		add(n.Pat, n.Arr)
	case *WhileLoop:
		add(n.Cond)
	case *TuplePat:
		for _, p := range n.Elems {
			add(p)
		}
	case *AscribedPat:
		add(n.Pat, n.Type)
	case *ArrayTypeExpr:
		if n.Dim != nil {
			add(n.Dim)
		}
		add(n.Elem)
	case *TupleTypeExpr:
		for _, e := range n.Elems {
			add(e)
		}
	case *UniqueTypeExpr:
		add(n.Elem)
	case *FuncTypeExpr:
		add(n.Param, n.Ret)
	case *Constr:
		for _, a := range n.Args {
			add(a)
		}
	case *ConTest:
		add(n.X)
	case *ConField:
		add(n.X)
	case *Match:
		add(n.Body)
	case *SumTypeExpr:
		for _, c := range n.Cons {
			for _, pt := range c.Payload {
				add(pt)
			}
		}
	default:
		t.Errorf("children: unknown node %T", n)
	}
	return out
}
