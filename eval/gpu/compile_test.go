package gpu

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval/gpu/cuda"
	. "github.com/arepl/arepl/lang/core"
)

var (
	compileLab    = flag.String("gpu.compilelab", "", "semicolon-separated NVRTC option sets (options space-separated, \"-\" for none) to time TestCompileTimes with")
	compileFold   = flag.String("gpu.compilefold", "", "comma-separated unroll factors of the ordered redomap's fold (Limits.OrderedFoldUnroll) to time TestCompileTimes's ordered modules with too")
	compileSrc    = flag.String("gpu.compilesrc", "", "glob of further CUDA sources (e.g. the REPL's, dumped by AREPL_COMPILE_DUMP) for TestCompileTimes to time as they are")
	compileOnly   = flag.String("gpu.compileonly", "", "regular expression: TestCompileTimes times only the sources whose names match it")
	compileUnroll = flag.String("gpu.compileunroll", "", "comma-separated Limits.ScanUnroll values to time TestCompileTimes's scan modules with too")
	compileDump   = flag.String("gpu.compiledump", "", "folder to write TestCompileTimes's module sources to (NAME.cu), for timing them with another NVRTC")
)

// TestCompileTimes compiles the modules of representative programs (a
// map, an ordered and a commutative redomap, a scan) with NVRTC under each
// option set of -gpu.compilelab, checks that each compiles, and logs the
// first and the best of three compile times: where NVRTC spends its time
// (issue 16's cold-compile target). Without the flag or a GPU it only
// checks that the modules generate.
func TestCompileTimes(t *testing.T) {
	progs := map[string]*Program{}
	for _, p := range testProgs() {
		switch p.name {
		case "sum_i32", "max_map", "ordered_u8", "mssp":
			progs[p.name] = p.build()
		}
	}
	type src struct{ name, text string }
	var srcs []src
	srcs = append(srcs, src{"empty", "extern \"C\" __global__ void k() {}\n"}, src{"prelude", canonical(prelude + "\nextern \"C\" __global__ void k() {}\n")})
	for name, p := range progs {
		m, err := generate(p, DefaultLimits)
		if err != nil || len(m.kernels) == 0 {
			t.Fatalf("%s: %v (%d kernels)", name, err, len(m.kernels))
		}
		srcs = append(srcs, src{name, canonical(m.source())})
		if name != "mssp" && name != "ordered_u8" {
			continue
		}
		for _, f := range strings.Split(*compileFold, ",") {
			u, err := strconv.Atoi(f)
			if err != nil {
				continue
			}
			lim := DefaultLimits
			lim.OrderedFoldUnroll = u
			m, err := generate(p, lim)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, src{fmt.Sprintf("%s_foldunroll%d", name, u), canonical(m.source())})
		}
	}
	for _, c := range scanProgs() {
		switch c.name {
		case "scan_i32", "mssp_scan", "segscan_i32", "mssp_i64_post", "linfun_two_scans_post":
		default:
			continue
		}
		p := c.build()
		for _, s := range p.Funs[0].Body.Stmts {
			if m, err := genScan(p, s, DefaultLimits); err == nil {
				srcs = append(srcs, src{c.name, canonical(m.source())})
				if m.fastBody != "" {
					// Tier 1's text (scanKernel.Fast).
					srcs = append(srcs, src{c.name + "_fast", m.prelude() + "\n" + canonical(m.fastBody)})
				}
			}
			for _, f := range strings.Split(*compileUnroll, ",") {
				u, err := strconv.Atoi(f)
				if err != nil {
					continue
				}
				lim := DefaultLimits
				lim.ScanUnroll = u
				if m, err := genScan(p, s, lim); err == nil {
					srcs = append(srcs, src{fmt.Sprintf("%s_unroll%d", c.name, u), canonical(m.source())})
				}
			}
		}
	}
	if *compileSrc != "" {
		files, err := filepath.Glob(*compileSrc)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, src{filepath.Base(f), string(text)})
		}
	}
	if *compileOnly != "" {
		re := regexp.MustCompile(*compileOnly)
		var keep []src
		for _, s := range srcs {
			if re.MatchString(s.name) {
				keep = append(keep, s)
			}
		}
		srcs = keep
	}
	if *compileDump != "" {
		for _, s := range srcs {
			if err := os.WriteFile(filepath.Join(*compileDump, s.name+".cu"), []byte(s.text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if *compileLab == "" {
		return
	}
	g, err := cuda.Open()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	// Every compile gets a source of its own (a global with a fresh name and
	// value changes the PTX too), so that no cache on the way can answer
	// it; "again" recompiles the last text unchanged, to show whether one
	// does.
	uniq := 0
	for _, set := range strings.Split(*compileLab, ";") {
		opts := []string{"-default-device", "-std=c++17"}
		if set != "-" {
			opts = append(opts, strings.Fields(set)...)
		}
		for _, s := range srcs {
			var total, best, first, again time.Duration
			var size int
			var text string
			// Under a time profile, one compile: in run 8 the second
			// compile writing the same profile failed (the first one's
			// profile is the one wanted).
			runs := 3
			if strings.Contains(set, "time-trace") {
				runs = 1
			}
			for i := range runs {
				uniq++
				text = fmt.Sprintf("__device__ int ar_lab_%d = %d;\n%s", uniq, uniq, s.text)
				start := time.Now()
				cubin, err := g.CompileWith(text, s.name+".cu", opts)
				d := time.Since(start)
				if err != nil {
					t.Errorf("options %q, %s: %v", set, s.name, err)
					break
				}
				size = len(cubin)
				total += d
				if i == 0 || d < best {
					best = d
				}
				if i == 0 {
					first = d
				}
			}
			// Not again under a time profile, which would then show the
			// compile that a cache answers.
			if !strings.Contains(set, "time-trace") {
				start := time.Now()
				if _, err := g.CompileWith(text, s.name+".cu", opts); err == nil {
					again = time.Since(start)
				}
			}
			t.Logf("compile options=%q src=%s bytes=%d mean=%.1fms first=%.1fms best=%.1fms again=%.1fms cubin=%d", set, s.name, len(s.text), ms(total/time.Duration(runs)), ms(first), ms(best), ms(again), size)
		}
	}
}

// TestCheckedTilesRolled checks the rule behind the ordered redomap's and
// the scans' cold-compile time (issue 16): the loops of the checked copy
// of a tile, which only a launch's last tile runs, are rolled; the full
// tiles' loops stay unrolled; a segmented scan, whose every tile can be
// checked, keeps its checked loops unrolled.
func TestCheckedTilesRolled(t *testing.T) {
	count := func(src string) (rolled, unrolled int) {
		rolled = strings.Count(src, "#pragma unroll 1\n")
		return rolled, strings.Count(src, "#pragma unroll") - rolled
	}
	for _, p := range testProgs() {
		if p.name != "ordered_u8" && p.name != "mssp" {
			continue
		}
		m, err := generate(p.build(), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if r, u := count(m.source()); r != 2 || u < 2 {
			t.Errorf("%s: %d rolled and %d unrolled tile loops, want 2 and at least 2", p.name, r, u)
		}
	}
	for _, c := range scanProgs() {
		p := c.build()
		src, err := ScanKernel(p, scanStmtOf(t, p))
		if err != nil {
			t.Fatal(err)
		}
		r, u := count(src)
		switch {
		case c.seg && r != 0:
			t.Errorf("%s: a segmented scan has %d rolled loops, want none", c.name, r)
		case !c.seg && strings.HasPrefix(c.name, "scan") && (r == 0 || u == 0):
			t.Errorf("%s: %d rolled and %d unrolled loops, want both", c.name, r, u)
		}
	}
}

// TestFoldUnroll checks the ordered redomap's fold unrolling
// (tileBody.FoldUnroll): 4 times where the kernel transposes its inputs
// into a tuple accumulator (MSSP), fully for one component (ordered_u8),
// and as Limits.OrderedFoldUnroll says when it is set.
func TestFoldUnroll(t *testing.T) {
	byName := map[string]testProg{}
	for _, p := range testProgs() {
		byName[p.name] = p
	}
	for _, c := range []struct {
		prog  string
		knob  int
		want4 bool
	}{{"mssp", 0, true}, {"ordered_u8", 0, false}, {"mssp", -1, false}, {"ordered_u8", 4, true}} {
		lim := DefaultLimits
		lim.OrderedFoldUnroll = c.knob
		m, err := generate(byName[c.prog].build(), lim)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(m.source(), "#pragma unroll 4\n"); got != c.want4 {
			t.Errorf("%s with OrderedFoldUnroll %d: unrolled 4 times %v, want %v", c.prog, c.knob, got, c.want4)
		}
	}
}

// TestSecondaryLoopsRolled checks scanKernel.unrollSecondary's rule: a scan
// that recomputes its store (MSSP's 4-tuple) rolls the store's passes and
// keeps only the thread scan unrolled over its Seq elements; a segmented
// scan keeps its checked loops and its prefix pass unrolled (its hot path
// when segments do not divide the tile).
func TestSecondaryLoopsRolled(t *testing.T) {
	seqLoop := regexp.MustCompile(`#pragma unroll( \d+)?\n\s*for \(int ar_j = 0; ar_j < \d+; ar_j\+\+\)`)
	for _, c := range scanProgs() {
		p := c.build()
		m, err := genScan(p, scanStmtOf(t, p), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		full := 0
		for _, l := range seqLoop.FindAllStringSubmatch(m.body, -1) {
			if l[1] == "" {
				full++
			}
		}
		switch {
		case m.k.Recompute && full != 1:
			t.Errorf("%s recomputes its store: %d fully unrolled loops over a thread's elements, want 1 (the thread scan)", c.name, full)
		case c.seg && full < 3:
			t.Errorf("%s: %d fully unrolled loops over a thread's elements, want the thread scan, the prefix pass and the checked loads and stores", c.name, full)
		}
	}
}

// TestScanFastVariant checks tier 1's text of every scan (scanKernel.Fast,
// issue 16's cold compile of the MSSP scan): the same kernel signature,
// launch bounds and shared memory as the module's own text, which the
// module's one key and launch descriptors serve (tier.go's getFast); one
// loop per load and store phase (no full-tile copies); and a recomputing
// store in one pass, so the map appears twice (the thread scan and the
// store) instead of once per result more.
func TestScanFastVariant(t *testing.T) {
	kernelHead := func(body string) (head string, shared []string) {
		i := strings.Index(body, "extern \"C\" __global__")
		if i < 0 {
			return "", nil
		}
		kern := body[i:]
		head = kern[:strings.Index(kern, "{")]
		for _, l := range strings.Split(kern, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "__shared__") {
				shared = append(shared, strings.TrimSpace(l))
			}
		}
		return head, shared
	}
	recomputing := 0
	for _, c := range scanProgs() {
		p := c.build()
		m, err := genScan(p, scanStmtOf(t, p), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if m.k.Mode == scanFilter {
			if m.fastBody != "" {
				t.Errorf("%s: a filter has a tier-1 variant", c.name)
			}
			continue
		}
		if m.fastBody == "" {
			t.Errorf("%s: no tier-1 variant", c.name)
			continue
		}
		h, sh := kernelHead(m.body)
		fh, fsh := kernelHead(m.fastBody)
		if h == "" || h != fh || strings.Join(sh, "\n") != strings.Join(fsh, "\n") {
			t.Errorf("%s: tier 1's kernel differs in its signature or shared memory:\n%s\n%s\nagainst\n%s\n%s", c.name, h, strings.Join(sh, "\n"), fh, strings.Join(fsh, "\n"))
		}
		for _, full := range []string{"if (ar_full) {", "ar_cp_async16(", "*(uint4 *)"} {
			if strings.Contains(m.fastBody, full) {
				t.Errorf("%s: tier 1's kernel has a full-tile path (%s)", c.name, full)
			}
		}
		// The look-back: one predecessor at a time (serialLookBack), no
		// window folded by shuffles and ballots as in the module's text.
		if lb := lookBackText(m.fastBody); !strings.Contains(lb, "ar_p--;") || strings.Contains(lb, "__ballot_sync") || strings.Contains(lb, "ar_shfl_down(") {
			t.Errorf("%s: tier 1's look-back is not serial:\n%s", c.name, lb)
		}
		if lb := lookBackText(m.body); !strings.Contains(lb, "__ballot_sync") {
			t.Errorf("%s: the module's look-back has no window of 32:\n%s", c.name, lb)
		}
		if !m.k.Recompute {
			continue
		}
		recomputing++
		call := m.k.fnMap + "("
		if n, full := strings.Count(m.fastBody, call), strings.Count(m.body, call); n != 3 || full != 2+len(m.k.Res) {
			// The definition and the calls: the thread scan's and the
			// store's, one store pass per result in the module's text.
			t.Errorf("%s: the map appears %d times in tier 1's text and %d in the module's, want 3 and %d", c.name, n, full, 2+len(m.k.Res))
		}
	}
	if recomputing == 0 {
		t.Errorf("no scan program recomputes its store")
	}
	// tier1Shared: the plain scans' block scan is one loop over shared
	// memory (sharedScan: no warp shuffles in tier 1's text, the same
	// shared memory), a segmented scan's warps' totals one loop of thread 0.
	saved := tier1ScanStyle
	tier1ScanStyle = tier1Shared
	defer func() { tier1ScanStyle = saved }()
	for _, c := range scanProgs() {
		p := c.build()
		m, err := genScan(p, scanStmtOf(t, p), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if m.fastBody == "" {
			continue
		}
		_, sh := kernelHead(m.body)
		_, fsh := kernelHead(m.fastBody)
		if strings.Join(sh, "\n") != strings.Join(fsh, "\n") {
			t.Errorf("%s: tier 1's shared memory differs in the shared style", c.name)
		}
		shuffles := strings.Count(m.fastBody, "ar_shfl_up(")
		switch {
		case m.k.Mode == scanPlain && (shuffles != 0 || !strings.Contains(m.fastBody, "[threadIdx.x - ar_o]")):
			t.Errorf("%s: tier 1's block scan is not one loop over shared memory (%d shuffles)", c.name, shuffles)
		case m.k.Mode == scanSeg && (shuffles != 2*len(m.k.Acc) || !strings.Contains(m.fastBody, "[ar_v]")):
			t.Errorf("%s: tier 1's segmented block scan: %d shuffles, want one level (%d)", c.name, shuffles, 2*len(m.k.Acc))
		}
	}
	tier1ScanStyle = saved
	// The deterministic mode's fixed order is the window's: tier 1 keeps it.
	for _, c := range scanProgs() {
		p := c.build()
		lim := DefaultLimits
		lim.Deterministic = true
		m, err := genScan(p, scanStmtOf(t, p), lim)
		if err != nil {
			t.Fatal(err)
		}
		if m.k.Det && !strings.Contains(lookBackText(m.fastBody), "ar_anchor") {
			t.Errorf("%s: tier 1's deterministic look-back lost its anchors", c.name)
		}
	}
}

// lookBackText is a scan kernel's text from its look-back's publishing of
// the block aggregate to the barrier after it.
func lookBackText(body string) string {
	i := strings.Index(body, "AR_AGGREGATE")
	if i < 0 {
		return ""
	}
	j := strings.Index(body[i:], "__syncthreads();")
	if j < 0 {
		return body[i:]
	}
	return body[i : i+j]
}
