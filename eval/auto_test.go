package eval

import (
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// TestAutoChoice: under auto, small host inputs stay on the CPU with the
// reason given, while large inputs, large constant widths and inputs
// already on the device go to the GPU.
func TestAutoChoice(t *testing.T) {
	iota := func(n int64) *core.Program {
		b := core.NewBuilder()
		return &core.Program{Funs: []*core.Fun{b.Fun("main", true, nil, func(fb *core.Builder) []core.Atom {
			return []core.Atom{fb.Iota(core.IntConst(core.I64, n), core.I64)}
		})}}
	}
	small := NewArray(core.I32, 1000)
	large := NewArray(core.I32, HostInputMinElements)
	medium := NewArray(core.I32, 1<<20)
	dev := Value{Elem: core.I32, Shape: []int64{10}, Dev: fakeDevice{[]int32{}}}
	cases := []struct {
		name string
		prog *core.Program
		args []Value
		gpu  bool
	}{
		{"small input", iota(10), []Value{small}, false},
		{"large input", iota(10), []Value{large}, true},
		{"medium host input", iota(10), []Value{medium}, false},
		{"large iota", iota(1 << 20), nil, true},
		{"scalar work", iota(3), nil, false},
		{"on the device", iota(3), []Value{dev}, true},
	}
	for _, c := range cases {
		gpu, why := autoChoice(c.prog, c.args, DefaultGPUMinElements)
		if gpu != c.gpu || !gpu && !strings.HasPrefix(why, "auto: ") {
			t.Errorf("%s: gpu %v (%q), want %v with a reason", c.name, gpu, why, c.gpu)
		}
	}
}
