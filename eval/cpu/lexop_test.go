package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// lexSpec describes a random lexicographic selection operator: its
// component types, its keys in order and how each test is written.
type lexSpec struct {
	types []core.PrimType
	keys  []lexKey
	// per key: the side whose component is the comparison's left operand,
	// and whether the test is written with > (operands swapped).
	sides   []int
	swapped []bool
	// how the chain ends: a leaf returning tieSide, or (final) a two-way
	// test on the last key, strict or not, returning firstWins when the
	// test holds.
	final, strict bool
	tieSide       int
	firstWins     int
	proj          bool // keys are compared through projections
}

func randomLexSpec(rng *rand.Rand) lexSpec {
	all := []core.PrimType{core.I32, core.I64, core.U8, core.I8, core.U32, core.I16}
	k := 1 + rng.IntN(3)
	sp := lexSpec{final: rng.IntN(2) == 0, strict: rng.IntN(2) == 0, tieSide: rng.IntN(2), firstWins: rng.IntN(2), proj: rng.IntN(3) == 0}
	for range k {
		sp.types = append(sp.types, all[rng.IntN(len(all))])
	}
	for range 1 + rng.IntN(3) {
		sp.keys = append(sp.keys, lexKey{param: rng.IntN(k), larger: rng.IntN(2) == 0})
		sp.sides = append(sp.sides, rng.IntN(2))
		sp.swapped = append(sp.swapped, rng.IntN(2) == 0)
	}
	return sp
}

// lambda builds the operator; hidden adds a first statement that the
// recogniser does not accept, so the same operator runs as a general
// lambda.
func (sp lexSpec) lambda(b *core.Builder, hidden bool) *core.Lambda {
	k := len(sp.types)
	params := make([]core.Type, 2*k)
	rets := make([]core.Type, k)
	for i, t := range sp.types {
		params[i], params[k+i], rets[i] = core.Scalar(t), core.Scalar(t), core.Scalar(t)
	}
	return b.Lambda(params, func(lb *core.Builder, p []*core.Var) []core.Atom {
		side := func(s int) []core.Atom {
			out := make([]core.Atom, k)
			for i := range out {
				out[i] = p[s*k+i]
			}
			return out
		}
		// With proj, keys are compared through a conversion to i64 (or an
		// or with 0 for 64-bit types), computed on both sides before the
		// tests: an order-preserving projection.
		key := func(s, j int) core.Atom { return p[s*k+j] }
		if sp.proj {
			projected := map[[2]int]core.Atom{}
			for _, kk := range sp.keys {
				for s := range 2 {
					if _, ok := projected[[2]int{s, kk.param}]; ok {
						continue
					}
					x := p[s*k+kk.param]
					var v *core.Var
					if t := sp.types[kk.param]; t == core.I64 || t == core.U64 {
						v = lb.BinOp(core.Or, x, core.IntConst(t, 0))
					} else {
						v = lb.Conv(core.I64, x)
					}
					projected[[2]int{s, kk.param}] = v
				}
			}
			key = func(s, j int) core.Atom { return projected[[2]int{s, j}] }
		}
		// less builds "side s's component j < (or <=) the other side's".
		less := func(bb *core.Builder, s, j int, strict, swapped bool) *core.Var {
			x, y := key(s, j), key(1-s, j)
			op := core.Lt
			if !strict {
				op = core.Le
			}
			if swapped {
				x, y = y, x
				op = map[core.BinOp]core.BinOp{core.Lt: core.Gt, core.Le: core.Ge}[op]
			}
			return bb.BinOp(op, x, y)
		}
		ifte := func(bb *core.Builder, c *core.Var, then, els *core.Body) []core.Atom {
			vs := bb.Bind("if", &core.IfExp{Cond: c, Then: then, Else: els, Ret: rets})
			out := make([]core.Atom, len(vs))
			for i, v := range vs {
				out[i] = v
			}
			return out
		}
		var chain func(bb *core.Builder, i int) []core.Atom
		chain = func(bb *core.Builder, i int) []core.Atom {
			key, s := sp.keys[i], sp.sides[i]
			last := i == len(sp.keys)-1
			if last && sp.final {
				w1 := sp.firstWins
				return ifte(bb, less(bb, s, key.param, sp.strict, sp.swapped[i]), bb.Nested().Body(side(w1)...), bb.Nested().Body(side(1-w1)...))
			}
			// s less: the larger-wins key takes the other side.
			lessWinner, moreWinner := s, 1-s
			if key.larger {
				lessWinner, moreWinner = 1-s, s
			}
			eb := bb.Nested()
			rb := eb.Nested()
			rest := side(sp.tieSide)
			if !last {
				rest = chain(rb, i+1)
			}
			inner := ifte(eb, less(eb, 1-s, key.param, true, sp.swapped[i]), eb.Nested().Body(side(moreWinner)...), rb.Body(rest...))
			return ifte(bb, less(bb, s, key.param, true, sp.swapped[i]), bb.Nested().Body(side(lessWinner)...), eb.Body(inner...))
		}
		if hidden {
			// A statement mixing the two sides is no projection.
			lb.BinOp(core.Or, p[0], p[k])
		}
		return chain(lb, 0)
	})
}

// neutral is, per component, the value that loses on every key.
func (sp lexSpec) neutral() []core.Atom {
	ne := make([]core.Atom, len(sp.types))
	for i, t := range sp.types {
		ne[i] = minConst(t)
	}
	for _, key := range sp.keys {
		if !key.larger {
			ne[key.param] = maxConst(sp.types[key.param])
		}
	}
	return ne
}

// TestLexReductions checks random lexicographic selection operators: the
// recogniser accepts them, and the typed reduction agrees with the same
// operator run as a general lambda, for ordered and commutative
// reductions, under every worker/chunk setting.
func TestLexReductions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 60 {
		checkLex(t, rng, testSizes[trial%len(testSizes)], trial%2 == 0)
	}
}

// FuzzLex is TestLexReductions with the operator, the data and the size
// drawn from the fuzz input.
func FuzzLex(f *testing.F) {
	f.Add(uint64(1), uint16(100), false)
	f.Add(uint64(2), uint16(4097), true)
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, comm bool) {
		checkLex(t, rand.New(rand.NewPCG(seed, seed>>1)), int(n%10000), comm)
	})
}

func checkLex(t *testing.T, rng *rand.Rand, n int, comm bool) {
	t.Helper()
	sp := randomLexSpec(rng)
	if comm {
		// reduce_comm needs a commutative operator: every component is
		// compared, so ties are between equal values.
		for j := range sp.types {
			sp.keys = append(sp.keys, lexKey{param: j, larger: rng.IntN(2) == 0})
			sp.sides = append(sp.sides, rng.IntN(2))
			sp.swapped = append(sp.swapped, rng.IntN(2) == 0)
		}
	}
	var args []eval.Value
	for _, ty := range sp.types {
		v := eval.NewArray(ty, int64(n))
		for i := range n {
			// Few distinct values (many ties), never the neutral's.
			fillFromInt(v.Data, i, 1+int64(rng.IntN(4)))
		}
		args = append(args, v)
	}
	results := make([][]eval.Value, 2)
	for h, hidden := range []bool{false, true} {
		ps := make([]core.Type, len(sp.types))
		for i, ty := range sp.types {
			ps[i] = core.ArrayOf(ty, 1)
		}
		p := program(t, ps, func(b *core.Builder, xs []*core.Var) []core.Atom {
			op := sp.lambda(b, hidden)
			if lo := recogniseLex(op); (lo != nil) == hidden {
				t.Fatalf("%+v: recognised %v, hidden %v", sp, lo != nil, hidden)
			}
			rs := b.Reduce(b.Size(xs[0], 0), xs, op, sp.neutral(), comm)
			out := make([]core.Atom, len(rs))
			for i, r := range rs {
				out[i] = r
			}
			return out
		})
		results[h] = mustRun(t, p, args...)
	}
	if d := diffValues(results[0], results[1], 0); d != "" {
		t.Fatalf("%+v, n=%d, comm=%v: typed and general reductions differ: %s", sp, n, comm, d)
	}
}

// TestLexRefused checks operators that look like selections but are not
// lexicographic orders.
func TestLexRefused(t *testing.T) {
	st := core.Scalar(core.I32)
	cases := map[string]func(lb *core.Builder, p []*core.Var) []core.Atom{
		"leaf picks the loser twice": func(lb *core.Builder, p []*core.Var) []core.Atom {
			c := lb.BinOp(core.Lt, p[0], p[1])
			return []core.Atom{lb.Bind("if", &core.IfExp{Cond: c, Then: lb.Nested().Body(p[0]), Else: lb.Nested().Body(p[0]), Ret: []core.Type{st}})[0]}
		},
		"compares a parameter with itself": func(lb *core.Builder, p []*core.Var) []core.Atom {
			c := lb.BinOp(core.Lt, p[0], p[0])
			return []core.Atom{lb.Bind("if", &core.IfExp{Cond: c, Then: lb.Nested().Body(p[0]), Else: lb.Nested().Body(p[1]), Ret: []core.Type{st}})[0]}
		},
		"equality test": func(lb *core.Builder, p []*core.Var) []core.Atom {
			c := lb.BinOp(core.Eq, p[0], p[1])
			return []core.Atom{lb.Bind("if", &core.IfExp{Cond: c, Then: lb.Nested().Body(p[0]), Else: lb.Nested().Body(p[1]), Ret: []core.Type{st}})[0]}
		},
		"no test": func(lb *core.Builder, p []*core.Var) []core.Atom {
			return []core.Atom{p[1]}
		},
	}
	for name, body := range cases {
		b := core.NewBuilder()
		if lo := recogniseLex(b.Lambda([]core.Type{st, st}, body)); lo != nil {
			t.Errorf("%s: recognised as %+v", name, lo)
		}
	}
	f32 := core.Scalar(core.F32)
	b := core.NewBuilder()
	fl := b.Lambda([]core.Type{f32, f32}, func(lb *core.Builder, p []*core.Var) []core.Atom {
		c := lb.BinOp(core.Lt, p[0], p[1])
		return []core.Atom{lb.Bind("if", &core.IfExp{Cond: c, Then: lb.Nested().Body(p[1]), Else: lb.Nested().Body(p[0]), Ret: []core.Type{f32}})[0]}
	})
	if lo := recogniseLex(fl); lo != nil {
		t.Errorf("float max recognised as %+v", lo)
	}
}

func TestLexArgMaxKeys(t *testing.T) {
	sp := lexSpec{types: []core.PrimType{core.I32, core.I64}, keys: []lexKey{{0, true}, {1, false}}, sides: []int{0, 0},
		swapped: []bool{false, false}, final: true, strict: true, firstWins: 0}
	lo := recogniseLex(sp.lambda(core.NewBuilder(), false))
	if got, want := fmt.Sprintf("%+v", lo.keys), "[{param:0 larger:true} {param:1 larger:false}]"; got != want {
		t.Errorf("keys of arg-max: got %s, want %s", got, want)
	}
}

// TestLexIndex checks lexicographic reductions over values paired with the
// Screma's index (arg-max after fusion), where the index has no column:
// the typed reduction agrees with the same operator run as a general
// lambda over a materialised index.
func TestLexIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 40 {
		sp := randomLexSpec(rng)
		sp.proj = false // a projected index has no known order
		sp.types = append(sp.types, core.I64)
		// The index is the last key, so every component is compared.
		sp.keys = append(sp.keys, lexKey{param: len(sp.types) - 1, larger: rng.IntN(2) == 0})
		sp.sides = append(sp.sides, rng.IntN(2))
		sp.swapped = append(sp.swapped, rng.IntN(2) == 0)
		n := testSizes[trial%len(testSizes)]
		k := len(sp.types) - 1
		var args []eval.Value
		ps := make([]core.Type, k)
		for i, ty := range sp.types[:k] {
			v := eval.NewArray(ty, int64(n))
			for j := range n {
				fillFromInt(v.Data, j, 1+int64(rng.IntN(4)))
			}
			args = append(args, v)
			ps[i] = core.ArrayOf(ty, 1)
		}
		results := make([][]eval.Value, 2)
		for h, hidden := range []bool{false, true} {
			p := program(t, ps, func(b *core.Builder, xs []*core.Var) []core.Atom {
				idx := b.Fresh("i", core.Scalar(core.I64))
				params := make([]core.Type, k)
				for i, ty := range sp.types[:k] {
					params[i] = core.Scalar(ty)
				}
				mapL := b.Lambda(params, func(lb *core.Builder, x []*core.Var) []core.Atom {
					out := make([]core.Atom, 0, k+1)
					for _, v := range x {
						out = append(out, v)
					}
					return append(out, idx)
				})
				s := &core.Screma{W: b.Size(xs[0], 0), Arrs: xs, Map: mapL, Index: idx,
					Reds: []*core.RedOp{{Lambda: sp.lambda(b, hidden), Neutral: sp.neutral(), Comm: trial%2 == 0}}}
				rs := b.Bind("r", s)
				if iotas, lazy := lexIotas(s, []*opInfo{newOp(s.Reds[0].Lambda, s.Reds[0].Neutral)}); lazy == hidden || (lazy && !iotas[0][k]) {
					t.Fatalf("trial %d: index without a column %v, hidden %v", trial, lazy, hidden)
				}
				out := make([]core.Atom, len(rs))
				for i, r := range rs {
					out[i] = r
				}
				return out
			})
			results[h] = mustRun(t, p, args...)
		}
		if d := diffValues(results[0], results[1], 0); d != "" {
			t.Fatalf("trial %d (%+v, n=%d): typed and general reductions differ: %s", trial, sp, n, d)
		}
	}
}
