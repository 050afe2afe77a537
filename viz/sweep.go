package viz

import (
	"bytes"
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// SweepSeries is one measured curve of `:sweep`: a y value per x.
type SweepSeries struct {
	Name string
	X, Y []float64
}

// SweepChart draws measured series as an SVG line chart with points:
// x on a log scale when the sizes span more than a factor of 20 (sizes
// grow geometrically in a sweep), y on a log scale when logY is set and
// every value is positive.
func SweepChart(title, xlabel, ylabel string, ss []SweepSeries, logY bool) ([]byte, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	xmin, xmax := math.Inf(1), math.Inf(-1)
	positive := true
	for _, s := range ss {
		for i, x := range s.X {
			xmin, xmax = min(xmin, x), max(xmax, x)
			positive = positive && s.Y[i] > 0
		}
	}
	if xmin > 0 && xmax/xmin > 20 {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if logY && positive {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for i, s := range ss {
		xys := make(plotter.XYs, len(s.X))
		for j := range s.X {
			xys[j].X, xys[j].Y = s.X[j], s.Y[j]
		}
		l, sc, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf(":sweep: %v", err)
		}
		l.Color, sc.Color = plotutil.Color(i), plotutil.Color(i)
		l.Width = vg.Points(1.5)
		sc.Shape = plotutil.Shape(i)
		p.Add(l, sc)
		p.Legend.Add(s.Name, l, sc)
	}
	p.Legend.Top, p.Legend.Left = true, true
	c := vgsvg.New(chartWidth, chartHeight)
	margin := vg.Points(8)
	p.Draw(draw.Crop(draw.New(c), margin, -margin, margin, -margin))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
