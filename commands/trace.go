package commands

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	htmlpkg "html"
	"strings"

	"github.com/arepl/arepl/viz"
)

// :trace runs an expression with its parallel passes traced (eval's
// Session.Trace) and draws the trace as a Gantt chart (viz.Gantt): on the
// GPU, the tiles of the single-pass scan in their phases, which shows the
// decoupled look-back's waits; on the CPU, the goroutines of the chunked
// three-phase scan. The summary (tiles, residency, the mean time per
// phase) is the reply's text in both front ends.

func init() {
	Register(&Command{Name: "trace", Args: "EXPR[; format=svg|png, file=F, data=F.json]",
		Help:    "run EXPR tracing its tiles (GPU: the single-pass scan's phases per tile; CPU: the scan's goroutines) and draw a Gantt chart; the REPL writes a file; data= also writes the timestamps as JSON",
		Example: "scan (+) 0 (iota 1_000_000)",
		Run:     cmdTrace})
}

func cmdTrace(ctx context.Context, st *State, arg string) (Reply, error) {
	expr, opts, err := viz.ParseArg(arg)
	if err != nil {
		return Reply{}, fmt.Errorf(":trace: %w", err)
	}
	if expr == "" {
		return Reply{}, errUsage("trace", "an expression")
	}
	format := opts["format"]
	if format == "" {
		format = "svg"
	}
	file, named := opts["file"]
	data, keep := opts["data"]
	for k := range opts {
		if k != "format" && k != "file" && k != "data" {
			return Reply{}, fmt.Errorf(":trace: unknown option %q (known: format, file, data)", k)
		}
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{file, named}, {data, keep}} {
		if f.set && (f.name == "" || strings.ContainsAny(f.name, `/\`) || strings.HasPrefix(f.name, ".")) {
			return Reply{}, errors.New(":trace: file= and data= want a plain file name, without folders")
		}
	}
	res, err := st.Sess.Trace(ctx, st.ArgName, expr)
	if err != nil {
		return Reply{}, err
	}
	tr := res.Timings.Trace
	b, err := viz.Gantt(tr, format)
	if err != nil {
		return Reply{}, err
	}
	summary := viz.TraceSummary(tr)
	if keep {
		// The timestamps themselves, as JSON (eval.ReadTrace reads them
		// back), for a record of a run or to draw again elsewhere.
		j, err := tr.JSON()
		if err != nil {
			return Reply{}, err
		}
		path, err := writePicture("trace", "json", data, true, j)
		if err != nil {
			return Reply{}, err
		}
		summary += "\nwrote " + path
	}
	if st.Files {
		path, err := writePicture("trace", format, file, named, b)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Text: summary, File: path}, nil
	}
	// A notebook keeps the text of its outputs, so the text names the chart;
	// the numbers, which differ from run to run, are in its HTML.
	html := `<div class="arepl-trace"><pre>` + htmlpkg.EscapeString(summary) + `</pre>`
	// It names the expression as typed, not tr.Kernel, to which the GPU
	// adds its kernel and tile count: a notebook committed with a GPU
	// run's outputs then reads the same when CI runs it on the CPU.
	summary = fmt.Sprintf("<Gantt chart: %s on %s>", strings.Join(strings.Fields(expr), " "), tr.Backend)
	if format == "png" {
		enc := base64.StdEncoding.EncodeToString(b)
		return Reply{Text: summary, Data: map[string]any{
			"image/png": b,
			"text/html": html + `<img src="data:image/png;base64,` + enc + `"></div>`,
		}}, nil
	}
	svg := string(b)
	return Reply{Text: summary, Data: map[string]any{
		"text/html":     html + svg + `</div>`,
		"image/svg+xml": svg,
	}}, nil
}
