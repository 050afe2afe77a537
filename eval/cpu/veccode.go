package cpu

import (
	"unsafe"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Column code. A lambda applied over many lanes at once (a reduction's
// operator at every level of its pairwise tree, a map's lambda over a
// chunk) runs in the vectorised interpreter as one kernel call per
// statement, but the interpreter also pays, per statement and call, a
// frame's map of variables, name lookups and a pool allocation: for an
// operator like Reduce2x2MM's 40 statements that is paid at each of the
// tree's dozen levels of every chunk, most of them a few lanes wide, and
// it was most of the time.
//
// A lambda whose statements are all scalar operators (BinOp, UnOp, Conv
// and atoms) is compiled once per Run into column code: the kernel of
// every statement looked up in advance, its operands numbered registers
// (columns), constants bound to vector-scalar kernels or constant
// columns. Running it is one indirect call per statement over typed
// slices. The lanes are processed in strips of vecStrip, so that the
// intermediate columns of one strip stay in cache; the results are
// written into fresh pool columns as the interpreter's are. A lambda with
// a statement that can fail (division, modulo, power) runs as one strip,
// so the first failing statement over all lanes is the one reported, as
// in the interpreter.
//
// The column code runs the same kernels in the same order as the frame
// interpreter, so it computes the same values; Options.Interpret turns it
// off, which is what the fuzzers compare it with.

// vecStrip is the number of lanes a strip of column code covers.
const vecStrip = 2048

// vecUnit is a lambda compiled to column code.
type vecUnit struct {
	types   []core.PrimType // element type of every register
	params  []int           // register of each parameter
	free    []freeReg       // registers of free scalar variables
	ops     []vecOp
	results []int  // register of each result
	owned   []bool // result k is computed by a statement (a fresh column), not an alias
	direct  []bool // result k is owned and the first result of its register: computed into its destination
	scratch []bool // register r is an intermediate: a strip-sized scratch column
	strip   bool   // no statement can fail: run in strips
}

// freeReg is a free variable of the lambda, read from the enclosing frame.
type freeReg struct {
	reg int
	v   *core.Var
}

// vecOp is one statement: it computes register d over the current strip.
type vecOp struct {
	s   *core.Stmt
	d   int
	run func(regs []any, w *worker) kerr
}

// compileVec compiles l to column code, or returns nil when one of its
// statements or operands is not a scalar operator on scalar columns. A
// lambda with statements on 8- and 16-bit integers is first compiled with
// those computed in 32-bit lanes (see narrowLanes); where that does not
// apply, at their own width.
func compileVec(l *core.Lambda) *vecUnit {
	if hasNarrow(l.Body) {
		if u := compileVecMode(l, true); u != nil {
			return u
		}
	}
	return compileVec1(l)
}

func compileVec1(l *core.Lambda) *vecUnit { return compileVecMode(l, false) }

// Narrow lanes. Column code over i8, i16, u8 and u16 has few vector
// kernels (AVX2 has no 8-bit multiply), and a lambda like Reduce2x2MM's
// unpacks i32s into i8s, computes on them and packs them back. With
// narrow set, every register of such a type is an i32 column instead,
// and a value in it is either clean (sign- or zero-extended from its
// width, so that it compares, orders and converts as the narrow value)
// or dirty (only its low bits are the value). Wrapping operators (+, -,
// *, &, |, ^) make the same low bits from dirty operands, so they run as
// the i32 kernels and leave their result dirty; a conversion to a narrow
// type from an i32 is a dirty alias; an operator that needs the value
// (min, max, a comparison, a widening conversion) reads a clean copy,
// made once per register by a shift pair (signed) or a mask (unsigned).
// Only statements of those kinds may be narrow; a lambda with a narrow
// parameter, result or free variable, a narrow select, or another
// operator on a narrow type is compiled at its own widths.

// isNarrow reports whether t is computed in i32 lanes in narrow mode.
func isNarrow(t core.PrimType) bool {
	return t == core.I8 || t == core.I16 || t == core.U8 || t == core.U16
}

// hasNarrow reports whether a statement of b (or of its branches) has a
// narrow result.
func hasNarrow(b *core.Body) bool {
	for _, s := range b.Stmts {
		for _, v := range s.Pat {
			if v.Type.Rank == 0 && isNarrow(v.Type.Elem) {
				return true
			}
		}
		if e, ok := s.Exp.(*core.IfExp); ok && (hasNarrow(e.Then) || hasNarrow(e.Else)) {
			return true
		}
	}
	return false
}

// wrapsLow: the low n bits of the result depend only on the low n bits
// of the operands.
var wrapsLow = map[core.BinOp]bool{core.Add: true, core.Sub: true, core.Mul: true, core.And: true, core.Or: true, core.Xor: true}

// needsValue: operators that read a narrow operand's whole value.
var needsValue = map[core.BinOp]bool{core.Min: true, core.Max: true, core.Eq: true, core.Ne: true,
	core.Lt: true, core.Le: true, core.Gt: true, core.Ge: true}

// wideConst is a narrow constant as the i32 of its value.
func wideConst(c core.Const) core.Const { return core.IntConst(core.I32, int64(c.Bits)) }

// normalize is the op making d the clean copy of x's narrow value of type t.
func normalize(t core.PrimType, x int) func(regs []any, w *worker, d int) kerr {
	switch t {
	case core.U8, core.U16:
		mask := eval.Scalar(core.IntConst(core.I32, int64(1)<<t.Bits()-1)).Data
		and := binVSTab[core.And][core.I32]
		return func(regs []any, _ *worker, d int) kerr { return and(regs[d], regs[x], mask) }
	}
	sh := eval.Scalar(core.IntConst(core.I32, int64(32-t.Bits()))).Data
	shl, shr := binVSTab[core.Shl][core.I32], binVSTab[core.Shr][core.I32]
	return func(regs []any, _ *worker, d int) kerr {
		if e := shl(regs[d], regs[x], sh); e != kOK {
			return e
		}
		return shr(regs[d], regs[d], sh)
	}
}

// compileVecMode is compileVec, with narrow types in i32 lanes when
// narrow is set (nil if the lambda does not qualify).
func compileVecMode(l *core.Lambda, narrow bool) *vecUnit {
	u := &vecUnit{strip: true}
	regOf := map[string]int{}
	// dirty: the variable is narrow and its register holds only its low
	// bits; clean: a register's clean copy as a narrow type.
	dirty := map[string]bool{}
	type cleanKey struct {
		reg int
		t   core.PrimType
	}
	clean := map[cleanKey]int{}
	lane := func(t core.PrimType) core.PrimType {
		if narrow && isNarrow(t) {
			return core.I32
		}
		return t
	}
	failed := false
	newReg := func(t core.PrimType, scratch bool) int {
		u.types = append(u.types, lane(t))
		u.scratch = append(u.scratch, scratch)
		return len(u.types) - 1
	}
	for _, p := range l.Params {
		if p.Type.Rank != 0 || narrow && isNarrow(p.Type.Elem) {
			return nil
		}
		r := newReg(p.Type.Elem, false)
		regOf[p.Name] = r
		u.params = append(u.params, r)
	}
	isResult := map[string]bool{}
	for _, a := range l.Body.Result {
		v, ok := a.(*core.Var)
		if !ok || v.Type.Rank != 0 || narrow && isNarrow(v.Type.Elem) {
			return nil // a constant result: left to the interpreter
		}
		isResult[v.Name] = true
	}
	// operand is the register of a variable operand (a free variable gets
	// one on first use), or -1 for a constant.
	operand := func(a core.Atom) (int, bool) {
		switch a := a.(type) {
		case core.Const:
			return -1, true
		case *core.Var:
			if a.Type.Rank != 0 {
				return 0, false
			}
			if r, ok := regOf[a.Name]; ok {
				return r, true
			}
			if narrow && isNarrow(a.Type.Elem) {
				failed = true
				return 0, false
			}
			r := newReg(a.Type.Elem, false)
			regOf[a.Name] = r
			u.free = append(u.free, freeReg{reg: r, v: a})
			return r, true
		}
		return 0, false
	}
	// cleanOperand is operand reading a narrow variable's clean copy.
	cleanOperand := func(a core.Atom) (int, bool) {
		r, ok := operand(a)
		v, isVar := a.(*core.Var)
		if !ok || !isVar || !dirty[v.Name] {
			return r, ok
		}
		key := cleanKey{r, v.Type.Elem}
		if c, ok := clean[key]; ok {
			return c, true
		}
		c := newReg(core.I32, true)
		norm := normalize(v.Type.Elem, r)
		u.ops = append(u.ops, vecOp{s: nil, d: c, run: func(regs []any, w *worker) kerr { return norm(regs, w, c) }})
		clean[key] = c
		return c, true
	}
	// wide is a in its lane type (a narrow constant as an i32).
	wide := func(a core.Atom) core.Atom {
		if c, ok := a.(core.Const); ok && narrow && isNarrow(c.T) {
			return wideConst(c)
		}
		return a
	}
	// Single-use values: fused statements (fused.go), and a narrow value
	// widened only to be masked to its own bits, which needs no clean copy.
	uses := map[string]int{}
	fusable := useCounts(l.Body, uses)
	maskOf := map[string]uint64{}
	if fusable && narrow {
		maskUses(l.Body, uses, maskOf)
	}
	reg := func(a core.Atom) int { r, _ := operand(a); return r }
	var stmts func(b *core.Body) bool
	stmts = func(b *core.Body) bool {
		fu := &fusion{}
		if fusable {
			fu = fusePlan(b, uses, lane)
		}
		for _, s := range b.Stmts {
			if fu.skip[s] {
				continue
			}
			if e, ok := s.Exp.(*core.IfExp); ok {
				for _, v := range s.Pat {
					if narrow && v.Type.Rank == 0 && isNarrow(v.Type.Elem) {
						return false
					}
				}
				if !u.ifCode(s, e, operand, newReg, regOf, isResult, stmts) {
					return false
				}
				continue
			}
			if len(s.Pat) != 1 || s.Pat[0].Type.Rank != 0 {
				return false
			}
			if !cannotFail(s.Exp) {
				if _, ok := s.Exp.(*core.UnOpExp); !ok {
					u.strip = false
				}
			}
			out := s.Pat[0]
			outDirty := false
			var run func(regs []any, w *worker, d int) kerr
			switch e := s.Exp.(type) {
			case *core.AtomExp:
				x, ok := operand(e.A)
				if !ok {
					return false
				}
				if x >= 0 && !isResult[out.Name] {
					regOf[out.Name] = x // an alias, as in the interpreter
					if v, ok := e.A.(*core.Var); ok && dirty[v.Name] {
						dirty[out.Name] = true
					}
					continue
				}
				run = vecCopy(wide(e.A), x, lane(out.Type.Elem))
			case *core.BinOpExp:
				t := e.T
				opnd := operand
				if narrow && isNarrow(t) {
					switch {
					case wrapsLow[e.Op]:
						outDirty = true
					case needsValue[e.Op]:
						opnd = cleanOperand
					default:
						return false
					}
					t = core.I32
				}
				if _, ok := fu.users[s]; ok {
					run = fusedOp(fu, s, reg)
					break
				}
				if run = vecBin(e.Op, t, wide(e.X), wide(e.Y), opnd); run == nil {
					return false
				}
			case *core.UnOpExp:
				if narrow && isNarrow(e.T) {
					return false
				}
				k := unTab[e.Op][e.T]
				x, ok := operand(e.X)
				if k == nil || !ok || x < 0 {
					return false
				}
				run = func(regs []any, _ *worker, d int) kerr { return k(regs[d], regs[x]) }
			case *core.ConvExp:
				from, to := e.From, e.To
				x, ok := operand(e.X)
				if !ok || x < 0 {
					return false
				}
				if narrow && (isNarrow(from) || isNarrow(to)) {
					switch {
					case isNarrow(to) && from.IsFloat():
						return false
					case isNarrow(to) && lane(from) == core.I32 && !isResult[out.Name]:
						// Only the low bits are read: an alias, of the
						// value extended from its own width when to is wider.
						if isNarrow(from) && to.Bits() > from.Bits() {
							if x, ok = cleanOperand(e.X); !ok {
								return false
							}
						}
						regOf[out.Name] = x
						dirty[out.Name] = true
						continue
					case isNarrow(to):
						outDirty = from != core.Bool
						from, to = lane(from), core.I32
					case to == core.I32 && maskedTo(maskOf, out.Name, from) && !isResult[out.Name]:
						// Only masked to from's bits: its low bits suffice.
						regOf[out.Name] = x
						continue
					default: // from narrow to a wider type: from its value
						if x, ok = cleanOperand(e.X); !ok {
							return false
						}
						from = core.I32
						if to == core.I32 && !isResult[out.Name] {
							regOf[out.Name] = x
							continue
						}
					}
				}
				k := convTab[from][to]
				if k == nil {
					return false
				}
				run = func(regs []any, _ *worker, d int) kerr { k(regs[d], regs[x]); return kOK }
			default:
				return false
			}
			d := newReg(out.Type.Elem, !isResult[out.Name])
			regOf[out.Name] = d
			dirty[out.Name] = outDirty
			u.ops = append(u.ops, vecOp{s: s, d: d, run: func(regs []any, w *worker) kerr { return run(regs, w, d) }})
		}
		return true
	}
	if !stmts(l.Body) || failed {
		return nil
	}
	for _, a := range l.Body.Result {
		v := a.(*core.Var)
		r, ok := regOf[v.Name]
		if !ok {
			return nil // a free variable returned as is
		}
		u.results = append(u.results, r)
		owned := !u.scratch[r]
		for _, p := range u.params {
			owned = owned && p != r
		}
		for _, f := range u.free {
			owned = owned && f.reg != r
		}
		u.owned = append(u.owned, owned)
		direct := owned
		for _, q := range u.results[:len(u.results)-1] {
			direct = direct && q != r
		}
		u.direct = append(u.direct, direct)
	}
	return u
}

// ifCode compiles an if whose branches are speculable (scalar, cannot
// fail) as frame.selectIf runs it: both branches over every lane, then a
// select per lane of each result.
func (u *vecUnit) ifCode(s *core.Stmt, e *core.IfExp, operand func(core.Atom) (int, bool),
	newReg func(core.PrimType, bool) int, regOf map[string]int, isResult map[string]bool,
	stmts func(*core.Body) bool) bool {
	if !speculable(e.Then) || !speculable(e.Else) {
		return false
	}
	c, ok := operand(e.Cond)
	if !ok || c < 0 {
		return false // a constant condition: left to the interpreter
	}
	if !stmts(e.Then) || !stmts(e.Else) {
		return false
	}
	for j, out := range s.Pat {
		if out.Type.Rank != 0 {
			return false
		}
		ta, ea := e.Then.Result[j], e.Else.Result[j]
		t, okt := operand(ta)
		f, okf := operand(ea)
		if !okt || !okf {
			return false
		}
		tc, _ := ta.(core.Const)
		fc, _ := ea.(core.Const)
		d := newReg(out.Type.Elem, !isResult[out.Name])
		regOf[out.Name] = d
		run := func(regs []any, w *worker) kerr {
			n := anyLen(regs[d])
			a, b := any(nil), any(nil)
			if t >= 0 {
				a = regs[t]
			} else {
				a = sliceAny(w.constant(tc, n), 0, n)
			}
			if f >= 0 {
				b = regs[f]
			} else {
				b = sliceAny(w.constant(fc, n), 0, n)
			}
			selectAny(regs[d], regs[c].([]bool), a, b)
			return kOK
		}
		u.ops = append(u.ops, vecOp{s: s, d: d, run: run})
	}
	return true
}

// vecCopy copies an atom (a variable's column or a constant) into d.
func vecCopy(a core.Atom, x int, t core.PrimType) func(regs []any, w *worker, d int) kerr {
	if c, ok := a.(core.Const); ok {
		one := eval.Scalar(c).Data // read only, shared by the workers
		return func(regs []any, w *worker, d int) kerr {
			fillAny(regs[d], one, 0)
			return kOK
		}
	}
	return func(regs []any, _ *worker, d int) kerr {
		copyAt(regs[d], 0, regs[x])
		return kOK
	}
}

// vecBin compiles a binary operator at type t over the atoms xa and ya
// the way frame.stmt runs it: a constant operand of a commutative
// operator goes right, a constant right operand uses the vector-scalar
// kernel where there is one, and any other constant is a constant column.
func vecBin(op core.BinOp, t core.PrimType, xa, ya core.Atom, operand func(core.Atom) (int, bool)) func(regs []any, w *worker, d int) kerr {
	ox, oy := xa, ya
	if _, ok := xa.(core.Const); ok && core.BinOps[op].Commutative {
		xa, ya = ya, xa
	}
	x, okx := operand(xa)
	y, oky := operand(ya)
	if !okx || !oky {
		return nil
	}
	if c, ok := ya.(core.Const); ok && x >= 0 && binVSTab[op][t] != nil {
		k := binVSTab[op][t]
		one := eval.Scalar(c).Data // read only, shared by the workers
		return func(regs []any, w *worker, d int) kerr { return k(regs[d], regs[x], one) }
	}
	k := binTab[op][t]
	if k == nil {
		return nil
	}
	// With the original operand order for the general kernel.
	x, _ = operand(ox)
	y, _ = operand(oy)
	cx, _ := ox.(core.Const)
	cy, _ := oy.(core.Const)
	return func(regs []any, w *worker, d int) kerr {
		n := anyLen(regs[d])
		xs, ys := any(nil), any(nil)
		if x >= 0 {
			xs = regs[x]
		} else {
			xs = sliceAny(w.constant(cx, n), 0, n)
		}
		if y >= 0 {
			ys = regs[y]
		} else {
			ys = sliceAny(w.constant(cy, n), 0, n)
		}
		return k(regs[d], xs, ys)
	}
}

// vecUnitOf returns the column code of l, compiled on first use (nil: l
// is not column code).
func (m *machine) vecUnitOf(l *core.Lambda) *vecUnit {
	c := &m.comp
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vecs == nil {
		c.vecs = map[*core.Lambda]*vecUnit{}
	}
	u, ok := c.vecs[l]
	if !ok {
		u = compileVec(l)
		c.vecs[l] = u
	}
	return u
}

// run applies the unit over n lanes of args; the results are fresh pool
// columns where a statement computes them, the argument (or broadcast)
// columns where the lambda returns a parameter or free variable.
func (u *vecUnit) run(w *worker, args []col, n int) ([]col, error) {
	return u.runInto(w, args, n, nil)
}

// runInto is run writing the results into dst (n lanes each) when dst is
// not nil: computed results straight into it, others copied.
func (u *vecUnit) runInto(w *worker, args []col, n int, dst []any) ([]col, error) {
	return u.runWith(w, args, nil, n, dst)
}

// runWith is runInto with the columns of the free variables given (in the
// order of u.free) when frees is not nil, rather than broadcast from the
// enclosing frame.
func (u *vecUnit) runWith(w *worker, args []col, frees []any, n int, dst []any) ([]col, error) {
	st := w.vecState(u)
	regs, full := st.regs, st.full
	clear(full)
	for i, r := range u.params {
		full[r] = args[i].data
	}
	if frees != nil {
		for j, fr := range u.free {
			full[fr.reg] = frees[j]
		}
	} else if len(u.free) > 0 {
		lf := &frame{m: w.f.m, n: n, vars: map[string]col{}, parent: w.f, kind: lambdaFrame,
			pool: w.pool, wk: w, depth: w.f.depth, soac: w.f.soac + 1}
		for _, fr := range u.free {
			full[fr.reg] = lf.lookup(fr.v).data
		}
	}
	for k, r := range u.results {
		if u.direct[k] {
			if dst != nil {
				full[r] = dst[k]
			} else {
				full[r] = w.pool.get(u.types[r], n)
			}
		}
	}
	step := n
	if u.strip {
		step = vecStrip
	}
	for lo := 0; lo < n || lo == 0; lo += step {
		hi := min(lo+step, n)
		for r, t := range u.types {
			if u.scratch[r] {
				regs[r] = st.strip(r, t, step, hi-lo)
			} else {
				regs[r] = sliceAny(full[r], lo, hi)
			}
		}
		for _, op := range u.ops {
			if e := op.run(regs, w); e != kOK {
				return nil, source.Errorf(op.s.Pos, "%s", e.msg())
			}
		}
		if n == 0 {
			break
		}
	}
	res := make([]col, len(u.results))
	for k, r := range u.results {
		v := sliceAny(full[r], 0, n)
		if dst != nil && !u.direct[k] {
			copyAt(dst[k], 0, v)
			v = dst[k]
		}
		res[k] = col{data: v}
	}
	return res, nil
}

// vecTreeReduce is treeReduce for an operator in column code over scalar
// columns: every level deinterleaves its lanes into the worker's pair
// columns and writes the operator's results into its result columns, the
// same two sets at every level, so that the tree's working set is a few
// chunk-sized columns that stay in cache (the general treeReduce takes
// fresh pool columns at every level).
func (w *worker) vecTreeReduce(op *opInfo, u *vecUnit, xs []col, n int) ([]col, error) {
	k := len(xs)
	tb := w.treeBufs(op, n)
	for level := 0; n > 1; level++ {
		h := n / 2
		lv := tb.level(level, h)
		for c := range xs {
			// A column the map returns twice (MSSP's) is split once.
			same := -1
			for c0 := range c {
				if sameSlice(xs[c0].data, xs[c].data) {
					same = c0
					break
				}
			}
			if same >= 0 {
				lv.args[c], lv.args[k+c] = lv.args[same], lv.args[k+same]
				continue
			}
			lv.args[c], lv.args[k+c] = col{data: lv.pairs[c]}, col{data: lv.pairs[k+c]}
			deinterleave(lv.pairs[c], lv.pairs[k+c], xs[c].data)
		}
		if _, err := u.runInto(w, lv.args, h, lv.dst); err != nil {
			return nil, err
		}
		if n%2 == 1 {
			// The odd lane out moves up to lane h; it is lane n-1 >= h of
			// xs, which the results (lanes below h) have not overwritten.
			for c := range xs {
				setLane(tb.res[c], h, xs[c].data, n-1)
			}
			xs = lv.nextOdd
		} else {
			xs = lv.next
		}
		n = h + n%2
	}
	return fresh(xs, op.types, 0), nil
}

// sameSlice reports whether two columns are the same slice of memory.
func sameSlice(a, b any) bool {
	n := anyLen(a)
	return n == anyLen(b) && n > 0 && dataPtr(a) == dataPtr(b)
}

// treeBufs are a worker's pair and result columns for vecTreeReduce, and
// the views of them each level of a chunk's tree uses (the same at every
// full chunk; a view is an interface holding a slice header, which costs
// an allocation to make).
type treeBufs struct {
	pairs, res []any
	levels     []*treeLevel
}

type treeLevel struct {
	h             int
	pairs         []any // the 2k pair columns at h lanes
	args          []col // the operator's arguments
	dst           []any // the k result columns at h lanes
	next, nextOdd []col // the result columns at h and h+1 lanes
}

func (tb *treeBufs) level(i, h int) *treeLevel {
	for len(tb.levels) <= i {
		tb.levels = append(tb.levels, &treeLevel{h: -1})
	}
	lv := tb.levels[i]
	if lv.h == h {
		return lv
	}
	k := len(tb.res)
	*lv = treeLevel{h: h, pairs: make([]any, 2*k), args: make([]col, 2*k), dst: make([]any, k),
		next: make([]col, k), nextOdd: make([]col, k)}
	for c := range tb.pairs {
		lv.pairs[c] = sliceAny(tb.pairs[c], 0, h)
	}
	for c := range tb.res {
		lv.dst[c] = sliceAny(tb.res[c], 0, h)
		lv.next[c] = col{data: lv.dst[c]}
		lv.nextOdd[c] = col{data: sliceAny(tb.res[c], 0, h+1)}
	}
	return lv
}

func (w *worker) treeBufs(op *opInfo, n int) *treeBufs {
	if w.trees == nil {
		w.trees = map[*opInfo]*treeBufs{}
	}
	tb, ok := w.trees[op]
	if !ok || anyLen(tb.res[0]) < n/2+1 {
		k := len(op.types)
		tb = &treeBufs{pairs: make([]any, 2*k), res: make([]any, k)}
		for c, t := range op.types {
			tb.pairs[c] = eval.MakeSlice(t.Elem, n/2+1)
			tb.pairs[k+c] = eval.MakeSlice(t.Elem, n/2+1)
			tb.res[c] = eval.MakeSlice(t.Elem, n/2+1)
		}
		w.trees[op] = tb
	}
	return tb
}

// vecState is a worker's scratch for column code: the register slice and
// the strip columns of each unit it ran, with the views of them it made
// last (a view is an interface holding a slice header, which costs an
// allocation to make; a tree reduction asks for a dozen lengths in turn).
type vecState struct {
	regs    []any
	full    []any // the whole-length columns of the non-scratch registers
	scratch []any
	views   [][]any // per register, views of scratch at different lengths
}

// stripViews is how many views of a strip column are kept.
const stripViews = 24

func (w *worker) vecState(u *vecUnit) *vecState {
	if w.vecs == nil {
		w.vecs = map[*vecUnit]*vecState{}
	}
	st, ok := w.vecs[u]
	if !ok {
		k := len(u.types)
		st = &vecState{regs: make([]any, k), full: make([]any, k), scratch: make([]any, k), views: make([][]any, k)}
		w.vecs[u] = st
	}
	return st
}

// strip is register r's strip column, of capacity at least size, viewed
// at n elements.
func (st *vecState) strip(r int, t core.PrimType, size, n int) any {
	d := st.scratch[r]
	if d == nil || anyLen(d) < n {
		// A strip's length, or less for short calls: workers are made per
		// SOAC, and a SOAC in a lambda runs once per lane of it.
		d = eval.MakeSlice(t, min(size, max(n, 64)*2))
		st.scratch[r] = d
		st.views[r] = st.views[r][:0]
	}
	for _, v := range st.views[r] {
		if anyLen(v) == n {
			return v
		}
	}
	v := sliceAny(d, 0, n)
	if len(st.views[r]) == stripViews {
		st.views[r] = st.views[r][:0]
	}
	st.views[r] = append(st.views[r], v)
	return v
}

// dataPtr is the address of a column's first element.
func dataPtr(d any) unsafe.Pointer {
	switch d := d.(type) {
	case []bool:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int8:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int16:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int32:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []int64:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint8:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint16:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint32:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []uint64:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []float32:
		return unsafe.Pointer(unsafe.SliceData(d))
	case []float64:
		return unsafe.Pointer(unsafe.SliceData(d))
	}
	return nil
}
