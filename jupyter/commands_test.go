package jupyter

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/arepl/arepl/commands"
	"github.com/arepl/arepl/eval"
)

// recordOutput records everything a cell shows.
type recordOutput struct {
	streams, pages []string
	displays       []bundle
	cleared, quit  bool
}

func (o *recordOutput) stream(_, text string) { o.streams = append(o.streams, text) }
func (o *recordOutput) display(b bundle)      { o.displays = append(o.displays, b) }
func (o *recordOutput) result(b bundle)       { o.displays = append(o.displays, b) }
func (o *recordOutput) clear(bool)            { o.cleared = true }
func (o *recordOutput) page(b bundle)         { o.pages = append(o.pages, b["text/plain"].(string)) }
func (o *recordOutput) askExit()              { o.quit = true }
func (o *recordOutput) input(context.Context, string, bool) (string, error) {
	return "[4, 5]", nil
}

func (o *recordOutput) shown() bool {
	return len(o.streams)+len(o.pages)+len(o.displays) > 0 || o.cleared || o.quit
}

// TestEveryCommand runs every command of the shared table in a cell on a
// real session, with its example argument, and checks that the kernel
// knows it, that it succeeds and shows something (cmd/arepl's
// TestEveryCommand does the same in the REPL).
func TestEveryCommand(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.fut")
	if err := os.WriteFile(prog, []byte("def main (n: i64) = reduce (+) 0 (iota n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, c := range commands.All() {
		t.Run(c.Name, func(t *testing.T) {
			e := newSessionEvaluator()
			e.s.SetBackend("cpu")
			cell := "def ys = [1, 2, 3]\n"
			if c.Name == "reload" {
				cell += ":load prog.fut\n"
			}
			cell += strings.TrimSpace(":"+c.Name+" "+c.Example) + "\n"
			out := &recordOutput{}
			if err := e.run(context.Background(), "In[1]", cell, out); err != nil {
				t.Fatalf("%q: %v", cell, err)
			}
			if c.Name != "input" && !out.shown() {
				t.Errorf("%q showed nothing", cell)
			}
		})
	}
}

// TestEarlierResults: _N is the value of cell In[N] (its Out[N]).
func TestEarlierResults(t *testing.T) {
	e := newSessionEvaluator()
	e.s.SetBackend("cpu")
	out := &recordOutput{}
	if err := e.run(context.Background(), "In[1]", "1 + 2", out); err != nil {
		t.Fatal(err)
	}
	out = &recordOutput{}
	if err := e.run(context.Background(), "In[2]", "_1 * 10", out); err != nil {
		t.Fatal(err)
	}
	if len(out.displays) != 1 || out.displays[0]["text/plain"] != "30" {
		t.Errorf("_1 * 10 showed %v, want 30", out.displays)
	}
}

// TestOperatorWarnings: a cell with reduce (-) runs and warns that the
// operator is not associative (issue 19, features).
func TestOperatorWarnings(t *testing.T) {
	e := newSessionEvaluator()
	e.s.SetBackend("cpu")
	out := &recordOutput{}
	if err := e.run(context.Background(), "In[1]", "reduce (-) 0 (iota 10)", out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(out.streams, ""), "(-) is not associative") {
		t.Errorf("no warning; streams %q", out.streams)
	}
}

// TestQuestionMarkDoc: ?NAME in a cell is :doc NAME, as in the REPL.
func TestQuestionMarkDoc(t *testing.T) {
	e := newSessionEvaluator()
	out := &recordOutput{}
	if err := e.run(context.Background(), "In[1]", "?iota", out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.Join(out.streams, ""), "iota : ") {
		t.Errorf("?iota showed %q", out.streams)
	}
}

// TestPlanInCell: a :plan in a cell places what it shows in the cell, as
// the cell's errors are placed (issue 19: the gpu lines said `<:arg>`),
// and names what the cell's let binds.
func TestPlanInCell(t *testing.T) {
	e := newSessionEvaluator()
	out := &recordOutput{}
	cell := "def xs = iota 10\n:plan let ys = map (+1) xs in scan (+) 0 ys"
	if err := e.run(context.Background(), "In[4]", cell, out); err != nil {
		t.Fatal(err)
	}
	var text, svg string
	for _, d := range out.displays {
		if s, ok := d["image/svg+xml"].(string); ok {
			text, svg = d["text/plain"].(string), s
		}
	}
	for _, want := range []string{"(ys -> the scan at 2:31)", "In[4]:2:31 the scan: scanomap", "over length xs"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text+svg, "<:arg>") || strings.Contains(svg, "_1") || !strings.Contains(svg, "the scan at 2:31") {
		t.Errorf("plan quotes the argument's positions or the IR's names:\n%s\n%s", text, svg)
	}
}

// TestTraceCPU: :trace on the CPU backend draws the chunked scan's
// goroutines, with a summary, in a cell (issue 20, item 4).
func TestTraceCPU(t *testing.T) {
	e := newSessionEvaluator()
	e.s.SetBackend("cpu")
	out := &recordOutput{}
	if err := e.run(context.Background(), "In[1]", ":trace scan (+) 0 (map (*3) (iota 2_000_000))", out); err != nil {
		t.Fatal(err)
	}
	if len(out.displays) != 1 {
		t.Fatalf("displays %v", out.displays)
	}
	if s := out.displays[0]["text/plain"]; s != "<Gantt chart: scan (+) 0 (map (*3) (iota 2_000_000)) on cpu>" {
		t.Errorf("text/plain %q: a notebook would keep numbers that change from run to run", s)
	}
	text := out.displays[0]["text/html"].(string)
	svg, _ := out.displays[0]["image/svg+xml"].(string)
	if !strings.Contains(text, "scan (+) 0 (map (*3) (iota 2_000_000)) on cpu: ") || !strings.Contains(svg, "time (µs)") {
		t.Errorf("trace:\n%s\n%.300s", text, svg)
	}
	if runtime.GOMAXPROCS(0) > 1 && !strings.Contains(text, "scan, then add carry") && !strings.Contains(text, "3: scan with carry-in") {
		t.Errorf("no scan phases on %d cores:\n%s", runtime.GOMAXPROCS(0), text)
	}
}

// TestSweep: :sweep charts timings as data (issue 20, item 6): one row per
// function, fusion mode and size, and a text that stays the same from run
// to run so that a saved notebook compares.
func TestSweep(t *testing.T) {
	e := newSessionEvaluator()
	e.s.SetBackend("cpu")
	out := &recordOutput{}
	cell := "def f (n: i64) = scan (+) 0 (map (*2) (iota n))\n:sweep f; n=1e3|1e4, fusion=both, y=bytes, runs=1"
	if err := e.run(context.Background(), "In[1]", cell, out); err != nil {
		t.Fatal(err)
	}
	if len(out.displays) != 1 {
		t.Fatalf("displays %v", out.displays)
	}
	d := out.displays[0]
	if d["text/plain"] != "<chart: bytes against n for f, 2 sizes, on cpu>" {
		t.Errorf("text/plain %q", d["text/plain"])
	}
	html := d["text/html"].(string)
	for _, want := range []string{"f (unfused)", "f (fused)", "bytes moved (MB)", "1000", "10000"} {
		if !strings.Contains(html, want) {
			t.Errorf("sweep lacks %q:\n%.2000s", want, html)
		}
	}
	if !e.s.Fusion() {
		t.Error(":sweep fusion=both left fusion off")
	}
}

// gpuTraceSession is a fake session whose :trace comes back as the GPU's
// does: the kernel's name and tile count appended to what ran.
type gpuTraceSession struct{ *fakeSession }

func (gpuTraceSession) Trace(_ context.Context, _, src string) (*eval.Result, error) {
	tr := eval.NewTrace("gpu", src+" (k_scanomap_3, 2 tiles)")
	tr.AddSpan(eval.Span{Tile: 0, Phase: "load", Start: 0, End: 100})
	tr.AddSpan(eval.Span{Tile: 1, Phase: "look-back", Start: 50, End: 150, Distance: 1})
	return &eval.Result{Timings: eval.Timings{Trace: tr}}, nil
}

// TestTraceGPUText: a GPU trace's text/plain names the expression and the
// backend only, as on the CPU, so a notebook committed with a GPU run's
// outputs compares equal to a CPU run in CI (check_notebooks.py); the
// kernel, tiles and look-back distances are in the HTML.
func TestTraceGPUText(t *testing.T) {
	e := newEvaluator(gpuTraceSession{newFake()})
	out := &recordOutput{}
	if err := e.run(context.Background(), "In[1]", ":trace scan  (+) 0 xs", out); err != nil {
		t.Fatal(err)
	}
	if len(out.displays) != 1 {
		t.Fatalf("displays %v", out.displays)
	}
	if s := out.displays[0]["text/plain"]; s != "<Gantt chart: scan (+) 0 xs on gpu>" {
		t.Errorf("text/plain %q", s)
	}
	if h := out.displays[0]["text/html"].(string); !strings.Contains(h, "(k_scanomap_3, 2 tiles) on gpu: 2 tiles") ||
		!strings.Contains(h, "look-back ended by the predecessor at distance 1 on average (1 tiles; distance: tiles 1: 1)") {
		t.Errorf("html %s", h)
	}
}
