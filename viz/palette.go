package viz

import (
	"fmt"
	"image/color"
	"sort"
	"strings"
)

// A palette maps t in [0, 1] to a colour by linear interpolation between
// evenly spaced stops.
type palette []color.RGBA

// palettes are the named palettes. viridis and magma are matplotlib's
// perceptually uniform maps sampled at nine points, which is close enough
// for display; hot is the classic black-red-yellow-white.
var palettes = map[string]palette{
	"grey":    {{0, 0, 0, 255}, {255, 255, 255, 255}},
	"viridis": hexes("440154 472d7b 3b528b 2c728e 21918c 28ae80 5ec962 addc30 fde725"),
	"magma":   hexes("000004 1c1044 4f127b 812581 b5367a e55964 fb8761 fec287 fcfdbf"),
	"hot":     hexes("000000 ff0000 ffff00 ffffff"),
}

func hexes(s string) palette {
	var p palette
	for _, h := range strings.Fields(s) {
		var r, g, b uint8
		fmt.Sscanf(h, "%02x%02x%02x", &r, &g, &b)
		p = append(p, color.RGBA{r, g, b, 255})
	}
	return p
}

func lookupPalette(name string) (palette, error) {
	if p, ok := palettes[name]; ok {
		return p, nil
	}
	names := make([]string, 0, len(palettes))
	for n := range palettes {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("unknown palette %q (known: %s)", name, strings.Join(names, ", "))
}

// at is the colour at t, clamped to [0, 1]; NaN is black.
func (p palette) at(t float64) color.RGBA {
	switch {
	case t != t:
		return color.RGBA{0, 0, 0, 255}
	case t <= 0:
		return p[0]
	case t >= 1:
		return p[len(p)-1]
	}
	x := t * float64(len(p)-1)
	i := int(x)
	f := x - float64(i)
	a, b := p[i], p[i+1]
	mix := func(u, v uint8) uint8 { return uint8(float64(u) + f*(float64(v)-float64(u)) + 0.5) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}
