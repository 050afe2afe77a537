package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arepl/arepl/fusion"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/lower"
	"github.com/arepl/arepl/lang/modules"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// The Session is the pipeline of docs/design.md, readable top to bottom in
// evalExpr: parse, check, lower, fuse, run. Everything a REPL line or a
// notebook cell declares lives in an immutable types.Env plus a table of
// values, and both are replaced only when an input succeeds, so a failed
// input leaves the session as it was.
//
// Names are lexical, as in Futhark: every binding is its own
// *types.Object, the checker resolves each use to the object in scope
// where the use is written, and the value table is keyed by object, not
// by name. Redefining n therefore shadows it for later inputs only; a
// function declared before still sees the n it was written against. The
// objects are identities, never names: lowering names the parameters of
// the programs it makes after the source names, so generated code does
// not depend on how often a name was rebound.

// Options configure a Session.
type Options struct {
	Backend string // "auto" (default), "cpu" or "gpu"
	Fusion  bool   // run the fusion passes
	// Deterministic asks backends whose float results can depend on timing
	// for a fixed combination order (OrderSetter); off by default.
	Deterministic bool
	// CPU is the reference backend; it must be set (package eval/backends
	// builds sessions with both backends wired).
	CPU Backend
	// GPU, when set, creates the GPU backend on first use (creating a CUDA
	// context costs a fraction of a second, so it is off the start-up path).
	GPU func() (Backend, error)
	// CUDA, when set, renders a program as the CUDA the GPU backend would
	// compile for it (`:kernel`); it needs no GPU.
	CUDA func(*core.Program) (string, error)
	// Memory, when positive, sets the memory budget in bytes (see
	// Reserve; the budget is the process's).
	Memory int64
	// GPUMinElements is the work below which auto runs on the CPU (see
	// autoChoice); 0 means DefaultGPUMinElements, a negative number never.
	GPUMinElements int64
	// GPUPlan, when set, describes how a program's statements run on the
	// GPU, for plans (fusion.Plan.GPU).
	GPUPlan func(*core.Program) ([]string, error)
	// Devices, when set, creates the backend that shards arrays over the
	// devices spec names ("all", "0,1", "sim:3": see eval/backends);
	// DeviceSpec, when not empty, makes that the GPU backend from the
	// start, and ShardMin is its sharding threshold in elements (0: the
	// default). `:backend gpu SPEC` switches to it later.
	Devices    func(spec string) (Backend, error)
	DeviceSpec string
	ShardMin   int64
}

// Session holds the declarations and values of one REPL or notebook across
// inputs.
type Session struct {
	mu     sync.Mutex
	opts   Options
	env    *types.Env
	values map[*types.Object][]Value // the session values, by binding
	loaded string                    // last file given to Load
	// files holds the text of every input and loaded file by name, so a
	// run-time error can quote its source line like a static one.
	files map[string]*source.File

	gpu     Backend
	gpuErr  error
	gpuOnce sync.Once   // creates gpu (or sets gpuErr), at first use or by Prewarm
	gpuDone atomic.Bool // gpuOnce has finished

	calls map[callKey]compiledCall // Call's compiled programs
	mods  *modules.Elaborator      // the module system's top level (modules.go)
}

// Close lets the session's GPU backend finish: a tiered compile running in
// the background completes and its optimised module reaches the disk cache
// (eval/gpu's tier.go), and queued ones are dropped. The session must not be
// used afterwards. It does nothing when no GPU backend was made.
func (s *Session) Close() {
	if !s.gpuDone.Load() || s.gpu == nil {
		return
	}
	if c, ok := s.gpu.(interface{ Close() }); ok {
		c.Close()
	}
}

// Result is the outcome of one input.
type Result struct {
	// Decls names what a declaration input declared, in order; empty for an
	// expression.
	Decls []string
	// Type is an expression's source type (nil for declarations).
	Type types.Type
	// Values is an expression's value, flat (tuple of arrays).
	Values []Value
	// Timings is what the input cost.
	Timings Timings
	// Plan is the fusion plan of an expression (nil when fusion is off).
	Plan *fusion.Plan
}

// Name is something in scope, for completion and inspection.
type Name struct {
	Name string
	Kind NameKind
	Type string // rendered source type
	Doc  string // one-line description
}

// NameKind says where a name comes from.
type NameKind int

const (
	UserName    NameKind = iota // declared in this session
	BuiltinName                 // map, reduce, iota, ...
	ModuleName                  // i32.max, f64.sqrt, ...
)

// NewSession returns an empty session.
func NewSession(opts Options) *Session {
	if opts.Backend == "" {
		opts.Backend = "auto"
	}
	if opts.Memory > 0 {
		SetMemoryLimit(opts.Memory)
	}
	return &Session{opts: opts, env: types.NewEnv(), values: map[*types.Object][]Value{}, files: map[string]*source.File{}}
}

// Eval evaluates one input: one or more declarations (`def`, `let x = e` at
// top level, `entry`) or an expression. name is used in positions (e.g.
// "[3]" for REPL input 3). Static errors are source.ErrorList, run-time
// errors *source.Error; the session is unchanged by a failed input.
func (s *Session) Eval(ctx context.Context, name, src string) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	file := source.NewFile(name, src)
	in, err := syntax.ParseInput(file)
	if err != nil && syntax.IsIncomplete(err) {
		if decls, ok := letPattern(src); ok {
			file = source.NewFile(name, decls)
			in, err = syntax.ParseInput(file)
		}
	}
	// The syntax parse is the parse stage's first half (the type check is
	// its second): left out, it showed as "other", a tenth of a seen
	// expression's host time.
	parse := time.Since(start)
	s.files[name] = file
	if err != nil {
		return nil, err
	}
	var res *Result
	if in.Expr != nil {
		var x syntax.Expr
		if x, err = s.moduleExpr(in.Expr); err == nil {
			res, err = s.evalExpr(ctx, file, s.env, x)
		}
	} else {
		res, err = s.declareModular(ctx, file, in.Decls)
	}
	if res != nil {
		res.Timings.Parse += parse
		res.Timings.Total = time.Since(start)
	}
	return res, err
}

// evalExpr is the whole pipeline for one expression.
func (s *Session) evalExpr(ctx context.Context, file *source.File, env *types.Env, x syntax.Expr) (*Result, error) {
	c, err := s.compile(file, env, x)
	if err != nil {
		return nil, err
	}
	return s.run(ctx, c, c.timings)
}

// compiled is an expression checked, lowered and (with fusion on) fused:
// all that is left is to run it on the values its params name.
type compiled struct {
	typ     types.Type
	prog    *core.Program
	params  []lower.Param
	plan    *fusion.Plan
	timings Timings       // what the steps above cost, and their notes
	half    *core.Program // prog before WidenHalf (half.go), when it has f16
}

// compile checks, lowers and fuses an expression.
func (s *Session) compile(file *source.File, env *types.Env, x syntax.Expr) (*compiled, error) {
	mark := time.Now()
	typ, info, err := env.CheckExpr(file, x)
	parse := time.Since(mark)
	if err != nil {
		return nil, err
	}
	if types.IsFunction(typ) {
		return nil, source.Errorf(x.Span().Start, "cannot evaluate a function of type %s: apply it to arguments", typ)
	}
	c, err := s.compileChecked(env, x, typ, info)
	if c != nil {
		c.timings.Parse = parse
	}
	return c, err
}

// compileChecked lowers and fuses a checked expression of type typ.
func (s *Session) compileChecked(env *types.Env, x syntax.Expr, typ types.Type, info *types.Info) (*compiled, error) {
	c := &compiled{}
	t := &c.timings
	mark := time.Now()
	prog, params, err := lower.Expr(env, x, info)
	t.Lower = time.Since(mark)
	if err != nil {
		return nil, err
	}

	if s.opts.Fusion {
		mark = time.Now()
		fused, plan, err := fusion.Fuse(prog)
		t.Fuse = time.Since(mark)
		if err != nil {
			// Fusion only rearranges work: an internal error in it must not
			// cost the user the result, so run unfused and say so.
			t.Notes = append(t.Notes, "ran unfused: "+err.Error())
		} else {
			prog, c.plan = fused, plan
		}
	}
	c.typ, c.prog, c.params = typ, prog, params
	if wide := WidenHalf(prog); wide != prog {
		c.prog, c.half = wide, prog
	}
	return c, nil
}

// run runs a compiled expression on the session's values; t starts the
// result's timings.
func (s *Session) run(ctx context.Context, c *compiled, t Timings) (*Result, error) {
	t.Notes = append([]string(nil), t.Notes...) // the backend adds to them, not to c's
	res := &Result{Type: c.typ, Plan: c.plan, Timings: t}
	var args []Value
	for _, p := range c.params {
		vals, ok := s.values[p.Obj]
		if !ok {
			return nil, fmt.Errorf("internal error: the session holds no value for %s", p.Name)
		}
		args = append(args, vals...)
	}
	args = widenArgs(args)
	backend, err := s.backend(&res.Timings, c.prog, args)
	if err != nil {
		return nil, err
	}
	res.Timings.Backend = backend.Name()
	vals, err := runGuarded(ctx, backend, c.prog, args, &res.Timings)
	if err != nil {
		return nil, s.quote(err)
	}
	if c.half != nil {
		vals = narrowResults(c.half, "main", vals)
	}
	res.Values = vals
	return res, nil
}

// quote fills in the source line of a run-time error, which backends
// report with a position only.
func (s *Session) quote(err error) error {
	e, ok := err.(*source.Error)
	if !ok || e.Line != "" {
		return err
	}
	if f, ok := s.files[e.Pos.File]; ok {
		q := *e
		q.Line = f.Line(e.Pos.Line)
		return &q
	}
	return err
}

// runGuarded runs main of prog and turns a panic in a backend into an
// error, so that no input can take the REPL or the kernel down.
func runGuarded(ctx context.Context, b Backend, prog *core.Program, args []Value, t *Timings) (vals []Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in the %s backend: %v", b.Name(), r)
		}
	}()
	mark := time.Now()
	vals, err = b.Run(ctx, prog, "main", args, t)
	if t.Run == 0 {
		t.Run = time.Since(mark)
	}
	return vals, err
}

// backend picks the backend for the next evaluation and gives it the
// session's determinism setting.
func (s *Session) backend(t *Timings, prog *core.Program, args []Value) (Backend, error) {
	b, err := s.pickBackend(t, prog, args)
	if o, ok := b.(OrderSetter); ok && err == nil {
		o.SetDeterministic(s.opts.Deterministic)
	}
	return b, err
}

func (s *Session) pickBackend(t *Timings, prog *core.Program, args []Value) (Backend, error) {
	switch s.opts.Backend {
	case "cpu":
		return s.opts.CPU, nil
	case "gpu":
		return s.gpuBackend()
	}
	if s.opts.GPU != nil {
		// Small work stays on the CPU without touching the GPU (whose
		// context, if not yet made, costs a fraction of a second).
		min := s.opts.GPUMinElements
		if min == 0 {
			min = DefaultGPUMinElements
		}
		if gpu, why := autoChoice(prog, args, min); !gpu {
			if !s.gpuDone.Load() || s.gpuErr == nil {
				t.Why = why
			}
			return s.opts.CPU, nil
		}
	}
	if s.opts.GPU != nil {
		if b, err := s.gpuBackend(); err == nil {
			return b, nil
		}
	}
	return s.opts.CPU, nil
}

// deviceBackend is the backend the setting names, for "auto" the GPU when
// one opens (small inputs still run on the CPU: see pickBackend).
func (s *Session) deviceBackend() (Backend, error) {
	switch s.opts.Backend {
	case "cpu":
		return s.opts.CPU, nil
	case "gpu":
		return s.gpuBackend()
	}
	if s.opts.GPU != nil {
		if b, err := s.gpuBackend(); err == nil {
			return b, nil
		}
	}
	return s.opts.CPU, nil
}

func (s *Session) gpuBackend() (Backend, error) {
	s.gpuOnce.Do(func() {
		if s.opts.GPU == nil {
			s.gpuErr = errors.New("no GPU: this session was built without a GPU backend")
		} else {
			s.gpu, s.gpuErr = s.opts.GPU()
		}
		s.gpuDone.Store(true)
	})
	return s.gpu, s.gpuErr
}

// Settle waits for the GPU backend's background work, if it has any
// (Settler): `arepl bench` calls it so that it never times a module
// compiled fast.
func (s *Session) Settle(ctx context.Context) error {
	if !s.gpuDone.Load() {
		return nil
	}
	if st, ok := s.gpu.(Settler); ok {
		return st.Settle(ctx)
	}
	return nil
}

// Prewarm creates the GPU backend in the background, unless the backend
// is "cpu": the CUDA context and NVRTC's first compile cost a few hundred
// milliseconds that an interactive front end can spend while its user
// types, instead of on the first input that needs the GPU. Inputs that
// need the GPU before it is ready wait for it.
func (s *Session) Prewarm() {
	if s.opts.Backend == "cpu" || s.opts.GPU == nil {
		return
	}
	go s.gpuBackend()
}

// declare checks declarations and evaluates the constants among them;
// functions stay declarations that lowering inlines where they are used.
//
// Each declaration is evaluated as the object the checker made for it, not
// by looking its name up, so a file or input that declares a name twice
// evaluates both declarations, each in its own scope. A constant's value
// replaces its declaration in the environment (later inputs use the value
// instead of recomputing it) only where no later declaration of the input
// shadows the name.
func (s *Session) declare(ctx context.Context, file *source.File, decls []syntax.Decl) (*Result, error) {
	res := &Result{}
	mark := time.Now()
	env, info, err := s.env.CheckDecls(file, decls)
	res.Timings.Parse = time.Since(mark)
	if err != nil {
		return nil, err
	}
	values := map[*types.Object][]Value{}
	// Only a name bound before can leave values unreachable (as in Keep):
	// walking every declaration's uses, 700 names with the prelude's, is
	// skipped for an input that declares only new names.
	shadows := false
	for _, d := range decls {
		if vd, ok := d.(*syntax.ValDecl); ok {
			if _, bound := s.env.Lookup(vd.Name); bound {
				shadows = true
			}
		}
	}
	for _, d := range decls {
		vd, ok := d.(*syntax.ValDecl)
		if !ok {
			if td, ok := d.(*syntax.TypeDecl); ok {
				res.Decls = append(res.Decls, td.Name)
				continue
			}
			return nil, fmt.Errorf("internal error: unknown declaration %T", d)
		}
		res.Decls = append(res.Decls, vd.Name)
		obj := info.Binds[vd]
		if obj == nil {
			return nil, fmt.Errorf("internal error: declaration of %s has no object", vd.Name)
		}
		if len(vd.Params) > 0 || len(vd.SizeParams) > 0 || types.IsFunction(obj.Type) {
			continue
		}
		r, err := s.evalObject(ctx, env, vd, obj)
		if err != nil {
			return nil, err
		}
		addTimings(&res.Timings, &r.Timings)
		if cur, ok := env.Lookup(vd.Name); !ok || cur != obj {
			continue // shadowed later in this input: nothing can name it
		}
		env = env.BindValue(vd.Name, obj.Type)
		held, _ := env.Lookup(vd.Name)
		values[held] = r.Values
	}
	s.env = env
	for k, v := range values {
		s.values[k] = v
	}
	if shadows {
		s.dropUnreachable()
	}
	return res, nil
}

// MaxKeptBytes bounds the size of a result that Keep binds: earlier
// results are a convenience, and keeping every large array alive would
// exhaust memory in a long session.
const MaxKeptBytes = 64 << 20

// Keep binds name (`_3` for input 3, as IPython's Out[3] and _3) to an
// expression's result, so later inputs can use it. Results larger than
// MaxKeptBytes are not kept; Keep reports whether it bound the name.
func (s *Session) Keep(name string, res *Result) bool {
	if res == nil || res.Type == nil || types.IsFunction(res.Type) {
		return false
	}
	bytes := int64(0)
	for _, v := range res.Values {
		bytes += v.Len() * int64(v.Elem.Size())
	}
	if bytes > MaxKeptBytes {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, shadows := s.env.Lookup(name)
	s.env = s.env.BindValue(name, res.Type)
	obj, _ := s.env.Lookup(name)
	s.values[obj] = res.Values
	// Only a name bound before can leave values unreachable; a notebook
	// keeps a new _N after every cell, and walking every declaration's
	// uses each time cost more than evaluating a small cell.
	if shadows {
		s.dropUnreachable()
	}
	return true
}

// evalObject evaluates the constant declared by d, whose object is obj:
// an expression naming exactly that object, whatever its name means now.
func (s *Session) evalObject(ctx context.Context, env *types.Env, d *syntax.ValDecl, obj *types.Object) (*Result, error) {
	ref := &syntax.Var{At: syntax.At{Sp: d.Sp}, Name: d.Name}
	info := types.NewInfo()
	info.Uses[ref] = obj
	info.Types[ref] = obj.Type
	c, err := s.compileChecked(env, ref, obj.Type, info)
	if err != nil {
		return nil, err
	}
	return s.run(ctx, c, c.timings)
}

// dropUnreachable forgets the values that no name in scope can reach any
// more (directly, or through the declarations that use them), so that
// rebinding a large array in a REPL frees the old one.
func (s *Session) dropUnreachable() {
	live := s.env.ValuesInUse()
	for obj := range s.values {
		if !live[obj] {
			delete(s.values, obj)
		}
	}
}

func addTimings(dst, src *Timings) {
	dst.Lower += src.Lower
	dst.Fuse += src.Fuse
	dst.Compile += src.Compile
	dst.FastTier = dst.FastTier || src.FastTier
	dst.Transfer += src.Transfer
	dst.Run += src.Run
	dst.Backend = src.Backend
	dst.Kernels = append(dst.Kernels, src.Kernels...)
	dst.Notes = append(dst.Notes, src.Notes...)
	dst.CPUStatements += src.CPUStatements
}

// Load replaces the session's declarations with those of the file at path
// (futhark repl's :load) and returns the names it declared.
func (s *Session) Load(ctx context.Context, path string) ([]string, error) {
	// Bounded and cancellable: `:load /dev/zero` never ends.
	text, err := ReadFileLimited(ctx, path, MaxSourceBytes)
	if err != nil {
		return nil, err
	}
	file := source.NewFile(path, string(text))
	s.files[path] = file
	f, err := syntax.ParseFile(file)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, oldValues := s.env, s.values
	s.env, s.values = types.NewEnv(), map[*types.Object][]Value{}
	markMainEntry(f.Decls)
	res, err := s.loadModular(ctx, file, f.Decls)
	if err != nil {
		s.env, s.values = old, oldValues
		return nil, err
	}
	s.loaded = path
	return res.Decls, nil
}

// Reload loads the last file given to Load again.
func (s *Session) Reload(ctx context.Context) ([]string, error) {
	if s.loaded == "" {
		return nil, errors.New("no file has been loaded")
	}
	return s.Load(ctx, s.loaded)
}

// TypeOf type-checks an expression without evaluating it (:type).
func (s *Session) TypeOf(name, src string) (types.Type, error) {
	file := source.NewFile(name, src)
	x, err := syntax.ParseExpr(file)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if x, err = s.moduleExpr(x); err != nil {
		return nil, err
	}
	t, _, err := s.env.CheckExpr(file, x)
	return t, err
}

// Names lists every name in scope, sorted: user declarations and values,
// builtins and module functions.
func (s *Session) Names() []Name {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Name
	for _, obj := range s.env.Objects() {
		if strings.Contains(obj.Name, " ") {
			continue // lang/modules' checks of module types (modules.go)
		}
		out = append(out, nameOf(obj))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup describes one name (for Jupyter inspect); qualified names work.
func (s *Session) Lookup(name string) (Name, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	obj, ok := s.env.Lookup(name)
	if !ok {
		return Name{}, false
	}
	return nameOf(obj), true
}

func nameOf(obj *types.Object) Name {
	n := Name{Name: obj.Name, Doc: obj.Doc}
	if obj.Type != nil {
		n.Type = obj.Type.String()
	}
	switch {
	case obj.Kind == types.Builtin, types.InPrelude(obj): // the prelude's functions are builtins to the user
		n.Kind = BuiltinName
	case obj.Kind == types.ModuleFun:
		n.Kind = ModuleName
	default:
		n.Kind = UserName
	}
	return n
}

// ParamTypes returns the parameter types of a top-level function (or entry
// point, point-free ones included) and its result type.
func (s *Session) ParamTypes(fn string) ([]types.Type, types.Type, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	obj, ok := s.env.Lookup(fn)
	if !ok {
		return nil, nil, s.unknownEntry(fn)
	}
	var params []types.Type
	t := obj.Type
	for {
		a, ok := t.(*types.Arrow)
		if !ok {
			break
		}
		params = append(params, a.Param)
		t = a.Ret
	}
	return params, t, nil
}

// unknownEntry is the error for an entry point fn that does not exist:
// it lists the ones that do (entry points, else functions), so the user
// can pick one with -e.
func (s *Session) unknownEntry(fn string) error {
	var entries, funs []string
	for _, obj := range s.env.Objects() {
		if obj.Decl == nil || types.InPrelude(obj) {
			continue
		}
		if obj.Decl.Kind == syntax.KindEntry {
			entries = append(entries, obj.Name)
		} else if types.IsFunction(obj.Type) {
			funs = append(funs, obj.Name)
		}
	}
	list := entries
	if len(list) == 0 {
		list = funs
	}
	if len(list) == 0 {
		return fmt.Errorf("unknown entry point %q: the file declares no functions", fn)
	}
	sort.Strings(list)
	return fmt.Errorf("unknown entry point %q (choose one with -e: %s)", fn, strings.Join(list, ", "))
}

// Call applies the entry point or function fn to argument values (for
// `arepl run`, `arepl test`, `arepl bench`); each argument is the flat
// values of one parameter (see ParamTypes).
func (s *Session) Call(ctx context.Context, fn string, args [][]Value) (*Result, error) {
	params, _, err := s.ParamTypes(fn)
	if err != nil {
		return nil, err
	}
	if len(args) != len(params) {
		return nil, fmt.Errorf("%s takes %d arguments, got %d", fn, len(params), len(args))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// A call of the same entry point in the same environment compiles to
	// the same program: compile it once (benchmarks and notebooks call
	// entry points over and over).
	key := callKey{fn: fn, fusion: s.opts.Fusion}
	cc, ok := s.calls[key]
	fresh := !ok || cc.env != s.env
	if fresh {
		cc, err = s.compileCall(fn, params)
		if err != nil {
			return nil, err
		}
		if s.calls == nil {
			s.calls = map[callKey]compiledCall{}
		}
		s.calls[key] = cc
	}
	t := Timings{Notes: cc.timings.Notes}
	if fresh {
		t = cc.timings // what compiling it cost
	}
	// The arguments are session values for the length of the call.
	for i, obj := range cc.args {
		s.values[obj] = args[i]
	}
	defer func() {
		for _, obj := range cc.args {
			delete(s.values, obj)
		}
	}()
	return s.run(ctx, cc.compiled, t)
}

// compileCall compiles `fn a0 a1 ...` where each argument is a session
// value of its parameter's type.
func (s *Session) compileCall(fn string, params []types.Type) (compiledCall, error) {
	env := s.env
	call := []string{fn}
	args := make([]*types.Object, len(params))
	for i, p := range params {
		name := fmt.Sprintf("arepl_arg%d_", i)
		env = env.BindValue(name, p)
		args[i], _ = env.Lookup(name)
		call = append(call, name)
	}
	file := source.NewFile("<call "+fn+">", strings.Join(call, " "))
	x, err := syntax.ParseExpr(file)
	if err != nil {
		return compiledCall{}, err
	}
	c, err := s.compile(file, env, x)
	if err != nil {
		return compiledCall{}, err
	}
	return compiledCall{env: s.env, args: args, compiled: c}, nil
}

// Upload moves argument values (as Call takes them) to the memory of the
// backend that would run them, where it has one (Uploader), so that calls
// over them move nothing; arepl bench uploads once and times the runs
// alone. Values stay as they are on a backend without memory of its own.
func (s *Session) Upload(ctx context.Context, args [][]Value) ([][]Value, Timings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t Timings
	var flat []Value
	for _, vs := range args {
		flat = append(flat, vs...)
	}
	b, err := s.pickBackend(&t, &core.Program{}, flat)
	if err != nil {
		return nil, t, err
	}
	t.Backend = b.Name()
	u, ok := b.(Uploader)
	if !ok {
		return args, t, nil
	}
	out := make([][]Value, len(args))
	for i, vs := range args {
		if out[i], err = u.Upload(ctx, widenArgs(vs), &t); err != nil {
			return nil, t, err
		}
	}
	return out, t, nil
}

// CopyBandwidth measures the bandwidth of a device-to-device copy of n
// bytes on the session's GPU (bytes read plus written per second); ok is
// false without one.
func (s *Session) CopyBandwidth(n int64) (gbps float64, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.Backend == "cpu" || s.opts.GPU == nil {
		return 0, false, nil
	}
	b, err := s.gpuBackend()
	if err != nil {
		return 0, false, nil
	}
	c, ok := b.(CopyBandwidther)
	if !ok {
		return 0, false, nil
	}
	bw, err := c.CopyBandwidth(n)
	return bw / 1e9, err == nil, err
}

// callKey and compiledCall are Call's cache: the compiled call of an entry
// point, valid while the session's environment is env (a declaration
// replaces the environment, and so retires every entry).
type callKey struct {
	fn     string
	fusion bool
}

type compiledCall struct {
	env  *types.Env
	args []*types.Object // the arguments' bindings, in order
	*compiled
}

// SetBackend selects "auto", "cpu" or "gpu" for later inputs; "gpu" fails
// with the reason when there is no usable GPU.
func (s *Session) SetBackend(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if base, spec, ok := strings.Cut(name, " "); ok && base == "gpu" {
		return s.setDevices(strings.TrimSpace(spec))
	}
	switch name {
	case "auto", "cpu":
	case "gpu":
		if _, err := s.gpuBackend(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown backend %q (want auto, cpu or gpu)", name)
	}
	s.opts.Backend = name
	return nil
}

// setDevices makes the multi-device backend for spec the GPU backend.
func (s *Session) setDevices(spec string) error {
	if s.opts.Devices == nil {
		return errors.New("this session has no multi-device backend")
	}
	b, err := s.opts.Devices(spec)
	if err != nil {
		return err
	}
	s.gpuOnce.Do(func() {})
	s.gpu, s.gpuErr = b, nil
	s.gpuDone.Store(true)
	s.opts.Backend = "gpu"
	return nil
}

// Backend names the backend setting ("auto", "cpu" or "gpu").
func (s *Session) Backend() string { return s.opts.Backend }

// deviceDescriber is a backend that can name its device.
type deviceDescriber interface{ Device() string }

// BackendDescription says which backend runs inputs and, for "auto", why:
// "auto: cpu (no GPU: libcuda.so.1 not found)" or "auto: gpu (NVIDIA
// H100 ...)". For "auto" and "gpu" it opens the GPU if it is not open yet.
func (s *Session) BackendDescription() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.deviceBackend()
	if err != nil || b == nil {
		return s.opts.Backend
	}
	what := b.Name()
	if d, ok := b.(deviceDescriber); ok {
		what += " (" + d.Device() + ")"
	} else if s.opts.Backend == "auto" {
		why := "no GPU backend in this build"
		if s.gpuErr != nil {
			// The first clause: "no GPU: libcuda.so.1 not found", not the
			// loader's details after it.
			why, _, _ = strings.Cut(s.gpuErr.Error(), " (")
		}
		what += " (" + why + ")"
	}
	if s.opts.Backend == "auto" {
		return "auto: " + what
	}
	return what
}

// SetFusion turns the fusion passes on or off for later inputs.
func (s *Session) SetFusion(on bool) { s.opts.Fusion = on }

// Fusion reports whether fusion is on.
func (s *Session) Fusion() bool { return s.opts.Fusion }

// SetDeterministic selects a fixed combination order for float scans on
// the GPU (see OrderSetter) for later inputs.
func (s *Session) SetDeterministic(on bool) { s.opts.Deterministic = on }

// Deterministic reports whether the fixed combination order is on.
func (s *Session) Deterministic() bool { return s.opts.Deterministic }

// IsIncomplete reports whether src is an unfinished input that a REPL
// should continue on the next line, as the parser signals.
func IsIncomplete(src string) bool {
	_, err := syntax.ParseInput(source.NewFile("<input>", src))
	if err != nil && syntax.IsIncomplete(err) {
		_, isDecl := letPattern(src)
		return !isDecl
	}
	return false
}

// letPattern recognises a top-level `let (a, b) = e` with no `in`, which
// the grammar reads as the start of a let-expression: as in futhark repl
// it declares a and b. It returns declarations that do so, e evaluated
// once into a tuple named after the names (arepl_tuple_a_b) whose
// components they are. Only a tuple of plain names (or _) is handled.
func letPattern(src string) (string, bool) {
	in, err := syntax.ParseInput(source.NewFile("<input>", src+"\nin ()"))
	if err != nil || in.Expr == nil {
		return "", false
	}
	let, ok := in.Expr.(*syntax.LetIn)
	if !ok {
		return "", false
	}
	if body, ok := let.Body.(*syntax.TupleExpr); !ok || len(body.Elems) != 0 || !body.Span().Start.IsValid() ||
		body.Span().Start.Line != strings.Count(src, "\n")+2 {
		return "", false // the `in ()` added is not the body of this let
	}
	tp, ok := let.Pat.(*syntax.TuplePat)
	if !ok || len(tp.Elems) < 2 {
		return "", false
	}
	names := make([]string, len(tp.Elems))
	for i, p := range tp.Elems {
		switch p := p.(type) {
		case *syntax.IdPat:
			names[i] = p.Name
		case *syntax.WildPat:
		default:
			return "", false
		}
	}
	val := let.Val.Span()
	lines := strings.Split(src, "\n")
	if !val.Start.IsValid() || !val.End.IsValid() || val.End.Line > len(lines) {
		return "", false
	}
	var text strings.Builder
	for l := val.Start.Line; l <= val.End.Line; l++ {
		line := lines[l-1]
		from, to := 0, len(line)
		if l == val.Start.Line {
			from = min(val.Start.Col-1, len(line))
		}
		if l == val.End.Line {
			to = min(val.End.Col-1, len(line))
		}
		if l > val.Start.Line {
			text.WriteByte('\n')
		}
		text.WriteString(line[from:max(from, to)])
	}
	tuple := "arepl_tuple"
	for _, n := range names {
		tuple += "_" + n
	}
	decls := "def " + tuple + " = " + text.String()
	for i, n := range names {
		if n != "" {
			decls += fmt.Sprintf("\ndef %s = %s.%d", n, tuple, i)
		}
	}
	return decls, true
}

// Compiled is an expression taken through the pipeline up to, but not
// including, running it: what `:plan` and `:kernel` show.
type Compiled struct {
	Type    types.Type
	Unfused *core.Program
	Program *core.Program // fused when fusion is on
	// Plan is what fusion did; with fusion off, the SOACs of the program
	// as it runs, unfused (the same before and after).
	Plan *fusion.Plan
}

// Compile parses, checks, lowers and fuses an expression without running it.
func (s *Session) Compile(name, src string) (*Compiled, error) {
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	return s.compileIn(env, name, src)
}

func (s *Session) compileIn(env *types.Env, name, src string) (*Compiled, error) {
	file := source.NewFile(name, src)
	x, err := syntax.ParseExpr(file)
	if err == nil {
		x, err = s.moduleExpr(x)
	}
	if err != nil {
		return nil, err
	}
	typ, info, err := env.CheckExpr(file, x)
	if err != nil {
		return nil, err
	}
	prog, _, err := lower.Expr(env, x, info)
	if err != nil {
		return nil, err
	}
	c := &Compiled{Type: typ, Unfused: prog, Program: prog}
	if !s.opts.Fusion {
		c.Plan = &fusion.Plan{Before: fusion.Kernels(prog), After: fusion.Kernels(prog)}
	} else {
		fused, plan, err := fusion.Fuse(prog)
		if err != nil {
			return nil, err
		}
		c.Plan, c.Program = plan, fused
	}
	c.Plan.SetNames(c.Unfused, c.Program, declsNames(env, x))
	c.Program = WidenHalf(c.Program) // what runs
	return c, nil
}

// CUDA returns the CUDA source the GPU backend generates for a compiled
// expression.
func (s *Session) CUDA(c *Compiled) (string, error) {
	if s.opts.CUDA == nil {
		return "", errors.New("this build has no GPU code generator")
	}
	return s.opts.CUDA(c.Program)
}

// AddGPUPlan fills c.Plan.GPU: how each statement runs on the GPU (no GPU
// needed). Plans ask for it; ordinary evaluation does not pay for it.
func (s *Session) AddGPUPlan(c *Compiled) error {
	if s.opts.GPUPlan == nil || c.Plan == nil {
		return nil
	}
	lines, err := s.opts.GPUPlan(c.Program)
	if err != nil {
		return err
	}
	c.Plan.GPU = lines
	return nil
}

// CompileCall compiles an application of the entry point or function fn to
// arguments of its parameter types, without values (`arepl plan`).
func (s *Session) CompileCall(fn string) (*Compiled, error) {
	params, _, err := s.ParamTypes(fn)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	env := s.env
	call := []string{fn}
	var decl *syntax.ValDecl
	if obj, ok := env.Lookup(fn); ok {
		decl = obj.Decl
	}
	for i, p := range params {
		// Name the arguments as the parameters, so plans name the arrays
		// the way the program does.
		name := fmt.Sprintf("arepl_arg%d_", i)
		if decl != nil && i < len(decl.Params) {
			if n := patName(decl.Params[i]); n != "" && n != fn {
				if _, taken := env.Lookup(n); !taken {
					name = n
				}
			}
		}
		env = env.BindValue(name, p)
		call = append(call, name)
	}
	s.mu.Unlock()
	return s.compileIn(env, "<plan "+fn+">", strings.Join(call, " "))
}

// patName is the name a parameter pattern binds, if it binds one.
func patName(p syntax.Pat) string {
	switch p := p.(type) {
	case *syntax.IdPat:
		return p.Name
	case *syntax.AscribedPat:
		return patName(p.Pat)
	}
	return ""
}

// SetMemory sets the memory budget in bytes (:set memory); n <= 0 restores
// the default. The budget bounds the process's heap, so it is shared by
// every session of the process.
func (s *Session) SetMemory(n int64) { SetMemoryLimit(n) }

// Memory is the memory budget in bytes.
func (s *Session) Memory() int64 { return MemoryLimit() }
