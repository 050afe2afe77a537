package cuda

import (
	"strings"
	"testing"
)

// TestOpen checks both outcomes: on a machine without a driver Open fails
// with a *NoGPUError whose text starts "no GPU: "; with one, the properties
// read from the device are plausible.
func TestOpen(t *testing.T) {
	g, err := Open()
	if err != nil {
		if _, ok := err.(*NoGPUError); !ok || !strings.HasPrefix(err.Error(), "no GPU: ") {
			t.Fatalf("Open without a GPU: got %T %q, want *NoGPUError starting \"no GPU: \"", err, err)
		}
		return
	}
	p := g.Props()
	if p.SMs <= 0 || p.WarpSize != 32 || p.MaxThreadsPerBlock < 256 || p.SharedPerBlock <= 0 || p.RegsPerBlock <= 0 {
		t.Fatalf("implausible device properties: %+v", p)
	}
	t.Logf("device: %+v", p)
}

func TestPackArg(t *testing.T) {
	cases := []struct {
		arg  any
		want uint64
	}{
		{int32(-1), 0xffffffff},
		{int64(-1), 0xffffffffffffffff},
		{Ptr(0x1234), 0x1234},
		{uint8(200), 200},
		{true, 1},
		{float32(1), 0x3f800000},
		{float64(1), 0x3ff0000000000000},
	}
	for _, c := range cases {
		var got uint64
		if err := packArg(&got, c.arg); err != nil || got != c.want {
			t.Errorf("packArg(%T %v) = %#x, %v; want %#x", c.arg, c.arg, got, err, c.want)
		}
	}
	var v uint64
	if err := packArg(&v, "x"); err == nil {
		t.Error("packArg(string): want an error")
	}
}
