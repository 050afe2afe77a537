package lower

import (
	"strconv"
	"strings"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// coerceMsg is Futhark's message for a size coercion `e :> t` whose value
// has other sizes than t names: the value's shape, then t with the sizes
// it names evaluated, e.g.
//
//	Value of (desugared) shape [2] cannot match shape of type "[3]i32".
const coerceMsg = "Value of (desugared) shape %s cannot match shape of type \"%s\"."

// checkCoerce checks the value v of `e :> te` against the sizes te names,
// as Futhark does at run time: a constant size, or a size name in scope
// (a size parameter, an i64 variable). `[]`, size expressions and names
// not in scope (existential) accept any size. The check covers an array
// value whose type te writes directly ([n][m]t, *[n]t); a coercion to a
// tuple, record or abbreviation is not checked.
func (l *lowerer) checkCoerce(c ctx, te syntax.TypeExpr, v value, pos source.Pos) error {
	if u, ok := te.(*syntax.UniqueTypeExpr); ok {
		te = u.Elem
	}
	if _, ok := te.(*syntax.ArrayTypeExpr); !ok || v.fn != nil || len(v.atoms) != 1 {
		return nil
	}
	arr, ok := v.atoms[0].(*core.Var)
	if !ok {
		return nil
	}
	var conds, shapeArgs, typeArgs []core.Atom
	var typ strings.Builder
	depth := 0
	for {
		at, ok := te.(*syntax.ArrayTypeExpr)
		if !ok || depth >= arr.Type.Rank {
			break
		}
		typ.WriteByte('[')
		if at.Dim != nil {
			if want, known := l.declaredSize(c, at.Dim); known {
				n, err := l.size(pos, arr, depth)
				if err != nil {
					return err
				}
				if k, isConst := want.(core.Const); isConst {
					typ.WriteString(strconv.FormatInt(int64(k.Bits), 10))
				} else {
					typ.WriteString("%v")
					typeArgs = append(typeArgs, want)
				}
				conds = append(conds, l.emit1(pos, "eq", core.Scalar(core.Bool),
					&core.BinOpExp{Op: core.Eq, T: core.I64, X: n, Y: want}))
			} else if at.Dim.Name != "" {
				typ.WriteString(at.Dim.Name)
			}
		}
		typ.WriteByte(']')
		te = at.Elem
		depth++
	}
	if len(conds) == 0 {
		return nil
	}
	typ.WriteString(typeExprText(te))
	var shape strings.Builder
	for d := range arr.Type.Rank {
		n, err := l.size(pos, arr, d)
		if err != nil {
			return err
		}
		shape.WriteString("[%v]")
		shapeArgs = append(shapeArgs, n)
	}
	ok2 := conds[0]
	for _, k := range conds[1:] {
		ok2 = l.emit1(pos, "ok", core.Scalar(core.Bool), &core.BinOpExp{Op: core.LogAnd, T: core.Bool, X: ok2, Y: k})
	}
	// The message's %v verbs come from coerceMsg's two %s in order: the
	// shape's, then the type's.
	msg := strings.Replace(strings.Replace(coerceMsg, "%s", shape.String(), 1), "%s", typ.String(), 1)
	l.stmts = append(l.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: ok2, Msg: msg,
		Args: append(shapeArgs, typeArgs...)}, Pos: pos})
	return nil
}

// typeExprText writes the element type of a coercion's target as Futhark
// prints it in messages.
func typeExprText(te syntax.TypeExpr) string {
	switch te := te.(type) {
	case *syntax.PrimTypeExpr:
		return te.Name
	case *syntax.NamedTypeExpr:
		return te.Name
	case *syntax.UniqueTypeExpr:
		return typeExprText(te.Elem)
	case *syntax.ArrayTypeExpr:
		return "[]" + typeExprText(te.Elem)
	case *syntax.TupleTypeExpr:
		parts := make([]string, len(te.Elems))
		for i, e := range te.Elems {
			parts[i] = typeExprText(e)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return "?"
}
