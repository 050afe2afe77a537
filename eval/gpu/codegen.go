package gpu

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// unsupported says why a piece of core code cannot run inside a kernel; the
// backend then runs the whole statement through its fallback and notes why.
type unsupported struct{ why string }

func (u *unsupported) Error() string { return u.why }

func unsup(format string, args ...any) error { return &unsupported{fmt.Sprintf(format, args...)} }

// ctype is the C name of a primitive type (the prelude's typedefs use the
// Futhark names).
func ctype(t core.PrimType) string { return t.String() }

// cname turns a core variable name into a C identifier: "v_" + the name
// with every character outside [A-Za-z0-9_] spelt as its code, so distinct
// names stay distinct.
func cname(name string) string {
	var b strings.Builder
	b.WriteString("v_")
	for _, r := range name {
		switch {
		case r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "_%x_", r)
		}
	}
	return b.String()
}

// constant renders a constant exactly: integers as typed literals, floats
// in shortest round-trip form (bit patterns for inf and nan).
func constant(c core.Const) string {
	switch {
	case c.T == core.Bool:
		if c.Bool() {
			return "true"
		}
		return "false"
	case c.T == core.F32:
		f := c.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Sprintf("__int_as_float(0x%08x)", math.Float32bits(float32(f)))
		}
		return floatLit(strconv.FormatFloat(f, 'g', -1, 32)) + "f"
	case c.T == core.F64:
		f := c.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Sprintf("__longlong_as_double(0x%016xLL)", c.Bits)
		}
		return floatLit(strconv.FormatFloat(f, 'g', -1, 64))
	case c.T == core.I64 && c.Int() == math.MinInt64:
		return "((i64)0x8000000000000000ULL)"
	case c.T.IsSigned():
		return fmt.Sprintf("((%s)%dLL)", ctype(c.T), c.Int())
	case c.T.IsUnsigned():
		return fmt.Sprintf("((%s)%dULL)", ctype(c.T), c.Bits)
	}
	return fmt.Sprintf("/* bad constant %v */0", c)
}

// floatLit makes sure a decimal rendering reads as a floating literal.
func floatLit(s string) string {
	if strings.ContainsAny(s, ".eE") {
		return s
	}
	return s + ".0"
}

func atom(a core.Atom) (string, error) {
	switch a := a.(type) {
	case *core.Var:
		if a.Type.IsArray() {
			return "", unsup("array %s used as a scalar", a.Name)
		}
		return cname(a.Name), nil
	case core.Const:
		return constant(a), nil
	case *core.Const:
		return constant(*a), nil
	}
	return "", fmt.Errorf("internal error: unknown atom %T", a)
}

// errSite is a run-time check inside a kernel: its code is its index in
// the module's table plus one, which is what a failing thread writes to the
// error flag.
type errSite struct {
	Pos source.Pos
	Msg string
	// Rank > 0 marks an index check: the failing thread also stores its
	// indices and the array's shape (up to maxDetail of each) after the
	// flag, and the message names them as the CPU interpreter does.
	Rank int
	// Slice marks a slice check (Rank is then the array's rank): per index,
	// whether it is a slice i:j:s, whose start, end and stride the thread
	// stores in slots 1+k, 1+2*maxDetail+k and 1+3*maxDetail+k (a fixed
	// index in 1+k), the shape in 1+maxDetail+q.
	Slice []bool
	// Omit, beside Slice, is what the source left out of each slice, for
	// the message's text (core.Omitted.SliceText).
	Omit []core.Omitted
	// Assert, for an assertion with values (Futhark's range messages):
	// the thread stores its Args as i64 in slots 1, 2, ...
	Assert *core.AssertExp
}

// maxDetail is how many indices and dimensions an index check reports.
const maxDetail = 4

// emitter renders scalar core code as C statements. Arrays it may read are
// the free arrays of the kernel (passed as pointer and dimensions); every
// run-time check gets a site in sites.
type emitter struct {
	b      strings.Builder
	indent int
	sites  *[]errSite
	tmp    int
	funs   map[string]bool // device functions called (by core name)
	calls  bool            // this emitter rendered a call
	prog   *core.Program
	// consts, when set, collects the numeric literals of the code as kernel
	// parameters ar_k0, ar_k1, ... (in order of appearance, one per
	// occurrence) instead of spelling them out, so that expressions that
	// differ only in their constants share one module (issue 16).
	consts *[]core.Const

	// arrays turns on array views, thread-local arrays and sequential
	// SOACs (inkernel.go); only segmented-map kernels, which pass the
	// scratch buffer, use it.
	arrays   bool
	scratch  bool                // the code allocates scratch
	inPlace  map[*core.Stmt]bool // updates that may write in place
	inlining []string            // functions being inlined, innermost last
	// rng, when set, tracks index intervals and leaves out the checks
	// they cover (ranges.go).
	rng *rangeSet
	// vec, when set, renders one lane of a vector step (vecstep.go).
	vec *vecLane
}

// atom renders an operand; with consts set, a numeric literal becomes the
// next constant parameter. The value passed is the literal itself, so
// checks left out for a literal (a nonzero divisor, a non-negative
// exponent) stay right: another literal changes the generated text (its
// check appears) unless it needs none either.
func (e *emitter) atom(a core.Atom) (string, error) {
	if e.consts != nil {
		var c core.Const
		ok := false
		switch x := a.(type) {
		case core.Const:
			c, ok = x, true
		case *core.Const:
			c, ok = *x, true
		}
		if ok && (c.T.IsInt() || c.T.IsFloat()) {
			*e.consts = append(*e.consts, c)
			return fmt.Sprintf("ar_k%d", len(*e.consts)-1), nil
		}
	}
	return atom(a)
}

func (e *emitter) line(format string, args ...any) {
	e.b.WriteString(strings.Repeat("  ", e.indent))
	fmt.Fprintf(&e.b, format, args...)
	e.b.WriteByte('\n')
}

func (e *emitter) site(pos source.Pos, msg string) int {
	*e.sites = append(*e.sites, errSite{Pos: pos, Msg: msg})
	return len(*e.sites)
}

func (e *emitter) fresh(base string) string {
	e.tmp++
	return fmt.Sprintf("ar_%s%d", base, e.tmp)
}

// body renders stmts and assigns the results to dst (already declared).
func (e *emitter) body(b *core.Body, dst []string) error {
	for _, s := range b.Stmts {
		if err := e.stmt(s); err != nil {
			return err
		}
	}
	if len(dst) != len(b.Result) {
		return fmt.Errorf("internal error: %d results for %d destinations", len(b.Result), len(dst))
	}
	for i, r := range b.Result {
		if v, ok := arrayVar(r); ok && e.arrays {
			e.setView(dst[i], v.Type.Elem, cname(v.Name), viewDims(cname(v.Name), v.Type.Rank), viewStrides(cname(v.Name), v.Type.Rank))
			continue
		}
		a, err := e.atom(r)
		if err != nil {
			return err
		}
		e.line("%s = %s;", dst[i], a)
	}
	return nil
}

func (e *emitter) declare(vs []*core.Var) error {
	for _, v := range vs {
		if v.Type.IsArray() && e.arrays {
			e.arrayDecl(cname(v.Name), v.Type)
			continue
		}
		if v.Type.IsArray() {
			return unsup("%s is an array inside a kernel", v.Name)
		}
		e.line("%s %s;", ctype(v.Type.Elem), cname(v.Name))
	}
	return nil
}

func (e *emitter) stmt(s *core.Stmt) error {
	if e.rng != nil {
		e.rng.note(s)
	}
	if e.vec != nil {
		e.vec.note(s, e.rng)
	}
	if err := e.declare(s.Pat); err != nil {
		return err
	}
	if e.arrays {
		if ok, err := e.arrayStmt(s); ok || err != nil {
			return err
		}
		switch x := s.Exp.(type) {
		case *core.LoopExp:
			return e.seqLoop(s, x)
		case *core.Screma:
			return e.seqScrema(s, x)
		case *core.Segmented:
			return e.seqSegmented(s, x)
		case *core.Scatter:
			return e.seqScatter(s, x)
		}
	}
	one := func() (string, error) {
		if len(s.Pat) != 1 {
			return "", fmt.Errorf("internal error: %T binds %d variables", s.Exp, len(s.Pat))
		}
		return cname(s.Pat[0].Name), nil
	}
	switch x := s.Exp.(type) {
	case *core.AtomExp:
		d, err := one()
		if err != nil {
			return err
		}
		a, err := e.atom(x.A)
		if err != nil {
			return err
		}
		e.line("%s = %s;", d, a)
	case *core.BinOpExp:
		d, err := one()
		if err != nil {
			return err
		}
		if !core.BinOpValid(x.Op, x.T) {
			return fmt.Errorf("internal error: %v on %v", x.Op, x.T)
		}
		a, err := e.atom(x.X)
		if err != nil {
			return err
		}
		b, err := e.atom(x.Y)
		if err != nil {
			return err
		}
		if x.T.IsInt() && (x.Op == core.Div || x.Op == core.Mod || x.Op == core.Quot || x.Op == core.Rem) && !nonZeroConst(x.Y) {
			code := e.site(s.Pos, "division by zero")
			e.line("if (%s == 0) ar_fail(ar_err, %d);", b, code)
		}
		if x.T.IsSigned() && x.Op == core.Pow && !nonNegConst(x.Y) {
			code := e.site(s.Pos, "negative exponent")
			e.line("if (%s < 0) ar_fail(ar_err, %d);", b, code)
		}
		if c, ok := divByConst(x, a); ok && e.consts == nil {
			e.line("%s = %s;", d, c)
			break
		}
		if c, ok := e.rng.narrowOp(x, s.Pat[0].Name, a, b); ok {
			e.line("%s = (i64)(%s);", d, c)
			break
		}
		e.line("%s = %s_%s(%s, %s);", d, core.BinOps[x.Op].Name, ctype(x.T), a, b)
	case *core.UnOpExp:
		d, err := one()
		if err != nil {
			return err
		}
		if !core.UnOpValid(x.Op, x.T) {
			return fmt.Errorf("internal error: %v on %v", x.Op, x.T)
		}
		a, err := e.atom(x.X)
		if err != nil {
			return err
		}
		if c, ok := halfOp(x.Op, x.T, d, a); ok {
			e.line("%s", c)
			break
		}
		e.line("%s = %s_%s(%s);", d, core.UnOps[x.Op].Name, ctype(x.T), a)
	case *core.ConvExp:
		d, err := one()
		if err != nil {
			return err
		}
		a, err := e.atom(x.X)
		if err != nil {
			return err
		}
		e.line("%s = %s;", d, conv(x.From, x.To, a))
	case *core.IfExp:
		c, err := e.atom(x.Cond)
		if err != nil {
			return err
		}
		dst := names(s.Pat)
		e.line("if (%s) {", c)
		e.indent++
		if err := e.body(x.Then, dst); err != nil {
			return err
		}
		e.indent--
		e.line("} else {")
		e.indent++
		if err := e.body(x.Else, dst); err != nil {
			return err
		}
		e.indent--
		e.line("}")
	case *core.LoopExp:
		return e.loop(s, x)
	case *core.IndexExp:
		return e.index(s, x)
	case *core.SizeExp:
		d, err := one()
		if err != nil {
			return err
		}
		if x.Dim < 0 || x.Dim >= x.Arr.Type.Rank {
			return fmt.Errorf("internal error: size of dimension %d of %v", x.Dim, x.Arr.Type)
		}
		e.line("%s = %s_d%d;", d, cname(x.Arr.Name), x.Dim)
	case *core.AssertExp:
		c, err := e.atom(x.Cond)
		if err != nil {
			return err
		}
		*e.sites = append(*e.sites, errSite{Pos: s.Pos, Msg: x.Message(nil), Assert: x})
		code := len(*e.sites)
		if len(x.Args) == 0 {
			e.line("if (!(%s)) ar_fail(ar_err, %d);", c, code)
			break
		}
		e.line("if (!(%s) && atomicCAS(ar_err, 0, %d) == 0) {", c, code)
		for i, a := range x.Args {
			if i >= errWords-1 {
				break
			}
			v, err := e.atom(a)
			if err != nil {
				return err
			}
			e.line("  ((i64 *)ar_err)[%d] = (i64)(%s);", 1+i, v)
		}
		e.line("}")
	case *core.ApplyExp:
		return e.apply(s, x)
	case *core.UpdateExp, *core.ArrayLitExp, *core.IotaExp, *core.ReplicateExp, *core.ReshapeExp,
		*core.TransposeExp, *core.ReverseExp, *core.RotateExp, *core.ConcatExp, *core.CopyExp,
		*core.Screma, *core.Hist, *core.Scatter, *core.Filter, *core.Segmented, *core.MultiScan:
		return unsup("%s inside a kernel (nested parallelism is not generated yet)", expName(x))
	default:
		return fmt.Errorf("internal error: unknown expression %T", x)
	}
	return nil
}

// expName is a short user-facing name of an expression kind.
func expName(x core.Exp) string {
	switch x := x.(type) {
	case *core.Screma:
		return x.Kind()
	case *core.Hist:
		return "hist"
	case *core.Scatter:
		return "scatter"
	case *core.Filter:
		if x.Partition {
			return "partition"
		}
		return "filter"
	case *core.Segmented:
		if x.Op != nil {
			return "segmented " + x.Op.Kind()
		}
		return "segmented"
	case *core.MultiScan:
		return "multiscan"
	}
	s := fmt.Sprintf("%T", x)
	s = strings.TrimPrefix(s, "*core.")
	return strings.ToLower(strings.TrimSuffix(s, "Exp"))
}

// divByConst renders the f32 division x of a (rendered) by a constant
// without the division's slow-path branch, which splits a body into basic
// blocks and keeps the compiler from moving the next point's loads above
// it (a stencil's "/ 5"), where the result is the IEEE quotient for every
// a:
//   - d = ±2^k (|k| <= 126): a * (1/d) in f32, the exact product rounded
//     once.
//   - d an odd integer (|d| < 2^24, as every odd f32 is): (f32)((f64)a *
//     c), c = 1/d rounded to f64. The product u is a/d within a relative
//     2^-52, so within 2^(E-28) for a/d's float ulp 2^E. a/d is never a
//     float rounding midpoint (that needs d | a's significand, and then
//     a/d is representable, subnormals too as d is odd), and its distance
//     to one is at least 2^(E-1)/|d| (a fraction with denominator d of the
//     finer grid), more than u's error while |d| < 2^27: u rounds to float
//     as a/d does. Infinities, NaN and zeros pass through the product.
//     Checked for every f32 a with d = 3, 5, -7, 65535, 2^23+1, 2^24-1.
func divByConst(x *core.BinOpExp, a string) (string, bool) {
	if x.Op != core.Div || x.T != core.F32 {
		return "", false
	}
	var c core.Const
	switch y := x.Y.(type) {
	case core.Const:
		c = y
	case *core.Const:
		c = *y
	default:
		return "", false
	}
	d := c.Float()
	if d == 0 || math.IsInf(d, 0) || d != math.Trunc(d) && math.Abs(d) >= 1 {
		return "", false
	}
	if fr, exp := math.Frexp(math.Abs(d)); fr == 0.5 && exp-1 >= -126 && exp-1 <= 126 {
		return fmt.Sprintf("(%s * %s)", a, f32Lit(float32(1/d))), true
	}
	if d != math.Trunc(d) || math.Abs(d) >= 1<<24 || math.Mod(d, 2) == 0 {
		return "", false
	}
	return fmt.Sprintf("(f32)((f64)%s * %s)", a, floatLit(strconv.FormatFloat(1/d, 'g', -1, 64))), true
}

// f32Lit spells an f32 constant exactly.
func f32Lit(v float32) string { return floatLit(strconv.FormatFloat(float64(v), 'g', -1, 32)) + "f" }

// nonZeroConst reports whether a is a constant other than zero (a divisor
// that needs no check).
func nonZeroConst(a core.Atom) bool {
	c, ok := a.(core.Const)
	return ok && c.Bits != 0
}

// nonNegConst reports whether a is a constant of at least zero (an
// exponent that needs no check).
func nonNegConst(a core.Atom) bool {
	c, ok := a.(core.Const)
	return ok && c.Int() >= 0
}

func names(vs []*core.Var) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = cname(v.Name)
	}
	return out
}

// conv renders a primitive conversion with Futhark's meaning: to bool is
// "not zero", from bool is 0 or 1, int to int wraps, float to int
// truncates toward zero.
func conv(from, to core.PrimType, a string) string {
	switch {
	case from == to:
		return a
	case to == core.Bool:
		return fmt.Sprintf("(%s != 0)", a)
	case from == core.Bool:
		return fmt.Sprintf("(%s)(%s ? 1 : 0)", ctype(to), a)
	}
	return fmt.Sprintf("(%s)(%s)", ctype(to), a)
}

func (e *emitter) loop(s *core.Stmt, x *core.LoopExp) error {
	if len(x.Params) != len(x.Init) || len(s.Pat) != len(x.Params) {
		return fmt.Errorf("internal error: loop with %d parameters, %d initial values, %d results", len(x.Params), len(x.Init), len(s.Pat))
	}
	e.line("{")
	e.indent++
	if err := e.declare(x.Params); err != nil {
		return err
	}
	for i, p := range x.Params {
		a, err := e.atom(x.Init[i])
		if err != nil {
			return err
		}
		e.line("%s = %s;", cname(p.Name), a)
	}
	// The body's results go to temporaries first: they may read the
	// parameters they replace.
	tmps := make([]string, len(x.Params))
	for i := range tmps {
		tmps[i] = e.fresh("next")
	}
	if f := core.ForOf(x.Form); f != nil {
		b, err := e.atom(f.Bound)
		if err != nil {
			return err
		}
		t := ctype(f.I.Type.Elem)
		e.line("for (%s %s = 0; %s < %s; %s++) {", t, cname(f.I.Name), cname(f.I.Name), b, cname(f.I.Name))
	} else if w := core.WhileOf(x.Form); w != nil {
		e.line("while (%s) {", cname(w.Cond.Name))
	} else {
		return fmt.Errorf("internal error: unknown loop form %T", x.Form)
	}
	e.indent++
	for i, p := range x.Params {
		e.line("%s %s;", ctype(p.Type.Elem), tmps[i])
	}
	if err := e.body(x.Body, tmps); err != nil {
		return err
	}
	for i, p := range x.Params {
		e.line("%s = %s;", cname(p.Name), tmps[i])
	}
	e.indent--
	e.line("}")
	for i, p := range x.Params {
		e.line("%s = %s;", cname(s.Pat[i].Name), cname(p.Name))
	}
	e.indent--
	e.line("}")
	return nil
}

// index reads one element of a free array; an index out of bounds raises
// the error flag and reads nothing.
func (e *emitter) index(s *core.Stmt, x *core.IndexExp) error {
	if len(s.Pat) != 1 {
		return fmt.Errorf("internal error: index binds %d variables", len(s.Pat))
	}
	r := x.Arr.Type.Rank
	if len(x.Idx) != r {
		return unsup("slicing %s inside a kernel", x.Arr.Name)
	}
	arr := cname(x.Arr.Name)
	var conds, ixs []string
	for i, d := range x.Idx {
		if d.Fix == nil {
			return unsup("slicing %s inside a kernel", x.Arr.Name)
		}
		a, err := e.atom(*d.Fix)
		if err != nil {
			return err
		}
		ix := e.fresh("i")
		e.line("i64 %s = (i64)(%s);", ix, a)
		ixs = append(ixs, ix)
		if e.rng.covered(x.Arr, i, *d.Fix) {
			continue // in bounds at every point where ar_fast holds
		}
		// One unsigned compare per dimension: a negative index wraps to
		// above any size (sizes are below 2^48).
		conds = append(conds, fmt.Sprintf("(u64)%s < (u64)%s_d%d", ix, arr, i))
	}
	flat := ixs[0]
	for i := 1; i < r; i++ {
		flat = fmt.Sprintf("(%s) * %s_d%d + %s", flat, arr, i, ixs[i])
	}
	if e.arrays {
		flat = strings.TrimSuffix(strings.TrimPrefix(at(arr, ixs), arr+"["), "]")
		if len(conds) == 0 && e.rng.narrowRead(x.Arr) {
			if e.vec != nil {
				if v := e.vec.read(e, s, x, ixs); v != "" {
					e.line("%s = %s;", cname(s.Pat[0].Name), v)
					return nil
				}
			}
			var terms []string
			for k, i := range ixs {
				terms = append(terms, fmt.Sprintf("(i32)%s * (i32)%s", i, strideName(arr, k)))
			}
			flat = strings.Join(terms, " + ")
		}
	}
	ok := e.fresh("ok")
	*e.sites = append(*e.sites, errSite{Pos: s.Pos, Msg: "index out of bounds", Rank: r})
	code := len(*e.sites)
	if len(conds) == 0 {
		conds = []string{"true"}
	}
	e.line("bool %s = %s;", ok, strings.Join(conds, " && "))
	// The read first, so that a body's reads are issued before any branch
	// to the failure path (a stencil's five neighbours in flight at once).
	e.line("%s = %s ? %s[%s] : (%s)0;", cname(s.Pat[0].Name), ok, arr, flat, ctype(x.Arr.Type.Elem))
	// The first failing thread records its indices and the shape beside
	// the flag: i64 slots 1..maxDetail and maxDetail+1..2*maxDetail.
	e.line("if (!%s && atomicCAS(ar_err, 0, %d) == 0) {", ok, code)
	for i := 0; i < r && i < maxDetail; i++ {
		e.line("  ((i64 *)ar_err)[%d] = %s; ((i64 *)ar_err)[%d] = %s_d%d;", 1+i, ixs[i], 1+maxDetail+i, arr, i)
	}
	e.line("}")
	return nil
}

// apply calls a function of the program rendered as a device function;
// only functions of scalars qualify.
func (e *emitter) apply(s *core.Stmt, x *core.ApplyExp) error {
	f := e.prog.Fun(x.Fun)
	if f == nil {
		return fmt.Errorf("internal error: call of unknown function %s", x.Fun)
	}
	if err := scalarFun(f); err != nil {
		if e.arrays {
			return e.inlineCall(s, x, f)
		}
		return err
	}
	args := []string{"ar_err"}
	for _, a := range x.Args {
		s, err := e.atom(a)
		if err != nil {
			return err
		}
		args = append(args, s)
	}
	for _, v := range s.Pat {
		args = append(args, "&"+cname(v.Name))
	}
	e.funs[f.Name] = true
	e.calls = true
	e.line("%s(%s);", funName(f.Name), strings.Join(args, ", "))
	return nil
}

func funName(name string) string { return "f_" + strings.TrimPrefix(cname(name), "v_") }

func scalarFun(f *core.Fun) error {
	for _, p := range f.Params {
		if p.Type.IsArray() {
			return unsup("function %s takes an array", f.Name)
		}
	}
	for _, t := range f.Ret {
		if t.IsArray() {
			return unsup("function %s returns an array", f.Name)
		}
	}
	return nil
}

// deviceFun renders a function of the program as a device function
// `void f_NAME(int *ar_err, params..., results*...)`; the names of the
// functions it calls are added to e.funs.
func (e *emitter) deviceFun(f *core.Fun) (string, string, error) {
	if err := scalarFun(f); err != nil {
		return "", "", err
	}
	params := []string{"int *ar_err"}
	for _, p := range f.Params {
		params = append(params, ctype(p.Type.Elem)+" "+cname(p.Name))
	}
	for i, t := range f.Ret {
		params = append(params, fmt.Sprintf("%s *ar_res%d", ctype(t.Elem), i))
	}
	proto := fmt.Sprintf("static __device__ void %s(%s)", funName(f.Name), strings.Join(params, ", "))
	inner := &emitter{indent: 1, sites: e.sites, funs: e.funs, prog: e.prog}
	dst := make([]string, len(f.Ret))
	for i := range dst {
		dst[i] = fmt.Sprintf("*ar_res%d", i)
	}
	if err := inner.body(f.Body, dst); err != nil {
		return "", "", err
	}
	return proto + ";\n", proto + " {\n" + inner.b.String() + "}\n", nil
}
