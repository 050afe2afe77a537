package eval

import (
	"context"
	"errors"

	"github.com/arepl/arepl/lang/types"
)

// This file is the contract the REPL, `arepl run/test/bench` and the Jupyter
// kernel program against. The pipeline behind it is wired by the lead.

// Options configure a Session.
//
// Front ends do not fill CPU/GPU themselves: package eval/backends (written
// by the lead) provides `backends.NewSession(eval.Options{Backend: "auto",
// Fusion: true})` with both backends wired in. Use that.
type Options struct {
	Backend string // "auto" (default), "cpu" or "gpu"
	Fusion  bool   // run the fusion passes (default on in the CLI)
	// CPU is the reference backend; GPU creates the GPU backend lazily.
	CPU Backend
	GPU func() (Backend, error)
}

// Session holds the declarations and values of one REPL or notebook across
// inputs, and runs each input through parse, check, lower, fuse and a
// backend.
type Session struct {
	opts Options
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

var errNotWired = errors.New("session: pipeline not wired")

// NewSession returns an empty session.
func NewSession(opts Options) *Session { return &Session{opts: opts} }

// Eval evaluates one input: one or more declarations (`def`, `let x = e` at
// top level, `entry`) or an expression. name is used in positions (e.g.
// "[3]" for REPL input 3). Static errors are source.ErrorList, run-time
// errors *source.Error; the session is unchanged by a failed input.
func (s *Session) Eval(ctx context.Context, name, src string) (*Result, error) {
	return nil, errNotWired
}

// Load replaces the session's declarations with those of the file at path
// (futhark repl's :load); Reload loads the last loaded file again.
func (s *Session) Load(ctx context.Context, path string) ([]string, error) { return nil, errNotWired }

// Reload reloads the last file given to Load.
func (s *Session) Reload(ctx context.Context) ([]string, error) { return nil, errNotWired }

// TypeOf type-checks an expression without evaluating it (:type).
func (s *Session) TypeOf(name, src string) (types.Type, error) { return nil, errNotWired }

// Names lists every name in scope: user declarations, builtins and module
// functions.
func (s *Session) Names() []Name { return nil }

// Lookup describes one name (for Jupyter inspect); qualified names work.
func (s *Session) Lookup(name string) (Name, bool) { return Name{}, false }

// Call applies the entry point or function fn to argument values (for
// `arepl run`, `arepl test`, `arepl bench`): args[i] is the flat values of
// parameter i (what ReadValues returns for one value). ParamTypes tells
// the readers what to expect.
func (s *Session) Call(ctx context.Context, fn string, args [][]Value) (*Result, error) {
	return nil, errNotWired
}

// ParamTypes returns the parameter types of a top-level function and its
// result type.
func (s *Session) ParamTypes(fn string) ([]types.Type, types.Type, error) {
	return nil, nil, errNotWired
}

// SetBackend selects "auto", "cpu" or "gpu" for later inputs.
func (s *Session) SetBackend(name string) error { return errNotWired }

// Backend names the backend in use.
func (s *Session) Backend() string { return s.opts.Backend }

// SetFusion turns the fusion passes on or off for later inputs.
func (s *Session) SetFusion(on bool) { s.opts.Fusion = on }

// Fusion reports whether fusion is on.
func (s *Session) Fusion() bool { return s.opts.Fusion }

// IsIncomplete reports whether src is an unfinished input that a REPL
// should continue on the next line (an open bracket, a trailing operator,
// `let ... in` with no body, ...), as the parser signals.
func IsIncomplete(src string) bool { return false }
