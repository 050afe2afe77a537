package lower

import (
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// Sum values are lowered the Futhark way: a sum type is a record of a u8
// tag and every constructor's payload (types/sums.go), so a value is a
// tuple whose inactive payloads are zeros (arrays of the sizes the type
// states, or empty), a constructor test compares the tag, and a payload
// component is a projection. Nothing after lowering knows of sum types.

// sumExpr lowers the sum-type expression nodes (a hook of expr1).
func (l *lowerer) sumExpr(c ctx, x syntax.Expr) (value, error) {
	pos := x.Span().Start
	switch x := x.(type) {
	case *syntax.Match:
		return l.expr(c, x.Body)
	case *syntax.Constr:
		st, k, err := sumConstructor(c.info.Types[x], x.Name, pos)
		if err != nil {
			return value{}, err
		}
		comps := []value{{t: types.Prim{T: core.U8}, atoms: []core.Atom{core.IntConst(core.U8, int64(k-1))}}}
		for i := 1; i < len(st.Elems); i++ {
			if i != k {
				z, err := l.zeroValue(c, pos, st.Elems[i])
				if err != nil {
					return value{}, err
				}
				comps = append(comps, z)
				continue
			}
			args := make([]value, len(x.Args))
			for j, a := range x.Args {
				v, err := l.expr(c, a)
				if err != nil {
					return value{}, err
				}
				args[j] = v
			}
			p := tupleValue(args)
			p.t = st.Elems[i]
			comps = append(comps, p)
		}
		v := tupleValue(comps)
		v.t = st
		return v, nil
	case *syntax.ConTest:
		xv, k, err := l.sumOperand(c, x.X, x.Name, pos)
		if err != nil {
			return value{}, err
		}
		tag, err := project(pos, xv, []int{0})
		if err != nil {
			return value{}, err
		}
		if len(tag.atoms) != 1 {
			return value{}, source.Errorf(pos, "internal error: a sum value's tag has %d atoms", len(tag.atoms))
		}
		eq := l.emit1(pos, "is", core.Scalar(core.Bool), &core.BinOpExp{Op: core.Eq, T: core.U8, X: tag.atoms[0], Y: core.IntConst(core.U8, int64(k-1))})
		return value{t: types.Prim{T: core.Bool}, atoms: []core.Atom{eq}}, nil
	case *syntax.ConField:
		xv, k, err := l.sumOperand(c, x.X, x.Name, pos)
		if err != nil {
			return value{}, err
		}
		return project(pos, xv, []int{k, x.Field})
	}
	return value{}, source.Errorf(pos, "internal error: unknown expression %T", x)
}

// sumOperand lowers x, a value of a sum type, and finds constructor name
// in its type.
func (l *lowerer) sumOperand(c ctx, x syntax.Expr, name string, pos source.Pos) (value, int, error) {
	_, k, err := sumConstructor(c.info.Types[x], name, pos)
	if err != nil {
		return value{}, 0, err
	}
	v, err := l.expr(c, x)
	return v, k, err
}

// sumConstructor is the sum type t and the field of its constructor name.
func sumConstructor(t types.Type, name string, pos source.Pos) (*types.Tuple, int, error) {
	st, ok := t.(*types.Tuple)
	if !ok || !types.IsSum(st) {
		return nil, 0, source.Errorf(pos, "internal error: constructor #%s of a value of type %v", name, t)
	}
	k, _ := types.SumConstructor(st, name)
	if k < 0 {
		return nil, 0, source.Errorf(pos, "internal error: type %s has no constructor #%s", st, name)
	}
	return st, k, nil
}

// zeroValue is the blank value of type t that fills an inactive payload:
// zeros, and arrays of the sizes t states where they are constants
// (empty where they are not).
func (l *lowerer) zeroValue(c ctx, pos source.Pos, t types.Type) (value, error) {
	switch t := t.(type) {
	case types.Prim:
		return value{t: t, atoms: []core.Atom{zeroOf(t.T)}}, nil
	case *types.Tuple:
		vs := make([]value, len(t.Elems))
		for i, e := range t.Elems {
			v, err := l.zeroValue(c, pos, e)
			if err != nil {
				return value{}, err
			}
			vs[i] = v
		}
		v := tupleValue(vs)
		v.t = t
		return v, nil
	case *types.Array:
		row, err := l.zeroValue(c, pos, t.Elem)
		if err != nil {
			return value{}, err
		}
		atoms := make([]core.Atom, len(row.atoms))
		for i, a := range row.atoms {
			for k := len(t.Dims) - 1; k >= 0; k-- {
				a = l.emit1(pos, "blank", a.AtomType().Lift(), &core.ReplicateExp{N: l.blankSize(c, t.Dims[k]), V: a})
			}
			atoms[i] = a
		}
		return value{t: t, atoms: atoms}, nil
	case *types.Arrow:
		// Applied only where the tag says another constructor is not
		// taken (a case's body is lowered whatever the tag).
		return value{fn: &fnVal{kind: fnBlank, typ: t, info: c.info, sc: c.sc, pos: pos}}, nil
	}
	return value{}, source.Errorf(pos, "a sum type's payload of type %v is not supported", t)
}

// blankSize is the size d of a blank array: a constant, a size in scope,
// or else 0.
func (l *lowerer) blankSize(c ctx, d types.Dim) core.Atom {
	switch {
	case d.Name == "" && d.Const >= 0:
		return core.IntConst(core.I64, d.Const)
	case d.Name != "" && c.sc != nil:
		if v, ok := c.sc.lookupName(d.Name); ok && !v.pending && v.fn == nil && len(v.atoms) == 1 && v.atoms[0].AtomType() == core.Scalar(core.I64) {
			return v.atoms[0]
		}
	}
	return core.IntConst(core.I64, 0)
}

// blankArity is the number of arguments a blank function of type t takes
// before it gives a first-order value.
func blankArity(t types.Type) int {
	n := 0
	for a, ok := t.(*types.Arrow); ok; a, ok = a.Ret.(*types.Arrow) {
		n++
	}
	return n
}

// blankResult is that first-order value's type.
func blankResult(t types.Type) types.Type {
	for a, ok := t.(*types.Arrow); ok; a, ok = t.(*types.Arrow) {
		t = a.Ret
	}
	return t
}
