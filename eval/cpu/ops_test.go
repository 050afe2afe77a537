package cpu

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// parseValue parses a test literal of type t into a one-element slice.
func parseValue(t core.PrimType, s string) (eval.Value, error) {
	v := eval.NewArray(t)
	var err error
	switch d := v.Data.(type) {
	case []bool:
		d[0], err = strconv.ParseBool(s)
	case []int8:
		var x int64
		x, err = strconv.ParseInt(s, 10, 8)
		d[0] = int8(x)
	case []int16:
		var x int64
		x, err = strconv.ParseInt(s, 10, 16)
		d[0] = int16(x)
	case []int32:
		var x int64
		x, err = strconv.ParseInt(s, 10, 32)
		d[0] = int32(x)
	case []int64:
		d[0], err = strconv.ParseInt(s, 10, 64)
	case []uint8:
		var x uint64
		x, err = strconv.ParseUint(s, 10, 8)
		d[0] = uint8(x)
	case []uint16:
		var x uint64
		x, err = strconv.ParseUint(s, 10, 16)
		d[0] = uint16(x)
	case []uint32:
		var x uint64
		x, err = strconv.ParseUint(s, 10, 32)
		d[0] = uint32(x)
	case []uint64:
		d[0], err = strconv.ParseUint(s, 10, 64)
	case []float32:
		var x float64
		x, err = strconv.ParseFloat(s, 32)
		d[0] = float32(x)
	case []float64:
		d[0], err = strconv.ParseFloat(s, 64)
	}
	return v, err
}

// sameElem compares two one-element values exactly, with NaN equal to NaN
// and -0 distinct from 0.
func sameElem(a, b eval.Value) bool {
	switch x := a.Data.(type) {
	case []float32:
		y := b.Data.([]float32)
		return x[0] == y[0] && math.Signbit(float64(x[0])) == math.Signbit(float64(y[0])) || x[0] != x[0] && y[0] != y[0]
	case []float64:
		y := b.Data.([]float64)
		return x[0] == y[0] && math.Signbit(x[0]) == math.Signbit(y[0]) || x[0] != x[0] && y[0] != y[0]
	}
	return elemString(a.Data, 0) == elemString(b.Data, 0)
}

var binNames, unNames = func() (map[string]core.BinOp, map[string]core.UnOp) {
	bn, un := map[string]core.BinOp{}, map[string]core.UnOp{}
	for i, info := range core.BinOps {
		bn[info.Name] = core.BinOp(i)
	}
	for i, info := range core.UnOps {
		un[info.Name] = core.UnOp(i)
	}
	return bn, un
}()

type opCase struct {
	line  int
	text  string
	exp   func(xs []core.Atom) core.Exp
	in    []core.PrimType
	out   core.PrimType
	args  []string
	want  string
	isErr bool
}

func loadOpCases(t *testing.T) []opCase {
	f, err := os.Open("testdata/ops.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []opCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		c := opCase{line: line, text: text}
		body, errMsg, isErr := strings.Cut(text, " error: ")
		fs := strings.Fields(body)
		bad := func() { t.Fatalf("ops.txt:%d: malformed case %q", line, text) }
		prim := func(s string) core.PrimType {
			p, ok := core.PrimByName(s)
			if !ok {
				bad()
			}
			return p
		}
		switch fs[0] {
		case "bin":
			op, ok := binNames[fs[1]]
			if !ok || len(fs) < 5 {
				bad()
			}
			pt := prim(fs[2])
			c.in, c.out = []core.PrimType{pt, pt}, core.BinOpResult(op, pt)
			c.exp = func(xs []core.Atom) core.Exp { return &core.BinOpExp{Op: op, T: pt, X: xs[0], Y: xs[1]} }
			c.args, fs = fs[3:5], fs[5:]
		case "un":
			op, ok := unNames[fs[1]]
			if !ok || len(fs) < 4 {
				bad()
			}
			pt := prim(fs[2])
			c.in, c.out = []core.PrimType{pt}, core.UnOpResult(op, pt)
			c.exp = func(xs []core.Atom) core.Exp { return &core.UnOpExp{Op: op, T: pt, X: xs[0]} }
			c.args, fs = fs[3:4], fs[4:]
		case "conv":
			from, to := prim(fs[1]), prim(fs[2])
			c.in, c.out = []core.PrimType{from}, to
			c.exp = func(xs []core.Atom) core.Exp { return &core.ConvExp{From: from, To: to, X: xs[0]} }
			c.args, fs = fs[3:4], fs[4:]
		default:
			bad()
		}
		if isErr {
			c.isErr, c.want = true, errMsg
		} else if len(fs) == 1 {
			c.want = fs[0]
		} else {
			bad()
		}
		cases = append(cases, c)
	}
	return cases
}

// TestOperators runs every case of testdata/ops.txt twice: as a scalar
// statement of the function body (one lane) and inside a map over a
// replicated array, where it runs as a vectorised kernel over chunks.
func TestOperators(t *testing.T) {
	for _, c := range loadOpCases(t) {
		args := make([]eval.Value, len(c.args))
		for i, s := range c.args {
			v, err := parseValue(c.in[i], s)
			if err != nil {
				t.Fatalf("ops.txt:%d: %v", c.line, err)
			}
			args[i] = v
		}
		var want eval.Value
		if !c.isErr {
			v, err := parseValue(c.out, c.want)
			if err != nil {
				t.Fatalf("ops.txt:%d: %v", c.line, err)
			}
			want = v
		}
		check := func(mode string, got eval.Value, err error) {
			if c.isErr {
				se, ok := err.(*source.Error)
				if !ok || se.Msg != c.want || se.Pos != testPos {
					t.Errorf("ops.txt:%d %s (%s): got error %v, want %q at %v", c.line, c.text, mode, err, c.want, testPos)
				}
				return
			}
			if err != nil {
				t.Errorf("ops.txt:%d %s (%s): %v", c.line, c.text, mode, err)
				return
			}
			if !sameElem(got, want) {
				t.Errorf("ops.txt:%d %s (%s): got %s, want %s", c.line, c.text, mode, valueString(got), c.want)
			}
		}

		// Scalar: main(x, y) = x op y.
		params := make([]core.Type, len(c.in))
		for i, pt := range c.in {
			params[i] = core.Scalar(pt)
		}
		p := program(t, params, func(b *core.Builder, ps []*core.Var) []core.Atom {
			return []core.Atom{b.Let("r", c.exp(atomsOf(ps)))}
		})
		res, err := runWith(t, Options{Workers: 1}, p, args...)
		var got eval.Value
		if err == nil {
			got = res[0]
		}
		check("scalar", got, err)

		// Vectorised: map2 op over 7 copies, chunks of 3.
		const n = 7
		aparams := make([]core.Type, len(c.in))
		for i, pt := range c.in {
			aparams[i] = core.ArrayOf(pt, 1)
		}
		p = program(t, aparams, func(b *core.Builder, ps []*core.Var) []core.Atom {
			w := b.Size(ps[0], 0)
			lam := b.Lambda(params, func(lb *core.Builder, xs []*core.Var) []core.Atom {
				return []core.Atom{lb.Let("r", c.exp(atomsOf(xs)))}
			})
			return []core.Atom{b.Map(w, ps, lam)[0]}
		})
		arrArgs := make([]eval.Value, len(args))
		for i, a := range args {
			v := eval.NewArray(a.Elem, n)
			fillAny(v.Data, a.Data, 0)
			arrArgs[i] = v
		}
		for _, o := range []Options{{Workers: 2, Chunk: 3}, {Workers: 1, Chunk: 4096}} {
			res, err = runWith(t, o, p, arrArgs...)
			got = eval.Value{}
			if err == nil {
				for j := 0; j < n; j++ {
					got = eval.Value{Elem: res[0].Elem, Data: sliceAny(res[0].Data, j, j+1)}
					if !sameElem(got, want) {
						break
					}
				}
			}
			check("vectorised", got, err)
		}
	}
}

func atomsOf(vs []*core.Var) []core.Atom {
	out := make([]core.Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// TestOperatorTablesComplete checks that every operator the verifier
// accepts on a type has a kernel, so no well-typed program meets a missing
// table entry.
func TestOperatorTablesComplete(t *testing.T) {
	for op := range core.BinOps {
		for _, pt := range core.PrimTypes {
			if core.BinOpValid(core.BinOp(op), pt) && binTab[op][pt] == nil {
				t.Errorf("no kernel for %v on %v", core.BinOp(op), pt)
			}
		}
	}
	for op := range core.UnOps {
		for _, pt := range core.PrimTypes {
			if core.UnOpValid(core.UnOp(op), pt) && unTab[op][pt] == nil {
				t.Errorf("no kernel for %v on %v", core.UnOp(op), pt)
			}
		}
	}
	for _, from := range core.PrimTypes {
		for _, to := range core.PrimTypes {
			if convTab[from][to] == nil {
				t.Errorf("no conversion from %v to %v", from, to)
			}
		}
	}
}
