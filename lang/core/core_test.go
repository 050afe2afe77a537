package core

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/source"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sampleProgram builds a program exercising every kind of expression the
// printer and verifier handle, the way lowering would produce it.
func sampleProgram() *Program {
	b := NewBuilder()
	b.Pos = source.Pos{File: "sample.fut", Line: 1, Col: 1}
	xs := b.Fresh("xs", ArrayOf(I32, 1))
	n := b.Fresh("n", Scalar(I64))
	main := b.Fun("main", true, []*Var{xs, n}, func(fb *Builder) []Atom {
		w := fb.Size(xs, 0)
		double := fb.Lambda([]Type{Scalar(I32)}, func(lb *Builder, ps []*Var) []Atom {
			t := lb.BinOp(Mul, ps[0], IntConst(I32, 2))
			return []Atom{lb.BinOp(Add, t, IntConst(I32, 1))}
		})
		ys := fb.Map(w, []*Var{xs}, double)[0]
		sum := fb.Reduce(w, []*Var{ys}, fb.BinOpLambda(Add, I32), []Atom{IntConst(I32, 0)}, true)[0]
		sc := fb.Scan(w, []*Var{ys}, fb.BinOpLambda(Max, I32), []Atom{IntConst(I32, -2147483648)})[0]
		io := fb.Iota(n, I64)
		c := fb.BinOp(Lt, sum, IntConst(I32, 10))
		tb, eb := fb.Nested(), fb.Nested()
		r := fb.Bind("r", &IfExp{Cond: c, Then: tb.Body(sum), Else: eb.Body(IntConst(I32, 7)), Ret: []Type{Scalar(I32)}})[0]
		lb := fb.Nested()
		acc := lb.Fresh("acc", Scalar(I64))
		i := lb.Fresh("i", Scalar(I64))
		nxt := lb.BinOp(Add, acc, i)
		loop := fb.Bind("l", &LoopExp{Params: []*Var{acc}, Init: []Atom{IntConst(I64, 0)},
			Form: ForLoop{I: i, Bound: n}, Body: lb.Body(nxt)})[0]
		el := fb.Let("e", &IndexExp{Arr: sc, Idx: []DimIndex{Fix(IntConst(I64, 0))}})
		f := fb.Let("f", &ConvExp{From: I32, To: F64, X: el})
		g := fb.Let("g", &BinOpExp{Op: Add, T: F64, X: f, Y: FloatConst(F64, 0.5)})
		fb.Add(nil, &AssertExp{Cond: BoolConst(true), Msg: "size mismatch"})
		return []Atom{r, loop, io, g}
	})
	return &Program{Funs: []*Fun{main}}
}

func TestPrintGolden(t *testing.T) {
	p := sampleProgram()
	if err := Verify(p); err != nil {
		t.Fatalf("sample program does not verify:\n%v", err)
	}
	got := Print(p)
	path := filepath.Join("testdata", "sample.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("printer output differs from %s:\n%s", path, got)
	}
}

func TestConstString(t *testing.T) {
	cases := []struct {
		c    Const
		want string
	}{
		{IntConst(I32, -5), "-5i32"},
		{IntConst(U8, 255), "255u8"},
		{IntConst(U64, -1), "18446744073709551615u64"},
		{FloatConst(F64, 1), "1.0f64"},
		{FloatConst(F32, 0.1), "0.1f32"},
		{FloatConst(F64, math.Inf(1)), "f64.inf"},
		{FloatConst(F32, math.Inf(-1)), "-f32.inf"},
		{BoolConst(true), "true"},
	}
	for _, c := range cases {
		if got := ConstString(c.c); got != c.want {
			t.Errorf("ConstString(%#v) = %q, want %q", c.c, got, c.want)
		}
	}
}

// TestVerifyErrors breaks one invariant at a time in the sample program and
// checks that the verifier names it.
func TestVerifyErrors(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(p *Program)
		want   string
	}{
		{"undefined variable", func(p *Program) {
			p.Funs[0].Body.Result[0] = &Var{Name: "nope_1", Type: Scalar(I32)}
		}, "nope_1 used before its definition"},
		{"wrong reference type", func(p *Program) {
			s := p.Funs[0].Body.Stmts[1].Exp.(*Screma)
			s.Arrs[0] = &Var{Name: s.Arrs[0].Name, Type: ArrayOf(I64, 1)}
		}, "defined with type []i32"},
		{"duplicate binding", func(p *Program) {
			st := p.Funs[0].Body.Stmts
			st[1].Pat[0] = &Var{Name: st[0].Pat[0].Name, Type: st[1].Pat[0].Type}
		}, "bound more than once"},
		{"operator type", func(p *Program) {
			p.Funs[0].Body.Stmts[5].Exp.(*BinOpExp).Op = Shl
			p.Funs[0].Body.Stmts[5].Exp.(*BinOpExp).T = F32
		}, "does not apply to f32"},
		{"neutral type", func(p *Program) {
			s := p.Funs[0].Body.Stmts[2].Exp.(*Screma)
			s.Reds[0].Neutral[0] = IntConst(I64, 0)
		}, "reduction 0"},
		{"lambda arity", func(p *Program) {
			s := p.Funs[0].Body.Stmts[1].Exp.(*Screma)
			s.Map.Params = append(s.Map.Params, &Var{Name: "extra_99", Type: Scalar(I32)})
		}, "map lambda parameters"},
		{"screma pattern", func(p *Program) {
			p.Funs[0].Body.Stmts[3].Pat[0].Type = Scalar(I32)
		}, "pattern"},
		{"loop init", func(p *Program) {
			p.Funs[0].Body.Stmts[7].Exp.(*LoopExp).Init[0] = IntConst(I32, 0)
		}, "loop initial values"},
		{"if branches", func(p *Program) {
			p.Funs[0].Body.Stmts[6].Exp.(*IfExp).Else.Result[0] = FloatConst(F32, 1)
		}, "else branch"},
		{"function result", func(p *Program) {
			p.Funs[0].Ret[0] = Scalar(I64)
		}, "function result"},
		{"unknown function", func(p *Program) {
			p.Funs[0].Body.Stmts[0].Exp = &ApplyExp{Fun: "g", Ret: []Type{Scalar(I64)}}
		}, "unknown function g"},
		{"out of scope", func(p *Program) {
			loop := p.Funs[0].Body.Stmts[7].Exp.(*LoopExp)
			p.Funs[0].Body.Result[0] = loop.Body.Result[0]
		}, "used outside its scope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := sampleProgram()
			c.break_(p)
			err := Verify(p)
			if err == nil {
				t.Fatalf("Verify accepted a broken program:\n%s", Print(p))
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
			if !strings.Contains(err.Error(), "core: main") {
				t.Errorf("error %q does not name the function", err)
			}
		})
	}
}

func TestScremaKind(t *testing.T) {
	b := NewBuilder()
	xs := b.Fresh("xs", ArrayOf(I32, 1))
	w := IntConst(I64, 3)
	id := b.IdentityLambda([]Type{Scalar(I32)})
	add := b.BinOpLambda(Add, I32)
	ne := []Atom{IntConst(I32, 0)}
	cases := []struct {
		s    *Screma
		want string
	}{
		{&Screma{W: w, Arrs: []*Var{xs}, Map: id}, "map"},
		{&Screma{W: w, Arrs: []*Var{xs}, Map: id, Reds: []*RedOp{{Lambda: add, Neutral: ne}}}, "reduce"},
		{&Screma{W: w, Arrs: []*Var{xs}, Map: id, Scans: []*ScanOp{{Lambda: add, Neutral: ne}}}, "scan"},
		{&Screma{W: w, Arrs: []*Var{xs}, Map: b.BinOpLambda(Add, I32), Reds: []*RedOp{{Lambda: add, Neutral: ne}}}, "redomap"},
	}
	for _, c := range cases {
		if got := c.s.Kind(); got != c.want {
			t.Errorf("Kind() = %q, want %q", got, c.want)
		}
	}
}
