// Package gpu is arepl's CUDA backend. It runs core programs by generating
// CUDA C for their SOACs, compiling it with NVRTC (once: cubins are cached
// on disk by source hash) and launching the kernels through package cuda.
//
// The pieces, in the order a Run uses them:
//
//   - module.go walks the program's host-level bodies and, for every Screma
//     and Segmented statement a kernel family covers, instantiates a
//     template from package kernels (map, redomap with a commutative or an
//     ordered operator, segmented reduce); codegen.go renders the lambdas as
//     device functions with Futhark's scalar semantics (kernels/prelude.cu).
//     Everything else is recorded with the reason it cannot run on the GPU.
//   - Nested parallelism: nest.go finds the perfect map nest of a statement
//     (Futhark's moderate flattening); segmap.go runs it as one kernel over
//     the nest's index space, the innermost body sequential per thread, with
//     inkernel.go's arrays (strided views, thread-local arrays in a scratch
//     buffer, in-place loop updates, sequential inner SOACs). split.go runs a
//     reduction, scan, hist, scatter or filter whose function is nested as a
//     segmented map then the flat SOAC; arrayops.go runs host-level
//     transpose, copy, reverse, iota and replicate as segmented maps. A
//     recognised shape takes a dedicated kernel first: tile.go gives the
//     shapes whose threads all read the same arrays (n-body folds, matrix
//     products) shared-memory tiled kernels. CPUStatements lists what is
//     left for the CPU, for plans and a test.
//   - backend.go interprets the function body on the host: kernels run on
//     the device; If, loops and calls that contain kernels are followed on
//     the host; every maximal run of other statements is handed, as one
//     synthetic function, to the fallback backend (the CPU interpreter, given
//     by the caller: eval/gpu never imports eval/cpu).
//   - seen.go remembers the programs run, by a fingerprint of their IR
//     that leaves out positions and names: a repeated or renamed
//     expression runs as the program seen first, with its module, so a
//     hit generates, renders and hashes nothing.
//   - tier.go is the module cache: a new module runs from a fast compile
//     (NVRTC's -Ofc=mid) while the optimised one compiles in the background
//     and replaces it; only optimised cubins reach the disk cache (cache.go).
//   - devarray.go keeps arrays on the device between statements and between
//     REPL inputs (eval.Value.Dev) until something needs them on the host.
//
// Run-time checks in kernels (bounds, division by zero, assertions) set a
// device error flag to the number of the failed check; the host reads it
// after the kernel and reports the check's source position.
package gpu

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Options configure the backend.
type Options struct {
	// Fallback runs the statements the GPU backend does not (scan, hist,
	// filter, scalar code, ...). Without one such programs fail.
	Fallback eval.Backend
	// CacheDir overrides where cubins are cached ($XDG_CACHE_HOME/arepl).
	CacheDir string
	// Tiered compiles a new module fast first and optimised in the
	// background (tier.go); TieringFromEnv gives the default.
	Tiered bool
}

// Backend is the GPU backend; it implements eval.Backend.
type Backend struct {
	opts Options
	g    *cuda.GPU
	lim  Limits

	cache   *tierCache   // loaded modules, by cache key (tier.go)
	seen    seenPrograms // generated modules, by program (seen.go)
	counter cuda.Ptr     // last-block ticket, reset by the kernels
	errFlag cuda.Ptr     // device error flag, 0 when no check failed
}

// loaded is a compiled, loaded module and its kernels' functions.
type loaded struct {
	mod   *module
	cmod  *cuda.Module
	funcs map[string]*cuda.Function
	occ   map[string]int
	ver   *version // the loaded cubin's tier and holders (tier.go)
}

// New opens the GPU (creating its context: call it lazily, off any start-up
// path) and returns the backend. Without a usable GPU the error is a
// *cuda.NoGPUError whose text starts "no GPU: ".
func New(opts Options) (*Backend, error) {
	g, err := cuda.Open()
	if err != nil {
		return nil, err
	}
	return newOn(opts, g)
}

// newOn makes the backend of an open device (New's device 0, or one of
// NewOnDevice's).
func newOn(opts Options, g *cuda.GPU) (*Backend, error) {
	var err error
	p := g.Props()
	b := &Backend{opts: opts, g: g,
		lim: Limits{SMs: p.SMs, MaxThreadsPerBlock: p.MaxThreadsPerBlock, SharedPerBlock: p.SharedPerBlock,
			SharedOptin: p.SharedPerBlockOptin, RegsPerBlock: p.RegsPerBlock,
			SharedPerSM: p.SharedPerSM, ThreadsPerSM: p.MaxThreadsPerSM}}
	if b.opts.CacheDir == "" {
		b.opts.CacheDir = cacheDir()
	}
	b.cache = newTierCache(b.opts.CacheDir, opts.Tiered, func(src, file string, fast bool) ([]byte, error) {
		if fast {
			return compileTier1(g, src, file)
		}
		return compileModule(g, src, file)
	})
	if cuda.Tracing() {
		b.cache.trace = cuda.Trace
	}
	warmOnce.Do(func() {
		// NVRTC's first compile in a process loads and initialises the
		// compiler (measured in bench/RESULTS.md, "Interactive latency");
		// do that now, in the background, with the prelude every module
		// includes, rather than on the first expression's compile.
		go warmCompiler(g, opts.Tiered)
	})
	for _, dst := range []*cuda.Ptr{&b.counter, &b.errFlag} {
		if *dst, err = g.Alloc(errBytes); err != nil {
			return nil, err
		}
		if err := g.Memset(*dst, 0, errBytes); err != nil {
			return nil, err
		}
	}
	return b, nil
}

var warmOnce sync.Once

// Name is "gpu".
func (b *Backend) Name() string { return "gpu" }

// Settle waits until every module compiled fast has its optimised
// version in place (tier.go): for measuring kernels, never the fast tier.
func (b *Backend) Settle(ctx context.Context) error { return b.cache.settle(ctx) }

// Close ends the background compiles: those not started are dropped, the
// one running is waited for. Later new modules compile fully at once.
func (b *Backend) Close() { b.cache.close() }

// SetDeterministic fixes the combination order of float scans (for
// eval.OrderSetter).
func (b *Backend) SetDeterministic(on bool) { b.lim.Deterministic = on }

var _ eval.OrderSetter = (*Backend)(nil)

// Device describes the GPU in one line (for :backend and timing tables).
func (b *Backend) Device() string {
	p := b.g.Props()
	return fmt.Sprintf("%s (%s, %d SMs, %d MiB, driver %d, NVRTC %d.%d)", p.Name, p.Arch(), p.SMs, p.TotalMem>>20,
		p.DriverVersion, p.NVRTCVersion[0], p.NVRTCVersion[1])
}

// Props returns the device properties.
func (b *Backend) Props() cuda.Props { return b.g.Props() }

// Kernel returns the CUDA source generated for every SOAC of prog (the
// prelude left out), with a comment for each statement that would run on
// the fallback and why. It needs no GPU: the code is sized for
// DefaultLimits.
func Kernel(prog *core.Program) (string, error) {
	m, err := generate(prog, DefaultLimits)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("// arepl CUDA module; prelude: kernels/prelude.cu (types, Futhark scalar operators)\n")
	var notes, modules []string
	for s, why := range m.fallback {
		// Scans, segmented scans and filters have a module of their own.
		if src, err := ScanKernel(prog, s); err == nil {
			notes = append(notes, fmt.Sprintf("// %v: %s runs in its own scan module, below\n", s.Pos, expName(s.Exp)))
			modules = append(modules, fmt.Sprintf("\n// ---- %v: %s\n%s", s.Pos, expName(s.Exp), src))
			continue
		}
		notes = append(notes, fmt.Sprintf("// %v: %s runs on the CPU: %s\n", s.Pos, expName(s.Exp), why))
	}
	sort.Strings(notes)
	sort.Strings(modules)
	b.WriteString(strings.Join(notes, ""))
	b.WriteString(m.body)
	b.WriteString(strings.Join(modules, ""))
	return b.String(), nil
}

// load compiles (or finds in the cache) and loads the module of a
// program planned by seen (seen.go).
func (b *Backend) load(e *seenProgram, t *eval.Timings) (*loaded, error) {
	start := time.Now()
	defer func() { t.Compile += time.Since(start) }()
	m := e.mod
	if len(m.kernels) == 0 {
		return &loaded{mod: m}, nil
	}
	l, info, err := b.cache.get(e.key, e.src, "arepl.cu", func(cubin []byte) (*loaded, error) {
		cm, err := b.g.LoadModule(cubin)
		if err != nil {
			return nil, err
		}
		l := &loaded{mod: m, cmod: cm, funcs: map[string]*cuda.Function{}, occ: map[string]int{}, ver: &version{unload: cm.Unload}}
		for _, ks := range m.kernels {
			for _, k := range ks {
				if k.noFunction() {
					continue
				}
				f, err := cm.Function(k.Name)
				if err == nil {
					var occ int
					occ, err = f.Occupancy(k.Block, 0)
					l.occ[k.Name] = max(1, occ)
				}
				if err != nil {
					_ = cm.Unload()
					return nil, err
				}
				l.funcs[k.Name] = f
			}
		}
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	t.CacheHit = info.memHit || info.diskHit
	t.FastTier = t.FastTier || info.fast
	// Same source, so the same kernels; the copy carries this program's
	// statements (the module's maps are keyed by them).
	lc := *l
	lc.mod = m
	return &lc, nil
}

// plan finds or generates the module of prog (seen.go); substitute allows
// an alpha-equivalent program seen before in prog's place. The time counts
// as compile time.
func (b *Backend) plan(prog *core.Program, fn string, substitute bool, t *eval.Timings) (*seenProgram, string, error) {
	start := time.Now()
	defer func() { t.Compile += time.Since(start) }()
	p := b.g.Props()
	return b.seen.plan(prog, fn, b.lim, p.Arch(), p.NVRTCVersion, substitute, b.gpuRuns)
}

// gpuRuns reports whether the scan or histogram kernels run statement s
// of prog (one that the module's own kernels do not).
func (b *Backend) gpuRuns(prog *core.Program, s *core.Stmt) bool {
	if m, _, err := b.scanPlan(prog, s); m != nil && err == nil {
		return true
	}
	m, err := b.histPlan(prog, s)
	return m != nil && err == nil
}

// run is the state of one Run.
type run struct {
	b     *Backend
	ctx   context.Context
	prog  *core.Program
	l     *loaded
	t     *eval.Timings
	temps []*devArray // device arrays made during the Run
	// held are the modules the Run uses: a module replaced by its
	// optimised tier meanwhile stays loaded until the Run ends (tier.go).
	held  []*loaded
	gpu   map[*core.Stmt]bool
	notes map[string]bool
	// inFor counts the `for` loops being followed on the host; inside one,
	// segmented maps leave their error flag on the device (pending) and
	// the loop reads it once at its end (checkLater).
	inFor   int
	pending bool
	// spare are arrays replaced by a loop's iterations, kept for the
	// next iteration's results (takeSpare).
	spare []*devArray
	// timers are the launches queued without waiting (launchAsync), with
	// the index of their entry in t.Kernels; settleTimes reads them.
	timers []pendingTimer
}

// loopAsync turns launchAsync on (a variable so that the benchmark can
// compare the synchronous launches).
var loopAsync = true

// pendingTimer is an asynchronous launch whose time is not read yet.
type pendingTimer struct {
	kernel int
	t      *cuda.Timer
}

// launchAsync queues kernel f for statement kernel name inside a `for`
// loop without waiting for it: the loop's next launch goes into the queue
// while this one runs (a stencil iterated 100 times paid ~90 µs of host
// time a iteration waiting on each kernel and its events). Its time is
// read at the Run's end (settleTimes); until then its t.Kernels entry has
// no time.
func (r *run) launchAsync(f *cuda.Function, name string, grid, block int64, moved int64, args []any) error {
	tm, err := f.LaunchAsync(cuda.Dim3{X: uint32(grid)}, cuda.Dim3{X: uint32(block)}, 0, args...)
	if err != nil {
		return err
	}
	r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: name, Bytes: moved})
	r.timers = append(r.timers, pendingTimer{kernel: len(r.t.Kernels) - 1, t: tm})
	return nil
}

// settleTimes waits for the asynchronous launches and fills in their
// times; after an error it only gives their events back.
func (r *run) settleTimes(failed bool) error {
	var first error
	for _, p := range r.timers {
		if failed || first != nil {
			p.t.Release()
			continue
		}
		d, err := p.t.Elapsed()
		if err != nil {
			first = err
			continue
		}
		r.t.Kernels[p.kernel].Time = d
		r.t.Run += d
	}
	r.timers = nil
	return first
}

// checkLater is a kernel's error check where it may wait: inside a `for`
// loop on the host, the flag stays on the device and the loop's end (or
// the next read of device data on the host) reads it; the first failed
// check keeps its code, so the error and its position are the same as if
// each launch had been checked. Elsewhere it checks at once.
func (r *run) checkLater() error {
	if r.inFor > 0 {
		r.pending = true
		return nil
	}
	return r.checkError()
}

// flushChecks reads a pending error flag (checkLater).
func (r *run) flushChecks() error {
	if !r.pending {
		return nil
	}
	return r.checkError()
}

// Run calls fn of prog with args.
func (b *Backend) Run(ctx context.Context, prog *core.Program, fn string, args []eval.Value, t *eval.Timings) ([]eval.Value, error) {
	if err := b.g.Broken(); err != nil {
		return nil, fmt.Errorf("gpu backend disabled after a CUDA error: %w", err)
	}
	t.Backend = "gpu"
	f := prog.Fun(fn)
	if f == nil {
		return nil, fmt.Errorf("gpu: no function %s", fn)
	}
	if len(args) != len(f.Params) {
		return nil, fmt.Errorf("gpu: %s takes %d arguments, got %d", fn, len(f.Params), len(args))
	}
	// A program seen before under other names or positions runs as
	// that one (seen.go).
	e, seenFn, err := b.plan(prog, fn, true, t)
	if err != nil {
		return nil, err
	}
	if e.prog == prog {
		return b.run(ctx, e, fn, args, t)
	}
	before := *t
	res, err := b.run(ctx, e, seenFn, args, t)
	if err == nil && len(t.Notes) == len(before.Notes) {
		return res, nil
	}
	if err != nil && (ctx.Err() != nil || b.g.Broken() != nil) {
		return nil, err
	}
	// The error or a note would name the seen program's positions or
	// variables: this program runs as itself, and the seen one, which
	// notes things, no longer stands in for others.
	if err == nil {
		b.seen.setAlone(e)
		freeResults(res, args)
	}
	*t = before
	if e, _, err = b.plan(prog, fn, false, t); err != nil {
		return nil, err
	}
	return b.run(ctx, e, fn, args, t)
}

// freeResults frees the device arrays of a discarded run's results that
// are not among its arguments.
func freeResults(res, args []eval.Value) {
	keep := map[*devArray]bool{}
	for _, v := range args {
		if d, ok := v.Dev.(*devArray); ok {
			keep[d] = true
		}
	}
	for _, v := range res {
		if d, ok := v.Dev.(*devArray); ok && !keep[d] {
			d.Free()
		}
	}
}

// run runs fn of the planned program e.prog.
func (b *Backend) run(ctx context.Context, e *seenProgram, fn string, args []eval.Value, t *eval.Timings) ([]eval.Value, error) {
	prog := e.prog
	f := prog.Fun(fn)
	l, err := b.load(e, t)
	if err != nil {
		return nil, err
	}
	r := &run{b: b, ctx: ctx, prog: prog, l: l, t: t, gpu: map[*core.Stmt]bool{}, notes: map[string]bool{}, held: []*loaded{l}}
	defer func() {
		for _, h := range r.held {
			b.cache.release(h)
		}
	}()
	env := map[string]eval.Value{}
	for i, p := range f.Params {
		env[p.Name] = args[i]
	}
	res, err := r.body(f.Body, env, 0)
	if ferr := r.flushChecks(); ferr != nil && (err == nil || !cuda.Sticky(err)) {
		// A loop cut short (an error, a cancelled context) leaves no
		// pending flag behind for the next Run.
		err = ferr
	}
	if terr := r.settleTimes(err != nil); terr != nil && err == nil {
		err = terr
	}
	r.freeSpare()
	// Free the Run's temporaries that are not results.
	keep := map[*devArray]bool{}
	for _, v := range res {
		if d, ok := v.Dev.(*devArray); ok {
			keep[d] = true
		}
	}
	for _, d := range r.temps {
		if !keep[d] {
			d.Free()
		}
	}
	if err != nil {
		if cuda.Sticky(err) {
			return nil, fmt.Errorf("gpu backend disabled: %w", err)
		}
		return nil, err
	}
	return res, nil
}

// maxDepth bounds host-level recursion through calls.
const maxDepth = 10000

func (r *run) body(b *core.Body, env map[string]eval.Value, depth int) ([]eval.Value, error) {
	if depth > maxDepth {
		return nil, errors.New("gpu: recursion too deep")
	}
	for i := 0; i < len(b.Stmts); {
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		s := b.Stmts[i]
		if parts := r.l.mod.split[s]; parts != nil {
			if _, err := r.body(&core.Body{Stmts: parts}, env, depth+1); err != nil {
				return nil, err
			}
			i++
			continue
		}
		if ks := r.l.mod.kernels[s]; ks != nil {
			if err := r.launch(s, ks, env); err != nil {
				return nil, err
			}
			i++
			continue
		}
		// Scans, segmented scans and filters: single-pass kernels (scan*.go).
		if ok, err := r.scanStmt(s, env); ok || err != nil {
			if err != nil {
				return nil, err
			}
			i++
			continue
		}
		// Histograms, scatter and multiscan (hist*.go, scatter.go, multiscan.go).
		if ok, err := r.histStmt(s, env); ok || err != nil {
			if err != nil {
				return nil, err
			}
			i++
			continue
		}
		if ok, err := r.trivial(s, env); ok || err != nil {
			if err != nil {
				return nil, err
			}
			i++
			continue
		}
		if r.hasGPU(s, 0) {
			if err := r.control(s, env, depth); err != nil {
				return nil, err
			}
			i++
			continue
		}
		j := i + 1
		for j < len(b.Stmts) && r.l.mod.kernels[b.Stmts[j]] == nil && r.l.mod.split[b.Stmts[j]] == nil && !r.scannable(b.Stmts[j]) && !r.histable(b.Stmts[j]) && !r.hasGPU(b.Stmts[j], 0) && !isTrivial(b.Stmts[j]) {
			j++
		}
		// The CPU reads device data: a pending failed check first.
		if err := r.flushChecks(); err != nil {
			return nil, err
		}
		if err := r.fallback(b.Stmts[i:j], env); err != nil {
			return nil, err
		}
		i = j
	}
	out := make([]eval.Value, len(b.Result))
	for i, a := range b.Result {
		v, err := r.value(a, env)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// isTrivial reports whether the backend evaluates s itself: sizes of
// arrays (known on the host even for device arrays) and copies of atoms,
// which are what SOAC widths are made of; sending them to the fallback
// would cost a round trip each.
func isTrivial(s *core.Stmt) bool {
	switch e := s.Exp.(type) {
	case *core.SizeExp, *core.AtomExp:
		return len(s.Pat) == 1
	case *core.IndexExp:
		// Indexing by positions only (no slices): on a device array it
		// copies just the element or row (deviceIndex).
		for _, d := range e.Idx {
			if d.Fix == nil {
				return false
			}
		}
		return len(s.Pat) == 1
	}
	return false
}

func (r *run) trivial(s *core.Stmt, env map[string]eval.Value) (bool, error) {
	if !isTrivial(s) {
		return false, nil
	}
	switch e := s.Exp.(type) {
	case *core.SizeExp:
		v, err := r.value(e.Arr, env)
		if err != nil {
			return true, err
		}
		if e.Dim < 0 || e.Dim >= len(v.Shape) {
			return true, fmt.Errorf("internal error: size of dimension %d of a rank-%d array", e.Dim, len(v.Shape))
		}
		env[s.Pat[0].Name] = eval.Scalar(core.IntConst(core.I64, v.Shape[e.Dim]))
	case *core.AtomExp:
		v, err := r.value(e.A, env)
		if err != nil {
			return true, err
		}
		env[s.Pat[0].Name] = v
	case *core.IndexExp:
		return r.deviceIndex(s, e, env)
	}
	return true, nil
}

// deviceIndex evaluates a[i, j, ...] on a device array by copying only the
// element (to the host) or the row (to a new device array) it names,
// instead of bringing the whole array to the host for the fallback: `ys[3]`
// of a 2^28-element array moved 1 GiB before (issue 16). Arrays on the
// host, and indices out of bounds, go to the fallback (ok false), which
// reports the error as the CPU interpreter words it.
func (r *run) deviceIndex(s *core.Stmt, e *core.IndexExp, env map[string]eval.Value) (ok bool, err error) {
	v, err := r.value(e.Arr, env)
	if err != nil {
		return true, err
	}
	d, onDev := v.Dev.(*devArray)
	if !onDev || v.Data != nil || d.mem.freed.Load() || len(e.Idx) > len(v.Shape) {
		return false, nil
	}
	var off int64
	for k, ix := range e.Idx {
		iv, err := r.host(*ix.Fix, env)
		if err != nil {
			return true, err
		}
		i, err := scalarInt(iv)
		if err != nil {
			return true, err
		}
		if i < 0 || i >= v.Shape[k] {
			return false, nil
		}
		off = off*v.Shape[k] + i
	}
	rest := v.Shape[len(e.Idx):]
	inner := int64(1)
	for _, n := range rest {
		inner *= n
	}
	size := int64(v.Elem.Size())
	src := d.ptr() + cuda.Ptr(off*inner*size)
	if len(rest) == 0 {
		data := eval.MakeSlice(v.Elem, 1)
		start := time.Now()
		err := r.b.g.DtoH(slicePtr(data), src, size)
		r.xfer("DtoH", size, start)
		if err != nil {
			return true, err
		}
		env[s.Pat[0].Name] = eval.Value{Elem: v.Elem, Data: data}
		return true, nil
	}
	row, err := newDevArray(r.b.g, v.Elem, inner)
	if err != nil {
		return true, err
	}
	r.temps = append(r.temps, row)
	if err := r.b.g.DtoD(row.ptr(), src, row.bytes); err != nil {
		return true, err
	}
	env[s.Pat[0].Name] = eval.Value{Elem: v.Elem, Shape: append([]int64(nil), rest...), Dev: row}
	return true, nil
}

// hasGPU reports whether a control statement (if, loop, call) contains a
// kernel, so that it is worth following on the host.
func (r *run) hasGPU(s *core.Stmt, depth int) bool {
	if v, ok := r.gpu[s]; ok {
		return v
	}
	r.gpu[s] = false // cut cycles through recursive calls
	var bodies []*core.Body
	switch e := s.Exp.(type) {
	case *core.IfExp:
		bodies = []*core.Body{e.Then, e.Else}
	case *core.LoopExp:
		bodies = []*core.Body{e.Body}
	case *core.ApplyExp:
		if f := r.prog.Fun(e.Fun); f != nil {
			bodies = []*core.Body{f.Body}
		}
	}
	found := false
	for _, b := range bodies {
		for _, t := range b.Stmts {
			if r.l.mod.kernels[t] != nil || r.l.mod.split[t] != nil || r.scannable(t) || r.histable(t) || r.hasGPU(t, depth+1) {
				found = true
			}
		}
	}
	r.gpu[s] = found
	return found
}

// value is an atom's value.
func (r *run) value(a core.Atom, env map[string]eval.Value) (eval.Value, error) {
	switch a := a.(type) {
	case *core.Var:
		v, ok := env[a.Name]
		if !ok {
			return eval.Value{}, fmt.Errorf("internal error: gpu: %s unbound", a.Name)
		}
		return v, nil
	case core.Const:
		return eval.Scalar(a), nil
	case *core.Const:
		return eval.Scalar(*a), nil
	}
	return eval.Value{}, fmt.Errorf("internal error: unknown atom %T", a)
}

// host returns a's value with its data on the host.
func (r *run) host(a core.Atom, env map[string]eval.Value) (eval.Value, error) {
	v, err := r.value(a, env)
	if err != nil {
		return v, err
	}
	if v.Data == nil && v.Dev != nil {
		// Device data read on the host after a failed check may be
		// anything: the check's error comes first.
		if err := r.flushChecks(); err != nil {
			return v, err
		}
		start := time.Now()
		v, err = v.Host(r.ctx)
		r.xfer("DtoH", v.Dev.Bytes(), start)
		if err != nil {
			return v, err
		}
		if x, ok := a.(*core.Var); ok {
			env[x.Name] = v
		}
	}
	return v, nil
}

// device returns the device array of variable x, uploading it if needed
// (the upload is kept in env for later statements).
func (r *run) device(x *core.Var, env map[string]eval.Value) (*devArray, eval.Value, error) {
	v, err := r.value(x, env)
	if err != nil {
		return nil, v, err
	}
	if d, ok := v.Dev.(*devArray); ok && !d.mem.freed.Load() {
		return d, v, nil
	}
	if v.Data == nil {
		if v, err = v.Host(r.ctx); err != nil {
			return nil, v, err
		}
	}
	d, err := newDevArray(r.b.g, v.Elem, v.Len())
	if err != nil {
		return nil, v, err
	}
	r.temps = append(r.temps, d)
	start := time.Now()
	err = r.b.g.HtoD(d.ptr(), slicePtr(v.Data), d.bytes)
	r.xfer("HtoD", d.bytes, start)
	if err != nil {
		return nil, v, err
	}
	v.Dev = d
	env[x.Name] = v
	return d, v, nil
}

// control follows an if, loop or call that contains kernels.
func (r *run) control(s *core.Stmt, env map[string]eval.Value, depth int) error {
	bind := func(vals []eval.Value) error {
		if len(vals) != len(s.Pat) {
			return fmt.Errorf("internal error: %d values for %d variables", len(vals), len(s.Pat))
		}
		for i, v := range s.Pat {
			env[v.Name] = vals[i]
		}
		return nil
	}
	switch e := s.Exp.(type) {
	case *core.IfExp:
		c, err := r.host(e.Cond, env)
		if err != nil {
			return err
		}
		cb, ok := c.Data.([]bool)
		if !ok {
			return fmt.Errorf("internal error: if condition of type %v", c.Elem)
		}
		br := e.Else
		if cb[0] {
			br = e.Then
		}
		vals, err := r.body(br, env, depth+1)
		if err != nil {
			return err
		}
		return bind(vals)
	case *core.LoopExp:
		cur := make([]eval.Value, len(e.Init))
		for i, a := range e.Init {
			v, err := r.value(a, env)
			if err != nil {
				return err
			}
			cur[i] = v
		}
		var bound int64 = -1
		f := core.ForOf(e.Form)
		if f != nil {
			bv, err := r.host(f.Bound, env)
			if err != nil {
				return err
			}
			if bound, err = scalarInt(bv); err != nil {
				return err
			}
		}
		// Device arrays the loop makes: a parameter's array from the
		// previous iteration is freed once the next iteration no longer
		// holds it, so a loop of kernels (a stencil) keeps two arrays on
		// the device instead of one per iteration.
		made := map[*devArray]bool{}
		if f != nil {
			// A for loop's kernels are checked once, at its end
			// (checkLater): its trip count is known, so no garbage
			// read after a failed check can keep it going.
			r.inFor++
			defer func() { r.inFor-- }()
		}
		for it := int64(0); ; it++ {
			for i, p := range e.Params {
				env[p.Name] = cur[i]
			}
			if f != nil {
				if it >= bound {
					break
				}
				env[f.I.Name] = eval.Scalar(core.IntConst(f.I.Type.Elem, it))
			} else {
				w := core.WhileOf(e.Form)
				c, err := r.host(w.Cond, env)
				if err != nil {
					return err
				}
				if cb, ok := c.Data.([]bool); !ok || !cb[0] {
					break
				}
			}
			before := len(r.temps)
			next, err := r.body(e.Body, env, depth+1)
			if err != nil {
				if ferr := r.flushChecks(); ferr != nil {
					return ferr // the earlier failure
				}
				return err
			}
			for _, d := range r.temps[before:] {
				made[d] = true
			}
			r.freeReplaced(cur, next, made)
			cur = next
		}
		if f != nil && r.inFor == 1 {
			if err := r.flushChecks(); err != nil {
				return err
			}
		}
		return bind(cur)
	case *core.ApplyExp:
		f := r.prog.Fun(e.Fun)
		inner := map[string]eval.Value{}
		for i, p := range f.Params {
			v, err := r.value(e.Args[i], env)
			if err != nil {
				return err
			}
			inner[p.Name] = v
		}
		vals, err := r.body(f.Body, inner, depth+1)
		if err != nil {
			return err
		}
		return bind(vals)
	}
	return fmt.Errorf("internal error: gpu: cannot follow %T on the host", s.Exp)
}

// freeReplaced frees the device arrays of old that the loop made (made) and
// that next no longer holds: a loop parameter's previous value, dead once
// the body has computed the next one (body-local names die with the
// iteration).
func (r *run) freeReplaced(old, next []eval.Value, made map[*devArray]bool) {
	keep := map[*devArray]bool{}
	for _, v := range next {
		if d, ok := v.Dev.(*devArray); ok {
			keep[d] = true
		}
	}
	for _, v := range old {
		if d, ok := v.Dev.(*devArray); ok && made[d] && !keep[d] {
			delete(made, d)
			if len(r.spare) < maxSpare {
				r.spare = append(r.spare, d)
				continue
			}
			d.Free()
		}
	}
}

// maxSpare bounds the arrays a Run keeps for reuse (takeSpare).
const maxSpare = 4

// takeSpare returns an array a loop's iteration replaced, of count
// elements of t, for a kernel to write its result into, or nil. A stencil
// iterated in a loop frees its previous array and allocates the next of
// the same size every iteration: two driver calls a iteration that reuse
// saves (the host, not the kernel, bounded a iteration's time). The
// stream orders the reuse after the kernels that read the array, as it
// would a free and an allocation.
func (r *run) takeSpare(t core.PrimType, count int64) *devArray {
	bytes := count * int64(t.Size())
	for i, d := range r.spare {
		if d.bytes == bytes {
			r.spare = append(r.spare[:i], r.spare[i+1:]...)
			d.elem, d.n = t, count
			return d
		}
	}
	return nil
}

// freeSpare frees the arrays no iteration took back.
func (r *run) freeSpare() {
	for _, d := range r.spare {
		d.Free()
	}
	r.spare = nil
}

// fallbackName is the synthetic function a run of statements becomes.
const fallbackName = "ar_gpu_fallback"

// fallback runs stmts on the fallback backend as one function whose
// parameters are their free variables and whose results are everything
// they bind.
func (r *run) fallback(stmts []*core.Stmt, env map[string]eval.Value) error {
	fs := newFreeSet()
	fs.stmts(stmts, nil, map[string]bool{})
	if fs.err != nil {
		return fs.err
	}
	var outs []*core.Var
	for _, s := range stmts {
		outs = append(outs, s.Pat...)
		if isSOAC(s.Exp) {
			r.t.CPUStatements++
		}
		if why, ok := r.l.mod.fallback[s]; ok {
			r.note(fmt.Sprintf("%s ran on the CPU: %s", expName(s.Exp), why))
		} else if isSOAC(s.Exp) {
			r.note(fmt.Sprintf("%s ran on the CPU", expName(s.Exp)))
		}
	}
	if r.b.opts.Fallback == nil {
		return fmt.Errorf("gpu: %s at %v needs the CPU backend, and none was given", expName(stmts[0].Exp), stmts[0].Pos)
	}
	args := make([]eval.Value, len(fs.order))
	for i, v := range fs.order {
		hv, err := r.host(v, env)
		if err != nil {
			return err
		}
		hv.Dev = nil // the fallback sees plain host values
		args[i] = hv
	}
	res := make([]core.Atom, len(outs))
	for i, v := range outs {
		res[i] = v
	}
	fn := &core.Fun{Name: fallbackName, Params: fs.order, Ret: core.TypesOf(outs),
		Body: &core.Body{Stmts: stmts, Result: res}, Pos: stmts[0].Pos}
	prog := &core.Program{Funs: append(append([]*core.Fun(nil), r.prog.Funs...), fn)}
	var sub eval.Timings
	vals, err := r.b.opts.Fallback.Run(r.ctx, prog, fallbackName, args, &sub)
	r.t.Run += sub.Run
	r.t.Kernels = append(r.t.Kernels, sub.Kernels...)
	for _, n := range sub.Notes {
		r.note(n)
	}
	if err != nil {
		return err
	}
	if len(vals) != len(outs) {
		return fmt.Errorf("internal error: fallback returned %d values for %d variables", len(vals), len(outs))
	}
	for i, v := range outs {
		env[v.Name] = vals[i]
	}
	return nil
}

// xfer records a host<->device copy of n bytes that began at start.
func (r *run) xfer(dir string, n int64, start time.Time) {
	d := time.Since(start)
	r.t.Transfer += d
	r.t.Transfers = append(r.t.Transfers, eval.TransferTiming{Dir: dir, Bytes: n, Time: d})
}

func (r *run) note(n string) {
	if !r.notes[n] {
		r.notes[n] = true
		r.t.Notes = append(r.t.Notes, n)
	}
}

func isSOAC(e core.Exp) bool {
	switch e.(type) {
	case *core.Screma, *core.Hist, *core.Scatter, *core.Filter, *core.Segmented, *core.MultiScan:
		return true
	}
	return false
}

// checkError reads the device error flag after a kernel and turns a failed
// check into a positioned error.
func (r *run) checkError() error {
	r.pending = false
	// Word 0 holds the failed check's code (an int in its low half); an
	// index check adds its indices and shape in the words after it.
	var buf [errWords]int64
	start := time.Now()
	err := r.b.g.DtoH(unsafe.Pointer(&buf[0]), r.b.errFlag, int64(8*len(buf)))
	r.xfer("DtoH", int64(8*len(buf)), start)
	if err != nil {
		return err
	}
	code := int32(uint32(buf[0]))
	if code == 0 {
		return nil
	}
	if err := r.b.g.Memset(r.b.errFlag, 0, errBytes); err != nil {
		return err
	}
	sites := r.l.mod.sites
	if int(code) > len(sites) || code < 0 {
		return fmt.Errorf("internal error: gpu: unknown check %d failed", code)
	}
	s := sites[code-1]
	if s.Slice != nil {
		var idx, shape strings.Builder
		for k, sl := range s.Slice {
			if k > 0 {
				idx.WriteString(", ")
			}
			switch {
			case k >= maxDetail:
				idx.WriteString("?")
			case sl:
				idx.WriteString(s.Omit[k].SliceText(buf[1+k], buf[1+2*maxDetail+k], buf[1+3*maxDetail+k]))
			default:
				fmt.Fprintf(&idx, "%d", buf[1+k])
			}
		}
		for q := 0; q < s.Rank; q++ {
			if q < maxDetail {
				fmt.Fprintf(&shape, "[%d]", buf[1+maxDetail+q])
			} else {
				shape.WriteString("[?]")
			}
		}
		return source.Errorf(s.Pos, "Index [%s] out of bounds for array of shape %s.", idx.String(), shape.String())
	}
	if s.Assert != nil && len(s.Assert.Args) > 0 {
		vals := make([]string, min(len(s.Assert.Args), errWords-1))
		for i := range vals {
			vals[i] = fmt.Sprint(buf[1+i])
		}
		return source.Errorf(s.Pos, "%s", s.Assert.Message(vals))
	}
	if s.Rank > 0 {
		var idx, shape strings.Builder
		for i := 0; i < s.Rank && i < maxDetail; i++ {
			if i > 0 {
				idx.WriteString(", ")
			}
			fmt.Fprintf(&idx, "%d", buf[1+i])
			fmt.Fprintf(&shape, "[%d]", buf[1+maxDetail+i])
		}
		return source.Errorf(s.Pos, "Index [%s] out of bounds for array of shape %s.", idx.String(), shape.String())
	}
	return source.Errorf(s.Pos, "%s", s.Msg)
}

// errBytes is the size of the error flag and its detail words.
const errBytes = 8 * errWords

// errWords is the flag's i64 words: the code, then up to 4*maxDetail
// values of the failed check (errSite says which).
const errWords = 1 + 4*maxDetail

// Upload copies the host arrays among vs to the device and returns them
// with their device copies attached (eval.Uploader); scalars and arrays
// already there are returned as they are.
func (b *Backend) Upload(ctx context.Context, vs []eval.Value, t *eval.Timings) ([]eval.Value, error) {
	out := make([]eval.Value, len(vs))
	for i, v := range vs {
		out[i] = v
		if len(v.Shape) == 0 || v.Dev != nil || v.Data == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d, err := newDevArray(b.g, v.Elem, v.Len())
		if err != nil {
			return nil, err
		}
		start := time.Now()
		err = b.g.HtoD(d.ptr(), slicePtr(v.Data), d.bytes)
		el := time.Since(start)
		t.Transfer += el
		t.Transfers = append(t.Transfers, eval.TransferTiming{Dir: "HtoD", Bytes: d.bytes, Time: el})
		if err != nil {
			d.Free()
			return nil, err
		}
		out[i].Dev = d
	}
	return out, nil
}

// CopyBandwidth times a device-to-device copy of n bytes by CUDA events
// (the best of a few) and returns bytes read plus written per second
// (eval.CopyBandwidther).
func (b *Backend) CopyBandwidth(n int64) (float64, error) {
	src, err := b.g.Alloc(n)
	if err != nil {
		return 0, err
	}
	defer b.g.Free(src)
	dst, err := b.g.Alloc(n)
	if err != nil {
		return 0, err
	}
	defer b.g.Free(dst)
	if err := b.g.DtoD(dst, src, n); err != nil {
		return 0, err
	}
	best := time.Duration(0)
	for range 5 {
		d, err := b.g.TimeDtoD(dst, src, n, 4)
		if err != nil {
			return 0, err
		}
		if best == 0 || d < best {
			best = d
		}
	}
	return float64(2*n) / best.Seconds(), nil
}

var (
	_ eval.Uploader        = (*Backend)(nil)
	_ eval.CopyBandwidther = (*Backend)(nil)
)
