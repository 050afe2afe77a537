package types

import "github.com/arepl/arepl/lang/syntax"

// argProduct is a size argument (iota's, replicate's) that is a product of
// sizes in scope and constants, `iota (n*m)`, as a product variable: as in
// Futhark, where the result's type is [n*m]i64, unflatten can then split
// it into [n][m] without an ascription. The argument has been checked, so
// its names are resolved through Info.Uses.
func (c *checker) argProduct(e syntax.Expr) (Dim, bool) {
	switch e := unparen(e).(type) {
	case *syntax.BinOp:
		if e.Op != "*" || e.Qual != "" {
			return Dim{}, false
		}
		a, ok := c.argProduct(e.Lhs)
		if !ok {
			return Dim{}, false
		}
		b, ok := c.argProduct(e.Rhs)
		if !ok {
			return Dim{}, false
		}
		return c.s.freshProduct(a, b), true
	case *syntax.IntLit:
		if e.Value >= 1<<62 {
			return Dim{}, false
		}
		return Dim{Const: int64(e.Value)}, true
	case *syntax.Var:
		o := c.info.Uses[e]
		if e.Qual != "" || o == nil || o.Kind == Builtin || o.Kind == ModuleFun || !isI64(c.s.shallow(c.declaredType(o))) {
			return Dim{}, false
		}
		return Dim{Name: e.Name}, true
	}
	return Dim{}, false
}
