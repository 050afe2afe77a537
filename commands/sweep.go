package commands

import (
	"context"
	"errors"
	"fmt"
	htmlpkg "html"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arepl/arepl/viz"
)

// :sweep measures functions across sizes and charts the timings as data:
// the notebooks that reproduce the seeds' results (examples/papers/) draw
// their time-against-size and bandwidth figures with it. Each function
// takes the size n (an i64), or, with input=IN, the value IN n, which is
// built before the timed runs so that its cost is not counted. A point is
// the fastest of several runs (after one that may compile) of the
// backend's run stage; the bytes are what the run's kernels read and
// wrote, known from their inputs and outputs. fusion=both measures every
// function unfused and fused, the seeds' comparison.

func init() {
	Register(&Command{Name: "sweep", Args: "F [G ...]; n=N1|N2|..., [input=IN, runs=R, y=time|gbs|bytes, fusion=on|off|both, title=T, file=F]",
		Help:    "time functions of the size n (or of input=IN n) at each size and chart time, GB/s or bytes against n; the REPL prints the table and writes an SVG file",
		Example: "iota; n=1000|10000",
		Run:     cmdSweep})
}

const maxSweepRuns = 20

type sweepPoint struct {
	n     int64
	best  time.Duration
	bytes int64
}

func cmdSweep(ctx context.Context, st *State, arg string) (Reply, error) {
	expr, opts, err := viz.ParseArg(arg)
	if err != nil {
		return Reply{}, fmt.Errorf(":sweep: %w", err)
	}
	funs := strings.Fields(expr)
	if len(funs) == 0 {
		return Reply{}, errUsage("sweep", "the names of functions of n")
	}
	known := map[string]bool{"n": true, "input": true, "runs": true, "y": true, "fusion": true, "title": true, "file": true}
	for k := range opts {
		if !known[k] {
			return Reply{}, fmt.Errorf(":sweep: unknown option %q (known: n, input, runs, y, fusion, title, file)", k)
		}
	}
	var sizes []int64
	for _, s := range strings.Split(opts["n"], "|") {
		f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), "_", ""), 64)
		if err != nil || f < 0 || f != math.Trunc(f) || f > 1<<40 {
			return Reply{}, fmt.Errorf(":sweep: n= wants sizes separated by |, such as n=1e3|1e4|1e5, not %q", opts["n"])
		}
		sizes = append(sizes, int64(f))
	}
	runs := 3
	if s, ok := opts["runs"]; ok {
		if runs, err = strconv.Atoi(s); err != nil || runs < 1 || runs > maxSweepRuns {
			return Reply{}, fmt.Errorf(":sweep: runs= wants 1 to %d", maxSweepRuns)
		}
	}
	y := opts["y"]
	if y == "" {
		y = "time"
	}
	if y != "time" && y != "gbs" && y != "bytes" {
		return Reply{}, fmt.Errorf(":sweep: y= is time, gbs or bytes, not %q", y)
	}
	modes := []bool{st.Sess.Fusion()}
	switch opts["fusion"] {
	case "":
	case "on":
		modes = []bool{true}
	case "off":
		modes = []bool{false}
	case "both":
		modes = []bool{false, true}
	default:
		return Reply{}, fmt.Errorf(":sweep: fusion= is on, off or both, not %q", opts["fusion"])
	}
	file, named := opts["file"]
	if named && (file == "" || strings.ContainsAny(file, `/\`) || strings.HasPrefix(file, ".")) {
		return Reply{}, errors.New(":sweep: file= wants a plain file name, without folders")
	}

	was := st.Sess.Fusion()
	defer st.Sess.SetFusion(was)
	type curve struct {
		name   string
		points []sweepPoint
	}
	var curves []*curve
	backend := ""
	for _, fused := range modes {
		st.Sess.SetFusion(fused)
		var cs []*curve
		for _, f := range funs {
			name := f
			if len(modes) > 1 {
				name += map[bool]string{true: " (fused)", false: " (unfused)"}[fused]
			}
			c := &curve{name: name}
			cs = append(cs, c)
			curves = append(curves, c)
		}
		for _, n := range sizes {
			arg := fmt.Sprintf("(%di64)", n)
			if in := opts["input"]; in != "" {
				if _, err := st.Sess.Eval(ctx, st.ArgName, fmt.Sprintf("def sweep_input = %s %s", in, arg)); err != nil {
					return Reply{}, err
				}
				arg = "sweep_input"
			}
			for i, f := range funs {
				p := sweepPoint{n: n, best: -1}
				for r := 0; r <= runs; r++ { // run 0 may compile: not counted
					if err := ctx.Err(); err != nil {
						return Reply{}, err
					}
					res, err := st.Sess.Eval(ctx, st.ArgName, f+" "+arg)
					if err != nil {
						return Reply{}, err
					}
					if res.Type == nil {
						return Reply{}, fmt.Errorf(":sweep: %s %s is no expression", f, arg)
					}
					backend = res.Timings.Backend
					if r == 0 {
						continue
					}
					if p.best < 0 || res.Timings.Run < p.best {
						p.best = res.Timings.Run
					}
					p.bytes = 0
					for _, k := range res.Timings.Kernels {
						p.bytes += k.Bytes
					}
				}
				cs[i].points = append(cs[i].points, p)
			}
		}
	}

	ylabel := map[string]string{"time": "time per run (ms)", "gbs": "GB/s (bytes of the kernels' inputs and outputs / time)", "bytes": "bytes moved (MB)"}[y]
	value := func(p sweepPoint) float64 {
		switch y {
		case "gbs":
			if p.best <= 0 {
				return 0
			}
			return float64(p.bytes) / p.best.Seconds() / 1e9
		case "bytes":
			return float64(p.bytes) / 1e6
		}
		return float64(p.best) / 1e6
	}
	var ss []viz.SweepSeries
	var table strings.Builder
	fmt.Fprintf(&table, "%-28s %14s %12s %12s %10s\n", "function", "n", "time", "bytes", "GB/s")
	for _, c := range curves {
		s := viz.SweepSeries{Name: c.name}
		for _, p := range c.points {
			s.X = append(s.X, float64(p.n))
			s.Y = append(s.Y, value(p))
			gbs := 0.0
			if p.best > 0 {
				gbs = float64(p.bytes) / p.best.Seconds() / 1e9
			}
			fmt.Fprintf(&table, "%-28s %14d %12s %12d %10.3g\n", c.name, p.n, p.best.Round(time.Microsecond), p.bytes, gbs)
		}
		ss = append(ss, s)
	}
	title := opts["title"]
	if title == "" {
		title = strings.Join(funs, ", ")
	}
	title += " on " + backend
	svg, err := viz.SweepChart(title, "n", ylabel, ss, y == "time")
	if err != nil {
		return Reply{}, err
	}
	text := strings.TrimRight(table.String(), "\n")
	if st.Files {
		path, err := writePicture("sweep", "svg", file, named, svg)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Text: text, File: path}, nil
	}
	// The text a notebook keeps is the chart's description: the numbers,
	// which differ from run to run, are in the HTML table and the chart.
	return Reply{Text: fmt.Sprintf("<chart: %s against n for %s, %d sizes, on %s>", y, strings.Join(funs, ", "), len(sizes), backend),
		Data: map[string]any{
			"text/html":     `<div class="arepl-sweep">` + string(svg) + `<pre>` + htmlpkg.EscapeString(text) + `</pre></div>`,
			"image/svg+xml": string(svg),
		}}, nil
}
