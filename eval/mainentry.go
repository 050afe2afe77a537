package eval

import "github.com/arepl/arepl/lang/syntax"

// markMainEntry makes a file's `def main` an entry point, as Futhark's
// compiler and `futhark test` do whatever else the file declares: the
// checker then holds it to an entry point's rules (no type parameters
// left to infer, nothing higher-order, sizes its arguments give). Inputs
// typed at the REPL are not files, and their main stays a function.
func markMainEntry(decls []syntax.Decl) {
	for _, d := range decls {
		if v, ok := d.(*syntax.ValDecl); ok && v.Name == "main" && v.Kind != syntax.KindEntry {
			v.Kind = syntax.KindEntry
		}
	}
}
