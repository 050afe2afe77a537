package fusion

import (
	"fmt"
	"html"
	"sort"
	"strings"
)

// SVG draws the plan for notebooks as two graphs side by side: the SOACs
// before fusion on the left, laid out in layers (a SOAC one layer below
// the deepest producer it reads from, so data flows down), and the
// kernels after fusion on the right, each level with the SOACs it
// absorbed. Arrows in the left graph are the arrays one SOAC passes to
// another; dashed lines in the kernel's colour join each kernel to the
// SOACs it absorbed, whose borders take that colour too. The fusions applied and refused are listed
// underneath.
//
// Boxes are as wide as their text, and long lists of outputs wrap rather
// than being cut, so nothing is clipped: the text is monospace, whose
// width is known without measuring fonts. Drawn directly in Go: no
// external graph layout program is needed.
func (p *Plan) SVG() string {
	p = p.shown()
	g := layoutPlan(p)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="monospace" font-size="12">`, g.width, g.height, g.width, g.height)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>`)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-weight="bold" font-family="sans-serif" font-size="13">before fusion: %s</text>`, svgMargin, plural(topLevel(p.Before), "SOAC"))
	fmt.Fprintf(&b, `<text x="%d" y="24" font-weight="bold" font-family="sans-serif" font-size="13">after fusion: %s</text>`, g.afterX, plural(topLevel(p.After), "kernel"))
	// Edges first, so boxes cover their ends.
	// An arrow leaves its producer's bottom edge and enters its
	// consumer's top edge at points spread along them, one per edge.
	outs, ins := map[int]int{}, map[int]int{}
	outDeg, inDeg := map[int]int{}, map[int]int{}
	for _, e := range g.flows {
		outDeg[e[0]]++
		inDeg[e[1]]++
	}
	for _, e := range g.flows {
		from, to := g.before[e[0]], g.before[e[1]]
		outs[e[0]]++
		ins[e[1]]++
		x0, y0 := from.x+from.w*outs[e[0]]/(outDeg[e[0]]+1), from.y+from.h
		x1, y1 := to.x+to.w*ins[e[1]]/(inDeg[e[1]]+1), to.y
		mid := (y0 + y1) / 2
		fmt.Fprintf(&b, `<path d="M%d,%d C%d,%d %d,%d %d,%d" fill="none" stroke="#555" marker-end="url(#arrow)"/>`, x0, y0, x0, mid, x1, mid, x1, y1-1)
	}
	for i, k := range g.after {
		for _, j := range g.absorbed[i] {
			s := g.before[j]
			x0, y0 := s.x+s.w, s.y+s.h/2
			x1, y1 := k.x, k.y+k.h/2
			fmt.Fprintf(&b, `<path d="M%d,%d C%d,%d %d,%d %d,%d" fill="none" stroke="%s" stroke-dasharray="5,3" stroke-opacity="0.8"/>`,
				x0, y0, (x0+x1)/2, y0, (x0+x1)/2, y1, x1, y1, kernelColour(i))
		}
	}
	// A SOAC's border has the colour of the kernel that absorbed it.
	stroke := make([]string, len(g.before))
	for i := range stroke {
		stroke[i] = "#333"
	}
	for a, js := range g.absorbed {
		for _, j := range js {
			stroke[j] = kernelColour(a)
		}
	}
	for i, n := range g.before {
		n.draw(&b, "#f3f3f3", stroke[i])
	}
	for i, n := range g.after {
		n.draw(&b, "#dcefff", kernelColour(i))
	}
	y := g.notesY
	for _, n := range p.noteLines() {
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`, svgMargin, y, html.EscapeString(n))
		y += svgLineH
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// Layout constants, in pixels. svgCharW is the advance of a 12px monospace
// character (0.6 em in the common monospace fonts).
const (
	svgMargin   = 16
	svgCharW    = 7.3
	svgLineH    = 16
	svgPadX     = 8
	svgPadY     = 8
	svgGapX     = 24
	svgGapY     = 44
	svgPaneGap  = 140
	svgTop      = 44
	svgMaxChars = 48 // a box's text wraps beyond this
)

// node is one box: its position, size and lines of text (the first bold).
type node struct {
	x, y, w, h int
	lines      []string
}

func (n *node) draw(b *strings.Builder, fill, stroke string) {
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="%s"/>`, n.x, n.y, n.w, n.h, fill, stroke)
	for i, l := range n.lines {
		weight := ""
		if i == 0 {
			weight = ` font-weight="bold"`
		}
		fmt.Fprintf(b, `<text x="%d" y="%d"%s>%s</text>`, n.x+svgPadX, n.y+svgPadY+12+i*svgLineH, weight, html.EscapeString(l))
	}
}

// graph is a laid-out plan.
type graph struct {
	before, after []*node
	flows         [][2]int // before-SOAC edges: producer, consumer
	absorbed      [][]int  // per kernel after fusion, the before SOACs it absorbed
	afterX        int
	width, height int
	notesY        int
}

// boxLines is a kernel's text: kind and outputs, then operators, width
// and traffic, wrapped at svgMaxChars.
func boxLines(k Kernel) []string {
	head := k.Kind + " " + strings.Join(k.Outputs, ", ")
	if k.Depth > 0 {
		head += fmt.Sprintf(" (nested, depth %d)", k.Depth)
	}
	detail := fmt.Sprintf("over %s; %s", k.Width, k.traffic())
	if len(k.Operators) > 0 {
		var ops []string
		for _, o := range k.Operators {
			ops = append(ops, o.Op)
		}
		detail = strings.Join(ops, " ") + "; " + detail
	}
	return append(wrap(head), wrap(detail)...)
}

// wrap breaks s at spaces into lines of at most svgMaxChars characters; a
// single longer word gets a line of its own, whole.
func wrap(s string) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= svgMaxChars:
			line += " " + w
		default:
			out = append(out, line)
			line = w
		}
	}
	return append(out, line)
}

func newNode(k Kernel) *node {
	n := &node{lines: boxLines(k)}
	long := 0
	for _, l := range n.lines {
		long = max(long, len([]rune(l)))
	}
	n.w = int(float64(long)*svgCharW) + 2*svgPadX
	n.h = len(n.lines)*svgLineH + 2*svgPadY - 2
	return n
}

// layoutPlan places the boxes.
func layoutPlan(p *Plan) *graph {
	g := &graph{}
	producer := map[string]int{} // array -> the before SOAC writing it
	for i, k := range p.Before {
		g.before = append(g.before, newNode(k))
		for _, o := range k.Outputs {
			producer[o] = i
		}
	}
	// Layers: one below the deepest producer.
	layer := make([]int, len(p.Before))
	preds := make([][]int, len(p.Before))
	for i, k := range p.Before {
		seen := map[int]bool{}
		for _, r := range k.Reads {
			j, ok := producer[r.Name]
			if !ok || j >= i || seen[j] {
				continue
			}
			seen[j] = true
			preds[i] = append(preds[i], j)
			g.flows = append(g.flows, [2]int{j, i})
			layer[i] = max(layer[i], layer[j]+1)
		}
	}
	var layers [][]int
	for i, l := range layer {
		for len(layers) <= l {
			layers = append(layers, nil)
		}
		layers[l] = append(layers[l], i)
	}
	// Within a layer, order by the mean position of the producers (the
	// barycentre heuristic), which keeps most arrows from crossing.
	order := make([]float64, len(p.Before))
	leftW := 0
	y := svgTop
	for _, ids := range layers {
		for _, i := range ids {
			if len(preds[i]) == 0 {
				order[i] = float64(i)
				continue
			}
			sum := 0.0
			for _, j := range preds[i] {
				sum += order[j]
			}
			order[i] = sum / float64(len(preds[i]))
		}
		sort.SliceStable(ids, func(a, b int) bool { return order[ids[a]] < order[ids[b]] })
		x, h := svgMargin, 0
		for pos, i := range ids {
			n := g.before[i]
			n.x, n.y = x, y
			x += n.w + svgGapX
			h = max(h, n.h)
			order[i] = float64(pos)
		}
		leftW = max(leftW, x-svgGapX)
		y += h + svgGapY
	}
	bottom := y - svgGapY

	// Which before SOACs each kernel after fusion absorbed: those whose
	// outputs it still writes, and those fused vertically into one of
	// them (producer into consumer, transitively).
	owner := make([]int, len(p.Before))
	for i := range owner {
		owner[i] = -1
	}
	for a, k := range p.After {
		for _, o := range k.Outputs {
			if j, ok := producer[o]; ok && owner[j] < 0 {
				owner[j] = a
			}
		}
	}
	into := map[int]int{} // before producer -> before consumer it fused into
	for _, s := range p.Applied {
		pj, ok1 := producer[s.Producer]
		cj, ok2 := producer[s.Consumer]
		if ok1 && ok2 && pj != cj {
			into[pj] = cj
		}
	}
	g.absorbed = make([][]int, len(p.After))
	for i := range p.Before {
		j, steps := i, 0
		for owner[j] < 0 && steps <= len(p.Before) {
			next, ok := into[j]
			if !ok {
				break
			}
			j, steps = next, steps+1
		}
		if a := owner[j]; a >= 0 {
			g.absorbed[a] = append(g.absorbed[a], i)
		}
	}

	// Kernels after fusion: in a column right of the left graph, each at
	// the mean height of what it absorbed, pushed down to not overlap.
	g.afterX = leftW + svgPaneGap
	type placed struct{ i, want int }
	var ps []placed
	for a, k := range p.After {
		n := newNode(k)
		g.after = append(g.after, n)
		want := svgTop
		if len(g.absorbed[a]) > 0 {
			sum := 0
			for _, j := range g.absorbed[a] {
				sum += g.before[j].y + g.before[j].h/2
			}
			want = sum/len(g.absorbed[a]) - n.h/2
		}
		ps = append(ps, placed{a, want})
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].want < ps[b].want })
	y, rightW := svgTop, 0
	for _, pl := range ps {
		n := g.after[pl.i]
		n.x, n.y = g.afterX, max(y, pl.want)
		y = n.y + n.h + svgGapX
		rightW = max(rightW, n.w)
		bottom = max(bottom, n.y+n.h)
	}
	g.width = g.afterX + rightW + svgMargin
	g.notesY = bottom + 28
	notes := p.noteLines()
	for _, n := range notes {
		g.width = max(g.width, svgMargin+int(float64(len([]rune(n)))*svgCharW)+svgMargin)
	}
	g.height = g.notesY + len(notes)*svgLineH
	return g
}

// kernelColour tells the kernels after fusion apart.
func kernelColour(i int) string {
	colours := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}
	return colours[i%len(colours)]
}

// noteLines are the fusions applied and refused, one line each.
func (p *Plan) noteLines() []string {
	var out []string
	for _, s := range p.Applied {
		who := s.Producer
		if s.Consumer != s.Producer {
			who += " -> " + s.Consumer
		}
		out = append(out, fmt.Sprintf("fused (%s): %s (%s)", s.Kind, s.What, who))
	}
	for _, s := range p.Refused {
		c := ""
		if s.Case > 0 {
			c = fmt.Sprintf(" [case %d]", s.Case)
		}
		out = append(out, fmt.Sprintf("not fused %s -> %s%s: %s", s.Producer, s.Consumer, c, s.What))
	}
	for _, l := range p.GPU {
		out = append(out, "gpu: "+l)
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
