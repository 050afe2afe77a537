// Package cpu is arepl's reference interpreter: it runs core programs on
// the CPU with Futhark's semantics, vectorised and in parallel.
//
// Vectorised interpretation. A SOAC's lambda does not run once per
// element: it runs once per chunk of elements (Options.Chunk, a few
// thousand) in a frame of n lanes, where every scalar variable is a typed
// slice of n values (a column) and every scalar statement is one typed loop
// over the chunk, taken from the operator tables of kernels.go. An `if`
// whose condition differs between lanes splits the lanes by selection
// vectors and runs each branch over its lanes only, so a branch never
// evaluates (or fails on) an element that did not take it. Statements that
// are not scalar (nested SOACs over rows, loops, calls, array operations)
// run lane by lane in one-lane frames, and the top level of a function is
// itself a one-lane frame, so there is a single evaluator.
//
// Parallelism. A SOAC over W elements is split into one contiguous block
// per worker goroutine; a block is processed chunk by chunk. Reductions
// combine per-block partial results in block order (so non-commutative
// operators keep their meaning); scans use the three-phase method of the
// seeds (per-block reduction, exclusive scan of the block totals, per-block
// scan with carry-in); a Screma with scans, reductions, map-outs and a
// post-map does all of them in one pass over each chunk, which is how fused
// programs run without materialising intermediates (builtin scans with no
// post-map instead scan each block from the neutral element and add the
// carries afterwards, so the map runs once). Reduce and scan operators
// that are a single builtin operator run as typed fold and scan loops;
// other operators run vectorised too, as a pairwise tree over the chunk.
//
// Fast paths, each recognised from the core IR's shape and each checked
// against the general path by tests: arg-max style operators (a
// lexicographic choice between their two arguments) reduce a chunk by
// typed passes over its key columns (lexop.go); a `+` reduction or scan
// whose input is the map's last one or two statements with constant
// operands (`x*2 + 1`) evaluates them in its own loop (tail.go,
// chainkern.go); commutative general operators fold through wide
// accumulators (wide.go). Chunks are longer when the map leaves no
// columns to compute, or when a general operator is reduced as a tree,
// whose cost per chunk is a dozen lambda applications whatever its length.
//
// SIMD (simd.go): built with GOEXPERIMENT=simd, as the Makefile does, the
// hottest kernels of the tables run in AVX2 vector lanes on CPUs that have
// it, with results identical to the portable kernels'.
//
// Compiled sequential code (compile.go): what runs one lane at a time — a
// function's body, a loop, a recursive call, and inside a SOAC's lanes the
// loops and plain maps of each lane — is compiled before it runs into
// closures over typed register slots; the statements it does not cover
// (the SOACs of a function body, the rarer array operations) run through
// the frame interpreter above, which Options.Interpret uses for everything
// and the fuzzers compare with.
//
// Errors in the user's program are *source.Error values at the statement's
// position; cancellation of the context is checked between chunks and loop
// iterations.
package cpu

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Options configure the interpreter. Zero values pick the defaults.
type Options struct {
	Workers  int   // goroutines per SOAC; 0 = GOMAXPROCS
	Chunk    int   // elements per vectorised chunk; 0 = DefaultChunk
	MaxAlloc int64 // largest single array in bytes; 0 = only the memory budget (eval.Reserve) bounds it
	MaxDepth int   // deepest function-call nesting; 0 = DefaultMaxDepth
	// Interpret runs sequential code through the frame interpreter instead
	// of compiling it (compile.go); the fuzzers compare the two.
	Interpret bool
	// FoldLanes is the number of segments of a lane-major fold
	// (lanefold.go); 0 = DefaultFoldLanes. Tests make it small, so that
	// short inputs take the path.
	FoldLanes int
}

const (
	// DefaultChunk keeps a handful of columns of 8-byte values in L1/L2.
	DefaultChunk = 4096
	// DefaultMaxDepth bounds recursion well before the Go stack would.
	DefaultMaxDepth = 2000
	// DefaultFoldLanes is wide enough that a step's per-statement call is
	// a small part of its work (256 lanes took 25% longer on Reduce2x2MM).
	DefaultFoldLanes = 1024
)

// Backend is the CPU implementation of eval.Backend.
type Backend struct {
	opts Options
}

// New returns a CPU backend.
func New(opts Options) *Backend {
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.Chunk <= 0 {
		opts.Chunk = DefaultChunk
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.FoldLanes <= 0 {
		opts.FoldLanes = DefaultFoldLanes
	}
	return &Backend{opts: opts}
}

// Name is "cpu".
func (b *Backend) Name() string { return "cpu" }

// machine is the state of one Run.
type machine struct {
	ctx     context.Context
	done    <-chan struct{}
	prog    *core.Program
	opts    Options
	timings *eval.Timings
	tmu     sync.Mutex
	comp    compiled // compiled functions and loops of this Run
	phase   string   // the phase parallel passes are in, for timings.Trace
}

func newMachine(ctx context.Context, prog *core.Program, opts Options, t *eval.Timings) *machine {
	m := &machine{ctx: ctx, done: ctx.Done(), prog: prog, opts: opts, timings: t}
	m.comp = compiled{prog: prog, funs: map[*core.Fun]*cfun{}, loops: map[*core.Stmt]*cloop{}}
	return m
}

// Run calls fn of prog with args.
func (b *Backend) Run(ctx context.Context, prog *core.Program, fn string, args []eval.Value, t *eval.Timings) (res []eval.Value, err error) {
	start := time.Now()
	if t == nil {
		t = &eval.Timings{}
	}
	t.Backend = "cpu"
	defer func() { t.Run += time.Since(start) }()
	f := prog.Fun(fn)
	if f == nil {
		return nil, fmt.Errorf("cpu: no function %q", fn)
	}
	if len(args) != len(f.Params) {
		return nil, fmt.Errorf("cpu: %s takes %d arguments, got %d", fn, len(f.Params), len(args))
	}
	host := make([]eval.Value, len(args))
	for i, a := range args {
		h, err := a.Host(ctx)
		if err != nil {
			return nil, err
		}
		if err := checkValue(h, f.Params[i].Type); err != nil {
			return nil, fmt.Errorf("cpu: argument %d of %s: %v", i+1, fn, err)
		}
		host[i] = h
	}
	m := newMachine(ctx, prog, b.opts, t)
	defer func() {
		if r := recover(); r != nil {
			if me, ok := r.(*eval.MemoryError); ok {
				// An allocation without an error path of its own (alloc).
				res, err = nil, source.Errorf(f.Pos, "%v", me)
				return
			}
			res, err = nil, internalError(r)
		}
	}()
	return m.call(f, host, 0, 0, f.Pos)
}

func internalError(r any) error {
	return fmt.Errorf("cpu: internal error: %v", r)
}

// checkValue checks that a value has the type and representation the
// parameter expects.
func checkValue(v eval.Value, t core.Type) error {
	if v.Elem != t.Elem || len(v.Shape) != t.Rank {
		return fmt.Errorf("value of type %v where %v is expected", v.Type(), t)
	}
	if v.Data == nil {
		return fmt.Errorf("value has no data")
	}
	if err := eval.CheckShape(v.Shape); err != nil {
		return err
	}
	if n := anyLenSafe(v.Data); n < 0 || int64(n) != v.Len() {
		return fmt.Errorf("value of shape %v holds %d elements", v.Shape, n)
	}
	return nil
}

func anyLenSafe(d any) (n int) {
	defer func() {
		if recover() != nil {
			n = -1
		}
	}()
	return anyLen(d)
}

func (m *machine) cancelled() error {
	select {
	case <-m.done:
		return m.ctx.Err()
	default:
		return nil
	}
}

// call runs a function with argument values.
func (m *machine) call(f *core.Fun, args []eval.Value, depth, soac int, pos source.Pos) ([]eval.Value, error) {
	if depth > m.opts.MaxDepth {
		return nil, source.Errorf(pos, "recursion too deep (more than %d nested calls)", m.opts.MaxDepth)
	}
	if !m.opts.Interpret {
		x := &thread{m: m, depth: depth, soac: soac}
		return x.runFun(m.compiledFun(f), args)
	}
	fr := &frame{m: m, n: 1, vars: make(map[string]col, 16), depth: depth, soac: soac}
	for i, p := range f.Params {
		fr.vars[p.Name] = valueCol(args[i])
	}
	cols, err := fr.body(f.Body)
	if err != nil {
		return nil, err
	}
	out := make([]eval.Value, len(cols))
	for i, c := range cols {
		out[i] = fr.laneValue(c, f.Ret[i], 0)
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Columns and frames

// col is the value of one variable in a frame of n lanes: a typed slice of
// n scalars, or n arrays (one shared array when uni).
type col struct {
	data any
	arrs []eval.Value
	uni  bool
}

// arr is the array of lane i.
func (c col) arr(i int) eval.Value {
	if c.uni || len(c.arrs) == 1 {
		return c.arrs[0]
	}
	return c.arrs[i]
}

// valueCol is the one-lane column of a value.
func valueCol(v eval.Value) col {
	if len(v.Shape) == 0 {
		return col{data: v.Data}
	}
	return col{arrs: []eval.Value{v}}
}

type frameKind uint8

const (
	rootFrame   frameKind = iota // a function body: one lane, no parent
	lambdaFrame                  // a SOAC lambda: parent values are the same in every lane
	selFrame                     // an if branch over some lanes of the parent
	laneFrame                    // one lane of the parent
)

// frame is an environment of n lanes.
type frame struct {
	m      *machine
	n      int
	vars   map[string]col
	parent *frame
	kind   frameKind
	sel    []int32  // selFrame: lane i is the parent's lane sel[i]
	lane   int      // laneFrame: the parent's lane
	pool   *pool    // chunk-local scalar columns (nil: allocate fresh)
	wk     *worker  // the worker running this lambda (nil outside SOAC lambdas)
	skip   *skipSet // statements done by a fused reduction (see tail.go)
	depth  int      // function-call depth
	soac   int      // SOAC nesting depth (timings record only the outermost)
}

func (f *frame) child(kind frameKind, n int) *frame {
	c := &frame{m: f.m, n: n, vars: make(map[string]col, 8), parent: f, kind: kind,
		depth: f.depth, soac: f.soac, pool: f.pool, wk: f.wk}
	if kind == laneFrame {
		c.pool, c.wk = nil, nil
	}
	return c
}

// alloc returns a scalar column of n elements of t. A column over the
// memory budget panics with the *eval.MemoryError, which Run returns.
func (f *frame) alloc(t core.PrimType, n int) any {
	if f.pool != nil {
		return f.pool.get(t, n)
	}
	if err := eval.Reserve(int64(n) * int64(t.Size())); err != nil {
		panic(err)
	}
	return eval.MakeSlice(t, n)
}

func (f *frame) lookup(v *core.Var) col {
	if c, ok := f.vars[v.Name]; ok {
		return c
	}
	if f.parent == nil {
		panic(fmt.Sprintf("unbound variable %s", v.Name))
	}
	pc := f.parent.lookup(v)
	var c col
	scalar := v.Type.Rank == 0
	switch f.kind {
	case lambdaFrame:
		if scalar {
			c = col{data: f.uniform(v.Name, v.Type.Elem, pc.data)}
		} else {
			c = col{arrs: pc.arrs[:1], uni: true}
		}
	case selFrame:
		if scalar {
			d := f.alloc(v.Type.Elem, f.n)
			gatherAny(d, pc.data, f.sel)
			c = col{data: d}
		} else if pc.uni || len(pc.arrs) == 1 {
			c = col{arrs: pc.arrs[:1], uni: true}
		} else {
			arrs := make([]eval.Value, f.n)
			for i, j := range f.sel {
				arrs[i] = pc.arrs[j]
			}
			c = col{arrs: arrs}
		}
	case laneFrame:
		if scalar {
			c = col{data: sliceAny(pc.data, f.lane, f.lane+1)}
		} else {
			c = col{arrs: []eval.Value{pc.arr(f.lane)}}
		}
	default:
		panic("lookup in a root frame without the variable " + v.Name)
	}
	f.vars[v.Name] = c
	return c
}

// atom is the column of an atom.
func (f *frame) atom(a core.Atom) col {
	switch a := a.(type) {
	case *core.Var:
		return f.lookup(a)
	case core.Const:
		if f.wk != nil && f.n <= f.wk.pool.size {
			return col{data: sliceAny(f.wk.constant(a, f.n), 0, f.n)}
		}
		d := f.alloc(a.T, f.n)
		fillAny(d, eval.Scalar(a).Data, 0)
		return col{data: d}
	}
	panic(fmt.Sprintf("unknown atom %T", a))
}

// uniform broadcasts a value of the SOAC's enclosing frame to every lane;
// the broadcast column is made once per worker and SOAC, since the
// enclosing frame does not change while the SOAC runs.
func (f *frame) uniform(name string, t core.PrimType, one any) any {
	if f.wk == nil || f.n > f.wk.pool.size {
		// Not from the pool: the column is cached in the frame, which a
		// loop's per-iteration release must not invalidate.
		d := eval.MakeSlice(t, f.n)
		fillAny(d, one, 0)
		return d
	}
	d, ok := f.wk.unis[name]
	if !ok {
		d = eval.MakeSlice(t, f.wk.pool.size)
		fillAny(d, one, 0)
		f.wk.unis[name] = d
	}
	return sliceAny(d, 0, f.n)
}

// laneValue is the value of lane i of a column of type t.
func (f *frame) laneValue(c col, t core.Type, i int) eval.Value {
	if t.Rank == 0 {
		d := eval.MakeSlice(t.Elem, 1)
		setLane(d, 0, c.data, i)
		return eval.Value{Elem: t.Elem, Data: d}
	}
	return c.arr(i)
}

// value is the value of an atom in a one-lane frame.
func (f *frame) value(a core.Atom) eval.Value {
	c := f.atom(a)
	t := a.AtomType()
	if t.Rank == 0 {
		return eval.Value{Elem: t.Elem, Data: c.data}
	}
	return c.arrs[0]
}

// scalarInt is the value of an integer atom in a one-lane frame, as int64
// (unsigned values above MaxInt64 come out negative and are rejected as
// sizes by the callers).
func (f *frame) scalarInt(a core.Atom) int64 {
	if c, ok := a.(core.Const); ok {
		return c.Int()
	}
	return toInt64(f.atom(a).data, 0)
}

func (f *frame) errAt(s *core.Stmt, format string, args ...any) error {
	return source.Errorf(s.Pos, format, args...)
}

func (f *frame) body(b *core.Body) ([]col, error) {
	for _, s := range b.Stmts {
		if f.skip != nil && f.skip.stmts[s] {
			continue
		}
		if err := f.stmt(s); err != nil {
			return nil, err
		}
	}
	res := make([]col, len(b.Result))
	for i, a := range b.Result {
		if f.skip != nil {
			if v, ok := a.(*core.Var); ok && f.skip.vars[v.Name] {
				continue
			}
		}
		res[i] = f.atom(a)
	}
	return res, nil
}

// make1 is a zeroed one-element slice of t.
func make1(t core.PrimType) any { return eval.MakeSlice(t, 1) }

func (f *frame) bind(pat []*core.Var, cols []col) {
	for i, v := range pat {
		f.vars[v.Name] = cols[i]
	}
}

// stmt evaluates one statement over all lanes of f.
func (f *frame) stmt(s *core.Stmt) error {
	switch e := s.Exp.(type) {
	case *core.AtomExp:
		f.bind(s.Pat, []col{f.atom(e.A)})
		return nil
	case *core.BinOpExp:
		x, y := e.X, e.Y
		if _, ok := x.(core.Const); ok && core.BinOps[e.Op].Commutative {
			x, y = y, x
		}
		if c, ok := y.(core.Const); ok && f.n > 1 && binVSTab[e.Op][e.T] != nil {
			d := f.alloc(core.BinOpResult(e.Op, e.T), f.n)
			binVSTab[e.Op][e.T](d, f.atom(x).data, f.constOne(c))
			f.bind(s.Pat, []col{{data: d}})
			return nil
		}
		k := binTab[e.Op][e.T]
		if k == nil {
			return f.errAt(s, "internal error: no operator %v on %v", e.Op, e.T)
		}
		xc, yc := f.atom(e.X), f.atom(e.Y)
		d := f.alloc(core.BinOpResult(e.Op, e.T), f.n)
		if r := k(d, xc.data, yc.data); r != kOK {
			return f.errAt(s, "%s", r.msg())
		}
		f.bind(s.Pat, []col{{data: d}})
		return nil
	case *core.UnOpExp:
		k := unTab[e.Op][e.T]
		if k == nil {
			return f.errAt(s, "internal error: no operator %v on %v", e.Op, e.T)
		}
		x := f.atom(e.X)
		d := f.alloc(core.UnOpResult(e.Op, e.T), f.n)
		if r := k(d, x.data); r != kOK {
			return f.errAt(s, "%s", r.msg())
		}
		f.bind(s.Pat, []col{{data: d}})
		return nil
	case *core.ConvExp:
		k := convTab[e.From][e.To]
		if k == nil {
			return f.errAt(s, "internal error: no conversion from %v to %v", e.From, e.To)
		}
		x := f.atom(e.X)
		d := f.alloc(e.To, f.n)
		k(d, x.data)
		f.bind(s.Pat, []col{{data: d}})
		return nil
	case *core.IfExp:
		return f.ifStmt(s, e)
	case *core.IndexExp:
		if f.n > 1 && f.gatherable(e) {
			return f.gather(s, e)
		}
	case *core.Screma:
		if f.n > 1 && !f.m.opts.Interpret && seqMappable(e) && !f.m.maskable(e.Map) {
			return f.laneLoop(s)
		}
		if f.n > 1 && !f.m.opts.Interpret {
			if ok, err := f.flatMaskedMap(s, e); ok {
				return err
			}
		}
	case *core.LoopExp:
		if f.n > 1 && !f.m.opts.Interpret && f.wk != nil {
			if ok, err := f.maskedLoop(s, e); ok {
				return err
			}
		}
		if f.n > 1 && !f.m.opts.Interpret {
			return f.laneLoop(s)
		}
		if f.n > 1 && f.pool != nil {
			return f.vecLoop(s, e)
		}
	case *core.ApplyExp:
		if f.n > 1 && f.depth < maxVecDepth {
			return f.vecApply(s, e)
		}
	}
	if f.n == 1 {
		if err := f.m.cancelled(); err != nil {
			return err
		}
		vals, err := f.eval1(s)
		if err != nil {
			return err
		}
		for i, v := range s.Pat {
			f.vars[v.Name] = valueCol(vals[i])
		}
		return nil
	}
	return f.perLane(s)
}

// perLane runs a statement lane by lane in one-lane frames.
func (f *frame) perLane(s *core.Stmt) error {
	outs := make([]col, len(s.Pat))
	for j, p := range s.Pat {
		if p.Type.Rank == 0 {
			outs[j] = col{data: f.alloc(p.Type.Elem, f.n)}
		} else {
			outs[j] = col{arrs: make([]eval.Value, f.n)}
		}
	}
	for i := 0; i < f.n; i++ {
		if err := f.m.cancelled(); err != nil {
			return err
		}
		lf := f.child(laneFrame, 1)
		lf.lane = i
		if err := lf.stmt(s); err != nil {
			return err
		}
		for j, p := range s.Pat {
			c := lf.vars[p.Name]
			if p.Type.Rank == 0 {
				setLane(outs[j].data, i, c.data, 0)
			} else {
				outs[j].arrs[i] = c.arrs[0]
			}
		}
	}
	f.bind(s.Pat, outs)
	return nil
}

// ifStmt runs each branch over the lanes that take it.
func (f *frame) ifStmt(s *core.Stmt, e *core.IfExp) error {
	cond := f.atom(e.Cond).data.([]bool)
	if f.n == 1 {
		b := e.Else
		if cond[0] {
			b = e.Then
		}
		res, err := f.body(b)
		if err != nil {
			return err
		}
		f.bind(s.Pat, res)
		return nil
	}
	if speculable(e.Then) && speculable(e.Else) {
		return f.selectIf(s, e, cond)
	}
	var tsel, fsel []int32
	for i, c := range cond[:f.n] {
		if c {
			tsel = append(tsel, int32(i))
		} else {
			fsel = append(fsel, int32(i))
		}
	}
	// All lanes agree: run the branch in this frame, no selection needed.
	if len(fsel) == 0 || len(tsel) == 0 {
		b := e.Else
		if len(fsel) == 0 {
			b = e.Then
		}
		res, err := f.body(b)
		if err != nil {
			return err
		}
		f.bind(s.Pat, res)
		return nil
	}
	outs := make([]col, len(s.Pat))
	for j, p := range s.Pat {
		if p.Type.Rank == 0 {
			outs[j] = col{data: f.alloc(p.Type.Elem, f.n)}
		} else {
			outs[j] = col{arrs: make([]eval.Value, f.n)}
		}
	}
	for _, br := range []struct {
		sel  []int32
		body *core.Body
	}{{tsel, e.Then}, {fsel, e.Else}} {
		sf := f.child(selFrame, len(br.sel))
		sf.sel = br.sel
		res, err := sf.body(br.body)
		if err != nil {
			return err
		}
		for j, p := range s.Pat {
			if p.Type.Rank == 0 {
				scatterAny(outs[j].data, res[j].data, br.sel)
			} else {
				for i, l := range br.sel {
					outs[j].arrs[l] = res[j].arr(i)
				}
			}
		}
	}
	f.bind(s.Pat, outs)
	return nil
}

// gatherable reports whether an index expression is a scalar read from an
// array that is the same in every lane: a vectorised gather.
func (f *frame) gatherable(e *core.IndexExp) bool {
	if len(e.Idx) != e.Arr.Type.Rank {
		return false
	}
	for _, d := range e.Idx {
		if d.Fix == nil {
			return false
		}
	}
	c := f.lookup(e.Arr)
	return c.uni || len(c.arrs) == 1
}

func (f *frame) gather(s *core.Stmt, e *core.IndexExp) error {
	arr := f.lookup(e.Arr).arrs[0]
	idx := make([]col, len(e.Idx))
	for k, d := range e.Idx {
		idx[k] = f.atom(*d.Fix)
	}
	flat := make([]int32, f.n)
	for i := 0; i < f.n; i++ {
		off := int64(0)
		for k := range e.Idx {
			j := toInt64(idx[k].data, i)
			if j < 0 || j >= arr.Shape[k] {
				parts := make([]string, len(e.Idx))
				for q := range e.Idx {
					parts[q] = fmt.Sprint(toInt64(idx[q].data, i))
				}
				return f.errAt(s, "Index [%s] out of bounds for array of shape %s.", strings.Join(parts, ", "), shapeString(arr.Shape))
			}
			off = off*arr.Shape[k] + j
		}
		if off > 1<<31-1 {
			return f.perLane(s)
		}
		flat[i] = int32(off)
	}
	d := f.alloc(arr.Elem, f.n)
	gatherAny(d, arr.Data, flat)
	f.bind(s.Pat, []col{{data: d}})
	return nil
}

func shapeString(shape []int64) string {
	var b strings.Builder
	for _, d := range shape {
		fmt.Fprintf(&b, "[%d]", d)
	}
	if len(shape) == 0 {
		return "[]"
	}
	return b.String()
}

// toInt64 reads element i of an integer slice as int64.
func toInt64(d any, i int) int64 {
	v, ok := eval.IntAt(d, i)
	if !ok {
		panic(fmt.Sprintf("toInt64 of %T", d))
	}
	return v
}

// constOne is a one-element slice holding c.
func (f *frame) constOne(c core.Const) any {
	if f.wk != nil {
		return f.wk.one(c)
	}
	return eval.Scalar(c).Data
}
