package types

import (
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// sizeParamsDistinct reports a size parameter named twice, or named again
// by a value parameter (`def f [n] (n: [n]i64)`, `let [n] (n: [n]i32) =
// e`), as Futhark does: sizes and values share one namespace.
func (c *checker) sizeParamsDistinct(sizeParams []syntax.SizeParam, params []syntax.Pat) {
	seen := map[string]source.Pos{}
	for i := range sizeParams {
		sp := &sizeParams[i]
		if prev, dup := seen[sp.Name]; dup {
			c.errorf(sp.Pos(), "Name %q also bound at %d:%d.", sp.Name, prev.Line, prev.Col)
			return
		}
		seen[sp.Name] = sp.Pos()
	}
	for _, p := range params {
		dup := false
		walkIdPats(p, func(id *syntax.IdPat) {
			if prev, ok := seen[id.Name]; ok && !dup {
				c.errorf(id.Pos(), "Name %q also bound at %d:%d.", id.Name, prev.Line, prev.Col)
				dup = true
			}
		})
		if dup {
			return
		}
	}
}

// notRedefinable reports a definition of && or ||, which Futhark forbids:
// they short-circuit, which no function does.
func (c *checker) notRedefinable(name string, at source.Pos) {
	if name == "&&" || name == "||" {
		c.errorf(at, "The %s operator may not be redefined.", name)
	}
}
