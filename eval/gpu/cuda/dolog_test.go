package cuda

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A command goroutine without a driver: do's hand-offs alone.
func driverless() *GPU {
	g := &GPU{cmds: make(chan func(), 1), ordinal: 7}
	go g.serve()
	return g
}

// The command log splits a slow command into its parts and says who
// parked: with a poll that outlasts the command nobody does; with none,
// the caller does. The logged commands sleep 25 ms against a 20 ms minimum,
// so that a no-op's round trip stays under the minimum even on a loaded
// 2-core machine (with 3 ms and 1 ms it crossed it once in make test).
func TestCommandLog(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("polling needs two Ps")
	}
	path := filepath.Join(t.TempDir(), "dolog.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	saved, savedSpin := doLog, spinFor.Load()
	t.Cleanup(func() { doLog = saved; spinFor.Store(savedSpin) })
	doLog = &commandLog{f: f, min: 20 * time.Millisecond, start: time.Now()}
	g := driverless()
	cmd := func() error { time.Sleep(25 * time.Millisecond); return nil }
	SetSpin(time.Second)
	if err := g.do(cmd); err != nil {
		t.Fatal(err)
	}
	SetSpin(0)
	if err := g.do(cmd); err != nil {
		t.Fatal(err)
	}
	if err := g.do(func() error { return nil }); err != nil { // under the minimum: no line
		t.Fatal(err)
	}
	f.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 lines, got %d:\n%s", len(lines), data)
	}
	re := regexp.MustCompile(`^t=[\d.]+ dev=7 total=(\d+) queue=\d+ exec=(\d+) back=\d+ gcs=\d+ parked=(\S+) cuda\.TestCommandLog`)
	for i, want := range []string{"none", "caller"} {
		m := re.FindStringSubmatch(lines[i])
		if m == nil {
			t.Fatalf("line %d does not match %s:\n%s", i, re, lines[i])
		}
		exec, _ := strconv.Atoi(m[2])
		if exec < 25000 {
			t.Errorf("line %d: exec %d µs, want the command's 25 ms or more", i, exec)
		}
		if m[3] != want && !(want == "caller" && m[3] == "cmd+caller") {
			t.Errorf("line %d: parked=%s, want %s", i, m[3], want)
		}
	}
}

// The default poll outlasts a millisecond kernel where Ps are to spare
// (the two-GPU histogram's kernels, 1 ms: a caller that parked woke
// 55-75 µs late), and stays short where they are not.
func TestDefaultSpin(t *testing.T) {
	if d := defaultSpin(32); d < 1500*time.Microsecond {
		t.Errorf("defaultSpin(32) = %v, want more than a 1 ms kernel", d)
	}
	if d := defaultSpin(2); d > 100*time.Microsecond {
		t.Errorf("defaultSpin(2) = %v, want a short poll", d)
	}
}
