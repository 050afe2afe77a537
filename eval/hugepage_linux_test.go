package eval

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/arepl/arepl/lang/core"
)

// TestMakeSliceHugePageHint checks that a large slice from MakeSlice lies,
// at least in part, on transparent huge pages where the system grants them
// on request.
func TestMakeSliceHugePageHint(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !(strings.Contains(string(mode), "[madvise]") || strings.Contains(string(mode), "[always]")) {
		t.Logf("transparent huge pages are off here (%q, %v): the hint is a no-op", mode, err)
		return
	}
	xs := MakeSlice(core.I32, 16<<20).([]int32) // 64 MiB
	for i := range xs {
		xs[i] = int32(i)
	}
	kb, ok := hugeKBAt(t, uintptr(unsafe.Pointer(&xs[len(xs)/2])))
	if !ok {
		t.Log("this kernel has no /proc/self/smaps: the pages cannot be observed")
		return
	}
	if kb == 0 {
		t.Error("the mapping that holds a 64 MiB MakeSlice has no huge pages: the hint did not take")
	}
}

// hugeKBAt is the AnonHugePages (kB) of the mapping of this process that
// contains addr (ok false where the kernel does not report it).
func hugeKBAt(t *testing.T, addr uintptr) (kb int, ok bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if lo, hi, found := strings.Cut(fields[0], "-"); found && !strings.HasSuffix(fields[0], ":") {
			a, errA := strconv.ParseUint(lo, 16, 64)
			b, errB := strconv.ParseUint(hi, 16, 64)
			in = errA == nil && errB == nil && uint64(addr) >= a && uint64(addr) < b
			continue
		}
		if in && fields[0] == "AnonHugePages:" && len(fields) >= 2 {
			n, err := strconv.Atoi(fields[1])
			if err != nil {
				t.Fatalf("smaps: %q", sc.Text())
			}
			return n, true
		}
	}
	t.Fatalf("no mapping of this process holds %#x", addr)
	return 0, false
}
