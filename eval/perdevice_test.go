package eval

import (
	"strings"
	"testing"
	"time"
)

func TestFormatTimingsPerDevice(t *testing.T) {
	tm := Timings{Total: time.Millisecond, Kernels: []KernelTiming{
		{Name: "dev0 redomap", Time: 300 * time.Microsecond},
		{Name: "dev1 redomap", Time: 310 * time.Microsecond},
		{Name: "dev10 redomap", Time: 1 * time.Microsecond},
		{Name: "ncclAllReduce (2 ranks)", Time: 40 * time.Microsecond, Bytes: 4},
	}, Notes: []string{"ncclAllReduce (2 ranks): 4 B in 40µs, bus bandwidth 0.00 GB/s"}}
	got := FormatTimings(tm)
	want := "; kernels per device: dev0 300µs, dev1 310µs, dev10 1µs, ncclAllReduce (2 ranks) 40µs, bus 0.00 GB/s"
	if !strings.HasSuffix(got, want) {
		t.Errorf("FormatTimings = %q, want it to end %q", got, want)
	}
	one := Timings{Total: time.Millisecond, Kernels: []KernelTiming{{Name: "redomap", Time: time.Microsecond}}}
	if s := FormatTimings(one); strings.Contains(s, "per device") {
		t.Errorf("one device's timings mention devices: %q", s)
	}
}
