// Command shotcheck checks a headless Chromium screenshot of the example
// notebooks and plan pictures (jupyter/test.sh): one PNG of sections of
// equal height stacked top to bottom, one per page. It checks the
// picture's size, that every section has content (not blank: enough
// pixels that are not the background), and that sections whose page has
// charts, images or plan graphs show colour. Run by jupyter/test.sh:
//
//	go run ./jupyter/testdata/shotcheck SHOT.png WIDTH SECTION_HEIGHT NAME[:colour] ...
package main

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "shotcheck:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 4 {
		return fmt.Errorf("usage: shotcheck SHOT.png WIDTH SECTION_HEIGHT NAME[:colour] ...")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return err
	}
	width, _ := strconv.Atoi(args[1])
	height, _ := strconv.Atoi(args[2])
	names := args[3:]
	b := img.Bounds()
	if b.Dx() != width || b.Dy() != height*len(names) {
		return fmt.Errorf("screenshot is %dx%d, want %dx%d (%d sections of %d)", b.Dx(), b.Dy(), width, height*len(names), len(names), height)
	}
	var bad []string
	for i, n := range names {
		name, wantColour := strings.CutSuffix(n, ":colour")
		ink, colour := measure(img, image.Rect(0, i*height, width, (i+1)*height))
		fmt.Printf("%-28s %5.2f%% drawn, %5.3f%% in colour\n", name, 100*ink, 100*colour)
		if ink < 0.01 {
			bad = append(bad, fmt.Sprintf("%s is blank (%.3f%% drawn)", name, 100*ink))
		}
		if wantColour && colour < 0.002 {
			bad = append(bad, fmt.Sprintf("%s shows no charts or pictures (%.4f%% in colour)", name, 100*colour))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}

// measure returns the fractions of r's pixels that are not near white
// (text, lines, fills) and that are coloured (not grey: charts, images,
// plan graphs' kernel colours).
func measure(img image.Image, r image.Rectangle) (ink, colour float64) {
	var n, drawn, coloured int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			r8, g8, b8 := int(cr>>8), int(cg>>8), int(cb>>8)
			n++
			if r8 < 235 || g8 < 235 || b8 < 235 {
				drawn++
			}
			hi, lo := max(r8, g8, b8), min(r8, g8, b8)
			if hi-lo > 40 {
				coloured++
			}
		}
	}
	return float64(drawn) / float64(n), float64(coloured) / float64(n)
}
