package eval

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// Trace is what `:trace` shows: when each tile of a kernel (a thread block
// on the GPU, a block of chunks on its goroutine on the CPU) was in which
// phase of its work. A backend fills it while it runs when Timings.Trace
// is set; nothing is recorded otherwise, so ordinary runs pay one nil
// check per parallel pass.
//
// On the GPU the times come from the device's %globaltimer, written by an
// instrumented variant of the single-pass scan at each phase boundary of
// every tile (ticket, load, local scan, publish aggregate, look-back,
// store), so the chart shows which tiles waited on their predecessors in
// the decoupled look-back and for how long; the look-back's span also
// says which predecessor ended it (Span.Distance). On the CPU they come from the
// goroutines of the chunked three-phase scan (block totals, carries, scan
// with carry-in) and of every other parallel pass.
type Trace struct {
	mu    sync.Mutex
	start time.Time

	Backend string `json:"backend"`
	Kernel  string `json:"kernel"` // what ran, e.g. "single-pass scan, 2^26 i32"
	Spans   []Span `json:"spans"`
}

// Span is one tile in one phase, in nanoseconds from the trace's start.
type Span struct {
	Tile  int    `json:"tile"`
	Lane  int    `json:"lane"` // the goroutine, or the GPU's SM
	Phase string `json:"phase"`
	Start int64  `json:"start"`
	End   int64  `json:"end"`
	// Distance, on a GPU scan's look-back span, is how far back the
	// predecessor whose inclusive prefix ended the look-back lies (1: the
	// tile just before); 0 where none did (tile 0, recordings made before
	// it was recorded, the CPU).
	Distance int `json:"distance,omitempty"`
}

// NewTrace starts a trace whose times count from now.
func NewTrace(backend, kernel string) *Trace {
	return &Trace{Backend: backend, Kernel: kernel, start: time.Now()}
}

// Add records that tile was in phase from start to end (host clock);
// safe from any goroutine.
func (t *Trace) Add(tile, lane int, phase string, start, end time.Time) {
	t.mu.Lock()
	t.Spans = append(t.Spans, Span{Tile: tile, Lane: lane, Phase: phase,
		Start: start.Sub(t.start).Nanoseconds(), End: end.Sub(t.start).Nanoseconds()})
	t.mu.Unlock()
}

// AddSpan records a span measured elsewhere (the GPU's clock); safe from
// any goroutine.
func (t *Trace) AddSpan(s Span) {
	t.mu.Lock()
	t.Spans = append(t.Spans, s)
	t.mu.Unlock()
}

// ReadTrace decodes a trace recorded as JSON (the form TraceJSON writes).
func ReadTrace(b []byte) (*Trace, error) {
	t := &Trace{}
	return t, json.Unmarshal(b, t)
}

// JSON is the trace as JSON, to keep a recording.
func (t *Trace) JSON() ([]byte, error) { return json.Marshal(t) }

// TraceStats are the numbers a trace is summarised by.
type TraceStats struct {
	Tiles    int
	Duration time.Duration // first start to last end
	// Resident is the most tiles in some phase at one moment.
	Resident int
	// Waits are the phases whose mean length per tile is reported (the
	// look-back on the GPU): phase name -> mean time per tile that has it.
	Mean map[string]time.Duration
	// Distances counts the look-backs (GPU scans) by how far back the
	// predecessor that ended them lay (Span.Distance): distance -> tiles.
	// Empty when the trace has none (the CPU, older recordings).
	Distances map[int]int
	// MeanDistance is the mean of Distances' distances over its tiles.
	MeanDistance float64
}

// Stats summarises the trace.
func (t *Trace) Stats() TraceStats {
	st := TraceStats{Mean: map[string]time.Duration{}, Distances: map[int]int{}}
	if len(t.Spans) == 0 {
		return st
	}
	looks, far := 0, 0
	for _, s := range t.Spans {
		if s.Distance > 0 {
			st.Distances[s.Distance]++
			looks, far = looks+1, far+s.Distance
		}
	}
	if looks > 0 {
		st.MeanDistance = float64(far) / float64(looks)
	}
	first, last := t.Spans[0].Start, t.Spans[0].End
	tiles := map[int][2]int64{} // tile -> first start, last end
	sum, count := map[string]int64{}, map[string]int64{}
	for _, s := range t.Spans {
		first, last = min(first, s.Start), max(last, s.End)
		r, ok := tiles[s.Tile]
		if !ok {
			r = [2]int64{s.Start, s.End}
		}
		tiles[s.Tile] = [2]int64{min(r[0], s.Start), max(r[1], s.End)}
		sum[s.Phase] += s.End - s.Start
		count[s.Phase]++
	}
	st.Tiles = len(tiles)
	st.Duration = time.Duration(last - first)
	for p, n := range count {
		st.Mean[p] = time.Duration(sum[p] / n)
	}
	// Residency: sweep the tiles' [first start, last end) intervals.
	type edge struct {
		at    int64
		delta int
	}
	var edges []edge
	for _, r := range tiles {
		edges = append(edges, edge{r[0], 1}, edge{r[1], -1})
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at != edges[j].at {
			return edges[i].at < edges[j].at
		}
		return edges[i].delta < edges[j].delta // an end before a start at the same time
	})
	cur := 0
	for _, e := range edges {
		cur += e.delta
		st.Resident = max(st.Resident, cur)
	}
	return st
}

// Trace evaluates the expression src as Eval does, recording the trace of
// its parallel passes: the result's Timings.Trace. On the GPU the
// single-pass scan runs its instrumented variant; elsewhere the backend
// records what it can (the CPU: its goroutines' blocks and phases).
func (s *Session) Trace(ctx context.Context, name, src string) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	file := source.NewFile(name, src)
	s.files[name] = file
	x, err := syntax.ParseExpr(file)
	if err == nil {
		x, err = s.moduleExpr(x)
	}
	if err != nil {
		return nil, err
	}
	c, err := s.compile(file, s.env, x)
	if err != nil {
		return nil, err
	}
	t := c.timings
	t.Trace = NewTrace("", strings.Join(strings.Fields(src), " "))
	res, err := s.run(ctx, c, t)
	if err != nil {
		return nil, err
	}
	res.Timings.Trace.Backend = res.Timings.Backend
	res.Timings.Total = time.Since(start)
	return res, nil
}
