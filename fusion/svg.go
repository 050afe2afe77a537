package fusion

import (
	"fmt"
	"html"
	"strings"
)

// SVG draws the plan for notebooks: the SOAC graph before fusion on the
// left and after on the right, one box per SOAC (kind, outputs, bytes per
// element), an arrow for every array one SOAC passes to another, and the
// fusions applied and refused underneath. Drawn directly in Go: no
// external graph layout program is needed.
func (p *Plan) SVG() string {
	const (
		boxW, boxH = 260, 46
		gapY       = 22
		colX0      = 40
		colX1      = 400
		top        = 50
		lineH      = 16
	)
	rows := len(p.Before)
	if len(p.After) > rows {
		rows = len(p.After)
	}
	notes := p.noteLines()
	height := top + rows*(boxH+gapY) + 20 + len(notes)*lineH + 10
	width := colX1 + boxW + 60
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`, width, height, width, height)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>`)
	fmt.Fprintf(&b, `<text x="%d" y="28" font-weight="bold">before fusion: %s</text>`, colX0, plural(topLevel(p.Before), "SOAC"))
	fmt.Fprintf(&b, `<text x="%d" y="28" font-weight="bold">after fusion: %s</text>`, colX1, plural(topLevel(p.After), "kernel"))
	column := func(ks []Kernel, x int, fill string) {
		ys := map[string]int{} // output name -> box index
		for i, k := range ks {
			for _, o := range k.Outputs {
				ys[o] = i
			}
		}
		for i, k := range ks {
			y := top + i*(boxH+gapY)
			indent := 12 * k.Depth
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="#333"/>`, x+indent, y, boxW-indent, boxH, fill)
			title := k.Kind + " " + strings.Join(k.Outputs, ", ")
			title = clip(title, 36-indent/6)
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s</text>`, x+indent+8, y+18, html.EscapeString(title))
			detail := fmt.Sprintf("over %s; %s", k.Width, k.traffic())
			if len(k.Operators) > 0 {
				var ops []string
				for _, o := range k.Operators {
					ops = append(ops, o.Op)
				}
				detail = strings.Join(ops, " ") + "; " + detail
			}
			detail = clip(detail, 40-indent/6)
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#333">%s</text>`, x+indent+8, y+36, html.EscapeString(detail))
			// Arrows from the producers of the arrays this SOAC reads.
			for _, r := range k.Reads {
				j, ok := ys[r.Name]
				if !ok || j >= i {
					continue
				}
				y0 := top + j*(boxH+gapY) + boxH/2
				y1 := y + boxH/2
				bend := x - 18 - 6*(i-j)
				fmt.Fprintf(&b, `<path d="M%d,%d C%d,%d %d,%d %d,%d" fill="none" stroke="#555" marker-end="url(#arrow)"/>`, x, y0, bend, y0, bend, y1, x, y1)
			}
		}
	}
	column(p.Before, colX0, "#f3f3f3")
	column(p.After, colX1, "#dcefff")
	y := top + rows*(boxH+gapY) + 20
	for _, n := range notes {
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`, colX0, y, html.EscapeString(n))
		y += lineH
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// noteLines are the fusions applied and refused, one line each.
func (p *Plan) noteLines() []string {
	var out []string
	for _, s := range p.Applied {
		out = append(out, fmt.Sprintf("fused (%s): %s", s.Kind, s.What))
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

// clip shortens s to at most n bytes, marking the cut, so text stays inside
// its box (boxes are a fixed width; the text plan has the whole line).
func clip(s string, n int) string {
	r := []rune(s) // operator summaries contain λ: never cut inside a character
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
