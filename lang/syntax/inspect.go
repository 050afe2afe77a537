package syntax

// Inspect calls f on e and, where f returns true, on the expressions
// inside e, depth first, in source order (as go/ast.Inspect does). Its
// switch names every expression of the closed AST, so that analyses in
// other packages (the checker's recursion rules, lowering's free-value
// walks) see the same sub-expressions; a new expression node gets its case
// here, and TestInspectReachesEveryVar fails until it has one. Patterns and
// types are not walked. A Match is walked through the expression the
// parser wrote it as (its Body), which contains the scrutinee.
func Inspect(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	all := func(es ...Expr) {
		for _, x := range es {
			Inspect(x, f)
		}
	}
	idx := func(ds []DimIndex) {
		for _, d := range ds {
			switch d := d.(type) {
			case *DimFix:
				all(d.I)
			case *DimSlice:
				all(d.Start, d.End, d.Stride)
			}
		}
	}
	switch e := e.(type) {
	case *IntLit, *FloatLit, *BoolLit, *Var, *OpSection, *ProjectSection, *Hole:
		// Leaves.
	case *IndexSection:
		idx(e.Indices)
	case *TupleExpr:
		all(e.Elems...)
	case *ParenExpr:
		all(e.X)
	case *ArrayLit:
		all(e.Elems...)
	case *Project:
		all(e.X)
	case *Index:
		all(e.X)
		idx(e.Indices)
	case *Apply:
		all(e.Fn)
		all(e.Args...)
	case *BinOp:
		all(e.Lhs, e.Rhs)
	case *Negate:
		all(e.X)
	case *Not:
		all(e.X)
	case *LeftSection:
		all(e.X)
	case *RightSection:
		all(e.X)
	case *Ascribe:
		all(e.X)
	case *If:
		all(e.Cond, e.Then, e.Else)
	case *LetIn:
		all(e.Val, e.Body)
	case *LetFun:
		all(e.FnBody, e.Body)
	case *LetWith:
		idx(e.Indices)
		all(e.Val, e.Body)
	case *Update:
		all(e.X)
		idx(e.Indices)
		all(e.Val)
	case *Lambda:
		all(e.Body)
	case *Loop:
		all(e.Init)
		switch fm := e.Form.(type) {
		case *ForLoop:
			all(fm.Bound)
		case *ForInLoop:
			all(fm.Arr)
		case *WhileLoop:
			all(fm.Cond)
		}
		all(e.Body)
	case *Range:
		all(e.Start, e.Second, e.End)
	case *RecordExpr:
		for _, fd := range e.Fields {
			all(fd.Value)
		}
	case *Assert:
		all(e.Cond, e.X)
	case *Constr:
		all(e.Args...)
	case *ConTest:
		all(e.X)
	case *ConField:
		all(e.X)
	case *Match:
		all(e.Body)
	}
}
