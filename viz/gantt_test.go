package viz

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
)

// readTrace reads a recorded trace from testdata.
func readTrace(t *testing.T, name string) *eval.Trace {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := eval.ReadTrace(b)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestGanttRecorded draws a recorded trace of a single-pass scan (six
// tiles; tile 3 waits 900 ns in its look-back) and checks the chart and
// the numbers: the mean look-back, the residency, one bar per span.
func TestGanttRecorded(t *testing.T) {
	tr := readTrace(t, "trace-small.json")
	st := tr.Stats()
	if st.Tiles != 6 || st.Resident != 3 || st.Duration != 2720*time.Nanosecond ||
		st.Mean["publish + look-back"] != 203*time.Nanosecond {
		t.Errorf("stats %+v", st)
	}
	sum := TraceSummary(tr)
	for _, want := range []string{"6 tiles in 2.72 µs; at most 3 resident at once", "mean publish + look-back per tile: 203 ns", "mean load per tile: 300 ns"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	b, err := Gantt(tr, "svg")
	if err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, b)
	if doc.Width != "432pt" || doc.Height != "288pt" {
		t.Errorf("SVG size %s x %s", doc.Width, doc.Height)
	}
	text := strings.Join(doc.texts, "|")
	for _, want := range []string{"time (µs)", "tile", "publish + look-back", "ticket", "store", "≤ 3 resident"} {
		if !strings.Contains(text, want) {
			t.Errorf("chart lacks %q: %s", want, text)
		}
	}
	// 42 bars, 7 legend swatches, and the axes' lines.
	if doc.paths < 42+7 {
		t.Errorf("%d paths, want at least 49", doc.paths)
	}
	p, err := Gantt(tr, "png")
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, p)
	if r := img.Bounds(); r.Dx() != 576 || r.Dy() != 384 {
		t.Errorf("PNG is %v, want 576x384 (6x4 in at 96 dpi)", r)
	}
	// Not blank: some pixels are neither white nor black (the bars).
	coloured := 0
	for y := 0; y < 384; y += 2 {
		for x := 0; x < 576; x += 2 {
			c := rgb(img.At(x, y))
			if !(c[0] == c[1] && c[1] == c[2]) {
				coloured++
			}
		}
	}
	if coloured < 500 {
		t.Errorf("only %d coloured pixels sampled", coloured)
	}
}

// TestGanttSamplesRows: a trace of 10000 tiles draws maxGanttRows rows
// and says so; the numbers still cover every tile.
func TestGanttSamplesRows(t *testing.T) {
	tr := eval.NewTrace("gpu", "big")
	for i := 0; i < 10000; i++ {
		tr.AddSpan(eval.Span{Tile: i, Phase: "load", Start: int64(i), End: int64(i + 10)})
	}
	if st := tr.Stats(); st.Tiles != 10000 || st.Resident != 10 {
		t.Errorf("stats %+v", st)
	}
	b, err := Gantt(tr, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(parseSVG(t, b).texts, " "), "(400 drawn)") {
		t.Error("the title does not say the rows were sampled")
	}
	if _, err := Gantt(eval.NewTrace("cpu", "nothing"), "svg"); err == nil {
		t.Error("an empty trace drew a chart")
	}
}

// TestGanttH200Recording draws the first 200 tiles of a :trace recorded
// on an H200 (a 2^26-element i32 scan, 8457 tiles; bench/RESULTS.md):
// the timestamps the instrumented kernel wrote, drawn and summed here
// without a GPU.
func TestGanttH200Recording(t *testing.T) {
	tr := readTrace(t, "trace-h200-scan.json")
	st := tr.Stats()
	if st.Tiles != 200 || st.Resident != 200 || st.Duration != 17408*time.Nanosecond ||
		st.Mean["publish + look-back"] != 5038*time.Nanosecond {
		t.Errorf("stats %+v", st)
	}
	for _, format := range []string{"svg", "png"} {
		b, err := Gantt(tr, format)
		if err != nil {
			t.Fatal(err)
		}
		if format == "png" {
			if r := decodePNG(t, b).Bounds(); r.Dx() != 576 || r.Dy() != 384 {
				t.Errorf("PNG is %v", r)
			}
			continue
		}
		if text := strings.Join(parseSVG(t, b).texts, " "); !strings.Contains(text, "200 tiles on gpu, 17.4 µs, ≤ 200 resident") {
			t.Errorf("title: %s", text)
		}
	}
}
