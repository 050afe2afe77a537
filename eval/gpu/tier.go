package gpu

import (
	"context"
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arepl/arepl/eval/gpu/cuda"
)

// Tiered compilation, as JITs do it. NVRTC's optimizer is 40-50% of a cold
// compile (bench/RESULTS.md, "Interactive latency", run 8): with -Ofc=mid
// every new expression of the latency list compiled in 104-137 ms instead
// of 124-430 ms, at the cost of 1-10 µs a small kernel. So a module that
// neither the in-memory nor the disk cache holds is compiled at -Ofc=mid
// (tier 1), loaded and run at once, while a background goroutine compiles
// the same text with the default options (tier 2). When tier 2 is ready it
// replaces tier 1 in the in-memory cache: later runs use it, a run in
// flight keeps the module it started with (every run holds the versions it
// uses until its end, and a replaced version is unloaded when its last
// holder lets go). Only tier 2's cubin reaches the disk cache, so a second
// session, and anything that reads the disk cache, only ever sees the
// optimised module. A tier-2 failure keeps tier 1 for the session and is
// logged once; it never becomes an error of a later run.
//
// A background compile never starts while a foreground one runs, nor
// until the foreground has compiled nothing for tier2Delay. NVRTC holds a
// process-wide lock for part of every compile, and a compile in flight
// cannot be interrupted: with tier 2 started at once (run 9), a list of new
// expressions typed back to back had each tier-1 compile overlap the last
// module's tier 2 and wait for that lock, 12.5 ms on average and up to 30
// ms (its wall time less its thread's CPU time, run 10); with the delay, no
// tier-1 compile overlapped one, and the mean compile stage fell from 103
// to 89 ms. A user types the next line in more than tier2Delay, so
// tier 2 still lands long before it could matter; a script or a notebook's
// "run all" compiles its new modules back to back at tier 1 and the
// optimised ones after the last. settle (arepl bench, the tests) starts
// them at once.
//
// A module may give tier 1 a text of its own (getFast): a scan's kernel
// with one loop per phase and a one-pass recomputed store
// (scanKernel.Fast), with the same signature and launch shape, so one key
// and one set of launch descriptors serve both tiers.
//
// The cache knows nothing of CUDA: it compiles and loads through the
// functions it is given (a fake compiler in the tests; the backend's is
// compileModule, below). Loading goes
// through package cuda's command goroutine, where the context is current,
// whichever goroutine asks.

// fastTierOptions are tier 1's NVRTC options (added to the defaults);
// AREPL_FAST_OPTIONS (space-separated) replaces them, for measuring
// other sets in the REPL (bench/gpu/latency_cold.sh). Measured beside
// -Ofc=mid in run 10: -Xptxas=-O1 gave no steady gain (ptxas took as long),
// NVRTC refuses -Xptxas=-O0, and rolling the tile loops changed nothing
// (-Ofc=mid already leaves them rolled: the same cubins).
var fastTierOptions = func() []string {
	if v, ok := os.LookupEnv("AREPL_FAST_OPTIONS"); ok {
		return strings.Fields(v)
	}
	return []string{"-Ofc=mid"}
}()

// tier1PTX: tier 1 has NVRTC emit PTX for the virtual architecture
// (cuda.CompilePTX, no ptxas run in NVRTC) and the driver JIT-compiles it
// at a low optimisation level (cuda.JITOptLevel) as it loads it. ptxas
// inside NVRTC optimises fully whatever NVRTC's own options say, and was
// 55-68 ms of the MSSP scan's 100-170 ms tier-1 compile (run 12).
// AREPL_TIER1_PTX=0 compiles tier 1 to a cubin in NVRTC, as before run 14.
// Tier 2 is always a cubin: only it reaches the disk cache.
var tier1PTX = os.Getenv("AREPL_TIER1_PTX") != "0"

// compileTier1 compiles a module's tier-1 text: with fastTierOptions, to
// PTX under tier1PTX, its preludes trimmed to the types its body names
// (trim.go, tier1Trim): in run 17 that took 10-17 ms off NVRTC's part of
// a scan's tier-1 compile and 9-11% off the mean compile stage of a new
// expression (bench/RESULTS.md, "Interactive latency, run 17"). A trimmed
// text NVRTC refuses is compiled in full.
func compileTier1(g *cuda.GPU, src, file string) ([]byte, error) {
	if !tier1PTX {
		return compileModule(g, src, file, fastTierOptions...)
	}
	if body, ok := strings.CutPrefix(src, prelude+"\n"); ok && preludePCH {
		return g.CompilePTX("#include \""+preludeHeader+"\"\n"+body, file, []cuda.Header{{Name: preludeHeader, Text: prelude}}, append(fastTierOptions, "-pch")...)
	}
	if tier1Trim {
		if text, ok := trimmedText(src); ok {
			ptx, err := g.CompilePTX(text, file, nil, fastTierOptions...)
			if err == nil {
				return ptx, nil
			}
			cuda.Trace(fmt.Sprintf("tier trimmed prelude refused, compiling in full: %v\n", err))
		}
	}
	return g.CompilePTX(src, file, nil, fastTierOptions...)
}

// warmCompiler loads and initialises NVRTC (its first compile in a
// process is slow) with the prelude every module includes, as tier 1
// compiles when tiered; under tier1PTX it also loads the result, so that
// the driver's JIT compiler is loaded before the first expression's.
func warmCompiler(g *cuda.GPU, tiered bool) {
	src := prelude + "\nextern \"C\" __global__ void ar_warm() {}\n"
	if !tiered {
		_, _ = compileModule(g, src, "arepl_warm.cu")
		return
	}
	image, err := compileTier1(g, src, "arepl_warm.cu")
	if err != nil || !tier1PTX {
		return
	}
	if m, err := g.LoadModule(image); err == nil {
		_ = m.Unload()
	}
}

// tier2Delay is how long the foreground must have compiled nothing before
// a background compile starts; AREPL_TIER2_DELAY (milliseconds) overrides
// it (0: at once, as before run 10).
var tier2Delay = func() time.Duration {
	if ms, err := strconv.Atoi(os.Getenv("AREPL_TIER2_DELAY")); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return 250 * time.Millisecond
}()

// scanFastText: tier 1 of a scan compiles the kernel's fast variant
// (scanKernel.Fast), unless AREPL_SCAN_FAST=0, which compiles the module's
// own text at both tiers (run 10's behaviour), for measuring beside it.
var scanFastText = os.Getenv("AREPL_SCAN_FAST") != "0"

// preludePCH: with AREPL_PRELUDE_PCH=1, a module's prelude reaches NVRTC as
// a header it includes first, under -pch, so that NVRTC parses it once a
// process and keeps its precompiled form for the next compiles. In run 10
// (bench/RESULTS.md, "Interactive latency") that took 8 ms off the mean
// tier-1 compile (a map's 34-55 ms became 26-41), short of what the MSSP
// scan needs; it stays off by default because NVRTC's automatic PCH leaves
// a folder of PCH files, /tmp/__nvrtc_auto_pch_PID_0, behind every process
// that uses it.
var preludePCH = os.Getenv("AREPL_PRELUDE_PCH") == "1"

// preludeHeader is the name a module includes the prelude by under
// preludePCH.
const preludeHeader = "arepl_prelude.cuh"

// compileModule compiles a module's source (the prelude, then the body:
// moduleText) with NVRTC's default options and opts.
func compileModule(g *cuda.GPU, src, file string, opts ...string) ([]byte, error) {
	if body, ok := strings.CutPrefix(src, prelude+"\n"); ok && preludePCH {
		return g.CompileHeaders("#include \""+preludeHeader+"\"\n"+body, file, []cuda.Header{{Name: preludeHeader, Text: prelude}}, append(opts, "-pch")...)
	}
	return g.Compile(src, file, opts...)
}

// TieringFromEnv reports whether tiered compilation is on for a new
// backend: it is, unless AREPL_TIERED is "0" or "off".
func TieringFromEnv() bool {
	v := os.Getenv("AREPL_TIERED")
	return v != "0" && v != "off"
}

// version is one loaded cubin of a module: tier 1 or tier 2. users counts
// the runs that hold it; a version the cache no longer serves (retired) is
// unloaded when users reaches zero.
type version struct {
	tier    int
	users   int
	retired bool
	unload  func() error
}

// tierCache is the in-memory module cache with its tiers, over the disk
// cache at dir.
type tierCache struct {
	dir    string
	tiered bool
	// compile compiles src, fast for tier 1.
	compile func(src, file string, fast bool) ([]byte, error)
	// warn reports a tier-2 failure (stderr in the backend).
	warn func(msg string)

	mu     sync.Mutex
	mods   map[string]*loaded // by cache key: the version served now
	noFast bool               // tier 1 failed once (an NVRTC without -Ofc): compile fully
	warned bool
	// Background compiles: pending counts them (queued or running), idle
	// is closed when pending drops to zero, sem lets one run at a time
	// (each takes a core for a fraction of a second; the foreground's
	// next tier-1 compile should not wait behind several), ctx ends them
	// at close.
	//
	// The foreground: fg counts its compiles running, fgEnd is when the
	// last one ended; a background compile holding sem starts once fg is
	// zero and fgEnd is delay ago, or at once while rush (settle waits) is
	// positive. wake is done, and replaced, when either changes (a
	// context, as idle is: the package's tests have a close of their own).
	fg    int
	fgEnd time.Time
	delay time.Duration
	// grace is how long close lets the queued optimised compiles run
	// (closeGrace; 0 in tests of dropping them).
	grace   time.Duration
	rush    int
	wake    context.Context
	wakeNow context.CancelFunc
	bgBusy  bool // a background compile is in NVRTC (for the trace)
	trace   func(string)
	t0      time.Time
	pending int
	idle    context.Context // done when pending drops to zero
	idleNow context.CancelFunc
	sem     chan struct{}
	ctx     context.Context
	cancel  context.CancelFunc
}

func newTierCache(dir string, tiered bool, compile func(src, file string, fast bool) ([]byte, error)) *tierCache {
	ctx, cancel := context.WithCancel(context.Background())
	c := &tierCache{dir: dir, tiered: tiered, compile: compile, mods: map[string]*loaded{},
		sem: make(chan struct{}, 1), ctx: ctx, cancel: cancel, delay: tier2Delay, grace: closeGrace, t0: time.Now(),
		warn: func(msg string) { fmt.Fprintln(os.Stderr, "arepl: "+msg) }}
	c.wake, c.wakeNow = context.WithCancel(context.Background())
	return c
}

// loadedFrom builds a loaded module from a cubin: loads it (on the
// context's goroutine) and looks its kernels up. It must set the
// version's unload.
type loadedFrom func(cubin []byte) (*loaded, error)

// compileInfo is what get tells its caller about where the module came
// from.
type compileInfo struct {
	memHit, diskHit bool
	fast            bool // tier 1 was compiled for this run
}

// get returns the module of src (key its cache key), held for the caller
// until release: from memory, from the disk cache, or compiled (tiered
// when the cache is). build loads a cubin; it may be called again later,
// on another goroutine, for tier 2.
func (c *tierCache) get(key, src, file string, build loadedFrom) (*loaded, compileInfo, error) {
	return c.getFast(key, src, nil, file, build)
}

// getFast is get for a module whose tier 1 is a text of its own: fastText
// renders it (only on a miss; nil: src). Both texts must define the same
// kernels with the same parameters, launch shapes and results, as the
// module's one key serves either (scanKernel.Fast).
func (c *tierCache) getFast(key, src string, fastText func() string, file string, build loadedFrom) (*loaded, compileInfo, error) {
	c.mu.Lock()
	if l := c.mods[key]; l != nil {
		if l.ver != nil {
			l.ver.users++
		}
		c.mu.Unlock()
		return l, compileInfo{memHit: true}, nil
	}
	fast := c.tiered && !c.noFast && c.ctx.Err() == nil
	c.mu.Unlock()

	if cubin, hit := cacheLoad(c.dir, key); hit {
		l, err := c.install(key, cubin, 2, build)
		return l, compileInfo{diskHit: true}, err
	}
	if fast {
		text := src
		if fastText != nil {
			text = fastText()
		}
		cubin, err := c.foreground(text, file, true)
		if err == nil {
			// A tier-1 module that fails to load (PTX the driver's JIT
			// refuses: a driver older than NVRTC) falls back to the full
			// compile below, as a failed fast compile does.
			if l, err := c.install(key, cubin, 1, build); err == nil {
				c.background(key, src, file, build)
				return l, compileInfo{fast: true}, nil
			}
		}
	}
	cubin, err := c.foreground(src, file, false)
	if err != nil {
		return nil, compileInfo{}, fmt.Errorf("gpu: compiling the generated CUDA: %w", err)
	}
	if fast {
		// The fast compile failed where the full one did not: an NVRTC
		// that does not know the fast options. Compile fully from now on.
		c.mu.Lock()
		c.noFast = true
		c.mu.Unlock()
	}
	cacheStore(c.dir, key, cubin)
	l, err := c.install(key, cubin, 2, build)
	return l, compileInfo{}, err
}

// foreground compiles for a run that waits for it: background compiles
// that have not started wait until it ends and the foreground has been
// idle for c.delay.
func (c *tierCache) foreground(src, file string, fast bool) ([]byte, error) {
	c.mu.Lock()
	c.fg++
	start, overlap := time.Now(), c.bgBusy
	c.mu.Unlock()
	cubin, err := c.compile(src, file, fast)
	c.mu.Lock()
	end := time.Now()
	c.fg--
	c.fgEnd = end
	overlap = overlap || c.bgBusy
	c.kickLocked()
	c.mu.Unlock()
	tier := 2
	if fast {
		tier = 1
	}
	c.tracef("fg tier=%d at=%.1fms took=%.1fms overlap_bg=%v", tier, ms(start.Sub(c.t0)), ms(end.Sub(start)), overlap)
	return cubin, err
}

// kickLocked wakes the background compile waiting for its turn.
func (c *tierCache) kickLocked() {
	c.wakeNow()
	c.wake, c.wakeNow = context.WithCancel(context.Background())
}

// bgWaitLocked is how long the background compile holding sem must still
// wait: zero when it may start; -1 while a foreground compile runs (until
// woken).
func (c *tierCache) bgWaitLocked(now time.Time) time.Duration {
	switch {
	case c.rush > 0:
		return 0
	case c.fg > 0:
		return -1
	}
	return max(0, c.delay-now.Sub(c.fgEnd))
}

// awaitTurn blocks the background compile holding sem until it may start;
// false when the cache closed meanwhile.
func (c *tierCache) awaitTurn() bool {
	for {
		c.mu.Lock()
		if c.ctx.Err() != nil {
			c.mu.Unlock()
			return false
		}
		wait, wake := c.bgWaitLocked(time.Now()), c.wake
		if wait == 0 {
			c.bgBusy = true
			c.mu.Unlock()
			return true
		}
		c.mu.Unlock()
		var timeout <-chan time.Time
		var t *time.Timer
		if wait > 0 {
			t = time.NewTimer(wait)
			timeout = t.C
		}
		select {
		case <-timeout:
		case <-wake.Done():
		case <-c.ctx.Done():
		}
		if t != nil {
			t.Stop()
		}
	}
}

func (c *tierCache) tracef(format string, args ...any) {
	if c.trace != nil {
		c.trace(fmt.Sprintf("tier "+format+"\n", args...))
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// install loads cubin as the given tier and serves it for key, held once
// for the caller. Two runs that compiled the same module at once each keep
// theirs; the cache serves the first, and the second's is unloaded at its
// release.
func (c *tierCache) install(key string, cubin []byte, tier int, build loadedFrom) (*loaded, error) {
	l, err := build(cubin)
	if err != nil {
		return nil, err
	}
	if l.ver == nil {
		l.ver = &version{}
	}
	l.ver.tier, l.ver.users = tier, 1
	unload := func() {}
	c.mu.Lock()
	if old := c.mods[key]; old == nil || old.ver == nil || old.ver.tier < tier {
		c.mods[key] = l
		if old != nil && old.ver != nil {
			unload = c.retireLocked(old.ver)
		}
	} else {
		l.ver.retired = true
	}
	c.mu.Unlock()
	unload()
	return l, nil
}

// retireLocked stops serving v and returns what unloads it when no run
// holds it, for the caller to call after unlocking c.mu (unloading waits
// for cuda's command goroutine).
func (c *tierCache) retireLocked(v *version) func() {
	v.retired = true
	if v.users > 0 || v.unload == nil {
		return func() {}
	}
	u := v.unload
	v.unload = nil
	return func() { _ = u() }
}

// release lets go of a module get returned.
func (c *tierCache) release(l *loaded) {
	if l == nil || l.ver == nil {
		return
	}
	unload := func() {}
	c.mu.Lock()
	l.ver.users--
	if l.ver.users == 0 && l.ver.retired {
		unload = c.retireLocked(l.ver)
	}
	c.mu.Unlock()
	unload()
}

// background compiles tier 2 of key and swaps it in.
func (c *tierCache) background(key, src, file string, build loadedFrom) {
	c.mu.Lock()
	if c.pending == 0 {
		c.idle, c.idleNow = context.WithCancel(context.Background())
	}
	c.pending++
	c.mu.Unlock()
	go func() {
		defer func() {
			c.mu.Lock()
			c.pending--
			if c.pending == 0 {
				c.idleNow()
			}
			c.mu.Unlock()
		}()
		select {
		case c.sem <- struct{}{}:
		case <-c.ctx.Done():
			return
		}
		defer func() { <-c.sem }()
		queued := time.Now()
		if !c.awaitTurn() {
			return
		}
		start := time.Now()
		reg := trace.StartRegion(context.Background(), "tier2.compile")
		cubin, err := c.compile(src, file, false)
		reg.End()
		c.mu.Lock()
		c.bgBusy = false
		c.mu.Unlock()
		c.tracef("bg tier=2 at=%.1fms waited=%.1fms took=%.1fms", ms(start.Sub(c.t0)), ms(start.Sub(queued)), ms(time.Since(start)))
		if err != nil {
			c.failed(err)
			return
		}
		// The optimised cubin is worth keeping even if the session is
		// closing: the next one loads it from disk.
		cacheStore(c.dir, key, cubin)
		if c.ctx.Err() != nil {
			return
		}
		reg = trace.StartRegion(context.Background(), "tier2.install")
		l, err := c.install(key, cubin, 2, build)
		reg.End()
		if err != nil {
			c.failed(err)
			return
		}
		c.release(l) // served by the cache; no run holds it yet
	}()
}

// failed logs the first tier-2 failure; tier 1 keeps serving.
func (c *tierCache) failed(err error) {
	c.mu.Lock()
	first := !c.warned
	c.warned = true
	c.mu.Unlock()
	if first {
		c.warn(fmt.Sprintf("the optimised compile of a GPU module failed; its fast-compiled module stays in use: %v", err))
	}
}

// settle waits until no background compile is queued or running (or ctx
// ends), starting them without waiting for an idle foreground.
func (c *tierCache) settle(ctx context.Context) error {
	c.mu.Lock()
	if c.pending == 0 {
		c.mu.Unlock()
		return nil
	}
	idle := c.idle
	c.rush++
	c.kickLocked()
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.rush--
		c.mu.Unlock()
	}()
	select {
	case <-idle.Done():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closeGrace bounds how long close lets the optimised compiles still
// queued run. A script or a notebook's "run all" compiles its new modules
// back to back at tier 1 and queues their tier 2 for when the foreground
// is idle, which for a piped session is its end: dropping them there left
// the disk cache without them, and the next session compiled every module
// at tier 1 again, 12-22 ms each, where a disk hit loads in about 1 ms
// (bench/RESULTS.md, "Issue 16 in one call", compile-warm). So close first
// runs them at once, one at a time, for up to closeGrace (a few hundred
// milliseconds a module), and drops only what is left after that.
const closeGrace = 3 * time.Second

// close lets the queued background compiles run for c.grace, then cancels
// those not started and waits for the one running (NVRTC cannot be
// interrupted; it takes well under a second). Later misses compile fully,
// without tiers.
func (c *tierCache) close() {
	if c.grace > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), c.grace)
		_ = c.settle(ctx)
		cancel()
	}
	c.cancel()
	_ = c.settle(context.Background())
}
