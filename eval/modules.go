package eval

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/arepl/arepl/lang/modules"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// The session's hooks into lang/modules, which flattens Futhark's module
// language (modules, functors, open, import) into plain declarations
// before they are checked. The elaborator's top level persists across
// REPL inputs like the type environment, and is undone with it when an
// input fails.

// moduleElab returns the session's module elaborator, made on first use.
func (s *Session) moduleElab() *modules.Elaborator {
	if s.mods == nil {
		s.mods = modules.New(readSource)
	}
	return s.mods
}

// readSource reads an imported file, bounded like a loaded one.
func readSource(path string) (string, error) {
	b, err := ReadFileLimited(context.Background(), path, MaxSourceBytes)
	return string(b), err
}

// importDir is the directory that a typed `import "f"` is relative to:
// that of the loaded file, else the current directory.
func (s *Session) importDir() string {
	if s.loaded != "" {
		return filepath.Dir(s.loaded)
	}
	return "."
}

// elaborate flattens the module declarations of one input or file.
func (s *Session) elaborate(decls []syntax.Decl, dir string) ([]syntax.Decl, error) {
	el := s.moduleElab()
	out, err := el.Decls(decls, dir)
	for name, f := range el.Sources {
		s.files[name] = f
	}
	return out, err
}

// declareModular declares one REPL input's declarations, modules included.
func (s *Session) declareModular(ctx context.Context, file *source.File, decls []syntax.Decl) (*Result, error) {
	saved := s.moduleElab().Save()
	flat, err := s.elaborate(decls, s.importDir())
	if err != nil {
		return nil, err
	}
	res, err := s.declare(ctx, file, flat)
	if err == nil {
		res.Decls = userNames(res.Decls)
	}
	if err != nil {
		err = s.quoteImported(err)
		s.mods.Restore(saved)
	}
	return res, err
}

// quoteImported sets the quoted line of the checker's errors that lie in
// an imported file, which the checker (given the main file) leaves out.
func (s *Session) quoteImported(err error) error {
	list, ok := err.(source.ErrorList)
	if !ok || s.mods == nil {
		return err
	}
	for _, e := range list {
		if f := s.mods.Sources[e.Pos.File]; f != nil && e.Line == "" {
			e.Line = f.Line(e.Pos.Line)
		}
	}
	return err
}

// loadModular declares a loaded file's declarations with a fresh module
// environment, keeping the old one if the file fails.
func (s *Session) loadModular(ctx context.Context, file *source.File, decls []syntax.Decl) (*Result, error) {
	old := s.mods
	s.mods = nil
	s.moduleElab().Main(file.Name)
	err := s.moduleElab().CheckDuplicates(decls)
	var flat []syntax.Decl
	if err == nil {
		flat, err = s.elaborate(decls, filepath.Dir(file.Name))
	}
	if err == nil {
		var res *Result
		if res, err = s.declare(ctx, file, flat); err == nil {
			res.Decls = userNames(res.Decls)
			return res, nil
		}
		err = s.quoteImported(err)
	}
	s.mods = old
	return nil, err
}

// moduleExpr rewrites an expression's references to modules.
func (s *Session) moduleExpr(x syntax.Expr) (syntax.Expr, error) {
	if s.mods == nil {
		return x, nil
	}
	return s.mods.Expr(x)
}

// userNames leaves out of a declaration list the declarations that
// lang/modules adds to check module types, whose names have a space.
func userNames(names []string) []string {
	out := names[:0]
	for _, n := range names {
		if !strings.Contains(n, " ") {
			out = append(out, n)
		}
	}
	return out
}
