package eval

import (
	"os"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// TestMakeSliceHugePageHint checks that a large slice from MakeSlice ends
// up, at least in part, on transparent huge pages where the system allows
// them on request, and that small ones are left alone.
func TestMakeSliceHugePageHint(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !(strings.Contains(string(mode), "[madvise]") || strings.Contains(string(mode), "[always]")) {
		t.Logf("transparent huge pages are off here (%q, %v): the hint is a no-op", mode, err)
		return
	}
	before, ok := anonHuge(t)
	if !ok {
		t.Log("this kernel has no /proc/self/smaps_rollup: the pages cannot be observed")
		return
	}
	xs := MakeSlice(core.I32, 16<<20).([]int32) // 64 MiB
	for i := range xs {
		xs[i] = int32(i)
	}
	if after, _ := anonHuge(t); after <= before {
		t.Errorf("AnonHugePages %d kB before and %d kB after a 64 MiB MakeSlice: the hint did not take", before, after)
	}
	_ = MakeSlice(core.I32, 100) // below hugeHintBytes: no madvise (nothing to observe, must not fail)
}

// anonHuge is the process' AnonHugePages in kB (ok false where the kernel
// does not report it).
func anonHuge(t *testing.T) (kb int, ok bool) {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "AnonHugePages:"); ok {
			for _, c := range strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")) {
				kb = kb*10 + int(c-'0')
			}
			return kb, true
		}
	}
	t.Fatal("no AnonHugePages line in smaps_rollup")
	return 0, false
}
