package lower

import (
	"sort"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// Records are tuples whose components are the fields sorted by name (the
// checker's order, types.Tuple.Names); field accesses carry the positions
// the checker resolved (Info.FieldPath).

// fieldOrder is the permutation that puts written fields in record order.
func fieldOrder(fields []syntax.RecordField) []int {
	order := make([]int, len(fields))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return fields[order[i]].Name < fields[order[j]].Name })
	return order
}

func (l *lowerer) recordExpr(c ctx, x *syntax.RecordExpr) (value, error) {
	vals := make([]value, len(x.Fields))
	for i, f := range x.Fields {
		v, err := l.expr(c, f.Value)
		if err != nil {
			return value{}, err
		}
		vals[i] = v
	}
	order := fieldOrder(x.Fields)
	sorted := make([]value, len(order))
	for k, i := range order {
		sorted[k] = vals[i]
	}
	return tupleValue(sorted), nil
}

// fieldPath is the resolved path of a field access.
func fieldPath(c ctx, x syntax.Expr) ([]int, error) {
	p, ok := c.info.FieldPath[x]
	if !ok {
		return nil, source.Errorf(x.Span().Start, "internal error: unresolved record field")
	}
	return p, nil
}

// recordUpdate lowers `r with a.b = v`: the record's components with the
// one at the path replaced.
func (l *lowerer) recordUpdate(c ctx, x *syntax.Update) (value, error) {
	path, err := fieldPath(c, x)
	if err != nil {
		return value{}, err
	}
	r, err := l.exprFO(c, x.X)
	if err != nil {
		return value{}, err
	}
	v, err := l.expr(c, x.Val)
	if err != nil {
		return value{}, err
	}
	if t := c.info.Types[x]; t != nil && len(Flatten(t)) == len(r.atoms) {
		r.t = normalize(t)
	}
	return replaceField(x.Pos(), r, path, v)
}

func replaceField(pos source.Pos, r value, path []int, v value) (value, error) {
	if len(path) == 0 {
		return v, nil
	}
	comps, err := tupleComponents(pos, r)
	if err != nil {
		return value{}, err
	}
	if path[0] < 0 || path[0] >= len(comps) {
		return value{}, source.Errorf(pos, "internal error: field %d of %s", path[0], r.t)
	}
	nv, err := replaceField(pos, comps[path[0]], path[1:], v)
	if err != nil {
		return value{}, err
	}
	comps[path[0]] = nv
	out := tupleValue(comps)
	if t, ok := r.t.(*types.Tuple); ok {
		out.t.(*types.Tuple).Names = t.Names
	}
	return out, nil
}

// bindRecordPat binds the fields of a record pattern.
func (l *lowerer) bindRecordPat(c ctx, p *syntax.RecordPat, v value, pos source.Pos) error {
	if v.fn != nil {
		return source.Errorf(p.Pos(), "internal error: a function bound to a record pattern")
	}
	if t := c.info.PatTypes[p]; t != nil && len(Flatten(t)) == len(v.atoms) {
		v.t = normalize(t)
	}
	comps, err := tupleComponents(p.Pos(), v)
	if err != nil {
		return err
	}
	order := fieldOrder(p.Fields)
	if len(comps) != len(order) {
		return source.Errorf(p.Pos(), "internal error: record pattern of %d fields for %s", len(order), v.t)
	}
	for k, i := range order {
		if err := l.bindPat(c, p.Fields[i].Pat, comps[k], pos); err != nil {
			return err
		}
	}
	return nil
}
