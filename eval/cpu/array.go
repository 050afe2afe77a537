package cpu

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// eval1 evaluates a statement that is not a scalar operation in a one-lane
// frame: array construction and rearrangement, indexing, loops, calls and
// SOACs. Arrays are immutable once built, so reshapes and row views share
// their data and every update copies.
func (f *frame) eval1(s *core.Stmt) ([]eval.Value, error) {
	switch e := s.Exp.(type) {
	case *core.LoopExp:
		if !f.m.opts.Interpret {
			return f.compiledLoopStmt(s)
		}
		return f.loop(s, e)
	case *core.IndexExp:
		v, err := f.index(s, f.value(e.Arr), e.Idx)
		return []eval.Value{v}, err
	case *core.UpdateExp:
		v, err := f.update(s, e, false)
		return []eval.Value{v}, err
	case *core.SizeExp:
		arr := f.value(e.Arr)
		if e.Dim < 0 || e.Dim >= len(arr.Shape) {
			return nil, f.errAt(s, "internal error: size of dimension %d of a rank-%d array", e.Dim, len(arr.Shape))
		}
		return []eval.Value{i64Value(arr.Shape[e.Dim])}, nil
	case *core.ArrayLitExp:
		v, err := f.arrayLit(s, e)
		return []eval.Value{v}, err
	case *core.IotaExp:
		v, err := f.iota(s, e)
		return []eval.Value{v}, err
	case *core.ReplicateExp:
		v, err := f.replicate(s, e)
		return []eval.Value{v}, err
	case *core.ReshapeExp:
		arr := f.value(e.Arr)
		shape := make([]int64, len(e.Shape))
		n := int64(1)
		for i, a := range e.Shape {
			shape[i] = f.scalarInt(a)
			if shape[i] < 0 {
				return nil, f.errAt(s, "cannot reshape array of shape %s to shape %s", shapeString(arr.Shape), shapeString(shape))
			}
			n *= shape[i]
		}
		if err := eval.CheckShape(shape); err != nil {
			return nil, f.errAt(s, "cannot reshape array of shape %s: %v", shapeString(arr.Shape), err)
		}
		if n != arr.Len() {
			return nil, f.errAt(s, "cannot reshape array of shape %s to shape %s", shapeString(arr.Shape), shapeString(shape))
		}
		return []eval.Value{{Elem: arr.Elem, Shape: shape, Data: arr.Data}}, nil
	case *core.TransposeExp:
		v, err := f.transpose(s, f.value(e.Arr))
		return []eval.Value{v}, err
	case *core.ReverseExp:
		arr := f.value(e.Arr)
		n := arr.Shape[0]
		return []eval.Value{permuteRows(arr, func(i int64) int64 { return n - 1 - i })}, nil
	case *core.RotateExp:
		arr := f.value(e.Arr)
		n := arr.Shape[0]
		if n == 0 {
			return []eval.Value{arr}, nil
		}
		r := ((f.scalarInt(e.R) % n) + n) % n
		return []eval.Value{permuteRows(arr, func(i int64) int64 { return (i + r) % n })}, nil
	case *core.ConcatExp:
		v, err := f.concat(s, e)
		return []eval.Value{v}, err
	case *core.CopyExp:
		return []eval.Value{copyValue(f.value(e.Arr))}, nil
	case *core.ApplyExp:
		fn := f.m.prog.Fun(e.Fun)
		if fn == nil {
			return nil, f.errAt(s, "internal error: call of unknown function %s", e.Fun)
		}
		args := make([]eval.Value, len(e.Args))
		for i, a := range e.Args {
			args[i] = f.value(a)
		}
		return f.m.call(fn, args, f.depth+1, f.soac, s.Pos)
	case *core.AssertExp:
		if !f.atom(e.Cond).data.([]bool)[0] {
			vals := make([]string, len(e.Args))
			for i, a := range e.Args {
				vals[i] = fmt.Sprint(f.scalarInt(a))
			}
			return nil, f.errAt(s, "%s", e.Message(vals))
		}
		return nil, nil
	case *core.Screma:
		return f.screma(s, e)
	case *core.Segmented:
		return f.segmented(s, e)
	case *core.Hist:
		return f.hist(s, e)
	case *core.Scatter:
		return f.scatter(s, e)
	case *core.Filter:
		return f.filter(s, e)
	case *core.MultiScan:
		return f.multiscan(s, e)
	case *core.AtomExp, *core.BinOpExp, *core.UnOpExp, *core.ConvExp, *core.IfExp:
		return nil, f.errAt(s, "internal error: scalar statement reached eval1")
	}
	return nil, f.errAt(s, "internal error: unknown expression %T", s.Exp)
}

func i64Value(n int64) eval.Value {
	return eval.Value{Elem: core.I64, Data: []int64{n}}
}

// newArray allocates an array, refusing sizes beyond MaxAlloc or the
// memory budget (eval.Reserve).
func (f *frame) newArray(s *core.Stmt, t core.PrimType, shape ...int64) (eval.Value, error) {
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return eval.Value{}, f.errAt(s, "negative array size %d", d)
		}
		n *= d
	}
	// Every dimension counts, a 0 among them included: the shape must
	// stay valid when rearranged ([0][2^62][4] transposed is [2^62][0][4]).
	if err := eval.CheckShape(shape); err != nil {
		return eval.Value{}, f.errAt(s, "cannot allocate an array: %v", err)
	}
	size := int64(t.Size())
	if n > (1<<63-1)/size {
		return eval.Value{}, f.errAt(s, "cannot allocate %d elements of %d bytes", n, size)
	}
	if max := f.m.opts.MaxAlloc; max > 0 && n*size > max {
		return eval.Value{}, f.errAt(s, "cannot allocate %d bytes: more than the largest array allowed, %d bytes", n*size, max)
	}
	if err := eval.Reserve(n * size); err != nil {
		return eval.Value{}, f.errAt(s, "cannot allocate %d bytes: %v", n*size, err)
	}
	return eval.Value{Elem: t, Shape: append([]int64(nil), shape...), Data: eval.MakeSlice(t, int(n))}, nil
}

func copyValue(v eval.Value) eval.Value {
	d := eval.MakeSlice(v.Elem, int(v.Len()))
	copyAt(d, 0, v.Data)
	return eval.Value{Elem: v.Elem, Shape: append([]int64(nil), v.Shape...), Data: d}
}

// rowLen is the number of elements in one row of v.
func rowLen(v eval.Value) int64 {
	n := int64(1)
	for _, d := range v.Shape[1:] {
		n *= d
	}
	return n
}

// row is a view of row i of v.
func row(v eval.Value, i int64) eval.Value {
	rl := rowLen(v)
	return eval.Value{Elem: v.Elem, Shape: v.Shape[1:], Data: sliceAny(v.Data, int(i*rl), int((i+1)*rl))}
}

// rows is a view of rows lo..hi-1 of v.
func rows(v eval.Value, lo, hi int64) eval.Value {
	rl := rowLen(v)
	shape := append([]int64{hi - lo}, v.Shape[1:]...)
	return eval.Value{Elem: v.Elem, Shape: shape, Data: sliceAny(v.Data, int(lo*rl), int(hi*rl))}
}

func permuteRows(v eval.Value, src func(i int64) int64) eval.Value {
	out := eval.Value{Elem: v.Elem, Shape: append([]int64(nil), v.Shape...), Data: eval.MakeSlice(v.Elem, int(v.Len()))}
	rl := rowLen(v)
	for i := int64(0); i < v.Shape[0]; i++ {
		j := src(i)
		copyAt(out.Data, int(i*rl), sliceAny(v.Data, int(j*rl), int((j+1)*rl)))
	}
	return out
}

// transpose swaps the two outer dimensions of v. The copy is done in
// tiles, so that both the rows read and the columns written stay in cache,
// with int indices throughout (an array may have more than 2^31 elements)
// and no memory beyond the result.
func (f *frame) transpose(s *core.Stmt, v eval.Value) (eval.Value, error) {
	a, b := v.Shape[0], v.Shape[1]
	shape := append([]int64{b, a}, v.Shape[2:]...)
	out, err := f.newArray(s, v.Elem, shape...)
	if err != nil {
		return out, err
	}
	inner := int(rowLen(v) / max(b, 1))
	if v.Len() == 0 {
		return out, nil
	}
	switch d := out.Data.(type) {
	case []bool:
		transposeData(d, v.Data.([]bool), int(a), int(b), inner)
	case []int8:
		transposeData(d, v.Data.([]int8), int(a), int(b), inner)
	case []int16:
		transposeData(d, v.Data.([]int16), int(a), int(b), inner)
	case []int32:
		transposeData(d, v.Data.([]int32), int(a), int(b), inner)
	case []int64:
		transposeData(d, v.Data.([]int64), int(a), int(b), inner)
	case []uint8:
		transposeData(d, v.Data.([]uint8), int(a), int(b), inner)
	case []uint16:
		transposeData(d, v.Data.([]uint16), int(a), int(b), inner)
	case []uint32:
		transposeData(d, v.Data.([]uint32), int(a), int(b), inner)
	case []uint64:
		transposeData(d, v.Data.([]uint64), int(a), int(b), inner)
	case []float32:
		transposeData(d, v.Data.([]float32), int(a), int(b), inner)
	case []float64:
		transposeData(d, v.Data.([]float64), int(a), int(b), inner)
	default:
		return eval.Value{}, f.errAt(s, "internal error: transpose of %T", out.Data)
	}
	return out, nil
}

// transposeTile is the side of the square tiles transposeData copies.
const transposeTile = 64

// transposeData writes the [b][a][inner] transposition of the [a][b][inner]
// array src into dst.
func transposeData[T any](dst, src []T, a, b, inner int) {
	if inner > 1 {
		for i := range a {
			for j := range b {
				copy(dst[(j*a+i)*inner:(j*a+i+1)*inner], src[(i*b+j)*inner:])
			}
		}
		return
	}
	transposeRows(dst, src, a, b, 0, b)
}

// transposeRows writes rows jlo..jhi-1 of the [b][a] transposition of the
// [a][b] array src into dst, a tile at a time.
func transposeRows[T any](dst, src []T, a, b, jlo, jhi int) {
	for i0 := 0; i0 < a; i0 += transposeTile {
		i1 := min(i0+transposeTile, a)
		for j0 := jlo; j0 < jhi; j0 += transposeTile {
			j1 := min(j0+transposeTile, jhi)
			for i := i0; i < i1; i++ {
				row := src[i*b+j0 : i*b+j1]
				for k, x := range row {
					dst[(j0+k)*a+i] = x
				}
			}
		}
	}
}

// region is the set of elements an index selects: per indexed dimension a
// list of positions, a flag saying whether the dimension survives (slice),
// and the elements per position of the trailing whole dimensions.
type region struct {
	pos   [][]int64
	keep  []bool
	inner int64
	shape []int64 // result shape
}

func (f *frame) region(s *core.Stmt, arr eval.Value, idx []core.DimIndex) (*region, error) {
	r := &region{inner: 1}
	var bad []string
	for k, d := range idx {
		n := arr.Shape[k]
		if d.Fix != nil {
			i := f.scalarInt(*d.Fix)
			bad = append(bad, fmt.Sprint(i))
			if i < 0 || i >= n {
				bad = nil
				for _, d2 := range idx {
					bad = append(bad, f.dimString(d2))
				}
				return nil, f.errAt(s, "Index [%s] out of bounds for array of shape %s.", strings.Join(bad, ", "), shapeString(arr.Shape))
			}
			r.pos = append(r.pos, []int64{i})
			r.keep = append(r.keep, false)
			continue
		}
		i, j, st := f.scalarInt(d.Start), f.scalarInt(d.End), f.scalarInt(d.Stride)
		var cnt int64
		ok := true
		// Futhark's rule (its internaliser's): the count is (j-i)/st
		// rounded away from zero; an empty slice is always valid, and a
		// nonempty one when its first and last elements are in bounds
		// (so j may lie past the end when the stride skips over it).
		switch {
		case st > 0:
			cnt = (j - i + st - 1) / st
			last := i + (cnt-1)*st
			ok = cnt == 0 || 0 <= i && i <= j && 0 <= last && last < n
		case st < 0:
			cnt = (j - i + st + 1) / st
			last := i + (cnt-1)*st
			ok = cnt == 0 || -1 <= j && j <= i && 0 <= last && last <= n && i < n
		default:
			ok = false // a zero stride is never valid
		}
		if !ok || cnt < 0 {
			cnt = 0
		}
		if !ok {
			var parts []string
			for _, d2 := range idx {
				parts = append(parts, f.dimString(d2))
			}
			return nil, f.errAt(s, "Index [%s] out of bounds for array of shape %s.", strings.Join(parts, ", "), shapeString(arr.Shape))
		}
		ps := make([]int64, cnt)
		for q := range ps {
			ps[q] = i + int64(q)*st
		}
		r.pos = append(r.pos, ps)
		r.keep = append(r.keep, true)
		r.shape = append(r.shape, cnt)
	}
	for _, d := range arr.Shape[len(idx):] {
		r.inner *= d
	}
	r.shape = append(r.shape, arr.Shape[len(idx):]...)
	return r, nil
}

func (f *frame) dimString(d core.DimIndex) string {
	if d.Fix != nil {
		return fmt.Sprint(f.scalarInt(*d.Fix))
	}
	return d.Omit.SliceText(f.scalarInt(d.Start), f.scalarInt(d.End), f.scalarInt(d.Stride))
}

// walk calls fn with the offset in the source array and the offset in the
// region (both in elements) of every run of inner contiguous elements.
func (r *region) walk(shape []int64, fn func(src, dst int64)) {
	strides := make([]int64, len(r.pos))
	st := r.inner
	for k := len(r.pos) - 1; k >= 0; k-- {
		strides[k] = st
		st *= shape[k]
	}
	dst := int64(0)
	var rec func(k int, off int64)
	rec = func(k int, off int64) {
		if k == len(r.pos) {
			fn(off, dst)
			dst += r.inner
			return
		}
		for _, p := range r.pos[k] {
			rec(k+1, off+p*strides[k])
		}
	}
	rec(0, 0)
}

func (f *frame) index(s *core.Stmt, arr eval.Value, idx []core.DimIndex) (eval.Value, error) {
	r, err := f.region(s, arr, idx)
	if err != nil {
		return eval.Value{}, err
	}
	// Fixed leading indices select a contiguous block: share it.
	allFix := true
	for _, k := range r.keep {
		allFix = allFix && !k
	}
	if allFix {
		off := int64(0)
		r.walk(arr.Shape, func(src, _ int64) { off = src })
		if len(r.shape) == 0 {
			// A scalar is copied, so that an in-place update of the array
			// (see inplace.go) cannot change it.
			d := eval.MakeSlice(arr.Elem, 1)
			setLane(d, 0, arr.Data, int(off))
			return eval.Value{Elem: arr.Elem, Data: d}, nil
		}
		return eval.Value{Elem: arr.Elem, Shape: r.shape, Data: sliceAny(arr.Data, int(off), int(off+r.inner))}, nil
	}
	out, err := f.newArray(s, arr.Elem, r.shape...)
	if err != nil {
		return out, err
	}
	r.walk(arr.Shape, func(src, dst int64) {
		copyAt(out.Data, int(dst), sliceAny(arr.Data, int(src), int(src+r.inner)))
	})
	return out, nil
}

// update is `a with [idx] = v`; inPlace writes into a's array, which the
// caller has proved nothing else refers to.
func (f *frame) update(s *core.Stmt, e *core.UpdateExp, inPlace bool) (eval.Value, error) {
	arr := f.value(e.Arr)
	r, err := f.region(s, arr, e.Idx)
	if err != nil {
		return eval.Value{}, err
	}
	val := f.value(e.Val)
	if !sameShape(val.Shape, r.shape) {
		return eval.Value{}, f.errAt(s, "Shape of slice does not match shape of value (value %s, slice %s).", shapeString(val.Shape), shapeString(r.shape))
	}
	out := arr
	if !inPlace {
		out = copyValue(arr)
	}
	r.walk(arr.Shape, func(src, dst int64) {
		copyAt(out.Data, int(src), sliceAny(val.Data, int(dst), int(dst+r.inner)))
	})
	return out, nil
}

func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (f *frame) arrayLit(s *core.Stmt, e *core.ArrayLitExp) (eval.Value, error) {
	if e.Elem.Rank == 0 {
		out, err := f.newArray(s, e.Elem.Elem, int64(len(e.Elems)))
		if err != nil {
			return out, err
		}
		for i, a := range e.Elems {
			setLane(out.Data, i, f.atom(a).data, 0)
		}
		return out, nil
	}
	var rowShape []int64
	vals := make([]eval.Value, len(e.Elems))
	for i, a := range e.Elems {
		vals[i] = f.value(a)
		if i == 0 {
			rowShape = vals[0].Shape
		} else if !sameShape(vals[i].Shape, rowShape) {
			return eval.Value{}, f.errAt(s, "irregular array literal: element %d has shape %s but element 0 has shape %s",
				i, shapeString(vals[i].Shape), shapeString(rowShape))
		}
	}
	if len(vals) == 0 {
		rowShape = make([]int64, e.Elem.Rank)
	}
	out, err := f.newArray(s, e.Elem.Elem, append([]int64{int64(len(vals))}, rowShape...)...)
	if err != nil {
		return out, err
	}
	rl := rowLen(out)
	for i, v := range vals {
		copyAt(out.Data, int(int64(i)*rl), v.Data)
	}
	return out, nil
}

func (f *frame) iota(s *core.Stmt, e *core.IotaExp) (eval.Value, error) {
	n := f.scalarInt(e.N)
	if n < 0 {
		return eval.Value{}, f.errAt(s, "Range 0..1..<%d is invalid.", n)
	}
	out, err := f.newArray(s, e.T, n)
	if err != nil {
		return out, err
	}
	start, step := f.atom(e.Start).data, f.atom(e.Step).data
	switch d := out.Data.(type) {
	case []int8:
		iotaFill(d, start.([]int8)[0], step.([]int8)[0])
	case []int16:
		iotaFill(d, start.([]int16)[0], step.([]int16)[0])
	case []int32:
		iotaFill(d, start.([]int32)[0], step.([]int32)[0])
	case []int64:
		iotaFill(d, start.([]int64)[0], step.([]int64)[0])
	case []uint8:
		iotaFill(d, start.([]uint8)[0], step.([]uint8)[0])
	case []uint16:
		iotaFill(d, start.([]uint16)[0], step.([]uint16)[0])
	case []uint32:
		iotaFill(d, start.([]uint32)[0], step.([]uint32)[0])
	case []uint64:
		iotaFill(d, start.([]uint64)[0], step.([]uint64)[0])
	default:
		return eval.Value{}, f.errAt(s, "internal error: iota of %v", e.T)
	}
	return out, nil
}

func iotaFill[T integer](d []T, start, step T) {
	v := start
	for i := range d {
		d[i] = v
		v += step
	}
}

func (f *frame) replicate(s *core.Stmt, e *core.ReplicateExp) (eval.Value, error) {
	n := f.scalarInt(e.N)
	if n < 0 {
		return eval.Value{}, f.errAt(s, "Range 0..1..<%d is invalid.", n)
	}
	v := f.value(e.V)
	out, err := f.newArray(s, v.Elem, append([]int64{n}, v.Shape...)...)
	if err != nil {
		return out, err
	}
	rl := v.Len()
	if rl == 1 {
		fillAny(out.Data, v.Data, 0)
		return out, nil
	}
	for i := int64(0); i < n; i++ {
		copyAt(out.Data, int(i*rl), v.Data)
	}
	return out, nil
}

func (f *frame) concat(s *core.Stmt, e *core.ConcatExp) (eval.Value, error) {
	vals := make([]eval.Value, len(e.Arrs))
	total := int64(0)
	for i, a := range e.Arrs {
		vals[i] = f.value(a)
		if !sameShape(vals[i].Shape[1:], vals[0].Shape[1:]) {
			return eval.Value{}, f.errAt(s, "size mismatch: cannot concatenate arrays of shapes %s and %s",
				shapeString(vals[0].Shape), shapeString(vals[i].Shape))
		}
		total += vals[i].Shape[0]
	}
	out, err := f.newArray(s, vals[0].Elem, append([]int64{total}, vals[0].Shape[1:]...)...)
	if err != nil {
		return out, err
	}
	off := 0
	for _, v := range vals {
		copyAt(out.Data, off, v.Data)
		off += int(v.Len())
	}
	return out, nil
}

// loop runs a sequential loop; the context is checked every iteration.
func (f *frame) loop(s *core.Stmt, e *core.LoopExp) ([]eval.Value, error) {
	cur := make([]col, len(e.Params))
	for i, a := range e.Init {
		cur[i] = f.atom(a)
	}
	f.bind(e.Params, cur)
	plan := inPlacePlan(e)
	owned := make([]bool, len(e.Params))
	body := func() ([]col, error) {
		if plan == nil {
			return f.body(e.Body)
		}
		for _, st := range e.Body.Stmts {
			pi, ok := plan[st]
			if !ok {
				if err := f.stmt(st); err != nil {
					return nil, err
				}
				continue
			}
			v, err := f.update(st, st.Exp.(*core.UpdateExp), owned[pi])
			if err != nil {
				return nil, err
			}
			f.vars[st.Pat[0].Name] = valueCol(v)
			owned[pi] = true
		}
		res := make([]col, len(e.Body.Result))
		for i, a := range e.Body.Result {
			res[i] = f.atom(a)
		}
		return res, nil
	}
	if fl := core.ForOf(e.Form); fl != nil {
		bt := fl.Bound.AtomType().Elem
		n := f.scalarInt(fl.Bound)
		if bt.IsUnsigned() && n < 0 {
			n = 1<<63 - 1
		}
		for i := int64(0); i < n; i++ {
			if err := f.m.cancelled(); err != nil {
				return nil, err
			}
			iv := eval.Scalar(core.IntConst(bt, i))
			f.vars[fl.I.Name] = col{data: iv.Data}
			res, err := body()
			if err != nil {
				return nil, err
			}
			f.bind(e.Params, res)
		}
	} else if wl := core.WhileOf(e.Form); wl != nil {
		for f.lookup(wl.Cond).data.([]bool)[0] {
			if err := f.m.cancelled(); err != nil {
				return nil, err
			}
			res, err := body()
			if err != nil {
				return nil, err
			}
			f.bind(e.Params, res)
		}
	} else {
		return nil, f.errAt(s, "internal error: unknown loop form %T", e.Form)
	}
	out := make([]eval.Value, len(e.Params))
	for i, p := range e.Params {
		out[i] = f.laneValue(f.vars[p.Name], p.Type, 0)
	}
	return out, nil
}
