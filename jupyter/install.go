package jupyter

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
)

// kernelSpec is kernel.json.
type kernelSpec struct {
	Argv          []string       `json:"argv"`
	DisplayName   string         `json:"display_name"`
	Language      string         `json:"language"`
	InterruptMode string         `json:"interrupt_mode"`
	Metadata      map[string]any `json:"metadata"`
}

var kernelNameRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// Install writes a kernelspec for the running binary:
//
//	[--user | --sys-prefix | --prefix DIR] [--name NAME] [--display-name TEXT]
//	[--interrupt-mode message|signal]
//
// --user (the default) installs into the user's Jupyter data directory
// (JUPYTER_DATA_DIR when set), --sys-prefix into the active Python
// environment's (VIRTUAL_ENV or CONDA_PREFIX), and --prefix into
// DIR/share/jupyter. The kernelspec's argv is the absolute path of this
// binary followed by `jupyter kernel -f {connection_file}`.
func Install(args []string) error {
	return install(args, os.Stdout)
}

func install(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("arepl jupyter install", flag.ContinueOnError)
	fs.SetOutput(stdout)
	user := fs.Bool("user", false, "install for the current user (the default)")
	sysPrefix := fs.Bool("sys-prefix", false, "install into the active Python environment (VIRTUAL_ENV or CONDA_PREFIX)")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels")
	name := fs.String("name", "arepl", "kernel `NAME` ([A-Za-z0-9._-])")
	display := fs.String("display-name", "arepl (Futhark)", "the name notebooks show")
	mode := fs.String("interrupt-mode", "message", "how clients interrupt a cell: message (interrupt_request on control) or signal (SIGINT)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("arepl jupyter install: unexpected argument %q", fs.Arg(0))
	}
	if !kernelNameRE.MatchString(*name) {
		return fmt.Errorf("arepl jupyter install: kernel name %q: use only letters, digits, '.', '_' and '-'", *name)
	}
	if *mode != "message" && *mode != "signal" {
		return fmt.Errorf("arepl jupyter install: interrupt mode %q: want message or signal", *mode)
	}
	chosen := 0
	for _, b := range []bool{*user, *sysPrefix, *prefix != ""} {
		if b {
			chosen++
		}
	}
	if chosen > 1 {
		return errors.New("arepl jupyter install: choose one of --user, --sys-prefix and --prefix")
	}
	var base string
	switch {
	case *prefix != "":
		base = filepath.Join(*prefix, "share", "jupyter")
	case *sysPrefix:
		p := os.Getenv("VIRTUAL_ENV")
		if p == "" {
			p = os.Getenv("CONDA_PREFIX")
		}
		if p == "" {
			return errors.New("arepl jupyter install: --sys-prefix needs an active Python environment (VIRTUAL_ENV or CONDA_PREFIX)")
		}
		base = filepath.Join(p, "share", "jupyter")
	default:
		d, err := userDataDir()
		if err != nil {
			return err
		}
		base = d
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("arepl jupyter install: finding this binary: %v", err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return err
	}
	dir := filepath.Join(base, "kernels", *name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	spec := kernelSpec{
		Argv:          []string{exe, "jupyter", "kernel", "-f", "{connection_file}"},
		DisplayName:   *display,
		Language:      "futhark",
		InterruptMode: *mode,
		Metadata:      map[string]any{"debugger": false},
	}
	b, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	for _, size := range []int{32, 64} {
		logo, err := logoPNG(size)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("logo-%dx%d.png", size, size)), logo, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "installed kernelspec %s in %s\n", *name, dir)
	return nil
}

// userDataDir is Jupyter's per-user data directory (jupyter_core's
// jupyter_data_dir).
func userDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("arepl jupyter install: %v", err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter"), nil
	case "windows":
		if a := os.Getenv("APPDATA"); a != "" {
			return filepath.Join(a, "jupyter"), nil
		}
		return filepath.Join(home, "AppData", "Roaming", "jupyter"), nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter"), nil
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// logoPNG draws the kernel's logo at size×size: the bars of an inclusive
// scan (1, 3, 6, 10) on a dark tile, the primitive the project is about.
func logoPNG(size int) ([]byte, error) {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	bg := color.NRGBA{0x1f, 0x2a, 0x44, 0xff}
	bar := color.NRGBA{0xf2, 0x9e, 0x2e, 0xff}
	radius := size / 6
	for y := range size {
		for x := range size {
			if insideRounded(x, y, size, radius) {
				img.Set(x, y, bg)
			}
		}
	}
	heights := []int{1, 3, 6, 10}
	margin := size / 8
	gap := size / 16
	w := (size - 2*margin - gap*(len(heights)-1)) / len(heights)
	maxH := size - 2*margin
	for i, h := range heights {
		x0 := margin + i*(w+gap)
		top := size - margin - maxH*h/10
		for y := top; y < size-margin; y++ {
			for x := x0; x < x0+w; x++ {
				img.Set(x, y, bar)
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// insideRounded reports whether pixel (x, y) lies in a size×size square
// with corners rounded by radius r.
func insideRounded(x, y, size, r int) bool {
	cx, cy := x, y
	switch {
	case x < r:
		cx = r
	case x >= size-r:
		cx = size - r - 1
	}
	switch {
	case y < r:
		cy = r
	case y >= size-r:
		cy = size - r - 1
	}
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r*r
}
