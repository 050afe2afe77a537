package commands

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads the sizes of what viz renders
	_ "image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/arepl/arepl/viz"
)

// The picture commands evaluate an expression and show what package viz
// renders of it. In a notebook the picture is inline display data, with a
// text/html copy because nbconvert's HTML export drops image/gif and
// (nbconvert 6) sanitizes image/svg+xml to nothing. A terminal cannot show
// an image, so the REPL (State.Files) writes it to a file under imageDir
// in the current directory, as futhark literate puts foo.fut's pictures in
// foo-img/, named after the input's number unless `file=NAME` says
// otherwise, and prints the path.

// imageDir is where the picture commands write in the REPL.
const imageDir = "arepl-img"

// writePicture writes b under imageDir: as file when the user named it
// (replacing an older one), else as CMD-K.EXT with the first K not taken,
// so a picture never overwrites an earlier unnamed one.
func writePicture(cmd, ext, file string, named bool, b []byte) (string, error) {
	if err := os.MkdirAll(imageDir, 0o755); err != nil {
		return "", err
	}
	if named {
		path := filepath.Join(imageDir, file)
		return path, os.WriteFile(path, b, 0o644)
	}
	for k := 0; k < 100000; k++ {
		path := filepath.Join(imageDir, fmt.Sprintf("%s-%d.%s", cmd, k, ext))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := f.Write(b); err != nil {
			f.Close()
			return "", err
		}
		return path, f.Close()
	}
	return "", fmt.Errorf(":%s: %s holds too many pictures; name this one with file=", cmd, imageDir)
}

func init() {
	Register(
		&Command{Name: "img", Args: "EXPR[; palette=P, scale=N, file=F]",
			Help:    "show a 2-D array as an image ([][]u32 ARGB, [][]f32 grey in [0,1], [][]u8, [][]bool; palette=viridis|magma|hot|grey for scalar data); the REPL writes a PNG file",
			Example: "[[0f32, 0.5], [1, 0.25]]",
			Run: func(ctx context.Context, st *State, arg string) (Reply, error) {
				return picture(ctx, st, "img", "image/png", "png", arg, viz.PNG)
			}},
		&Command{Name: "plot", Args: "EXPR[; style=S, title=T, xlabel=X, ylabel=Y, legend=A|B, file=F]",
			Help:    "chart 1-D series: y, (x, y), a tuple of them, or the rows of a 2-D array; integer arrays (hist) as bars; the REPL writes an SVG file",
			Example: "map (\\i -> f64.i64 (i * i)) (iota 5)",
			Run: func(ctx context.Context, st *State, arg string) (Reply, error) {
				return picture(ctx, st, "plot", "image/svg+xml", "svg", arg, viz.Plot)
			}},
		&Command{Name: "video", Args: "EXPR[; palette=P, scale=N, fps=N, file=F]",
			Help:    "show a 3-D array (frames of 2-D images), or (step, state, n) with step : s -> (image, s), as an animated GIF; the REPL writes a GIF file",
			Example: "[[[0u8, 255]], [[255u8, 0]]]",
			Run: func(ctx context.Context, st *State, arg string) (Reply, error) {
				return picture(ctx, st, "video", "image/gif", "gif", arg, viz.GIF)
			}},
	)
}

// picture evaluates the expression in arg, renders it and shows it.
func picture(ctx context.Context, st *State, cmd, mime, ext, arg string, render viz.Renderer) (Reply, error) {
	expr, opts, err := viz.ParseArg(arg)
	if err != nil {
		return Reply{}, fmt.Errorf(":%s: %w", cmd, err)
	}
	if expr == "" {
		return Reply{}, errors.New(":" + cmd + " needs an expression")
	}
	if src, ok := viz.StepVideo(expr); ok && cmd == "video" {
		expr = src // errors then point into the rewritten loop
	}
	file, named := opts["file"]
	delete(opts, "file")
	if named && (file == "" || strings.ContainsAny(file, `/\`) || strings.HasPrefix(file, ".")) {
		return Reply{}, fmt.Errorf(":%s: file= wants a plain file name, without folders", cmd)
	}
	res, err := st.Sess.Eval(ctx, st.ArgName, expr)
	if err != nil {
		return Reply{}, err
	}
	if res.Type == nil {
		return Reply{}, errors.New(":" + cmd + " needs an expression, not a declaration")
	}
	b, err := render(ctx, res.Type, res.Values, opts)
	if err != nil {
		return Reply{}, err
	}
	if st.Files {
		path, err := writePicture(cmd, ext, file, named, b)
		if err != nil {
			return Reply{}, err
		}
		return Reply{File: path}, nil
	}
	if mime == "image/svg+xml" {
		svg := string(b)
		return Reply{Text: "<chart>", Data: map[string]any{
			"text/html":     `<div class="arepl-plot">` + svg + `</div>`,
			"image/svg+xml": svg,
		}}, nil
	}
	// Rasters: base64 in the HTML copy; the kernel encodes the []byte.
	// Images are drawn pixel-exact, so browsers are asked not to blur them.
	text := "<" + mime + ">"
	if c, _, err := image.DecodeConfig(bytes.NewReader(b)); err == nil {
		text = fmt.Sprintf("<%s %d×%d>", mime, c.Width, c.Height)
	}
	enc := base64.StdEncoding.EncodeToString(b)
	return Reply{Text: text, Data: map[string]any{
		mime:        b,
		"text/html": `<img style="image-rendering:pixelated" src="data:` + mime + `;base64,` + enc + `">`,
	}}, nil
}
