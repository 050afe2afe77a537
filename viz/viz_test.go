package viz

import (
	"bytes"
	"context"
	"encoding/xml"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/types"
)

func arrayType(t core.PrimType, rank int) types.Type {
	dims := make([]types.Dim, rank)
	for i := range dims {
		dims[i] = types.AnyDim
	}
	return &types.Array{Elem: types.Prim{T: t}, Dims: dims}
}

func value(t core.PrimType, data any, shape ...int64) eval.Value {
	return eval.Value{Elem: t, Shape: shape, Data: data}
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

func rgb(c color.Color) [3]uint8 {
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

func TestPNGPixels(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		elem core.PrimType
		data any
		want [][3]uint8 // row-major, 2 rows × 2 columns
	}{
		{"argb u32", core.U32, []uint32{0xFF0000, 0x00FF00, 0x0000FF, 0xFF123456},
			[][3]uint8{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {0x12, 0x34, 0x56}}},
		{"argb i32", core.I32, []int32{-1, 0x00808080, 0, 0x00010203},
			[][3]uint8{{255, 255, 255}, {128, 128, 128}, {0, 0, 0}, {1, 2, 3}}},
		{"grey f32 clamped", core.F32, []float32{0, 1, 0.5, 7},
			[][3]uint8{{0, 0, 0}, {255, 255, 255}, {128, 128, 128}, {255, 255, 255}}},
		{"grey f64", core.F64, []float64{-3, 0.25, 1, 0},
			[][3]uint8{{0, 0, 0}, {64, 64, 64}, {255, 255, 255}, {0, 0, 0}}},
		{"grey u8", core.U8, []uint8{0, 10, 200, 255},
			[][3]uint8{{0, 0, 0}, {10, 10, 10}, {200, 200, 200}, {255, 255, 255}}},
		{"bool", core.Bool, []bool{true, false, false, true},
			[][3]uint8{{255, 255, 255}, {0, 0, 0}, {0, 0, 0}, {255, 255, 255}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := PNG(ctx, arrayType(c.elem, 2), []eval.Value{value(c.elem, c.data, 2, 2)}, Options{"scale": "1"})
			if err != nil {
				t.Fatal(err)
			}
			img := decodePNG(t, b)
			if got := img.Bounds().Size(); got != (image.Point{2, 2}) {
				t.Fatalf("size %v, want 2×2", got)
			}
			for i, w := range c.want {
				if got := rgb(img.At(i%2, i/2)); got != w {
					t.Errorf("pixel (%d,%d) = %v, want %v", i%2, i/2, got, w)
				}
			}
		})
	}
}

// A small image is enlarged by an integer factor, a non-square one keeps
// its aspect, and each element becomes a block of equal pixels.
func TestPNGScale(t *testing.T) {
	v := value(core.U8, []uint8{0, 255, 0, 255, 0, 255}, 2, 3)
	b, err := PNG(context.Background(), arrayType(core.U8, 2), []eval.Value{v}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	if got := img.Bounds().Size(); got != (image.Point{3 * 85, 2 * 85}) {
		t.Fatalf("size %v, want 255×170", got)
	}
	if rgb(img.At(84, 84)) != [3]uint8{0, 0, 0} || rgb(img.At(85, 84)) != [3]uint8{255, 255, 255} || rgb(img.At(85, 85)) != [3]uint8{0, 0, 0} {
		t.Error("blocks are not element-aligned")
	}
}

func TestPNGPalette(t *testing.T) {
	// Integer data is stretched from its minimum to its maximum.
	v := value(core.I64, []int64{5, 10, 15, 20}, 1, 4)
	b, err := PNG(context.Background(), arrayType(core.I64, 2), []eval.Value{v}, Options{"palette": "viridis", "scale": "1"})
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	if got := rgb(img.At(0, 0)); got != [3]uint8{0x44, 0x01, 0x54} {
		t.Errorf("minimum is %v, want viridis's first colour", got)
	}
	if got := rgb(img.At(3, 0)); got != [3]uint8{0xfd, 0xe7, 0x25} {
		t.Errorf("maximum is %v, want viridis's last colour", got)
	}
}

func TestImageErrors(t *testing.T) {
	ctx := context.Background()
	one := []eval.Value{value(core.I64, []int64{1, 2}, 1, 2)}
	for _, c := range []struct {
		t    types.Type
		vals []eval.Value
		opts Options
		want string
	}{
		{arrayType(core.I64, 2), one, Options{}, "give a palette"},
		{arrayType(core.I64, 2), one, Options{"palette": "rainbow"}, `unknown palette "rainbow"`},
		{arrayType(core.I64, 2), one, Options{"colour": "x"}, "unknown option colour"},
		{arrayType(core.I64, 2), one, Options{"palette": "hot", "scale": "0"}, "scale wants"},
		{arrayType(core.I64, 1), []eval.Value{value(core.I64, []int64{1}, 1)}, Options{}, "wants a 2-D array"},
		{arrayType(core.U8, 2), []eval.Value{value(core.U8, []uint8{}, 0, 3)}, Options{}, "empty"},
	} {
		_, err := PNG(ctx, c.t, c.vals, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("PNG(%s, %v): error %v, want one containing %q", c.t, c.opts, err, c.want)
		}
	}
}

func TestGIFFrames(t *testing.T) {
	// Three 1×2 frames: a white dot moving right, then all black.
	v := value(core.Bool, []bool{true, false, false, true, false, false}, 3, 1, 2)
	b, err := GIF(context.Background(), arrayType(core.Bool, 3), []eval.Value{v}, Options{"scale": "2", "fps": "4"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a GIF: %v", err)
	}
	if len(g.Image) != 3 || g.Config.Width != 4 || g.Config.Height != 2 {
		t.Fatalf("%d frames of %d×%d, want 3 of 4×2", len(g.Image), g.Config.Width, g.Config.Height)
	}
	want := [][2][3]uint8{
		{{255, 255, 255}, {0, 0, 0}},
		{{0, 0, 0}, {255, 255, 255}},
		{{0, 0, 0}, {0, 0, 0}},
	}
	for k, f := range g.Image {
		if g.Delay[k] != 25 {
			t.Errorf("frame %d delay %d, want 25 (4 fps)", k, g.Delay[k])
		}
		for x := 0; x < 2; x++ {
			if got := rgb(f.At(2*x+1, 1)); got != want[k][x] {
				t.Errorf("frame %d element %d = %v, want %v", k, x, got, want[k][x])
			}
		}
	}
}

// Frames with more than 256 colours are dithered, not rejected.
func TestGIFManyColours(t *testing.T) {
	data := make([]uint32, 2*20*20)
	for i := range data {
		data[i] = uint32(i * 2711)
	}
	b, err := GIF(context.Background(), arrayType(core.U32, 3), []eval.Value{value(core.U32, data, 2, 20, 20)}, Options{"scale": "1"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil || len(g.Image) != 2 {
		t.Fatalf("decode: %v", err)
	}
}

// svgDoc is what a test reads of an SVG: its size and its text.
type svgDoc struct {
	Width, Height string
	texts         []string
	paths         int
}

func parseSVG(t *testing.T, b []byte) svgDoc {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var doc svgDoc
	inText := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "svg":
				if doc.Width == "" {
					for _, a := range e.Attr {
						switch a.Name.Local {
						case "width":
							doc.Width = a.Value
						case "height":
							doc.Height = a.Value
						}
					}
				}
			case "path":
				doc.paths++
			case "text":
				inText = true
			}
		case xml.EndElement:
			if e.Name.Local == "text" {
				inText = false
			}
		case xml.CharData:
			if inText {
				doc.texts = append(doc.texts, string(e))
			}
		}
	}
	if doc.Width == "" {
		t.Fatalf("no <svg> element in %.200s", b)
	}
	return doc
}

func TestPlotSeries(t *testing.T) {
	ctx := context.Background()
	f64 := arrayType(core.F64, 1)
	xs := value(core.F64, []float64{0, 1, 2, 3}, 4)
	ys := value(core.F64, []float64{0, 1, 4, 9}, 4)
	zs := value(core.F64, []float64{0, 1, 8, 27}, 4)
	pair := &types.Tuple{Elems: []types.Type{f64, f64}}
	cases := []struct {
		name   string
		t      types.Type
		vals   []eval.Value
		opts   Options
		labels []string
	}{
		{"index", f64, []eval.Value{ys}, Options{}, []string{"index"}},
		{"xy", pair, []eval.Value{xs, ys}, Options{"xlabel": "n", "ylabel": "n²", "title": "squares"}, []string{"n", "n²", "squares"}},
		{"two pairs", &types.Tuple{Elems: []types.Type{pair, pair}}, []eval.Value{xs, ys, xs, zs},
			Options{"legend": "square|cube"}, []string{"square", "cube"}},
		{"three vectors", &types.Tuple{Elems: []types.Type{f64, f64, f64}}, []eval.Value{xs, ys, zs},
			Options{"style": "points"}, []string{"series 1", "series 3"}},
		{"matrix rows", arrayType(core.F64, 2), []eval.Value{value(core.F64, []float64{0, 1, 2, 3, 2, 1}, 2, 3)},
			Options{}, []string{"series 1", "series 2", "index"}},
		{"hist bars", arrayType(core.I32, 1), []eval.Value{value(core.I32, []int32{3, 0, 5}, 3)}, Options{}, []string{"index"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := Plot(ctx, c.t, c.vals, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			doc := parseSVG(t, b)
			if doc.Width != "432pt" || doc.Height != "288pt" {
				t.Errorf("size %s×%s, want 432pt×288pt (6×4 in)", doc.Width, doc.Height)
			}
			if doc.paths < 3 {
				t.Errorf("%d paths: nothing drawn", doc.paths)
			}
			all := strings.Join(doc.texts, "\n")
			for _, l := range c.labels {
				if !strings.Contains(all, l) {
					t.Errorf("no text %q in the chart; texts: %q", l, doc.texts)
				}
			}
		})
	}
}

func TestPlotErrors(t *testing.T) {
	ctx := context.Background()
	f64 := arrayType(core.F64, 1)
	xs := value(core.F64, []float64{0, 1}, 2)
	ys := value(core.F64, []float64{0, 1, 2}, 3)
	for _, c := range []struct {
		t    types.Type
		vals []eval.Value
		opts Options
		want string
	}{
		{arrayType(core.F64, 3), []eval.Value{value(core.F64, []float64{1}, 1, 1, 1)}, Options{}, "wants a 1-D array"},
		{arrayType(core.F64, 2), []eval.Value{value(core.F64, make([]float64, 65), 65, 1)}, Options{}, "has 65 rows"},
		{&types.Tuple{Elems: []types.Type{f64, f64}}, []eval.Value{xs, ys}, Options{}, "x has 2 elements and y 3"},
		{f64, []eval.Value{xs}, Options{"style": "pie"}, `unknown style "pie"`},
		{f64, []eval.Value{xs}, Options{"legend": "a|b"}, "legend names 2 series"},
		{f64, []eval.Value{value(core.F64, []float64{0, nan()}, 2)}, Options{}, "NaN"},
	} {
		_, err := Plot(ctx, c.t, c.vals, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Plot(%s, %v): error %v, want one containing %q", c.t, c.opts, err, c.want)
		}
	}
}

func nan() float64 { var z float64; return z / z }

func TestParseArg(t *testing.T) {
	e, o, err := ParseArg(" map f xs ; palette=viridis, scale = 2, bars")
	if err != nil || e != "map f xs" || o["palette"] != "viridis" || o["scale"] != "2" || o["style"] != "bars" {
		t.Errorf("ParseArg: %q %v %v", e, o, err)
	}
	if _, _, err := ParseArg("e; scale=1, scale=2"); err == nil {
		t.Error("a repeated option is not an error")
	}
}

func TestStepVideo(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // step, state, frames; nil: not the step form
	}{
		{"(step, 0, 10)", []string{"step", "0", "10"}},
		{" (\\s -> (f (s, 1), s + 1), (1, [2, 3]), n) ", []string{"\\s -> (f (s, 1), s + 1)", "(1, [2, 3])", "n"}},
		{"frames", nil},
		{"(a, b)", nil},
		{"(a, b, c) |> f", nil},
		{"(a) + (b, c, d)", nil},
	} {
		got, ok := splitTriple(strings.TrimSpace(c.in))
		if ok != (c.want != nil) || ok && strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("splitTriple(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
		if _, ok2 := StepVideo(c.in); ok2 != ok {
			t.Errorf("StepVideo(%q) ok %v, splitTriple ok %v", c.in, ok2, ok)
		}
	}
}
