package gpu

import (
	"fmt"
	"math"

	"github.com/arepl/arepl/eval"
	. "github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// A testProg is a core program (function "main") as lowering and fusion
// would produce it, a generator of inputs of a given size, and a plain Go
// reference of its results. The golden test renders every one; the device
// test runs every one on the GPU at many sizes against its reference.
type testProg struct {
	name  string
	build func() *Program
	input func(n int) []eval.Value
	ref   func(in []eval.Value) []eval.Value
	// fail, when set, is inputs that must make the program fail at run time
	// with the given message.
	fail    func(n int) []eval.Value
	failMsg string
}

func pos(line int) source.Pos { return source.Pos{File: "test.fut", Line: line, Col: 1} }

func arr(xs any) eval.Value {
	v := eval.Value{Data: xs}
	switch d := xs.(type) {
	case []bool:
		v.Elem, v.Shape = Bool, []int64{int64(len(d))}
	case []int16:
		v.Elem, v.Shape = I16, []int64{int64(len(d))}
	case []int32:
		v.Elem, v.Shape = I32, []int64{int64(len(d))}
	case []int64:
		v.Elem, v.Shape = I64, []int64{int64(len(d))}
	case []uint8:
		v.Elem, v.Shape = U8, []int64{int64(len(d))}
	case []uint32:
		v.Elem, v.Shape = U32, []int64{int64(len(d))}
	case []uint64:
		v.Elem, v.Shape = U64, []int64{int64(len(d))}
	case []float32:
		v.Elem, v.Shape = F32, []int64{int64(len(d))}
	case []float64:
		v.Elem, v.Shape = F64, []int64{int64(len(d))}
	default:
		// A scalar passed here (not a one-element slice) would
		// become a bool value and fail far from the mistake.
		panic(fmt.Sprintf("arr: %T is not a slice type the tests use", xs))
	}
	return v
}

func scalar(x any) eval.Value {
	v := arr(x)
	v.Shape = nil
	return v
}

// hash gives deterministic pseudo-random test data.
func hash(i int) uint32 {
	x := uint32(i)*2654435761 + 12345
	x ^= x >> 15
	x *= 2246822519
	x ^= x >> 13
	return x
}

func i32s(n int, lo, hi int32) []int32 {
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = lo + int32(hash(i)%uint32(hi-lo+1))
	}
	return xs
}

// fun builds main(params) whose body fn fills.
func fun(params []*Var, fn func(b *Builder) []Atom) *Program {
	b := NewBuilder()
	b.Pos = pos(1)
	return &Program{Funs: []*Fun{b.Fun("main", true, params, fn)}}
}

func floorDiv(x, y int32) int32 {
	if y == -1 {
		return -x
	}
	q := x / y
	if x%y != 0 && (x < 0) != (y < 0) {
		q--
	}
	return q
}

func floorMod(x, y int32) int32 {
	if y == -1 {
		return 0
	}
	r := x % y
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

// msspOp is the maximum-segment-sum operator on (mss, mis, mcs, ts).
func msspOp(x, y [4]int32) [4]int32 {
	mx := func(a, b int32) int32 { return max(a, b) }
	return [4]int32{mx(x[0], mx(y[0], x[2]+y[1])), mx(x[1], x[3]+y[1]), mx(y[2], x[2]+y[3]), x[3] + y[3]}
}

func testProgs() []testProg {
	return []testProg{
		{
			name: "sum_i32",
			build: func() *Program {
				xs := &Var{Name: "xs_1", Type: ArrayOf(I32, 1)}
				return fun([]*Var{xs}, func(b *Builder) []Atom {
					w := b.Size(xs, 0)
					return []Atom{b.Reduce(w, []*Var{xs}, b.BinOpLambda(Add, I32), []Atom{IntConst(I32, 0)}, true)[0]}
				})
			},
			input: func(n int) []eval.Value { return []eval.Value{arr(i32s(n, -1000, 1000))} },
			ref: func(in []eval.Value) []eval.Value {
				var s int32
				for _, x := range in[0].Data.([]int32) {
					s += x
				}
				return []eval.Value{scalar([]int32{s})}
			},
		},
		{
			name: "max_map",
			build: func() *Program {
				xs := &Var{Name: "xs_1", Type: ArrayOf(I32, 1)}
				return fun([]*Var{xs}, func(b *Builder) []Atom {
					w := b.Size(xs, 0)
					f := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, ps []*Var) []Atom {
						return []Atom{lb.BinOp(Add, lb.BinOp(Mul, ps[0], IntConst(I32, 2)), IntConst(I32, 1))}
					})
					return []Atom{b.Bind("r", &Screma{W: w, Arrs: []*Var{xs}, Map: f,
						Reds: []*RedOp{{Lambda: b.BinOpLambda(Max, I32), Neutral: []Atom{IntConst(I32, math.MinInt32)}, Comm: true}}})[0]}
				})
			},
			input: func(n int) []eval.Value { return []eval.Value{arr(i32s(n, -1<<30, 1<<30))} },
			ref: func(in []eval.Value) []eval.Value {
				m := int32(math.MinInt32)
				for _, x := range in[0].Data.([]int32) {
					m = max(m, x*2+1)
				}
				return []eval.Value{scalar([]int32{m})}
			},
		},
		{
			name:  "mssp",
			build: buildMSSP,
			input: func(n int) []eval.Value { return []eval.Value{arr(i32s(n, -10, 10))} },
			ref: func(in []eval.Value) []eval.Value {
				acc := [4]int32{}
				for _, x := range in[0].Data.([]int32) {
					m := max(x, 0)
					acc = msspOp(acc, [4]int32{m, m, m, x})
				}
				return []eval.Value{scalar([]int32{acc[0]}), scalar([]int32{acc[1]}), scalar([]int32{acc[2]}), scalar([]int32{acc[3]})}
			},
		},
		{
			name: "divmod",
			build: func() *Program {
				xs := &Var{Name: "xs_1", Type: ArrayOf(I32, 1)}
				ys := &Var{Name: "ys_2", Type: ArrayOf(I32, 1)}
				return fun([]*Var{xs, ys}, func(b *Builder) []Atom {
					w := b.Size(xs, 0)
					b.Pos = pos(3)
					f := b.Lambda([]Type{Scalar(I32), Scalar(I32)}, func(lb *Builder, ps []*Var) []Atom {
						return []Atom{lb.BinOp(Div, ps[0], ps[1]), lb.BinOp(Mod, ps[0], ps[1]),
							lb.BinOp(Quot, ps[0], ps[1]), lb.BinOp(Rem, ps[0], ps[1])}
					})
					out := b.Map(w, []*Var{xs, ys}, f)
					return []Atom{out[0], out[1], out[2], out[3]}
				})
			},
			input: func(n int) []eval.Value {
				ys := i32s(n, -7, 7)
				for i := range ys {
					if ys[i] == 0 {
						ys[i] = -1
					}
				}
				xs := i32s(n+1, -100, 100)[1:]
				if n > 0 {
					xs[0] = math.MinInt32
				}
				return []eval.Value{arr(xs), arr(ys)}
			},
			ref: func(in []eval.Value) []eval.Value {
				xs, ys := in[0].Data.([]int32), in[1].Data.([]int32)
				d, m, q, r := make([]int32, len(xs)), make([]int32, len(xs)), make([]int32, len(xs)), make([]int32, len(xs))
				for i := range xs {
					d[i], m[i] = floorDiv(xs[i], ys[i]), floorMod(xs[i], ys[i])
					if ys[i] == -1 {
						q[i], r[i] = -xs[i], 0
					} else {
						q[i], r[i] = xs[i]/ys[i], xs[i]%ys[i]
					}
				}
				return []eval.Value{arr(d), arr(m), arr(q), arr(r)}
			},
			fail: func(n int) []eval.Value {
				ys := make([]int32, n)
				for i := range ys {
					ys[i] = 1
				}
				ys[n/2] = 0
				return []eval.Value{arr(i32s(n, 1, 9)), arr(ys)}
			},
			failMsg: "test.fut:3:1: division by zero",
		},
		{
			name: "pow_i64",
			build: func() *Program {
				xs := &Var{Name: "xs_1", Type: ArrayOf(I64, 1)}
				ys := &Var{Name: "ys_2", Type: ArrayOf(I64, 1)}
				return fun([]*Var{xs, ys}, func(b *Builder) []Atom {
					w := b.Size(xs, 0)
					b.Pos = pos(9)
					f := b.Lambda([]Type{Scalar(I64), Scalar(I64)}, func(lb *Builder, ps []*Var) []Atom {
						return []Atom{lb.BinOp(Pow, ps[0], ps[1])}
					})
					return []Atom{b.Map(w, []*Var{xs, ys}, f)[0]}
				})
			},
			input: func(n int) []eval.Value {
				xs, ys := make([]int64, n), make([]int64, n)
				for i := range xs {
					xs[i] = int64(hash(i)%7) - 3
					ys[i] = int64(hash(i+1) % 70)
				}
				return []eval.Value{arr(xs), arr(ys)}
			},
			ref: func(in []eval.Value) []eval.Value {
				xs, ys := in[0].Data.([]int64), in[1].Data.([]int64)
				out := make([]int64, len(xs))
				for i := range xs {
					r, x := int64(1), xs[i]
					for e := ys[i]; e != 0; e >>= 1 {
						if e&1 != 0 {
							r *= x
						}
						x *= x
					}
					out[i] = r
				}
				return []eval.Value{arr(out)}
			},
			fail: func(n int) []eval.Value {
				xs, ys := make([]int64, n), make([]int64, n)
				ys[n/3] = -2
				return []eval.Value{arr(xs), arr(ys)}
			},
			failMsg: "test.fut:9:1: negative exponent",
		},
		{
			// Float % floors (the sign of the divisor), as the CPU does;
			// fmod would give the dividend's sign on the negative operands.
			name: "fmod",
			build: func() *Program {
				xs := &Var{Name: "xs_1", Type: ArrayOf(F64, 1)}
				ys := &Var{Name: "ys_2", Type: ArrayOf(F64, 1)}
				as := &Var{Name: "as_3", Type: ArrayOf(F32, 1)}
				bs := &Var{Name: "bs_4", Type: ArrayOf(F32, 1)}
				return fun([]*Var{xs, ys, as, bs}, func(b *Builder) []Atom {
					w := b.Size(xs, 0)
					f := b.Lambda([]Type{Scalar(F64), Scalar(F64), Scalar(F32), Scalar(F32)}, func(lb *Builder, ps []*Var) []Atom {
						return []Atom{lb.BinOp(Mod, ps[0], ps[1]), lb.BinOp(Mod, ps[2], ps[3])}
					})
					out := b.Map(w, []*Var{xs, ys, as, bs}, f)
					return []Atom{out[0], out[1]}
				})
			},
			input: func(n int) []eval.Value {
				xs, ys := make([]float64, n), make([]float64, n)
				as, bs := make([]float32, n), make([]float32, n)
				for i := range xs {
					xs[i] = float64(int(hash(i)%2001)-1000) / 8
					ys[i] = float64(int(hash(i+7)%30)-15)/2 + 0.25 // never 0
					as[i], bs[i] = float32(xs[i]), float32(ys[i])
				}
				if n > 3 {
					ys[0], ys[1], xs[2], ys[3] = 0, math.Inf(-1), math.Inf(1), math.NaN()
				}
				return []eval.Value{arr(xs), arr(ys), arr(as), arr(bs)}
			},
			ref: func(in []eval.Value) []eval.Value {
				xs, ys := in[0].Data.([]float64), in[1].Data.([]float64)
				as, bs := in[2].Data.([]float32), in[3].Data.([]float32)
				m, m32 := make([]float64, len(xs)), make([]float32, len(xs))
				for i := range xs {
					m[i] = xs[i] - ys[i]*math.Floor(xs[i]/ys[i])
					a, b := float64(as[i]), float64(bs[i])
					m32[i] = float32(a - b*math.Floor(a/b))
				}
				return []eval.Value{arr(m), arr(m32)}
			},
		},
		{
			// to_bits / from_bits are bit casts (__double_as_longlong,
			// __uint_as_float): exact, NaN payloads kept, where arithmetic
			// through the device's log2 and pow was not (0.1 gave ...723).
			name: "bitcast",
			build: func() *Program {
				xs := &Var{Name: "xs_1", Type: ArrayOf(F64, 1)}
				bs := &Var{Name: "bs_2", Type: ArrayOf(U32, 1)}
				return fun([]*Var{xs, bs}, func(b *Builder) []Atom {
					w := b.Size(xs, 0)
					f := b.Lambda([]Type{Scalar(F64), Scalar(U32)}, func(lb *Builder, ps []*Var) []Atom {
						x := lb.UnOp(ToBits, lb.UnOp(FromBits, lb.UnOp(ToBits, ps[0])))
						y := lb.UnOp(ToBits, lb.UnOp(FromBits, ps[1]))
						return []Atom{x, y}
					})
					out := b.Map(w, []*Var{xs, bs}, f)
					return []Atom{out[0], out[1]}
				})
			},
			input: func(n int) []eval.Value {
				xs, bs := make([]float64, n), make([]uint32, n)
				for i := range xs {
					xs[i] = float64(int(hash(i))-1<<31) / float64(hash(i+3)|1)
					bs[i] = hash(i + 5)
				}
				specials := []float64{0.1, 5e-324, math.Copysign(0, -1), math.Inf(-1), math.Float64frombits(0x7ff8000000abcdef), math.Float64frombits(0xfff0000000000001)}
				for i, x := range specials {
					if i < n {
						xs[i], bs[i] = x, []uint32{0x7fc12345, 0xffc00001, 0x7f800001, 0x80000000, 1, 0x7f800000}[i]
					}
				}
				return []eval.Value{arr(xs), arr(bs)}
			},
			ref: func(in []eval.Value) []eval.Value {
				xs := in[0].Data.([]float64)
				ts := make([]uint64, len(xs))
				for i, x := range xs {
					ts[i] = math.Float64bits(x)
				}
				return []eval.Value{arr(ts), arr(append([]uint32(nil), in[1].Data.([]uint32)...))}
			},
		},
		{
			name: "gather",
			build: func() *Program {
				is := &Var{Name: "is_1", Type: ArrayOf(I64, 1)}
				tbl := &Var{Name: "tbl_2", Type: ArrayOf(F32, 1)}
				return fun([]*Var{is, tbl}, func(b *Builder) []Atom {
					w := b.Size(is, 0)
					b.Pos = pos(5)
					f := b.Lambda([]Type{Scalar(I64)}, func(lb *Builder, ps []*Var) []Atom {
						x := lb.Let("x", &IndexExp{Arr: tbl, Idx: []DimIndex{Fix(ps[0])}})
						return []Atom{lb.BinOp(Mul, x, FloatConst(F32, 2))}
					})
					return []Atom{b.Map(w, []*Var{is}, f)[0]}
				})
			},
			input: func(n int) []eval.Value {
				is := make([]int64, n)
				tbl := make([]float32, 100)
				for i := range is {
					is[i] = int64(hash(i) % 100)
				}
				for i := range tbl {
					tbl[i] = float32(i) * 0.25
				}
				return []eval.Value{arr(is), arr(tbl)}
			},
			ref: func(in []eval.Value) []eval.Value {
				is, tbl := in[0].Data.([]int64), in[1].Data.([]float32)
				out := make([]float32, len(is))
				for i, j := range is {
					out[i] = tbl[j] * 2
				}
				return []eval.Value{arr(out)}
			},
			fail: func(n int) []eval.Value {
				is := make([]int64, n)
				is[n-1] = 100
				return []eval.Value{arr(is), arr(make([]float32, 100))}
			},
			failMsg: "test.fut:5:1: Index [100] out of bounds for array of shape [100].",
		},
		{
			name:  "segsum",
			build: func() *Program { return buildSeg(true) },
			input: segInput,
			ref:   segRef(true),
		},
		{
			name:  "seglast",
			build: func() *Program { return buildSeg(false) },
			input: segInput,
			ref:   segRef(false),
		},
		{
			name:  "redomap_nt",
			build: buildRedomapNT,
			input: func(n int) []eval.Value {
				xs := make([]float32, n)
				for i := range xs {
					xs[i] = float32(int32(hash(i)%2001)-1000) / 250
				}
				return []eval.Value{arr(xs)}
			},
			ref: func(in []eval.Value) []eval.Value {
				xs := in[0].Data.([]float32)
				var s float64
				out := make([]float32, len(xs))
				for i, x := range xs {
					y := float32(math.Exp(float64(x / (1 + float32(math.Abs(float64(x)))))))
					s += float64(y)
					out[i] = y * 2
				}
				return []eval.Value{scalar([]float32{float32(s)}), arr(out)}
			},
		},
		{
			name:  "blackscholes",
			build: buildBlackScholes,
			input: func(n int) []eval.Value { return []eval.Value{scalar([]int64{int64(n)})} },
			ref: func(in []eval.Value) []eval.Value {
				n := in[0].Data.([]int64)[0]
				var s float64
				for i := int64(0); i < n; i++ {
					s += float64(blackScholesRef(i))
				}
				return []eval.Value{scalar([]float32{float32(s)})}
			},
		},
		{
			name:  "control",
			build: buildControl,
			input: func(n int) []eval.Value { return []eval.Value{arr(i32s(n, -50, 50))} },
			ref: func(in []eval.Value) []eval.Value {
				xs := in[0].Data.([]int32)
				out := make([]int64, len(xs))
				for i, x := range xs {
					var acc int64
					for j := int32(0); j < floorMod(x, 8); j++ {
						acc += int64(j) * int64(x)
					}
					if acc > 100 {
						out[i] = acc*acc + 1
					} else {
						out[i] = -acc
					}
				}
				return []eval.Value{arr(out)}
			},
		},
		{
			name: "ordered_u8",
			build: func() *Program {
				xs := &Var{Name: "xs_1", Type: ArrayOf(U8, 1)}
				return fun([]*Var{xs}, func(b *Builder) []Atom {
					w := b.Size(xs, 0)
					// last non-zero element: associative, not commutative
					op := lastNonZero(b, U8)
					return []Atom{b.Reduce(w, []*Var{xs}, op, []Atom{IntConst(U8, 0)}, false)[0]}
				})
			},
			input: func(n int) []eval.Value {
				xs := make([]uint8, n)
				for i := range xs {
					if hash(i)%3 == 0 {
						xs[i] = uint8(hash(i+7)%255 + 1)
					}
				}
				return []eval.Value{arr(xs)}
			},
			ref: func(in []eval.Value) []eval.Value {
				var last uint8
				for _, x := range in[0].Data.([]uint8) {
					if x != 0 {
						last = x
					}
				}
				return []eval.Value{scalar([]uint8{last})}
			},
		},
	}
}

func lastNonZero(b *Builder, t PrimType) *Lambda {
	return b.Lambda([]Type{Scalar(t), Scalar(t)}, func(lb *Builder, ps []*Var) []Atom {
		c := lb.BinOp(Ne, ps[1], IntConst(t, 0))
		return []Atom{lb.Let("r", &IfExp{Cond: c, Then: lb.Nested().Body(ps[1]), Else: lb.Nested().Body(ps[0]), Ret: []Type{Scalar(t)}})}
	})
}

func buildMSSP() *Program {
	xs := &Var{Name: "xs_1", Type: ArrayOf(I32, 1)}
	return fun([]*Var{xs}, func(b *Builder) []Atom {
		w := b.Size(xs, 0)
		mapOp := b.Lambda([]Type{Scalar(I32)}, func(lb *Builder, ps []*Var) []Atom {
			m := lb.BinOp(Max, ps[0], IntConst(I32, 0))
			return []Atom{m, m, m, ps[0]}
		})
		t := Scalar(I32)
		redOp := b.Lambda([]Type{t, t, t, t, t, t, t, t}, func(lb *Builder, p []*Var) []Atom {
			mss := lb.BinOp(Max, p[0], lb.BinOp(Max, p[4], lb.BinOp(Add, p[2], p[5])))
			mis := lb.BinOp(Max, p[1], lb.BinOp(Add, p[3], p[5]))
			mcs := lb.BinOp(Max, p[6], lb.BinOp(Add, p[2], p[7]))
			ts := lb.BinOp(Add, p[3], p[7])
			return []Atom{mss, mis, mcs, ts}
		})
		z := IntConst(I32, 0)
		r := b.Bind("r", &Screma{W: w, Arrs: []*Var{xs}, Map: mapOp,
			Reds: []*RedOp{{Lambda: redOp, Neutral: []Atom{z, z, z, z}}}})
		return []Atom{r[0], r[1], r[2], r[3]}
	})
}

// segInput is a matrix of about n elements whose row length varies with n
// so that every group size is used.
func segInput(n int) []eval.Value {
	cols := 1 + n%5000
	rows := n / cols
	xs := make([]float64, rows*cols)
	for i := range xs {
		xs[i] = float64(int32(hash(i)%200)-100) / 8
		if hash(i)%4 == 0 {
			xs[i] = 0
		}
	}
	v := eval.Value{Elem: F64, Shape: []int64{int64(rows), int64(cols)}, Data: xs}
	return []eval.Value{v}
}

func buildSeg(comm bool) *Program {
	xss := &Var{Name: "xss_1", Type: ArrayOf(F64, 2)}
	return fun([]*Var{xss}, func(b *Builder) []Atom {
		rows := b.Size(xss, 0)
		cols := b.Size(xss, 1)
		var op *Lambda
		if comm {
			op = b.BinOpLambda(Add, F64)
		} else {
			op = b.Lambda([]Type{Scalar(F64), Scalar(F64)}, func(lb *Builder, ps []*Var) []Atom {
				c := lb.BinOp(Ne, ps[1], FloatConst(F64, 0))
				return []Atom{lb.Let("r", &IfExp{Cond: c, Then: lb.Nested().Body(ps[1]), Else: lb.Nested().Body(ps[0]), Ret: []Type{Scalar(F64)}})}
			})
		}
		inner := &Screma{W: cols, Arrs: []*Var{xss}, Map: b.IdentityLambda([]Type{Scalar(F64)}),
			Reds: []*RedOp{{Lambda: op, Neutral: []Atom{FloatConst(F64, 0)}, Comm: comm}}}
		return []Atom{b.Bind("s", &Segmented{Outer: []Atom{rows}, Op: inner})[0]}
	})
}

func segRef(comm bool) func([]eval.Value) []eval.Value {
	return func(in []eval.Value) []eval.Value {
		rows, cols := in[0].Shape[0], in[0].Shape[1]
		xs := in[0].Data.([]float64)
		out := make([]float64, rows)
		for r := int64(0); r < rows; r++ {
			for c := int64(0); c < cols; c++ {
				x := xs[r*cols+c]
				if comm {
					out[r] += x
				} else if x != 0 {
					out[r] = x
				}
			}
		}
		return []eval.Value{arr(out)}
	}
}

// buildRedomapNT: a redomap whose map is expensive (division, exp) and
// whose mapped array is both reduced and returned (the seed's RedomapNT).
func buildRedomapNT() *Program {
	xs := &Var{Name: "xs_1", Type: ArrayOf(F32, 1)}
	return fun([]*Var{xs}, func(b *Builder) []Atom {
		w := b.Size(xs, 0)
		f := b.Lambda([]Type{Scalar(F32)}, func(lb *Builder, ps []*Var) []Atom {
			a := lb.BinOp(Add, FloatConst(F32, 1), lb.UnOp(Abs, ps[0]))
			y := lb.UnOp(ExpF, lb.BinOp(Div, ps[0], a))
			return []Atom{y, lb.BinOp(Mul, y, FloatConst(F32, 2))}
		})
		r := b.Bind("r", &Screma{W: w, Arrs: []*Var{xs}, Map: f,
			Reds: []*RedOp{{Lambda: b.BinOpLambda(Add, F32), Neutral: []Atom{FloatConst(F32, 0)}, Comm: true}}})
		return []Atom{r[0], r[1]}
	})
}

// Black-Scholes call prices of n generated options, summed: one redomap
// over iota n (fused into the index) whose map is the pricing formula.
func blackScholesParams(i int64) (s, x, t float32) {
	return 5 + float32(i%1000)*0.03, 1 + float32(i%997)*0.1, 0.25 + float32(i%10)*0.1
}

const bsR, bsV = 0.02, 0.30

func cndRef(d float32) float32 {
	const a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
	k := 1 / (1 + 0.2316419*float32(math.Abs(float64(d))))
	c := 0.3989422804014327 * float32(math.Exp(float64(-d*d/2))) * k * (a1 + k*(a2+k*(a3+k*(a4+k*a5))))
	if d > 0 {
		return 1 - c
	}
	return c
}

func blackScholesRef(i int64) float32 {
	s, x, t := blackScholesParams(i)
	sq := float32(math.Sqrt(float64(t)))
	d1 := (float32(math.Log(float64(s/x))) + (bsR+0.5*bsV*bsV)*t) / (bsV * sq)
	d2 := d1 - bsV*sq
	return s*cndRef(d1) - x*float32(math.Exp(float64(-bsR*t)))*cndRef(d2)
}

func buildBlackScholes() *Program {
	n := &Var{Name: "n_1", Type: Scalar(I64)}
	return fun([]*Var{n}, func(b *Builder) []Atom {
		idx := b.Fresh("i", Scalar(I64))
		f32 := func(v float64) Atom { return FloatConst(F32, v) }
		f := b.Lambda(nil, func(lb *Builder, _ []*Var) []Atom {
			conv := func(m int64) *Var { return lb.Conv(F32, lb.BinOp(Mod, idx, IntConst(I64, m))) }
			s := lb.BinOp(Add, f32(5), lb.BinOp(Mul, conv(1000), f32(0.03)))
			x := lb.BinOp(Add, f32(1), lb.BinOp(Mul, conv(997), f32(0.1)))
			t := lb.BinOp(Add, f32(0.25), lb.BinOp(Mul, conv(10), f32(0.1)))
			sq := lb.UnOp(Sqrt, t)
			vs := lb.BinOp(Mul, f32(bsV), sq)
			num := lb.BinOp(Add, lb.UnOp(Log, lb.BinOp(Div, s, x)), lb.BinOp(Mul, f32(bsR+0.5*bsV*bsV), t))
			d1 := lb.BinOp(Div, num, vs)
			d2 := lb.BinOp(Sub, d1, vs)
			cnd := func(d *Var) *Var {
				k := lb.BinOp(Div, f32(1), lb.BinOp(Add, f32(1), lb.BinOp(Mul, f32(0.2316419), lb.UnOp(Abs, d))))
				e := lb.UnOp(ExpF, lb.BinOp(Div, lb.UnOp(Neg, lb.BinOp(Mul, d, d)), f32(2)))
				c := lb.BinOp(Mul, lb.BinOp(Mul, lb.BinOp(Mul, f32(0.3989422804014327), e), k), f32chain(lb, k, []float64{0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429}))
				pos := lb.BinOp(Gt, d, f32(0))
				return lb.Let("c", &IfExp{Cond: pos, Then: bodyOf(lb, func(nb *Builder) Atom { return nb.BinOp(Sub, f32(1), c) }),
					Else: lb.Nested().Body(c), Ret: []Type{Scalar(F32)}})
			}
			disc := lb.UnOp(ExpF, lb.BinOp(Mul, f32(-bsR), t))
			call := lb.BinOp(Sub, lb.BinOp(Mul, s, cnd(d1)), lb.BinOp(Mul, lb.BinOp(Mul, x, disc), cnd(d2)))
			return []Atom{call}
		})
		r := b.Bind("r", &Screma{W: n, Index: idx, Map: f,
			Reds: []*RedOp{{Lambda: b.BinOpLambda(Add, F32), Neutral: []Atom{FloatConst(F32, 0)}, Comm: true}}})
		return []Atom{r[0]}
	})
}

// f32chain is a1 + k*(a2 + k*(a3 + ...)) evaluated by Horner's rule from
// the innermost coefficient, as cndRef does.
func f32chain(lb *Builder, k *Var, as []float64) *Var {
	acc := lb.Let("h", &AtomExp{A: FloatConst(F32, as[len(as)-1])})
	for i := len(as) - 2; i >= 0; i-- {
		acc = lb.BinOp(Add, FloatConst(F32, as[i]), lb.BinOp(Mul, k, acc))
	}
	return acc
}

func bodyOf(lb *Builder, fn func(nb *Builder) Atom) *Body {
	nb := lb.Nested()
	r := fn(nb)
	return nb.Body(r)
}

// buildControl: a map whose lambda has a loop, an if and a call of a
// scalar function of the program.
func buildControl() *Program {
	xs := &Var{Name: "xs_1", Type: ArrayOf(I32, 1)}
	b := NewBuilder()
	b.Pos = pos(7)
	a := b.Fresh("a", Scalar(I64))
	sq := b.Fun("sq1", false, []*Var{a}, func(fb *Builder) []Atom {
		return []Atom{fb.BinOp(Add, fb.BinOp(Mul, a, a), IntConst(I64, 1))}
	})
	main := b.Fun("main", true, []*Var{xs}, func(fb *Builder) []Atom {
		w := fb.Size(xs, 0)
		f := fb.Lambda([]Type{Scalar(I32)}, func(lb *Builder, ps []*Var) []Atom {
			x := ps[0]
			bound := lb.BinOp(Mod, x, IntConst(I32, 8))
			x64 := lb.Conv(I64, x)
			body := lb.Nested()
			acc := body.Fresh("acc", Scalar(I64))
			j := body.Fresh("j", Scalar(I32))
			nxt := body.BinOp(Add, acc, body.BinOp(Mul, body.Conv(I64, j), x64))
			l := lb.Bind("l", &LoopExp{Params: []*Var{acc}, Init: []Atom{IntConst(I64, 0)},
				Form: ForLoop{I: j, Bound: bound}, Body: body.Body(nxt)})[0]
			c := lb.BinOp(Gt, l, IntConst(I64, 100))
			tb := lb.Nested()
			tr := tb.Bind("c", &ApplyExp{Fun: "sq1", Args: []Atom{l}, Ret: []Type{Scalar(I64)}})[0]
			eb := lb.Nested()
			er := eb.UnOp(Neg, l)
			return []Atom{lb.Let("r", &IfExp{Cond: c, Then: tb.Body(tr), Else: eb.Body(er), Ret: []Type{Scalar(I64)}})}
		})
		return []Atom{fb.Map(w, []*Var{xs}, f)[0]}
	})
	return &Program{Funs: []*Fun{sq, main}}
}
