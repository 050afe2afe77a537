package viz

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	gifpalette "image/color/palette"
	"image/draw"
	"image/gif"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/types"
)

// GIF renders a 3-D array, frames outermost, as an animated GIF that
// loops. Each frame follows the conventions of PNG. Options: palette,
// scale, fps (frames per second, default 10).
//
// GIF frames hold at most 256 colours. Grey, boolean and palette frames
// have at most 256 by construction and are coded exactly; ARGB frames
// with more colours are dithered to the web-safe palette.
func GIF(ctx context.Context, t types.Type, vals []eval.Value, opts Options) ([]byte, error) {
	b, err := renderGIF(ctx, t, vals, opts)
	if err != nil {
		return nil, commandErr("video", err)
	}
	return b, nil
}

func renderGIF(ctx context.Context, t types.Type, vals []eval.Value, opts Options) ([]byte, error) {
	if err := opts.check("video", "palette", "scale", "fps"); err != nil {
		return nil, err
	}
	v, err := single(ctx, "video", t, vals, 3)
	if err != nil {
		return nil, err
	}
	fps, err := opts.intOpt("fps", 10, 100)
	if err != nil {
		return nil, err
	}
	r, err := newRenderer(v, opts)
	if err != nil {
		return nil, err
	}
	n, h, w := int(v.Shape[0]), int(v.Shape[1]), int(v.Shape[2])
	scale, err := scaleFor(opts, h, w)
	if err != nil {
		return nil, err
	}
	if int64(n)*int64(h*scale)*int64(w*scale) > maxPixels {
		return nil, fmt.Errorf(":video: %d frames of %d×%d pixels is more than the %d pixels this draws", n, h*scale, w*scale, maxPixels)
	}
	anim := &gif.GIF{LoopCount: 0}
	for k := 0; k < n; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		anim.Image = append(anim.Image, paletted(r.frame(k, h, w, scale)))
		anim.Delay = append(anim.Delay, max(1, 100/fps))
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// paletted converts a frame to GIF's indexed form: exactly when it has at
// most 256 colours, dithered to the web-safe palette otherwise.
func paletted(img *image.RGBA) *image.Paletted {
	index := map[color.RGBA]uint8{}
	var pal color.Palette
	for o := 0; o < len(img.Pix); o += 4 {
		c := color.RGBA{img.Pix[o], img.Pix[o+1], img.Pix[o+2], 255}
		if _, ok := index[c]; ok {
			continue
		}
		if len(pal) == 256 {
			out := image.NewPaletted(img.Bounds(), gifpalette.WebSafe)
			draw.FloydSteinberg.Draw(out, img.Bounds(), img, image.Point{})
			return out
		}
		index[c] = uint8(len(pal))
		pal = append(pal, c)
	}
	out := image.NewPaletted(img.Bounds(), pal)
	for o, p := 0, 0; o < len(img.Pix); o, p = o+4, p+1 {
		out.Pix[p] = index[color.RGBA{img.Pix[o], img.Pix[o+1], img.Pix[o+2], 255}]
	}
	return out
}
