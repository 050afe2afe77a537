package eval

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Timings of a run over several devices (eval/shard): its kernel rows are
// named "devN kernel" and its collectives "name (N ranks)". perDevice
// sums them per device and lists the collectives with their time and bus
// bandwidth, for the REPL's :time line; empty for a one-device run.
func perDevice(t Timings) string {
	type dev struct {
		n    int
		time time.Duration
	}
	devs := map[string]*dev{}
	var colls []string
	for _, k := range t.Kernels {
		name, _, ok := strings.Cut(k.Name, " ")
		if ok && strings.HasPrefix(name, "dev") && len(name) > 3 && name[3] >= '0' && name[3] <= '9' {
			d := devs[name]
			if d == nil {
				d = &dev{}
				devs[name] = d
			}
			d.n++
			d.time += k.Time
			continue
		}
		if strings.Contains(k.Name, " ranks)") {
			colls = append(colls, fmt.Sprintf("%s %s", k.Name, fmtDuration(k.Time)))
		}
	}
	if len(devs) < 2 && len(colls) == 0 {
		return ""
	}
	names := make([]string, 0, len(devs))
	for n := range devs {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return len(names[i]) < len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
	})
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %s", n, fmtDuration(devs[n].time)))
	}
	parts = append(parts, colls...)
	for _, n := range t.Notes {
		if strings.Contains(n, "bus bandwidth") {
			_, bw, _ := strings.Cut(n, "bus bandwidth ")
			parts = append(parts, "bus "+bw)
			break
		}
	}
	return "; kernels per device: " + strings.Join(parts, ", ")
}
