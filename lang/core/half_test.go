package core

import (
	"math"
	"strconv"
	"testing"
)

// TestHalfRoundTrip: every one of the 65536 halves converts to float32 and
// back to the same bits (NaNs to a NaN), and the float32 values of the
// finite halves are strictly increasing in the order of their bits.
func TestHalfRoundTrip(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := uint16(b)
		f := HalfFloat(h)
		got := HalfBits(float64(f))
		if f != f {
			if got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
				t.Fatalf("NaN %#04x came back as %#04x", h, got)
			}
			continue
		}
		if got != h {
			t.Fatalf("%#04x -> %v -> %#04x", h, f, got)
		}
	}
	prev := float32(0)
	for b := 1; b < 0x7c00; b++ {
		f := HalfFloat(uint16(b))
		if !(f > prev) {
			t.Fatalf("%#04x = %v is not above %v", b, f, prev)
		}
		prev = f
	}
	if HalfFloat(0x7bff) != 65504 || HalfFloat(0x0001) != float32(math.Ldexp(1, -24)) || HalfFloat(0x3c00) != 1 {
		t.Fatal("max, smallest subnormal or one is wrong")
	}
}

// TestHalfRoundingTies: the midpoint between two adjacent halves rounds to
// the one with an even fraction, and anything off the midpoint to the
// nearer one, across subnormals, normals and the overflow to inf.
func TestHalfRoundingTies(t *testing.T) {
	for b := 0; b < 0x7c00; b++ {
		lo, hi := float64(HalfFloat(uint16(b))), 0.0
		if b == 0x7bff {
			hi = 65536 // the next binade's first value: above it is inf
		} else {
			hi = float64(HalfFloat(uint16(b + 1)))
		}
		mid := (lo + hi) / 2
		even := uint16(b)
		if b&1 == 1 {
			even = uint16(b + 1)
		}
		if got := HalfBits(mid); got != even {
			t.Fatalf("midpoint %v of %#04x and next: got %#04x want %#04x", mid, b, got, even)
		}
		if got := HalfBits(-mid); got != even|0x8000 {
			t.Fatalf("midpoint %v: got %#04x want %#04x", -mid, got, even|0x8000)
		}
		below, above := math.Nextafter(mid, lo), math.Nextafter(mid, hi)
		if got := HalfBits(below); got != uint16(b) {
			t.Fatalf("just below midpoint %v: got %#04x want %#04x", below, got, b)
		}
		if got := HalfBits(above); got != uint16(b+1) {
			t.Fatalf("just above midpoint %v: got %#04x want %#04x", above, got, b+1)
		}
	}
	for _, c := range []struct {
		f    float64
		want uint16
	}{
		{65519.99, 0x7bff}, {65520, 0x7c00}, {1e10, 0x7c00}, {-1e10, 0xfc00},
		{math.Inf(1), 0x7c00}, {math.Inf(-1), 0xfc00}, {math.Copysign(0, -1), 0x8000},
		{math.Ldexp(1, -25), 0}, {math.Nextafter(math.Ldexp(1, -25), 1), 1}, {1e-30, 0},
		{0.1, 0x2e66}, {1.3333333333333, 0x3d55}, {NaN(), 0x7e00},
	} {
		if got := HalfBits(c.f); got != c.want {
			t.Errorf("HalfBits(%v) = %#04x, want %#04x", c.f, got, c.want)
		}
	}
}

// TestFormatHalf: the shortest text that reads back as the same half.
func TestFormatHalf(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{{RoundHalf(0.1), "0.1"}, {1.5, "1.5"}, {65504, "65504"}, {RoundHalf(1.0 / 3), "0.3333"}, {HalfFloat64(1), "6e-08"}} {
		if got := FormatHalf(c.f); got != c.want {
			t.Errorf("FormatHalf(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	for b := 0; b < 0x7c00; b++ {
		f := float64(HalfFloat(uint16(b)))
		v, err := strconv.ParseFloat(FormatHalf(f), 64)
		if err != nil || HalfBits(v) != uint16(b) {
			t.Fatalf("%#04x: %q does not read back", b, FormatHalf(f))
		}
	}
}

func HalfFloat64(h uint16) float64 { return float64(HalfFloat(h)) }

// TestRoundHalf32: the float32 rounding agrees with HalfBits at every
// midpoint between halves, one float32 step either side of it, and on a
// sweep of float32 bit patterns.
func TestRoundHalf32(t *testing.T) {
	check := func(f float32) {
		want := HalfFloat(HalfBits(float64(f)))
		got := RoundHalf32(f)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("RoundHalf32(%v = %#08x) = %v, want %v", f, math.Float32bits(f), got, want)
		}
	}
	for b := 0; b < 0x7c00; b++ {
		lo := HalfFloat(uint16(b))
		hi := float32(65536)
		if b < 0x7bff {
			hi = HalfFloat(uint16(b + 1))
		}
		mid := (lo + hi) / 2 // exact: 12 significant bits
		for _, f := range []float32{lo, mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, 1e9)} {
			check(f)
			check(-f)
		}
	}
	for b := uint64(0); b < 1<<32; b += 4093 {
		check(math.Float32frombits(uint32(b)))
	}
}
