package gpu

import (
	"fmt"
	"strings"
	"testing"
)

// TestScanTraceVariant: every scan kernel has an instrumented variant for
// `:trace` that is the kernel plus its phase marks, in order, and the
// kernel itself carries none (its goldens are unchanged); filters have
// no variant. The variant compiles and runs on the device (bench/gpu
// trace run, bench/RESULTS.md).
func TestScanTraceVariant(t *testing.T) {
	for _, p := range scanProgs() {
		t.Run(p.name, func(t *testing.T) {
			prog := p.build()
			m, err := genScan(prog, scanStmtOf(t, prog), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(m.body, "AR_TRACE") {
				t.Error("the plain kernel has trace marks")
			}
			if m.k.Mode == scanFilter {
				if m.traceBody != "" {
					t.Error("a filter has a trace variant")
				}
				return
			}
			marks := []string{"AR_TRACE_START();"}
			for k := 1; k <= 6; k++ {
				marks = append(marks, fmt.Sprintf("AR_TRACE_MARK(%d);", k))
			}
			marks = append(marks, "AR_TRACE_END();")
			rest := m.traceBody
			for _, mk := range marks {
				i := strings.Index(rest, mk)
				if i < 0 {
					t.Fatalf("variant lacks %s (or has it out of order)", mk)
				}
				rest = rest[i+len(mk):]
			}
			strip := m.traceBody
			for _, mk := range marks {
				strip = strings.Replace(strip, "\n  "+mk, "", 1)
			}
			if strip != m.body {
				t.Error("the variant differs from the kernel by more than its marks")
			}
		})
	}
}
