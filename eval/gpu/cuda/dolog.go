package cuda

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"time"
)

// The command log, for finding host-side stalls: with AREPL_CUDA_DOLOG set
// to a file, every command (do) whose round trip from the caller's send to
// the caller's return takes at least AREPL_CUDA_DOLOG_MIN (a duration,
// 50µs when unset) is written there as one line: its device, when it was
// sent (seconds since the process started), and its parts —
//
//	queue: the send until the command goroutine starts it (a parked
//	       command goroutine, or one busy with another caller's command);
//	exec:  the driver calls themselves;
//	back:  the command's end until the caller runs again (a parked
//	       caller waiting for a processor and a thread);
//
// the number of garbage collections that ended during it, who parked
// (stopped polling, spinRecv) on the way, and the caller.
// It answers where a 0.3-0.6 ms stall after a two-GPU histogram's kernels
// goes (bench/RESULTS.md, "Several GPUs, 2026-11-26 morning"): the GPU's
// events do not see it, and neither does the Go execution tracer's view of
// the driver, a C call. Off, it costs one nil check a command.
var doLog = openDoLog()

type commandLog struct {
	mu    sync.Mutex
	f     *os.File
	min   time.Duration
	start time.Time
}

// doTimes are one command's clock readings.
type doTimes struct {
	send, start, end time.Time
	gc               uint64
	// whether the command goroutine had parked before the command, and
	// the caller while it waited for the answer
	cmdParked, callerParked bool
	pcs                     [6]uintptr
}

func openDoLog() *commandLog {
	path := os.Getenv("AREPL_CUDA_DOLOG")
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "arepl: AREPL_CUDA_DOLOG: %v\n", err)
		return nil
	}
	l := &commandLog{f: f, min: 50 * time.Microsecond, start: time.Now()}
	if d, err := time.ParseDuration(os.Getenv("AREPL_CUDA_DOLOG_MIN")); err == nil {
		l.min = d
	}
	fmt.Fprintf(f, "# GOMAXPROCS %d, NumCPU %d, AREPL_CUDA_SPIN %q\n", runtime.GOMAXPROCS(0), runtime.NumCPU(), os.Getenv("AREPL_CUDA_SPIN"))
	return l
}

var gcSample = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}

func gcCycles() uint64 {
	s := []metrics.Sample{gcSample[0]}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// begin starts a command's record (nil when the log is off).
func (l *commandLog) begin() *doTimes {
	if l == nil {
		return nil
	}
	t := &doTimes{gc: gcCycles()}
	runtime.Callers(3, t.pcs[:])
	t.send = time.Now()
	return t
}

// finish writes the command's line if it took at least the minimum.
func (l *commandLog) finish(ordinal int, t *doTimes) {
	if l == nil || t == nil {
		return
	}
	back := time.Now()
	total := back.Sub(t.send)
	if total < l.min {
		return
	}
	gcs := gcCycles() - t.gc
	var callers []string
	frames := runtime.CallersFrames(t.pcs[:])
	for {
		fr, more := frames.Next()
		if fr.Function != "" {
			name := fr.Function[strings.LastIndex(fr.Function, "/")+1:]
			callers = append(callers, name)
		}
		if !more || len(callers) == 4 {
			break
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.f, "t=%.6f dev=%d total=%d queue=%d exec=%d back=%d gcs=%d parked=%s %s\n",
		t.send.Sub(l.start).Seconds(), ordinal, total.Microseconds(), t.start.Sub(t.send).Microseconds(),
		t.end.Sub(t.start).Microseconds(), back.Sub(t.end).Microseconds(), gcs, parkedWho(t), strings.Join(callers, "<"))
}

// parkedWho names who parked during a command: "cmd" (the command
// goroutine, before it), "caller" (while waiting), both, or "none".
func parkedWho(t *doTimes) string {
	switch {
	case t.cmdParked && t.callerParked:
		return "cmd+caller"
	case t.cmdParked:
		return "cmd"
	case t.callerParked:
		return "caller"
	}
	return "none"
}
