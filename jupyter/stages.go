package jupyter

import (
	"time"
)

// A stage is one part of what the kernel does for an execute_request,
// from the arrival of its frames to its execute_reply. The kernel reports
// the time of each in the reply's metadata (arepl.stages_ms), so that a
// client's round trip can be taken apart (bench/gpu/cells.py,
// TestCellLatency): what the session took, what the kernel added around it,
// and, by difference, what the client and the transport took.
type stage int

const (
	stageDecode   stage = iota // parse the frames, verify the HMAC
	stageQueue                 // wait for, and hand over to, the executor goroutine
	stageBusy                  // publish status busy
	stageInput                 // decode the request, publish execute_input
	stageSplit                 // split the cell into items
	stageEval                  // the session's Eval: parse, check, lower, fuse, compile, run
	stageRender                // the value as a MIME bundle (text, HTML)
	stagePublish               // publish execute_result and display data
	stageWarnings              // the operator checks of reduce and scan (commands.OperatorWarnings)
	stageOther                 // the rest of the cell: history, _N, commands, flush
	stageReply                 // build and send execute_reply (its encoding included)
	numStages
)

// stageNames are the keys of arepl.stages_ms.
var stageNames = [numStages]string{
	stageDecode:   "decode",
	stageQueue:    "queue",
	stageBusy:     "busy",
	stageInput:    "input",
	stageSplit:    "split",
	stageEval:     "eval",
	stageRender:   "render",
	stagePublish:  "publish",
	stageWarnings: "warnings",
	stageOther:    "other",
	stageReply:    "reply",
}

// clock attributes time to stages: mark(s) charges the time since the
// previous mark to s, so the stages add up to the whole request. A nil
// clock marks nothing (requests other than execute, user expressions).
type clock struct {
	start, last time.Time
	d           [numStages]time.Duration
}

// newClock starts a clock at t, when the request's frames arrived.
func newClock(t time.Time) *clock {
	if t.IsZero() {
		t = time.Now()
	}
	return &clock{start: t, last: t}
}

func (c *clock) mark(s stage) {
	if c == nil {
		return
	}
	now := time.Now()
	c.d[s] += now.Sub(c.last)
	c.last = now
}

// millis is d in milliseconds with microsecond resolution, as JSON
// reports it.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// report is the clock as execute_reply's metadata reports it: the total
// up to the last mark and each stage that took a microsecond or more.
func (c *clock) report() map[string]any {
	st := make(map[string]float64, numStages)
	for s, d := range c.d {
		if ms := millis(d); ms > 0 {
			st[stageNames[s]] = ms
		}
	}
	return map[string]any{"kernel_ms": millis(c.last.Sub(c.start)), "stages_ms": st}
}
