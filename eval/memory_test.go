package eval

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/lang/core"
)

// TestReserve checks the budget: a request over the limit is refused, one
// under it passes, and values alive in the heap count against it (issue
// 14, item 11: the cap was per array).
func TestReserve(t *testing.T) {
	old := MemoryLimit()
	defer SetMemoryLimit(old)
	SetMemoryLimit(64 << 20)
	if err := Reserve(40 << 20); err != nil {
		t.Fatalf("40 MiB of 64: %v", err)
	}
	held := NewArray(core.I64, 5<<20) // 40 MiB alive
	var me *MemoryError
	if err := Reserve(40 << 20); !errors.As(err, &me) {
		t.Errorf("40 MiB more beside 40 MiB alive in 64: %v", err)
	}
	if err := ReserveArray(core.I64, []int64{1 << 62, 4}); err == nil {
		t.Error("an array of 2^64 elements fits the budget")
	}
	_ = held.Data.([]int64)[0]
}

func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{"16GiB": 16 << 30, "512 MiB": 512 << 20, "2G": 2 << 30, "1e9": 1e9, "1.5gb": 1.5e9, "4096": 4096} {
		if got, err := ParseBytes(s); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "lots", "-1GiB", "0", "16 parsecs", "1e30"} {
		if _, err := ParseBytes(s); err == nil {
			t.Errorf("ParseBytes(%q) succeeded", s)
		}
	}
	if got := FormatBytes(16 << 30); got != "16 GiB" {
		t.Errorf("FormatBytes(16 GiB) = %q", got)
	}
}

// TestReadFileLimited reads /dev/zero, which never ends (issue 14, item
// 10): the read stops at the bound with a positioned error.
func TestReadFileLimited(t *testing.T) {
	_, err := ReadFileLimited(context.Background(), "/dev/zero", 1<<20)
	if err == nil || !strings.HasPrefix(err.Error(), "/dev/zero:1:1: input longer than 1 MiB") {
		t.Errorf("reading /dev/zero: %v", err)
	}
}

// blockingReader never returns from Read until released.
type blockingReader struct{ release chan struct{} }

func (b blockingReader) Read(p []byte) (int, error) {
	<-b.release
	return 0, io.EOF
}

// TestReadAllLimitedCancel checks that cancelling stops a read that
// blocks (Ctrl-C while reading a pipe).
func TestReadAllLimitedCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := blockingReader{release: make(chan struct{})}
	defer close(r.release)
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	done := make(chan error, 1)
	go func() {
		_, err := ReadAllLimited(ctx, r, 1<<20, "<stdin>")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled read: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled read did not return")
	}
}

// TestReadValuesBudget checks that the reader's buffers respect the
// budget: "0," is two bytes of input but eight of an i64.
func TestReadValuesBudget(t *testing.T) {
	old := MemoryLimit()
	defer SetMemoryLimit(old)
	SetMemoryLimit(16 << 20)
	src := "[" + strings.Repeat("0i64,", 3<<20) + "0i64]" // 24 MiB of i64
	_, err := ReadValues(src, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot read more elements: out of memory budget") {
		t.Errorf("reading 24 MiB of i64 in a budget of 16: %v", err)
	}
}
