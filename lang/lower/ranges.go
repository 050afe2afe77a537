package lower

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// rangeExpr lowers a range to an iota with a start and a step (IotaExp),
// after a run-time check of Futhark's validity rules:
//
//   - the step is the second element minus the start, or 1 (-1 for ..>);
//     a zero step is invalid;
//   - `..<` needs a positive step and start <= end, `..>` a negative step
//     and start >= end; `...` goes in the step's direction and needs the
//     end on that side of the start;
//   - the length is the distance (plus one for `...`) divided by the
//     step's magnitude, rounded up.
//
// Bounds are compared in i64 after conversion (unsigned bounds
// zero-extend); the elements are computed in the range's own type.
func (l *lowerer) rangeExpr(c ctx, x *syntax.Range) (value, error) {
	pos := x.Pos()
	start, err := l.exprAtom(c, x.Start)
	if err != nil {
		return value{}, err
	}
	end, err := l.exprAtom(c, x.End)
	if err != nil {
		return value{}, err
	}
	t := start.AtomType().Elem
	i64 := core.Scalar(core.I64)
	b := func(op core.BinOp, a, b core.Atom) core.Atom {
		return l.emit1(pos, core.BinOps[op].Name, core.Scalar(core.BinOpResult(op, core.I64)), &core.BinOpExp{Op: op, T: core.I64, X: a, Y: b})
	}
	bo := func(op core.BinOp, a, b core.Atom) core.Atom {
		return l.emit1(pos, core.BinOps[op].Name, core.Scalar(core.Bool), &core.BinOpExp{Op: op, T: core.Bool, X: a, Y: b})
	}
	s64, e64 := l.toI64(pos, start), l.toI64(pos, end)
	var step core.Atom
	var second core.Atom
	if x.Second != nil {
		if second, err = l.exprAtom(c, x.Second); err != nil {
			return value{}, err
		}
		step = b(core.Sub, l.toI64(pos, second), s64)
	} else if x.Op == "..>" {
		step = core.IntConst(core.I64, -1)
	} else {
		step = core.IntConst(core.I64, 1)
	}
	zero, one := core.IntConst(core.I64, 0), core.IntConst(core.I64, 1)
	up := b(core.Gt, step, zero)
	down := b(core.Lt, step, zero)
	var valid, dist core.Atom
	switch x.Op {
	case "..<":
		valid = bo(core.LogAnd, up, b(core.Le, s64, e64))
		dist = b(core.Sub, e64, s64)
	case "..>":
		valid = bo(core.LogAnd, down, b(core.Ge, s64, e64))
		dist = b(core.Sub, s64, e64)
	default: // "..."
		okUp := bo(core.LogAnd, up, b(core.Le, s64, e64))
		okDown := bo(core.LogAnd, down, b(core.Ge, s64, e64))
		valid = bo(core.LogOr, okUp, okDown)
		d := b(core.Sub, e64, s64)
		d = l.emit1(pos, "abs", i64, &core.UnOpExp{Op: core.Abs, T: core.I64, X: d})
		dist = b(core.Add, d, one)
	}
	var sec64 core.Atom
	if second != nil {
		sec64 = l.toI64(pos, second)
	}
	msg, args := rangeMsg(x, s64, sec64, e64)
	l.stmts = append(l.stmts, &core.Stmt{Exp: &core.AssertExp{Cond: valid, Msg: msg, Args: args}, Pos: pos})
	mag := l.emit1(pos, "abs", i64, &core.UnOpExp{Op: core.Abs, T: core.I64, X: step})
	// A zero step only reaches here when the check above failed.
	safe := b(core.Max, mag, one)
	n := b(core.Quot, b(core.Sub, b(core.Add, dist, safe), one), safe)
	n = b(core.Max, n, zero)
	var stepT core.Atom = step
	if t != core.I64 {
		stepT = l.emit1(pos, "step", core.Scalar(t), &core.ConvExp{From: core.I64, To: t, X: step})
	}
	r := l.emit1(pos, "range", core.ArrayOf(t, 1), &core.IotaExp{N: n, Start: start, Step: stepT, T: t})
	l.knowSizes([]*core.Var{r}, n)
	return value{t: &types.Array{Elem: types.Prim{T: t}, Dims: []types.Dim{types.AnyDim}}, atoms: []core.Atom{r}}, nil
}

// rangeMsg is Futhark's message for an invalid range, `Range 0..1..<-1 is
// invalid.`, with the bounds' values: constants written in, the others
// as %v verbs filled in at run time from the returned arguments.
func rangeMsg(x *syntax.Range, start, second, end core.Atom) (string, []core.Atom) {
	var args []core.Atom
	show := func(a core.Atom) string {
		if k, ok := a.(core.Const); ok {
			return fmt.Sprint(k.Int())
		}
		args = append(args, a)
		return "%v"
	}
	s := "Range " + show(start)
	if second != nil {
		s += ".." + show(second)
	}
	s += x.Op + show(end) + " is invalid."
	return s, args
}
