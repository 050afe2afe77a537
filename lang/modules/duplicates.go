package modules

import (
	"fmt"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// namespace is one of Futhark's three name spaces for declarations:
// values and modules share one, types and module types have their own.
type namespace string

const (
	nsTerm      namespace = "name"
	nsType      namespace = "type"
	nsSignature namespace = "module type"
)

// CheckDuplicates rejects a file whose top level defines a name twice in
// one namespace, as Futhark's checker does (checkForDuplicateDecs), with
// its wording. Module bodies are checked as they are elaborated. The REPL
// does not call it: each input declares anew and may shadow, as in
// `futhark repl`.
func (e *Elaborator) CheckDuplicates(decls []syntax.Decl) (err error) {
	defer recoverInternal(&err)
	e.errs = nil
	e.duplicates(decls)
	if len(e.errs) > 0 {
		e.errs.Sort()
		return e.errs
	}
	return nil
}

// duplicates reports the second definition of a name in decls, naming
// where the first was. open, local and import declarations define nothing
// of their own here, as in Futhark.
func (e *Elaborator) duplicates(decls []syntax.Decl) {
	type key struct {
		ns   namespace
		name string
	}
	seen := map[key]source.Pos{}
	for _, d := range decls {
		var k key
		var pos source.Pos
		switch d := d.(type) {
		case *syntax.ValDecl:
			k, pos = key{nsTerm, d.Name}, d.Pos()
		case *syntax.TypeDecl:
			k, pos = key{nsType, d.Name}, d.Pos()
		case *syntax.ModDecl:
			k, pos = key{nsTerm, d.Name}, d.Pos()
		case *syntax.ModTypeDecl:
			k, pos = key{nsSignature, d.Name}, d.Pos()
		default:
			continue
		}
		if first, ok := seen[k]; ok {
			e.errorf(pos, "Duplicate definition of %s %s. Previously defined at %s.", k.ns, k.name, locStr(first))
			continue
		}
		seen[k] = pos
	}
}

// locStr writes a position as Futhark's messages do: file:line:col.
func locStr(p source.Pos) string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}
