package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/arepl/arepl/fusion"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/lower"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// The Session is the pipeline of DESIGN.md, readable top to bottom in
// evalExpr: parse, check, lower, fuse, run. Everything a REPL line or a
// notebook cell declares lives in an immutable types.Env plus a table of
// values, and both are replaced only when an input succeeds, so a failed
// input leaves the session as it was.

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
}

// Session holds the declarations and values of one REPL or notebook across
// inputs.
type Session struct {
	mu     sync.Mutex
	opts   Options
	env    *types.Env
	values map[string][]Value
	loaded string // last file given to Load
	// files holds the text of every input and loaded file by name, so a
	// run-time error can quote its source line like a static one.
	files map[string]*source.File

	gpu    Backend
	gpuErr error

	calls map[callKey]compiledCall // Call's compiled programs
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
	return &Session{opts: opts, env: types.NewEnv(), values: map[string][]Value{}, files: map[string]*source.File{}}
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
	s.files[name] = file
	in, err := syntax.ParseInput(file)
	if err != nil {
		return nil, err
	}
	var res *Result
	if in.Expr != nil {
		res, err = s.evalExpr(ctx, file, s.env, in.Expr)
	} else {
		res, err = s.declare(ctx, file, in.Decls)
	}
	if res != nil {
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
	timings Timings // what the steps above cost, and their notes
}

// compile checks, lowers and fuses an expression.
func (s *Session) compile(file *source.File, env *types.Env, x syntax.Expr) (*compiled, error) {
	c := &compiled{}
	t := &c.timings

	mark := time.Now()
	typ, info, err := env.CheckExpr(file, x)
	t.Parse = time.Since(mark)
	if err != nil {
		return nil, err
	}
	if types.IsFunction(typ) {
		return nil, source.Errorf(x.Span().Start, "cannot evaluate a function of type %s: apply it to arguments", typ)
	}

	mark = time.Now()
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
	return c, nil
}

// run runs a compiled expression on the session's values; t starts the
// result's timings.
func (s *Session) run(ctx context.Context, c *compiled, t Timings) (*Result, error) {
	t.Notes = append([]string(nil), t.Notes...) // the backend adds to them, not to c's
	res := &Result{Type: c.typ, Plan: c.plan, Timings: t}
	var args []Value
	for _, p := range c.params {
		args = append(args, s.values[p.Name]...)
	}
	backend, err := s.backend(&res.Timings)
	if err != nil {
		return nil, err
	}
	res.Timings.Backend = backend.Name()
	vals, err := runGuarded(ctx, backend, c.prog, args, &res.Timings)
	if err != nil {
		return nil, s.quote(err)
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
func (s *Session) backend(t *Timings) (Backend, error) {
	b, err := s.pickBackend()
	if o, ok := b.(OrderSetter); ok && err == nil {
		o.SetDeterministic(s.opts.Deterministic)
	}
	return b, err
}

func (s *Session) pickBackend() (Backend, error) {
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
	if s.gpu == nil && s.gpuErr == nil {
		if s.opts.GPU == nil {
			s.gpuErr = errors.New("no GPU: this session was built without a GPU backend")
		} else {
			s.gpu, s.gpuErr = s.opts.GPU()
		}
	}
	return s.gpu, s.gpuErr
}

// declare checks declarations and evaluates the constants among them;
// functions stay declarations that lowering inlines where they are used.
func (s *Session) declare(ctx context.Context, file *source.File, decls []syntax.Decl) (*Result, error) {
	res := &Result{}
	mark := time.Now()
	env, _, err := s.env.CheckDecls(file, decls)
	res.Timings.Parse = time.Since(mark)
	if err != nil {
		return nil, err
	}
	values := map[string][]Value{}
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
		obj, ok := env.Lookup(vd.Name)
		if !ok || len(vd.Params) > 0 || len(vd.SizeParams) > 0 || types.IsFunction(obj.Type) {
			continue
		}
		r, err := s.evalExpr(ctx, file, env, &syntax.Var{At: syntax.At{Sp: vd.Sp}, Name: vd.Name})
		if err != nil {
			return nil, err
		}
		values[vd.Name] = r.Values
		env = env.BindValue(vd.Name, obj.Type)
		addTimings(&res.Timings, &r.Timings)
	}
	s.env = env
	for k, v := range values {
		s.values[k] = v
	}
	return res, nil
}

func addTimings(dst, src *Timings) {
	dst.Lower += src.Lower
	dst.Fuse += src.Fuse
	dst.Compile += src.Compile
	dst.Transfer += src.Transfer
	dst.Run += src.Run
	dst.Backend = src.Backend
	dst.Kernels = append(dst.Kernels, src.Kernels...)
	dst.Notes = append(dst.Notes, src.Notes...)
}

// Load replaces the session's declarations with those of the file at path
// (futhark repl's :load) and returns the names it declared.
func (s *Session) Load(ctx context.Context, path string) ([]string, error) {
	text, err := os.ReadFile(path)
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
	s.env, s.values = types.NewEnv(), map[string][]Value{}
	res, err := s.declare(ctx, file, f.Decls)
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
	switch obj.Kind {
	case types.Builtin:
		n.Kind = BuiltinName
	case types.ModuleFun:
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
		return nil, nil, fmt.Errorf("unknown entry point %q", fn)
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
	saved := map[string][]Value{}
	call := []string{fn}
	for i := range params {
		name := fmt.Sprintf("arepl_arg%d_", i)
		saved[name] = s.values[name]
		s.values[name] = args[i]
		call = append(call, name)
	}
	defer func() {
		for k, v := range saved {
			if v == nil {
				delete(s.values, k)
			} else {
				s.values[k] = v
			}
		}
	}()
	// A call of the same entry point in the same environment compiles to
	// the same program: compile it once (benchmarks and notebooks call
	// entry points over and over).
	key := callKey{fn: fn, fusion: s.opts.Fusion}
	if c, ok := s.calls[key]; ok && c.env == s.env {
		return s.run(ctx, c.compiled, Timings{Notes: c.timings.Notes})
	}
	env := s.env
	for i, p := range params {
		env = env.BindValue(call[1+i], p)
	}
	file := source.NewFile("<call "+fn+">", strings.Join(call, " "))
	x, err := syntax.ParseExpr(file)
	if err != nil {
		return nil, err
	}
	c, err := s.compile(file, env, x)
	if err != nil {
		return nil, err
	}
	if s.calls == nil {
		s.calls = map[callKey]compiledCall{}
	}
	s.calls[key] = compiledCall{env: s.env, compiled: c}
	return s.run(ctx, c, c.timings)
}

// callKey and compiledCall are Call's cache: the compiled call of an entry
// point, valid while the session's environment is env (a declaration
// replaces the environment, and so retires every entry).
type callKey struct {
	fn     string
	fusion bool
}

type compiledCall struct {
	env *types.Env
	*compiled
}

// SetBackend selects "auto", "cpu" or "gpu" for later inputs; "gpu" fails
// with the reason when there is no usable GPU.
func (s *Session) SetBackend(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
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

// Backend names the backend setting ("auto", "cpu" or "gpu").
func (s *Session) Backend() string { return s.opts.Backend }

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
	return err != nil && syntax.IsIncomplete(err)
}

// Compiled is an expression taken through the pipeline up to, but not
// including, running it: what `:plan` and `:kernel` show.
type Compiled struct {
	Type    types.Type
	Unfused *core.Program
	Program *core.Program // fused when fusion is on
	Plan    *fusion.Plan  // always computed, so :plan works with fusion off too
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
	fused, plan, err := fusion.Fuse(prog)
	if err != nil {
		return nil, err
	}
	c.Plan = plan
	if s.opts.Fusion {
		c.Program = fused
	}
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
