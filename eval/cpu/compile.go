package cpu

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Compiled sequential code. Code that runs one lane at a time — a
// function's body, a loop in a one-lane frame, recursion — is compiled
// before it runs into a tree of Go closures over a register file of typed
// slots, so that a scalar statement is one call of a closure that reads
// and writes its operands' slots: no generic values, no allocation, no
// name lookups at run time.
//
// Slots. Every variable of a compiled unit (a function, or a loop
// compiled on its own) is given a slot when the compiler meets its
// binding: integers of every width live in an []int64 bank in the
// canonical form of core.Const (sign- or zero-extended to 64 bits), floats
// in a []float64 bank (an f32 as the float64 of its float32 value, every
// f32 operation rounding back), bools in a []bool bank and arrays in an
// []eval.Value bank. Constants have slots too, filled when a register
// file is made. A loop's parameters are slots that its body's results are
// moved into; tuples are never boxed. A register file is made per
// activation (recycled through a free list of the goroutine's thread), so
// recursion and parallel lanes never share one.
//
// Statements the compiler does not know (SOACs and the rarer array
// operations) run through the frame interpreter: the compiled code builds
// a one-lane frame of the statement's free variables and reads its
// results back, so the interpreter remains the one definition of their
// semantics. Options.Interpret turns compilation off, which is what the
// fuzzers compare the compiled code with.
//
// Errors (bounds, division by zero, failed assertions) are raised as a
// panic of runErr carrying the *source.Error of the statement, recovered
// where compiled code is entered.

// bank is the register bank a slot lives in.
type bank uint8

const (
	bankI bank = iota // integers of every width
	bankF             // f32 and f64
	bankB             // bool
	bankA             // arrays
	numBanks
)

func bankOf(t core.Type) bank {
	switch {
	case t.Rank > 0:
		return bankA
	case t.Elem == core.Bool:
		return bankB
	case t.Elem.IsFloat():
		return bankF
	}
	return bankI
}

// slot is a register: a bank and an index in it.
type slot struct {
	b bank
	i int32
}

// regs is a register file: one activation of a compiled unit.
type regs struct {
	i []int64
	f []float64
	b []bool
	a []eval.Value
}

// op is one compiled statement (or a part of one).
type op func(x *thread, r *regs)

// runErr carries a run-time error out of compiled code.
type runErr struct{ err error }

func fail(err error) { panic(runErr{err}) }

func failAt(pos source.Pos, format string, args ...any) {
	panic(runErr{source.Errorf(pos, format, args...)})
}

// reserve checks an allocation of n elements of type t against the same
// limits as the interpreter's newArray: MaxAlloc where it is set (0 means
// none) and the memory budget (eval.Reserve), failing at pos otherwise.
func (m *machine) reserve(pos source.Pos, t core.PrimType, n int64) {
	size := int64(t.Size())
	if n > (1<<63-1)/size {
		failAt(pos, "cannot allocate %d elements of %d bytes", n, size)
	}
	if max := m.opts.MaxAlloc; max > 0 && n*size > max {
		failAt(pos, "cannot allocate %d bytes: more than the largest array allowed, %d bytes", n*size, max)
	}
	if err := eval.Reserve(n * size); err != nil {
		failAt(pos, "cannot allocate %d bytes: %v", n*size, err)
	}
}

// catch turns a runErr panic into *err; other panics go on.
func catch(err *error) {
	if r := recover(); r != nil {
		if re, ok := r.(runErr); ok {
			*err = re.err
			return
		}
		panic(r)
	}
}

// thread is the state of one goroutine running compiled code.
type thread struct {
	m     *machine
	depth int // function-call depth
	soac  int
	tick  uint32
	free  [][]*regs // recycled register files, by unit id
}

// poll checks for cancellation every 1024 calls.
func (x *thread) poll() {
	x.tick++
	if x.tick&1023 == 0 {
		if err := x.m.cancelled(); err != nil {
			fail(err)
		}
	}
}

func (x *thread) get(u *unit) *regs {
	if u.id < len(x.free) {
		if l := x.free[u.id]; len(l) > 0 {
			r := l[len(l)-1]
			x.free[u.id] = l[:len(l)-1]
			return r
		}
	}
	return u.newRegs()
}

func (x *thread) put(u *unit, r *regs) {
	for u.id >= len(x.free) {
		x.free = append(x.free, nil)
	}
	x.free[u.id] = append(x.free[u.id], r)
}

// unit is the register layout of one compiled function or loop.
type unit struct {
	id     int
	n      [numBanks]int32
	consts []constInit
}

type constInit struct {
	s slot
	c core.Const
}

func (u *unit) newSlot(b bank) slot {
	s := slot{b: b, i: u.n[b]}
	u.n[b]++
	return s
}

func (u *unit) newRegs() *regs {
	r := &regs{
		i: make([]int64, u.n[bankI]),
		f: make([]float64, u.n[bankF]),
		b: make([]bool, u.n[bankB]),
		a: make([]eval.Value, u.n[bankA]),
	}
	for _, c := range u.consts {
		switch c.s.b {
		case bankI:
			r.i[c.s.i] = int64(c.c.Bits)
		case bankF:
			r.f[c.s.i] = math.Float64frombits(c.c.Bits)
		case bankB:
			r.b[c.s.i] = c.c.Bits != 0
		}
	}
	return r
}

// cfun is a compiled function.
type cfun struct {
	fn     *core.Fun
	u      *unit
	params []slot
	body   []op
	ret    []slot // the results, bound before the body is compiled so that recursive calls know them
}

// cloop is a loop statement compiled on its own (a loop met by the frame
// interpreter in a one-lane frame): its free variables are its inputs.
type cloop struct {
	u    *unit
	ins  []*core.Var
	inS  []slot
	code []op
	out  []slot
}

// compiled holds a Run's compiled code; compilation is lazy and shared by
// the Run's goroutines.
type compiled struct {
	mu    sync.Mutex
	prog  *core.Program
	funs  map[*core.Fun]*cfun
	loops map[*core.Stmt]*cloop
	units int
	vecs  map[*core.Lambda]*vecUnit // column code of lambdas (veccode.go); nil: not column code
	masks map[*core.Stmt]*maskLoop  // loops run by maskedLoop (maskloop.go); nil: not such a loop
}

func (c *compiled) newUnit() *unit {
	u := &unit{id: c.units}
	c.units++
	return u
}

// fun returns the compiled f; c.mu is held.
func (c *compiled) fun(f *core.Fun) *cfun {
	if cf, ok := c.funs[f]; ok {
		return cf
	}
	cf := &cfun{fn: f, u: c.newUnit()}
	c.funs[f] = cf
	sc := &scope{c: c, u: cf.u, vars: map[string]slot{}, consts: map[core.Const]slot{}}
	for _, p := range f.Params {
		cf.params = append(cf.params, sc.bind(p))
	}
	for _, t := range f.Ret {
		cf.ret = append(cf.ret, cf.u.newSlot(bankOf(t)))
	}
	body, res := sc.body(f.Body)
	if mv := newMover(res, cf.ret); !mv.empty() {
		// Results are moved into fresh slots, so no conflict.
		run := mv.fn()
		body = append(body, func(_ *thread, r *regs) { run(r, r) })
	}
	cf.body = body
	return cf
}

func (m *machine) compiledFun(f *core.Fun) *cfun {
	m.comp.mu.Lock()
	defer m.comp.mu.Unlock()
	return m.comp.fun(f)
}

func (m *machine) compiledLoop(s *core.Stmt, lanes bool) *cloop {
	m.comp.mu.Lock()
	defer m.comp.mu.Unlock()
	c := &m.comp
	if cl, ok := c.loops[s]; ok {
		return cl
	}
	cl := &cloop{u: c.newUnit(), ins: core.FreeVars(s.Exp)}
	sc := &scope{c: c, u: cl.u, vars: map[string]slot{}, consts: map[core.Const]slot{}, lanes: lanes}
	for _, v := range cl.ins {
		cl.inS = append(cl.inS, sc.bind(v))
	}
	cl.code = sc.stmt(nil, s)
	for _, p := range s.Pat {
		cl.out = append(cl.out, sc.vars[p.Name])
	}
	c.loops[s] = cl
	return cl
}

// runFun calls a compiled function with argument values.
func (x *thread) runFun(cf *cfun, args []eval.Value) (out []eval.Value, err error) {
	defer catch(&err)
	r := x.get(cf.u)
	for i, s := range cf.params {
		setSlot(r, s, args[i])
	}
	runOps(x, r, cf.body)
	out = make([]eval.Value, len(cf.ret))
	for i, s := range cf.ret {
		out[i] = slotValue(r, s, cf.fn.Ret[i])
	}
	x.put(cf.u, r)
	return out, nil
}

// compiledLoopStmt runs a loop statement of a one-lane frame compiled.
func (f *frame) compiledLoopStmt(s *core.Stmt) (out []eval.Value, err error) {
	cl := f.m.compiledLoop(s, false)
	x := &thread{m: f.m, depth: f.depth, soac: f.soac}
	defer catch(&err)
	r := cl.u.newRegs()
	for i, v := range cl.ins {
		setSlot(r, cl.inS[i], f.value(v))
	}
	runOps(x, r, cl.code)
	out = make([]eval.Value, len(cl.out))
	for i, s2 := range cl.out {
		out[i] = slotValue(r, s2, s.Pat[i].Type)
	}
	return out, nil
}

func runOps(x *thread, r *regs, ops []op) {
	for _, o := range ops {
		o(x, r)
	}
}

// setSlot stores a value in a slot.
func setSlot(r *regs, s slot, v eval.Value) {
	if s.b == bankA {
		r.a[s.i] = v
		return
	}
	loadScalar(r, s, v.Data, 0)
}

// loadScalar stores element j of a typed slice in a scalar slot.
func loadScalar(r *regs, s slot, d any, j int) {
	switch d := d.(type) {
	case []bool:
		r.b[s.i] = d[j]
	case []int8:
		r.i[s.i] = int64(d[j])
	case []int16:
		r.i[s.i] = int64(d[j])
	case []int32:
		r.i[s.i] = int64(d[j])
	case []int64:
		r.i[s.i] = d[j]
	case []uint8:
		r.i[s.i] = int64(d[j])
	case []uint16:
		r.i[s.i] = int64(d[j])
	case []uint32:
		r.i[s.i] = int64(d[j])
	case []uint64:
		r.i[s.i] = int64(d[j])
	case []float32:
		r.f[s.i] = float64(d[j])
	case []float64:
		r.f[s.i] = d[j]
	default:
		panic(fmt.Sprintf("cpu: loadScalar of %T", d))
	}
}

// storeScalar writes a scalar slot to element j of a typed slice.
func storeScalar(d any, j int, r *regs, s slot) {
	switch d := d.(type) {
	case []bool:
		d[j] = r.b[s.i]
	case []int8:
		d[j] = int8(r.i[s.i])
	case []int16:
		d[j] = int16(r.i[s.i])
	case []int32:
		d[j] = int32(r.i[s.i])
	case []int64:
		d[j] = r.i[s.i]
	case []uint8:
		d[j] = uint8(r.i[s.i])
	case []uint16:
		d[j] = uint16(r.i[s.i])
	case []uint32:
		d[j] = uint32(r.i[s.i])
	case []uint64:
		d[j] = uint64(r.i[s.i])
	case []float32:
		d[j] = float32(r.f[s.i])
	case []float64:
		d[j] = r.f[s.i]
	default:
		panic(fmt.Sprintf("cpu: storeScalar of %T", d))
	}
}

// slotValue is the value of a slot of type t.
func slotValue(r *regs, s slot, t core.Type) eval.Value {
	if s.b == bankA {
		return r.a[s.i]
	}
	d := eval.MakeSlice(t.Elem, 1)
	storeScalar(d, 0, r, s)
	return eval.Value{Elem: t.Elem, Data: d}
}

// ---------------------------------------------------------------------------
// The compiler

// scope compiles the statements of one unit; vars maps each variable
// bound so far to its slot.
type scope struct {
	c      *compiled
	u      *unit
	vars   map[string]slot
	consts map[core.Const]slot
	plans  []ownerPlan // in-place plans of the loops being compiled, innermost last
	// lanes is set in units that run inside a parallel SOAC's lanes
	// (laneStmt): there a nested map runs as a sequential compiled loop,
	// since the enclosing SOAC already occupies every core.
	lanes bool
	// coalesce gives the variables that a loop body computes as its
	// results the slot of their loop parameter (see coalescable).
	coalesce map[string]slot
}

func (sc *scope) bind(v *core.Var) slot {
	if s, ok := sc.coalesce[v.Name]; ok {
		sc.vars[v.Name] = s
		return s
	}
	s := sc.u.newSlot(bankOf(v.Type))
	sc.vars[v.Name] = s
	return s
}

func (sc *scope) atom(a core.Atom) slot {
	switch a := a.(type) {
	case *core.Var:
		s, ok := sc.vars[a.Name]
		if !ok {
			panic(fmt.Sprintf("cpu: compile: unbound variable %s", a.Name))
		}
		return s
	case core.Const:
		if s, ok := sc.consts[a]; ok {
			return s
		}
		s := sc.u.newSlot(bankOf(core.Scalar(a.T)))
		sc.u.consts = append(sc.u.consts, constInit{s, a})
		sc.consts[a] = s
		return s
	}
	panic(fmt.Sprintf("cpu: compile: unknown atom %T", a))
}

func (sc *scope) atoms(as []core.Atom) []slot {
	out := make([]slot, len(as))
	for i, a := range as {
		out[i] = sc.atom(a)
	}
	return out
}

// body compiles a body: its statements' code and its results' slots.
func (sc *scope) body(b *core.Body) ([]op, []slot) {
	var ops []op
	for _, s := range b.Stmts {
		ops = sc.stmt(ops, s)
	}
	return ops, sc.atoms(b.Result)
}

// seq is one op running ops in order.
func seq(ops []op) op {
	switch len(ops) {
	case 0:
		return func(*thread, *regs) {}
	case 1:
		return ops[0]
	case 2:
		a, b := ops[0], ops[1]
		return func(x *thread, r *regs) { a(x, r); b(x, r) }
	}
	return func(x *thread, r *regs) {
		for _, o := range ops {
			o(x, r)
		}
	}
}

// stmt appends the code of one statement to ops.
func (sc *scope) stmt(ops []op, s *core.Stmt) []op {
	switch e := s.Exp.(type) {
	case *core.AtomExp:
		// A copy binds the pattern to the atom's own slot.
		sc.vars[s.Pat[0].Name] = sc.atom(e.A)
		return ops
	case *core.BinOpExp:
		x, y := sc.atom(e.X), sc.atom(e.Y)
		d := sc.bind(s.Pat[0])
		if o := binOpCode(e.Op, e.T, d.i, x.i, y.i, s.Pos); o != nil {
			return append(ops, o)
		}
		return append(ops, kernelBin(e, d, x, y, s.Pos))
	case *core.UnOpExp:
		x := sc.atom(e.X)
		d := sc.bind(s.Pat[0])
		if o := unOpCode(e.Op, e.T, d.i, x.i); o != nil {
			return append(ops, o)
		}
		return append(ops, kernelUn(unTab[e.Op][e.T], e.T, core.UnOpResult(e.Op, e.T), d, x, s.Pos))
	case *core.ConvExp:
		x := sc.atom(e.X)
		d := sc.bind(s.Pat[0])
		if o := convCode(e.From, e.To, d.i, x.i); o != nil {
			return append(ops, o)
		}
		return append(ops, kernelUn(convTab[e.From][e.To], e.From, e.To, d, x, s.Pos))
	case *core.IfExp:
		return append(ops, sc.ifCode(s, e))
	case *core.LoopExp:
		return append(ops, sc.loopCode(s, e, nil))
	case *core.IndexExp:
		if o := sc.indexCode(s, e); o != nil {
			return append(ops, o)
		}
	case *core.UpdateExp:
		return append(ops, sc.updateCode(s, e, nil))
	case *core.SizeExp:
		if e.Dim >= 0 && e.Dim < e.Arr.Type.Rank {
			a, dim := sc.atom(e.Arr).i, e.Dim
			d := sc.bind(s.Pat[0]).i
			return append(ops, func(_ *thread, r *regs) { r.i[d] = r.a[a].Shape[dim] })
		}
	case *core.ApplyExp:
		if fn := sc.c.prog.Fun(e.Fun); fn != nil {
			return append(ops, sc.callCode(s, e, fn))
		}
	case *core.Screma:
		if sc.lanes && seqMappable(e) {
			return append(ops, sc.mapCode(s, e))
		}
	case *core.AssertExp:
		c, pos, args := sc.atom(e.Cond).i, s.Pos, sc.atoms(e.Args)
		return append(ops, func(_ *thread, r *regs) {
			if !r.b[c] {
				// The message's %v verbs show the values of its
				// i64 arguments (`Range 0..>5 is invalid.`).
				vals := make([]string, len(args))
				for i, a := range args {
					vals[i] = fmt.Sprint(r.i[a.i])
				}
				failAt(pos, "%s", e.Message(vals))
			}
		})
	}
	return append(ops, sc.interpCode(s, nil))
}

// interpCode runs a statement through the frame interpreter in a one-lane
// frame of its free variables. With run non-nil, run evaluates the
// statement in that frame instead of the frame's own stmt.
func (sc *scope) interpCode(s *core.Stmt, run func(f *frame, r *regs) ([]eval.Value, error)) op {
	free := core.FreeVars(s.Exp)
	in := make([]slot, len(free))
	for i, v := range free {
		in[i] = sc.atom(v)
	}
	out := make([]slot, len(s.Pat))
	for i, p := range s.Pat {
		out[i] = sc.bind(p)
	}
	return func(x *thread, r *regs) {
		fr := &frame{m: x.m, n: 1, vars: make(map[string]col, len(free)+len(s.Pat)), depth: x.depth, soac: x.soac}
		for i, v := range free {
			fr.vars[v.Name] = valueCol(slotValue(r, in[i], v.Type))
		}
		var vals []eval.Value
		var err error
		if run != nil {
			vals, err = run(fr, r)
		} else {
			if err = fr.stmt(s); err == nil {
				vals = make([]eval.Value, len(s.Pat))
				for i, p := range s.Pat {
					vals[i] = fr.laneValue(fr.vars[p.Name], p.Type, 0)
				}
			}
		}
		if err != nil {
			fail(err)
		}
		for i, o := range out {
			setSlot(r, o, vals[i])
		}
	}
}

// mover copies slots to slots (within one register file or between two),
// as a parallel assignment.
type mover struct {
	pairs [numBanks][][2]int32
}

func newMover(src, dst []slot) *mover {
	mv := &mover{}
	for k, s := range src {
		d := dst[k]
		if s.b != d.b {
			panic("cpu: compile: move between banks")
		}
		if s == d {
			continue
		}
		mv.pairs[s.b] = append(mv.pairs[s.b], [2]int32{s.i, d.i})
	}
	return mv
}

// conflicts reports whether, moving within one register file, a pair
// reads a slot that an earlier pair writes.
func (mv *mover) conflicts() bool {
	for b := range mv.pairs {
		written := map[int32]bool{}
		for _, p := range mv.pairs[b] {
			if written[p[0]] {
				return true
			}
			written[p[1]] = true
		}
	}
	return false
}

func (mv *mover) empty() bool {
	for b := range mv.pairs {
		if len(mv.pairs[b]) > 0 {
			return false
		}
	}
	return true
}

// fn is run, specialised for the common single move of an integer or a
// float (a recursive function's argument and result).
func (mv *mover) fn() func(src, dst *regs) {
	n := 0
	for b := range mv.pairs {
		n += len(mv.pairs[b])
	}
	switch {
	case n == 0:
		return func(_, _ *regs) {}
	case n == 1 && len(mv.pairs[bankI]) == 1:
		s, d := mv.pairs[bankI][0][0], mv.pairs[bankI][0][1]
		return func(src, dst *regs) { dst.i[d] = src.i[s] }
	case n == 1 && len(mv.pairs[bankF]) == 1:
		s, d := mv.pairs[bankF][0][0], mv.pairs[bankF][0][1]
		return func(src, dst *regs) { dst.f[d] = src.f[s] }
	}
	return mv.run
}

func (mv *mover) run(src, dst *regs) {
	for _, p := range mv.pairs[bankI] {
		dst.i[p[1]] = src.i[p[0]]
	}
	for _, p := range mv.pairs[bankF] {
		dst.f[p[1]] = src.f[p[0]]
	}
	for _, p := range mv.pairs[bankB] {
		dst.b[p[1]] = src.b[p[0]]
	}
	for _, p := range mv.pairs[bankA] {
		dst.a[p[1]] = src.a[p[0]]
	}
}

// moveCode is an op moving src slots to dst slots of one register file as
// a parallel assignment (through temporaries when the moves overlap).
func (sc *scope) moveCode(src, dst []slot) op {
	mv := newMover(src, dst)
	if mv.empty() {
		return nil
	}
	if !mv.conflicts() {
		// The common shapes, without the loop over banks.
		if len(mv.pairs[bankF]) == 0 && len(mv.pairs[bankB]) == 0 && len(mv.pairs[bankA]) == 0 {
			ps := mv.pairs[bankI]
			switch len(ps) {
			case 1:
				s, d := ps[0][0], ps[0][1]
				return func(_ *thread, r *regs) { r.i[d] = r.i[s] }
			case 2:
				s0, d0, s1, d1 := ps[0][0], ps[0][1], ps[1][0], ps[1][1]
				return func(_ *thread, r *regs) { r.i[d0] = r.i[s0]; r.i[d1] = r.i[s1] }
			}
		}
		var ops []op
		for _, p := range mv.pairs[bankI] {
			s, d := p[0], p[1]
			ops = append(ops, func(_ *thread, r *regs) { r.i[d] = r.i[s] })
		}
		for _, p := range mv.pairs[bankF] {
			s, d := p[0], p[1]
			ops = append(ops, func(_ *thread, r *regs) { r.f[d] = r.f[s] })
		}
		for _, p := range mv.pairs[bankB] {
			s, d := p[0], p[1]
			ops = append(ops, func(_ *thread, r *regs) { r.b[d] = r.b[s] })
		}
		if len(mv.pairs[bankA]) > 0 || len(ops) > 4 {
			return func(_ *thread, r *regs) { mv.run(r, r) }
		}
		return seq(ops)
	}
	tmp := make([]slot, len(src))
	for k, s := range src {
		tmp[k] = sc.u.newSlot(s.b)
	}
	a, b := newMover(src, tmp), newMover(tmp, dst)
	return func(_ *thread, r *regs) { a.run(r, r); b.run(r, r) }
}

// ifCode compiles an if: each branch's code, then its results moved to
// the pattern's slots.
func (sc *scope) ifCode(s *core.Stmt, e *core.IfExp) op {
	c := sc.atom(e.Cond).i
	thenOps, thenRes := sc.body(e.Then)
	elseOps, elseRes := sc.body(e.Else)
	pat := make([]slot, len(s.Pat))
	for i, p := range s.Pat {
		pat[i] = sc.bind(p)
	}
	if mv := sc.moveCode(thenRes, pat); mv != nil {
		thenOps = append(thenOps, mv)
	}
	if mv := sc.moveCode(elseRes, pat); mv != nil {
		elseOps = append(elseOps, mv)
	}
	t, f := seq(thenOps), seq(elseOps)
	return func(x *thread, r *regs) {
		if r.b[c] {
			t(x, r)
		} else {
			f(x, r)
		}
	}
}

// loopCode compiles a loop. The parameters are slots that the pattern
// shares; the body's results are moved into them after every iteration.
// Updates of loop-carried arrays that consumePlan proves unshared write
// in place from the second time on (owned flags, one per parameter).
func (sc *scope) loopCode(s *core.Stmt, e *core.LoopExp, _ []op) op {
	init := sc.atoms(e.Init)
	params := make([]slot, len(e.Params))
	for i, p := range e.Params {
		params[i] = sc.bind(p)
	}
	plan := consumePlan(e)
	// owned holds bool slots, by parameter (-1: none). A loop that an
	// enclosing loop's plan lets consume that loop's parameter (inherit)
	// shares its owned flag: the array it starts from is owned exactly
	// when the enclosing parameter's is, and stays owned after.
	owned := make([]int32, len(e.Params))
	for i := range owned {
		owned[i] = -1
	}
	inherit := -1
	if o, name := sc.ownerOf(s); o >= 0 {
		for j, a := range e.Init {
			if atomIs(a, name) {
				inherit, owned[j] = j, o
			}
		}
	}
	for _, pi := range plan {
		if owned[pi] < 0 {
			owned[pi] = sc.u.newSlot(bankB).i
		}
	}
	fl, wl := core.ForOf(e.Form), core.WhileOf(e.Form)
	var iSlot int32
	if fl != nil {
		iSlot = sc.bind(fl.I).i
	}
	names := make([]string, len(e.Params))
	for i, p := range e.Params {
		names[i] = p.Name
	}
	sc.plans = append(sc.plans, ownerPlan{plan: plan, owned: owned, names: names})
	for name, k := range coalescable(e) {
		if sc.coalesce == nil {
			sc.coalesce = map[string]slot{}
		}
		sc.coalesce[name] = params[k]
	}
	bodyOps, res := sc.body(e.Body)
	sc.plans = sc.plans[:len(sc.plans)-1]
	if mv := sc.moveCode(res, params); mv != nil {
		bodyOps = append(bodyOps, mv)
	}
	body := seq(bodyOps)
	for i, p := range s.Pat {
		sc.vars[p.Name] = params[i]
	}
	start := newMover(init, params)
	var fresh []int32 // the owned flags this loop starts false
	for j, o := range owned {
		if o >= 0 && j != inherit {
			fresh = append(fresh, o)
		}
	}
	reset := func(r *regs) {
		for _, o := range fresh {
			r.b[o] = false
		}
	}
	if fl != nil {
		bound := sc.atom(fl.Bound).i
		unsigned := fl.Bound.AtomType().Elem.IsUnsigned()
		return func(x *thread, r *regs) {
			start.run(r, r)
			reset(r)
			n := r.i[bound]
			if unsigned && n < 0 {
				n = math.MaxInt64
			}
			for i := int64(0); i < n; i++ {
				r.i[iSlot] = i
				body(x, r)
				x.tick++
				if x.tick&1023 == 0 {
					if err := x.m.cancelled(); err != nil {
						fail(err)
					}
				}
			}
		}
	}
	if wl == nil {
		panic(fmt.Sprintf("cpu: compile: unknown loop form %T", e.Form))
	}
	cond := sc.vars[wl.Cond.Name].i
	return func(x *thread, r *regs) {
		start.run(r, r)
		reset(r)
		for r.b[cond] {
			body(x, r)
			x.tick++
			if x.tick&1023 == 0 {
				if err := x.m.cancelled(); err != nil {
					fail(err)
				}
			}
		}
	}
}

// coalescable finds the loop-body results that may be computed straight
// into their parameter's slot, saving the move after every iteration: a
// variable bound by a top-level statement of the body after which the
// parameter is no longer read (by later statements, or as another result),
// under its own name or a copy's (`let t = x` shares x's slot). It maps
// each such variable to its parameter's index.
func coalescable(e *core.LoopExp) map[string]int {
	out := map[string]int{}
	stmts := e.Body.Stmts
	// aliases[p] holds p and the names of its top-level copies.
	aliases := map[string][]string{}
	of := map[string]string{}
	for _, p := range e.Params {
		aliases[p.Name], of[p.Name] = []string{p.Name}, p.Name
	}
	for _, s := range stmts {
		if a, ok := s.Exp.(*core.AtomExp); ok {
			if v, ok := a.A.(*core.Var); ok {
				if p, ok := of[v.Name]; ok {
					aliases[p] = append(aliases[p], s.Pat[0].Name)
					of[s.Pat[0].Name] = p
				}
			}
		}
	}
	for k, res := range e.Body.Result {
		v, ok := res.(*core.Var)
		if !ok {
			continue
		}
		if _, dup := out[v.Name]; dup {
			continue
		}
		p := e.Params[k]
		def := -1
		for d, s := range stmts {
			if varsUse(s.Pat, v.Name) {
				def = d
			}
		}
		if def < 0 {
			continue
		}
		if _, isAlias := stmts[def].Exp.(*core.AtomExp); isAlias {
			continue
		}
		safe := true
		for _, name := range aliases[p.Name] {
			for _, s := range stmts[def+1:] {
				if usesVar(s.Exp, name) {
					safe = false
				}
			}
			for j, r := range e.Body.Result {
				if j != k && atomIs(r, name) {
					safe = false
				}
			}
		}
		if safe {
			out[v.Name] = k
		}
	}
	return out
}

// ownerPlan is the in-place plan of an enclosing loop being compiled.
type ownerPlan struct {
	plan  map[*core.Stmt]int
	owned []int32
	names []string // the loop's parameters
}

// ownedSlot is the owned flag of the enclosing loop parameter an update
// statement may write in place, or -1.
func (sc *scope) ownedSlot(s *core.Stmt) int32 {
	o, _ := sc.ownerOf(s)
	return o
}

// ownerOf is ownedSlot and the name of that parameter.
func (sc *scope) ownerOf(s *core.Stmt) (int32, string) {
	for k := len(sc.plans) - 1; k >= 0; k-- {
		if pi, ok := sc.plans[k].plan[s]; ok {
			return sc.plans[k].owned[pi], sc.plans[k].names[pi]
		}
	}
	return -1, ""
}

// callCode compiles a call of a program function: arguments are moved
// into a fresh register file of the callee, results back.
func (sc *scope) callCode(s *core.Stmt, e *core.ApplyExp, fn *core.Fun) op {
	cf := sc.c.fun(fn)
	args := sc.atoms(e.Args)
	pat := make([]slot, len(s.Pat))
	for i, p := range s.Pat {
		pat[i] = sc.bind(p)
	}
	in, out := newMover(nil, nil), newMover(nil, nil)
	for k, a := range args {
		in.pairs[a.b] = append(in.pairs[a.b], [2]int32{a.i, cf.params[k].i})
	}
	for k, r := range cf.ret {
		out.pairs[r.b] = append(out.pairs[r.b], [2]int32{r.i, pat[k].i})
	}
	pos := s.Pos
	inFn, outFn := in.fn(), out.fn()
	return func(x *thread, r *regs) {
		if x.depth+1 > x.m.opts.MaxDepth {
			failAt(pos, "recursion too deep (more than %d nested calls)", x.m.opts.MaxDepth)
		}
		cr := x.get(cf.u)
		inFn(r, cr)
		x.depth++
		for _, o := range cf.body {
			o(x, cr)
		}
		x.depth--
		outFn(cr, r)
		x.put(cf.u, cr)
		x.poll()
	}
}

// indexCode compiles a read of one scalar element; other indexing runs
// through the interpreter (nil).
func (sc *scope) indexCode(s *core.Stmt, e *core.IndexExp) op {
	if len(e.Idx) != e.Arr.Type.Rank {
		return nil
	}
	idx := make([]int32, len(e.Idx))
	for k, d := range e.Idx {
		if d.Fix == nil {
			return nil
		}
		idx[k] = sc.atom(*d.Fix).i
	}
	a := sc.atom(e.Arr).i
	d := sc.bind(s.Pat[0]).i
	pos := s.Pos
	switch e.Arr.Type.Elem {
	case core.Bool:
		return indexOp[bool](a, idx, d, pos, func(r *regs, v bool) { r.b[d] = v })
	case core.I8:
		return indexInt[int8](a, idx, d, pos)
	case core.I16:
		return indexInt[int16](a, idx, d, pos)
	case core.I32:
		return indexInt[int32](a, idx, d, pos)
	case core.I64:
		return indexInt[int64](a, idx, d, pos)
	case core.U8:
		return indexInt[uint8](a, idx, d, pos)
	case core.U16:
		return indexInt[uint16](a, idx, d, pos)
	case core.U32:
		return indexInt[uint32](a, idx, d, pos)
	case core.U64:
		return indexInt[uint64](a, idx, d, pos)
	case core.F32:
		return indexFloat[float32](a, idx, d, pos)
	case core.F64:
		return indexFloat[float64](a, idx, d, pos)
	}
	return nil
}

func indexInt[T integer](a int32, idx []int32, d int32, pos source.Pos) op {
	if len(idx) == 1 {
		i0 := idx[0]
		return func(_ *thread, r *regs) {
			data := r.a[a].Data.([]T)
			j := r.i[i0]
			if uint64(j) >= uint64(len(data)) {
				outOfBounds(pos, r, r.a[a], idx)
			}
			r.i[d] = int64(data[j])
		}
	}
	return indexOp[T](a, idx, d, pos, func(r *regs, v T) { r.i[d] = int64(v) })
}

func indexFloat[T float](a int32, idx []int32, d int32, pos source.Pos) op {
	if len(idx) == 1 {
		i0 := idx[0]
		return func(_ *thread, r *regs) {
			data := r.a[a].Data.([]T)
			j := r.i[i0]
			if uint64(j) >= uint64(len(data)) {
				outOfBounds(pos, r, r.a[a], idx)
			}
			r.f[d] = float64(data[j])
		}
	}
	return indexOp[T](a, idx, d, pos, func(r *regs, v T) { r.f[d] = float64(v) })
}

func indexOp[T any](a int32, idx []int32, d int32, pos source.Pos, set func(r *regs, v T)) op {
	return func(_ *thread, r *regs) {
		arr := r.a[a]
		off := flatIndex(pos, r, arr, idx)
		set(r, arr.Data.([]T)[off])
	}
}

// flatIndex is the element offset of a full index, checked.
func flatIndex(pos source.Pos, r *regs, arr eval.Value, idx []int32) int64 {
	off := int64(0)
	for k, s := range idx {
		j := r.i[s]
		if j < 0 || j >= arr.Shape[k] {
			outOfBounds(pos, r, arr, idx)
		}
		off = off*arr.Shape[k] + j
	}
	return off
}

func outOfBounds(pos source.Pos, r *regs, arr eval.Value, idx []int32) {
	parts := make([]string, len(idx))
	for k, s := range idx {
		parts[k] = fmt.Sprint(r.i[s])
	}
	failAt(pos, "Index [%s] out of bounds for array of shape %s.", strings.Join(parts, ", "), shapeString(arr.Shape))
}

// updateCode compiles `a with [idx] = v`. A scalar element is written by
// typed code; a slice is written by the interpreter's update. Either
// writes into a's array when the enclosing loop's plan allows it and the
// parameter's array is owned (made by an earlier iteration's update).
func (sc *scope) updateCode(s *core.Stmt, e *core.UpdateExp, _ []op) op {
	owned := sc.ownedSlot(s)
	scalar := len(e.Idx) == e.Arr.Type.Rank && e.Val.AtomType().Rank == 0
	for _, d := range e.Idx {
		scalar = scalar && d.Fix != nil
	}
	if !scalar {
		return sc.interpCode(s, func(f *frame, r *regs) ([]eval.Value, error) {
			inPlace := owned >= 0 && r.b[owned]
			v, err := f.update(s, e, inPlace)
			if err == nil && owned >= 0 {
				r.b[owned] = true
			}
			return []eval.Value{v}, err
		})
	}
	idx := make([]int32, len(e.Idx))
	for k, d := range e.Idx {
		idx[k] = sc.atom(*d.Fix).i
	}
	a := sc.atom(e.Arr).i
	v := sc.atom(e.Val)
	d := sc.bind(s.Pat[0]).i
	pos := s.Pos
	prep := func(r *regs) (eval.Value, int64) {
		arr := r.a[a]
		off := flatIndex(pos, r, arr, idx)
		if owned < 0 || !r.b[owned] {
			arr = copyValue(arr)
			if owned >= 0 {
				r.b[owned] = true
			}
		}
		return arr, off
	}
	switch e.Arr.Type.Elem {
	case core.Bool:
		return updateOp(d, prep, func(r *regs, data []bool, off int64) { data[off] = r.b[v.i] })
	case core.I8:
		return updateInt[int8](d, prep, v.i)
	case core.I16:
		return updateInt[int16](d, prep, v.i)
	case core.I32:
		return updateInt[int32](d, prep, v.i)
	case core.I64:
		return updateInt[int64](d, prep, v.i)
	case core.U8:
		return updateInt[uint8](d, prep, v.i)
	case core.U16:
		return updateInt[uint16](d, prep, v.i)
	case core.U32:
		return updateInt[uint32](d, prep, v.i)
	case core.U64:
		return updateInt[uint64](d, prep, v.i)
	case core.F32:
		return updateFloat[float32](d, prep, v.i)
	case core.F64:
		return updateFloat[float64](d, prep, v.i)
	}
	panic(fmt.Sprintf("cpu: compile: update of %v", e.Arr.Type))
}

func updateInt[T integer](d int32, prep func(*regs) (eval.Value, int64), v int32) op {
	return updateOp(d, prep, func(r *regs, data []T, off int64) { data[off] = T(r.i[v]) })
}

func updateFloat[T float](d int32, prep func(*regs) (eval.Value, int64), v int32) op {
	return updateOp(d, prep, func(r *regs, data []T, off int64) { data[off] = T(r.f[v]) })
}

func updateOp[T any](d int32, prep func(*regs) (eval.Value, int64), set func(r *regs, data []T, off int64)) op {
	return func(_ *thread, r *regs) {
		arr, off := prep(r)
		set(r, arr.Data.([]T), off)
		r.a[d] = arr
	}
}

// laneLoop runs a loop statement of a many-lane frame lane by lane
// through its compiled code: one register file for the chunk, each lane's
// free variables loaded into it, the loop run, its results stored in the
// lane's place of the output columns. Lanes that finish early cost
// nothing more, which the masked vectorised loop (vecLoop) cannot offer
// when trip counts differ as much as in Mandelbrot's escape loop.
func (f *frame) laneLoop(s *core.Stmt) (err error) {
	cl := f.m.compiledLoop(s, true)
	x := &thread{m: f.m, depth: f.depth, soac: f.soac}
	defer catch(&err)
	ins := make([]col, len(cl.ins))
	for k, v := range cl.ins {
		ins[k] = f.lookup(v)
	}
	outs := make([]col, len(s.Pat))
	for j, p := range s.Pat {
		if p.Type.Rank == 0 {
			outs[j] = col{data: f.alloc(p.Type.Elem, f.n)}
		} else {
			outs[j] = col{arrs: make([]eval.Value, f.n)}
		}
	}
	r := cl.u.newRegs()
	for i := 0; i < f.n; i++ {
		for k, v := range cl.ins {
			if v.Type.Rank == 0 {
				loadScalar(r, cl.inS[k], ins[k].data, i)
			} else {
				r.a[cl.inS[k].i] = ins[k].arr(i)
			}
		}
		runOps(x, r, cl.code)
		for j, o := range cl.out {
			if o.b == bankA {
				outs[j].arrs[i] = r.a[o.i]
			} else {
				storeScalar(outs[j].data, i, r, o)
			}
		}
	}
	f.bind(s.Pat, outs)
	return nil
}

// seqMappable reports whether a Screma is a plain map of scalar results,
// which mapCode compiles.
func seqMappable(e *core.Screma) bool {
	if len(e.Scans) > 0 || len(e.Reds) > 0 || e.Post != nil {
		return false
	}
	for _, t := range e.Map.Ret {
		if t.Rank > 0 {
			return false
		}
	}
	return true
}

// mapCode compiles a plain map as a sequential loop over its elements:
// the lambda's parameters are slots loaded from each input's element (or
// row), its results stored into the output arrays.
func (sc *scope) mapCode(s *core.Stmt, e *core.Screma) op {
	w := sc.atom(e.W).i
	arrs := make([]slot, len(e.Arrs))
	for k, a := range e.Arrs {
		arrs[k] = sc.atom(a)
	}
	params := make([]slot, len(e.Map.Params))
	for k, p := range e.Map.Params {
		params[k] = sc.bind(p)
	}
	idx := int32(-1)
	if e.Index != nil {
		idx = sc.bind(e.Index).i
	}
	bodyOps, res := sc.body(e.Map.Body)
	body := seq(bodyOps)
	out := make([]slot, len(s.Pat))
	for j, p := range s.Pat {
		out[j] = sc.bind(p)
	}
	elems := make([]core.PrimType, len(s.Pat))
	for j, p := range s.Pat {
		elems[j] = p.Type.Elem
	}
	pos := s.Pos
	return func(x *thread, r *regs) {
		n := r.i[w]
		if n < 0 {
			failAt(pos, "negative size %d", n)
		}
		ins := make([]eval.Value, len(arrs))
		for k, a := range arrs {
			ins[k] = r.a[a.i]
			if len(ins[k].Shape) == 0 || ins[k].Shape[0] != n {
				failAt(pos, "size mismatch: array of shape %s where %d elements are expected", shapeString(ins[k].Shape), n)
			}
		}
		outs := make([]eval.Value, len(out))
		for j := range outs {
			x.m.reserve(pos, elems[j], n)
			outs[j] = eval.Value{Elem: elems[j], Shape: []int64{n}, Data: eval.MakeSlice(elems[j], int(n))}
		}
		for i := int64(0); i < n; i++ {
			for k, p := range params {
				if p.b == bankA {
					r.a[p.i] = row(ins[k], i)
				} else {
					loadScalar(r, p, ins[k].Data, int(i))
				}
			}
			if idx >= 0 {
				r.i[idx] = i
			}
			body(x, r)
			for j, o := range res {
				storeScalar(outs[j].Data, int(i), r, o)
			}
		}
		for j, o := range out {
			r.a[o.i] = outs[j]
		}
		x.poll()
	}
}
