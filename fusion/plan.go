package fusion

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

// Plan is what fusion did to a program: the SOACs before and after, every
// fusion applied, every producer-consumer edge left unfused with its
// reason, and per resulting kernel what it reads, writes and costs in
// memory traffic (the seeds' accounting in n-element arrays).
type Plan struct {
	Before  []Kernel `json:"before"`
	After   []Kernel `json:"after"`
	Applied []Step   `json:"applied"`
	Refused []Step   `json:"refused"`
	// GPU says how each statement runs on the GPU (segmented operations,
	// their index spaces, what runs sequentially, the tiling, or why it
	// runs on the CPU); filled in by the session for plans that ask.
	GPU []string `json:"gpu,omitempty"`

	// display maps the IR's variable names to the names shown (SetNames).
	display map[string]string
}

// Step is one fusion applied or refused.
type Step struct {
	Kind     string `json:"kind"` // vertical, horizontal, iota, replicate, post-map, rows
	Producer string `json:"producer"`
	Consumer string `json:"consumer"`
	What     string `json:"what"`
	Note     string `json:"note,omitempty"`
	Case     int    `json:"case,omitempty"` // the scanomap paper's Figure 3 case a refusal instances
}

// Kernel is one SOAC of the program: after fusion, one GPU kernel (or one
// parallel pass on the CPU) when it is at the top level (Depth 0).
type Kernel struct {
	Fun       string     `json:"fun"`
	Name      string     `json:"name"`
	Outputs   []string   `json:"outputs"`
	Kind      string     `json:"kind"`
	Width     string     `json:"width"`
	Depth     int        `json:"depth"` // 0 at the top level, more inside lambdas and loops
	Operators []Operator `json:"operators,omitempty"`
	Reads     []Array    `json:"reads"`
	Writes    []Array    `json:"writes"`
	// Bytes moved per element of the width, by the arrays of one element
	// per iteration (rows and histograms are counted separately).
	BytesPerElem int `json:"bytes_per_elem"`
}

// Operator is one scan, reduction or histogram operator.
type Operator struct {
	Op          string `json:"op"`
	Type        string `json:"type"`
	Commutative bool   `json:"commutative"`
}

// Array is an array a kernel reads or writes; Bytes is its size per
// element of the kernel's width (0 when it is not one element per
// iteration, e.g. a histogram's buckets).
type Array struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Bytes int    `json:"bytes"`
}

func (f *fuser) applied(kind, producer, consumer, what, note string) {
	f.plan.Applied = append(f.plan.Applied, Step{Kind: kind, Producer: producer, Consumer: consumer, What: what, Note: note})
}

// stepDone runs the per-step check, if any, once a step has rewritten the
// body completely.
func (f *fuser) stepDone() {
	if f.check != nil {
		f.check()
	}
}

// Counts is the number of top-level kernels of each kind after fusion, as
// the `-- plan { redomap 1 scanomap 0 }` test block states them.
func (p *Plan) Counts() map[string]int {
	out := map[string]int{}
	for _, k := range p.After {
		if k.Depth == 0 {
			out[k.Kind]++
		}
	}
	return out
}

// JSON renders the plan for `arepl plan --json`.
func (p *Plan) JSON() string {
	p = p.shown()
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Sprintf(`{"error": %q}`, err.Error())
	}
	return string(b)
}

// Text renders the plan for the REPL.
func (p *Plan) Text() string {
	p = p.shown()
	var b strings.Builder
	fmt.Fprintf(&b, "SOACs: %d before fusion, %d after\n", topLevel(p.Before), topLevel(p.After))
	if len(p.Applied) > 0 {
		b.WriteString("fused:\n")
		for _, s := range p.Applied {
			fmt.Fprintf(&b, "  %-10s %s", s.Kind, s.What)
			if s.Producer != s.Consumer {
				fmt.Fprintf(&b, " (%s -> %s)", s.Producer, s.Consumer)
			} else {
				fmt.Fprintf(&b, " (%s)", s.Producer)
			}
			if s.Note != "" {
				fmt.Fprintf(&b, "; %s", s.Note)
			}
			b.WriteByte('\n')
		}
	}
	if len(p.Refused) > 0 {
		b.WriteString("not fused:\n")
		for _, s := range p.Refused {
			fmt.Fprintf(&b, "  %s -> %s", s.Producer, s.Consumer)
			if s.Case > 0 {
				fmt.Fprintf(&b, " [case %d]", s.Case)
			}
			fmt.Fprintf(&b, ": %s\n", s.What)
		}
	}
	b.WriteString("kernels:\n")
	for i, k := range p.After {
		b.WriteString(strings.Repeat("  ", k.Depth+1))
		fmt.Fprintf(&b, "%d. %s %s over %s", i+1, k.Kind, strings.Join(k.Outputs, ", "), k.Width)
		if len(k.Operators) > 0 {
			var ops []string
			for _, o := range k.Operators {
				s := o.Op
				if o.Commutative {
					s += " (comm)"
				}
				ops = append(ops, s)
			}
			fmt.Fprintf(&b, "; ops %s", strings.Join(ops, ", "))
		}
		fmt.Fprintf(&b, "; reads %s; writes %s; %s\n", arrayList(k.Reads), arrayList(k.Writes), k.traffic())
	}
	if len(p.GPU) > 0 {
		b.WriteString("gpu:\n")
		for _, l := range p.GPU {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return b.String()
}

// traffic is the seeds' accounting: how many n-element arrays the kernel
// moves and how many bytes per element.
func (k Kernel) traffic() string {
	r, w := 0, 0
	for _, a := range k.Reads {
		if a.Bytes > 0 {
			r++
		}
	}
	for _, a := range k.Writes {
		if a.Bytes > 0 {
			w++
		}
	}
	return fmt.Sprintf("%dn moved (%d B/elem)", r+w, k.BytesPerElem)
}

func arrayList(as []Array) string {
	if len(as) == 0 {
		return "-"
	}
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

func topLevel(ks []Kernel) int {
	n := 0
	for _, k := range ks {
		if k.Depth == 0 {
			n++
		}
	}
	return n
}

// Kernels lists the SOACs of a program, outermost first.
func Kernels(prog *core.Program) []Kernel {
	var out []Kernel
	for _, fn := range prog.Funs {
		kernelsOf(fn.Name, fn.Body, 0, &out)
	}
	return out
}

func kernelsOf(fun string, b *core.Body, depth int, out *[]Kernel) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		if k, ok := kernelOf(fun, s, depth); ok {
			*out = append(*out, k)
		}
		for _, nb := range nestedBodies(s.Exp) {
			kernelsOf(fun, nb, depth+1, out)
		}
	}
}

func kernelOf(fun string, s *core.Stmt, depth int) (Kernel, bool) {
	k := Kernel{Fun: fun, Name: soacName(s), Kind: kindOfExp(s.Exp), Depth: depth}
	for _, v := range s.Pat {
		k.Outputs = append(k.Outputs, v.Name)
	}
	// Arrays of one element per iteration have rank 1, or one more than
	// the outer dimensions of a segmented operation.
	elemRank := 1
	if seg, ok := s.Exp.(*core.Segmented); ok {
		elemRank = 1 + len(seg.Outer)
	}
	perElem := func(v *core.Var) Array {
		a := Array{Name: v.Name, Type: v.Type.String()}
		if v.Type.Rank == elemRank {
			a.Bytes = v.Type.Elem.Size()
		}
		return a
	}
	readArrs := func(vs []*core.Var) {
		for _, v := range vs {
			k.Reads = append(k.Reads, perElem(v))
		}
	}
	writeArrs := func(vs []*core.Var) {
		for _, v := range vs {
			if v.Type.Rank > 0 {
				k.Writes = append(k.Writes, perElem(v))
			}
		}
	}
	switch e := s.Exp.(type) {
	case *core.Screma:
		k.Width = atomString(e.W)
		readArrs(e.Arrs)
		writeArrs(s.Pat)
		for _, sc := range e.Scans {
			k.Operators = append(k.Operators, operatorOf(sc.Lambda, false))
		}
		for _, r := range e.Reds {
			k.Operators = append(k.Operators, operatorOf(r.Lambda, r.Comm))
		}
	case *core.Segmented:
		k.Width = atomString(e.Op.W)
		for _, o := range e.Outer {
			k.Width = atomString(o) + " rows of " + k.Width
		}
		readArrs(e.Op.Arrs)
		writeArrs(s.Pat)
		for _, sc := range e.Op.Scans {
			k.Operators = append(k.Operators, operatorOf(sc.Lambda, false))
		}
		for _, r := range e.Op.Reds {
			k.Operators = append(k.Operators, operatorOf(r.Lambda, r.Comm))
		}
	case *core.Hist:
		k.Width = atomString(e.W)
		readArrs(e.Arrs)
		for _, op := range e.Ops {
			k.Operators = append(k.Operators, operatorOf(op.Lambda, true))
			for _, d := range op.Dests {
				k.Writes = append(k.Writes, Array{Name: d.Name, Type: d.Type.String()})
			}
		}
	case *core.Scatter:
		k.Width = atomString(e.W)
		readArrs(e.Arrs)
		for _, d := range e.Dests {
			k.Writes = append(k.Writes, Array{Name: d.Name, Type: d.Type.String()})
		}
	case *core.Filter:
		k.Width = atomString(e.W)
		readArrs(e.Arrs)
		writeArrs(s.Pat)
	case *core.MultiScan:
		k.Width = atomString(e.W)
		readArrs(append([]*core.Var{e.Labels}, e.Arrs...))
		writeArrs(s.Pat)
		k.Operators = append(k.Operators, operatorOf(e.Op.Lambda, false))
	default:
		return Kernel{}, false
	}
	for _, a := range append(append([]Array{}, k.Reads...), k.Writes...) {
		k.BytesPerElem += a.Bytes
	}
	return k, true
}

// operatorOf names an operator lambda: the Futhark operator when the
// lambda is one binary operator on its parameters, otherwise a summary.
func operatorOf(l *core.Lambda, comm bool) Operator {
	o := Operator{Commutative: comm}
	if len(l.Ret) > 0 {
		var ts []string
		for _, t := range l.Ret {
			ts = append(ts, t.String())
		}
		o.Type = strings.Join(ts, ", ")
		if len(ts) > 1 {
			o.Type = "(" + o.Type + ")"
		}
	}
	if op, ok := singleBinOp(l); ok {
		o.Op = core.BinOps[op].Source
		o.Commutative = o.Commutative || core.BinOps[op].Commutative
		return o
	}
	o.Op = fmt.Sprintf("λ(%d statements)", len(l.Body.Stmts))
	return o
}

// singleBinOp recognises `\x y -> x op y`.
func singleBinOp(l *core.Lambda) (core.BinOp, bool) {
	if len(l.Params) != 2 || len(l.Body.Stmts) != 1 || len(l.Body.Result) != 1 {
		return 0, false
	}
	s := l.Body.Stmts[0]
	e, ok := s.Exp.(*core.BinOpExp)
	if !ok || len(s.Pat) != 1 {
		return 0, false
	}
	x, ok1 := e.X.(*core.Var)
	y, ok2 := e.Y.(*core.Var)
	r, ok3 := l.Body.Result[0].(*core.Var)
	if !ok1 || !ok2 || !ok3 || r.Name != s.Pat[0].Name {
		return 0, false
	}
	if (x.Name == l.Params[0].Name && y.Name == l.Params[1].Name) ||
		(x.Name == l.Params[1].Name && y.Name == l.Params[0].Name && core.BinOps[e.Op].Commutative) {
		return e.Op, true
	}
	return 0, false
}

// kindOf names a Screma by what it does: map, reduce, scan, redomap,
// scanomap, or screma when it both scans and reduces.
func kindOf(e *core.Screma) string {
	l := layoutOf(e)
	plain := l.nMapOut == 0 && core.IsIdentityLambda(e.Map) && e.Post == nil
	switch {
	case len(e.Scans) == 0 && len(e.Reds) == 0:
		return "map"
	case len(e.Scans) == 0 && plain:
		return "reduce"
	case len(e.Scans) == 0:
		return "redomap"
	case len(e.Reds) == 0 && plain:
		return "scan"
	case len(e.Reds) == 0:
		return "scanomap"
	}
	return "screma"
}

func kindOfExp(exp core.Exp) string {
	switch e := exp.(type) {
	case *core.Screma:
		return kindOf(e)
	case *core.Segmented:
		return "segmented " + kindOf(e.Op)
	case *core.Hist:
		return "hist"
	case *core.Scatter:
		return "scatter"
	case *core.Filter:
		if e.Partition {
			return "partition"
		}
		return "filter"
	case *core.MultiScan:
		return "multiscan"
	}
	return "statement"
}

// refusals records, for the producer-consumer edges of b that remain after
// fusion, why each was not fused.
func (f *fuser) refusals(b *core.Body) {
	info := analyze(b)
	seen := map[string]bool{}
	for pi, ps := range b.Stmts {
		if !producesElements(ps.Exp) {
			continue
		}
		for _, o := range ps.Pat {
			for _, u := range info.uses[o.Name] {
				if u.stmt >= len(b.Stmts) {
					continue
				}
				var r *refusal
				consumerStmt := b.Stmts[u.stmt]
				switch {
				case u.w == soacIn:
					r = f.whyNot(b, info, pi, u.stmt)
				case u.w == inLoop && mapLike(ps.Exp):
					r = &refusal{fmt.Sprintf("%s is used inside a loop: fusing its map there would recompute it in every iteration", o.Name), 3}
				case u.w == inLambda && mapLike(ps.Exp):
					r = &refusal{fmt.Sprintf("%s is used inside the lambda of %s: fusing would recompute it for every element", o.Name, soacName(consumerStmt)), 3}
				case u.w == inBranch && mapLike(ps.Exp):
					r = &refusal{fmt.Sprintf("%s is used inside an if branch: fusing into both paths would duplicate the map", o.Name), 4}
				}
				if r == nil {
					continue
				}
				key := soacName(ps) + "->" + soacName(consumerStmt) + ":" + r.reason
				if seen[key] {
					continue
				}
				seen[key] = true
				f.plan.Refused = append(f.plan.Refused, Step{Kind: "vertical", Producer: soacName(ps),
					Consumer: soacName(consumerStmt), What: r.reason, Case: r.fig3})
			}
		}
	}
	sort.SliceStable(f.plan.Refused, func(i, j int) bool { return f.plan.Refused[i].Case < f.plan.Refused[j].Case })
}

// whyNot says why the producer at pi was not fused into the consumer at
// ci, without changing anything.
func (f *fuser) whyNot(b *core.Body, info *bodyInfo, pi, ci int) *refusal {
	if _, ok := consumerOf(b.Stmts[ci].Exp); !ok {
		return &refusal{fmt.Sprintf("a %s cannot take a fused producer", kindOfExp(b.Stmts[ci].Exp)), 2}
	}
	switch p := b.Stmts[pi].Exp.(type) {
	case *core.Screma:
		if isMapOnly(p) {
			return f.checkProducer(b, info, pi, ci)
		}
		if len(p.Scans) == 0 {
			return &refusal{fmt.Sprintf("a %s produces no per-element array a consumer could take", kindOf(p)), 2}
		}
		if r := checkPostMap(b, pi, ci); r != nil {
			return r
		}
		return f.checkProducer(b, info, pi, ci)
	case *core.Filter:
		return &refusal{fmt.Sprintf("%s has a data-dependent size, so its result cannot be computed inside %s", soacName(b.Stmts[pi]), soacName(b.Stmts[ci])), 2}
	}
	return &refusal{fmt.Sprintf("%s is not a map: its elements are not available one per iteration of %s", soacName(b.Stmts[pi]), soacName(b.Stmts[ci])), 2}
}

// producesElements reports whether exp is a SOAC whose array results a
// consumer could want fused.
func producesElements(exp core.Exp) bool {
	switch exp.(type) {
	case *core.Screma, *core.Filter, *core.Hist, *core.Scatter, *core.Segmented, *core.MultiScan:
		return true
	}
	return false
}

func mapLike(exp core.Exp) bool {
	e, ok := exp.(*core.Screma)
	return ok && isMapOnly(e)
}

// Check compares the top-level kernel counts after fusion with a
// `-- plan { redomap 1 scanomap 0 map 0 }` block's expectations (kind to
// count; kinds with spaces are written with underscores, e.g.
// segmented_scan).
func (p *Plan) Check(want map[string]int) error {
	got := p.Counts()
	var bad []string
	kinds := make([]string, 0, len(want))
	for k := range want {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		name := strings.ReplaceAll(k, "_", " ")
		if got[name] != want[k] {
			bad = append(bad, fmt.Sprintf("%s: want %d, got %d", k, want[k], got[name]))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("plan mismatch: %s", strings.Join(bad, "; "))
	}
	return nil
}
