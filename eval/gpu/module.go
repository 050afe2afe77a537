package gpu

import (
	"fmt"
	"sort"
	"strings"

	"github.com/arepl/arepl/kernels"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// module is the generated CUDA for a whole program: one NVRTC module with a
// kernel (or, for segmented reductions, one per group size) for every SOAC
// statement that runs on the GPU, and the reason for every one that does
// not.
type module struct {
	body     string // everything after the prelude
	kernels  map[*core.Stmt][]*kernel
	fallback map[*core.Stmt]string       // statement -> why it runs on the fallback
	split    map[*core.Stmt][]*core.Stmt // statement -> its map, then its SOAC (split.go)
	sites    []errSite
}

// source is the full module text given to NVRTC.
func (m *module) source() string { return prelude + "\n" + m.body }

var prelude = func() string {
	b, err := kernels.FS.ReadFile("prelude.cu")
	if err != nil {
		panic("gpu: embedded prelude.cu missing")
	}
	return string(b)
}()

// generate renders every SOAC statement of prog's host-level bodies (the
// bodies of functions, branches and loops, not lambdas) that a kernel
// family covers.
func generate(prog *core.Program, lim Limits) (*module, error) {
	g := &generator{prog: prog, lim: lim, funs: map[string]bool{},
		m: &module{kernels: map[*core.Stmt][]*kernel{}, fallback: map[*core.Stmt]string{}, split: map[*core.Stmt][]*core.Stmt{}}}
	for _, f := range prog.Funs {
		if err := g.walk(f.Body); err != nil {
			return nil, err
		}
	}
	var b strings.Builder
	if len(g.funs) > 0 {
		if err := g.deviceFuns(&b); err != nil {
			return nil, err
		}
	}
	b.WriteString(g.kbuf.String())
	g.m.body = b.String()
	g.m.sites = g.sites
	return g.m, nil
}

type generator struct {
	prog  *core.Program
	lim   Limits
	m     *module
	sites []errSite
	funs  map[string]bool
	kbuf  strings.Builder
	n     int
	defs  map[string]*core.Stmt // the definitions of the body walk is at, for split.go's vector reductions
}

func (g *generator) walk(b *core.Body) error {
	// Column reductions of transposes, and the transposes they read in
	// place, first (segred.go).
	if err := g.columnViews(b); err != nil {
		return err
	}
	sizes := sizeVars(b)
	defs := map[string]*core.Stmt{}
	for _, s := range b.Stmts {
		for _, v := range s.Pat {
			defs[v.Name] = s
		}
	}
	for _, s := range b.Stmts {
		if g.m.kernels[s] != nil {
			continue
		}
		switch e := s.Exp.(type) {
		case *core.IfExp:
			if err := g.walk(e.Then); err != nil {
				return err
			}
			if err := g.walk(e.Else); err != nil {
				return err
			}
		case *core.LoopExp:
			if err := g.walk(e.Body); err != nil {
				return err
			}
		case *core.Screma:
			// Shapes with invariant inputs get tiled kernels first (tile.go).
			if ok, err := g.tiledKernel(s, e); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			// Reductions over the outer dimension by indexing (segred.go).
			if ok, err := g.columnIota(s, e, sizes); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			// Reductions and scans over rows with vector operators
			// (vecop.go).
			if ok, err := g.vectorOp(s, e, defs); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			g.defs = defs
			if err := g.soac(s, e, nil); err != nil {
				return err
			}
		case *core.Segmented:
			if e.Op == nil {
				return fmt.Errorf("internal error: segmented statement without an operation")
			}
			if err := g.soac(s, e.Op, e.Outer); err != nil {
				return err
			}
		case *core.TransposeExp, *core.CopyExp, *core.ReverseExp, *core.IotaExp, *core.ReplicateExp:
			if n := arrayOpNest(s); n != nil {
				nsites := len(g.sites)
				k, err := g.segmapOf(s, n)
				if isUnsupported(err) {
					g.sites = g.sites[:nsites]
					continue
				}
				if err != nil {
					return err
				}
				g.kbuf.WriteString(k.src)
				g.m.kernels[s] = []*kernel{k}
			}
		case *core.Hist, *core.Scatter, *core.Filter, *core.MultiScan:
			_, herr := genHist(g.prog, s, g.lim)
			_, serr := genScan(g.prog, s, g.lim)
			if herr != nil && serr != nil {
				nsites := len(g.sites)
				ok, err := g.split(s)
				if err != nil {
					return err
				}
				if ok {
					continue
				}
				g.sites = g.sites[:nsites]
			}
			g.m.fallback[s] = expName(e) + " is not a map or redomap: the scan, filter and histogram kernels compile it separately, or it runs on the CPU"
		}
	}
	return nil
}

// soac generates the kernels of one statement, or records why it cannot
// run on the GPU. The order of preference (after walk's tiledKernel, which
// takes the shapes tile.go recognises): the flat families (map, redomap, segmented
// reduce), the scan module's single-pass kernels (chosen at run time, see
// scanCovers), and the general segmented map of a nest (segmap.go).
func (g *generator) soac(s *core.Stmt, op *core.Screma, outer []core.Atom) error {
	saved := make(map[string]bool, len(g.funs))
	for f := range g.funs {
		saved[f] = true
	}
	nsites := len(g.sites)
	// restore forgets what a failed attempt added.
	restore := func() {
		g.funs = map[string]bool{}
		for f := range saved {
			g.funs[f] = true
		}
		g.sites = g.sites[:nsites]
	}
	ks, err := g.family(s, op, outer)
	if err == nil {
		// Functions the kernel calls must render too.
		var scratch strings.Builder
		err = g.deviceFuns(&scratch)
	}
	if isUnsupported(err) {
		why := err.Error()
		restore()
		if g.scanCovers(s) {
			g.m.fallback[s] = why
			return nil
		}
		var k *kernel
		k, err = g.segmap(s)
		if err == nil {
			var scratch strings.Builder
			err = g.deviceFuns(&scratch)
		}
		if isUnsupported(err) {
			restore()
			if _, isSeg := s.Exp.(*core.Segmented); !isSeg {
				ok, serr := g.split(s)
				if serr != nil {
					return serr
				}
				if ok {
					return nil
				}
				restore()
				// A scan and a reduction fused side by side: two
				// statements (splitscan.go).
				ok, serr = g.splitScans(s)
				if serr != nil {
					return serr
				}
				if ok {
					return nil
				}
				restore()
			}
			g.m.fallback[s] = why + "; as a segmented map: " + err.Error()
			return nil
		}
		ks = []*kernel{k}
	}
	if err != nil {
		return err
	}
	for _, k := range ks {
		g.kbuf.WriteString(k.src)
	}
	g.m.kernels[s] = ks
	return nil
}

// scanCovers reports whether the scan module runs s (a scan, segmented
// scan or filter), so no map kernel should take it.
func (g *generator) scanCovers(s *core.Stmt) bool {
	var op *core.Screma
	switch e := s.Exp.(type) {
	case *core.Screma:
		op = e
	case *core.Segmented:
		op = e.Op
	}
	if op == nil || len(op.Scans) == 0 {
		return false
	}
	m, err := genScan(g.prog, s, g.lim)
	return err == nil && m != nil
}

// family generates the kernels of the flat families: a map or redomap
// kernel, or the segmented-reduce variants (segred.go).
func (g *generator) family(s *core.Stmt, op *core.Screma, outer []core.Atom) ([]*kernel, error) {
	if outer == nil {
		k, err := g.kernel(s, op, nil, segInfo{})
		if err != nil {
			return nil, err
		}
		return []*kernel{k}, nil
	}
	return g.segFamily(s, op, outer)
}

func (g *generator) kernel(s *core.Stmt, op *core.Screma, outer []core.Atom, seg segInfo) (*kernel, error) {
	if len(op.Scans) > 0 {
		return nil, unsup("%s: scans run in the scan kernel (scan.go), not in a map or redomap kernel", op.Kind())
	}
	if op.Post != nil {
		return nil, unsup("a post-map belongs to the scan kernel, not to a map or redomap kernel")
	}
	if outer != nil && len(op.Reds) == 0 {
		return nil, unsup("a segmented map without a reduction has no GPU kernel; it runs on the CPU")
	}
	g.n++
	k := &kernel{Stmt: s, Op: op, Outer: outer, Block: 256, Unroll: 1, Seq: 1, Group: seg.group, seg: seg}
	for _, a := range op.Arrs {
		if a.Type.Rank != 1+len(outer) {
			return nil, unsup("%s over rows of %s (nested parallelism is not generated yet)", op.Kind(), a.Name)
		}
		k.In = append(k.In, a.Type.Elem)
	}
	k.Comm = true
	for _, r := range op.Reds {
		k.redArities = append(k.redArities, len(r.Neutral))
		k.Comm = k.Comm && (r.Comm || exactlyCommutative(r.Lambda))
		for _, ne := range r.Neutral {
			t := ne.AtomType()
			if t.IsArray() {
				return nil, unsup("reduction of arrays (vectorised operators) is not generated yet")
			}
			k.Red = append(k.Red, t.Elem)
			c, err := atom(ne)
			if err != nil {
				return nil, err
			}
			k.Neutral = append(k.Neutral, c)
		}
	}
	if len(op.Map.Ret) < len(k.Red) {
		return nil, fmt.Errorf("internal error: map returns %d values for %d accumulator components", len(op.Map.Ret), len(k.Red))
	}
	for _, t := range op.Map.Ret[len(k.Red):] {
		if t.IsArray() {
			return nil, unsup("a map producing arrays is not generated yet")
		}
		k.Out = append(k.Out, t.Elem)
	}
	switch {
	case outer != nil:
		k.Kind = kSegRed
		k.Name = fmt.Sprintf("k%d_%s", g.n, seg.segName())
		if seg.strategy == segCols && len(k.Out) > 0 {
			return nil, unsup("a column reduction with map-outs: they would be written transposed")
		}
	case len(op.Reds) == 0:
		k.Kind = kMap
		k.Name = fmt.Sprintf("k%d_map", g.n)
	case k.Comm:
		k.Kind = kRedComm
		k.Name = fmt.Sprintf("k%d_redomap", g.n)
		k.Unroll = 4
	default:
		k.Kind = kRedOrdered
		k.Name = fmt.Sprintf("k%d_redomap_ordered", g.n)
		// What a lane holds per element is what the tile holds: the map's
		// results, or, when the kernel transposes its inputs, the inputs.
		held := k.Red
		if k.TransposeIn() && len(k.In) > 0 {
			held = k.In
		}
		tile := 0
		for _, t := range held {
			tile += t.Size()
		}
		k.Seq = seqDegree(held, tile, k.Block, g.lim)
		k.MinBlocks = g.lim.OrderedMinBlocks
		k.FoldUnroll = g.lim.OrderedFoldUnroll
	}

	// The environment: free variables of the lambdas and the neutral
	// elements.
	fs := newFreeSet()
	var idx []*core.Var
	if op.Index != nil {
		idx = []*core.Var{op.Index}
	}
	fs.lambda(op.Map, idx, map[string]bool{})
	for _, r := range op.Reds {
		fs.lambda(r.Lambda, nil, map[string]bool{})
		fs.stmts(nil, r.Neutral, map[string]bool{})
	}
	if fs.err != nil {
		return nil, fs.err
	}
	k.Env = fs.order
	g.params(k)
	src, err := g.render(k)
	if err != nil {
		return nil, err
	}
	k.src = src
	return k, nil
}

// exactlyCommutative reports whether operator l is one integer operator
// that commutes exactly (+, *, min, max, &, |, ^ on integers) applied to
// its two parameters. `reduce (+) 0` does not mark itself commutative
// (`reduce_comm` would), but with such an operator the commutative kernel
// computes the same bits as the ordered one, and NVRTC compiles it in about
// 60% of the time (bench/RESULTS.md, "Interactive latency": 121 ms against
// 200 ms for a new module), which is most of what a new REPL reduction waits
// for. Floats stay ordered: reassociating them would change results.
func exactlyCommutative(l *core.Lambda) bool {
	if l == nil || len(l.Params) != 2 || len(l.Body.Stmts) != 1 || len(l.Body.Result) != 1 {
		return false
	}
	s := l.Body.Stmts[0]
	b, ok := s.Exp.(*core.BinOpExp)
	if !ok || !b.T.IsInt() || len(s.Pat) != 1 || !core.BinOps[b.Op].Commutative || !core.BinOps[b.Op].Associative {
		return false
	}
	x, xok := b.X.(*core.Var)
	y, yok := b.Y.(*core.Var)
	r, rok := l.Body.Result[0].(*core.Var)
	p, q := l.Params[0].Name, l.Params[1].Name
	return xok && yok && rok && r.Name == s.Pat[0].Name &&
		(x.Name == p && y.Name == q || x.Name == q && y.Name == p)
}

// params lays out the kernel's parameters; see paramKind.
func (g *generator) params(k *kernel) {
	var ps []kparam
	switch k.Kind {
	case kSegRed:
		head, _ := k.segParams()
		ps = append(ps, head...)
	case kRedOrdered:
		ps = append(ps, kparam{kind: pN, name: "ar_n"}, kparam{kind: pExtra, name: "ar_tiles_per_warp"})
	default:
		ps = append(ps, kparam{kind: pN, name: "ar_n"})
	}
	env := []kparam{{kind: pErr}}
	for _, v := range k.Env {
		if v.Type.IsArray() {
			env = append(env, kparam{kind: pArray, v: v, t: v.Type.Elem})
			for d := 0; d < v.Type.Rank; d++ {
				env = append(env, kparam{kind: pDim, v: v, k: d})
			}
			continue
		}
		env = append(env, kparam{kind: pScalar, v: v, t: v.Type.Elem})
	}
	ps = append(ps, env...)
	var args []string
	for _, p := range env {
		switch p.kind {
		case pErr:
			args = append(args, "ar_err")
		case pDim:
			args = append(args, fmt.Sprintf("%s_d%d", cname(p.v.Name), p.k))
		default:
			args = append(args, cname(p.v.Name))
		}
	}
	k.envArgs = strings.Join(args, ", ")
	k.envDecl = make([]string, len(env))
	for i, p := range env {
		k.envDecl[i] = p.decl()
	}
	for j, t := range k.In {
		ps = append(ps, kparam{kind: pIn, k: j, t: t})
	}
	for j, t := range k.Out {
		ps = append(ps, kparam{kind: pOut, k: j, t: t})
	}
	if k.Kind == kRedComm || k.Kind == kRedOrdered {
		for j, t := range k.Red {
			ps = append(ps, kparam{kind: pPartial, k: j, t: t})
		}
	}
	if len(op(k).Reds) > 0 {
		for j, t := range k.Red {
			ps = append(ps, kparam{kind: pResult, k: j, t: t})
		}
	}
	if k.Kind == kRedComm || k.Kind == kRedOrdered {
		ps = append(ps, kparam{kind: pCounter})
	}
	if k.Kind == kSegRed {
		_, tail := k.segParams()
		ps = append(ps, tail...)
	}
	k.params = ps
}

func op(k *kernel) *core.Screma { return k.Op }

// render produces the kernel's device functions (map lambda, combined
// reduction operator) and the kernel itself. The numeric literals of the
// lambdas become constant parameters (emitter.consts): of the kernel, and
// passed on to both device functions after the environment.
func (g *generator) render(k *kernel) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s: %s at %v\n", k.Name, kindName[k.Kind], k.Stmt.Pos)
	k.fnMap = k.Name + "_map"
	nsites := len(g.sites)
	defer func() { k.checks = k.checks || len(g.sites) > nsites }()
	var consts []core.Const
	e := &emitter{indent: 1, sites: &g.sites, funs: g.funs, prog: g.prog, consts: &consts}
	ps := []string{"const i64 ar_index"}
	for _, p := range k.Op.Map.Params {
		if p.Type.IsArray() {
			return "", unsup("map over rows of arrays is not generated yet")
		}
		ps = append(ps, ctype(p.Type.Elem)+" "+cname(p.Name))
	}
	var dst []string
	for j, t := range k.Op.Map.Ret {
		ps = append(ps, fmt.Sprintf("%s *ar_r%d", ctype(t.Elem), j))
		dst = append(dst, fmt.Sprintf("*ar_r%d", j))
	}
	if k.Op.Index != nil {
		e.line("const i64 %s = ar_index;", cname(k.Op.Index.Name))
	}
	if err := e.body(k.Op.Map.Body, dst); err != nil {
		return "", err
	}
	k.checks = e.calls
	mapPs, mapBody := ps, e.b.String()

	var redPs []string
	var redBody string
	if len(k.Red) > 0 {
		k.fnRed = k.Name + "_red"
		e := &emitter{indent: 1, sites: &g.sites, funs: g.funs, prog: g.prog, consts: &consts}
		var ops []*core.Lambda
		var widths []int
		for _, r := range k.Op.Reds {
			ops, widths = append(ops, r.Lambda), append(widths, len(r.Neutral))
		}
		accs, elems, err := operatorBodies(e, ops, widths)
		if err != nil {
			return "", err
		}
		k.checks = k.checks || e.calls
		redPs = append(accs, elems...)
		for j, t := range k.Red {
			redPs = append(redPs, fmt.Sprintf("%s *ar_r%d", ctype(t), j))
		}
		redBody = e.b.String()
	}

	// The constants join the environment: kernel parameters (the host
	// passes their values, launch.go) and leading arguments of the device
	// functions, which the templates call with envArgs.
	env := append([]string{}, k.envDecl...)
	args := k.envArgs
	if len(consts) > 0 {
		var lits []string
		for i, c := range consts {
			name := fmt.Sprintf("ar_k%d", i)
			env = append(env, fmt.Sprintf("const %s %s", ctype(c.T), name))
			args += ", " + name
			k.params = append(k.params, kparam{kind: pConst, name: name, t: c.T, c: c})
			lits = append(lits, name+" = "+constant(c))
		}
		k.envArgs = args
		fmt.Fprintf(&b, "// constants, passed as parameters: %s\n", strings.Join(lits, ", "))
	}
	fmt.Fprintf(&b, "static __device__ __forceinline__ void %s(%s) {\n%s}\n", k.fnMap, strings.Join(append(env, mapPs...), ", "), mapBody)
	if len(k.Red) > 0 {
		fmt.Fprintf(&b, "static __device__ __forceinline__ void %s(%s) {\n%s}\n", k.fnRed, strings.Join(append(append([]string{}, env...), redPs...), ", "), redBody)
	}
	src, err := k.instantiate()
	if err != nil {
		return "", err
	}
	b.WriteString(src)
	return b.String(), nil
}

// deviceFuns renders the program's functions that kernels call, and the
// functions they call in turn, prototypes first so recursion works.
func (g *generator) deviceFuns(b *strings.Builder) error {
	done := map[string]bool{}
	var protos, defs []string
	for {
		var pending []string
		for name := range g.funs {
			if !done[name] {
				pending = append(pending, name)
			}
		}
		if len(pending) == 0 {
			break
		}
		sort.Strings(pending)
		for _, name := range pending {
			done[name] = true
			e := &emitter{sites: &g.sites, funs: g.funs, prog: g.prog}
			p, d, err := e.deviceFun(g.prog.Fun(name))
			if err != nil {
				return err
			}
			protos = append(protos, p)
			defs = append(defs, d)
		}
	}
	b.WriteString("\n" + strings.Join(protos, "") + "\n" + strings.Join(defs, "\n"))
	return nil
}

// operatorBodies emits, into e, the bodies of several associative
// operators combined into one device function (horizontal fusion: each
// operator combines its own components). Operator i takes widths[i]
// accumulators then widths[i] elements; the results go out through
// *ar_r0, *ar_r1, ... in order. It returns the accumulator and the element
// parameter declarations, which the caller lists in that order.
func operatorBodies(e *emitter, ops []*core.Lambda, widths []int) (accs, elems []string, err error) {
	off := 0
	for i, l := range ops {
		n := widths[i]
		if len(l.Params) != 2*n {
			return nil, nil, fmt.Errorf("internal error: operator with %d parameters for %d components", len(l.Params), n)
		}
		for j, p := range l.Params {
			d := ctype(p.Type.Elem) + " " + cname(p.Name)
			if j < n {
				accs = append(accs, d)
			} else {
				elems = append(elems, d)
			}
		}
		dst := make([]string, n)
		for j := range dst {
			dst[j] = fmt.Sprintf("*ar_r%d", off+j)
		}
		if err := e.body(l.Body, dst); err != nil {
			return nil, nil, err
		}
		off += n
	}
	return accs, elems, nil
}

// CPUStatement is a SOAC statement the GPU backend would run on the CPU,
// and why.
type CPUStatement struct {
	Pos  source.Pos
	Kind string
	Why  string
}

// CPUStatements lists the SOAC statements of prog that no GPU kernel covers
// (neither the map, redomap and segmented families of this module, nor the
// scan and histogram modules), in source order. It needs no GPU: `arepl
// plan --cuda` prints them, and a test keeps the test programs' list short.
func CPUStatements(prog *core.Program) ([]CPUStatement, error) {
	m, err := generate(prog, DefaultLimits)
	if err != nil {
		return nil, err
	}
	var out []CPUStatement
	for s, why := range m.fallback {
		if _, err := ScanKernel(prog, s); err == nil {
			continue
		}
		if _, err := HistKernel(prog, s); err == nil {
			continue
		}
		out = append(out, CPUStatement{Pos: s.Pos, Kind: expName(s.Exp), Why: why})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Kind < b.Kind
	})
	return out, nil
}

// PlanLines describes, for plans, how each SOAC statement of prog runs on
// the GPU: segmented operations with their index spaces (`segmap [n][m]`,
// `segred [n] over m`), which levels run in parallel and what runs
// sequentially in each thread, the tiling chosen, or why it runs on the
// CPU. It needs no GPU.
func PlanLines(prog *core.Program) ([]string, error) {
	m, err := generate(prog, DefaultLimits)
	if err != nil {
		return nil, err
	}
	type entry struct {
		pos  source.Pos
		line string
	}
	var es []entry
	name := func(s *core.Stmt) string {
		var ns []string
		for _, v := range s.Pat {
			ns = append(ns, v.Name)
		}
		return strings.Join(ns, ", ")
	}
	describe := func(s *core.Stmt, ks []*kernel) string {
		k := ks[0]
		if k.tile != nil {
			return fmt.Sprintf("tiled %s: a thread per result; tiling: %s", k.Name, k.tiling())
		}
		switch k.Kind {
		case kSegMap:
			d := fmt.Sprintf("segmap %s: %d parallel level(s)", k.Nest.Space(), len(k.Nest.Levels))
			if seq := k.Nest.Sequential(); len(seq) > 0 {
				d += "; sequential in each thread: " + strings.Join(seq, ", ")
			}
			if k.Vector != "" {
				d += "; vector: " + k.Vector
			}
			return d + "; tiling: " + k.tiling()
		case kSegRed:
			var outer []string
			for _, a := range k.Outer {
				outer = append(outer, "["+core.AtomString(a)+"]")
			}
			if k.seg.strategy == segView {
				return fmt.Sprintf("transpose of %s, not materialised: a column reduction reads %s in place", k.seg.viewOf.Name, k.seg.viewOf.Name)
			}
			return fmt.Sprintf("segred %s over %s: %s", strings.Join(outer, ""), core.AtomString(k.Op.W), segPlan(ks))
		case kMap:
			return fmt.Sprintf("map [%s]", core.AtomString(k.Op.W))
		default:
			return fmt.Sprintf("%s [%s]", kindName[k.Kind], core.AtomString(k.Op.W))
		}
	}
	for s, ks := range m.kernels {
		if m.isSplitPart(s) {
			continue
		}
		es = append(es, entry{s.Pos, fmt.Sprintf("%v %s: %s", s.Pos, name(s), describe(s, ks))})
	}
	for s, parts := range m.split {
		var d string
		if ks := m.kernels[parts[0]]; ks != nil {
			d = describe(parts[0], ks)
		} else {
			d = expName(parts[0].Exp) + " (the single-pass scan module)"
		}
		if ks := m.kernels[parts[1]]; ks != nil {
			d += ", then " + describe(parts[1], ks)
		} else {
			d += ", then " + expName(parts[1].Exp) + " (its own module)"
		}
		es = append(es, entry{s.Pos, fmt.Sprintf("%v %s: %s", s.Pos, name(s), d)})
	}
	for s, why := range m.fallback {
		d := "CPU: " + why
		if _, err := ScanKernel(prog, s); err == nil {
			d = expName(s.Exp) + ": the single-pass scan module"
		} else if _, err := HistKernel(prog, s); err == nil {
			d = expName(s.Exp) + ": the histogram module"
		}
		es = append(es, entry{s.Pos, fmt.Sprintf("%v %s: %s", s.Pos, name(s), d)})
	}
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i].pos, es[j].pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return es[i].line < es[j].line
	})
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.line
	}
	return out, nil
}

// isSplitPart reports whether s is one half of a split statement.
func (m *module) isSplitPart(s *core.Stmt) bool {
	for _, parts := range m.split {
		if parts[0] == s || parts[1] == s {
			return true
		}
	}
	return false
}

// tiling names the tiling a kernel uses ("none" for the general path; the
// kernels of tile.go say theirs).
func (k *kernel) tiling() string {
	if k.Tiling == "" {
		return "none"
	}
	return k.Tiling
}
