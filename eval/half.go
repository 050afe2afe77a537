package eval

import (
	"fmt"
	"reflect"

	"github.com/arepl/arepl/lang/core"
)

// The half-precision type. Futhark's f16 is IEEE binary16; arepl holds an
// f16 on the host as the float32 of the same value ([]float32 data, every
// element exactly a half) and computes with it as Futhark's C backend does
// where the hardware has no half arithmetic: each operation in float32,
// its result rounded to the nearest half (ties to even). For + - * / and
// sqrt that is the correctly rounded half result (float32's 24-bit
// significand exceeds 2*11+2 bits); the transcendental functions are
// float32's, rounded.
//
// No backend knows f16. Before a program reaches one, WidenHalf rewrites
// it into the same program over f32 with the rounding made explicit: every
// f16 becomes f32, a statement that computes an f16 is followed by
// core.HalfRound, and the f16 bit casts become core.HalfToBits and
// core.HalfFromBits. The CPU interpreter with all its fast paths, fusion,
// the GPU code generator and sharding then run f16 programs through their
// f32 code, and only three operators are new to them. The values at the
// boundary keep Elem f16 (the printer and the value formats need it);
// widenArgs and narrowResults relabel them around a run. A program without
// f16 is returned unchanged, so existing programs keep their IR (and the
// GPU's fingerprints and cached modules).

// HasHalf reports whether p mentions the type f16 anywhere.
func HasHalf(p *core.Program) bool {
	found := false
	walkPrims(reflect.ValueOf(p), map[uintptr]bool{}, func(t core.PrimType) {
		if t == core.F16 {
			found = true
		}
	})
	return found
}

// walkPrims calls f on every PrimType reachable from v.
func walkPrims(v reflect.Value, seen map[uintptr]bool, f func(core.PrimType)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		walkPrims(v.Elem(), seen, f)
	case reflect.Interface:
		if !v.IsNil() {
			walkPrims(v.Elem(), seen, f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkPrims(v.Field(i), seen, f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkPrims(v.Index(i), seen, f)
		}
	case reflect.Uint8:
		if v.Type() == primType {
			f(core.PrimType(v.Uint()))
		}
	}
}

var primType = reflect.TypeFor[core.PrimType]()

// WidenHalf returns p with f16 computed in f32 (see above), or p itself
// when p has no f16. p is not modified: the widened program is a copy.
func WidenHalf(p *core.Program) *core.Program {
	if p == nil || !HasHalf(p) {
		return p
	}
	w := &widener{}
	for _, f := range p.Funs {
		w.body(f.Body)
	}
	c := &copier{memo: map[ptrKey]reflect.Value{}, stmts: w.stmts}
	return c.copy(reflect.ValueOf(p)).Interface().(*core.Program)
}

// widener finds the statements that compute an f16 and says what replaces
// each (in f16 terms; the copy then widens every f16 to f32).
type widener struct {
	n     int
	stmts map[*core.Stmt][]*core.Stmt
}

func (w *widener) body(b *core.Body) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		w.stmt(s)
	}
}

// sub walks the bodies inside an expression (branches, loops, lambdas).
func (w *widener) sub(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if b, ok := v.Interface().(*core.Body); ok {
			w.body(b)
			return
		}
		w.sub(v.Elem())
	case reflect.Interface:
		if !v.IsNil() {
			w.sub(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				w.sub(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			w.sub(v.Index(i))
		}
	}
}

func (w *widener) tmp(base *core.Var, t core.Type) *core.Var {
	w.n++
	return &core.Var{Name: fmt.Sprintf("%s_h%d", base.Name, w.n), Type: t}
}

func (w *widener) replace(s *core.Stmt, ss ...*core.Stmt) {
	if w.stmts == nil {
		w.stmts = map[*core.Stmt][]*core.Stmt{}
	}
	w.stmts[s] = ss
}

// then is s computing into a fresh variable, followed by op on it into s's
// variable: the rounding step after an f16 operation.
func (w *widener) then(s *core.Stmt, e core.Exp, t core.PrimType, op core.UnOp) {
	x := s.Pat[0]
	tmp := w.tmp(x, core.Scalar(t))
	w.replace(s,
		&core.Stmt{Pat: []*core.Var{tmp}, Exp: e, Pos: s.Pos},
		&core.Stmt{Pat: []*core.Var{x}, Exp: &core.UnOpExp{Op: op, T: t, X: tmp}, Pos: s.Pos})
}

func (w *widener) stmt(s *core.Stmt) {
	w.sub(reflect.ValueOf(s.Exp))
	if len(s.Pat) != 1 {
		return
	}
	switch e := s.Exp.(type) {
	case *core.BinOpExp:
		if e.T != core.F16 || core.BinOps[e.Op].Comparison {
			return
		}
		switch e.Op {
		case core.Min, core.Max, core.CopySign: // exact
			return
		case core.NextAfter: // a step of a half, not of an f32
			w.nextAfter(s, e)
			return
		}
		w.then(s, e, core.F16, core.HalfRound)
	case *core.UnOpExp:
		switch {
		case e.Op == core.ToBits && e.T == core.F16:
			w.replace(s, &core.Stmt{Pat: s.Pat, Exp: &core.UnOpExp{Op: core.HalfToBits, T: core.F16, X: e.X}, Pos: s.Pos})
		case e.Op == core.FromBits && e.T == core.U16:
			w.replace(s, &core.Stmt{Pat: s.Pat, Exp: &core.UnOpExp{Op: core.HalfFromBits, T: core.U16, X: e.X}, Pos: s.Pos})
		case e.T != core.F16 || core.UnOpResult(e.Op, e.T) != core.F16:
		case e.Op == core.Neg || e.Op == core.Abs || e.Op == core.Signum: // exact
		default:
			w.then(s, e, core.F16, core.HalfRound)
		}
	case *core.ConvExp:
		switch {
		case e.To != core.F16 || e.From == core.F16:
		case e.From == core.F64:
			// Round from f64 straight to half: through f32 it would round
			// twice.
			x := s.Pat[0]
			tmp := w.tmp(x, core.Scalar(core.F64))
			w.replace(s,
				&core.Stmt{Pat: []*core.Var{tmp}, Exp: &core.UnOpExp{Op: core.HalfRound, T: core.F64, X: e.X}, Pos: s.Pos},
				&core.Stmt{Pat: []*core.Var{x}, Exp: &core.ConvExp{From: core.F64, To: core.F16, X: tmp}, Pos: s.Pos})
		default:
			// An integer rounds to f32 only at or above 2^24, where the
			// half is inf either way.
			w.then(s, e, core.F16, core.HalfRound)
		}
	}
}

// nextAfter replaces x = nextafter a b on f16 by its computation on the
// bits of the halves, with selections written as arithmetic on u16
// (sel c p q = q + c*(p - q), c 0 or 1), as C's nextafter: a step of the
// bits away from or towards zero, the smallest subnormal from zero, b
// when a == b, NaN when either is NaN.
func (w *widener) nextAfter(s *core.Stmt, e *core.BinOpExp) {
	pos, x := s.Pos, s.Pat[0]
	var out []*core.Stmt
	let := func(t core.PrimType, ex core.Exp) core.Atom {
		v := w.tmp(x, core.Scalar(t))
		out = append(out, &core.Stmt{Pat: []*core.Var{v}, Exp: ex, Pos: pos})
		return v
	}
	u16 := func(v int64) core.Atom { return core.IntConst(core.U16, v) }
	bin := func(op core.BinOp, t core.PrimType, a, b core.Atom) core.Atom {
		return let(core.BinOpResult(op, t), &core.BinOpExp{Op: op, T: t, X: a, Y: b})
	}
	flag := func(op core.BinOp, a, b core.Atom) core.Atom { // u16.bool (a op b) on f16
		return let(core.U16, &core.ConvExp{From: core.Bool, To: core.U16, X: bin(op, core.F16, a, b)})
	}
	sel := func(c, p, q core.Atom) core.Atom {
		return bin(core.Add, core.U16, q, bin(core.Mul, core.U16, c, bin(core.Sub, core.U16, p, q)))
	}
	a, b := e.X, e.Y
	zero := core.FloatConst(core.F16, 0)
	ba := let(core.U16, &core.UnOpExp{Op: core.HalfToBits, T: core.F16, X: a})
	bb := let(core.U16, &core.UnOpExp{Op: core.HalfToBits, T: core.F16, X: b})
	// Away from zero (bits + 1) when a < b and a > 0 agree, else towards.
	up := bin(core.Sub, core.U16, u16(1), bin(core.Xor, core.U16, flag(core.Lt, a, b), flag(core.Gt, a, zero)))
	r := bin(core.Sub, core.U16, bin(core.Add, core.U16, ba, bin(core.Add, core.U16, up, up)), u16(1))
	fromZero := bin(core.Sub, core.U16, u16(0x8001), bin(core.Mul, core.U16, flag(core.Gt, b, zero), u16(0x8000)))
	r = sel(flag(core.Eq, a, zero), fromZero, r)
	r = sel(flag(core.Eq, a, b), bb, r)
	nan := let(core.U16, &core.ConvExp{From: core.Bool, To: core.U16, X: let(core.Bool, &core.BinOpExp{Op: core.LogOr, T: core.Bool,
		X: let(core.Bool, &core.UnOpExp{Op: core.IsNan, T: core.F16, X: a}), Y: let(core.Bool, &core.UnOpExp{Op: core.IsNan, T: core.F16, X: b})})})
	r = sel(nan, u16(0x7e00), r)
	out = append(out, &core.Stmt{Pat: []*core.Var{x}, Exp: &core.UnOpExp{Op: core.HalfFromBits, T: core.U16, X: r}, Pos: pos})
	w.replace(s, out...)
}

// ptrKey identifies a pointer by address and type (a struct and its first
// field share an address).
type ptrKey struct {
	p uintptr
	t reflect.Type
}

// copier deep-copies the IR, keeping shared pointers shared, turning every
// f16 into f32 and splicing in the widener's replacement statements.
type copier struct {
	memo  map[ptrKey]reflect.Value
	stmts map[*core.Stmt][]*core.Stmt
}

var stmtsType = reflect.TypeFor[[]*core.Stmt]()

func (c *copier) copy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		k := ptrKey{v.Pointer(), v.Type()}
		if r, ok := c.memo[k]; ok {
			return r
		}
		r := reflect.New(v.Type().Elem())
		c.memo[k] = r
		r.Elem().Set(c.copy(v.Elem()))
		return r
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		r := reflect.New(v.Type()).Elem()
		r.Set(c.copy(v.Elem()))
		return r
	case reflect.Struct:
		r := reflect.New(v.Type()).Elem()
		r.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				r.Field(i).Set(c.copy(v.Field(i)))
			}
		}
		return r
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		if v.Type() == stmtsType {
			var out []*core.Stmt
			for _, s := range v.Interface().([]*core.Stmt) {
				if rs, ok := c.stmts[s]; ok {
					for _, r := range rs {
						out = append(out, c.copy(reflect.ValueOf(r)).Interface().(*core.Stmt))
					}
					continue
				}
				out = append(out, c.copy(reflect.ValueOf(s)).Interface().(*core.Stmt))
			}
			return reflect.ValueOf(out)
		}
		r := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			r.Index(i).Set(c.copy(v.Index(i)))
		}
		return r
	case reflect.Array:
		r := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			r.Index(i).Set(c.copy(v.Index(i)))
		}
		return r
	case reflect.Uint8:
		if v.Type() == primType && core.PrimType(v.Uint()) == core.F16 {
			return reflect.ValueOf(core.F32)
		}
	}
	return v
}

// widenArgs relabels f16 arguments as the f32 values they are held as.
func widenArgs(args []Value) []Value {
	var out []Value
	for i, v := range args {
		if v.Elem == core.F16 {
			if out == nil {
				out = append([]Value(nil), args...)
			}
			out[i].Elem = core.F32
		}
	}
	if out == nil {
		return args
	}
	return out
}

// narrowResults relabels the results of fn that are f16 in prog (the
// program before WidenHalf).
func narrowResults(prog *core.Program, fn string, vals []Value) []Value {
	f := prog.Fun(fn)
	if f == nil || len(f.Ret) != len(vals) {
		return vals
	}
	for i, t := range f.Ret {
		if t.Elem == core.F16 && vals[i].Elem == core.F32 {
			vals[i].Elem = core.F16
		}
	}
	return vals
}
