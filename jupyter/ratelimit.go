package jupyter

import (
	"bytes"
	"sync"
	"time"
)

// dropLog writes the log lines that clients cause (dropped messages,
// failed handshakes, unknown requests) with a rate limit: any local
// process can send a thousand bad messages a second, and a log line per
// message would flood the Jupyter server's console and disk. In each
// interval the first burst lines are written; the rest are counted and
// summarised in one line when the interval ends.
type dropLog struct {
	burst    int
	interval time.Duration
	printf   func(format string, args ...any)

	mu         sync.Mutex
	start      time.Time // of the current interval
	written    int       // lines written in it
	suppressed int       // lines counted, not written
	summary    *time.Timer
}

const (
	dropLogBurst    = 20
	dropLogInterval = 10 * time.Second
)

func newDropLog() *dropLog {
	return &dropLog{burst: dropLogBurst, interval: dropLogInterval, printf: logf}
}

// logf writes one line unless the interval's burst is spent.
func (d *dropLog) logf(format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now()
	if now.Sub(d.start) >= d.interval {
		d.summariseLocked()
		d.start, d.written = now, 0
	}
	if d.written < d.burst {
		d.written++
		d.printf(format, args...)
		return
	}
	d.suppressed++
	if d.summary == nil {
		d.summary = time.AfterFunc(d.start.Add(d.interval).Sub(now), d.summarise)
	}
}

func (d *dropLog) summarise() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.summariseLocked()
}

func (d *dropLog) summariseLocked() {
	if d.summary != nil {
		d.summary.Stop()
		d.summary = nil
	}
	if d.suppressed > 0 {
		d.printf("%d more such lines not shown (at most %d every %v)", d.suppressed, d.burst, d.interval)
		d.suppressed = 0
	}
}

// Write makes a dropLog the output of a log.Logger (zmq4's), one line per
// call.
func (d *dropLog) Write(p []byte) (int, error) {
	d.logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}
