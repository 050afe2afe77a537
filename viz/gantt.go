package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/arepl/arepl/eval"
)

// maxGanttRows bounds the tiles a chart draws: a 2^26-element scan has
// tens of thousands of tiles, more rows than a picture has pixels. Beyond
// it, tiles are sampled evenly (the chart's title says so); the summary
// numbers always cover every tile.
const maxGanttRows = 400

// Gantt draws a trace as a Gantt chart with gonum/plot: one row per tile
// (by its number: the order the tiles took their tickets on the GPU), time
// across in microseconds, one coloured bar per phase. format is "svg" or
// "png".
func Gantt(t *eval.Trace, format string) ([]byte, error) {
	if len(t.Spans) == 0 {
		return nil, fmt.Errorf(":trace: the run recorded no tiles (nothing ran in parallel)")
	}
	phases := phaseOrder(t.Spans)
	colour := map[string]color.Color{}
	for i, p := range phases {
		// plotutil has seven colours: an eighth phase (the GPU scan's
		// store) is grey rather than the first phase's colour again.
		colour[p] = plotutil.Color(i)
		if i >= len(plotutil.DefaultColors) {
			colour[p] = color.Gray{Y: 130}
		}
	}
	rows, sampled := ganttRows(t.Spans)
	st := t.Stats()
	origin := t.Spans[0].Start
	for _, s := range t.Spans {
		origin = min(origin, s.Start)
	}

	p := plot.New()
	p.Title.Text = ganttTitle(t, st, len(rows), sampled)
	p.X.Label.Text = "time (µs)"
	p.Y.Label.Text = "tile"
	g := &ganttPlot{rows: rows, colour: colour, origin: origin, prefixAt: map[int]int64{}}
	for _, s := range t.Spans {
		if r, ok := g.rowOf(s.Tile); ok {
			g.spans = append(g.spans, ganttBar{row: r, span: s})
		}
		if s.Phase == lookBackPhase {
			g.prefixAt[s.Tile] = s.End
		}
	}
	p.Add(g)
	for _, ph := range phases {
		p.Legend.Add(ph, swatch{colour[ph]})
	}
	p.Legend.Top = true
	p.Legend.Left = false
	p.Y.Tick.Marker = tileTicks{rows}
	xmin, xmax, ymin, ymax := g.DataRange()
	p.X.Min, p.X.Max = xmin, xmax
	// Headroom above the top row for the legend, which sits at the top
	// right: its lines' height in rows (about 230 points of plot for
	// all the rows).
	legend := 13 * float64(len(phases)+1)
	p.Y.Min, p.Y.Max = ymin, ymax+legend*(ymax-ymin)/max(230-legend, 40)

	w, h := chartWidth, chartHeight
	var buf bytes.Buffer
	switch format {
	case "svg":
		c := vgsvg.New(w, h)
		p.Draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
	case "png":
		c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
		p.Draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf(":trace: unknown format %q (svg or png)", format)
	}
	return buf.Bytes(), nil
}

// TraceSummary is the text beside the chart: tiles, time, residency, the
// mean time per tile of each phase, and, for a GPU scan, how far back the
// predecessors that ended the look-backs lay.
func TraceSummary(t *eval.Trace) string {
	st := t.Stats()
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s: %d tiles in %s; at most %d resident at once\n", t.Kernel, t.Backend, st.Tiles, fmtDur(st.Duration), st.Resident)
	for _, p := range phaseOrder(t.Spans) {
		fmt.Fprintf(&b, "  mean %s per tile: %s\n", p, fmtDur(st.Mean[p]))
	}
	if len(st.Distances) > 0 {
		n := 0
		var hist []string
		for _, k := range distanceBuckets(st.Distances) {
			n += k.tiles
			hist = append(hist, fmt.Sprintf("%s: %d", k.label, k.tiles))
		}
		fmt.Fprintf(&b, "  look-back ended by the predecessor at distance %.3g on average (%d tiles; distance: tiles %s)\n",
			st.MeanDistance, n, strings.Join(hist, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// lookBackPhase is the GPU scan's phase whose span carries the distance
// to the predecessor that ended it (eval.Span.Distance).
const lookBackPhase = "look-back"

// distanceBucket is a bar of the look-back distances' histogram.
type distanceBucket struct {
	label string
	tiles int
}

// distanceBuckets groups look-back distances: 1 to 4 each on their own (a
// look-back mostly ends at the tile before or a few back), then powers of
// two up to a window of 32, then the rest.
func distanceBuckets(d map[int]int) []distanceBucket {
	bounds := []struct {
		lo, hi int
		label  string
	}{{1, 1, "1"}, {2, 2, "2"}, {3, 3, "3"}, {4, 4, "4"}, {5, 8, "5-8"}, {9, 16, "9-16"}, {17, 32, "17-32"}, {33, int(^uint(0) >> 1), ">32"}}
	var out []distanceBucket
	for _, b := range bounds {
		n := 0
		for k, v := range d {
			if k >= b.lo && k <= b.hi {
				n += v
			}
		}
		if n > 0 {
			out = append(out, distanceBucket{b.label, n})
		}
	}
	return out
}

func ganttTitle(t *eval.Trace, st eval.TraceStats, rows int, sampled bool) string {
	s := fmt.Sprintf("%d tiles on %s, %s, ≤ %d resident", st.Tiles, t.Backend, fmtDur(st.Duration), st.Resident)
	if len(st.Distances) > 0 {
		s += fmt.Sprintf(", look-back distance %.2g", st.MeanDistance)
	}
	if sampled {
		s += fmt.Sprintf(" (%d drawn)", rows)
	}
	return s
}

// phaseOrder lists the phases in the order they first start; phases that
// first start at the same time (tile 0's empty look-back and its applying
// the prefix) in the order the trace lists them, which is a tile's order.
func phaseOrder(spans []eval.Span) []string {
	first := map[string]int64{}
	seen := map[string]int{}
	for i, s := range spans {
		if f, ok := first[s.Phase]; !ok || s.Start < f {
			first[s.Phase] = s.Start
		}
		if _, ok := seen[s.Phase]; !ok {
			seen[s.Phase] = i
		}
	}
	var out []string
	for p := range first {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if first[out[i]] != first[out[j]] {
			return first[out[i]] < first[out[j]]
		}
		return seen[out[i]] < seen[out[j]]
	})
	return out
}

// ganttRows are the tiles drawn, in order, sampled evenly when there are
// more than maxGanttRows.
func ganttRows(spans []eval.Span) ([]int, bool) {
	seen := map[int]bool{}
	var tiles []int
	for _, s := range spans {
		if !seen[s.Tile] {
			seen[s.Tile] = true
			tiles = append(tiles, s.Tile)
		}
	}
	sort.Ints(tiles)
	if len(tiles) <= maxGanttRows {
		return tiles, false
	}
	out := make([]int, maxGanttRows)
	for i := range out {
		out[i] = tiles[i*len(tiles)/maxGanttRows]
	}
	return out, true
}

type ganttBar struct {
	row  int
	span eval.Span
}

// ganttPlot is a plot.Plotter of one bar per span.
type ganttPlot struct {
	rows   []int
	spans  []ganttBar
	colour map[string]color.Color
	origin int64
	// prefixAt is when each tile's look-back ended, i.e. when it published
	// its inclusive prefix: where a successor's wait line points.
	prefixAt map[int]int64
}

func (g *ganttPlot) rowOf(tile int) (int, bool) {
	i := sort.SearchInts(g.rows, tile)
	return i, i < len(g.rows) && g.rows[i] == tile
}

func (g *ganttPlot) us(ns int64) float64 { return float64(ns-g.origin) / 1e3 }

// DataRange implements plot.DataRanger.
func (g *ganttPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmax = 1e-3
	for _, b := range g.spans {
		xmax = max(xmax, g.us(b.span.End))
	}
	return 0, xmax, -0.5, float64(len(g.rows)) - 0.5
}

// Plot implements plot.Plotter: each span a filled rectangle in its row,
// at least a hairline wide so that short phases stay visible.
func (g *ganttPlot) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	h := vg.Length(0.8)
	if len(g.rows) > 0 {
		h = (ty(0.4) - ty(-0.4))
		if h < 0 {
			h = -h
		}
	}
	for _, b := range g.spans {
		x0, x1 := tx(g.us(b.span.Start)), tx(g.us(b.span.End))
		if x1-x0 < vg.Points(0.3) {
			x1 = x0 + vg.Points(0.3)
		}
		y := ty(float64(b.row))
		rect := []vg.Point{{X: x0, Y: y - h/2}, {X: x1, Y: y - h/2}, {X: x1, Y: y + h/2}, {X: x0, Y: y + h/2}}
		c.FillPolygon(darken(g.colour[b.span.Phase], b.span.Distance), c.ClipPolygonXY(rect))
	}
	// Which predecessor each look-back waited on: a line from the end of
	// the look-back to the moment and row where that predecessor published
	// its prefix (drawn when both rows are; lines of distance 1 only while
	// the rows are few, or they would hide the bars).
	line := draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.4)}
	for _, b := range g.spans {
		d := b.span.Distance
		if d == 0 || (d == 1 && len(g.rows) > 50) {
			continue
		}
		r, ok := g.rowOf(b.span.Tile - d)
		at, published := g.prefixAt[b.span.Tile-d]
		if !ok || !published {
			continue
		}
		from := vg.Point{X: tx(g.us(b.span.End)), Y: ty(float64(b.row))}
		to := vg.Point{X: tx(g.us(at)), Y: ty(float64(r))}
		c.StrokeLines(line, c.ClipLinesXY([]vg.Point{from, to})...)
	}
}

// darken shades a look-back bar by the distance to the predecessor that
// ended it: the phase's colour at distance 1 (or none), darker the
// farther back the look-back had to go (70% of the way to black at 32 and
// beyond).
func darken(c color.Color, distance int) color.Color {
	if distance <= 1 {
		return c
	}
	f := 0.7 * math.Min(math.Log2(float64(distance)), 5) / 5
	r, g, b, a := c.RGBA()
	scale := func(v uint32) uint8 { return uint8(float64(v>>8) * (1 - f)) }
	return color.NRGBA{R: scale(r), G: scale(g), B: scale(b), A: uint8(a >> 8)}
}

// swatch is a legend entry's coloured square.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(s.c, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

// tileTicks labels rows with tile numbers, about eight of them.
type tileTicks struct{ rows []int }

func (t tileTicks) Ticks(_, _ float64) []plot.Tick {
	n := len(t.rows)
	step := max(1, n/8)
	var out []plot.Tick
	for i := 0; i < n; i += step {
		out = append(out, plot.Tick{Value: float64(i), Label: fmt.Sprint(t.rows[i])})
	}
	return out
}

// fmtDur prints d with three significant digits: 84.4 ms, 23.2 µs.
func fmtDur(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.3g µs", float64(d)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.3g ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}
