package main

import (
	"bytes"
	"encoding/xml"
	"image/gif"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPictureFiles runs the REPL on picture commands and decodes the files
// it says it wrote: their size and pixels come from the expressions.
func TestPictureFiles(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "XDG_STATE_HOME="+dir, "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		// Row i, column j: red 0x10*i, green 0x20*j.
		`:img map (\i -> map (\j -> u32.i64 (i * 0x100000 + j * 0x2000)) (iota 3)) (iota 2); scale=1`,
		`:img [[0f32, 0.5], [1, 2]]; scale=3, file=grey.png`,
		`:video map (\k -> map (\j -> j == k) (iota 3)) (iota 3) |> map (\r -> [r]); scale=1, fps=5`,
		`:plot (map f64.i64 (iota 5), map (\i -> f64.i64 (i * i)) (iota 5)); title=squares`,
		`:img iota 3`,
		`def step (s: i64) : ([][]u8, i64) = ([[u8.i64 s, 0], [0, 0]], s + 100)`,
		`:video (step, 5, 3); scale=1`,
	}, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if got := stdout.String(); got != "wrote arepl-img/img-0.png\nwrote arepl-img/grey.png\nwrote arepl-img/video-0.gif\nwrote arepl-img/plot-0.svg\nwrote arepl-img/video-1.gif\n" {
		t.Fatalf("stdout %q (stderr %q)", got, stderr.String())
	}
	if err == nil || !strings.Contains(stderr.String(), ":img wants a 2-D array of u32, i32, f32, f64, u8 or bool, not [3]i64") {
		t.Errorf("a 1-D :img: status %v, stderr %q", err, stderr.String())
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, "arepl-img", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	img, err := png.Decode(bytes.NewReader(read("img-0.png")))
	if err != nil {
		t.Fatal(err)
	}
	if s := img.Bounds().Size(); s.X != 3 || s.Y != 2 {
		t.Fatalf("img-0.png is %v, want 3×2", s)
	}
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			r, g, b, a := img.At(j, i).RGBA()
			if r>>8 != uint32(0x10*i) || g>>8 != uint32(0x20*j) || b != 0 || a != 0xffff {
				t.Errorf("img-0.png (%d,%d) = %x %x %x %x", j, i, r>>8, g>>8, b>>8, a>>8)
			}
		}
	}

	grey, err := png.Decode(bytes.NewReader(read("grey.png")))
	if err != nil {
		t.Fatal(err)
	}
	if s := grey.Bounds().Size(); s.X != 6 || s.Y != 6 {
		t.Fatalf("grey.png is %v, want 6×6", s)
	}
	for _, c := range []struct{ x, y, want int }{{0, 0, 0}, {5, 0, 128}, {0, 5, 255}, {5, 5, 255}} {
		if r, _, _, _ := grey.At(c.x, c.y).RGBA(); int(r>>8) != c.want {
			t.Errorf("grey.png (%d,%d) = %d, want %d", c.x, c.y, r>>8, c.want)
		}
	}

	g, err := gif.DecodeAll(bytes.NewReader(read("video-0.gif")))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 || g.Config.Width != 3 || g.Config.Height != 1 {
		t.Fatalf("video-0.gif: %d frames of %d×%d, want 3 of 3×1", len(g.Image), g.Config.Width, g.Config.Height)
	}
	for k, f := range g.Image {
		for j := 0; j < 3; j++ {
			r, _, _, _ := f.At(j, 0).RGBA()
			if want := j == k; (r>>8 == 255) != want {
				t.Errorf("frame %d pixel %d = %d, want white %v", k, j, r>>8, want)
			}
		}
		if g.Delay[k] != 20 {
			t.Errorf("frame %d delay %d, want 20", k, g.Delay[k])
		}
	}

	// (step, state, n): frame k's first pixel is 5 + 100k.
	g, err = gif.DecodeAll(bytes.NewReader(read("video-1.gif")))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 || g.Config.Width != 2 || g.Config.Height != 2 {
		t.Fatalf("video-1.gif: %d frames of %d×%d, want 3 of 2×2", len(g.Image), g.Config.Width, g.Config.Height)
	}
	for k, f := range g.Image {
		if r, _, _, _ := f.At(0, 0).RGBA(); int(r>>8) != 5+100*k {
			t.Errorf("video-1.gif frame %d: grey %d, want %d", k, r>>8, 5+100*k)
		}
	}

	var svg struct {
		XMLName xml.Name `xml:"svg"`
		Width   string   `xml:"width,attr"`
	}
	plot := read("plot-0.svg")
	if err := xml.Unmarshal(plot, &svg); err != nil || svg.Width != "432pt" || !bytes.Contains(plot, []byte("squares")) {
		t.Errorf("plot-0.svg: %v, width %q", err, svg.Width)
	}
}
