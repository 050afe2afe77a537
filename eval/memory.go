package eval

// The memory budget. A session's values and the arrays an evaluation
// builds all live in this process's heap, so the budget is a bound on that
// heap: before a large allocation, Reserve compares the heap's live bytes
// plus the request with the limit, collects garbage once if that is over
// it, and refuses the allocation with a MemoryError if it still is. The
// session's values are counted because they are in the heap, the running
// evaluation's intermediates because they are too; garbage is not,
// because it is collected before anything is refused. The limit is also
// the Go runtime's soft memory limit, so the collector works to stay below
// it. The default is a fraction of physical memory, lowered to fit an
// address-space limit (ulimit -v) with room for the runtime's overhead.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// reserveMin is the smallest request Reserve checks: below it reading the
// heap's size would cost more than the allocation, and many small
// allocations still meet the check at the next large one.
const reserveMin = 1 << 20

// memoryLimit is the budget, 0 until first asked for; it is read on
// every column the CPU backend allocates, so it is an atomic.
var (
	memoryLimit atomic.Int64
	memoryInit  sync.Once
)

// MemoryError is an allocation refused by the budget.
type MemoryError struct {
	Request, Live, Limit int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("out of memory budget: %s needed with %s in use, over the limit of %s (set it with :set memory or --memory)",
		FormatBytes(e.Request), FormatBytes(e.Live), FormatBytes(e.Limit))
}

// MemoryLimit is the budget in bytes.
func MemoryLimit() int64 {
	if n := memoryLimit.Load(); n > 0 {
		return n
	}
	memoryInit.Do(func() {
		if memoryLimit.Load() == 0 {
			SetMemoryLimit(0)
		}
	})
	return memoryLimit.Load()
}

// SetMemoryLimit sets the budget; n <= 0 restores the default.
func SetMemoryLimit(n int64) {
	if n <= 0 {
		n = DefaultMemoryLimit()
	}
	memoryLimit.Store(n)
	debug.SetMemoryLimit(n)
}

// DefaultMemoryLimit is three quarters of physical memory, or half the
// address-space limit when that is lower (a Go process maps more than its
// heap), and 4 GiB when neither is known.
func DefaultMemoryLimit() int64 {
	limit := int64(4 << 30)
	if total := physicalMemory(); total > 0 {
		limit = total / 4 * 3
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur != ^uint64(0) && rl.Cur < 1<<62 {
		limit = min(limit, int64(rl.Cur/2))
	}
	return limit
}

// physicalMemory is MemTotal of /proc/meminfo in bytes, 0 when unknown.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// heapLive is the bytes of the heap's objects, live or not yet collected.
func heapLive() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// Reserve checks that n more bytes fit the budget; it returns a
// *MemoryError if they do not.
func Reserve(n int64) error {
	limit := MemoryLimit()
	if n < 0 || n > limit {
		return &MemoryError{Request: n, Live: heapLive(), Limit: limit}
	}
	if n < reserveMin {
		return nil
	}
	if live := heapLive(); live+n <= limit {
		return nil
	}
	runtime.GC()
	if live := heapLive(); live+n > limit {
		return &MemoryError{Request: n, Live: live, Limit: limit}
	}
	return nil
}

// ReserveArray is Reserve for an array of the given element type and
// shape, which must also be a valid shape (CheckShape).
func ReserveArray(t core.PrimType, shape []int64) error {
	if err := CheckShape(shape); err != nil {
		return err
	}
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	size := int64(t.Size())
	if n > (1<<63-1)/size {
		return &MemoryError{Request: -1, Live: heapLive(), Limit: MemoryLimit()}
	}
	return Reserve(n * size)
}

// FormatBytes writes n in the largest binary unit that keeps it at least 1
// ("1.5 GiB").
func FormatBytes(n int64) string {
	if n < 0 {
		return "more than 8 EiB"
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return strconv.FormatFloat(f, 'g', 4, 64) + " " + units[u]
}

// ParseBytes reads a size such as 16GiB, 512 MiB, 2G, 1e9 or 123456.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == ' ' })
	unit := strings.ToLower(strings.TrimSpace(t[len(num):]))
	mult := map[string]float64{
		"": 1, "b": 1,
		"k": 1 << 10, "kb": 1e3, "kib": 1 << 10,
		"m": 1 << 20, "mb": 1e6, "mib": 1 << 20,
		"g": 1 << 30, "gb": 1e9, "gib": 1 << 30,
		"t": 1 << 40, "tb": 1e12, "tib": 1 << 40,
	}[unit]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || f <= 0 || f*mult >= 1<<63 {
		return 0, fmt.Errorf("%q is not a size in bytes (e.g. 16GiB, 512MiB)", s)
	}
	return int64(f * mult), nil
}

// ReadAllLimited reads r to the end, refusing more than max bytes and
// stopping when ctx is cancelled (a read that blocks is left behind).
// name says what is read, for the errors.
func ReadAllLimited(ctx context.Context, r io.Reader, max int64, name string) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	stop := make(chan struct{})
	go func() {
		var b []byte
		buf := make([]byte, 1<<20)
		for {
			select {
			case <-stop:
				done <- result{nil, context.Canceled}
				return
			default:
			}
			n, err := r.Read(buf)
			if int64(len(b))+int64(n) > max {
				done <- result{nil, source.Errorf(source.Pos{File: name, Line: 1, Col: 1},
					"input longer than %s, the most arepl reads (a source file may have 64 MiB; values half the memory budget)", FormatBytes(max))}
				return
			}
			b = append(b, buf[:n]...)
			if err == io.EOF {
				done <- result{b, nil}
				return
			}
			if err != nil {
				done <- result{nil, err}
				return
			}
		}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-ctx.Done():
		close(stop)
		return nil, ctx.Err()
	}
}

// MaxSourceBytes bounds a source file or connection file read.
const MaxSourceBytes = 64 << 20

// ReadFileLimited reads the file at path, refusing more than max bytes
// (/dev/zero never ends) and stopping when ctx is cancelled.
func ReadFileLimited(ctx context.Context, path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAllLimited(ctx, f, max, path)
}
