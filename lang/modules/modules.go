// Package modules elaborates Futhark's module language away: it turns
// module bindings, functor applications, opens and imports into flat
// top-level declarations with qualified names, which the type checker
// and everything after it see as ordinary globals.
//
// The design follows Futhark's own defunctorisation, done statically and
// early, between parsing and checking:
//
//   - A declaration `def x` inside module m becomes the global `m.x` (a
//     name no user can write as one identifier, so it cannot clash); a
//     nested module's members are `a.b.x`. The main file's top level keeps
//     its names, so entry points and REPL names are unchanged.
//   - A module is a static value (module): for each exported name, the
//     flat name it denotes. Aliases (`module n = m`), ascriptions and
//     opens build new views of the same flat names; nothing is copied.
//   - A parametric module (functor) is a closure: its body and the scope it
//     was defined in. Each application elaborates a fresh copy of the body
//     with the parameter bound to the argument module, so `module a = F x`
//     and `module b = F y` give two sets of globals, `a.f` and `b.f`.
//   - References are rewritten in the AST: `m.x` (which the parser reads as
//     field accesses of a variable m) becomes the variable x qualified by
//     m's flat path, `m.+` and `m.t` likewise. Unqualified names of module
//     members (inside the module, or after `open m`) cannot be resolved
//     here without knowing every local binding, so each body is wrapped in
//     a syntax.ParenExpr whose Names maps them to their module; the checker
//     qualifies a use unless a local binding (a parameter, a let) has the
//     name, as it does for Futhark's local open `i32.(e)`.
//   - Type names are resolved here: a type cannot be bound locally, except
//     a declaration's own type parameters, which are skipped.
//   - Module types are checked structurally and transparently: a module
//     must provide every name its module type specifies (with Futhark's
//     error wording), ascription hides the names the module type does not
//     specify, but abstract types are not made abstract (arepl's checker
//     sees through them; README lists this difference).
//   - `import "f"` reads f.fut relative to the importing file, once per
//     file; a file is a module whose members are named after the file
//     (`f.x`); an import cycle is an error.
//
// The numeric modules (i32, f64, ...) are built into the checker as
// globals `i32.max`; here they are modules whose members are all names,
// qualified by the module, with type t the primitive type, so that they
// can be opened and passed to functors.
package modules

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// ReadFile reads an imported file; the session supplies one that bounds
// the size and honours cancellation.
type ReadFile func(path string) (string, error)

// Elaborator holds the module environment of a session: the top-level
// scope (which persists across REPL inputs) and the files imported so far.
type Elaborator struct {
	read  ReadFile
	top   *scope
	files map[string]*module // imported files by clean path; nil while loading
	// Sources are the files read by imports, for quoting error lines.
	Sources map[string]*source.File
	anon    int // counter for the paths of anonymous modules
	// typeInfo describes every type declared, by flat name.
	typeInfo map[string]typeRef
	errs     source.ErrorList
	out      []syntax.Decl
	dir      string // directory of the file being elaborated
	// applied counts the functor applications of one elaboration: each
	// copies a body, and functors that apply others twice grow
	// exponentially, so a bound turns a program that would exhaust memory
	// into an error.
	applied int
}

// maxApplications bounds the functor applications of one file or REPL
// input (with its imports): far above what libraries use, far below what
// exhausts memory (a chain of 25 functors applying the previous one twice
// ran out of 4 GB).
const maxApplications = 10000

// New returns an elaborator with an empty top level that reads imports
// with read.
func New(read ReadFile) *Elaborator {
	return &Elaborator{read: read, top: newScope(), files: map[string]*module{}, Sources: map[string]*source.File{}, typeInfo: map[string]typeRef{}}
}

// Main records the path of the main file, so that importing it is a
// cycle.
func (e *Elaborator) Main(path string) {
	e.files[filepath.Clean(path)] = nil
}

// State is a snapshot of an elaborator's top level and of the files it
// has imported, to undo an input the checker rejects: a file imported by
// a rejected input must be declared again by the next input that imports
// it.
type State struct {
	top   *scope
	files map[string]*module
}

// Save returns the current state.
func (e *Elaborator) Save() State {
	files := make(map[string]*module, len(e.files))
	maps.Copy(files, e.files)
	return State{e.top, files}
}

// Restore goes back to a saved state.
func (e *Elaborator) Restore(s State) { e.top, e.files = s.top, s.files }

// Decls elaborates the declarations of one file or REPL input at the top
// level, whose imports are relative to dir, and returns the flat
// declarations. Declarations that use no module feature are returned as
// they are when nothing module-related is in scope.
func (e *Elaborator) Decls(decls []syntax.Decl, dir string) (out []syntax.Decl, err error) {
	defer recoverInternal(&err)
	if e.top.trivial() && !usesModules(decls) {
		e.top = e.top.bindPlain(decls)
		return decls, nil
	}
	e.errs, e.out, e.dir, e.applied = nil, nil, dir, 0
	sc := e.top
	for _, d := range decls {
		sc = e.decl(sc, d, "", nil)
	}
	if len(e.errs) > 0 {
		e.errs.Sort()
		return nil, e.errs
	}
	e.top = sc
	return e.out, nil
}

// Expr rewrites an expression typed at the top level.
func (e *Elaborator) Expr(x syntax.Expr) (out syntax.Expr, err error) {
	defer recoverInternal(&err)
	if e.top.trivial() {
		return x, nil
	}
	e.errs = nil
	x = e.body(e.top, x, nil)
	if len(e.errs) > 0 {
		return nil, e.errs
	}
	return x, nil
}

// recoverInternal turns a panic into an internal error, so that no input
// can crash a REPL session (as the checker does); the fuzz tests count such
// an error as a failure.
func recoverInternal(err *error) {
	if r := recover(); r != nil {
		*err = source.ErrorList{source.Errorf(source.Pos{}, "internal error: module elaboration panic: %v", r)}
	}
}

func usesModules(decls []syntax.Decl) bool {
	for _, d := range decls {
		switch d.(type) {
		case *syntax.ValDecl, *syntax.TypeDecl:
		default:
			return true
		}
	}
	return false
}

func (e *Elaborator) errorf(pos source.Pos, format string, args ...any) {
	if f := e.Sources[pos.File]; f != nil {
		e.errs.Add(f.Errorf(pos, format, args...))
		return
	}
	e.errs.Add(source.Errorf(pos, format, args...))
}

// ---------------------------------------------------------------------------
// Static values

// typeRef is what a type name denotes: a flat type name, or a primitive
// type (the t of a numeric module).
type typeRef struct {
	flat string
	prim string
	// What the module type checks of a definition: its number of
	// parameters, and whether it may hold functions or anonymous sizes
	// (Futhark's lifted type^ and type~).
	params     int
	fn, sizeLt bool
}

// typeExpr is the type a typeRef denotes, as written syntax.
func (t typeRef) typeExpr(at syntax.At) syntax.TypeExpr {
	if t.prim != "" {
		return &syntax.PrimTypeExpr{At: at, Name: t.prim}
	}
	return &syntax.NamedTypeExpr{At: at, Name: t.flat}
}

// module is a module's static value: its exports.
type module struct {
	path    string             // flat prefix of the members it defines
	vals    map[string]string  // name -> qualifier of its flat name
	types   map[string]typeRef // name -> its type
	mods    map[string]*module
	sigs    map[string]*sigVal
	builtin string   // "i32" for a numeric module: every name is a member
	file    bool     // an imported file's module
	fun     *functor // non-nil for a parametric module
}

func newModule(path string) *module {
	return &module{path: path, vals: map[string]string{}, types: map[string]typeRef{}, mods: map[string]*module{}, sigs: map[string]*sigVal{}}
}

// functor is a parametric module: a closure.
type functor struct {
	param syntax.ModParam
	sig   syntax.SigExpr // result module type, or nil
	body  syntax.ModExpr // for a curried functor, a ModLambda
	env   *scope
}

// sigVal is a module type, elaborated to the names it specifies.
type sigVal struct {
	vals  []valSpec
	types []typeSpec
	mods  map[string]*sigVal
	order []string // module spec names in order
	fun   *sigFun  // the type of a functor
	// whole is set for the prelude's module types (numeric, real, ...),
	// which list their types only: a module matched against one keeps
	// all its names.
	whole bool
}

// preludeSig returns the prelude's module type name, or nil. The numeric
// modules match them; their values are the checker's built-ins, so only
// the types are specified here.
func preludeSig(name string) *sigVal {
	types := []string{"t"}
	switch name {
	case "from_prim", "numeric", "integral", "real", "size":
	case "float":
		types = append(types, "int_t")
	default:
		return nil
	}
	s := &sigVal{mods: map[string]*sigVal{}, whole: true}
	for _, t := range types {
		s.types = append(s.types, typeSpec{name: t, abstract: true})
	}
	return s
}

type typeSpec struct {
	name     string
	abstract bool
	lifted   string
	pos      source.Pos
	params   []syntax.SizeParam
	def      syntax.TypeExpr // the definition of a non-abstract type
	env      *scope          // where def's names are resolved
}

// valSpec is `val name params: type`, with the scope its type's names
// are resolved in.
type valSpec struct {
	name   string
	params []syntax.SizeParam
	typ    syntax.TypeExpr
	env    *scope
	pos    source.Pos
}

type sigFun struct {
	param, result *sigVal
}

// ---------------------------------------------------------------------------
// Scopes

// scope is the static environment at one point of elaboration. It is
// persistent: binding returns a new scope and shares the rest, so that a
// saved scope (a REPL snapshot, a functor's closure) never changes.
type scope struct {
	vals  map[string]string // unqualified value name -> qualifier ("" for a plain global)
	types map[string]typeRef
	mods  map[string]*module
	sigs  map[string]*sigVal
	// names is vals without the plain globals, shared by the bodies
	// elaborated in this scope (syntax.ParenExpr.Names).
	names map[string]string
}

func newScope() *scope {
	return &scope{vals: map[string]string{}, types: map[string]typeRef{}, mods: map[string]*module{}, sigs: map[string]*sigVal{}}
}

// trivial reports whether the scope holds nothing of the module system:
// no modules, module types or qualified names.
func (s *scope) trivial() bool {
	return len(s.mods) == 0 && len(s.sigs) == 0 && len(s.qualNames()) == 0 && !s.hasQualTypes()
}

func (s *scope) hasQualTypes() bool {
	for _, t := range s.types {
		if t.prim != "" || strings.Contains(t.flat, ".") {
			return true
		}
	}
	return false
}

func (s *scope) qualNames() map[string]string {
	if s.names == nil {
		s.names = map[string]string{}
		for k, q := range s.vals {
			if q != "" {
				s.names[k] = q
			}
		}
	}
	return s.names
}

func (s *scope) clone() *scope {
	n := &scope{vals: make(map[string]string, len(s.vals)), types: make(map[string]typeRef, len(s.types)),
		mods: make(map[string]*module, len(s.mods)), sigs: make(map[string]*sigVal, len(s.sigs))}
	maps.Copy(n.vals, s.vals)
	maps.Copy(n.types, s.types)
	maps.Copy(n.mods, s.mods)
	maps.Copy(n.sigs, s.sigs)
	return n
}

// bindPlain records plain top-level declarations, which shadow module
// members of the same names.
func (s *scope) bindPlain(decls []syntax.Decl) *scope {
	changed := false
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.ValDecl:
			if q, ok := s.vals[d.Name]; ok && q != "" {
				changed = true
			}
		case *syntax.TypeDecl:
			if t, ok := s.types[d.Name]; ok && t.flat != d.Name {
				changed = true
			}
		}
	}
	if !changed {
		return s
	}
	n := s.clone()
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.ValDecl:
			delete(n.vals, d.Name)
		case *syntax.TypeDecl:
			n.types[d.Name] = typeRef{flat: d.Name}
		}
	}
	return n
}

// openInto returns s with the exports of m in scope.
func (s *scope) openInto(m *module) *scope {
	n := s.clone()
	maps.Copy(n.vals, m.vals)
	maps.Copy(n.types, m.types)
	maps.Copy(n.mods, m.mods)
	maps.Copy(n.sigs, m.sigs)
	return n
}

// lookupMod resolves a module name, possibly qualified (a.b).
func (e *Elaborator) lookupMod(sc *scope, name string, pos source.Pos) *module {
	parts := strings.Split(name, ".")
	m := sc.mods[parts[0]]
	if m == nil {
		if builtinModules[parts[0]] && len(parts) == 1 {
			return builtinModule(parts[0])
		}
		if parts[0] == "intrinsics" {
			e.errorf(pos, "The 'intrinsics' module may not be used in module expressions.")
			return nil
		}
		e.errorf(pos, "Unknown module %q", parts[0])
		return nil
	}
	for i, p := range parts[1:] {
		sub := m.mods[p]
		if sub == nil {
			e.errorf(pos, "Unknown module %q", strings.Join(parts[:i+2], "."))
			return nil
		}
		m = sub
	}
	return m
}

// floatBits is the int_t of each float module: the unsigned integer
// type of its bits.
var floatBits = map[string]string{"f16": "u16", "f32": "u32", "f64": "u64"}

// builtinModules are the numeric modules the checker provides.
var builtinModules = map[string]bool{
	"i8": true, "i16": true, "i32": true, "i64": true, "u8": true, "u16": true, "u32": true, "u64": true,
	"f16": true, "f32": true, "f64": true, "bool": true,
}

func builtinModule(name string) *module {
	m := newModule(name)
	m.builtin = name
	m.types["t"] = typeRef{prim: name}
	if bits, ok := floatBits[name]; ok {
		m.types["int_t"] = typeRef{prim: bits}
	}
	return m
}

// memberQual returns the qualifier of member x of m, or false.
func (m *module) memberQual(x string) (string, bool) {
	if m.builtin != "" {
		return m.builtin, true
	}
	q, ok := m.vals[x]
	return q, ok
}

func (m *module) typeOf(x string) (typeRef, bool) {
	t, ok := m.types[x]
	return t, ok
}

// ---------------------------------------------------------------------------
// Declarations

// decl elaborates one declaration in scope sc; inside a module, mod is the
// module being built (nil at the top level) and path its flat prefix. It
// returns the scope for what follows.
func (e *Elaborator) decl(sc *scope, d syntax.Decl, path string, mod *module) *scope {
	return e.declVis(sc, d, path, mod, true)
}

func qualify(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (e *Elaborator) declVis(sc *scope, d syntax.Decl, path string, mod *module, export bool) *scope {
	switch d := d.(type) {
	case *syntax.ValDecl:
		nd := *d
		if mod != nil && d.Kind == syntax.KindEntry {
			if !mod.file {
				e.errorf(d.Pos(), "entry points may only be declared at the top level of a file")
				return sc
			}
			// An imported file's entry points are ordinary functions of
			// the importer, as in Futhark.
			nd.Kind = syntax.KindDef
		}
		nd.Name = qualify(path, d.Name)
		tparams := map[string]bool{}
		for _, p := range d.TypeParams {
			tparams[p.Name] = true
		}
		for _, p := range d.SizeParams {
			tparams[p.Name] = true
		}
		nd.Params = make([]syntax.Pat, len(d.Params))
		for i, p := range d.Params {
			nd.Params[i] = e.pat(sc, p, tparams)
		}
		if d.Ret != nil {
			nd.Ret = e.typ(sc, d.Ret, tparams)
		}
		bodySc := sc
		if path != "" && len(d.Params) > 0 {
			// arepl's functions may be recursive: the body sees its own
			// flat name.
			bodySc = sc.clone()
			bodySc.vals[d.Name] = path
		}
		nd.Body = e.body(bodySc, d.Body, tparams)
		e.out = append(e.out, &nd)
		n := sc.clone()
		n.vals[d.Name] = path
		if mod != nil && export {
			mod.vals[d.Name] = path
		}
		return n
	case *syntax.TypeDecl:
		nd := *d
		nd.Name = qualify(path, d.Name)
		tparams := map[string]bool{}
		for _, p := range d.Params {
			tparams[p.Name] = true
		}
		nd.Type = e.typ(sc, d.Type, tparams)
		e.out = append(e.out, &nd)
		ref := typeRef{flat: nd.Name, params: len(d.Params)}
		ref.fn, ref.sizeLt = e.lifted(nd.Type)
		// Futhark compares the liftedness a type is declared with.
		ref.fn = ref.fn || d.Lifted == "^"
		ref.sizeLt = ref.sizeLt || d.Lifted == "~"
		if p, ok := nd.Type.(*syntax.PrimTypeExpr); ok && len(d.Params) == 0 {
			ref.prim = p.Name // for messages and checks only: typeInfo
		}
		e.typeInfo[nd.Name] = ref
		ref.prim = ""
		n := sc.clone()
		n.types[d.Name] = ref
		if mod != nil && export {
			mod.types[d.Name] = ref
		}
		return n
	case *syntax.ModDecl:
		var m *module
		if len(d.Params) > 0 {
			m = newModule(qualify(path, d.Name))
			body := d.Body
			sig := d.Sig
			for i := len(d.Params) - 1; i > 0; i-- {
				body = &syntax.ModLambda{At: d.At, Param: d.Params[i], Sig: sig, Body: body}
				sig = nil
			}
			m.fun = &functor{param: d.Params[0], sig: sig, body: body, env: sc}
			e.checkFunctorResult(sc, d)
		} else {
			m = e.modExp(sc, d.Body, qualify(path, d.Name))
			if m != nil && d.Sig != nil {
				m = e.ascribe(sc, m, d.Sig, d.Pos(), d.Name)
			}
		}
		if m == nil {
			return sc
		}
		n := sc.clone()
		n.mods[d.Name] = m
		if mod != nil && export {
			mod.mods[d.Name] = m
		}
		return n
	case *syntax.ModTypeDecl:
		s := e.sig(sc, d.Sig)
		if s == nil {
			return sc
		}
		n := sc.clone()
		n.sigs[d.Name] = s
		if mod != nil && export {
			mod.sigs[d.Name] = s
		}
		return n
	case *syntax.OpenDecl:
		m := e.modExp(sc, d.Mod, e.anonPath(path, "open"))
		if m == nil {
			return sc
		}
		if m.fun != nil {
			e.errorf(d.Pos(), "Cannot open a parametric module")
			return sc
		}
		if m.builtin != "" {
			e.errorf(d.Pos(), "arepl cannot open the numeric module %s (qualify its names, or use %s.(e))", m.builtin, m.builtin)
			return sc
		}
		if mod != nil && export {
			maps.Copy(mod.vals, m.vals)
			maps.Copy(mod.types, m.types)
			maps.Copy(mod.mods, m.mods)
			maps.Copy(mod.sigs, m.sigs)
		}
		return sc.openInto(m)
	case *syntax.LocalDecl:
		return e.declVis(sc, d.Decl, path, mod, false)
	case *syntax.ImportDecl:
		m := e.importFile(d.Path, d.Pos())
		if m == nil {
			return sc
		}
		return sc.openInto(m)
	}
	e.errorf(d.Span().Start, "internal error: unknown declaration %T", d)
	return sc
}

// anonPath is a fresh flat prefix for a module with no name of its own.
func (e *Elaborator) anonPath(path, what string) string {
	e.anon++
	return qualify(path, fmt.Sprintf("%s%d", what, e.anon))
}

// checkFunctorResult checks, where it can without applying the functor,
// that the body of `module f (p: mt) : rt = { ... }` defines the names rt
// specifies, so that a functor never applied is checked too (Futhark
// checks functors when they are defined). A body that opens or includes
// other modules, or a result type that depends on the parameters, is left
// to the checks made at each application.
func (e *Elaborator) checkFunctorResult(sc *scope, d *syntax.ModDecl) {
	st, ok := d.Body.(*syntax.ModStruct)
	if !ok || d.Sig == nil {
		return
	}
	vals, types := map[string]bool{}, map[string]bool{}
	for _, x := range st.Decls {
		switch x := x.(type) {
		case *syntax.ValDecl:
			vals[x.Name] = true
		case *syntax.TypeDecl:
			types[x.Name] = true
		case *syntax.LocalDecl:
		case *syntax.OpenDecl, *syntax.ImportDecl, *syntax.ModDecl, *syntax.ModTypeDecl:
			return
		}
	}
	saved := e.errs
	rt := e.sig(sc, d.Sig)
	if len(e.errs) != len(saved) || rt == nil || rt.fun != nil || rt.whole || len(rt.order) > 0 {
		e.errs = saved
		return
	}
	for _, t := range rt.types {
		if !types[t.name] {
			e.errorf(d.Sig.Span().Start, "Module does not define a type named %s.", t.name)
		}
	}
	for _, v := range rt.vals {
		if !vals[v.name] {
			e.errorf(d.Sig.Span().Start, "Module does not define a value named %s.", v.name)
		}
	}
}

// ---------------------------------------------------------------------------
// Module expressions

// modExp elaborates a module expression; path is the flat prefix for the
// members it defines.
func (e *Elaborator) modExp(sc *scope, me syntax.ModExpr, path string) *module {
	switch me := me.(type) {
	case *syntax.ModName:
		return e.lookupMod(sc, me.Name, me.Pos())
	case *syntax.ModStruct:
		m := newModule(path)
		e.duplicates(me.Decls)
		inner := sc
		for _, d := range me.Decls {
			inner = e.decl(inner, d, path, m)
		}
		return m
	case *syntax.ModImport:
		return e.importFile(me.Path, me.Pos())
	case *syntax.ModAscribe:
		m := e.modExp(sc, me.Mod, path)
		if m == nil {
			return nil
		}
		return e.ascribe(sc, m, me.Sig, me.Pos(), "")
	case *syntax.ModApply:
		f := e.modExp(sc, me.Fun, e.anonPath(path, "fun"))
		if f == nil {
			return nil
		}
		if f.fun == nil {
			e.errorf(me.Pos(), "Cannot apply non-parametric module")
			return nil
		}
		arg := e.modExp(sc, me.Arg, e.anonPath(path, "arg"))
		if arg == nil {
			return nil
		}
		return e.apply(f.fun, arg, path, me.Arg.Span().Start)
	case *syntax.ModLambda:
		m := newModule(path)
		m.fun = &functor{param: me.Param, sig: me.Sig, body: me.Body, env: sc}
		return m
	}
	e.errorf(me.Span().Start, "internal error: unknown module expression %T", me)
	return nil
}

// apply elaborates a functor application: a copy of the body with the
// parameter bound to the argument, restricted to the parameter's module
// type.
func (e *Elaborator) apply(f *functor, arg *module, path string, pos source.Pos) *module {
	if e.applied++; e.applied > maxApplications {
		if e.applied == maxApplications+1 {
			e.errorf(pos, "more than %d functor applications: the modules expand too much (does a functor apply another several times, nested?)", maxApplications)
		}
		return nil
	}
	view := e.ascribe(f.env, arg, f.param.Sig, pos, "")
	if view == nil {
		return nil
	}
	env := f.env.clone()
	env.mods[f.param.Name] = view
	body := deepCopy(f.body)
	m := e.modExp(env, body, path)
	if m == nil {
		return nil
	}
	if f.sig != nil {
		m = e.ascribe(env, m, f.sig, f.body.Span().Start, "")
	}
	return m
}

// importFile returns the module of the file path (relative to the
// importing file's directory), reading and elaborating it the first time.
func (e *Elaborator) importFile(path string, pos source.Pos) *module {
	if strings.HasPrefix(path, "/") {
		e.errorf(pos, "import %q: the path must be relative", path)
		return nil
	}
	full := filepath.Clean(filepath.Join(e.dir, path+".fut"))
	if m, seen := e.files[full]; seen {
		if m == nil {
			e.errorf(pos, "import %q: import cycle (the file imports itself, directly or through other files)", path)
		}
		return m
	}
	if e.read == nil {
		e.errorf(pos, "import %q: this session cannot read files", path)
		return nil
	}
	text, err := e.read(full)
	if err != nil {
		e.errorf(pos, "import %q: cannot read %s: %v", path, full, unwrapPath(err))
		return nil
	}
	file := source.NewFile(full, text)
	e.Sources[full] = file
	f, err := syntax.ParseFile(file)
	if err != nil {
		if list, ok := err.(source.ErrorList); ok {
			e.errs = append(e.errs, list...)
		} else {
			e.errorf(pos, "import %q: %v", path, err)
		}
		e.files[full] = newModule(full) // reported once
		return nil
	}
	e.files[full] = nil
	m := newModule(e.filePath(full))
	m.file = true
	dir := e.dir
	e.dir = filepath.Dir(full)
	// A file sees only the top level (the prelude and builtins), not the
	// importer's names.
	inner := newScope()
	e.duplicates(f.Decls)
	for _, d := range f.Decls {
		inner = e.decl(inner, d, m.path, m)
	}
	e.dir = dir
	e.files[full] = m
	return m
}

// filePath is the flat prefix of a file's members: its base name, made
// unique among the files imported.
func (e *Elaborator) filePath(full string) string {
	base := strings.TrimSuffix(filepath.Base(full), ".fut")
	used := map[string]bool{}
	for _, m := range e.files {
		if m != nil {
			used[m.path] = true
		}
	}
	p := base
	for i := 2; used[p]; i++ {
		p = fmt.Sprintf("%s%d", base, i)
	}
	return p
}

func unwrapPath(err error) error {
	type unwrapper interface{ Unwrap() error }
	if u, ok := err.(unwrapper); ok && u.Unwrap() != nil {
		return u.Unwrap()
	}
	return err
}

// ---------------------------------------------------------------------------
// Module types

// sig elaborates a module type expression.
func (e *Elaborator) sig(sc *scope, se syntax.SigExpr) *sigVal {
	switch se := se.(type) {
	case *syntax.SigName:
		parts := strings.Split(se.Name, ".")
		var s *sigVal
		if len(parts) == 1 {
			if s = sc.sigs[se.Name]; s == nil {
				s = preludeSig(se.Name)
			}
		} else if m := e.lookupMod(sc, strings.Join(parts[:len(parts)-1], "."), se.Pos()); m != nil {
			s = m.sigs[parts[len(parts)-1]]
		} else {
			return nil
		}
		if s == nil {
			e.errorf(se.Pos(), "Unknown module type %q", se.Name)
		}
		return s
	case *syntax.SigSpecs:
		s := &sigVal{mods: map[string]*sigVal{}}
		inner := sc
		for _, sp := range se.Specs {
			inner = e.spec(inner, s, sp)
		}
		return s
	case *syntax.SigWith:
		s := e.sig(sc, se.Sig)
		if s == nil {
			return nil
		}
		return e.refine(sc, s, se)
	case *syntax.SigFunctor:
		p := e.sig(sc, se.ParamSig)
		r := e.sig(sc, se.Result)
		if p == nil || r == nil {
			return nil
		}
		return &sigVal{mods: map[string]*sigVal{}, fun: &sigFun{param: p, result: r}}
	}
	e.errorf(se.Span().Start, "internal error: unknown module type %T", se)
	return nil
}

// spec adds one specification to s.
func (e *Elaborator) spec(sc *scope, s *sigVal, sp syntax.Spec) *scope {
	switch sp := sp.(type) {
	case *syntax.ValSpec:
		for _, v := range s.vals {
			if v.name == sp.Name {
				e.errorf(sp.Pos(), "Duplicate specification of value %s", sp.Name)
			}
		}
		e.noDupParams(sp.Params, "value "+sp.Name)
		s.vals = append(s.vals, valSpec{name: sp.Name, params: sp.Params, typ: sp.Type, env: sc, pos: sp.Pos()})
	case *syntax.TypeSpec:
		for _, t := range s.types {
			if t.name == sp.Name {
				e.errorf(sp.Pos(), "Duplicate specification of type %s", sp.Name)
			}
		}
		e.noDupParams(sp.Params, "type "+sp.Name)
		if sp.Lifted == "" && sp.Type != nil && containsFunction(sp.Type) {
			e.errorf(sp.Pos(), "Non-lifted type abbreviations may not contain functions.")
		}
		s.types = append(s.types, typeSpec{name: sp.Name, abstract: sp.Type == nil, lifted: sp.Lifted, pos: sp.Pos(),
			params: sp.Params, def: sp.Type, env: sc})
		// Later specs name this type; it stands for itself until a
		// module is matched against the module type.
		n := sc.clone()
		n.types[sp.Name] = typeRef{flat: sp.Name, params: len(sp.Params)}
		return n
	case *syntax.ModSpec:
		m := e.sig(sc, sp.Sig)
		if m != nil {
			s.mods[sp.Name] = m
			s.order = append(s.order, sp.Name)
		}
	case *syntax.IncludeSpec:
		inc := e.sig(sc, sp.Sig)
		if inc == nil {
			return sc
		}
		s.vals = append(s.vals, inc.vals...)
		s.types = append(s.types, inc.types...)
		for _, k := range inc.order {
			s.mods[k] = inc.mods[k]
			s.order = append(s.order, k)
		}
		n := sc.clone()
		for _, t := range inc.types {
			n.types[t.name] = typeRef{flat: t.name, params: len(t.params)}
		}
		return n
	default:
		e.errorf(sp.Span().Start, "internal error: unknown specification %T", sp)
	}
	return sc
}

// noDupParams rejects a type parameter given twice.
func (e *Elaborator) noDupParams(params []syntax.SizeParam, what string) {
	seen := map[string]source.Pos{}
	for _, p := range params {
		if prev, dup := seen[p.Name]; dup {
			e.errorf(p.Pos(), "%s has two type parameters named %s (previously defined at %d:%d)", what, p.Name, prev.Line, prev.Col)
		}
		seen[p.Name] = p.Pos()
	}
}

// refine is `s with t = type`: t must be an abstract type of s with as
// many parameters. The result is a copy of s in which t is defined.
func (e *Elaborator) refine(sc *scope, s *sigVal, w *syntax.SigWith) *sigVal {
	parts := strings.Split(w.Type, ".")
	out := s.copy()
	target := out
	for _, p := range parts[:len(parts)-1] {
		sub := target.mods[p]
		if sub == nil {
			e.errorf(w.Pos(), "Cannot refine a type %s: no module %s in the module type", w.Type, p)
			return nil
		}
		sub = sub.copy()
		target.mods[p] = sub
		target = sub
	}
	name := parts[len(parts)-1]
	for i, t := range target.types {
		if t.name != name {
			continue
		}
		if !t.abstract {
			e.errorf(w.Pos(), "Cannot refine a type %s: it is not an abstract type", w.Type)
			return nil
		}
		if len(t.params) != len(w.Params) {
			e.errorf(w.Pos(), "Cannot refine a type %s with %d parameters by one with %d", w.Type, len(t.params), len(w.Params))
			return nil
		}
		for j, p := range t.params {
			if liftRank(w.Params[j]) < liftRank(p) || p.Type != w.Params[j].Type {
				// A refinement may make a parameter more lifted ('a to
				// '^a), not less.
				e.errorf(w.Pos(), "Cannot refine a type %s: its parameter %s is not of the same kind", w.Type, w.Params[j].Name)
				return nil
			}
		}
		target.types[i].abstract = false
		target.types[i].def = w.Def
		target.types[i].params = w.Params
		target.types[i].env = sc
		return out
	}
	e.errorf(w.Pos(), "Cannot refine a type %s: the module type has no such type", w.Type)
	return nil
}

// liftRank orders type parameters by what they may stand for: 'a, then
// '^a (functions too). ('~a is read as 'a by the parser.)
func liftRank(p syntax.SizeParam) int {
	if !p.Lifted {
		return 0
	}
	return 1
}

// copy is a shallow copy of s whose spec lists may be changed.
func (s *sigVal) copy() *sigVal {
	n := &sigVal{vals: append([]valSpec(nil), s.vals...), types: append([]typeSpec(nil), s.types...),
		mods: map[string]*sigVal{}, order: append([]string(nil), s.order...), fun: s.fun, whole: s.whole}
	maps.Copy(n.mods, s.mods)
	return n
}

// lifted reports whether a type may hold a function (type^) or an array
// of anonymous size (type~), looking through the types it names.
func (e *Elaborator) lifted(t syntax.TypeExpr) (fn, sizeLt bool) {
	visitTypes(t, func(t syntax.TypeExpr) {
		switch t := t.(type) {
		case *syntax.FuncTypeExpr:
			fn = true
		case *syntax.ArrayTypeExpr:
			if t.Dim == nil {
				sizeLt = true
			}
		case *syntax.NamedTypeExpr:
			if r, ok := e.typeInfo[t.Name]; ok {
				fn, sizeLt = fn || r.fn, sizeLt || r.sizeLt
			}
		}
	})
	return fn, sizeLt
}

func containsFunction(t syntax.TypeExpr) bool {
	found := false
	visitTypes(t, func(t syntax.TypeExpr) {
		if _, ok := t.(*syntax.FuncTypeExpr); ok {
			found = true
		}
	})
	return found
}

// ascribe checks that m provides every specification of the module type
// se and returns the view of m that the module type allows.
func (e *Elaborator) ascribe(sc *scope, m *module, se syntax.SigExpr, pos source.Pos, name string) *module {
	s := e.sig(sc, se)
	if s == nil {
		return nil
	}
	view := e.match(m, s, pos, "")
	if view == nil || s.fun != nil {
		return view
	}
	if !e.specTypes(view, s, pos, "", newScope()) {
		return nil
	}
	return view
}

func (e *Elaborator) match(m *module, s *sigVal, pos source.Pos, prefix string) *module {
	if s.fun != nil {
		if m.fun == nil {
			e.errorf(pos, "Module %s is not a parametric module, but the module type requires one", strings.TrimSuffix(prefix, "."))
			return nil
		}
		return m
	}
	if m.fun != nil {
		e.errorf(pos, "Module %s is a parametric module, but the module type requires a non-parametric one", strings.TrimSuffix(prefix, "."))
		return nil
	}
	view := newModule(m.path)
	ok := true
	for _, t := range s.types {
		tr, has := m.typeOf(t.name)
		if !has {
			e.errorf(pos, "Module does not define a type named %s%s.", prefix, t.name)
			ok = false
			continue
		}
		if t.abstract && !e.typeFits(tr, t, pos, prefix) {
			ok = false
		}
		view.types[t.name] = tr
	}
	for _, k := range s.order {
		sub := m.mods[k]
		if sub == nil {
			e.errorf(pos, "Module does not define a module named %s%s.", prefix, k)
			ok = false
			continue
		}
		sv := e.match(sub, s.mods[k], pos, prefix+k+".")
		if sv == nil {
			ok = false
			continue
		}
		view.mods[k] = sv
	}
	for _, v := range s.vals {
		q, has := m.memberQual(v.name)
		if !has {
			e.errorf(pos, "Module does not define a value named %s%s.", prefix, v.name)
			ok = false
			continue
		}
		view.vals[v.name] = q
	}
	if !ok {
		return nil
	}
	if s.whole {
		return m
	}
	return view
}

// specTypes checks the types that the module type s gives to the values
// and type abbreviations of view (which match made), by the type checker:
// as declarations that restate them, the module's types standing for the
// module type's (transparently). outer holds the enclosing module types'
// names, which s's specs may use.
func (e *Elaborator) specTypes(view *module, s *sigVal, pos source.Pos, prefix string, outer *scope) bool {
	ok := true
	here := outer.clone()
	maps.Copy(here.types, view.types)
	maps.Copy(here.mods, view.mods)
	maps.Copy(here.vals, view.vals) // a size [k] named by a value spec
	within := func(env *scope) *scope {
		n := env.clone()
		maps.Copy(n.types, here.types)
		maps.Copy(n.vals, here.vals)
		maps.Copy(n.mods, here.mods)
		return n
	}
	for _, k := range s.order {
		if !e.specTypes(view.mods[k], s.mods[k], pos, prefix+k+".", here) {
			ok = false
		}
	}
	at := syntax.At{Sp: source.Span{Start: pos, End: pos}}
	for _, t := range s.types {
		if t.def == nil || len(t.params) > 0 {
			continue
		}
		want := e.typ(within(t.env), deepCopy(t.def), nil)
		got := view.types[t.name]
		if wp, ok := want.(*syntax.PrimTypeExpr); ok {
			if gp := e.primOf(got); gp != "" {
				if gp != wp.Name {
					e.errorf(pos, "Module type requires type %s%s = %s, but the module defines it as %s.", prefix, t.name, wp.Name, gp)
					ok = false
				}
				continue
			}
		}
		e.out = append(e.out, &syntax.ValDecl{At: at, Kind: syntax.KindDef, NamePos: pos,
			Name:   fmt.Sprintf("type %s%s (as its module type defines it)", prefix, t.name),
			Params: []syntax.Pat{&syntax.AscribedPat{At: at, Pat: &syntax.IdPat{At: at, Name: "x"}, Type: want}},
			Ret:    got.typeExpr(at), Body: &syntax.Var{At: at, Name: "x"}})
	}
	for _, v := range s.vals {
		if !checkable(v.typ) || !plainTypeParams(v.params) {
			continue
		}
		tparams := map[string]bool{}
		for _, p := range v.params {
			tparams[p.Name] = true
		}
		want := e.typ(within(v.env), deepCopy(v.typ), tparams)
		var body syntax.Expr = &syntax.Var{At: at, Qual: view.vals[v.name], Name: v.name}
		if fn, _ := e.lifted(want); !fn {
			// A copy, so that the declaration does not return (alias) the
			// module's array.
			body = &syntax.Apply{At: at, Fn: &syntax.Var{At: at, Name: "copy"}, Args: []syntax.Expr{body}}
		}
		e.out = append(e.out, &syntax.ValDecl{At: at, Kind: syntax.KindDef, NamePos: pos, TypeParams: v.params,
			Name:   fmt.Sprintf("%s%s (as its module type specifies)", prefix, v.name),
			Params: []syntax.Pat{&syntax.TuplePat{At: at}},
			Ret:    want, Body: body})
	}
	return ok
}

// typeFits checks a module's type against its spec: the number of
// parameters and how lifted it may be.
func (e *Elaborator) typeFits(tr typeRef, t typeSpec, pos source.Pos, prefix string) bool {
	if tr.params != len(t.params) {
		e.errorf(pos, "Module type specifies type %s%s with %d parameters, but the module's type %s%s has %d.", prefix, t.name, len(t.params), prefix, t.name, tr.params)
		return false
	}
	switch {
	case t.lifted == "" && tr.fn:
		e.errorf(pos, "Module type specifies non-lifted type %s%s, but the module's definition might contain functions.", prefix, t.name)
	case t.lifted == "" && tr.sizeLt:
		e.errorf(pos, "Module type specifies non-lifted type %s%s, but the module's definition is size-lifted (has anonymous sizes).", prefix, t.name)
	case t.lifted == "~" && tr.fn:
		e.errorf(pos, "Module type specifies size-lifted type %s%s, but the module's definition might contain functions.", prefix, t.name)
	default:
		return true
	}
	return false
}

// primOf is the primitive type a type name stands for, or "".
func (e *Elaborator) primOf(t typeRef) string {
	if t.prim != "" {
		return t.prim
	}
	return e.typeInfo[t.flat].prim
}

// plainTypeParams reports whether a value spec's parameters are all
// unlifted type parameters ('a), which a declaration restating its type
// can take; sizes and lifted types are left unchecked.
func plainTypeParams(params []syntax.SizeParam) bool {
	for _, p := range params {
		if !p.Type || p.Lifted {
			return false
		}
	}
	return true
}

// checkable reports whether a specified value type can be restated as a
// declaration's return type: no size names or expressions (which only a
// polymorphic declaration could bind) and no uniqueness.
func checkable(t syntax.TypeExpr) bool {
	ok := true
	visitTypes(t, func(t syntax.TypeExpr) {
		switch t := t.(type) {
		case *syntax.UniqueTypeExpr:
			ok = false
		case *syntax.ArrayTypeExpr:
			if t.Dim == nil || t.Dim.Name != "" || t.Dim.Expr != nil {
				ok = false
			}
		case *syntax.NamedTypeExpr:
			for _, a := range t.Args {
				if a.Dim != nil {
					ok = false
				}
			}
		}
	})
	return ok
}

// ---------------------------------------------------------------------------
// Expressions and types

// body rewrites a declaration's body: qualified references through the
// module scope, types, and a ParenExpr with the module names in scope.
func (e *Elaborator) body(sc *scope, x syntax.Expr, tparams map[string]bool) syntax.Expr {
	r := &rewriter{e: e, sc: sc, tparams: tparams}
	x = r.expr(x)
	if names := sc.qualNames(); len(names) > 0 {
		return &syntax.ParenExpr{At: syntax.At{Sp: x.Span()}, X: x, Names: names}
	}
	return x
}

func (e *Elaborator) pat(sc *scope, p syntax.Pat, tparams map[string]bool) syntax.Pat {
	r := &rewriter{e: e, sc: sc, tparams: tparams}
	return r.pat(p)
}

func (e *Elaborator) typ(sc *scope, t syntax.TypeExpr, tparams map[string]bool) syntax.TypeExpr {
	r := &rewriter{e: e, sc: sc, tparams: tparams}
	return r.typ(t)
}
