package gpu

// Vector steps: four neighbouring points of a row a thread, their reads of
// a row of a kernel array as one 16-byte load.
//
// The 32-bit stencil (narrowLoop) issues a scalar load for every read of
// every point and waits on them before its store: 2.2-2.5 TB/s, 0.53-0.62
// of a copy on an H200, limited by the bytes a multiprocessor has in flight
// (bench/RESULTS.md, "GPU stencil lab"). A hand kernel that takes four
// columns a thread and reads each row it needs as one float4 ran at 0.88 of
// a copy. vecLoop is that kernel, generated: a step is the points (…, c0+k)
// for k = 0..3 with c0 a multiple of 4, and the body is emitted once for each
// k (a lane). A read a[r…, x] of a kernel array of 4-byte elements whose
// row indices r… are the same at the four points (they do not depend on the
// innermost index j) and whose column x is j + c, possibly clamped by min
// and max with bounds that do not depend on j either, is for lane k the
// element c0 + k + c of the row: where 0 <= k + c <= 3 that is lane k + c of
// the 16-byte vector at (r…, c0), loaded once a step by the first lane that
// needs it; the other lanes (the stencil's left and right neighbours outside
// the four) keep their scalar read. The lanes' results are stored as one
// 16-byte vector too.
//
// What makes the lane the element: the vector is in bounds (c0 + 3 below
// the row's length) and aligned (the array's base 16-byte aligned, its rows
// a multiple of 4 elements long), and every clamp is inactive for the
// lanes that use the vector (c0 + 3 <= the least upper bound, c0 >= the
// greatest lower bound; the bounds' intervals come from ranges.go). The
// first two are decided once a thread, the clamps once a step as two
// compares on c0 against bounds computed once a thread; a step that fails
// them runs its four points with the scalar body, so borders, odd widths
// and misaligned rows stay exact. Only reads every lane runs (statements of
// the body's top level, not under a branch or in a loop) become lanes, so
// that the first lane's load always precedes the others' use.
//
// A step may also be 4·V points, V vectors of each row (segmapVecs). A
// block's steps form a tile: its eight warps take 32 groups of columns of
// eight neighbouring rows, so that the rows above and below a warp's are
// its neighbours' in the multiprocessor's L1 (segmapVecTile; the row layout
// puts a block's 256 groups along one row).

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/arepl/arepl/lang/core"
)

// segmapVec4 turns vector steps on (a variable so that the benchmark and
// the tests can compare).
var segmapVec4 = true

// vecLanes is the elements of a vector: four 4-byte elements, 16 bytes.
const vecLanes = 4

// segmapVecs is how many vectors of each row a step reads: a step is
// vecLanes * segmapVecs neighbouring points (a variable so that the
// benchmark can compare).
var segmapVecs = 1

// segmapVecWaves is how many times the blocks that fit the GPU at once a
// kernel with vector steps may have (a variable so that the benchmark can
// compare).
var segmapVecWaves = 1

// segmapVecTile lays a block's steps out as a tile of rows (see vecLoop)
// rather than along one row (a variable so that the benchmark can compare).
var segmapVecTile = true

// colForm is an i64 value of a lane as the innermost index j plus a
// constant, clamped above by mins and below by maxs (bounds that are the
// same at every point of the step, given as their intervals).
type colForm struct {
	c          int64
	mins, maxs []interval
}

func (f colForm) plain() bool { return len(f.mins) == 0 && len(f.maxs) == 0 }

// vecStep is what the four lanes of a step share: the vectors loaded, and
// the conditions that make them the lanes' reads.
type vecStep struct {
	width  int               // points a step: vecLanes * vectors a row
	loads  map[string]string // vector variable by array and row indices
	decls  []string          // declarations at the step's scope
	lo, hi []string          // the step's first column c0 must be >= each lo and <= each hi (i64)
	conds  []string          // once a thread: alignment, row lengths, the bounds' guards
	seen   map[string]bool
	arrays []string // the arrays read as vectors, for plans
}

func newVecStep(vectors int) *vecStep {
	return &vecStep{width: vecLanes * max(vectors, 1), loads: map[string]string{}, seen: map[string]bool{}}
}

func (v *vecStep) add(list *[]string, c string) {
	if !v.seen[c] {
		v.seen[c] = true
		*list = append(*list, c)
	}
}

// vecLane is the state of one lane's emission: which variables are the same
// at the step's four points, and which are j plus a constant.
type vecLane struct {
	*vecStep
	lane    int
	top     map[*core.Stmt]bool // the statements every lane runs (not inside a branch or loop)
	uniform map[string]bool
	forms   map[string]colForm
}

func newVecLane(st *vecStep, n *nest, env []*core.Var, lane int) *vecLane {
	v := &vecLane{vecStep: st, lane: lane, top: map[*core.Stmt]bool{}, uniform: map[string]bool{}, forms: map[string]colForm{}}
	for _, x := range env {
		v.uniform[x.Name] = true
	}
	for _, l := range n.Levels {
		for _, s := range l.Pre {
			v.top[s] = true
		}
	}
	for _, s := range n.Body.Stmts {
		v.top[s] = true
	}
	return v
}

// level records what level l of the nest binds: an outer level's index and
// parameters are the same at the step's points, the innermost level's index
// is j, and an element of an iota counting from a constant by one is j plus
// that constant.
func (v *vecLane) level(l *level, inner bool) {
	if !inner {
		if l.Index != nil {
			v.uniform[l.Index.Name] = true
		}
		for _, p := range l.Params {
			v.uniform[p.Name] = true
		}
		return
	}
	if l.Index != nil {
		v.forms[l.Index.Name] = colForm{}
	}
	for j, p := range l.Params {
		io := l.Iotas[l.Arrs[j].Name]
		if io == nil || io.T != core.I64 || !isOne(io.Step) {
			continue
		}
		if c, ok := intConst(io.Start); ok {
			v.forms[p.Name] = colForm{c: c}
		}
	}
}

// intConst is a's value if it is an i64 constant.
func intConst(a core.Atom) (int64, bool) {
	switch c := a.(type) {
	case core.Const:
		return c.Int(), c.T == core.I64
	case *core.Const:
		return c.Int(), c.T == core.I64
	}
	return 0, false
}

// isUniform reports whether a has the same value at the step's points.
func (v *vecLane) isUniform(a core.Atom) bool {
	if x, ok := a.(*core.Var); ok {
		return v.uniform[x.Name]
	}
	return true
}

func (v *vecLane) form(a core.Atom) (colForm, bool) {
	if x, ok := a.(*core.Var); ok {
		f, ok := v.forms[x.Name]
		return f, ok
	}
	return colForm{}, false
}

// note records what s binds: a form where s is j plus a constant or a clamp
// of one, else uniform where everything s reads is.
func (v *vecLane) note(s *core.Stmt, rs *rangeSet) {
	if f, ok := v.formOf(s, rs); ok {
		v.forms[s.Pat[0].Name] = f
		return
	}
	fs := newFreeSet()
	fs.stmts([]*core.Stmt{s}, nil, map[string]bool{})
	if fs.err != nil {
		return
	}
	for _, x := range fs.order {
		if !v.uniform[x.Name] {
			return
		}
	}
	for _, p := range s.Pat {
		v.uniform[p.Name] = true
	}
}

func (v *vecLane) formOf(s *core.Stmt, rs *rangeSet) (colForm, bool) {
	if len(s.Pat) != 1 || s.Pat[0].Type.IsArray() || s.Pat[0].Type.Elem != core.I64 {
		return colForm{}, false
	}
	switch x := s.Exp.(type) {
	case *core.AtomExp:
		return v.form(x.A)
	case *core.BinOpExp:
		if x.T != core.I64 {
			return colForm{}, false
		}
		fa, oka := v.form(x.X)
		fb, okb := v.form(x.Y)
		ca, consta := intConst(x.X)
		cb, constb := intConst(x.Y)
		small := func(c int64) bool { return c > -1<<20 && c < 1<<20 }
		switch x.Op {
		case core.Add:
			if oka && fa.plain() && constb && small(cb) && small(fa.c) {
				return colForm{c: fa.c + cb}, true
			}
			if okb && fb.plain() && consta && small(ca) && small(fb.c) {
				return colForm{c: fb.c + ca}, true
			}
		case core.Sub:
			if oka && fa.plain() && constb && small(cb) && small(fa.c) {
				return colForm{c: fa.c - cb}, true
			}
		case core.Min, core.Max:
			f, other := fa, x.Y
			if !oka {
				f, other = fb, x.X
			}
			if oka == okb || !v.isUniform(other) {
				return colForm{}, false
			}
			iv, ok := rs.of(other)
			if !ok {
				return colForm{}, false
			}
			g := colForm{c: f.c, mins: f.mins, maxs: f.maxs}
			if x.Op == core.Min {
				g.mins = append(append([]interval{}, f.mins...), iv)
			} else {
				g.maxs = append(append([]interval{}, f.maxs...), iv)
			}
			return g, true
		}
	}
	return colForm{}, false
}

// read renders read x (statement s, index variables ixs, every index proved
// in bounds and the offset in 32 bits) from a vector of the step, if it is
// one: "" otherwise.
func (v *vecLane) read(e *emitter, s *core.Stmt, x *core.IndexExp, ixs []string) string {
	if !v.top[s] {
		return ""
	}
	from, _ := vecBits(x.Arr.Type.Elem)
	r := x.Arr.Type.Rank
	if from == "" || r == 0 || len(x.Idx) != r {
		return ""
	}
	key := x.Arr.Name
	for q := 0; q < r-1; q++ {
		if !v.isUniform(*x.Idx[q].Fix) {
			return ""
		}
		key += "|" + core.AtomString(*x.Idx[q].Fix)
	}
	f, ok := v.form(*x.Idx[r-1].Fix)
	if !ok {
		return ""
	}
	w := int64(v.lane) + f.c
	if w < 0 || w >= int64(v.width) {
		return ""
	}
	vi := w / vecLanes // the vector of the row, at column c0 + vecLanes * vi
	key += fmt.Sprintf("|%d", vi)
	arr := cname(x.Arr.Name)
	for _, iv := range f.mins {
		for _, g := range iv.guard {
			v.add(&v.conds, g)
		}
		v.add(&v.hi, fmt.Sprintf("(%s) - %d", iv.lo, v.width-1))
	}
	for _, iv := range f.maxs {
		for _, g := range iv.guard {
			v.add(&v.conds, g)
		}
		v.add(&v.lo, iv.hi)
	}
	vec, ok := v.loads[key]
	if !ok {
		vec = fmt.Sprintf("ar_vec%d", len(v.loads))
		v.loads[key] = vec
		v.decls = append(v.decls, fmt.Sprintf("uint4 %s;", vec))
		var terms []string
		for q := 0; q < r-1; q++ {
			terms = append(terms, fmt.Sprintf("(i32)%s * (i32)%s", ixs[q], strideName(arr, q)))
		}
		terms = append(terms, fmt.Sprintf("ar_vc0 + %d", vecLanes*vi))
		e.line("%s = __ldg((const uint4 *)(%s + %s));", vec, arr, strings.Join(terms, " + "))
		if !v.seen["array "+arr] {
			v.seen["array "+arr] = true
			v.arrays = append(v.arrays, x.Arr.Name)
			v.add(&v.conds, fmt.Sprintf("((u64)%s & 15) == 0", arr))
			if r > 1 {
				v.add(&v.conds, fmt.Sprintf("%s %% %d == 0", dimName(arr, r-1), vecLanes))
			}
			v.add(&v.hi, fmt.Sprintf("%s - %d", dimName(arr, r-1), v.width))
		}
	}
	w %= vecLanes
	return fmt.Sprintf("%s(%s.%s)", from, vec, "xyzw"[w:w+1])
}

// vecLoop writes the vector steps of a segmented map of rank d whose
// 32-bit form applies when ar_nok holds (narrowLoop): lanes are the four
// lanes' bodies (each leaving result j in ar_res<j>_<k>), scalar the
// 32-bit body of one point with its stores, outs the results' types. Taken
// when the innermost dimension is a multiple of 4 and st's conditions hold;
// otherwise the thread goes on to the 32-bit loop.
func vecLoop(b *strings.Builder, d, block int, st *vecStep, lanes []string, scalar string, outs []core.PrimType) {
	in := d - 1
	conds := append([]string{"ar_nok"}, vecConds(d, st, outs)...)
	fmt.Fprintf(b, "  if ((%s)) {\n", strings.Join(conds, ") && ("))
	b.WriteString("    const bool ar_probe = false;\n")
	// The bounds on a step's first column, once a thread: the clamps'
	// and the rows' lengths, within [0, 2^31) so that they compare in
	// 32 bits.
	fmt.Fprintf(b, "    i64 ar_vlo = 0, ar_vhi = ar_space%d - %d;\n", in, st.width)
	for _, l := range st.lo {
		fmt.Fprintf(b, "    ar_vlo = max_i64(ar_vlo, %s);\n", l)
	}
	for _, h := range st.hi {
		fmt.Fprintf(b, "    ar_vhi = min_i64(ar_vhi, %s);\n", h)
	}
	b.WriteString("    const i32 ar_vlo32 = (i32)min_i64(ar_vlo, 2147483647LL), ar_vhi32 = (i32)max_i64(ar_vhi, -1LL);\n")
	// A step's place: in the row layout step s is the s-th group of
	// width points in row-major order, a block's 256 threads on one row;
	// in the tile layout a block takes tiles of 32 groups by block/32 rows
	// (its warps on neighbouring rows, whose up and down rows are then
	// one another's, in the multiprocessor's L1), striding over the tiles.
	tile := in > 0 && segmapVecTile
	th := block / 32 // a tile's rows
	radix := func(li int) string {
		switch {
		case li == in && tile:
			return fmt.Sprintf("(i32)((ar_space%d / %d + 31) / 32)", li, st.width)
		case li == in:
			return fmt.Sprintf("(i32)(ar_space%d / %d)", li, st.width)
		case li == in-1 && tile:
			return fmt.Sprintf("(i32)((ar_space%d + %d) / %d)", li, th-1, th)
		}
		return fmt.Sprintf("(i32)ar_space%d", li)
	}
	var steps []string
	for li := 0; li < d; li++ {
		steps = append(steps, radix(li))
	}
	first, stride := "(i32)ar_tid", "(i32)ar_nt"
	if tile {
		first, stride = fmt.Sprintf("(i32)(ar_tid / %d)", block), fmt.Sprintf("(i32)(ar_nt / %d)", block)
	}
	fmt.Fprintf(b, "    const i32 ar_vnst = %s;\n", strings.Join(steps, " * "))
	fmt.Fprintf(b, "    i32 ar_r = %s, ar_q = %s;\n", first, stride)
	for li := in; li > 0; li-- {
		fmt.Fprintf(b, "    const i32 ar_rad%d = %s;\n", li, radix(li))
		fmt.Fprintf(b, "    i32 ar_nl%d = ar_r %% ar_rad%d; ar_r /= ar_rad%d;\n", li, li, li)
		fmt.Fprintf(b, "    const i32 ar_ns%d = ar_q %% ar_rad%d; ar_q /= ar_rad%d;\n", li, li, li)
	}
	b.WriteString("    i32 ar_nl0 = ar_r;\n    const i32 ar_ns0 = ar_q;\n")
	fmt.Fprintf(b, "    for (i32 ar_s = %s; ar_s < ar_vnst; ar_s += %s) {\n", first, stride)
	if tile {
		// The thread's group of the tile; groups past the space's
		// edge (tiles that overhang it) skip to the next tile.
		fmt.Fprintf(b, "    const i32 ar_lvl%d = ar_nl%d * %d + (i32)(threadIdx.x / 32);\n", in-1, in-1, th)
		fmt.Fprintf(b, "    const i32 ar_vc0 = (ar_nl%d * 32 + (i32)(threadIdx.x %% 32)) * %d;\n", in, st.width)
		fmt.Fprintf(b, "    if (ar_lvl%d < (i32)ar_space%d && ar_vc0 < (i32)ar_space%d) {\n", in-1, in-1, in)
	}
	for li := 0; li < in; li++ {
		if !(tile && li == in-1) {
			fmt.Fprintf(b, "    const i32 ar_lvl%d = ar_nl%d;\n", li, li)
		}
	}
	if !tile {
		fmt.Fprintf(b, "    const i32 ar_vc0 = ar_nl%d * %d;\n", in, st.width)
	}
	g := "ar_vc0"
	if in > 0 {
		outer := "ar_lvl0"
		for li := 1; li < in; li++ {
			outer = fmt.Sprintf("(%s) * (i32)ar_space%d + ar_lvl%d", outer, li, li)
		}
		g = fmt.Sprintf("(%s) * (i32)ar_space%d + ar_vc0", outer, in)
	}
	fmt.Fprintf(b, "    const i32 ar_vg = %s;\n", g)
	vecStepCode(b, in, st, lanes, scalar, outs)
	if tile {
		b.WriteString("    }\n")
	}
	writeStepAdvance(b, d, in)
}

// vecNames is "p0, p1, ..., p<n-1>".
func vecNames(p string, n int) string {
	var ns []string
	for k := 0; k < n; k++ {
		ns = append(ns, fmt.Sprintf("%s%d", p, k))
	}
	return strings.Join(ns, ", ")
}

// vecStepCode writes one vector step at (ar_lvl0.., ar_vc0), flat index
// ar_vg: the lanes' bodies and one store a vector of each result where the
// clamps are inactive (ar_vlo32 <= ar_vc0 <= ar_vhi32), else the scalar
// body at each of the step's points.
func vecStepCode(b *strings.Builder, in int, st *vecStep, lanes []string, scalar string, outs []core.PrimType) {
	point := func(k int, body string) {
		fmt.Fprintf(b, "    {\n    const i32 ar_lvl%d = ar_vc0 + %d;\n    const i32 ar_g = ar_vg + %d;\n    i64 ar_top = 0;\n", in, k, k)
		b.WriteString(body)
		b.WriteString("    }\n")
	}
	b.WriteString("    if (ar_vc0 >= ar_vlo32 && ar_vc0 <= ar_vhi32) {\n")
	for _, dcl := range st.decls {
		fmt.Fprintf(b, "    %s\n", dcl)
	}
	for j, t := range outs {
		fmt.Fprintf(b, "    %s %s;\n", ctype(t), vecNames(fmt.Sprintf("ar_res%d_", j), st.width))
	}
	for k, body := range lanes {
		point(k, body)
	}
	vecStores(b, st, outs, "ar_res", "ar_vg")
	b.WriteString("    } else {\n")
	for k := 0; k < st.width; k++ {
		point(k, scalar)
	}
	b.WriteString("    }\n")
}

// vecStores writes a step's results (res<j>_<k>, res the prefix) at flat
// index vg: one 16-byte store a vector where the type allows.
func vecStores(b *strings.Builder, st *vecStep, outs []core.PrimType, res, vg string) {
	for j, t := range outs {
		if _, to := vecBits(t); to != "" || t == core.U32 {
			for vi := 0; vi < st.width/vecLanes; vi++ {
				var ls []string
				for k := vecLanes * vi; k < vecLanes*(vi+1); k++ {
					ls = append(ls, fmt.Sprintf("%s(%s%d_%d)", to, res, j, k))
				}
				fmt.Fprintf(b, "    ((uint4 *)ar_out%d)[(%s >> 2) + %d] = make_uint4(%s);\n", j, vg, vi, strings.Join(ls, ", "))
			}
			continue
		}
		for k := 0; k < st.width; k++ {
			fmt.Fprintf(b, "    ar_out%d[%s + %d] = %s%d_%d;\n", j, vg, k, res, j, k)
		}
	}
}

// vecConds is what the vector steps need beyond the 32-bit form's
// conditions: rows a multiple of the step, the arrays and results aligned,
// the clamps' bounds' guards.
func vecConds(d int, st *vecStep, outs []core.PrimType) []string {
	conds := append([]string{fmt.Sprintf("ar_space%d %% %d == 0", d-1, st.width)}, st.conds...)
	for j, t := range outs {
		if _, to := vecBits(t); to != "" || t == core.U32 {
			conds = append(conds, fmt.Sprintf("((u64)ar_out%d & 15) == 0", j))
		}
	}
	return conds
}

// segmapVecSplit puts the host-checked vector path in a kernel of its own
// (NAME_vec, the same parameters), so that its registers are its own and
// not the grid-stride loops' (a variable so that the benchmark can
// compare).
var segmapVecSplit = true

// segmapVecRows is how many tile rows of steps a thread of the
// host-checked vector path takes (vecFast); 0 turns that path off (a
// variable so that the benchmark can compare). On an H200 the 4096²
// stencil's kernels, timed as the backend times them (an event pair a
// launch), took 0.0366 ms with 2 neighbouring rows (segmapVecAdj), 0.0385
// with a thread a step and 0.0407 in the device-checked grid-stride loop
// (bench/gpu/stencil2/lab6.cu, bench/RESULTS.md, h-stencil6). Earlier
// benchmark runs that found the path slower (h-stencil4, the lead's third
// session) read the host conditions' text at every launch (0.15-0.20 ms a
// launch, the GPU idle meanwhile); checkCached reads them once a shape.
var segmapVecRows = 2

// vecHost is what the host evaluates at a launch of a kernel with the
// host-checked vector path (hostcond.go): the conditions of the 32-bit
// form and of the vector steps, and the bounds on a step's first column.
type vecHost struct {
	conds  []string
	lo, hi []string
	width  int    // points a step
	rows   int    // tile rows a thread
	th     int    // a tile's rows: the block's warps
	kernel string // the path's own kernel (segmapVecSplit); "" where it is in the kernel's

	// The answers of check by launch (checkCached): a loop launches the
	// same kernel with the same sizes again and again, and reading the
	// conditions' text at every launch cost the host 0.1-0.15 ms a launch
	// (bench/RESULTS.md, h-stencil4 and the lead's third session).
	mu      sync.Mutex
	answers []vecAnswer
	ptrKey  int // how pointers enter the key: 0 not yet known, 1 their low 4 bits, 2 whole
}

// vecAnswer is check's answer for the launch whose parameters are key.
type vecAnswer struct {
	key    []int64
	lo, hi int32
	ok     bool
}

// vecAnswersMax bounds a kernel's remembered answers (a program run over
// ever new shapes forgets them all and starts again).
const vecAnswersMax = 16

// vecAligned is the only form in which the generated conditions name a
// pointer (vecConds and vecLane's array conditions): its alignment.
var vecAligned = regexp.MustCompile(`\(\(u64\)(\w+) & 15\)`)

// checkCached is check over a launch's parameters (segmapHostArgs),
// remembered by their values. Where every condition names a pointer only
// for its alignment, ((u64)p & 15), a pointer enters the key as its low 4
// bits, so that a loop's arrays changing places (a = f a) hit the same
// answer; else as a whole.
func (h *vecHost) checkCached(k *kernel, env0 []any, outs []*devArray, space []int64, n, nt int64) (vlo, vhi int32, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ptrKey == 0 {
		h.ptrKey = 1
		all := strings.Join(append(append(append([]string{}, h.conds...), h.lo...), h.hi...), "\n")
		aligned := map[string]int{}
		for _, m := range vecAligned.FindAllStringSubmatch(all, -1) {
			aligned[m[1]]++
		}
		segmapHostArgs(k, env0, outs, space, n, nt, func(name func() string, _ int64, ptr bool) {
			if x := name(); ptr && len(regexp.MustCompile(`\b`+regexp.QuoteMeta(x)+`\b`).FindAllStringIndex(all, -1)) != aligned[x] {
				h.ptrKey = 2
			}
		})
	}
	key := make([]int64, 0, 16)
	segmapHostArgs(k, env0, outs, space, n, nt, func(_ func() string, v int64, ptr bool) {
		if ptr && h.ptrKey == 1 {
			v &= 15
		}
		key = append(key, v)
	})
	for _, a := range h.answers {
		if slices.Equal(a.key, key) {
			return a.lo, a.hi, a.ok
		}
	}
	vlo, vhi, ok = h.check(segmapHostVars(k, env0, outs, space, n, nt))
	if len(h.answers) >= vecAnswersMax {
		h.answers = h.answers[:0]
	}
	h.answers = append(h.answers, vecAnswer{key: key, lo: vlo, hi: vhi, ok: ok})
	return vlo, vhi, ok
}

// vecFast writes the host-checked vector path of a 2-D segmented map:
// when ar_vok (set by the host where every condition of h holds) a block
// is one tile of th rows by 32 steps (rows tiles down when h.rows > 1),
// a thread one step of each, with no grid-stride loop and no per-thread
// conditions but the tile's edges and the clamps' (ar_vlo_h, ar_vhi_h:
// the bounds the device path computes as ar_vlo32, ar_vhi32).
//
// With whole set the path is the body of a kernel of its own
// (segmapVecSplit), with no test of ar_vok.
func vecFast(b *strings.Builder, h *vecHost, st *vecStep, lanes []string, scalar string, outs []core.PrimType, whole bool) {
	if whole {
		b.WriteString("  {\n")
	} else {
		b.WriteString("  if (ar_vok) {\n")
	}
	b.WriteString("    const i32 ar_vlo32 = ar_vlo_h, ar_vhi32 = ar_vhi_h;\n")
	fmt.Fprintf(b, "    const i32 ar_rad1 = (i32)((ar_space1 / %d + 31) / 32);\n", h.width)
	b.WriteString("    const i32 ar_nl1 = (i32)blockIdx.x % ar_rad1, ar_nl0 = (i32)blockIdx.x / ar_rad1;\n")
	fmt.Fprintf(b, "    const i32 ar_vc0 = (ar_nl1 * 32 + (i32)(threadIdx.x %% 32)) * %d;\n", h.width)
	if segmapVecAdj && h.rows > 1 {
		vecAdjacent(b, h, st, lanes, scalar, outs)
		return
	}
	for u := 0; u < h.rows; u++ {
		fmt.Fprintf(b, "    {\n    const i32 ar_lvl0 = (ar_nl0 * %d + %d) * %d + (i32)(threadIdx.x / 32);\n", h.rows, u, h.th)
		b.WriteString("    if (ar_lvl0 < (i32)ar_space0 && ar_vc0 < (i32)ar_space1) {\n")
		b.WriteString("    const i32 ar_vg = ar_lvl0 * (i32)ar_space1 + ar_vc0;\n")
		vecStepCode(b, 1, st, lanes, scalar, outs)
		b.WriteString("    }\n    }\n")
	}
	b.WriteString("    return;\n  }\n")
}

// vecGrid is the blocks of the host-checked vector path for a space of
// rows by cols points, a tile a block.
func (h *vecHost) grid(rows, cols int64) int64 {
	down := int64(h.th * h.rows)
	across := int64(32 * h.width)
	return ((rows + down - 1) / down) * ((cols + across - 1) / across)
}

// check evaluates h's conditions over a launch's values; vlo, vhi are the
// bounds on a step's first column, clamped into int32 as the device path
// clamps them.
func (h *vecHost) check(vars map[string]int64) (vlo, vhi int32, ok bool) {
	if !hostAll(h.conds, vars) {
		return 0, 0, false
	}
	lo, hi := int64(0), vars["ar_space1"]-int64(h.width)
	for _, l := range h.lo {
		v, ok := hostEval(l, vars)
		if !ok {
			return 0, 0, false
		}
		lo = max(lo, v)
	}
	for _, x := range h.hi {
		v, ok := hostEval(x, vars)
		if !ok {
			return 0, 0, false
		}
		hi = min(hi, v)
	}
	return int32(min(lo, math.MaxInt32)), int32(max(hi, -1)), true
}

// segmapVecAdj lays the host-checked path's rows of a thread next to one
// another (h.rows neighbouring rows rather than rows a tile apart) and
// emits all of them before any store, as the lab's hand float4 kernel of
// two rows a thread does (bench/gpu/stencil2): every row's loads can then
// be issued before the first sum, and a row vector the next row reads
// again (its "up" is this row's centre) is the same load at the same
// address, which the compiler shares (a variable so that the benchmark
// can compare). With 2 rows it is as fast as the hand kernel: 0.0354 ms
// back to back against 0.0356 (lab6.cu, h-stencil6).
var segmapVecAdj = true

// vecResult is a lane's result variable, ar_res<j>_<k> (vecStepCode).
var vecResult = regexp.MustCompile(`\bar_res(\d+_\d+)\b`)

// vecAdjacent writes vecFast's steps for h.rows neighbouring rows of a
// thread: where all of them are in the space and the clamps are inactive
// at ar_vc0 (the same compare for every row: the bounds are on columns),
// each row's lanes in a scope of its own (its ar_lvl0, ar_vg and vectors),
// their results kept in the step's scope, then every row's stores; else
// each row as vecFast writes it, border rows and the scalar body included.
func vecAdjacent(b *strings.Builder, h *vecHost, st *vecStep, lanes []string, scalar string, outs []core.PrimType) {
	fmt.Fprintf(b, "    const i32 ar_lvlb = (ar_nl0 * %d + (i32)(threadIdx.x / 32)) * %d;\n", h.th, h.rows)
	fmt.Fprintf(b, "    if (ar_vc0 < (i32)ar_space1 && ar_lvlb + %d < (i32)ar_space0 && ar_vc0 >= ar_vlo32 && ar_vc0 <= ar_vhi32) {\n", h.rows-1)
	for u := 0; u < h.rows; u++ {
		for j, t := range outs {
			fmt.Fprintf(b, "    %s %s;\n", ctype(t), vecNames(fmt.Sprintf("ar_u%dres%d_", u, j), st.width))
		}
	}
	for u := 0; u < h.rows; u++ {
		fmt.Fprintf(b, "    {\n    const i32 ar_lvl0 = ar_lvlb + %d;\n    const i32 ar_vg = ar_lvl0 * (i32)ar_space1 + ar_vc0;\n", u)
		for _, dcl := range st.decls {
			fmt.Fprintf(b, "    %s\n", dcl)
		}
		for k, body := range lanes {
			fmt.Fprintf(b, "    {\n    const i32 ar_lvl1 = ar_vc0 + %d;\n    const i32 ar_g = ar_vg + %d;\n    i64 ar_top = 0;\n", k, k)
			b.WriteString(vecResult.ReplaceAllString(body, fmt.Sprintf("ar_u%dres$1", u)))
			b.WriteString("    }\n")
		}
		b.WriteString("    }\n")
	}
	for u := 0; u < h.rows; u++ {
		vecStores(b, st, outs, fmt.Sprintf("ar_u%dres", u), fmt.Sprintf("((ar_lvlb + %d) * (i32)ar_space1 + ar_vc0)", u))
	}
	b.WriteString("    return;\n    }\n")
	for u := 0; u < h.rows; u++ {
		fmt.Fprintf(b, "    {\n    const i32 ar_lvl0 = ar_lvlb + %d;\n", u)
		b.WriteString("    if (ar_lvl0 < (i32)ar_space0 && ar_vc0 < (i32)ar_space1) {\n")
		b.WriteString("    const i32 ar_vg = ar_lvl0 * (i32)ar_space1 + ar_vc0;\n")
		vecStepCode(b, 1, st, lanes, scalar, outs)
		b.WriteString("    }\n    }\n")
	}
	b.WriteString("    return;\n  }\n")
}
