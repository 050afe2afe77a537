package cpu

import "github.com/arepl/arepl/lang/core"

// Fused statements of column code. Each statement of column code reads
// its operand columns from memory and writes its result column back, so a
// value used once right after it is made costs a store and a load; for
// the operators of MSSP (max(a, b + c), three times) and of
// Reduce2x2MM's 2x2 product (a*b + c*d, four times) that traffic and the
// per-statement call were most of the work, and in Mandelbrot's loop
// (x*x - y*y, x*x + y*y) a large part of it. compileVecMode recognises
// these shapes on i32 lanes, and on f64 the shapes of Mandelbrot's loop
// (fusePlan), and runs each as one kernel:
//
//	t = a + b; m = max(c, t)    -> m = maxAdd(c, a, b)   (and min)
//	p = a * b; q = c * e; s = p + q  -> s = mulAdd2(a, b, c, e)
//	f64: s = p ± q; r = s + f        -> r = mulAdd2Add(a, b, c, e, f)  (x*x - y*y + cx)
//	f64: t = k * a; u = t * b; r = u + c  -> r = scaledMulAdd(a, b, c, k)  (2*x*y + cy)
//	f64: s = p + q; l = s < k        -> l = mulAdd2Lt(a, b, c, e, k)  (x*x + y*y < 4)
//
// where the intermediates (t, p, q, s, u) are used by nothing else.
// Wrapping 32-bit arithmetic computes exactly the values of the
// statements; the f64 kernels round every operation to float64 as its
// statement does (never an FMA) and keep each statement's operand order,
// so they give the same bits, NaNs' included.

// Portable kernels; the AVX2 build replaces them (fused_avx2.go).
var (
	fusedMaxAdd  = maxAdd32
	fusedMinAdd  = minAdd32
	fusedMulAdd2 = mulAdd2x32

	fusedMulAdd2F64 = mulAdd2F64
	fusedMulSub2F64 = mulSub2F64

	fusedMulAdd2AddF64   = mulAdd2AddF64
	fusedMulSub2AddF64   = mulSub2AddF64
	fusedScaledMulAddF64 = scaledMulAddF64
	fusedMulAdd2LtF64    = mulAdd2LtF64
)

// mulAdd2AddF64 is d = (a*b + c*e) + f, each operation rounded.
func mulAdd2AddF64(d, a, b, c, e, f []float64) {
	a, b, c, e, f = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)], f[:len(d)]
	for i := range d {
		d[i] = float64(float64(a[i]*b[i])+float64(c[i]*e[i])) + f[i]
	}
}

// mulSub2AddF64 is d = (a*b - c*e) + f, each operation rounded.
func mulSub2AddF64(d, a, b, c, e, f []float64) {
	a, b, c, e, f = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)], f[:len(d)]
	for i := range d {
		d[i] = float64(float64(a[i]*b[i])-float64(c[i]*e[i])) + f[i]
	}
}

// scaledMulAddF64 is d = (a*k)*b + c, each operation rounded.
func scaledMulAddF64(d, a, b, c []float64, k float64) {
	a, b, c = a[:len(d)], b[:len(d)], c[:len(d)]
	for i := range d {
		d[i] = float64(float64(a[i]*k)*b[i]) + c[i]
	}
}

// mulAdd2LtF64 is d = a*b + c*e < k, each operation rounded.
func mulAdd2LtF64(d []bool, a, b, c, e []float64, k float64) {
	a, b, c, e = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
	for i := range d {
		d[i] = float64(float64(a[i]*b[i])+float64(c[i]*e[i])) < k
	}
}

// The f64 kernels round each product to float64 before the sum (the
// conversions forbid fusing them into an FMA), as the three statements do.
func mulAdd2F64(d, a, b, c, e []float64) {
	a, b, c, e = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
	for i := range d {
		d[i] = float64(a[i]*b[i]) + float64(c[i]*e[i])
	}
}

func mulSub2F64(d, a, b, c, e []float64) {
	a, b, c, e = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
	for i := range d {
		d[i] = float64(a[i]*b[i]) - float64(c[i]*e[i])
	}
}

func maxAdd32(d, c, a, b []int32) {
	c, a, b = c[:len(d)], a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = max(c[i], a[i]+b[i])
	}
}

func minAdd32(d, c, a, b []int32) {
	c, a, b = c[:len(d)], a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = min(c[i], a[i]+b[i])
	}
}

func mulAdd2x32(d, a, b, c, e []int32) {
	a, b, c, e = a[:len(d)], b[:len(d)], c[:len(d)], e[:len(d)]
	for i := range d {
		d[i] = a[i]*b[i] + c[i]*e[i]
	}
}

// fusion is what fusePlan decided for one body: the statements whose
// work moves into their single user (skipped where they stand), and for
// each user the producers it absorbs.
type fusion struct {
	skip  map[*core.Stmt]bool
	users map[*core.Stmt][]*core.BinOpExp // the absorbed producers, in operand order
	// outer: the f64 users that absorb a fused user (mulAdd2Add,
	// mulAdd2Lt: the inner sum is users[s]'s producers, its operator
	// innerOp) or a scaled product (scaledMulAdd: users[s] is the
	// product t * b and the scaling k * a).
	outer map[*core.Stmt]f64Fusion
}

// f64Fusion is a fused f64 user of fusion.outer.
type f64Fusion struct {
	kind    f64Kind
	innerOp core.BinOp // mulAdd2Add: the sum's + or -
}

type f64Kind int

const (
	mulAdd2Add   f64Kind = iota // (a*b ± c*e) + f
	scaledMulAdd                // (k*a)*b + c
	mulAdd2Lt                   // a*b + c*e < k
)

// useCounts counts the uses of every variable in b (its statements, the
// branches of its ifs, its results); ok is false when b has a statement
// column code does not compile anyway.
func useCounts(b *core.Body, uses map[string]int) bool {
	use := func(a core.Atom) {
		if v, ok := a.(*core.Var); ok {
			uses[v.Name]++
		}
	}
	for _, s := range b.Stmts {
		switch e := s.Exp.(type) {
		case *core.AtomExp:
			use(e.A)
		case *core.BinOpExp:
			use(e.X)
			use(e.Y)
		case *core.UnOpExp:
			use(e.X)
		case *core.ConvExp:
			use(e.X)
		case *core.IfExp:
			use(e.Cond)
			if !useCounts(e.Then, uses) || !useCounts(e.Else, uses) {
				return false
			}
		default:
			return false
		}
	}
	for _, a := range b.Result {
		use(a)
	}
	return true
}

// fusePlan finds the fusable shapes among the statements of b. lane is
// the lane type of a statement's type; uses are the lambda's use counts.
func fusePlan(b *core.Body, uses map[string]int, lane func(core.PrimType) core.PrimType) *fusion {
	fu := &fusion{skip: map[*core.Stmt]bool{}, users: map[*core.Stmt][]*core.BinOpExp{}, outer: map[*core.Stmt]f64Fusion{}}
	def := map[string]*core.Stmt{}
	for _, s := range b.Stmts {
		if len(s.Pat) == 1 {
			def[s.Pat[0].Name] = s
		}
	}
	// producer is the single-use BinOp of operator op defining a, whose
	// operands are variables.
	producer := func(a core.Atom, op core.BinOp, t core.PrimType) *core.Stmt {
		v, ok := a.(*core.Var)
		if !ok || uses[v.Name] != 1 {
			return nil
		}
		s := def[v.Name]
		if s == nil || fu.skip[s] || fu.users[s] != nil {
			return nil // a fused user is no producer: its operands have no registers
		}
		e, ok := s.Exp.(*core.BinOpExp)
		if !ok || e.Op != op || lane(e.T) != t {
			return nil
		}
		if _, ok := e.X.(*core.Var); !ok {
			return nil
		}
		if _, ok := e.Y.(*core.Var); !ok {
			return nil
		}
		return s
	}
	isVar := func(a core.Atom) bool { _, ok := a.(*core.Var); return ok }
	// single is the single-use statement of this body defining a, not
	// yet absorbed by another.
	single := func(a core.Atom) *core.Stmt {
		v, ok := a.(*core.Var)
		if !ok || uses[v.Name] != 1 || def[v.Name] == nil || fu.skip[def[v.Name]] {
			return nil
		}
		return def[v.Name]
	}
	// sum2 is the fused f64 a*b ± c*e defining a (used once), with its
	// operator.
	sum2 := func(a core.Atom) (*core.Stmt, core.BinOp) {
		s := single(a)
		if s == nil || len(fu.users[s]) != 2 {
			return nil, 0
		}
		if _, ok := fu.outer[s]; ok {
			return nil, 0
		}
		e := s.Exp.(*core.BinOpExp)
		if e.T != core.F64 {
			return nil, 0
		}
		return s, e.Op
	}
	// scaled is the single-use f64 k * a (or a * k) defining v, k a
	// constant and a a variable.
	scaled := func(v core.Atom) *core.Stmt {
		s := single(v)
		if s == nil || fu.users[s] != nil {
			return nil
		}
		e, ok := s.Exp.(*core.BinOpExp)
		if !ok || e.Op != core.Mul || e.T != core.F64 {
			return nil
		}
		_, cx := e.X.(core.Const)
		_, cy := e.Y.(core.Const)
		if cx == cy || !isVar(e.X) && !isVar(e.Y) {
			return nil
		}
		return s
	}
	for _, s := range b.Stmts {
		e, ok := s.Exp.(*core.BinOpExp)
		if !ok {
			continue
		}
		if e.T == core.F64 && isVar(e.X) {
			if f64Outer(fu, s, e, isVar, sum2, scaled, single) {
				continue
			}
		}
		if !isVar(e.X) || !isVar(e.Y) {
			continue
		}
		switch {
		case (e.Op == core.Max || e.Op == core.Min) && e.T == core.I32:
			// max(c, a+b) or max(a+b, c): max and min are commutative.
			if p := producer(e.Y, core.Add, core.I32); p != nil && p.Exp.(*core.BinOpExp).T == core.I32 {
				fu.skip[p] = true
				fu.users[s] = []*core.BinOpExp{nil, p.Exp.(*core.BinOpExp)}
			} else if p := producer(e.X, core.Add, core.I32); p != nil && p.Exp.(*core.BinOpExp).T == core.I32 {
				fu.skip[p] = true
				fu.users[s] = []*core.BinOpExp{p.Exp.(*core.BinOpExp), nil}
			}
		case e.Op == core.Add && lane(e.T) == core.I32:
			p, q := producer(e.X, core.Mul, core.I32), producer(e.Y, core.Mul, core.I32)
			if p != nil && q != nil && p != q && p.Exp.(*core.BinOpExp).T == e.T && q.Exp.(*core.BinOpExp).T == e.T {
				fu.skip[p], fu.skip[q] = true, true
				fu.users[s] = []*core.BinOpExp{p.Exp.(*core.BinOpExp), q.Exp.(*core.BinOpExp)}
			}
		case (e.Op == core.Add || e.Op == core.Sub) && e.T == core.F64:
			p, q := producer(e.X, core.Mul, core.F64), producer(e.Y, core.Mul, core.F64)
			if p != nil && q != nil && p != q {
				fu.skip[p], fu.skip[q] = true, true
				fu.users[s] = []*core.BinOpExp{p.Exp.(*core.BinOpExp), q.Exp.(*core.BinOpExp)}
			}
		}
	}
	return fu
}

// f64Outer plans s (an f64 operator whose left operand is a variable) as
// one of the outer f64 fusions, reporting whether it did.
func f64Outer(fu *fusion, s *core.Stmt, e *core.BinOpExp, isVar func(core.Atom) bool,
	sum2 func(core.Atom) (*core.Stmt, core.BinOp), scaled func(core.Atom) *core.Stmt, single func(core.Atom) *core.Stmt) bool {
	switch {
	case e.Op == core.Add && isVar(e.Y):
		// (a*b ± c*e) + f
		if in, op := sum2(e.X); in != nil {
			fu.skip[in] = true
			fu.users[s] = fu.users[in]
			fu.outer[s] = f64Fusion{kind: mulAdd2Add, innerOp: op}
			return true
		}
		// (k*a)*b + c: the product u = t * b, t = k * a.
		u := single(e.X)
		if u == nil || fu.users[u] != nil {
			return false
		}
		ue, ok := u.Exp.(*core.BinOpExp)
		if !ok || ue.Op != core.Mul || ue.T != core.F64 || !isVar(ue.Y) {
			return false
		}
		t := scaled(ue.X)
		if t == nil {
			return false
		}
		fu.skip[u], fu.skip[t] = true, true
		fu.users[s] = []*core.BinOpExp{ue, t.Exp.(*core.BinOpExp)}
		fu.outer[s] = f64Fusion{kind: scaledMulAdd}
		return true
	case e.Op == core.Lt:
		// a*b + c*e < k
		if _, ok := e.Y.(core.Const); !ok {
			return false
		}
		if in, op := sum2(e.X); in != nil && op == core.Add {
			fu.skip[in] = true
			fu.users[s] = fu.users[in]
			fu.outer[s] = f64Fusion{kind: mulAdd2Lt}
			return true
		}
	}
	return false
}

// fusedOp compiles the user statement s of a fusion (producers as
// fusePlan found them) with reg giving operand registers.
func fusedOp(fu *fusion, s *core.Stmt, reg func(core.Atom) int) func(regs []any, w *worker, d int) kerr {
	e, prods := s.Exp.(*core.BinOpExp), fu.users[s]
	if o, ok := fu.outer[s]; ok {
		return f64OuterOp(o, e, prods, reg)
	}
	if e.T == core.F64 { // a*b ± c*e
		a, b, c, f := reg(prods[0].X), reg(prods[0].Y), reg(prods[1].X), reg(prods[1].Y)
		k := fusedMulAdd2F64
		if e.Op == core.Sub {
			k = fusedMulSub2F64
		}
		return func(regs []any, _ *worker, d int) kerr {
			k(regs[d].([]float64), regs[a].([]float64), regs[b].([]float64), regs[c].([]float64), regs[f].([]float64))
			return kOK
		}
	}
	if e.Op == core.Add { // a*b + c*e
		a, b, c, f := reg(prods[0].X), reg(prods[0].Y), reg(prods[1].X), reg(prods[1].Y)
		return func(regs []any, _ *worker, d int) kerr {
			fusedMulAdd2(regs[d].([]int32), regs[a].([]int32), regs[b].([]int32), regs[c].([]int32), regs[f].([]int32))
			return kOK
		}
	}
	k := fusedMaxAdd
	if e.Op == core.Min {
		k = fusedMinAdd
	}
	// Only the other operand has a register (asking for the producer's
	// variable would bind it as a free variable).
	var c int
	p := prods[0]
	if p == nil {
		c, p = reg(e.X), prods[1]
	} else {
		c = reg(e.Y)
	}
	a, b := reg(p.X), reg(p.Y)
	return func(regs []any, _ *worker, d int) kerr {
		k(regs[d].([]int32), regs[c].([]int32), regs[a].([]int32), regs[b].([]int32))
		return kOK
	}
}

// f64OuterOp compiles an outer f64 fusion (fusion.outer).
func f64OuterOp(o f64Fusion, e *core.BinOpExp, prods []*core.BinOpExp, reg func(core.Atom) int) func(regs []any, w *worker, d int) kerr {
	switch o.kind {
	case mulAdd2Add:
		a, b, c, g, f := reg(prods[0].X), reg(prods[0].Y), reg(prods[1].X), reg(prods[1].Y), reg(e.Y)
		k := fusedMulAdd2AddF64
		if o.innerOp == core.Sub {
			k = fusedMulSub2AddF64
		}
		return func(regs []any, _ *worker, d int) kerr {
			k(regs[d].([]float64), regs[a].([]float64), regs[b].([]float64), regs[c].([]float64), regs[g].([]float64), regs[f].([]float64))
			return kOK
		}
	case scaledMulAdd:
		// prods: the product t * b and the scaling t = k * a (or a * k).
		t := prods[1]
		x, kc := t.X, t.Y
		if _, ok := x.(core.Const); ok {
			x, kc = kc, x
		}
		k := kc.(core.Const).Float()
		a, b, c := reg(x), reg(prods[0].Y), reg(e.Y)
		return func(regs []any, _ *worker, d int) kerr {
			fusedScaledMulAddF64(regs[d].([]float64), regs[a].([]float64), regs[b].([]float64), regs[c].([]float64), k)
			return kOK
		}
	case mulAdd2Lt:
		a, b, c, g := reg(prods[0].X), reg(prods[0].Y), reg(prods[1].X), reg(prods[1].Y)
		k := e.Y.(core.Const).Float()
		return func(regs []any, _ *worker, d int) kerr {
			fusedMulAdd2LtF64(regs[d].([]bool), regs[a].([]float64), regs[b].([]float64), regs[c].([]float64), regs[g].([]float64), k)
			return kOK
		}
	}
	panic("cpu: f64OuterOp of an unknown kind")
}

// maskUses records in maskOf the variables of b used once (uses), by an
// i32 & with a constant: the constant's bits.
func maskUses(b *core.Body, uses map[string]int, maskOf map[string]uint64) {
	for _, s := range b.Stmts {
		switch e := s.Exp.(type) {
		case *core.BinOpExp:
			if e.Op != core.And || e.T != core.I32 {
				continue
			}
			x, y := e.X, e.Y
			if _, ok := x.(core.Const); ok {
				x, y = y, x
			}
			v, okv := x.(*core.Var)
			c, okc := y.(core.Const)
			if okv && okc && uses[v.Name] == 1 {
				maskOf[v.Name] = uint64(uint32(c.Bits))
			}
		case *core.IfExp:
			maskUses(e.Then, uses, maskOf)
			maskUses(e.Else, uses, maskOf)
		}
	}
}

// maskedTo reports whether v is only masked (maskOf) to bits of t.
func maskedTo(maskOf map[string]uint64, v string, t core.PrimType) bool {
	m, ok := maskOf[v]
	return ok && m>>t.Bits() == 0
}
