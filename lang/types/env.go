package types

import (
	_ "embed"
	"fmt"
	"sort"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// Env is the top-level environment: builtins, numeric-module names,
// checked declarations and values held by a session. An Env is never
// changed after it is made; checking returns a new one, so an input that
// fails to check leaves the session's environment as it was.
//
// Its names are two layers: flat, a map shared by every Env made from it
// and never written, and over, the few names bound since, which shadow
// flat's. Binding a name copies over only, and over is folded into a new
// flat once it holds overLimit names: a REPL `let` used to copy all ~700
// names of the builtins and the prelude (85 µs of a repeated `let zs =
// scan (+) 0 ys` on the 2-core machine, bench/RESULTS.md run 15), and now
// copies a few dozen, with the fold's cost spread over overLimit binds.
type Env struct {
	flat map[string]*Object
	over map[string]*Object
	// flatUser is flat's names whose objects are not the builtins' or the
	// prelude's, the only ones ValuesInUse need visit in flat.
	flatUser []string
	// typeDecls are the type abbreviations (`type t = ...`), a name
	// space of their own as in Futhark.
	typeDecls map[string]*syntax.TypeDecl
}

// overLimit is how many names over holds before they are folded into
// flat: a bind copies at most this many entries, a fold copies all.
const overLimit = 64

var baseNames = builtinObjects()

// preludeText is the part of Futhark's prelude written in the subset.
//
//go:embed prelude.fut
var preludeText string

// baseEnv is the builtins, the numeric modules and the prelude. The prelude
// is part of the program: a mistake in it fails every test at once.
var baseEnv = func() *Env {
	env := &Env{flat: baseNames}
	src := source.NewFile("prelude.fut", preludeText)
	file, err := syntax.ParseFile(src)
	if err != nil {
		panic("types: the prelude does not parse: " + source.Detail(err))
	}
	env, _, err = env.CheckDecls(src, file.Decls)
	if err != nil {
		panic("types: the prelude does not check: " + source.Detail(err))
	}
	for _, obj := range env.Objects() {
		preludeObjects[obj] = true
	}
	// One flat map, with no user names to visit now that the prelude's
	// objects are known.
	return env.fold(nil)
}()

// preludeObjects are the objects of the builtins and the prelude.
var preludeObjects = map[*Object]bool{}

// InPrelude reports whether obj is a builtin or a prelude function rather
// than something the user declared (for listing a program's own names).
func InPrelude(obj *Object) bool { return preludeObjects[obj] }

// NewEnv returns the environment with the builtins, the numeric modules
// and the prelude in scope.
func NewEnv() *Env { return baseEnv }

func (e *Env) with(extra map[string]*Object) *Env {
	if len(extra) == 0 {
		return e
	}
	if len(e.over)+len(extra) > overLimit {
		return e.fold(extra)
	}
	over := make(map[string]*Object, len(e.over)+len(extra))
	for k, v := range e.over {
		over[k] = v
	}
	for k, v := range extra {
		over[k] = v
	}
	return &Env{flat: e.flat, over: over, flatUser: e.flatUser, typeDecls: e.typeDecls}
}

// fold returns e with extra added, every name in one new flat map.
func (e *Env) fold(extra map[string]*Object) *Env {
	m := make(map[string]*Object, len(e.flat)+len(e.over)+len(extra))
	for k, v := range e.flat {
		m[k] = v
	}
	for _, layer := range []map[string]*Object{e.over, extra} {
		for k, v := range layer {
			m[k] = v
		}
	}
	var user []string
	for k, v := range m {
		if !preludeObjects[v] {
			user = append(user, k)
		}
	}
	return &Env{flat: m, flatUser: user, typeDecls: e.typeDecls}
}

// withTypes returns e with the type abbreviations of extra added.
func (e *Env) withTypes(extra map[string]*syntax.TypeDecl) *Env {
	if len(extra) == 0 {
		return e
	}
	m := make(map[string]*syntax.TypeDecl, len(e.typeDecls)+len(extra))
	for k, v := range e.typeDecls {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	return &Env{flat: e.flat, over: e.over, flatUser: e.flatUser, typeDecls: m}
}

// Lookup finds a name in scope; qualified names ("i32.max") included.
func (e *Env) Lookup(name string) (*Object, bool) {
	if o, ok := e.over[name]; ok {
		return o, true
	}
	o, ok := e.flat[name]
	return o, ok
}

// each calls f for every name in scope (a name of over once, not the
// flat name it shadows).
func (e *Env) each(f func(name string, o *Object)) {
	for k, o := range e.over {
		f(k, o)
	}
	for k, o := range e.flat {
		if _, shadowed := e.over[k]; !shadowed {
			f(k, o)
		}
	}
}

// Objects returns everything in scope, sorted by name, for completion and
// inspection.
func (e *Env) Objects() []*Object {
	objs := make([]*Object, 0, len(e.flat)+len(e.over))
	e.each(func(_ string, o *Object) { objs = append(objs, o) })
	sort.Slice(objs, func(i, j int) bool { return objs[i].Name < objs[j].Name })
	return objs
}

// BindValue returns an environment in which name is a value of type t held
// by the session (the REPL's `let x = e`).
func (e *Env) BindValue(name string, t Type) *Env {
	return e.with(map[string]*Object{name: {Kind: Value, Name: name, Type: t}})
}

// CheckDecls checks declarations in order and returns the environment
// extended with them, and what was learned about them. On error the
// returned environment is e itself and the error is a source.ErrorList of
// every error found; later declarations are still checked (against the
// failed ones' declared types) so that their errors are reported too.
func (e *Env) CheckDecls(src *source.File, decls []syntax.Decl) (env *Env, info *Info, err error) {
	c := newChecker(src, e)
	defer func() {
		if c.recoverInternal(&err) {
			env = e
		}
	}()
	added := map[string]*Object{}
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.ValDecl:
			obj := c.valDecl(d)
			c.globals[d.Name] = obj
			added[d.Name] = obj
		case *syntax.TypeDecl:
			c.typeDecl(d)
		default:
			c.errorf(d.Span().Start, "internal error: unknown declaration %T", d)
		}
	}
	if err := c.result(); err != nil {
		return e, c.info, err
	}
	return e.with(added).withTypes(c.typeDecls), c.info, nil
}

// CheckExpr checks an expression in e and returns its type.
func (e *Env) CheckExpr(src *source.File, x syntax.Expr) (t Type, info *Info, err error) {
	c := newChecker(src, e)
	defer func() {
		if c.recoverInternal(&err) {
			t = errT
		}
	}()
	if x == nil {
		return errT, c.info, source.ErrorList{source.Errorf(source.Pos{}, "internal error: nil expression")}
	}
	c.expr(nil, x, nil)
	c.finish(c.info.Types[x])
	if err := c.result(); err != nil {
		return errT, c.info, err
	}
	return c.info.Types[x], c.info, nil
}

// recoverInternal turns a panic inside the checker into an internal error,
// so that no input can crash a REPL session; the fuzz test treats such an
// error as a failure.
func (c *checker) recoverInternal(err *error) bool {
	if r := recover(); r != nil {
		*err = source.ErrorList{source.Errorf(source.Pos{}, "internal error: checker panic: %v", r)}
		return true
	}
	return false
}

func (c *checker) result() error {
	c.errs.Sort()
	return c.errs.Err()
}

func (c *checker) errorf(pos source.Pos, format string, args ...any) {
	if c.src != nil && (pos.File == c.src.Name || pos.File == "") { // not an imported file's line
		c.errs.Add(c.src.Errorf(pos, format, args...))
		return
	}
	c.errs.Add(source.Errorf(pos, format, args...))
}

// describeArity is used by messages about applications.
func describeArity(n int) string {
	if n == 1 {
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

// ValuesInUse returns the session values (objects of kind Value) that the
// names in scope can reach: those bound to a name, and those used by the
// declarations in scope, directly or through the declarations they use.
// A session may forget the values of every other object: nothing that can
// still be written refers to them.
func (e *Env) ValuesInUse() map[*Object]bool {
	live := map[*Object]bool{}
	seen := map[*Info]bool{}
	var visit func(o *Object)
	visit = func(o *Object) {
		switch o.Kind {
		case Value:
			live[o] = true
		case Global:
			// An Info is shared by the declarations of one CheckDecls
			// call: its uses are a superset of this declaration's.
			if o.Info == nil || seen[o.Info] {
				return
			}
			seen[o.Info] = true
			for _, u := range o.Info.Uses {
				visit(u)
			}
		}
	}
	// The builtins and the prelude reach no session value: only over's
	// names and flat's user names are visited.
	for _, o := range e.over {
		visit(o)
	}
	for _, k := range e.flatUser {
		if _, shadowed := e.over[k]; !shadowed {
			visit(e.flat[k])
		}
	}
	return live
}
