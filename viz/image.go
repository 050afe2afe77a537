package viz

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/types"
)

// maxPixels bounds an image (or all frames of a video) so that a huge
// array is an error, not an out-of-memory kill of the session.
const maxPixels = 64 << 20

// minSide is the length the longer side of a small image is enlarged to,
// by the largest integer factor that stays within it.
const minSide = 256

// PNG renders a 2-D array (see the package comment for the element types)
// as a PNG. Options: palette, scale.
func PNG(ctx context.Context, t types.Type, vals []eval.Value, opts Options) ([]byte, error) {
	b, err := renderPNG(ctx, t, vals, opts)
	if err != nil {
		return nil, commandErr("img", err)
	}
	return b, nil
}

func renderPNG(ctx context.Context, t types.Type, vals []eval.Value, opts Options) ([]byte, error) {
	if err := opts.check("img", "palette", "scale"); err != nil {
		return nil, err
	}
	v, err := single(ctx, "img", t, vals, 2)
	if err != nil {
		return nil, err
	}
	r, err := newRenderer(v, opts)
	if err != nil {
		return nil, err
	}
	h, w := int(v.Shape[0]), int(v.Shape[1])
	scale, err := scaleFor(opts, h, w)
	if err != nil {
		return nil, err
	}
	img := r.frame(0, h, w, scale)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// single checks that the value is one array of the given rank of a
// primitive type, and fetches it to the host.
func single(ctx context.Context, cmd string, t types.Type, vals []eval.Value, rank int) (eval.Value, error) {
	a, ok := t.(*types.Array)
	prim := false
	if ok {
		_, prim = a.Elem.(types.Prim)
	}
	if !ok || !prim || len(a.Dims) != rank || len(vals) != 1 {
		return eval.Value{}, fmt.Errorf(":%s wants a %d-D array of u32, i32, f32, f64, u8 or bool, not %s", cmd, rank, t)
	}
	v, err := vals[0].Host(ctx)
	if err != nil {
		return v, err
	}
	if len(v.Shape) != rank {
		return v, fmt.Errorf(":%s: value has shape %v, want rank %d", cmd, v.Shape, rank)
	}
	n := v.Len()
	if n == 0 {
		return v, fmt.Errorf(":%s: the array is empty (shape %v)", cmd, v.Shape)
	}
	if n > maxPixels {
		return v, fmt.Errorf(":%s: %d pixels is more than the %d this draws", cmd, n, maxPixels)
	}
	return v, nil
}

// scaleFor is the enlargement factor: the scale option, or the largest
// integer factor that keeps the longer side within minSide.
func scaleFor(opts Options, h, w int) (int, error) {
	long := max(h, w)
	def := max(1, minSide/long)
	s, err := opts.intOpt("scale", def, 64)
	if err != nil {
		return 0, err
	}
	if int64(h)*int64(w)*int64(s)*int64(s) > maxPixels {
		return 0, fmt.Errorf("scale %d makes an image of more than %d pixels", s, maxPixels)
	}
	return s, nil
}

// renderer colours the elements of one array, frame by frame.
type renderer struct {
	v   eval.Value
	pal palette // nil: the element type's own convention
	// lo and hi map scalar data to [0, 1] when a palette is used.
	lo, hi float64
}

func newRenderer(v eval.Value, opts Options) (*renderer, error) {
	r := &renderer{v: v}
	switch v.Elem {
	case core.U32, core.I32, core.F32, core.F64, core.U8, core.Bool:
	default:
		if opts["palette"] == "" {
			return nil, fmt.Errorf("elements of type %s are not pixels (u32, i32, f32, f64, u8, bool); give a palette to draw them as scalar data", v.Elem)
		}
	}
	name, ok := opts["palette"]
	if !ok {
		return r, nil
	}
	p, err := lookupPalette(name)
	if err != nil {
		return nil, err
	}
	r.pal = p
	xs := toFloats(v.Data)
	r.lo, r.hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if !math.IsNaN(x) {
			r.lo, r.hi = min(r.lo, x), max(r.hi, x)
		}
	}
	if r.lo >= 0 && r.hi <= 1 && v.Elem.IsFloat() {
		r.lo, r.hi = 0, 1
	}
	return r, nil
}

// frame draws frame k (h×w elements from k*h*w) enlarged by scale.
func (r *renderer) frame(k, h, w, scale int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w*scale, h*scale))
	base := k * h * w
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := r.colour(base + y*w + x)
			for dy := 0; dy < scale; dy++ {
				row := (y*scale + dy) * img.Stride
				for dx := 0; dx < scale; dx++ {
					o := row + (x*scale+dx)*4
					img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c.R, c.G, c.B, 255
				}
			}
		}
	}
	return img
}

func grey(g uint8) color.RGBA { return color.RGBA{g, g, g, 255} }

// colour is element i's colour.
func (r *renderer) colour(i int) color.RGBA {
	if r.pal != nil {
		x := elemFloat(r.v.Data, i)
		t := 0.0
		if r.hi > r.lo {
			t = (x - r.lo) / (r.hi - r.lo)
		}
		if math.IsNaN(x) {
			t = math.NaN()
		}
		return r.pal.at(t)
	}
	switch d := r.v.Data.(type) {
	case []uint32:
		return argb(d[i])
	case []int32:
		return argb(uint32(d[i]))
	case []uint8:
		return grey(d[i])
	case []bool:
		if d[i] {
			return grey(255)
		}
		return grey(0)
	case []float32:
		return grey(unit(float64(d[i])))
	case []float64:
		return grey(unit(d[i]))
	}
	panic(fmt.Sprintf("viz: no pixel convention for %T", r.v.Data))
}

func argb(p uint32) color.RGBA {
	return color.RGBA{uint8(p >> 16), uint8(p >> 8), uint8(p), 255}
}

// unit maps [0, 1] to a grey level, clamping; NaN is black.
func unit(x float64) uint8 {
	switch {
	case !(x > 0):
		return 0
	case x >= 1:
		return 255
	}
	return uint8(x*255 + 0.5)
}

// elemFloat is element i of a typed slice as a float64.
func elemFloat(data any, i int) float64 {
	switch d := data.(type) {
	case []bool:
		if d[i] {
			return 1
		}
		return 0
	case []int8:
		return float64(d[i])
	case []int16:
		return float64(d[i])
	case []int32:
		return float64(d[i])
	case []int64:
		return float64(d[i])
	case []uint8:
		return float64(d[i])
	case []uint16:
		return float64(d[i])
	case []uint32:
		return float64(d[i])
	case []uint64:
		return float64(d[i])
	case []float32:
		return float64(d[i])
	case []float64:
		return d[i]
	}
	panic(fmt.Sprintf("viz: not a typed slice: %T", data))
}

// toFloats converts a typed slice to float64s.
func toFloats(data any) []float64 {
	n := eval.DataLen(data)
	if n < 0 {
		panic(fmt.Sprintf("viz: not a typed slice: %T", data))
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = elemFloat(data, i)
	}
	return out
}
