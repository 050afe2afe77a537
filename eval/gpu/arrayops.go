package gpu

// Host-level array operations as segmented maps: transpose, copy,
// reverse, iota and replicate at the top of a body would otherwise run on
// the CPU, bringing device arrays down and the result back up (a column
// sum, `map f32.sum (transpose a)`, starts with one). Each is a nest over
// its result's index space whose body reads one element, so segmap.go
// generates and launches it like any other.

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// arrayOpNest returns the nest of a host-level array operation, or nil.
func arrayOpNest(s *core.Stmt) *nest {
	if len(s.Pat) != 1 || !s.Pat[0].Type.IsArray() {
		return nil
	}
	out := s.Pat[0]
	rank := out.Type.Rank
	elem := out.Type.Elem
	n := &nest{Stmt: s, Ret: []core.Type{core.Scalar(elem)}, ResultDims: [][]*hostDim{nil}}
	idx := make([]*core.Var, rank)
	for k := range idx {
		idx[k] = &core.Var{Name: fmt.Sprintf("ar_aop%d_%s", k, out.Name), Type: core.Scalar(core.I64)}
	}
	fresh := func(tag string, t core.PrimType) *core.Var {
		return &core.Var{Name: fmt.Sprintf("ar_aop_%s_%s", tag, out.Name), Type: core.Scalar(t)}
	}
	levels := func(dims []hostDim) {
		for k, d := range dims {
			n.Levels = append(n.Levels, &level{Dim: d, Index: idx[k]})
		}
	}
	read := func(a *core.Var, ix []core.Atom) *core.Body {
		x := fresh("x", elem)
		var ds []core.DimIndex
		for _, i := range ix {
			i := i
			ds = append(ds, core.DimIndex{Fix: &i})
		}
		return &core.Body{Stmts: []*core.Stmt{{Pat: []*core.Var{x}, Exp: &core.IndexExp{Arr: a, Idx: ds}, Pos: s.Pos}}, Result: []core.Atom{x}}
	}
	arrDims := func(a *core.Var) []hostDim {
		ds := make([]hostDim, a.Type.Rank)
		for k := range ds {
			ds[k] = hostDim{Arr: a, D: k}
		}
		return ds
	}
	atoms := func(vs []*core.Var) []core.Atom {
		out := make([]core.Atom, len(vs))
		for i, v := range vs {
			out[i] = v
		}
		return out
	}
	switch e := s.Exp.(type) {
	case *core.TransposeExp:
		if e.Arr.Type.Rank < 2 {
			return nil
		}
		ds := arrDims(e.Arr)
		ds[0], ds[1] = ds[1], ds[0]
		levels(ds)
		ix := atoms(idx)
		ix[0], ix[1] = ix[1], ix[0]
		n.Body = read(e.Arr, ix)
	case *core.CopyExp:
		levels(arrDims(e.Arr))
		n.Body = read(e.Arr, atoms(idx))
	case *core.ReverseExp:
		levels(arrDims(e.Arr))
		size, last, j := fresh("n", core.I64), fresh("last", core.I64), fresh("j", core.I64)
		ix := atoms(idx)
		ix[0] = j
		b := read(e.Arr, ix)
		pre := []*core.Stmt{
			{Pat: []*core.Var{size}, Exp: &core.SizeExp{Arr: e.Arr, Dim: 0}, Pos: s.Pos},
			{Pat: []*core.Var{last}, Exp: &core.BinOpExp{Op: core.Sub, T: core.I64, X: size, Y: core.IntConst(core.I64, 1)}, Pos: s.Pos},
			{Pat: []*core.Var{j}, Exp: &core.BinOpExp{Op: core.Sub, T: core.I64, X: last, Y: idx[0]}, Pos: s.Pos},
		}
		b.Stmts = append(pre, b.Stmts...)
		n.Body = b
	case *core.IotaExp:
		if e.N.AtomType().Elem != core.I64 || rank != 1 {
			return nil
		}
		levels([]hostDim{{Atom: e.N}})
		c, m, r := fresh("c", e.T), fresh("m", e.T), fresh("r", e.T)
		n.Body = &core.Body{Stmts: []*core.Stmt{
			{Pat: []*core.Var{c}, Exp: &core.ConvExp{From: core.I64, To: e.T, X: idx[0]}, Pos: s.Pos},
			{Pat: []*core.Var{m}, Exp: &core.BinOpExp{Op: core.Mul, T: e.T, X: c, Y: e.Step}, Pos: s.Pos},
			{Pat: []*core.Var{r}, Exp: &core.BinOpExp{Op: core.Add, T: e.T, X: e.Start, Y: m}, Pos: s.Pos},
		}, Result: []core.Atom{r}}
	case *core.ReplicateExp:
		if e.N.AtomType().Elem != core.I64 {
			return nil
		}
		if v, ok := e.V.(*core.Var); ok && v.Type.IsArray() {
			levels(append([]hostDim{{Atom: e.N}}, arrDims(v)...))
			n.Body = read(v, atoms(idx[1:]))
			break
		}
		levels([]hostDim{{Atom: e.N}})
		n.Body = &core.Body{Result: []core.Atom{e.V}}
	default:
		return nil
	}
	return n
}
