package jupyter

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // for image.DecodeConfig
	_ "image/png"

	"github.com/arepl/arepl/viz"
)

// The picture commands show what viz renders inline, as display_data.
// Each bundle carries a text/html copy besides the image's own type:
// nbconvert's HTML export drops image/gif and (nbconvert 6) sanitizes
// image/svg+xml to nothing, while every front end renders the HTML.

// vizCommands are the picture commands, appended to the command table.
func vizCommands() []command {
	return []command{
		{"img", "EXPR[; palette=P, scale=N]", "show a 2-D array as an image ([][]u32 ARGB, [][]f32 grey in [0,1], [][]u8, [][]bool; palette=viridis|magma|hot|grey for scalar data)", (*evaluator).cmdImg},
		{"plot", "EXPR[; style=S, title=T, xlabel=X, ylabel=Y, legend=A|B]", "chart 1-D series: y, (x, y), a tuple of them, or the rows of a 2-D array; integer arrays (hist) as bars", (*evaluator).cmdPlot},
		{"video", "EXPR[; palette=P, scale=N, fps=N]", "show a 3-D array (frames of 2-D images), or (step, state, n) with step : s -> (image, s), as an animated GIF", (*evaluator).cmdVideo},
	}
}

// render evaluates the expression in arg and renders it.
func (e *evaluator) render(ctx context.Context, cmd, arg string, r viz.Renderer) ([]byte, error) {
	expr, opts, err := viz.ParseArg(arg)
	if err != nil {
		return nil, commandError(fmt.Sprintf(":%s: %v", cmd, err))
	}
	if expr == "" {
		return nil, commandError(":" + cmd + " needs an expression")
	}
	if src, ok := viz.StepVideo(expr); ok && cmd == "video" {
		expr = src // errors then point into the rewritten loop
	}
	res, err := e.s.Eval(ctx, argSource, expr)
	if err != nil {
		return nil, err
	}
	if res.Type == nil {
		return nil, commandError(":" + cmd + " needs an expression, not a declaration")
	}
	b, err := r(ctx, res.Type, res.Values, opts)
	if err != nil {
		return nil, commandError(err.Error())
	}
	return b, nil
}

func (e *evaluator) cmdImg(ctx context.Context, arg string, out output) error {
	b, err := e.render(ctx, "img", arg, viz.PNG)
	if err != nil {
		return err
	}
	out.display(rasterBundle("image/png", b))
	return nil
}

func (e *evaluator) cmdVideo(ctx context.Context, arg string, out output) error {
	b, err := e.render(ctx, "video", arg, viz.GIF)
	if err != nil {
		return err
	}
	out.display(rasterBundle("image/gif", b))
	return nil
}

func (e *evaluator) cmdPlot(ctx context.Context, arg string, out output) error {
	b, err := e.render(ctx, "plot", arg, viz.Plot)
	if err != nil {
		return err
	}
	svg := string(b)
	out.display(bundle{
		"text/plain":    "<chart>",
		"text/html":     `<div class="arepl-plot">` + svg + `</div>`,
		"image/svg+xml": svg,
	})
	return nil
}

// rasterBundle is an image in Jupyter's form for binary types (base64),
// with an <img> copy for HTML exports. Images are drawn pixel-exact, so
// browsers are asked not to blur them when they scale.
func rasterBundle(mime string, b []byte) bundle {
	enc := base64.StdEncoding.EncodeToString(b)
	text := "<" + mime + ">"
	if c, _, err := image.DecodeConfig(bytes.NewReader(b)); err == nil {
		text = fmt.Sprintf("<%s %d×%d>", mime, c.Width, c.Height)
	}
	return bundle{
		"text/plain": text,
		mime:         enc,
		"text/html":  `<img style="image-rendering:pixelated" src="data:` + mime + `;base64,` + enc + `">`,
	}
}
