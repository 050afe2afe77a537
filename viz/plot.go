package viz

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/types"
)

// maxPoints bounds the points of one chart: an SVG of millions of path
// segments would stall a browser long before it said anything.
const maxPoints = 1 << 20

// Chart size: about a notebook cell's width.
const (
	chartWidth  = 6 * vg.Inch
	chartHeight = 4 * vg.Inch
)

// series is one line, set of points or set of bars.
type series struct {
	x []float64 // nil: plotted against the index
	y []float64
	// integral says y holds integers; a lone integral series against its
	// index is drawn as bars, since that is what hist returns.
	integral bool
}

// Plot renders one or more series as an SVG chart. What the value means
// follows futhark literate's :plot2d, extended:
//
//   - a 1-D array: y against its index (bars if it holds integers, as a
//     hist result does; a line otherwise);
//   - a pair of 1-D arrays, or a 1-D array of pairs: y against x;
//   - a tuple of those (three or more 1-D arrays, or pairs of arrays):
//     one series each, in one chart with a legend;
//   - a 2-D array: one series per row, against the column index.
//
// Options: style (line, points, linepoints, bars), title, xlabel, ylabel,
// legend (names separated by |).
func Plot(ctx context.Context, t types.Type, vals []eval.Value, opts Options) ([]byte, error) {
	b, err := renderPlot(ctx, t, vals, opts)
	if err != nil {
		return nil, commandErr("plot", err)
	}
	return b, nil
}

func renderPlot(ctx context.Context, t types.Type, vals []eval.Value, opts Options) ([]byte, error) {
	if err := opts.check("plot", "style", "title", "xlabel", "ylabel", "legend"); err != nil {
		return nil, err
	}
	for i := range vals {
		v, err := vals[i].Host(ctx)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	ss, err := splitSeries(t, vals)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, s := range ss {
		total += len(s.y)
	}
	if total > maxPoints {
		return nil, fmt.Errorf(":plot: %d points is more than the %d this draws", total, maxPoints)
	}
	style := opts["style"]
	if style == "" {
		style = "line"
		if len(ss) == 1 && ss[0].x == nil && ss[0].integral {
			style = "bars"
		}
	}
	var names []string
	if l, ok := opts["legend"]; ok {
		names = strings.Split(l, "|")
		if len(names) != len(ss) {
			return nil, fmt.Errorf(":plot: legend names %d series, the value has %d", len(names), len(ss))
		}
	}

	p := plot.New()
	p.Title.Text = opts["title"]
	p.X.Label.Text = opts["xlabel"]
	p.Y.Label.Text = opts["ylabel"]
	if p.X.Label.Text == "" && ss[0].x == nil {
		p.X.Label.Text = "index"
	}
	p.Add(plotter.NewGrid())
	legends := 0
	for i, s := range ss {
		xys := make(plotter.XYs, len(s.y))
		for j := range s.y {
			xys[j].X, xys[j].Y = float64(j), s.y[j]
			if s.x != nil {
				xys[j].X = s.x[j]
			}
		}
		c := plotutil.Color(i)
		var thumbs []plot.Thumbnailer
		switch style {
		case "line", "linepoints":
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, fmt.Errorf(":plot: %v", err)
			}
			l.Color = c
			l.Width = vg.Points(1.5)
			p.Add(l)
			thumbs = append(thumbs, l)
			if style == "line" {
				break
			}
			fallthrough
		case "points":
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, fmt.Errorf(":plot: %v", err)
			}
			sc.Color = c
			sc.Shape = plotutil.Shape(i)
			p.Add(sc)
			thumbs = append(thumbs, sc)
		case "bars":
			if s.x != nil {
				return nil, fmt.Errorf(":plot: bars are drawn against the index; give a 1-D array, not x and y")
			}
			b, err := plotter.NewBarChart(plotter.Values(s.y), barWidth(len(s.y), len(ss)))
			if err != nil {
				return nil, fmt.Errorf(":plot: %v", err)
			}
			b.Color = c
			b.LineStyle.Width = 0
			b.Offset = barWidth(len(s.y), len(ss)) * vg.Length(float64(i)-float64(len(ss)-1)/2)
			p.Add(b)
			thumbs = append(thumbs, b)
		default:
			return nil, fmt.Errorf(":plot: unknown style %q (known: line, points, linepoints, bars)", style)
		}
		name := ""
		switch {
		case names != nil:
			name = names[i]
		case len(ss) > 1:
			name = fmt.Sprintf("series %d", i+1)
		}
		if name != "" {
			legends++
			p.Legend.Add(name, thumbs...)
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	pad(&p.X, 0.03)
	// Headroom for the legend, which sits above the data at the top left.
	pad(&p.Y, 0.04+0.07*float64(legends))
	if style == "bars" {
		p.X.Min, p.X.Max = -0.5, float64(len(ss[0].y))-0.5
	}

	c := vgsvg.New(chartWidth, chartHeight)
	margin := vg.Points(8)
	p.Draw(draw.Crop(draw.New(c), margin, -margin, margin, -margin))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pad widens an axis's range by frac of its span on each side, so no
// point sits on the frame. A bar chart's value axis keeps its zero.
func pad(a *plot.Axis, frac float64) {
	d := (a.Max - a.Min) * frac
	if d == 0 {
		d = 1
	}
	if a.Min != 0 {
		a.Min -= d
	}
	a.Max += d
}

// barWidth shares about 4.5 inches of plot between n bars of k series.
func barWidth(n, k int) vg.Length {
	w := 4.5 * vg.Inch / vg.Length(n*k)
	return max(min(w, vg.Points(20)), vg.Points(0.5))
}

// splitSeries reads the series out of a value of type t.
func splitSeries(t types.Type, vals []eval.Value) ([]series, error) {
	if s, ok, err := oneSeries(t, vals); ok || err != nil {
		return []series{s}, err
	}
	if a, ok := t.(*types.Array); ok && len(a.Dims) == 2 && len(vals) == 1 {
		if e, prim := a.Elem.(types.Prim); prim {
			// A matrix: one series per row, against the column index.
			v := vals[0]
			rows, cols := int(v.Shape[0]), int(v.Shape[1])
			if rows == 0 || rows > 64 {
				return nil, fmt.Errorf(":plot draws a 2-D array as one series per row, and this one has %d rows (1 to 64)", rows)
			}
			all := toFloats(v.Data)
			var out []series
			for r := 0; r < rows; r++ {
				out = append(out, series{y: all[r*cols : (r+1)*cols], integral: !e.T.IsFloat()})
			}
			return out, nil
		}
	}
	if tup, ok := t.(*types.Tuple); ok && len(tup.Elems) > 0 {
		var out []series
		for _, e := range tup.Elems {
			n := width(e)
			s, ok, err := oneSeries(e, vals[:n])
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, notPlottable(t)
			}
			out = append(out, s)
			vals = vals[n:]
		}
		return out, nil
	}
	return nil, notPlottable(t)
}

func notPlottable(t types.Type) error {
	return fmt.Errorf(":plot wants a 1-D array, a pair of 1-D arrays (x, y), a tuple of those, or a 2-D array of rows, not %s", t)
}

// oneSeries reads t as a single series, if it is one.
func oneSeries(t types.Type, vals []eval.Value) (series, bool, error) {
	switch t := t.(type) {
	case *types.Array:
		if len(t.Dims) != 1 {
			return series{}, false, nil
		}
		switch e := t.Elem.(type) {
		case types.Prim:
			return series{y: toFloats(vals[0].Data), integral: !e.T.IsFloat()}, true, nil
		case *types.Tuple:
			if isPrimPair(e.Elems) {
				return xy(vals[0], vals[1])
			}
		}
	case *types.Tuple:
		if len(t.Elems) == 2 && isVector(t.Elems[0]) && isVector(t.Elems[1]) {
			return xy(vals[0], vals[1])
		}
	}
	return series{}, false, nil
}

func xy(x, y eval.Value) (series, bool, error) {
	if x.Len() != y.Len() {
		return series{}, false, fmt.Errorf(":plot: x has %d elements and y %d", x.Len(), y.Len())
	}
	return series{x: toFloats(x.Data), y: toFloats(y.Data)}, true, nil
}

func isPrimPair(ts []types.Type) bool {
	if len(ts) != 2 {
		return false
	}
	_, a := ts[0].(types.Prim)
	_, b := ts[1].(types.Prim)
	return a && b
}

func isVector(t types.Type) bool {
	a, ok := t.(*types.Array)
	if !ok || len(a.Dims) != 1 {
		return false
	}
	_, prim := a.Elem.(types.Prim)
	return prim
}

// width is the number of flat Values a value of type t is made of.
func width(t types.Type) int {
	switch t := t.(type) {
	case types.Prim:
		return 1
	case *types.Array:
		return width(t.Elem)
	case *types.Tuple:
		n := 0
		for _, e := range t.Elems {
			n += width(e)
		}
		return n
	}
	return 0
}
