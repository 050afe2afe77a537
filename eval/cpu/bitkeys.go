package cpu

import (
	"github.com/arepl/arepl/lang/core"
)

// Keys straight from the inputs. A lexicographic selection whose operator
// compares keys it computes from the accumulator (lexOp.proj) gets, per
// chunk, the map's results and then the keys of every lane; when the map
// packs fields into a word and the keys unpack them again (IndexOfMaxPack:
// `(i64 v << 32) | (i & 0xFFFFFFFF)` and then `>> 32` and `& 0xFFFFFFFF`),
// most of that work cancels out. inputKeys composes the map with the
// projection and simplifies the composition with a few rules on bit
// fields; when what is left is smaller than the map and the projection,
// the keys are computed from the inputs and the map's value is computed for
// the winning lane only (lexFold's value callback).

// inputKeys returns the composition of map m with lx's projection of the
// accumulator components that m returns at pos.., simplified, or nil when
// that saves nothing or the lambdas are not plain scalar code.
func inputKeys(m *core.Lambda, pos int, lx *lexOp) *core.Lambda {
	if lx.proj == nil || len(m.Body.Result) < pos+len(lx.proj.Params) {
		return nil
	}
	stmts := append([]*core.Stmt(nil), m.Body.Stmts...)
	for j, p := range lx.proj.Params {
		stmts = append(stmts, &core.Stmt{Pat: []*core.Var{p}, Exp: &core.AtomExp{A: m.Body.Result[pos+j]}})
	}
	stmts = append(stmts, lx.proj.Body.Stmts...)
	// The projection returns every value it computes; those no key compares
	// are never read, so they become a parameter, which costs nothing.
	k := len(lx.proj.Params)
	used := make([]bool, len(lx.proj.Body.Result))
	for _, key := range lx.keys {
		if key.param >= k {
			used[key.param-k] = true
		}
	}
	res := append([]core.Atom(nil), lx.proj.Body.Result...)
	ret := append([]core.Type(nil), lx.proj.Ret...)
	for j := range res {
		if !used[j] && len(m.Params) > 0 {
			res[j], ret[j] = m.Params[0], m.Params[0].Type
		}
	}
	composed := &core.Lambda{Params: m.Params, Body: &core.Body{Stmts: stmts, Result: res}, Ret: ret}
	simple := simplifyBits(composed)
	if simple == nil || len(simple.Body.Stmts) >= len(m.Body.Stmts) {
		return nil
	}
	return simple
}

// simplifyBits rewrites a straight-line lambda of scalar statements with
// the bit-field rules below, drops the statements nothing uses, and
// returns the result; nil when l has statements of other kinds.
//
//	i32 (i64 x), x an i32            → x     (a widening and back)
//	((z << c) | (w & m)) >> c        → (z << c) >> c   when 0 <= m < 2^c
//	(z << c) >> c                    → z     when z is sign-extended from 64-c bits or fewer
//	((z << c) | w) & m               → w & m         when 0 <= m < 2^c
//	(w & m2) & m                     → w & m2        when m2 has no bit outside m
func simplifyBits(l *core.Lambda) *core.Lambda {
	defs := map[string]core.Exp{}
	alias := map[string]core.Atom{}
	resolve := func(a core.Atom) core.Atom {
		if v, ok := a.(*core.Var); ok {
			if r, ok := alias[v.Name]; ok {
				return r
			}
		}
		return a
	}
	var out []*core.Stmt
	for _, s := range l.Body.Stmts {
		if len(s.Pat) != 1 || s.Pat[0].Type.Rank != 0 {
			return nil
		}
		name := s.Pat[0].Name
		var e core.Exp
		switch x := s.Exp.(type) {
		case *core.AtomExp:
			alias[name] = resolve(x.A)
			continue
		case *core.ConvExp:
			c := &core.ConvExp{From: x.From, To: x.To, X: resolve(x.X)}
			if a := undoWidening(c, defs); a != nil {
				alias[name] = a
				continue
			}
			e = c
		case *core.BinOpExp:
			b := &core.BinOpExp{Op: x.Op, T: x.T, X: resolve(x.X), Y: resolve(x.Y)}
			a, nb := bitRule(b, defs)
			if a != nil {
				alias[name] = a
				continue
			}
			e = nb
		default:
			return nil
		}
		defs[name] = e
		out = append(out, &core.Stmt{Pat: s.Pat, Exp: e})
	}
	res := make([]core.Atom, len(l.Body.Result))
	for i, a := range l.Body.Result {
		res[i] = resolve(a)
	}
	// Keep what the results need, in order.
	need := map[string]bool{}
	mark := func(a core.Atom) {
		if v, ok := a.(*core.Var); ok {
			need[v.Name] = true
		}
	}
	for _, a := range res {
		mark(a)
	}
	for i := len(out) - 1; i >= 0; i-- {
		if !need[out[i].Pat[0].Name] {
			continue
		}
		switch e := out[i].Exp.(type) {
		case *core.ConvExp:
			mark(e.X)
		case *core.BinOpExp:
			mark(e.X)
			mark(e.Y)
		}
	}
	var live []*core.Stmt
	for _, s := range out {
		if need[s.Pat[0].Name] {
			live = append(live, s)
		}
	}
	return &core.Lambda{Params: l.Params, Body: &core.Body{Stmts: live, Result: res}, Ret: l.Ret}
}

// undoWidening is x for a narrowing back of a widening of an integer x.
func undoWidening(c *core.ConvExp, defs map[string]core.Exp) core.Atom {
	in, ok := defOf(c.X, defs).(*core.ConvExp)
	if !ok || in.From != c.To || in.To != c.From || !in.From.IsInt() || !in.To.IsInt() || in.From.Size() > in.To.Size() {
		return nil
	}
	return in.X
}

// bitRule applies the shift, or and and rules to b: an atom that b equals,
// or a simpler expression (b itself when no rule applies).
func bitRule(b *core.BinOpExp, defs map[string]core.Exp) (core.Atom, *core.BinOpExp) {
	if b.T != core.I64 {
		return nil, b
	}
	switch b.Op {
	case core.Shr:
		c, ok := constOf(b.Y)
		if !ok || c <= 0 || c >= 64 {
			return nil, b
		}
		if or, ok := defOf(b.X, defs).(*core.BinOpExp); ok && or.Op == core.Or {
			for _, sides := range [][2]core.Atom{{or.X, or.Y}, {or.Y, or.X}} {
				if shiftedBy(sides[0], c, defs) && below(sides[1], c, defs) {
					b = &core.BinOpExp{Op: core.Shr, T: core.I64, X: sides[0], Y: b.Y}
					break
				}
			}
		}
		if shl, ok := defOf(b.X, defs).(*core.BinOpExp); ok && shl.Op == core.Shl && shiftedBy(b.X, c, defs) {
			if conv, ok := defOf(shl.X, defs).(*core.ConvExp); ok && conv.To == core.I64 && conv.From.IsInt() &&
				(conv.From.IsSigned() && conv.From.Bits() <= 64-int(c) || !conv.From.IsSigned() && conv.From.Bits() < 64-int(c)) {
				return shl.X, nil
			}
		}
	case core.And:
		m, other, ok := constSide(b)
		if !ok || m < 0 {
			return nil, b
		}
		if or, ok := defOf(other, defs).(*core.BinOpExp); ok && or.Op == core.Or {
			for _, sides := range [][2]core.Atom{{or.X, or.Y}, {or.Y, or.X}} {
				if c, ok := shiftOf(sides[0], defs); ok && c < 63 && m < int64(1)<<c {
					other = sides[1]
					b = &core.BinOpExp{Op: core.And, T: core.I64, X: other, Y: core.IntConst(core.I64, m)}
					break
				}
			}
		}
		if in, ok := defOf(other, defs).(*core.BinOpExp); ok && in.Op == core.And {
			if m2, _, ok := constSide(in); ok && m2 >= 0 && m2&^m == 0 {
				return other, nil
			}
		}
	}
	return nil, b
}

func defOf(a core.Atom, defs map[string]core.Exp) core.Exp {
	if v, ok := a.(*core.Var); ok {
		return defs[v.Name]
	}
	return nil
}

func constOf(a core.Atom) (int64, bool) {
	c, ok := a.(core.Const)
	if !ok || !c.T.IsInt() {
		return 0, false
	}
	return c.Int(), true
}

// constSide splits a commutative b into its constant operand and the other.
func constSide(b *core.BinOpExp) (int64, core.Atom, bool) {
	if c, ok := constOf(b.Y); ok {
		return c, b.X, true
	}
	if c, ok := constOf(b.X); ok {
		return c, b.Y, true
	}
	return 0, nil, false
}

// shiftOf is c when a is defined as something << c.
func shiftOf(a core.Atom, defs map[string]core.Exp) (int64, bool) {
	s, ok := defOf(a, defs).(*core.BinOpExp)
	if !ok || s.Op != core.Shl || s.T != core.I64 {
		return 0, false
	}
	c, ok := constOf(s.Y)
	return c, ok && c > 0 && c < 64
}

func shiftedBy(a core.Atom, c int64, defs map[string]core.Exp) bool {
	s, ok := shiftOf(a, defs)
	return ok && s == c
}

// below reports whether a is known to be in [0, 2^c): an and with a mask
// that is.
func below(a core.Atom, c int64, defs map[string]core.Exp) bool {
	and, ok := defOf(a, defs).(*core.BinOpExp)
	if !ok || and.Op != core.And {
		return false
	}
	m, _, ok := constSide(and)
	return ok && m >= 0 && m < int64(1)<<c
}

// lexInputKeys finds the lexicographic reductions of e (after the tails,
// which take their reductions whole) whose keys inputKeys computes from
// the inputs, whose order compares only those keys. It returns the keys'
// lambdas per reduction (nil: none) with the position of each reduction's
// components among the map's results, and adds to skip the map's
// statements and results that only those components needed. Statements
// that can fail (division, indexing, calls) are never skipped, so every
// run-time error of the map still happens. mapIndex reports whether the
// map still needs the index.
func lexInputKeys(e *core.Screma, reds []*opInfo, tails []*redTail, skip *skipSet) (keys []*inKeys, _ *skipSet, mapIndex bool) {
	mapIndex = e.Index != nil
	owned := map[int]bool{}
	at := e.NumScanned()
	for k, op := range reds {
		if op.lex != nil && (tails == nil || tails[k] == nil) && keysOnly(op) {
			if kl := inputKeys(e.Map, at, op.lex); kl != nil {
				if keys == nil {
					keys = make([]*inKeys, len(reds))
				}
				keys[k] = newInKeys(kl, at, e.Index)
				for j := range op.ne {
					owned[at+j] = true
				}
			}
		}
		at += len(op.ne)
	}
	if keys == nil {
		return nil, skip, mapIndex
	}
	if skip == nil {
		skip = &skipSet{stmts: map[*core.Stmt]bool{}, vars: map[string]bool{}}
	}
	need := map[string]bool{}
	for i, a := range e.Map.Body.Result {
		if v, ok := a.(*core.Var); ok && !owned[i] {
			need[v.Name] = true
		}
	}
	stmts := e.Map.Body.Stmts
	live := make([]bool, len(stmts))
	for i := len(stmts) - 1; i >= 0; i-- {
		s := stmts[i]
		if skip.stmts[s] {
			continue
		}
		for _, v := range s.Pat {
			live[i] = live[i] || need[v.Name]
		}
		live[i] = live[i] || !cannotFail(s.Exp)
		if !live[i] {
			continue
		}
		for _, t := range stmts[:i] {
			for _, v := range t.Pat {
				if usesVar(s.Exp, v.Name) {
					need[v.Name] = true
				}
			}
		}
		if e.Index != nil && usesVar(s.Exp, e.Index.Name) {
			need[e.Index.Name] = true
		}
	}
	for i, s := range stmts {
		if !live[i] {
			skip.stmts[s] = true
		}
	}
	for i, a := range e.Map.Body.Result {
		if v, ok := a.(*core.Var); ok && owned[i] && !need[v.Name] {
			skip.vars[v.Name] = true
		}
	}
	if e.Index != nil && !need[e.Index.Name] {
		mapIndex = false
	}
	return keys, skip, mapIndex
}

// keysOnly reports whether op's order compares nothing but projected keys
// (so the lanes' own components are needed for the winner alone).
func keysOnly(op *opInfo) bool {
	if op.lex.proj == nil {
		return false
	}
	for _, key := range op.lex.keys {
		if key.param < len(op.types) {
			return false
		}
	}
	return true
}

// cannotFail reports whether evaluating e can raise no run-time error.
func cannotFail(e core.Exp) bool {
	switch e := e.(type) {
	case *core.AtomExp, *core.ConvExp:
		return true
	case *core.BinOpExp:
		switch e.Op {
		case core.Div, core.Mod, core.Quot, core.Rem, core.Pow:
			return false
		}
		return true
	}
	return false
}

// inKeys is a reduction's keys from the inputs: the lambda computing them
// (lam, with the map's parameters), where the reduction's components are
// among the map's results (pos), and the keys that are the Screma's index,
// possibly under a mask (IndexOfMaxPack's `i & 0xFFFFFFFF`): in a chunk
// whose indices are all within the mask those keys are the index itself,
// which lexFold knows lane by lane without a column, and lazy is lam
// without them (nil: no such key).
type inKeys struct {
	lam       *core.Lambda
	pos       int
	lazy      *core.Lambda
	lazyIndex bool          // lazy still reads the index
	masks     map[int]int64 // key result -> the mask under which it is the index
}

func newInKeys(lam *core.Lambda, pos int, index *core.Var) *inKeys {
	ik := &inKeys{lam: lam, pos: pos}
	if index == nil || len(lam.Params) == 0 {
		return ik
	}
	defs := map[string]core.Exp{}
	for _, s := range lam.Body.Stmts {
		defs[s.Pat[0].Name] = s.Exp
	}
	res := append([]core.Atom(nil), lam.Body.Result...)
	ret := append([]core.Type(nil), lam.Ret...)
	for r, a := range lam.Body.Result {
		mask := int64(-1)
		switch {
		case atomIs(a, index.Name):
			mask = 1<<63 - 1
		default:
			if and, ok := defOf(a, defs).(*core.BinOpExp); ok && and.Op == core.And && and.T == core.I64 {
				if m, other, ok := constSide(and); ok && m >= 0 && atomIs(other, index.Name) {
					mask = m
				}
			}
		}
		if mask < 0 {
			continue
		}
		if ik.masks == nil {
			ik.masks = map[int]int64{}
		}
		ik.masks[r] = mask
		res[r], ret[r] = lam.Params[0], lam.Params[0].Type
	}
	if ik.masks == nil {
		return ik
	}
	ik.lazy = simplifyBits(&core.Lambda{Params: lam.Params, Body: &core.Body{Stmts: lam.Body.Stmts, Result: res}, Ret: ret})
	for _, s := range ik.lazy.Body.Stmts {
		ik.lazyIndex = ik.lazyIndex || usesVar(s.Exp, index.Name)
	}
	return ik
}

// chunk returns the keys lambda for the chunk of n lanes from lo, whether
// it reads the index, and which keys lexFold should take as the index
// (nil: none), numbered after the reduction's k components.
func (ik *inKeys) chunk(lo int64, n, k int) (*core.Lambda, bool, []bool) {
	if ik.lazy == nil {
		return ik.lam, true, nil
	}
	for _, m := range ik.masks {
		if lo+int64(n)-1 > m {
			return ik.lam, true, nil
		}
	}
	iota := make([]bool, k+len(ik.lam.Body.Result))
	for r := range ik.masks {
		iota[k+r] = true
	}
	return ik.lazy, ik.lazyIndex, iota
}
