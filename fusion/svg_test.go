package fusion

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// svgShape is what the layout tests read back from a drawing.
type svgShape struct {
	width, height int
	rects         []rect
	texts         []svgText
	dashed        int // lines from a kernel to a SOAC it absorbed
	arrows        int // arrays passed between SOACs before fusion
}

type rect struct{ x, y, w, h int }

type svgText struct {
	x, y int
	s    string
}

func parseShape(t *testing.T, svg string) svgShape {
	t.Helper()
	var sh svgShape
	dec := xml.NewDecoder(strings.NewReader(svg))
	var cur *svgText
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("bad SVG: %v", err)
			}
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			a := map[string]string{}
			for _, at := range e.Attr {
				a[at.Name.Local] = at.Value
			}
			num := func(k string) int { n, _ := strconv.Atoi(a[k]); return n }
			switch e.Name.Local {
			case "svg":
				sh.width, sh.height = num("width"), num("height")
			case "rect":
				sh.rects = append(sh.rects, rect{num("x"), num("y"), num("width"), num("height")})
			case "path":
				switch {
				case a["stroke-dasharray"] != "":
					sh.dashed++
				case a["marker-end"] != "":
					sh.arrows++
				}
			case "text":
				sh.texts = append(sh.texts, svgText{x: num("x"), y: num("y")})
				cur = &sh.texts[len(sh.texts)-1]
			}
		case xml.CharData:
			if cur != nil {
				cur.s += string(e)
			}
		case xml.EndElement:
			if e.Name.Local == "text" {
				cur = nil
			}
		}
	}
	return sh
}

// checkReadable checks that boxes do not overlap, that everything lies
// inside the drawing, and that no text runs out of its box.
func checkReadable(t *testing.T, sh svgShape) {
	t.Helper()
	for i, a := range sh.rects {
		if a.x < 0 || a.y < 0 || a.x+a.w > sh.width || a.y+a.h > sh.height {
			t.Errorf("box %v outside the %d×%d drawing", a, sh.width, sh.height)
		}
		for _, b := range sh.rects[i+1:] {
			if a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h {
				t.Errorf("boxes %v and %v overlap", a, b)
			}
		}
	}
	for _, tx := range sh.texts {
		end := tx.x + int(float64(len([]rune(tx.s)))*svgCharW)
		if end > sh.width {
			t.Errorf("text %q ends at %d, beyond the drawing's width %d", tx.s, end, sh.width)
		}
		if strings.HasSuffix(tx.s, "...") {
			t.Errorf("text %q is clipped", tx.s)
		}
		for _, r := range sh.rects {
			if tx.x >= r.x && tx.x < r.x+r.w && tx.y > r.y && tx.y < r.y+r.h && end > r.x+r.w {
				t.Errorf("text %q runs out of its box %v (ends at %d)", tx.s, r, end)
			}
		}
	}
}

func arrays(names ...string) []Array {
	var out []Array
	for _, n := range names {
		out = append(out, Array{Name: n, Type: "[]f32", Bytes: 4})
	}
	return out
}

// figure4Plan is the plan of the redomap paper's Figure 4 as arepl fuses it
// (examples/figure4.fut): nine SOACs into one redomap.
func figure4Plan() *Plan {
	soac := func(kind, name string, rs ...string) Kernel {
		return Kernel{Fun: "main", Name: name, Outputs: []string{name}, Kind: kind, Width: "n_3", Reads: arrays(rs...), BytesPerElem: 8}
	}
	return &Plan{
		Before: []Kernel{
			soac("map", "map_7", "iota_4"), soac("map", "map_10", "map_7"), soac("map", "map_13", "map_10"),
			soac("map", "map_17", "map_10", "map_13"), soac("reduce", "red_22", "map_17"), soac("reduce", "red_27", "map_10"),
			soac("reduce", "red_32", "map_13"), soac("map", "map_35", "map_10"), soac("map", "map_38", "map_13"),
		},
		After: []Kernel{{Fun: "main", Name: "red_22", Outputs: []string{"red_22", "red_27", "red_32", "map_35", "map_38"},
			Kind: "redomap", Width: "n_3", Operators: []Operator{{Op: "+"}, {Op: "min"}, {Op: "max"}},
			Writes: arrays("map_35", "map_38"), BytesPerElem: 8}},
		Applied: []Step{
			{Kind: "horizontal", Producer: "map_35", Consumer: "map_35", What: "map + map over the same width"},
			{Kind: "vertical", Producer: "map_17", Consumer: "red_22", What: "map into redomap"},
			{Kind: "vertical", Producer: "map_13", Consumer: "red_22", What: "map into redomap"},
			{Kind: "vertical", Producer: "map_10", Consumer: "red_22", What: "map into redomap"},
			{Kind: "vertical", Producer: "map_7", Consumer: "red_22", What: "map into redomap"},
		},
	}
}

func TestSVGFigure4(t *testing.T) {
	p := figure4Plan()
	sh := parseShape(t, p.SVG())
	checkReadable(t, sh)
	if len(sh.rects) != 10 {
		t.Errorf("%d boxes, want 9 SOACs and 1 kernel", len(sh.rects))
	}
	if sh.dashed != 9 {
		t.Errorf("%d lines from the redomap to SOACs it absorbed, want 9", sh.dashed)
	}
	if sh.arrows != 9 {
		t.Errorf("%d arrows between SOACs, want the 9 arrays passed", sh.arrows)
	}
	// The layers: map_7, map_10, map_13, then map_17 (reads map_10 and
	// map_13) a layer further down than red_27 (reads map_10).
	y := map[string]int{}
	for _, tx := range sh.texts {
		f := strings.Fields(tx.s)
		if len(f) == 2 {
			y[f[1]] = tx.y
		}
	}
	if !(y["map_7"] < y["map_10"] && y["map_10"] < y["map_13"] && y["map_13"] < y["map_17"] && y["map_17"] < y["red_22"] && y["red_27"] < y["map_17"]) {
		t.Errorf("layers wrong: %v", y)
	}
}

// Twenty SOACs: a chain of ten maps, each also feeding a reduction, fused
// into two kernels; and long output lists, which wrap.
func TestSVGTwentySOACs(t *testing.T) {
	p := &Plan{}
	var outs1, outs2 []string
	for i := 0; i < 10; i++ {
		m := fmt.Sprintf("map_%d", i)
		prev := "xs"
		if i > 0 {
			prev = fmt.Sprintf("map_%d", i-1)
		}
		p.Before = append(p.Before, Kernel{Name: m, Outputs: []string{m}, Kind: "map", Width: "n", Reads: arrays(prev)})
		r := fmt.Sprintf("a_rather_long_reduction_name_%d", i)
		p.Before = append(p.Before, Kernel{Name: r, Outputs: []string{r}, Kind: "reduce", Width: "n", Reads: arrays(m)})
		if i < 5 {
			outs1 = append(outs1, r)
		} else {
			outs2 = append(outs2, r)
		}
	}
	for i := 0; i < 10; i++ {
		c := fmt.Sprintf("a_rather_long_reduction_name_%d", i)
		if i < 9 {
			c = fmt.Sprintf("map_%d", i+1)
		}
		if i == 4 {
			continue // map_4's chain ends in kernel 1: map_5 is in kernel 2
		}
		p.Applied = append(p.Applied, Step{Kind: "vertical", Producer: fmt.Sprintf("map_%d", i), Consumer: c, What: "map into map"})
	}
	p.Applied = append(p.Applied, Step{Kind: "vertical", Producer: "map_4", Consumer: "a_rather_long_reduction_name_4", What: "map into redomap"})
	p.After = []Kernel{
		{Name: "k1", Outputs: outs1, Kind: "redomap", Width: "n"},
		{Name: "k2", Outputs: outs2, Kind: "redomap", Width: "n", Reads: arrays("map_4")},
	}
	sh := parseShape(t, p.SVG())
	checkReadable(t, sh)
	if len(sh.rects) != 22 {
		t.Errorf("%d boxes, want 22", len(sh.rects))
	}
	if sh.dashed != 20 {
		t.Errorf("%d absorbed-SOAC lines, want 20", sh.dashed)
	}
	if sh.width > 2000 {
		t.Errorf("drawing %d px wide: the layout does not scale", sh.width)
	}
}
