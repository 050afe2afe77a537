package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/arepl/arepl/viz"
)

// The picture commands evaluate an expression and write what viz renders
// of it to a file, printing the path: a terminal cannot show an image,
// but every terminal user has a viewer. Files go to imageDir in the
// current directory (as futhark literate puts foo.fut's in foo-img/),
// named by input number unless `file=NAME` says otherwise.

// imageDir is where the picture commands write.
const imageDir = "arepl-img"

// vizCommands are the picture commands, appended to the command table.
func vizCommands() []replCommand {
	return []replCommand{
		{"img", "EXPR[; palette=P, scale=N, file=F]", "write a 2-D array as a PNG image and print its path", func(r *repl, ctx context.Context, arg string) error {
			return r.picture(ctx, "img", "png", arg, viz.PNG)
		}},
		{"plot", "EXPR[; style=S, title=T, xlabel=X, ylabel=Y, legend=A|B, file=F]", "write 1-D series (y, (x, y), a tuple of them, or the rows of a 2-D array) as an SVG chart and print its path", func(r *repl, ctx context.Context, arg string) error {
			return r.picture(ctx, "plot", "svg", arg, viz.Plot)
		}},
		{"video", "EXPR[; palette=P, scale=N, fps=N, file=F]", "write a 3-D array of frames, or (step, state, n) with step : s -> (image, s), as an animated GIF", func(r *repl, ctx context.Context, arg string) error {
			return r.picture(ctx, "video", "gif", arg, viz.GIF)
		}},
	}
}

// picture evaluates the expression in arg, renders it and writes the file.
func (r *repl) picture(ctx context.Context, cmd, ext, arg string, render viz.Renderer) error {
	expr, opts, err := viz.ParseArg(arg)
	if err != nil {
		return fmt.Errorf(":%s: %w", cmd, err)
	}
	if expr == "" {
		return fmt.Errorf(":%s needs an expression", cmd)
	}
	if src, ok := viz.StepVideo(expr); ok && cmd == "video" {
		expr = src
	}
	file, named := opts["file"]
	delete(opts, "file")
	name := r.inputName()
	r.n++
	res, err := r.sess.Eval(ctx, name, expr)
	if err != nil {
		return err
	}
	if res.Type == nil {
		return fmt.Errorf(":%s needs an expression, not a declaration", cmd)
	}
	data, err := render(ctx, res.Type, res.Values, opts)
	if err != nil {
		return err
	}
	if !named {
		file = fmt.Sprintf("%s-%d.%s", cmd, r.n-1, ext)
	}
	if file == "" || strings.ContainsAny(file, `/\`) || strings.HasPrefix(file, ".") {
		return fmt.Errorf(":%s: file= wants a plain file name, without folders", cmd)
	}
	if err := os.MkdirAll(imageDir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(imageDir, file)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintln(r.out, path)
	return nil
}
