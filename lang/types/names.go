package types

import (
	"strings"

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

// underscoreUse reports a use of a variable whose name starts with an
// underscore, which Futhark forbids: such a name says the value is unused.
// Only a name written in the source counts: the front end's own variables
// (a section's parameter, a sized let's function) have such names too, on
// a span that holds other text.
func (c *checker) underscoreUse(sc *scope, v *syntax.Var) {
	if v.Qual != "" || !strings.HasPrefix(v.Name, "_") || c.src == nil {
		return
	}
	// A value the session holds (the REPL's earlier results _0, _1, ...)
	// may be used; an unknown name is reported as one.
	if o := c.lookup(sc, v.Name); o == nil || o.Kind == Value {
		return
	}
	p := v.Pos()
	line := c.src.Line(p.Line)
	if p.Col < 1 || p.Col > len(line) || !strings.HasPrefix(line[p.Col-1:], v.Name) {
		return
	}
	c.errorf(p, "Use of %q: variables prefixed with underscore may not be accessed.", v.Name)
}
