package gpu

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	. "github.com/arepl/arepl/lang/core"
)

// fakeTiers is a compiler and loader for tierCache without a GPU: a cubin
// is "fast:SRC" or "full:SRC"; full compiles wait for a release when gate
// is set, and fail with fullErr when it is.
type fakeTiers struct {
	mu      sync.Mutex
	fast    int // fast compiles
	full    int // full compiles started
	fastErr error
	fullErr error
	loadErr error           // building a fast cubin fails with it (a driver refusing tier 1's PTX)
	gate    context.Context // full compiles wait for it when not nil
	open    context.CancelFunc
	started chan string // a full compile's source, when it starts
	// A fast compile of a source starting "HOLD" reports on fastHeld and
	// waits for fastRelease.
	fastHeld    chan string
	fastRelease context.Context
	releaseFast context.CancelFunc
	fastEnd     map[string]time.Time // when each fast compile returned
	fullStart   map[string]time.Time // when each full compile began
	cubins      map[*version]string
	unloaded    map[string]int // by cubin
	warnings    []string
}

func newFakeTiers() *fakeTiers {
	f := &fakeTiers{cubins: map[*version]string{}, unloaded: map[string]int{}, started: make(chan string, 16),
		fastHeld: make(chan string, 16), fastEnd: map[string]time.Time{}, fullStart: map[string]time.Time{}}
	f.fastRelease, f.releaseFast = context.WithCancel(context.Background())
	return f
}

func (f *fakeTiers) compile(src, file string, fast bool) ([]byte, error) {
	f.mu.Lock()
	if fast {
		f.fast++
		err := f.fastErr
		f.mu.Unlock()
		if strings.HasPrefix(src, "HOLD") {
			f.fastHeld <- src
			<-f.fastRelease.Done()
		}
		f.mu.Lock()
		f.fastEnd[src] = time.Now()
		f.mu.Unlock()
		if err != nil {
			return nil, err
		}
		return []byte("fast:" + src), nil
	}
	f.full++
	f.fullStart[src] = time.Now()
	gate, err := f.gate, f.fullErr
	f.mu.Unlock()
	f.started <- src
	if gate != nil {
		<-gate.Done()
	}
	if err != nil {
		return nil, err
	}
	return []byte("full:" + src), nil
}

func (f *fakeTiers) build(cubin []byte) (*loaded, error) {
	v := &version{}
	name := string(cubin)
	f.mu.Lock()
	loadErr := f.loadErr
	f.mu.Unlock()
	if loadErr != nil && strings.HasPrefix(name, "fast:") {
		return nil, loadErr
	}
	v.unload = func() error {
		f.mu.Lock()
		f.unloaded[name]++
		f.mu.Unlock()
		return nil
	}
	f.mu.Lock()
	f.cubins[v] = name
	f.mu.Unlock()
	return &loaded{ver: v}, nil
}

func (f *fakeTiers) cubin(l *loaded) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cubins[l.ver]
}

func (f *fakeTiers) count(what *int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return *what
}

func (f *fakeTiers) unloads(cubin string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.unloaded[cubin]
}

func newFakeCache(t *testing.T, f *fakeTiers, tiered bool) *tierCache {
	c := newTierCache(t.TempDir(), tiered, f.compile)
	c.warn = func(msg string) {
		f.mu.Lock()
		f.warnings = append(f.warnings, msg)
		f.mu.Unlock()
	}
	t.Cleanup(c.close)
	return c
}

func settle(t *testing.T, c *tierCache) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.settle(ctx); err != nil {
		t.Fatalf("settle: %v", err)
	}
}

// TestTierFastFirstThenSwap: a new module is served from its fast compile
// at once; the optimised one replaces it in memory when ready, only it
// reaches the disk cache, and the fast one is unloaded once no run holds
// it.
func TestTierFastFirstThenSwap(t *testing.T) {
	f := newFakeTiers()
	f.gate, f.open = context.WithCancel(context.Background())
	c := newFakeCache(t, f, true)

	l, info, err := c.get("k", "SRC", "a.cu", f.build)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.cubin(l); got != "fast:SRC" || !info.fast || info.memHit || info.diskHit {
		t.Fatalf("first get: cubin %q, info %+v; want the fast tier, compiled now", got, info)
	}
	<-f.started // tier 2 runs in the background
	if _, hit := cacheLoad(c.dir, "k"); hit {
		t.Fatalf("the fast tier's cubin reached the disk cache")
	}
	// A repeat while tier 2 compiles: the fast module, from memory.
	l2, info, err := c.get("k", "SRC", "a.cu", f.build)
	if err != nil || f.cubin(l2) != "fast:SRC" || !info.memHit || info.fast {
		t.Fatalf("repeat during tier 2: %q, %+v, %v", f.cubin(l2), info, err)
	}
	c.release(l2)

	// The first run is still in flight (holds l) when tier 2 lands.
	f.open()
	settle(t, c)
	if n := f.unloads("fast:SRC"); n != 0 {
		t.Fatalf("the fast module was unloaded while a run held it (%d)", n)
	}
	l3, info, err := c.get("k", "SRC", "a.cu", f.build)
	if err != nil || f.cubin(l3) != "full:SRC" || !info.memHit {
		t.Fatalf("after the swap: %q, %+v, %v; want the optimised module from memory", f.cubin(l3), info, err)
	}
	c.release(l3)
	c.release(l)
	if n := f.unloads("fast:SRC"); n != 1 {
		t.Errorf("the fast module was unloaded %d times after its last run, want 1", n)
	}
	if n := f.unloads("full:SRC"); n != 0 {
		t.Errorf("the served optimised module was unloaded")
	}
	if b, hit := cacheLoad(c.dir, "k"); !hit || string(b) != "full:SRC" {
		t.Errorf("disk cache holds %q (hit %v), want the optimised cubin", b, hit)
	}
	if f.count(&f.fast) != 1 || f.count(&f.full) != 1 {
		t.Errorf("%d fast and %d full compiles, want 1 and 1", f.count(&f.fast), f.count(&f.full))
	}

	// A new session finds the optimised module on disk and compiles
	// nothing.
	f2 := newFakeTiers()
	c2 := newTierCache(c.dir, true, f2.compile)
	defer c2.close()
	l4, info, err := c2.get("k", "SRC", "a.cu", f2.build)
	if err != nil || f2.cubin(l4) != "full:SRC" || !info.diskHit || info.fast {
		t.Fatalf("new session: %q, %+v, %v; want the optimised module from disk", f2.cubin(l4), info, err)
	}
	if n := f2.count(&f2.fast) + f2.count(&f2.full); n != 0 {
		t.Errorf("new session compiled %d times", n)
	}
}

// TestTierFastText: a module with a tier-1 text of its own (getFast, the
// scans' fast variant) compiles that text at tier 1 and the module's own
// text at tier 2, under the one key; a hit renders no tier-1 text.
func TestTierFastText(t *testing.T) {
	f := newFakeTiers()
	c := newFakeCache(t, f, true)
	rendered := 0
	fast := func() string { rendered++; return "FASTSRC" }
	l, info, err := c.getFast("k", "SRC", fast, "a.cu", f.build)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.cubin(l); got != "fast:FASTSRC" || !info.fast {
		t.Fatalf("first get: cubin %q, info %+v; want tier 1 of the fast text", got, info)
	}
	c.release(l)
	settle(t, c)
	l, info, err = c.getFast("k", "SRC", fast, "a.cu", f.build)
	if err != nil || f.cubin(l) != "full:SRC" || !info.memHit {
		t.Fatalf("after settling: %q, %+v, %v; want tier 2 of the module's text", f.cubin(l), info, err)
	}
	c.release(l)
	if b, hit := cacheLoad(c.dir, "k"); !hit || string(b) != "full:SRC" {
		t.Errorf("disk cache holds %q (hit %v), want tier 2 of the module's text", b, hit)
	}
	if rendered != 1 {
		t.Errorf("the fast text was rendered %d times, want once (the miss)", rendered)
	}
}

// TestTierOptimisedFailure: a failed optimised compile keeps the fast
// module, is logged once however many fail, and is no error of a later
// get.
func TestTierOptimisedFailure(t *testing.T) {
	f := newFakeTiers()
	f.fullErr = errors.New("nvrtc: out of memory")
	c := newFakeCache(t, f, true)
	for _, k := range []string{"a", "b"} {
		l, _, err := c.get(k, "SRC-"+k, "a.cu", f.build)
		if err != nil {
			t.Fatal(err)
		}
		c.release(l)
		settle(t, c)
	}
	for _, k := range []string{"a", "b"} {
		l, info, err := c.get(k, "SRC-"+k, "a.cu", f.build)
		if err != nil || f.cubin(l) != "fast:SRC-"+k || !info.memHit {
			t.Fatalf("after a failed tier 2: %q, %+v, %v; want the fast module, no error", f.cubin(l), info, err)
		}
		c.release(l)
		if _, hit := cacheLoad(c.dir, k); hit {
			t.Errorf("%s: a cubin reached the disk cache", k)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.warnings) != 1 || !strings.Contains(f.warnings[0], "out of memory") {
		t.Errorf("warnings %q, want one with the failure", f.warnings)
	}
	if f.unloaded["fast:SRC-a"] != 0 {
		t.Errorf("the fast module was unloaded though it is still served")
	}
}

// TestTierCloseWithCompileInFlight: closing waits for the optimised compile
// that runs (its cubin still reaches the disk cache, but is not loaded),
// drops the queued ones, and leaves no background work.
func TestTierCloseWithCompileInFlight(t *testing.T) {
	f := newFakeTiers()
	f.gate, f.open = context.WithCancel(context.Background())
	c := newFakeCache(t, f, true)
	c.grace = 0 // close drops what has not started
	for _, k := range []string{"a", "b", "c"} {
		l, _, err := c.get(k, "SRC-"+k, "a.cu", f.build)
		if err != nil {
			t.Fatal(err)
		}
		c.release(l)
	}
	<-f.started // one runs; the others wait their turn
	closed := make(chan struct{}, 1)
	go func() {
		c.close()
		closed <- struct{}{}
	}()
	select {
	case <-closed:
		t.Fatalf("close returned while a compile was running")
	case <-time.After(50 * time.Millisecond):
	}
	f.open()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatalf("close did not return after the compile ended")
	}
	if n := f.count(&f.full); n != 1 {
		t.Errorf("%d optimised compiles, want only the one running at close", n)
	}
	c.mu.Lock()
	pending := c.pending
	served := map[string]int{}
	for k, l := range c.mods {
		served[k] = l.ver.tier
	}
	c.mu.Unlock()
	if pending != 0 {
		t.Errorf("%d background compiles left after close", pending)
	}
	for k, tier := range served {
		if tier != 1 {
			t.Errorf("%s: tier %d installed after close", k, tier)
		}
	}
	hits := 0
	for _, k := range []string{"a", "b", "c"} {
		if _, hit := cacheLoad(c.dir, k); hit {
			hits++
		}
	}
	if hits != 1 {
		t.Errorf("%d optimised cubins on disk, want the one that finished", hits)
	}
	// After close, a new module compiles fully at once, without tiers.
	l, info, err := c.get("d", "SRC-d", "a.cu", f.build)
	if err != nil || f.cubin(l) != "full:SRC-d" || info.fast {
		t.Errorf("after close: %q, %+v, %v; want a full compile", f.cubin(l), info, err)
	}
}

// TestTierOffAndFastRefused: without tiers a miss compiles fully and goes
// to disk; with tiers, a fast compile that fails (an NVRTC without -Ofc)
// falls back to the full compile, for this module and the next, and so
// does a fast module that fails to load (tier 1's PTX refused by a driver
// older than NVRTC).
func TestTierOffAndFastRefused(t *testing.T) {
	for _, tc := range []struct {
		name             string
		tiered           bool
		fastErr, loadErr error
	}{{"off", false, nil, nil}, {"fast refused", true, errors.New("invalid option -Ofc=mid"), nil},
		{"fast load refused", true, nil, errors.New("CUDA_ERROR_UNSUPPORTED_PTX_VERSION")}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeTiers()
			f.fastErr, f.loadErr = tc.fastErr, tc.loadErr
			c := newFakeCache(t, f, tc.tiered)
			for _, k := range []string{"a", "b"} {
				l, info, err := c.get(k, "SRC-"+k, "a.cu", f.build)
				if err != nil || f.cubin(l) != "full:SRC-"+k || info.fast {
					t.Fatalf("%s: %q, %+v, %v; want a full compile", k, f.cubin(l), info, err)
				}
				c.release(l)
				if b, hit := cacheLoad(c.dir, k); !hit || string(b) != "full:SRC-"+k {
					t.Errorf("%s: disk cache %q, %v", k, b, hit)
				}
			}
			want := 0
			if tc.fastErr != nil || tc.loadErr != nil {
				want = 1 // tried once, then never again
			}
			if f.count(&f.fast) != want || f.count(&f.full) != 2 {
				t.Errorf("%d fast and %d full compiles, want %d and 2", f.count(&f.fast), f.count(&f.full), want)
			}
		})
	}
}

// TestTierFullCompileError: a module that does not compile is an error of
// the get that needs it, as before tiers.
func TestTierFullCompileError(t *testing.T) {
	f := newFakeTiers()
	f.fastErr = errors.New("syntax error")
	f.fullErr = errors.New("syntax error")
	c := newFakeCache(t, f, true)
	if _, _, err := c.get("k", "SRC", "a.cu", f.build); err == nil || !strings.Contains(err.Error(), "compiling the generated CUDA: syntax error") {
		t.Fatalf("err = %v", err)
	}
}

// TestTierBackgroundYieldsToForeground: a module's optimised compile does
// not start while the next module's fast compile runs (NVRTC's lock would
// make that one wait), nor until the foreground has compiled nothing for
// the delay; then it runs, and the next module's after it.
func TestTierBackgroundYieldsToForeground(t *testing.T) {
	f := newFakeTiers()
	c := newFakeCache(t, f, true)
	c.delay = 300 * time.Millisecond

	l, _, err := c.get("a", "SRC-a", "a.cu", f.build)
	if err != nil {
		t.Fatal(err)
	}
	c.release(l)
	done := make(chan error, 1)
	go func() {
		l, _, err := c.get("b", "HOLD-b", "b.cu", f.build)
		if err == nil {
			c.release(l)
		}
		done <- err
	}()
	<-f.fastHeld // b's fast compile runs in the foreground
	time.Sleep(2 * c.delay)
	if n := f.count(&f.full); n != 0 {
		t.Fatalf("%d optimised compiles started while a fast compile ran", n)
	}
	f.releaseFast()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case src := <-f.started:
		if src != "SRC-a" {
			t.Fatalf("first optimised compile %q, want a's", src)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("a's optimised compile never started")
	}
	f.mu.Lock()
	idle := f.fullStart["SRC-a"].Sub(f.fastEnd["HOLD-b"])
	f.mu.Unlock()
	if idle < c.delay {
		t.Errorf("a's optimised compile started %v after the foreground's last compile, want at least %v", idle, c.delay)
	}
	settle(t, c)
	for _, k := range []string{"a", "b"} {
		l, _, err := c.get(k, "", "x.cu", f.build)
		if err != nil || !strings.HasPrefix(f.cubin(l), "full:") {
			t.Errorf("%s after settling: %q, %v; want the optimised module", k, f.cubin(l), err)
		}
	}
}

// TestTierSettleStartsAtOnce: settle does not wait for the idle delay, and
// close drops optimised compiles still waiting for it, at once.
func TestTierSettleStartsAtOnce(t *testing.T) {
	f := newFakeTiers()
	c := newFakeCache(t, f, true)
	c.delay = time.Hour
	l, _, err := c.get("a", "SRC-a", "a.cu", f.build)
	if err != nil {
		t.Fatal(err)
	}
	c.release(l)
	settle(t, c) // fails after 10 s
	if l, _, _ := c.get("a", "SRC-a", "a.cu", f.build); f.cubin(l) != "full:SRC-a" {
		t.Errorf("after settle: %q, want the optimised module", f.cubin(l))
	}

	f2 := newFakeTiers()
	c2 := newTierCache(t.TempDir(), true, f2.compile)
	c2.delay, c2.grace = time.Hour, 0
	for _, k := range []string{"a", "b"} {
		l, _, err := c2.get(k, "SRC-"+k, "a.cu", f2.build)
		if err != nil {
			t.Fatal(err)
		}
		c2.release(l)
	}
	closed := make(chan struct{}, 1)
	go func() {
		c2.close()
		closed <- struct{}{}
	}()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatalf("close waited for compiles that had not started")
	}
	if n := f2.count(&f2.full); n != 0 {
		t.Errorf("%d optimised compiles ran after close", n)
	}
}

// TestTieredDevice: on a GPU, new ordered redomaps and scans (single and
// tuple accumulators, f64, segmented) run from their fast compiles
// (-Ofc=mid), then, once settled, from the optimised modules,
// with the same results as the CPU interpreter both times; only optimised
// cubins reach the disk cache.
func TestTieredDevice(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	b, err := New(Options{Tiered: true})
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	defer b.Close()
	ref := cpu.New(cpu.Options{})
	ctx := context.Background()
	// Tier 2 starts only when the test settles: every input of a program
	// runs tier 1 first.
	b.cache.mu.Lock()
	b.cache.delay = time.Hour
	b.cache.mu.Unlock()
	type prog struct {
		name string
		prog *Program
		ins  [][]eval.Value // the first compiles the module
	}
	progs := []prog{{"mssp", buildMSSP(), [][]eval.Value{{arr(i32s(1<<20+3, -50, 50))}}}}
	for _, p := range testProgs() {
		if p.name == "ordered_u8" {
			progs = append(progs, prog{p.name, p.build(), [][]eval.Value{p.input(1<<20 + 3)}})
		}
	}
	// Scans with single and tuple accumulators, recomputed stores (with a
	// post-map too), and segments that do not divide the tile, at sizes
	// that leave one partial tile, make one tile or several, or are tiny:
	// tier 1's kernels take the checked loops for every tile
	// (scanKernel.Fast).
	for _, c := range scanProgs() {
		switch c.name {
		case "scan_i32", "scan_f64", "mssp_scan", "mssp_i64_post", "linfun_two_scans_post":
			progs = append(progs, prog{c.name, c.build(), [][]eval.Value{c.in(1<<20+3, 0), c.in(1, 0), c.in(4099, 0), c.in(65536, 0)}})
		case "segscan_i32":
			progs = append(progs, prog{c.name, c.build(), [][]eval.Value{c.in(1000, 997), c.in(3, 5), c.in(2, 20011)}})
		}
	}
	for _, p := range progs {
		wants := make([][]eval.Value, len(p.ins))
		for i, in := range p.ins {
			want, err := ref.Run(ctx, p.prog, "main", in, &eval.Timings{})
			if err != nil {
				t.Fatal(err)
			}
			wants[i] = want
		}
		b.cache.mu.Lock()
		before := map[string]bool{}
		for key := range b.cache.mods {
			before[key] = true
		}
		b.cache.mu.Unlock()
		var fast eval.Timings
		for i, in := range p.ins {
			var tm eval.Timings
			got, err := b.Run(ctx, p.prog, "main", in, &tm)
			if err != nil {
				t.Fatalf("%s, input %d, fast tier: %v", p.name, i, err)
			}
			if err := same(ctx, got, wants[i]); err != nil {
				t.Errorf("%s, input %d, fast tier: %v", p.name, i, err)
			}
			if i == 0 {
				fast = tm
			}
		}
		if !fast.FastTier || fast.CacheHit {
			t.Errorf("%s: first run FastTier=%v CacheHit=%v, want a fast compile", p.name, fast.FastTier, fast.CacheHit)
		}
		b.cache.mu.Lock()
		for key, l := range b.cache.mods {
			if !before[key] && l.ver.tier != 1 {
				t.Errorf("%s: module %.12s at tier %d before settling", p.name, key, l.ver.tier)
			}
		}
		b.cache.mu.Unlock()
		if err := b.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		var opt eval.Timings
		for i, in := range p.ins {
			var tm eval.Timings
			got, err := b.Run(ctx, p.prog, "main", in, &tm)
			if err != nil {
				t.Fatalf("%s, input %d, optimised: %v", p.name, i, err)
			}
			if err := same(ctx, got, wants[i]); err != nil {
				t.Errorf("%s, input %d, optimised: %v", p.name, i, err)
			}
			if tm.FastTier {
				t.Errorf("%s: the run after settling compiled again", p.name)
			}
			if i == 0 {
				opt = tm
			}
		}
		t.Logf("%s: fast compile %v (kernels %v), then kernels %v", p.name, fast.Compile, fast.Run, opt.Run)
	}
	b.cache.mu.Lock()
	defer b.cache.mu.Unlock()
	for key, l := range b.cache.mods {
		if l.ver.tier != 2 {
			t.Errorf("module %.12s: tier %d served after settling", key, l.ver.tier)
		}
		if _, hit := cacheLoad(b.cache.dir, key); !hit {
			t.Errorf("module %.12s: no optimised cubin on disk", key)
		}
	}
}

// TestTierCloseFinishesQueued: a session that ends while its optimised
// compiles still wait for an idle foreground (a piped script's end) runs
// them within the grace, so that the next session loads every module from
// the disk cache rather than compiling it again.
func TestTierCloseFinishesQueued(t *testing.T) {
	f := newFakeTiers()
	dir := t.TempDir()
	c := newTierCache(dir, true, f.compile)
	c.delay = time.Hour // the foreground never goes idle long enough
	for _, k := range []string{"a", "b", "c"} {
		l, info, err := c.get(k, "SRC-"+k, "a.cu", f.build)
		if err != nil || !info.fast {
			t.Fatalf("%s: %v, fast %v", k, err, info.fast)
		}
		c.release(l)
	}
	c.close()
	if n := f.count(&f.full); n != 3 {
		t.Errorf("%d optimised compiles ran by close, want 3", n)
	}
	f2 := newFakeTiers()
	c2 := newTierCache(dir, true, f2.compile)
	defer c2.close()
	for _, k := range []string{"a", "b", "c"} {
		l, info, err := c2.get(k, "SRC-"+k, "a.cu", f2.build)
		if err != nil {
			t.Fatal(err)
		}
		if !info.diskHit || f2.cubin(l) != "full:SRC-"+k {
			t.Errorf("next session, %s: disk hit %v, module %q; want the optimised module from disk", k, info.diskHit, f2.cubin(l))
		}
		c2.release(l)
	}
}
