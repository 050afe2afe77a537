package gpu

// Tiling of invariant inputs (issue 15, item 3; docs/design.md §5).
//
// Two shapes of nested parallelism read the same array from every thread,
// and run at the speed of their arithmetic only if those reads come from
// shared memory and registers instead of device memory. This file
// recognises them in the fused core IR, ahead of the general path of
// module.go, and gives each a kernel of its own:
//
//   - 1-D tiling (kernels/tile_1d.cu), the n-body shape
//     `map (\x -> reduce op ne (map (\y ... -> f x y ...) ys ...)) xs`: a
//     map whose body is scalar code around one redomap over arrays that do
//     not depend on the outer element (invariant). A thread per outer
//     element; each block copies a tile of the invariant arrays into shared
//     memory, all its threads fold over the tile, and the block moves on.
//     Every invariant element is read from device memory once per block
//     instead of once per thread. When the outer elements are fewer than the
//     threads the multiprocessors hold (65536 bodies are a quarter of an
//     H100's), up to 8 threads share an element, each folding a contiguous
//     part of the inner dimension, and the parts combine in order.
//   - 2-D block and register tiling (kernels/tile_mm.cu), the matrix
//     product `map (\row -> map (\col -> reduce op ne (map2 f row col))
//     (transpose b)) a` (also with the columns given as the rows of an
//     array). A block computes a BM x BN tile of the result, each thread a
//     TM x TN register tile, the shared dimension in steps of BK through
//     double-buffered shared memory: Futhark's block and register tiling,
//     which is what SGEMM kernels do on CUDA cores.
//
// Both fold the inner dimension in ascending order in one thread, so any
// associative (even non-commutative) operator gives the CPU's result up to
// float rounding; f32 multiply-adds contract to fused multiply-adds, which
// are exact fp32 (no tensor cores, no TF32).
//
// The recognisers are syntactic and strict: anything they do not take falls
// through to the general path unchanged. The statements around the inner
// SOACs of the matrix product are shape code only (sizes, transposes, size
// equalities and their assertions), which the host evaluates from the
// arrays' shapes before the launch; the 1-D body may hold any scalar code
// the emitter renders, which runs in the kernel.
//
// Tile sizes come from the device's limits (Limits): the 1-D tile is as
// many elements as fit a block's share of a multiprocessor's shared memory,
// and the matrix product has a large tile (128 x 128, 8 x 8 a thread) for
// products with enough tiles to fill the multiprocessors and a small one
// (64 x 64, 4 x 4) for the others.

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/kernels"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// tileKind is the shape a tiled kernel was made for.
type tileKind int

const (
	tile1D tileKind = iota // kernels/tile_1d.cu
	tileMM                 // kernels/tile_mm.cu
)

// tiled is what the host needs to launch a tiled kernel (kernel.tile).
type tiled struct {
	kind tileKind
	k    *kernel
	// tile1D
	tile int // invariant elements staged per block step
	// tileMM
	mm      mmShape
	small   *kernel // the small-tile variant; k is the large one
	a, b    *core.Var
	bRows   bool         // B' given by rows (p x m) rather than transposed (m x p)
	row     *core.Var    // the outer lambda's row parameter
	col     *core.Var    // the inner lambda's column parameter
	tr      *core.Var    // the transpose of b inside the outer lambda, if any
	outerSh []*core.Stmt // shape statements of the outer lambda
	innerSh []*core.Stmt // shape statements of the inner lambda
	innerW  core.Atom    // width of the inner map
	redW    core.Atom    // width of the inner reduction
	r       core.PrimType
}

// mmShape is one block and register tiling of the matrix product.
type mmShape struct{ BM, BN, BK, TM, TN int }

func (s mmShape) threads() int { return (s.BM / s.TM) * (s.BN / s.TN) }

func (s mmShape) String() string {
	return fmt.Sprintf("block tile %dx%d, k-step %d, register tile %dx%d, %d threads", s.BM, s.BN, s.BK, s.TM, s.TN, s.threads())
}

// The matrix-product tilings. large needs about 128 registers a thread (2
// blocks of 256 threads a multiprocessor); small gives 4x the blocks.
// Variables, so that benchmarks can measure others (BenchmarkNested).
var (
	mmLarge = mmShape{BM: 128, BN: 128, BK: 8, TM: 8, TN: 8}
	mmSmall = mmShape{BM: 64, BN: 64, BK: 8, TM: 4, TN: 4}
)

var tileTemplates = func() *template.Template {
	t := template.New("tile")
	for _, f := range []string{"tile_1d.cu", "tile_mm.cu"} {
		src, err := kernels.FS.ReadFile(f)
		if err != nil {
			panic("gpu: embedded template missing: " + f)
		}
		template.Must(t.New(f).Parse(string(src)))
	}
	return t
}()

// tiledKernel renders statement s with a tiled kernel if it has one of the
// shapes above; ok is false when it does not (or the kernel cannot be
// rendered), and the general path then takes s.
func (g *generator) tiledKernel(s *core.Stmt, op *core.Screma) (ok bool, err error) {
	if len(op.Scans) > 0 || len(op.Reds) > 0 || op.Post != nil {
		return false, nil
	}
	saved := map[string]bool{}
	for f := range g.funs {
		saved[f] = true
	}
	nsites := len(g.sites)
	var ks []*kernel
	if t := matchMM(op); t != nil {
		ks, err = g.renderMM(s, op, t)
	} else if red := match1D(op); red != nil {
		ks, err = g.render1D(s, op, red)
	} else {
		return false, nil
	}
	if err == nil {
		var scratch strings.Builder
		err = g.deviceFuns(&scratch)
	}
	if _, isUnsup := err.(*unsupported); isUnsup {
		g.funs, g.sites = saved, g.sites[:nsites]
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, k := range ks {
		g.kbuf.WriteString(k.src)
	}
	g.m.kernels[s] = ks
	return true, nil
}

// boundIn is the set of variables a lambda binds: parameters, the index,
// and every statement's pattern at any depth.
func boundIn(l *core.Lambda, idx *core.Var) map[string]bool {
	b := map[string]bool{}
	if idx != nil {
		b[idx.Name] = true
	}
	var body func(*core.Body)
	var lam func(*core.Lambda, *core.Var)
	lam = func(l *core.Lambda, idx *core.Var) {
		if l == nil {
			return
		}
		if idx != nil {
			b[idx.Name] = true
		}
		for _, p := range l.Params {
			b[p.Name] = true
		}
		body(l.Body)
	}
	body = func(bd *core.Body) {
		for _, s := range bd.Stmts {
			for _, v := range s.Pat {
				b[v.Name] = true
			}
			visitor{
				atom:   func(core.Atom) {},
				lambda: func(l *core.Lambda, extra []*core.Var) { lam(l, nil); mark(b, extra) },
				body:   func(bb *core.Body, binds []*core.Var) { mark(b, binds); body(bb) },
			}.exp(s.Exp)
		}
	}
	lam(l, idx)
	return b
}

// sameVar reports whether atom a is the variable v.
func sameVar(a core.Atom, v *core.Var) bool {
	x, ok := a.(*core.Var)
	return ok && x.Name == v.Name
}

func mark(b map[string]bool, vs []*core.Var) {
	for _, v := range vs {
		b[v.Name] = true
	}
}

// invariant reports whether atom a is a constant or a variable not bound in
// the lambda (so the same for every thread).
func invariant(a core.Atom, bound map[string]bool) bool {
	v, ok := a.(*core.Var)
	return !ok || !bound[v.Name]
}

// ---------------------------------------------------------------------------
// 1-D tiling

// match1D returns the redomap statement of a map body of the n-body shape,
// or nil.
func match1D(op *core.Screma) *core.Stmt {
	for _, a := range op.Arrs {
		if a.Type.Rank != 1 {
			return nil
		}
	}
	for _, t := range op.Map.Ret {
		if t.IsArray() {
			return nil
		}
	}
	bound := boundIn(op.Map, op.Index)
	var found *core.Stmt
	for _, s := range op.Map.Body.Stmts {
		in, ok := s.Exp.(*core.Screma)
		if !ok {
			continue
		}
		if found != nil {
			return nil // two inner SOACs: the general path's business
		}
		found = s
		if len(in.Scans) > 0 || in.Post != nil || len(in.Reds) == 0 || !invariant(in.W, bound) || len(in.Arrs) == 0 {
			return nil
		}
		nred := 0
		for _, r := range in.Reds {
			nred += len(r.Neutral)
			for _, ne := range r.Neutral {
				if ne.AtomType().IsArray() || !invariant(ne, bound) {
					return nil
				}
			}
		}
		if len(in.Map.Ret) != nred {
			return nil // map-outs would be arrays per thread
		}
		for _, a := range in.Arrs {
			if a.Type.Rank != 1 || bound[a.Name] {
				return nil
			}
		}
	}
	return found
}

// tile1DSize is the invariant elements a block stages per step: a multiple
// of the block that fits the block's share of a multiprocessor's shared
// memory at full occupancy (and the static limit), at most 4 blocks.
//
// reserved is the block's other shared memory (its accumulators), which
// the static limit also counts.
func tile1DSize(block, bytesPerElem, reserved int, lim Limits) int {
	budget := lim.SharedPerBlock
	if lim.ThreadsPerSM > 0 && lim.SharedPerSM > 0 {
		budget = min(budget, lim.SharedPerSM*block/lim.ThreadsPerSM)
	}
	budget -= reserved
	k := budget / (block * max(1, bytesPerElem))
	return block * max(1, min(k, 4))
}

// tile1DBlock is the 1-D kernel's block size: 512 ran the n-body shape at
// 65536 bodies in 2.71 ms on an H200, 256 in 2.94 and 128 in 3.21
// (bench/RESULTS.md). A variable so that the benchmark can sweep it.
var tile1DBlock = 512

// tile1DUnroll is the unrolling of the 1-D kernel's loop over a staged
// tile (a variable so that the benchmark can sweep it).
var tile1DUnroll = 16

// forceParts, when positive, replaces tile1DParts's choice (for measuring).
var forceParts int64

// tile1DParts is how many threads share one outer element of the 1-D
// kernel: a power of two up to 8, as many as keep n x parts within the
// threads the multiprocessors hold, so that a few thousand bodies still
// fill the machine (65536 bodies are a quarter of an H100's 270336).
func tile1DParts(n int64, block int, lim Limits) int64 {
	if forceParts > 0 {
		return forceParts
	}
	resident := int64(lim.SMs) * int64(lim.ThreadsPerSM)
	parts := int64(1)
	for parts < 8 && int64(block)%(2*parts) == 0 && n*parts*2 <= resident {
		parts *= 2
	}
	return parts
}

func (g *generator) render1D(s *core.Stmt, op *core.Screma, redStmt *core.Stmt) ([]*kernel, error) {
	in := redStmt.Exp.(*core.Screma)
	g.n++
	k := &kernel{Stmt: s, Op: op, Block: tile1DBlock, Name: fmt.Sprintf("k%d_tile1d", g.n)}
	k.Tiling = "1-D: the invariant arrays staged through shared memory a block-sized tile at a time"
	for _, a := range op.Arrs {
		k.In = append(k.In, a.Type.Elem)
	}
	for _, t := range op.Map.Ret {
		k.Out = append(k.Out, t.Elem)
	}
	bytesPer := 0
	for _, a := range in.Arrs {
		bytesPer += a.Type.Elem.Size()
	}
	accPer := 0
	for _, v := range redStmt.Pat {
		accPer += v.Type.Elem.Size()
	}
	// Wide elements: halve the block until one tile and the accumulators
	// fit the static shared memory.
	for k.Block > 64 && k.Block*(bytesPer+accPer) > g.lim.SharedPerBlock {
		k.Block /= 2
	}
	accBytes := k.Block * accPer
	t := &tiled{kind: tile1D, k: k, tile: tile1DSize(k.Block, bytesPer, accBytes, g.lim)}
	k.tile = t

	fs := newFreeSet()
	var idx []*core.Var
	if op.Index != nil {
		idx = []*core.Var{op.Index}
	}
	fs.lambda(op.Map, idx, map[string]bool{})
	if fs.err != nil {
		return nil, fs.err
	}
	k.Env = fs.order
	ps := []kparam{{kind: pN, name: "ar_n"}, {kind: pExtra, name: "ar_parts"}}
	ps = append(ps, envParams(k.Env)...)
	for j, t := range k.In {
		ps = append(ps, kparam{kind: pIn, k: j, t: t})
	}
	for j, t := range k.Out {
		ps = append(ps, kparam{kind: pOut, k: j, t: t})
	}
	k.params = ps

	nsites := len(g.sites)
	e := &emitter{indent: 2, sites: &g.sites, funs: g.funs, prog: g.prog}
	for j, p := range op.Map.Params {
		e.line("const %s %s = ar_in%d[ar_i];", ctype(p.Type.Elem), cname(p.Name), j)
	}
	if op.Index != nil {
		e.line("const i64 %s = ar_i;", cname(op.Index.Name))
	}
	for _, st := range op.Map.Body.Stmts {
		if st != redStmt {
			if err := e.stmt(st); err != nil {
				return nil, err
			}
			continue
		}
		if err := e.tiledFold(st, in, t.tile, k.Block); err != nil {
			return nil, err
		}
	}
	var store strings.Builder
	for j, r := range op.Map.Body.Result {
		a, err := atom(r)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&store, "      ar_out%d[ar_i] = %s;\n", j, a)
	}
	var shared strings.Builder
	for j, a := range in.Arrs {
		fmt.Fprintf(&shared, "  __shared__ %s ar_sh%d[%d];\n", ctype(a.Type.Elem), j, t.tile)
	}
	for j, v := range redStmt.Pat {
		fmt.Fprintf(&shared, "  __shared__ %s ar_acc%d[%d];\n", ctype(v.Type.Elem), j, k.Block)
	}
	k.checks = e.calls || len(g.sites) > nsites
	data := map[string]any{
		"Name": k.Name, "Block": k.Block, "Tile": t.tile, "Params": k.Params(),
		"Shared": strings.TrimRight(shared.String(), "\n"),
		"Body":   strings.TrimRight(e.b.String(), "\n"),
		"Store":  strings.TrimRight(store.String(), "\n"),
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "\n// %s: map of a fold over invariant arrays at %v, 1-D tiled: %d threads a block, %d elements of each of %d invariant arrays a step in shared memory, the inner dimension split over up to 8 threads a body when the bodies are few\n",
		k.Name, s.Pos, k.Block, t.tile, len(in.Arrs))
	if err := tileTemplates.ExecuteTemplate(&b, "tile_1d.cu", data); err != nil {
		return nil, fmt.Errorf("internal error: tile_1d.cu: %v", err)
	}
	k.src = b.String()
	return []*kernel{k}, nil
}

// envParams lays out the error flag and the free variables as kernel
// parameters (arrays as pointer and dimensions), as params does.
func envParams(env []*core.Var) []kparam {
	ps := []kparam{{kind: pErr}}
	for _, v := range env {
		if v.Type.IsArray() {
			ps = append(ps, kparam{kind: pArray, v: v, t: v.Type.Elem})
			for d := 0; d < v.Type.Rank; d++ {
				ps = append(ps, kparam{kind: pDim, v: v, k: d})
			}
			continue
		}
		ps = append(ps, kparam{kind: pScalar, v: v, t: v.Type.Elem})
	}
	return ps
}

// tiledFold renders the redomap statement s as a loop over tiles of its
// invariant arrays staged in shared memory: the block loads a tile, every
// thread folds its part's share of it in order, and a barrier frees the tile
// for the next. The ar_parts partial results of a body then combine in
// order through shared memory (ar_acc<k>), and every thread of the body
// gets the result, so the statements after the fold run on real values.
func (e *emitter) tiledFold(s *core.Stmt, in *core.Screma, tile, block int) error {
	if err := e.declare(s.Pat); err != nil {
		return err
	}
	accs := names(s.Pat)
	i := 0
	for _, r := range in.Reds {
		for _, ne := range r.Neutral {
			a, err := atom(ne)
			if err != nil {
				return err
			}
			e.line("%s = %s;", accs[i], a)
			i++
		}
	}
	w, err := atom(in.W)
	if err != nil {
		return err
	}
	e.line("{")
	e.indent++
	e.line("// Part q folds [ar_lo, ar_hi) of the inner dimension.")
	e.line("const i64 ar_chunk = (%s + ar_parts - 1) / ar_parts;", w)
	e.line("const i64 ar_lo = min(%s, ar_q * ar_chunk), ar_hi = min(%s, ar_lo + ar_chunk);", w, w)
	e.line("for (i64 ar_t0 = 0; ar_t0 < ar_chunk; ar_t0 += ar_step) {")
	e.indent++
	// Each array is read within its own length: should the body's size
	// assertion have failed, the loop still reads nothing out of bounds.
	e.line("for (int ar_l = threadIdx.x; ar_l < %d; ar_l += %d) {", tile, block)
	e.line("  const i64 ar_plo = min(%s, (ar_l / ar_step) * ar_chunk);", w)
	e.line("  const i64 ar_j = ar_plo + ar_t0 + ar_l %% ar_step;")
	e.line("  if (ar_j < min(%s, ar_plo + ar_chunk)) {", w)
	for j, a := range in.Arrs {
		e.line("    ar_sh%d[ar_l] = ar_j < %s_d0 ? %s[ar_j] : (%s)0;", j, cname(a.Name), cname(a.Name), ctype(a.Type.Elem))
	}
	e.line("  }")
	e.line("}")
	e.line("__syncthreads();")
	e.line("const int ar_cnt = (int)max((i64)0, min((i64)ar_step, ar_hi - ar_lo - ar_t0));")
	e.line("#pragma unroll %d", max(tile1DUnroll, 1))
	e.line("for (int ar_jj = 0; ar_jj < ar_cnt; ar_jj++) {")
	e.indent++
	for j, p := range in.Map.Params {
		e.line("const %s %s = ar_sh%d[ar_q * ar_step + ar_jj];", ctype(p.Type.Elem), cname(p.Name), j)
	}
	if in.Index != nil {
		e.line("const i64 %s = ar_lo + ar_t0 + ar_jj;", cname(in.Index.Name))
	}
	ys := make([]string, len(in.Map.Ret))
	for j, t := range in.Map.Ret {
		ys[j] = e.fresh("y")
		e.line("%s %s;", ctype(t.Elem), ys[j])
	}
	e.line("{")
	e.indent++
	if err := e.body(in.Map.Body, ys); err != nil {
		return err
	}
	e.indent--
	e.line("}")
	if err := e.combine(in, accs, ys); err != nil {
		return err
	}
	e.indent--
	e.line("}")
	e.line("__syncthreads();")
	e.indent--
	e.line("}")
	// The parts, in order.
	e.line("if (ar_parts > 1) {")
	e.indent++
	for k, a := range accs {
		e.line("ar_acc%d[threadIdx.x] = %s;", k, a)
	}
	e.line("__syncthreads();")
	e.line("if (ar_q == 0) {")
	e.indent++
	e.line("for (int ar_p = 1; ar_p < (int)ar_parts; ar_p++) {")
	e.indent++
	others := make([]string, len(accs))
	for k, p := range s.Pat {
		others[k] = e.fresh("part")
		e.line("const %s %s = ar_acc%d[ar_p * ar_bodies + ar_b];", ctype(p.Type.Elem), others[k], k)
	}
	if err := e.combine(in, accs, others); err != nil {
		return err
	}
	e.indent--
	e.line("}")
	for k, a := range accs {
		e.line("ar_acc%d[threadIdx.x] = %s;", k, a)
	}
	e.indent--
	e.line("}")
	e.line("__syncthreads();")
	for k, a := range accs {
		e.line("%s = ar_acc%d[ar_b];", a, k)
	}
	e.line("__syncthreads();")
	e.indent--
	e.line("}")
	e.indent--
	e.line("}")
	return nil
}

// combine renders accs = op(accs, xs) for the reductions of in, each
// operator on its own components.
func (e *emitter) combine(in *core.Screma, accs, xs []string) error {
	off := 0
	for _, r := range in.Reds {
		n := len(r.Neutral)
		if len(r.Lambda.Params) != 2*n {
			return fmt.Errorf("internal error: operator with %d parameters for %d components", len(r.Lambda.Params), n)
		}
		e.line("{")
		e.indent++
		for j, p := range r.Lambda.Params {
			var src string
			if j < n {
				src = accs[off+j]
			} else {
				src = xs[off+j-n]
			}
			e.line("const %s %s = %s;", ctype(p.Type.Elem), cname(p.Name), src)
		}
		if err := e.body(r.Lambda.Body, accs[off:off+n]); err != nil {
			return err
		}
		e.indent--
		e.line("}")
		off += n
	}
	return nil
}

// ---------------------------------------------------------------------------
// 2-D tiling: the matrix product

// shapeStmt reports whether s is shape code the host can evaluate from
// array shapes: sizes, transposes, copies, i64 arithmetic and comparisons,
// and assertions.
func shapeStmt(s *core.Stmt) bool {
	switch e := s.Exp.(type) {
	case *core.SizeExp, *core.TransposeExp, *core.AssertExp:
		return true
	case *core.AtomExp:
		return len(s.Pat) == 1 && !s.Pat[0].Type.IsArray()
	case *core.BinOpExp:
		switch e.Op {
		case core.Eq, core.Ne, core.Add, core.Sub, core.Mul, core.LogAnd:
			return e.T == core.I64 || e.T == core.Bool
		}
	}
	return false
}

// singleSOAC splits a lambda body into its shape statements and its one
// SOAC statement, which must be a plain map or a redomap, and must give the
// body's only result.
func singleSOAC(b *core.Body) (shape []*core.Stmt, soac *core.Stmt, op *core.Screma) {
	for _, s := range b.Stmts {
		if in, ok := s.Exp.(*core.Screma); ok {
			if soac != nil {
				return nil, nil, nil
			}
			soac, op = s, in
			continue
		}
		if !shapeStmt(s) {
			return nil, nil, nil
		}
		shape = append(shape, s)
	}
	if soac == nil || len(b.Result) != 1 || len(soac.Pat) != 1 || !sameVar(b.Result[0], soac.Pat[0]) {
		return nil, nil, nil
	}
	if len(op.Scans) > 0 || op.Post != nil || op.Index != nil {
		return nil, nil, nil
	}
	return shape, soac, op
}

// matchMM recognises the matrix product; nil if op is something else.
func matchMM(op *core.Screma) *tiled {
	if len(op.Arrs) != 1 || op.Index != nil || op.Arrs[0].Type.Rank != 2 || len(op.Map.Params) != 1 {
		return nil
	}
	t := &tiled{kind: tileMM, a: op.Arrs[0], row: op.Map.Params[0]}
	outerBound := boundIn(op.Map, nil)
	var innerStmt *core.Stmt
	var inner *core.Screma
	t.outerSh, innerStmt, inner = singleSOAC(op.Map.Body)
	if inner == nil || len(inner.Reds) > 0 || len(inner.Arrs) != 1 || len(inner.Map.Params) != 1 || innerStmt.Pat[0].Type.Rank != 1 {
		return nil
	}
	t.innerW, t.col = inner.W, inner.Map.Params[0]
	bv := inner.Arrs[0]
	if bv.Type.Rank != 2 {
		return nil
	}
	for _, s := range t.outerSh {
		if tr, ok := s.Exp.(*core.TransposeExp); ok && len(s.Pat) == 1 && s.Pat[0].Name == bv.Name && !outerBound[tr.Arr.Name] && tr.Arr.Type.Rank == 2 {
			t.b, t.tr = tr.Arr, bv
		}
	}
	if t.b == nil {
		if outerBound[bv.Name] {
			return nil
		}
		t.b, t.bRows = bv, true
	}
	var redStmt *core.Stmt
	var red *core.Screma
	t.innerSh, redStmt, red = singleSOAC(inner.Map.Body)
	if red == nil || len(red.Reds) != 1 || len(red.Reds[0].Neutral) != 1 || len(red.Map.Ret) != 1 || len(red.Arrs) != 2 {
		return nil
	}
	rowFirst := red.Arrs[0].Name == t.row.Name && red.Arrs[1].Name == t.col.Name
	if !rowFirst && !(red.Arrs[0].Name == t.col.Name && red.Arrs[1].Name == t.row.Name) {
		return nil
	}
	t.redW = red.W
	t.r = red.Reds[0].Neutral[0].AtomType().Elem
	if red.Reds[0].Neutral[0].AtomType().IsArray() || redStmt.Pat[0].Type.IsArray() {
		return nil
	}
	// f, op and the neutral element may use only what every thread sees.
	innerBound := boundIn(inner.Map, nil)
	fs := newFreeSet()
	fs.lambda(red.Map, nil, map[string]bool{})
	fs.lambda(red.Reds[0].Lambda, nil, map[string]bool{})
	fs.stmts(nil, red.Reds[0].Neutral, map[string]bool{})
	if fs.err != nil {
		return nil
	}
	for _, v := range fs.order {
		if outerBound[v.Name] || innerBound[v.Name] {
			return nil
		}
	}
	if _, ok := vec4(t.a.Type.Elem); !ok {
		return nil
	}
	if _, ok := vec4(t.b.Type.Elem); !ok {
		return nil
	}
	if !rowFirst {
		// Render f with its parameters swapped back to (row, col) order.
		f := *red.Map
		f.Params = []*core.Var{red.Map.Params[1], red.Map.Params[0]}
		red = &core.Screma{W: red.W, Arrs: []*core.Var{t.row, t.col}, Map: &f, Reds: red.Reds}
	}
	t.k = &kernel{Op: red, Env: fs.order}
	return t
}

// vec4 is the 16-byte vector type of four elements of t, for the shared
// memory reads of the matrix product (4-byte element types only).
func vec4(t core.PrimType) (string, bool) {
	switch t {
	case core.F32:
		return "float4", true
	case core.I32:
		return "int4", true
	case core.U32:
		return "uint4", true
	}
	return "", false
}

func (g *generator) renderMM(s *core.Stmt, op *core.Screma, t *tiled) ([]*kernel, error) {
	red := t.k.Op
	env := t.k.Env
	g.n++
	base := fmt.Sprintf("k%d_tile_mm", g.n)
	// f and op as device functions.
	nsites := len(g.sites)
	envDecl := []string{}
	envArgs := []string{}
	for _, p := range envParams(env) {
		envDecl = append(envDecl, p.decl())
		switch p.kind {
		case pErr:
			envArgs = append(envArgs, "ar_err")
		case pDim:
			envArgs = append(envArgs, fmt.Sprintf("%s_d%d", cname(p.v.Name), p.k))
		default:
			envArgs = append(envArgs, cname(p.v.Name))
		}
	}
	var fns strings.Builder
	fmt.Fprintf(&fns, "\n// %s: matrix product at %v, 2-D tiled: %s; for few tiles %s\n", base, s.Pos, mmLarge, mmSmall)
	e := &emitter{indent: 1, sites: &g.sites, funs: g.funs, prog: g.prog}
	ps := append([]string{}, envDecl...)
	for _, p := range red.Map.Params {
		ps = append(ps, ctype(p.Type.Elem)+" "+cname(p.Name))
	}
	ps = append(ps, ctype(t.r)+" *ar_r0")
	if err := e.body(red.Map.Body, []string{"*ar_r0"}); err != nil {
		return nil, err
	}
	fmt.Fprintf(&fns, "static __device__ __forceinline__ void %s_f(%s) {\n%s}\n", base, strings.Join(ps, ", "), e.b.String())
	e2 := &emitter{indent: 1, sites: &g.sites, funs: g.funs, prog: g.prog}
	accs, elems, err := operatorBodies(e2, []*core.Lambda{red.Reds[0].Lambda}, []int{1})
	if err != nil {
		return nil, err
	}
	ps = append(append(append([]string{}, envDecl...), accs...), elems...)
	ps = append(ps, ctype(t.r)+" *ar_r0")
	fmt.Fprintf(&fns, "static __device__ __forceinline__ void %s_op(%s) {\n%s}\n", base, strings.Join(ps, ", "), e2.b.String())
	neutral, err := atom(red.Reds[0].Neutral[0])
	if err != nil {
		return nil, err
	}
	checks := e.calls || e2.calls || len(g.sites) > nsites

	params := []kparam{{kind: pN, name: "ar_n"}, {kind: pExtra, name: "ar_p"}, {kind: pExtra, name: "ar_m"}}
	params = append(params, envParams(env)...)
	va, _ := vec4(t.a.Type.Elem)
	vb, _ := vec4(t.b.Type.Elem)
	var ks []*kernel
	shapes := []mmShape{mmLarge}
	if mmSmall != mmLarge {
		shapes = append(shapes, mmSmall)
	}
	for _, sh := range shapes {
		name := fmt.Sprintf("%s_%dx%dx%d_r%dx%d", base, sh.BM, sh.BN, sh.BK, sh.TM, sh.TN)
		k := &kernel{Name: name, Stmt: s, Op: op, Env: env, Block: sh.threads(), params: params, checks: checks, Red: []core.PrimType{t.r}}
		tt := *t
		tt.k, tt.mm = k, sh
		k.tile = &tt
		k.Tiling = fmt.Sprintf("2-D: %dx%d block tile, k-step %d, %dx%d register tile a thread", sh.BM, sh.BN, sh.BK, sh.TM, sh.TN)
		decl := k.Params() + fmt.Sprintf(", const %s *__restrict__ ar_A, const %s *__restrict__ ar_B, %s *__restrict__ ar_out",
			ctype(t.a.Type.Elem), ctype(t.b.Type.Elem), ctype(t.r))
		envC := ""
		if len(envArgs) > 0 {
			envC = strings.Join(envArgs, ", ") + ", "
		}
		minBlocks := max(1, min(2, g.lim.ThreadsPerSM/max(1, sh.threads())))
		data := map[string]any{
			"Name": name, "Params": decl, "Threads": sh.threads(), "MinBlocks": minBlocks,
			"BM": sh.BM, "BN": sh.BN, "BK": sh.BK, "TM": sh.TM, "TN": sh.TN,
			"TA": ctype(t.a.Type.Elem), "TB": ctype(t.b.Type.Elem), "R": ctype(t.r), "VA": va, "VB": vb,
			"Neutral": neutral, "BRows": t.bRows,
			"FnF": base + "_f", "FnOp": base + "_op", "EnvArgsC": envC, "FArgs": "a[i], b[j]",
		}
		var b bytes.Buffer
		if len(ks) == 0 {
			b.WriteString(fns.String())
		}
		if err := tileTemplates.ExecuteTemplate(&b, "tile_mm.cu", data); err != nil {
			return nil, fmt.Errorf("internal error: tile_mm.cu: %v", err)
		}
		k.src = b.String()
		ks = append(ks, k)
	}
	if len(ks) > 1 {
		ks[0].tile.small = ks[1]
	}
	return ks, nil
}

// ---------------------------------------------------------------------------
// Launching

// shapeEnv evaluates shape statements on the host: scalars by name, array
// shapes by name.
type shapeEnv struct {
	ints   map[string]int64
	shapes map[string][]int64
	scalar func(core.Atom) (int64, error) // atoms bound outside (host values)
}

func (se *shapeEnv) atom(a core.Atom) (int64, error) {
	switch a := a.(type) {
	case core.Const:
		return a.Int(), nil
	case *core.Const:
		return a.Int(), nil
	case *core.Var:
		if v, ok := se.ints[a.Name]; ok {
			return v, nil
		}
	}
	return se.scalar(a)
}

func (se *shapeEnv) run(stmts []*core.Stmt) error {
	for _, s := range stmts {
		switch e := s.Exp.(type) {
		case *core.SizeExp:
			sh, ok := se.shapes[e.Arr.Name]
			if !ok || e.Dim >= len(sh) {
				return fmt.Errorf("internal error: tiled kernel: no shape for %s", e.Arr.Name)
			}
			se.ints[s.Pat[0].Name] = sh[e.Dim]
		case *core.TransposeExp:
			sh := append([]int64(nil), se.shapes[e.Arr.Name]...)
			if len(sh) < 2 {
				return fmt.Errorf("internal error: tiled kernel: no shape for %s", e.Arr.Name)
			}
			sh[0], sh[1] = sh[1], sh[0]
			se.shapes[s.Pat[0].Name] = sh
		case *core.AtomExp:
			v, err := se.atom(e.A)
			if err != nil {
				return err
			}
			se.ints[s.Pat[0].Name] = v
		case *core.BinOpExp:
			x, err := se.atom(e.X)
			if err != nil {
				return err
			}
			y, err := se.atom(e.Y)
			if err != nil {
				return err
			}
			var r int64
			switch e.Op {
			case core.Eq:
				r = b2i(x == y)
			case core.Ne:
				r = b2i(x != y)
			case core.Add:
				r = x + y
			case core.Sub:
				r = x - y
			case core.Mul:
				r = x * y
			case core.LogAnd:
				r = b2i(x != 0 && y != 0)
			default:
				return fmt.Errorf("internal error: tiled kernel: shape operator %v", e.Op)
			}
			se.ints[s.Pat[0].Name] = r
		case *core.AssertExp:
			c, err := se.atom(e.Cond)
			if err != nil {
				return err
			}
			if c == 0 {
				vals := make([]string, len(e.Args))
				for i, a := range e.Args {
					v, err := se.atom(a)
					if err != nil {
						return err
					}
					vals[i] = fmt.Sprint(v)
				}
				return source.Errorf(s.Pos, "%s", e.Message(vals))
			}
		default:
			return fmt.Errorf("internal error: tiled kernel: %T is not shape code", e)
		}
	}
	return nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// launchTiled runs a tiled kernel for statement s and binds its results.
func (r *run) launchTiled(s *core.Stmt, k *kernel, env map[string]eval.Value) error {
	t := k.tile
	op := k.Op
	wv, err := r.host(op.W, env)
	if err != nil {
		return err
	}
	n, err := scalarInt(wv)
	if err != nil {
		return err
	}
	alloc := func(et core.PrimType, count int64) (*devArray, error) {
		if count < 0 || count > maxAlloc/int64(et.Size()) {
			return nil, source.Errorf(s.Pos, "cannot allocate %d elements of %d bytes", count, et.Size())
		}
		d, err := newDevArray(r.b.g, et, count)
		if err != nil {
			if cuda.Sticky(err) {
				return nil, err
			}
			return nil, source.Errorf(s.Pos, "cannot allocate %d bytes on the GPU: %v", count*int64(et.Size()), err)
		}
		r.temps = append(r.temps, d)
		return d, nil
	}
	var args []any
	var bytes int64
	envArg := func(p kparam) error {
		a, b, ok, err := r.envArgBytes(p, env)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("internal error: tiled kernel parameter kind %d", p.kind)
		}
		args = append(args, a)
		bytes += b
		return nil
	}

	switch t.kind {
	case tile1D:
		var outs []*devArray
		for _, et := range k.Out {
			d, err := alloc(et, n)
			if err != nil {
				return err
			}
			outs = append(outs, d)
		}
		if n > 0 {
			parts := tile1DParts(n, k.Block, r.b.lim)
			for _, p := range k.params {
				switch p.kind {
				case pN:
					args = append(args, n)
				case pExtra:
					args = append(args, parts)
				case pIn:
					d, v, err := r.device(op.Arrs[p.k], env)
					if err != nil {
						return err
					}
					if v.Len() != n {
						return fmt.Errorf("internal error: %s has %d elements, the map %d", op.Arrs[p.k].Name, v.Len(), n)
					}
					bytes += d.bytes
					args = append(args, d.ptr())
				case pOut:
					bytes += outs[p.k].bytes
					args = append(args, outs[p.k].ptr())
				default:
					if err := envArg(p); err != nil {
						return err
					}
				}
			}
			grid := min(ceilDiv(n, int64(k.Block)/parts), int64(r.b.lim.SMs)*int64(r.l.occ[k.Name])*8)
			if err := r.launchOne(k, k.Name, grid, args, bytes); err != nil {
				return err
			}
		}
		for j, d := range outs {
			env[s.Pat[j].Name] = eval.Value{Elem: k.Out[j], Shape: []int64{n}, Dev: d}
		}
		return nil
	case tileMM:
		av, err := r.value(t.a, env)
		if err != nil {
			return err
		}
		bv, err := r.value(t.b, env)
		if err != nil {
			return err
		}
		if len(av.Shape) != 2 || len(bv.Shape) != 2 || av.Shape[0] != n {
			return fmt.Errorf("internal error: matrix product of shapes %v and %v over %d rows", av.Shape, bv.Shape, n)
		}
		m := av.Shape[1]
		se := &shapeEnv{ints: map[string]int64{}, shapes: map[string][]int64{t.row.Name: {m}},
			scalar: func(a core.Atom) (int64, error) {
				v, err := r.host(a, env)
				if err != nil {
					return 0, err
				}
				if v.Elem == core.Bool {
					return b2i(v.Data.([]bool)[0]), nil
				}
				return scalarInt(v)
			}}
		se.shapes[t.b.Name] = bv.Shape
		p := bv.Shape[1]
		if t.bRows {
			p = bv.Shape[0]
		}
		if n > 0 {
			if err := se.run(t.outerSh); err != nil {
				return err
			}
			if p, err = se.atom(t.innerW); err != nil {
				return err
			}
		}
		colLen := bv.Shape[0]
		if t.bRows {
			colLen = bv.Shape[1]
		}
		se.shapes[t.col.Name] = []int64{colLen}
		if n > 0 && p > 0 {
			if err := se.run(t.innerSh); err != nil {
				return err
			}
			w, err := se.atom(t.redW)
			if err != nil {
				return err
			}
			if w != m || colLen != m {
				return fmt.Errorf("internal error: matrix product over %d of rows of %d and columns of %d", w, m, colLen)
			}
		}
		if p < 0 || n > 0 && p > maxAlloc/n {
			return source.Errorf(s.Pos, "cannot allocate an array of %d x %d elements", n, p)
		}
		out, err := alloc(t.r, n*p)
		if err != nil {
			return err
		}
		if n > 0 && p > 0 {
			kk := k
			sms := int64(r.b.lim.SMs)
			if ceilDiv(n, int64(t.mm.BM))*ceilDiv(p, int64(t.mm.BN)) < sms && t.small != nil {
				kk = t.small
			}
			sh := kk.tile.mm
			for _, prm := range kk.params {
				switch prm.kind {
				case pN:
					args = append(args, n)
				case pExtra:
					if prm.name == "ar_p" {
						args = append(args, p)
					} else {
						args = append(args, m)
					}
				default:
					if err := envArg(prm); err != nil {
						return err
					}
				}
			}
			ad, _, err := r.device(t.a, env)
			if err != nil {
				return err
			}
			bd, _, err := r.device(t.b, env)
			if err != nil {
				return err
			}
			bytes += ad.bytes + bd.bytes + out.bytes
			args = append(args, ad.ptr(), bd.ptr(), out.ptr())
			grid := ceilDiv(n, int64(sh.BM)) * ceilDiv(p, int64(sh.BN))
			if grid > 1<<31-1 {
				return source.Errorf(s.Pos, "matrix product of %d x %d tiles is too large for one launch", ceilDiv(n, int64(sh.BM)), ceilDiv(p, int64(sh.BN)))
			}
			if err := r.launchOne(kk, kk.Name, grid, args, bytes); err != nil {
				return err
			}
		}
		env[s.Pat[0].Name] = eval.Value{Elem: t.r, Shape: []int64{n, p}, Dev: out}
		return nil
	}
	return fmt.Errorf("internal error: tiled kernel kind %d", t.kind)
}

// launchOne launches kernel k on grid blocks, records its time and checks
// the error flag.
func (r *run) launchOne(k *kernel, name string, grid int64, args []any, bytes int64) error {
	f := r.l.funcs[name]
	if f == nil {
		return fmt.Errorf("internal error: kernel %s not loaded", name)
	}
	d, err := f.Launch(cuda.Dim3{X: uint32(max(grid, 1))}, cuda.Dim3{X: uint32(k.Block)}, 0, args...)
	if err != nil {
		return err
	}
	r.t.Run += d
	r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: name, Time: d, Bytes: bytes})
	if k.checks {
		return r.checkError()
	}
	return nil
}
