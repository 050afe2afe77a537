package viz

import (
	"image/color"
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
// tiles; tile 3 waits 880 ns in its look-back, which tile 0's prefix ends,
// three tiles back; the others' end at the tile before) and checks the
// chart and the numbers: the mean publish and look-back, the look-back
// distances, the residency, one bar per span and one line per wait.
func TestGanttRecorded(t *testing.T) {
	tr := readTrace(t, "trace-small.json")
	st := tr.Stats()
	if st.Tiles != 6 || st.Resident != 3 || st.Duration != 2720*time.Nanosecond ||
		st.Mean["look-back"] != 178*time.Nanosecond || st.Mean["publish"] != 25*time.Nanosecond ||
		st.MeanDistance != 1.4 || len(st.Distances) != 2 || st.Distances[1] != 4 || st.Distances[3] != 1 {
		t.Errorf("stats %+v", st)
	}
	sum := TraceSummary(tr)
	for _, want := range []string{"6 tiles in 2.72 µs; at most 3 resident at once", "mean look-back per tile: 178 ns",
		"mean publish per tile: 25 ns", "mean load per tile: 300 ns",
		"look-back ended by the predecessor at distance 1.4 on average (5 tiles; distance: tiles 1: 4, 3: 1)"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	// Phases in a tile's order, though tile 0's empty look-back starts
	// when its applying the prefix does.
	if i, j := strings.Index(sum, "mean look-back"), strings.Index(sum, "mean apply prefix"); i > j {
		t.Errorf("look-back listed after apply prefix:\n%s", sum)
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
	for _, want := range []string{"time (µs)", "tile", "publish", "look-back", "ticket", "store", "≤ 3 resident, look-back distance 1.4"} {
		if !strings.Contains(text, want) {
			t.Errorf("chart lacks %q: %s", want, text)
		}
	}
	// 48 bars, 8 legend swatches, 5 lines from a look-back to its
	// predecessor, and the axes' lines; without the lines, fewer.
	if doc.paths < 48+8+5 {
		t.Errorf("%d paths, want at least 61", doc.paths)
	}
	for i := range tr.Spans {
		tr.Spans[i].Distance = 0
	}
	if b, err := Gantt(tr, "svg"); err != nil || parseSVG(t, b).paths != doc.paths-5 {
		t.Errorf("without distances: %v, not 5 paths fewer", err)
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
	// Recorded before the look-back's distance was: no distances, and the
	// summary says nothing about them.
	if len(st.Distances) != 0 || strings.Contains(TraceSummary(tr), "distance") {
		t.Errorf("an old recording has distances: %v", st.Distances)
	}
}

// TestDistanceBuckets: the histogram of look-back distances keeps 1-4
// apart, then groups them by powers of two up to a window of 32.
func TestDistanceBuckets(t *testing.T) {
	got := distanceBuckets(map[int]int{1: 10, 2: 3, 5: 1, 8: 2, 31: 1, 40: 2, 1000: 1})
	want := []distanceBucket{{"1", 10}, {"2", 3}, {"5-8", 3}, {"17-32", 1}, {">32", 3}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("bucket %d: got %v, want %v", i, got[i], want[i])
		}
	}
	c := color.NRGBA{R: 200, G: 100, B: 50, A: 255}
	if darken(c, 1) != color.Color(c) || darken(c, 32) != color.Color(color.NRGBA{R: 60, G: 30, B: 15, A: 255}) {
		t.Errorf("darken: %v, %v", darken(c, 1), darken(c, 32))
	}
}
