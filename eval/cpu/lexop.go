package cpu

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

// Lexicographic selection operators. Arg-max style reductions —
// `\(xv, xi) (yv, yi) -> if xv < yv then (yv, yi) else if yv < xv then
// (xv, xi) else if xi < yi then (xv, xi) else (yv, yi)` — return one of
// their two arguments unchanged, chosen by comparing integer components in
// turn: a lexicographic order with a direction per component and a fixed
// side for complete ties. Such an operator is associative, and reducing a
// chunk with it in order gives the chunk's best element (the first of the
// equally good ones when ties keep the left argument, the last when they
// take the right), so a chunk is reduced by typed passes over its columns
// instead of by applications of the lambda: the extreme of the first
// component, the lanes attaining it, the extreme of the next component
// among those lanes, and so on.
//
// The recogniser accepts an operator whose body is a tree of ifs, each
// testing one comparison (<, <=, >, >=) between the same integer
// component of the two sides, whose leaves return all the parameters of
// one side in order; a tree that is not such an order (a leaf picking the
// loser, a comparison between different components) is left to the
// general path. A component is a parameter, or a key that statements
// before the tree compute the same way from each side's parameters
// (IndexOfMaxPack's unpacking); keys are then computed per chunk by a
// projection lambda. Floats are excluded: NaN makes their comparisons no
// order.

// lexKey is one component of the order.
type lexKey struct {
	param  int  // the component: a parameter (< k) or a projection (see lexOp.proj)
	larger bool // the larger value wins
}

// lexOp is a recognised lexicographic selection.
type lexOp struct {
	keys    []lexKey
	tieLeft bool // on equal keys the left (earlier) argument wins
	types   []core.PrimType
	// proj computes the components numbered from k on (k is the number
	// of parameters per side) from one side's k parameters: the keys the
	// operator computes before comparing (nil: none).
	proj *core.Lambda
}

// lexSide is the side of a parameter, or of a leaf: 0 left, 1 right.
type lexSide int

// lexNode is one if of the operator's body, or a leaf.
type lexNode struct {
	leaf      bool
	side      lexSide // leaf: the side returned
	op        core.BinOp
	pSide     lexSide // cond: side and component of the comparison's left operand
	param     int
	then, els *lexNode
}

// recogniseLex returns the lexicographic order op is, or nil.
func recogniseLex(l *core.Lambda) *lexOp {
	if l == nil || len(l.Params) < 2 || len(l.Params)%2 != 0 || len(l.Body.Stmts) < 2 {
		return nil
	}
	k := len(l.Params) / 2
	pos := map[string][2]int{}
	types := make([]core.PrimType, k)
	for i, p := range l.Params {
		if p.Type.Rank != 0 {
			return nil
		}
		pos[p.Name] = [2]int{i / k, i % k}
		if i < k {
			types[i] = p.Type.Elem
		} else if p.Type.Elem != types[i-k] {
			return nil
		}
	}
	lo := &lexOp{types: types}
	m := len(l.Body.Stmts) - 2
	if m > 0 && !lo.projections(l, k, m, pos) {
		return nil
	}
	tree := &core.Body{Stmts: l.Body.Stmts[m:], Result: l.Body.Result}
	root := lexParse(tree, pos, k, l.Params)
	if root == nil || !lo.walk(root) {
		return nil
	}
	return lo
}

// projections reads the first m statements of l as keys computed from one
// side's components (IndexOfMaxPack unpacks value and index from an i64:
// `i32.i64 (x >> 32)`, `x & 0xFFFFFFFF`), the same way on both sides. Each
// distinct computation becomes a component numbered from k on, in pos; the
// left side's statements become lo.proj, which makes those components
// from the k parameters.
func (lo *lexOp) projections(l *core.Lambda, k, m int, pos map[string][2]int) bool {
	side := map[string]lexSide{}
	sig := map[string]string{} // the computation of a variable, sides erased
	for i, p := range l.Params {
		side[p.Name] = lexSide(i / k)
		sig[p.Name] = fmt.Sprintf("p%d", i%k)
	}
	index := map[string]int{} // signature -> component
	var left []*core.Stmt
	var keys []core.Atom
	var keyTypes []core.Type
	for _, st := range l.Body.Stmts[:m] {
		if len(st.Pat) != 1 || st.Pat[0].Type.Rank != 0 {
			return false
		}
		var args []core.Atom
		var op string
		switch e := st.Exp.(type) {
		case *core.BinOpExp:
			if e.T.IsInt() {
				switch e.Op {
				case core.Div, core.Mod, core.Quot, core.Rem, core.Pow:
					return false // may fail on lanes the operator would not reach
				}
			}
			args, op = []core.Atom{e.X, e.Y}, fmt.Sprintf("b%d.%d", e.Op, e.T)
		case *core.UnOpExp:
			args, op = []core.Atom{e.X}, fmt.Sprintf("u%d.%d", e.Op, e.T)
		case *core.ConvExp:
			args, op = []core.Atom{e.X}, fmt.Sprintf("c%d.%d", e.From, e.To)
		default:
			return false
		}
		sd := lexSide(-1)
		parts := []string{op}
		for _, a := range args {
			switch a := a.(type) {
			case *core.Var:
				vs, ok := side[a.Name]
				if !ok || (sd >= 0 && vs != sd) {
					return false
				}
				sd = vs
				parts = append(parts, sig[a.Name])
			case core.Const:
				parts = append(parts, fmt.Sprintf("%v", a))
			}
		}
		if sd < 0 {
			return false
		}
		v := st.Pat[0]
		side[v.Name] = sd
		sig[v.Name] = "(" + strings.Join(parts, " ") + ")"
		if sd == 0 {
			left = append(left, st)
		}
		if !v.Type.Elem.IsInt() {
			continue // only integers can be keys
		}
		c, ok := index[sig[v.Name]]
		if !ok {
			c = k + len(index)
			index[sig[v.Name]] = c
			keys = append(keys, nil)
			keyTypes = append(keyTypes, v.Type)
			lo.types = append(lo.types, v.Type.Elem)
		}
		pos[v.Name] = [2]int{int(sd), c}
		if sd == 0 {
			keys[c-k] = v
		}
	}
	// A key the left side does not compute is one the tree cannot use
	// (a comparison needs both sides); keep it out of the projection.
	var res []core.Atom
	var ret []core.Type
	for i, a := range keys {
		if a == nil {
			a = core.IntConst(keyTypes[i].Elem, 0)
		}
		res = append(res, a)
		ret = append(ret, keyTypes[i])
	}
	lo.proj = &core.Lambda{Params: l.Params[:k], Body: &core.Body{Stmts: left, Result: res}, Ret: ret}
	return true
}

// lexParse reads a body as an if tree.
func lexParse(b *core.Body, pos map[string][2]int, k int, params []*core.Var) *lexNode {
	if len(b.Result) != k {
		return nil
	}
	if len(b.Stmts) == 0 {
		for side := range 2 {
			ok := true
			for i, a := range b.Result {
				v, isVar := a.(*core.Var)
				ok = ok && isVar && v.Name == params[side*k+i].Name
			}
			if ok {
				return &lexNode{leaf: true, side: lexSide(side)}
			}
		}
		return nil
	}
	if len(b.Stmts) != 2 {
		return nil
	}
	cs, is := b.Stmts[0], b.Stmts[1]
	cmp, ok1 := cs.Exp.(*core.BinOpExp)
	ife, ok2 := is.Exp.(*core.IfExp)
	if !ok1 || !ok2 || len(cs.Pat) != 1 || len(is.Pat) != k {
		return nil
	}
	switch cmp.Op {
	case core.Lt, core.Le, core.Gt, core.Ge:
	default:
		return nil
	}
	if c, ok := ife.Cond.(*core.Var); !ok || c.Name != cs.Pat[0].Name {
		return nil
	}
	for i, a := range b.Result {
		if v, ok := a.(*core.Var); !ok || v.Name != is.Pat[i].Name {
			return nil
		}
	}
	x, xok := cmp.X.(*core.Var)
	y, yok := cmp.Y.(*core.Var)
	if !xok || !yok {
		return nil
	}
	px, okx := pos[x.Name]
	py, oky := pos[y.Name]
	if !okx || !oky || px[0] == py[0] || px[1] != py[1] || !cmp.T.IsInt() {
		return nil
	}
	then := lexParse(ife.Then, pos, k, params)
	els := lexParse(ife.Else, pos, k, params)
	if then == nil || els == nil {
		return nil
	}
	return &lexNode{op: cmp.Op, pSide: lexSide(px[0]), param: px[1], then: then, els: els}
}

// strictLess normalises a comparison node to "side s's component is less
// than the other side's" (strict) or "at most" (not strict).
func (n *lexNode) strictLess() (s lexSide, strict bool) {
	switch n.op {
	case core.Lt:
		return n.pSide, true
	case core.Le:
		return n.pSide, false
	case core.Gt:
		return 1 - n.pSide, true
	default: // core.Ge
		return 1 - n.pSide, false
	}
}

// walk turns a chain of ifs into keys: a strict three-way test (the
// component decides unless equal, then the rest of the tree) or a final
// two-way test (the component decides and fixes the side of ties).
func (lo *lexOp) walk(n *lexNode) bool {
	if n.leaf {
		lo.tieLeft = n.side == 0
		return len(lo.keys) > 0
	}
	if !n.then.leaf {
		return false
	}
	s, strict := n.strictLess()
	w1 := n.then.side
	e := n.els
	if e.leaf {
		if w1 == e.side {
			return false
		}
		// strict: on less take w1, else (greater or equal) e.side;
		// not strict: on less or equal take w1.
		lo.keys = append(lo.keys, lexKey{param: n.param, larger: w1 != s})
		if strict {
			lo.tieLeft = e.side == 0
		} else {
			lo.tieLeft = w1 == 0
		}
		return true
	}
	if !strict || !e.then.leaf || e.param != n.param {
		return false
	}
	s2, strict2 := e.strictLess()
	if !strict2 || s2 == s {
		return false
	}
	w2 := e.then.side
	if w1 == w2 {
		return false
	}
	lo.keys = append(lo.keys, lexKey{param: n.param, larger: w1 != s})
	return lo.walk(e.els)
}

// lexCol are the typed passes over one component column.
type lexCol interface {
	// extreme is the largest (or smallest) of x's lanes among cand (all
	// of 0..n-1 when cand is nil), as a one-element slice.
	extreme(x any, n int, cand []int32, larger bool) any
	// equal appends the lanes among cand (all when nil) where x holds v[0]
	// to buf, in increasing order.
	equal(x any, n int, cand []int32, v any, buf []int32) []int32
	// find is the first lane of x's n where x holds v[0] (the last when
	// last is set), or -1.
	find(x any, n int, v any, last bool) int
	// cmp compares a[i] with b[j]: -1, 0 or 1.
	cmp(a any, i int, b any, j int) int
}

type lexT[T integer] struct{}

func (lexT[T]) extreme(x any, n int, cand []int32, larger bool) any {
	xs := x.([]T)[:n]
	if cand == nil {
		if larger {
			return []T{maxOf(xs)}
		}
		return []T{minOf(xs)}
	}
	best := xs[cand[0]]
	for _, i := range cand[1:] {
		if larger {
			best = max(best, xs[i])
		} else {
			best = min(best, xs[i])
		}
	}
	return []T{best}
}

func (lexT[T]) equal(x any, n int, cand []int32, v any, buf []int32) []int32 {
	xs, e := x.([]T)[:n], v.([]T)[0]
	if cand == nil {
		return lanesEqual(xs, e, buf)
	}
	for _, i := range cand {
		if xs[i] == e {
			buf = append(buf, i)
		}
	}
	return buf
}

// lanesEqual appends the lanes of xs holding v to buf. The extreme value
// is usually rare, so eight lanes are tested with one branch.
func lanesEqual[T integer](xs []T, v T, buf []int32) []int32 {
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		q := xs[i : i+8 : i+8]
		if q[0] == v || q[1] == v || q[2] == v || q[3] == v || q[4] == v || q[5] == v || q[6] == v || q[7] == v {
			for j, e := range q {
				if e == v {
					buf = append(buf, int32(i+j))
				}
			}
		}
	}
	for ; i < len(xs); i++ {
		if xs[i] == v {
			buf = append(buf, int32(i))
		}
	}
	return buf
}

func (lexT[T]) find(x any, n int, v any, last bool) int {
	xs, e := x.([]T)[:n], v.([]T)[0]
	if last {
		i := len(xs)
		for ; i >= 8; i -= 8 {
			q := xs[i-8 : i : i]
			if q[0] == e || q[1] == e || q[2] == e || q[3] == e || q[4] == e || q[5] == e || q[6] == e || q[7] == e {
				break
			}
		}
		for i--; i >= 0; i-- {
			if xs[i] == e {
				return i
			}
		}
		return -1
	}
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		q := xs[i : i+8 : i+8]
		if q[0] == e || q[1] == e || q[2] == e || q[3] == e || q[4] == e || q[5] == e || q[6] == e || q[7] == e {
			break
		}
	}
	for ; i < len(xs); i++ {
		if xs[i] == e {
			return i
		}
	}
	return -1
}

func (lexT[T]) cmp(a any, i int, b any, j int) int {
	x, y := a.([]T)[i], b.([]T)[j]
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

var lexTab [core.NumPrims]lexCol

// initLexTables fills lexTab (tables.go calls it).
func initLexTables() {
	lexTab[core.I8] = lexT[int8]{}
	lexTab[core.I16] = lexT[int16]{}
	lexTab[core.I32] = lexT[int32]{}
	lexTab[core.I64] = lexT[int64]{}
	lexTab[core.U8] = lexT[uint8]{}
	lexTab[core.U16] = lexT[uint16]{}
	lexTab[core.U32] = lexT[uint32]{}
	lexTab[core.U64] = lexT[uint64]{}
}

// lexFold folds n lanes of xs, elements lo.. of the SOAC, into acc (nil:
// nothing yet, else the result of folding the elements before lo); the
// result is fresh. iota marks the components that are the SOAC's index,
// which the map does not materialise (see lexIotas): lane i's is lo+i.
//
// Key by key, the chunk's extreme value is compared with acc's as soon as
// it is known, so a chunk that cannot beat acc costs one pass over its
// first key's column; the lanes attaining an extreme are only listed when
// a later key must choose among them. An index key needs no pass: the
// index grows with the lane, and acc's index is below lo.
func (w *worker) lexFold(op *opInfo, acc, xs []col, iota []bool, lo int64, n int) ([]col, error) {
	return w.lexFoldKeys(op, acc, xs, nil, nil, iota, lo, n)
}

// lexFoldKeys is lexFold with the projected keys of the lanes given
// (inputKeys computed them from the inputs; nil: from xs), and, when xs is
// nil, value giving the winning lane's components (the keys then being all
// the order compares).
func (w *worker) lexFoldKeys(op *opInfo, acc, xs, keys []col, value func(lane int) ([]col, error), iota []bool, lo int64, n int) ([]col, error) {
	if n == 0 {
		return acc, nil
	}
	lx := op.lex
	cols, accCols := xs, acc
	if lx.proj != nil {
		var err error
		if keys == nil {
			if keys, err = w.apply(lx.proj, xs, n); err != nil {
				return nil, err
			}
		}
		if xs == nil {
			xs = make([]col, len(op.types))
		}
		cols = concatCols(xs, keys)
		if acc != nil {
			if w.lexAcc != &acc[0] {
				lw := w.lane()
				ak, err := lw.apply(lx.proj, acc, 1)
				if err != nil {
					return nil, err
				}
				// The keys outlive the lane worker's pool: copy them.
				w.lexAcc, w.lexAccKeys = &acc[0], fresh(ak, lx.proj.Ret, 0)
				lw.pool.release()
			}
			accCols = concatCols(acc, w.lexAccKeys)
		}
	}
	alive := acc != nil // acc is tied with the chunk's candidates so far
	var cand []int32    // nil: every lane
	var pend lexCol     // a key whose extreme is known but whose lanes are not yet listed
	var pendKey int
	var pendVal any
	buf := 0
	list := func() {
		if pend == nil {
			return
		}
		cand = pend.equal(cols[pendKey].data, n, cand, pendVal, w.lexBuf[buf][:0])
		w.lexBuf[buf] = cand[:0]
		buf = 1 - buf
		pend = nil
	}
	// pick is the first (last) lane among the candidates: when they are
	// every lane holding the pending extreme, a search that stops at the
	// first one found, not a second pass over the whole chunk (which is
	// then as cheap at a million lanes as at a few thousand; see
	// columnFreeChunks).
	pick := func(last bool) int {
		if pend != nil && cand == nil {
			if i := pend.find(cols[pendKey].data, n, pendVal, last); i >= 0 {
				pend = nil
				return i
			}
		}
		list()
		switch {
		case cand == nil && last:
			return n - 1
		case cand == nil:
			return 0
		case last:
			return int(cand[len(cand)-1])
		}
		return int(cand[0])
	}
	lane := -1
	for _, key := range lx.keys {
		if key.param < len(iota) && iota[key.param] {
			if alive && !key.larger {
				return acc, nil
			}
			lane = pick(key.larger)
			alive = false
			break
		}
		list()
		kc := lexTab[lx.types[key.param]]
		if kc == nil {
			return nil, fmt.Errorf("internal error: no lexicographic kernel for %v", lx.types[key.param])
		}
		e := kc.extreme(cols[key.param].data, n, cand, key.larger)
		if alive {
			c := kc.cmp(accCols[key.param].data, 0, e, 0)
			if c != 0 && (c > 0) == key.larger {
				return acc, nil
			}
			alive = c == 0
		}
		pend, pendKey, pendVal = kc, key.param, e
	}
	if lane < 0 {
		if alive && lx.tieLeft {
			return acc, nil
		}
		lane = pick(!lx.tieLeft)
	}
	if value != nil {
		return value(lane)
	}
	best := make([]col, len(xs))
	for k := range xs {
		if iota != nil && iota[k] {
			best[k] = col{data: []int64{lo + int64(lane)}}
			continue
		}
		best[k] = fresh(xs[k:k+1], op.types[k:k+1], lane)[0]
	}
	return best, nil
}

// lexIotas finds the components of lexicographic reductions that are the
// Screma's index parameter returned as is (arg-max's `zip xs (iota n)`,
// fused): when the index is used nowhere else in the map, those lanes'
// values are known without a column, and the map need not bind the index.
// It returns, per reduction, which components are the index (nil: none),
// and whether any is.
func lexIotas(e *core.Screma, reds []*opInfo) ([][]bool, bool) {
	if e.Index == nil {
		return nil, false
	}
	name := e.Index.Name
	for _, s := range e.Map.Body.Stmts {
		if usesVar(s.Exp, name) {
			return nil, false
		}
	}
	uses := 0
	for _, a := range e.Map.Body.Result {
		if atomIs(a, name) {
			uses++
		}
	}
	if uses != 1 {
		return nil, false
	}
	pos := e.NumScanned()
	for k, op := range reds {
		for j := range op.ne {
			if !atomIs(e.Map.Body.Result[pos+j], name) {
				continue
			}
			if op.lex == nil || op.lex.proj != nil || op.types[j].Rank != 0 || op.types[j].Elem != core.I64 {
				return nil, false
			}
			iotas := make([][]bool, len(reds))
			iotas[k] = make([]bool, len(op.ne))
			iotas[k][j] = true
			return iotas, true
		}
		pos += len(op.ne)
	}
	return nil, false
}
