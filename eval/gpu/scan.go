package gpu

// Single-pass scans on the GPU: the scanomap of a Screma with scans, the
// regular segmented scan of a Segmented with scans, and filter/partition by
// compaction. They share one kernel skeleton (kernels/scan.cu and
// kernels/filter.cu): a tile per block in atomic-ticket order, a striped
// load through the fused map, a transposition through shared memory, a
// sequential scan per thread, warp and block scans, and the decoupled
// look-back of one warp over windows of 32 predecessors, whose states lie
// a cache line's part apart (stateSpread). The parts that depend on the
// program are rendered here, in Go, as the methods the templates call.
//
// Variants that lost to this kernel on the H200 were measured and removed:
// persistent blocks that prefetch their next tile, tiles in dynamic shared
// memory, a block-wide look-back (bench/RESULTS.md, "GPU scan", run 6), a
// ninth warp that looks back during the load (run 9).
//
// Scan statements get a module of their own (prelude, scan helpers, the
// program's device functions the lambdas call, one kernel), generated when
// the statement first runs and cached like every other module, so this file
// needs nothing from the generator of the map and reduction kernels but
// its code emitter.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/template"

	"github.com/arepl/arepl/kernels"
	"github.com/arepl/arepl/lang/core"
)

// scanMode is the kind of single-pass kernel.
type scanMode int

const (
	scanPlain  scanMode = iota // scanomap: map, scans, map-outs, post-map
	scanSeg                    // regular segmented scan: segments of ar_w elements
	scanFilter                 // filter or partition: compaction on an i64 count
)

var scanModeName = [...]string{scanPlain: "scanomap", scanSeg: "segmented scan", scanFilter: "filter"}

var scanTemplateFile = [...]string{scanPlain: "scan.cu", scanSeg: "scan.cu", scanFilter: "filter.cu"}

// scanParamKind says what the host passes for one parameter of a scan
// kernel; the C declarations and the launch's arguments are both made from
// the same []scanParam.
type scanParamKind int

const (
	spN      scanParamKind = iota // i64 elements
	spW                           // i64 segment width (0 unless segmented)
	spEnv                         // a free variable or its dimension (kparam)
	spIn                          // input array k
	spOut                         // map-out k, written during the load
	spRes                         // result array k
	spState                       // tile states (value and status words)
	spTicket                      // u32 tile ticket
	spCount                       // i64 kept count (filter)
)

type scanParam struct {
	kind scanParamKind
	k    int
	t    core.PrimType
	env  kparam
}

func (p scanParam) decl() string {
	switch p.kind {
	case spN:
		return "const i64 ar_n"
	case spW:
		return "const i64 ar_w"
	case spEnv:
		return p.env.decl()
	case spIn:
		return fmt.Sprintf("const %s *__restrict__ ar_in%d", ctype(p.t), p.k)
	case spOut:
		return fmt.Sprintf("%s *__restrict__ ar_out%d", ctype(p.t), p.k)
	case spRes:
		return fmt.Sprintf("%s *__restrict__ ar_res%d", ctype(p.t), p.k)
	case spState:
		return "u64 *__restrict__ ar_state"
	case spTicket:
		return "unsigned int *__restrict__ ar_ticket"
	case spCount:
		return "i64 *__restrict__ ar_count"
	}
	return "/* bad parameter */"
}

// scanKernel is one generated single-pass kernel and what the host needs
// to launch it.
type scanKernel struct {
	// Trace renders the instrumented variant (`:trace`): timestamps at
	// every phase boundary (kernels/scan_prelude.cu, AR_TRACE_MARK).
	Trace    bool
	traceSrc string
	// Fast renders tier 1's variant of the kernel (fastSrc; tier.go): the
	// same launch shape, parameters and results, in less code for NVRTC.
	// Every tile takes the checked load and store loops (perTileCase), and
	// a kernel that recomputes its store does so in one pass writing every
	// result (recomputedStore). -Ofc=mid leaves the loops rolled anyway,
	// so NVRTC's time follows the inlined calls of the map and the
	// operator, and the copies of each loop. In run 12 (bench/RESULTS.md,
	// "Interactive latency") the scans' mean compile stage in the REPL fell
	// 3-8% (MSSP scan 155 -> 144 ms) and their tier-1 kernels ran 1.7-3
	// times longer at 10^6 elements (MSSP scan 29 -> 70-88 µs) until tier 2
	// replaced them: microseconds for milliseconds. Since run 18 its
	// look-back reads one predecessor at a time (tier1ScanStyle,
	// serialLookBack).
	Fast    bool
	fastSrc string
	Name    string
	Mode    scanMode
	Stmt    *core.Stmt
	Outer   []core.Atom // scanSeg: the outer dimensions
	W       core.Atom   // elements (per segment for scanSeg)
	Arrs    []*core.Var
	Block   int
	Seq     int
	// Words is the number of 64-bit halves of a tile state (one slot of
	// it when Multi); Offs are the components' byte offsets in it (see
	// stateLayout).
	Words int
	Multi bool
	Offs  []int
	// MinBlocks, when positive, is the blocks per multiprocessor the
	// kernel's launch bounds ask the register allocation to allow.
	MinBlocks int
	// Delay is the look-back's wait in ns before it first reads its
	// predecessors' states, and Spin its wait while one is not ready, in
	// grids of at least 500 tiles.
	Delay, Spin int
	// Recompute: the tile keeps only its staged inputs, and the store
	// recomputes each thread's scan from them once per result (recomputes).
	Recompute bool
	// Unroll is the unroll factor of the secondary loops over a thread's
	// Seq elements (unrollSecondary): 0 unrolls them fully.
	Unroll int
	// Spread, when above 1, puts tile t's state at Spread times its packed
	// place (stateIdx), so that a window of 32 states spans Spread times as
	// many cache lines (stateSpread).
	Spread int

	In      []core.PrimType // element types of the inputs
	Scan    []core.PrimType // scanned components kept in shared memory
	Acc     []core.PrimType // accumulator: Scan, then the segment flag (scanSeg)
	Neutral []string        // C neutral elements of Acc
	Out     []core.PrimType // map-outs written during the load
	Held    []core.PrimType // values kept in shared memory for the store: map-outs the post-map reads, filter values
	Res     []core.PrimType // result arrays
	Part    bool            // scanFilter: partition (rejected values after the kept ones in Res)
	Env     []*core.Var
	params  []scanParam

	hasMap bool // the map lambda exists (filter without a map has none)
	light  bool // no map, post-map or predicate computes anything
	// Det fixes the look-back's combination order (Limits.Deterministic,
	// for accumulators with a float): CUB's stable order, where only
	// every 32nd tile (an anchor) publishes its inclusive prefix and every
	// tile combines exactly the aggregates back to its anchor's prefix.
	Det     bool
	hasPost bool   // a post-map computes the results
	envArgs string // the env as arguments of device functions
	fnMap   string
	fnComb  string
	fnPost  string
	fnPred  string
	checks  bool
	src     string // device functions and the kernel
}

// Params is the kernel's C parameter list.
func (k *scanKernel) Params() string {
	ds := make([]string, len(k.params))
	for i, p := range k.params {
		ds[i] = p.decl()
	}
	return strings.Join(ds, ", ")
}

// Tile is the number of elements of one block's tile.
func (k *scanKernel) Tile() int { return k.Block * k.Seq }

// Seg reports whether segments restart the scan.
func (k *scanKernel) Seg() bool { return k.Mode == scanSeg }

// tileSlots is the shared-memory slots of one tile, padded by ar_pad.
func tileSlots(tile int) int { return tile + tile/32 + 1 }

// sharedBytes is the static shared memory of a kernel with m elements per
// thread: one padded tile per scanned and held component, the threads'
// prefixes (ar_tp, when the store applies them), and the block scan's
// per-warp values, block aggregate and prefix.
func sharedBytes(scan, held, acc []core.PrimType, block, m int, prefixes bool) int {
	n := 0
	for _, t := range scan {
		n += tileSlots(block*m) * t.Size()
		if prefixes {
			n += block * t.Size()
		}
	}
	for _, t := range held {
		n += tileSlots(block*m) * t.Size()
	}
	for _, t := range acc {
		n += (2*32 + 2) * t.Size()
	}
	return n + 16
}

// sharedFor is the static shared memory of the scan with m elements per
// thread: sharedBytes, or for a kernel that recomputes its
// store one padded tile per staged input and one for the results, and the
// block scan's values.
func (k *scanKernel) sharedFor(m int) int {
	if !k.Recompute {
		return sharedBytes(k.Scan, k.Held, k.Acc, k.Block, m, !k.Seg())
	}
	return sharedBytes(k.In, nil, k.Acc, k.Block, m, false) + tileSlots(k.Block*m)*maxSize(k.Res)
}

// maxSize is the size of the largest of ts.
func maxSize(ts []core.PrimType) int {
	n := 0
	for _, t := range ts {
		n = max(n, t.Size())
	}
	return n
}

// recomputes reports whether a plain scan should keep only its staged
// inputs in shared memory and recompute its threads' scans in the store
// (StorePhase, Limits.ScanRecompute): a scan that stages (stages, parity
// aside) whose inputs and largest result take fewer bytes an element than
// its scanned components. MSSP's one i32 becomes four: 8 bytes an element
// instead of 16, so tiles of twice the elements in the same shared memory,
// for the price of running the map and operator once more per result.
// Such a kernel keeps the scan's usual block of 256 threads (not
// wideScanBlock: that block suited tiles of the scanned values) and
// scanSeq's degree. Measured on the H200 (bench/RESULTS.md, "GPU scan"
// run 9), MSSP at 2^28: 1.432 ms at 256 x 21 (0.88 of copy), 1.444 at
// 256 x 19, 1.476 at 128 x 31; keeping the scanned values, 1.649 at the
// shipped 128 x 19 and 1.65-1.87 at the other shapes.
func (k *scanKernel) recomputes(lim Limits) bool {
	if lim.ScanRecompute < 0 || k.Mode != scanPlain || !k.stagesShape() {
		return false
	}
	in := 0
	for _, t := range k.In {
		in += t.Size()
	}
	scan := 0
	for _, t := range k.Scan {
		scan += t.Size()
	}
	return lim.ScanRecompute > 0 || in+maxSize(k.Res) < scan
}

// shared is the kernel's static shared memory: the filter's round counts,
// or the scan's tiles and block-scan values.
func (k *scanKernel) shared() int {
	if k.Mode == scanFilter {
		return filterShared(k.Held, k.Block, k.Seq)
	}
	return k.sharedFor(k.Seq)
}

// scanSeq is the sequentiality degree: the formula of seqDegree (thesis
// §5.3 with Futhark's 2·Σw) on the scanned components' types, lowered
// until the tiles fit in a block's static shared memory. A segmented
// scan's flag is left out: it is recomputed from the index, never stored
// (with it, i32 segments got 15 per thread and ran at 0.72 of copy at
// length 1000; without it 31 and 0.76, bench/RESULTS.md).
//
// Values narrower than 4 bytes in a plain scan are one exception: the
// formula counts them as a word, but a tile's cost is mostly its look-back, so
// their tiles carry about as many bytes as a 4-byte scan's: 4/size times
// the degree, at most narrowScanMaxSeq, less one to keep it odd (which the
// 16-byte copies need). Measured on the H200 (bench/RESULTS.md, "GPU scan"
// run 10), 2^28 elements, kernel ms at 256 threads and degree 31 / 47 / 61
// / 63 / 95 / 123 / 127: u8 0.256 / 0.227 / 0.217 / 0.213 / 0.2025 / 0.214 /
// 0.334; i16 0.305 / 0.293 / 0.296 / 0.292 / 0.302 / 0.302 / 0.303.
//
// Accumulators that span several look-back words (k.Multi, e.g. MSSP's
// four i32) are the other. The formula bounds them by registers, but
// this kernel keeps a thread's elements in shared memory, and their tiles
// were too small to pay for the look-back each tile waits for. They run
// wideScanBlock threads with the largest odd degree that still lets
// wideScanResident blocks share a multiprocessor's shared memory: the sweep
// in bench/RESULTS.md ("GPU scan", run 4) put MSSP at 1.82 ms with 128 x 19
// (5 blocks per SM) against 1.96 with 256 x 7, 1.87 with 128 x 21 (4 per
// SM) and 1.87-2.33 elsewhere.
func scanSeq(k *scanKernel, lim Limits) int {
	limit := lim.SharedPerBlock
	m := seqDegree(k.Scan, 0, k.Block, Limits{SMs: lim.SMs, MaxThreadsPerBlock: lim.MaxThreadsPerBlock,
		SharedPerBlock: 1 << 30, SharedOptin: lim.SharedOptin, RegsPerBlock: lim.RegsPerBlock, Seq: lim.Seq})
	if k.Multi && lim.Seq <= 0 && lim.SharedPerSM > 0 {
		// 1 KB per block is the driver's.
		limit = min(limit, lim.SharedPerSM/wideScanResident-1024)
		m = wideScanMaxSeq
	}
	if w := maxSize(k.Scan); w < 4 && lim.Seq <= 0 && k.Mode == scanPlain {
		// Narrow values: tiles of the 4-byte tile's bytes (see above).
		m = min(m*4/w, narrowScanMaxSeq+1) - 1
	}
	for m > 1 && k.sharedFor(m) > limit {
		m--
	}
	if (k.Multi && lim.Seq <= 0 || k.Recompute) && m > 1 && m%2 == 0 {
		m-- // odd: no padding (padK), which staging needs
	}
	return m
}

// narrowScanMaxSeq caps the degree of scans of values narrower than 4
// bytes (scanSeq).
const narrowScanMaxSeq = 95

// The shape of scans whose accumulator spans several look-back words
// (scanSeq).
const (
	wideScanBlock    = 128
	wideScanResident = 5
	wideScanMaxSeq   = 31
)

// filterSeq is the elements per thread of a filter: the formula's degree
// for the values each thread keeps in registers, at most 32 rounds (so
// that the block's round counts, one per warp and round, are at most one
// per thread).
func filterSeq(k *scanKernel, lim Limits) int {
	m := seqDegree(k.Held, 0, k.Block, Limits{SMs: lim.SMs, MaxThreadsPerBlock: lim.MaxThreadsPerBlock,
		SharedPerBlock: 1 << 30, SharedOptin: lim.SharedOptin, RegsPerBlock: lim.RegsPerBlock, Seq: lim.Seq})
	if len(k.Held) == 0 {
		m = 32
	}
	m = max(1, min(m, filterMaxSeq))
	for m > 1 && filterShared(k.Held, k.Block, m) > lim.SharedPerBlock {
		m--
	}
	return m
}

// filterMaxSeq caps a filter's elements per thread: each keeps its values,
// predicate and ballot in registers until the compaction, and at 31 per
// thread (i32) the kernel ran at half the speed of 15 (bench/RESULTS.md).
const filterMaxSeq = 15

// filterShared is a filter's static shared memory: the compacted tile,
// the round counts and the block's counts.
func filterShared(held []core.PrimType, block, m int) int {
	n := 4*(m*block/32+32) + 2*8 + 4
	for _, t := range held {
		n += block * m * t.Size()
	}
	return n
}

// minBlocks is the blocks per multiprocessor a scan kernel's launch bounds
// ask for, which caps its registers. The single-pass kernels are
// latency-bound (every block waits on its look-back, and other blocks'
// loads must fill that time), so occupancy matters more than registers: a
// kernel that only moves elements through its operator (Light) asks for a
// full multiprocessor of threads (32 registers on sm_90), any other for
// three quarters (42), since a fused map, a post-map or a predicate then
// spills. Measured on the H200 (bench/RESULTS.md), 6 / 8 blocks: i32 scan
// 0.77 / 0.72 ms, scanomap 0.71 / 0.91, filter 0.73 / 0.90, i64, f64 and
// MSSP within 2%; without launch bounds (80 registers, 3 blocks) every
// one was 10-50% slower. Limits.ScanMinBlocks overrides it for measuring.
func minBlocks(k *scanKernel, lim Limits) int {
	if lim.ScanMinBlocks > 0 {
		return lim.ScanMinBlocks
	}
	if lim.ThreadsPerSM <= 0 {
		return 0
	}
	full := lim.ThreadsPerSM / k.Block
	if k.light {
		return max(1, full)
	}
	return max(1, full*3/4)
}

// hasFloat reports whether ts has a floating-point type: only those make
// the combination order visible in the results.
func hasFloat(ts []core.PrimType) bool {
	for _, t := range ts {
		if t == core.F32 || t == core.F64 {
			return true
		}
	}
	return false
}

// lookBackWaits are the look-back's waits in ns: CUB's sm_90 values for
// 4-byte sums (first wait 1245, retry 648), which measured 3-5% faster
// than no first wait and exponential retries on every scan of the H200
// benchmark (bench/RESULTS.md); Limits.ScanDelay and ScanSpin override
// them for measuring.
func lookBackWaits(lim Limits) (delay, spin int) {
	delay, spin = 1200, 650
	if lim.ScanDelay > 0 {
		delay = lim.ScanDelay
	}
	if lim.ScanSpin > 0 {
		spin = lim.ScanSpin
	}
	return delay, spin
}

// scanBlock is the threads of a scan block: 256, or Limits.ScanBlock when
// a measurement sets it.
func scanBlock(lim Limits) int {
	if lim.ScanBlock > 0 {
		return lim.ScanBlock
	}
	return 256
}

// stateLayout packs an accumulator into look-back words. Up to 4 bytes of
// components go in one 8-byte word and up to 12 in one 16-byte word, the
// status in the word's last 4 bytes (words = 1 or 2 halves, multi false).
// A larger accumulator is spread over 16-byte words of 12 payload bytes
// and a 4-byte "written" mark each, in two write-once slots per tile, the
// aggregate's and the inclusive prefix's (multi true, words = the slot's
// halves): a reader that sees every mark of a slot has the whole value,
// still without a fence. Components sit at offsets aligned to their sizes
// (byte offsets over the slot's words, 16 bytes per word).
func stateLayout(acc []core.PrimType) (words int, multi bool, offs []int) {
	off := 0
	for _, t := range acc {
		sz := t.Size()
		off = (off + sz - 1) / sz * sz
		offs = append(offs, off)
		off += sz
	}
	switch {
	case off <= 4:
		return 1, false, offs
	case off <= 12:
		return 2, false, offs
	}
	offs, word, off := offs[:0], 0, 0
	for _, t := range acc {
		sz := t.Size()
		off = (off + sz - 1) / sz * sz
		if off+sz > 12 {
			word, off = word+1, 0
		}
		offs = append(offs, 16*word+off)
		off += sz
	}
	return 2 * (word + 1), true, offs
}

// unpackBits renders the value of type t whose bit pattern is the low bits
// of the 64-bit expression w (ar_bits' inverse).
func unpackBits(t core.PrimType, w string) string {
	switch t {
	case core.Bool:
		return fmt.Sprintf("((%s) & 1ull) != 0", w)
	case core.I8, core.I16, core.I32:
		return fmt.Sprintf("(%s)(u%s)(%s)", ctype(t), ctype(t)[1:], w)
	case core.U8, core.U16, core.U32, core.I64, core.U64:
		return fmt.Sprintf("(%s)(%s)", ctype(t), w)
	case core.F32:
		return fmt.Sprintf("__uint_as_float((u32)(%s))", w)
	case core.F64:
		return fmt.Sprintf("__longlong_as_double((i64)(%s))", w)
	}
	return "/* bad type */"
}

// scanGen renders the scan kernel of one statement.
type scanGen struct {
	prog  *core.Program
	lim   Limits
	sites []errSite
	funs  map[string]bool
}

// kernel returns the single-pass kernel of s, or an *unsupported
// error saying why s is not one, or another error for a malformed
// statement.
func (g *scanGen) kernel(s *core.Stmt) (*scanKernel, error) {
	switch e := s.Exp.(type) {
	case *core.Screma:
		return g.screma(s, e, nil)
	case *core.Segmented:
		if e.Op == nil {
			return nil, fmt.Errorf("internal error: segmented statement without an operation")
		}
		if len(e.Outer) == 0 {
			return nil, fmt.Errorf("internal error: segmented statement without outer dimensions")
		}
		return g.screma(s, e.Op, e.Outer)
	case *core.Filter:
		return g.filter(s, e)
	}
	return nil, unsup("%s is not a scan", expName(s.Exp))
}

func (g *scanGen) screma(s *core.Stmt, op *core.Screma, outer []core.Atom) (*scanKernel, error) {
	if len(op.Scans) == 0 {
		return nil, unsup("%s has no scan", op.Kind())
	}
	if len(op.Reds) > 0 {
		return nil, unsup("a scan fused with a reduction is not generated yet")
	}
	k := &scanKernel{Mode: scanPlain, Stmt: s, Outer: outer, W: op.W, Arrs: op.Arrs, Block: scanBlock(g.lim), hasMap: true}
	if outer != nil {
		k.Mode = scanSeg
	}
	for _, a := range op.Arrs {
		if a.Type.Rank != 1+len(outer) {
			return nil, unsup("%s over rows of %s (nested parallelism is not generated yet)", op.Kind(), a.Name)
		}
		k.In = append(k.In, a.Type.Elem)
	}
	for _, sc := range op.Scans {
		if len(sc.Lambda.Params) != 2*len(sc.Neutral) {
			return nil, fmt.Errorf("internal error: scan operator with %d parameters for %d components", len(sc.Lambda.Params), len(sc.Neutral))
		}
		for _, ne := range sc.Neutral {
			t := ne.AtomType()
			if t.IsArray() {
				return nil, unsup("a scan of arrays (vectorised operator) is not generated yet")
			}
			k.Scan = append(k.Scan, t.Elem)
			c, err := atom(ne)
			if err != nil {
				return nil, err
			}
			k.Neutral = append(k.Neutral, c)
		}
	}
	k.Acc = append([]core.PrimType(nil), k.Scan...)
	if k.Mode == scanSeg {
		k.Acc = append(k.Acc, core.Bool)
		k.Neutral = append(k.Neutral, "false")
	}
	if len(op.Map.Ret) < len(k.Scan) {
		return nil, fmt.Errorf("internal error: map returns %d values for %d scanned components", len(op.Map.Ret), len(k.Scan))
	}
	var outs []core.PrimType
	for _, t := range op.Map.Ret[len(k.Scan):] {
		if t.IsArray() {
			return nil, unsup("a map producing arrays is not generated yet")
		}
		outs = append(outs, t.Elem)
	}
	if op.Post != nil {
		k.hasPost = true
		k.Held = outs
		for _, t := range op.Post.Ret {
			if t.IsArray() {
				return nil, unsup("a post-map producing arrays is not generated yet")
			}
			k.Res = append(k.Res, t.Elem)
		}
	} else {
		k.Out = outs
		k.Res = k.Scan
	}
	fs := newFreeSet()
	var idx []*core.Var
	if op.Index != nil {
		idx = []*core.Var{op.Index}
	}
	fs.lambda(op.Map, idx, map[string]bool{})
	for _, sc := range op.Scans {
		fs.lambda(sc.Lambda, nil, map[string]bool{})
		fs.stmts(nil, sc.Neutral, map[string]bool{})
	}
	if op.Post != nil {
		fs.lambda(op.Post, nil, map[string]bool{})
	}
	if fs.err != nil {
		return nil, fs.err
	}
	k.Env = fs.order
	k.Words, k.Multi, k.Offs = stateLayout(k.Acc)
	k.light = core.IsIdentityLambda(op.Map) && op.Post == nil
	k.Recompute = k.recomputes(g.lim)
	if k.Multi && !k.Recompute && g.lim.ScanBlock <= 0 {
		k.Block = wideScanBlock
	}
	k.Seq = scanSeq(k, g.lim)
	k.Det = g.lim.Deterministic && hasFloat(k.Acc)
	k.Spread = stateSpread(k, g.lim)
	k.Unroll = secondaryUnroll(k, g.lim)
	k.MinBlocks = minBlocks(k, g.lim)
	k.Delay, k.Spin = lookBackWaits(g.lim)
	k.Name = "k_" + strings.ReplaceAll(scanModeName[k.Mode], " ", "_")
	g.params(k)
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s: %s at %v\n", k.Name, scanModeName[k.Mode], s.Pos)
	if err := g.mapFun(&b, k, op.Map, op.Index); err != nil {
		return nil, err
	}
	if err := g.combFun(&b, k, op.Scans); err != nil {
		return nil, err
	}
	if op.Post != nil {
		k.fnPost = k.Name + "_post"
		if err := g.lambdaFun(&b, k, k.fnPost, op.Post, false); err != nil {
			return nil, err
		}
	}
	return g.finish(&b, k)
}

func (g *scanGen) filter(s *core.Stmt, f *core.Filter) (*scanKernel, error) {
	k := &scanKernel{Mode: scanFilter, Stmt: s, W: f.W, Arrs: f.Arrs, Block: scanBlock(g.lim), Part: f.Partition, hasMap: f.Map != nil}
	for _, a := range f.Arrs {
		if a.Type.Rank != 1 {
			return nil, unsup("filter over rows of %s (nested parallelism is not generated yet)", a.Name)
		}
		k.In = append(k.In, a.Type.Elem)
	}
	vals := k.In
	if f.Map != nil {
		vals = nil
		for _, t := range f.Map.Ret {
			if t.IsArray() {
				return nil, unsup("a map producing arrays is not generated yet")
			}
			vals = append(vals, t.Elem)
		}
	}
	if len(f.Pred.Params) != len(vals) || len(f.Pred.Ret) != 1 || f.Pred.Ret[0] != core.Scalar(core.Bool) {
		return nil, fmt.Errorf("internal error: filter predicate of %d parameters and results %v for %d values", len(f.Pred.Params), f.Pred.Ret, len(vals))
	}
	k.Scan = []core.PrimType{core.I64}
	k.Acc = k.Scan
	k.Neutral = []string{"((i64)0LL)"}
	k.Held = vals
	k.Res = append([]core.PrimType(nil), vals...)
	if f.Partition {
		k.Res = append(k.Res, vals...)
	}
	fs := newFreeSet()
	if f.Map != nil {
		var idx []*core.Var
		if f.Index != nil {
			idx = []*core.Var{f.Index}
		}
		fs.lambda(f.Map, idx, map[string]bool{})
	}
	fs.lambda(f.Pred, nil, map[string]bool{})
	if fs.err != nil {
		return nil, fs.err
	}
	k.Env = fs.order
	k.Seq = filterSeq(k, g.lim)
	k.Words, k.Multi, k.Offs = stateLayout(k.Acc)
	k.Spread = stateSpread(k, g.lim)
	k.MinBlocks = minBlocks(k, g.lim)
	k.Delay, k.Spin = lookBackWaits(g.lim)
	k.Name = "k_filter"
	if f.Partition {
		k.Name = "k_partition"
	}
	g.params(k)
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s: %s at %v\n", k.Name, expName(f), s.Pos)
	if f.Map != nil {
		if err := g.mapFun(&b, k, f.Map, f.Index); err != nil {
			return nil, err
		}
	}
	k.fnPred = k.Name + "_pred"
	if err := g.lambdaFun(&b, k, k.fnPred, f.Pred, false); err != nil {
		return nil, err
	}
	k.fnComb = k.Name + "_comb"
	fmt.Fprintf(&b, "static __device__ __forceinline__ void %s(%s) {\n  *ar_r0 = a0 + b0;\n}\n", k.fnComb,
		strings.Join(append(envDecls(k), "i64 a0", "i64 b0", "i64 *ar_r0"), ", "))
	return g.finish(&b, k)
}

// tier1ScanStyle is how tier 1's scan text (scanKernel.Fast) is written,
// from AREPL_TIER1_SCAN: tier1Unrolled as before run 18 (the thread scan
// unrolled, the look-back folding windows of 32 states by shuffles),
// tier1Rolled (every loop over a thread's elements or a warp's lanes
// marked rolled), tier1Serial (rolled, and lane 0 of warp 0 looks back
// one predecessor at a time: serialLookBack), tier1LookBack (the serial
// look-back alone, the default of run 18), or tier1Shared (the serial
// look-back, and the block scan through shared memory: sharedScan), the
// default. Tier 2 is unaffected.
//
// Measured on the H200 (bench/RESULTS.md, "Interactive latency", run 18;
// NVRTC at -Ofc=mid to PTX, then the JIT at -O1): the serial look-back cut
// the MSSP scan's PTX from 26.2 to 22.8 KB and the 4-tuple post-map
// scan's from 34.2 to 29.0, and their compile from 94.1 to 87.6 ms and
// from 126.1 to 94.7 (means of 5, interleaved); scan i32 74.8 -> 57.0,
// segmented 94.0 -> 87.5. Marking the loops rolled gave nothing: -Ofc=mid
// leaves them rolled anyway, and the PTX grew by up to 1 KB. The tier-1
// kernel of a scan of 10^6 i32 ran 22.7 µs instead of 19.9 until tier 2
// replaced it; the MSSP scan's as before (71-94 µs).
//
// Run 19 (two calls on one H200, interleaved): tier1Shared cut the MSSP
// scan's PTX from 22.8 to 18.5 KB (the post-map scan's 29.0 -> 21.0,
// scan i32 10.6 -> 9.1, segmented 16.9 -> 15.3) and its compile in
// TestTier1Lab from 100.2 to 84.6 and 83.9 ms (means of 5 and 6); in the
// REPL (`:time`'s compile stage, latency_cold.sh) the MSSP scan's mean of 5
// sessions went from 102.8 to 91.6 ms (lower in each round; the first
// call's 3 rounds tied at 96.7) and the 3-tuple scan's from 101.0 to 87.0.
// The tier-1 kernels ran as before (MSSP scan 87-92 µs at 10^6, scan i32
// 23 µs) until tier 2 replaced them.
type tier1Style int

const (
	tier1Unrolled tier1Style = iota
	tier1Rolled
	tier1Serial
	tier1LookBack
	tier1Shared
)

// tier1Styles names the styles for AREPL_TIER1_SCAN and the lab.
var tier1Styles = map[string]tier1Style{"unrolled": tier1Unrolled, "rolled": tier1Rolled, "serial": tier1Serial, "lookback": tier1LookBack, "shared": tier1Shared}

var tier1ScanStyle = func() tier1Style {
	if st, ok := tier1Styles[os.Getenv("AREPL_TIER1_SCAN")]; ok {
		return st
	}
	return tier1Shared
}()

// rolled reports whether this rendering keeps tier 1's loops rolled.
func (k *scanKernel) rolled() bool {
	return k.Fast && (tier1ScanStyle == tier1Rolled || tier1ScanStyle == tier1Serial)
}

// serialLook reports whether this rendering looks back one predecessor at
// a time (serialLookBack).
func (k *scanKernel) serialLook() bool {
	return k.Fast && !k.Det && (tier1ScanStyle == tier1Serial || tier1ScanStyle == tier1LookBack || tier1ScanStyle == tier1Shared)
}

// sharedBlockScan reports whether this rendering scans the block's
// threads through shared memory (tier1Shared; sharedScan): a plain scan,
// not deterministic, whose per-thread buffer (blockBuf) exists.
func (k *scanKernel) sharedBlockScan() bool {
	return k.serialLook() && tier1ScanStyle == tier1Shared && k.Mode == scanPlain && k.blockBufFits()
}

// blockBufFits reports whether the shared memory tier 2 already declares
// holds one value of every accumulator component per thread, free from
// the thread scan to the look-back's barrier: the threads' prefixes ar_tp
// (a scan that keeps its scanned values), or the store's result buffer
// ar_rb, which tier 1's one-pass store (recomputedStoreOnce) leaves unused.
func (k *scanKernel) blockBufFits() bool {
	if !k.Recompute {
		return len(k.Acc) == len(k.Scan)
	}
	n := 0
	for _, t := range k.Acc {
		n += (k.Block*t.Size() + 15) &^ 15
	}
	return n <= tileSlots(k.Tile())*maxSize(k.Res)
}

// blockBuf is the shared array of accumulator component j's per-thread
// values for sharedScan: ar_tp_j, or its part of ar_rb (16-byte aligned).
func (k *scanKernel) blockBuf(j int) string {
	if !k.Recompute {
		return fmt.Sprintf("ar_tp_%d", j)
	}
	off := 0
	for _, t := range k.Acc[:j] {
		off += (k.Block*t.Size() + 15) &^ 15
	}
	return fmt.Sprintf("((%s *)(ar_rb + %d))", ctype(k.Acc[j]), off)
}

// finish instantiates the kernel's template after its device functions.
func (g *scanGen) finish(b *strings.Builder, k *scanKernel) (*scanKernel, error) {
	var out bytes.Buffer
	if err := scanTemplates.ExecuteTemplate(&out, scanTemplateFile[k.Mode], k); err != nil {
		return nil, fmt.Errorf("internal error: kernel template %s: %v", scanTemplateFile[k.Mode], err)
	}
	prefix := b.String()
	b.WriteString(strings.ReplaceAll(out.String(), "AR_PADK", k.padK()))
	k.src = b.String()
	if k.Mode != scanFilter {
		// The instrumented variant `:trace` runs (eval/trace.go).
		var traced bytes.Buffer
		k.Trace = true
		err := scanTemplates.ExecuteTemplate(&traced, scanTemplateFile[k.Mode], k)
		k.Trace = false
		if err != nil {
			return nil, fmt.Errorf("internal error: kernel template %s: %v", scanTemplateFile[k.Mode], err)
		}
		k.traceSrc = prefix + strings.ReplaceAll(traced.String(), "AR_PADK", k.padK())
		// Tier 1's variant.
		var fast bytes.Buffer
		k.Fast = true
		err = scanTemplates.ExecuteTemplate(&fast, scanTemplateFile[k.Mode], k)
		k.Fast = false
		if err != nil {
			return nil, fmt.Errorf("internal error: kernel template %s: %v", scanTemplateFile[k.Mode], err)
		}
		k.fastSrc = prefix + strings.ReplaceAll(fast.String(), "AR_PADK", k.padK())
	}
	return k, nil
}

// params lays out the kernel's parameters; see scanParamKind.
func (g *scanGen) params(k *scanKernel) {
	ps := []scanParam{{kind: spN}, {kind: spW}}
	env := []kparam{{kind: pErr}}
	for _, v := range k.Env {
		if v.Type.IsArray() {
			env = append(env, kparam{kind: pArray, v: v, t: v.Type.Elem})
			for d := 0; d < v.Type.Rank; d++ {
				env = append(env, kparam{kind: pDim, v: v, k: d})
			}
			continue
		}
		env = append(env, kparam{kind: pScalar, v: v, t: v.Type.Elem})
	}
	var args []string
	for _, p := range env {
		ps = append(ps, scanParam{kind: spEnv, env: p})
		switch p.kind {
		case pErr:
			args = append(args, "ar_err")
		case pDim:
			args = append(args, fmt.Sprintf("%s_d%d", cname(p.v.Name), p.k))
		default:
			args = append(args, cname(p.v.Name))
		}
	}
	k.envArgs = strings.Join(args, ", ")
	for j, t := range k.In {
		ps = append(ps, scanParam{kind: spIn, k: j, t: t})
	}
	for j, t := range k.Out {
		ps = append(ps, scanParam{kind: spOut, k: j, t: t})
	}
	for j, t := range k.Res {
		ps = append(ps, scanParam{kind: spRes, k: j, t: t})
	}
	ps = append(ps, scanParam{kind: spState})
	ps = append(ps, scanParam{kind: spTicket})
	if k.Mode == scanFilter {
		ps = append(ps, scanParam{kind: spCount})
	}
	k.params = ps
}

// envDecls is the env as parameters of a device function.
func envDecls(k *scanKernel) []string {
	var ds []string
	for _, p := range k.params {
		if p.kind == spEnv {
			ds = append(ds, p.decl())
		}
	}
	return ds
}

// mapFun renders the map lambda as NAME_map(env, index, elements...,
// results*...).
func (g *scanGen) mapFun(b *strings.Builder, k *scanKernel, m *core.Lambda, index *core.Var) error {
	k.fnMap = k.Name + "_map"
	e := &emitter{indent: 1, sites: &g.sites, funs: g.funs, prog: g.prog}
	ps := append(envDecls(k), "const i64 ar_index")
	for _, p := range m.Params {
		if p.Type.IsArray() {
			return unsup("map over rows of arrays is not generated yet")
		}
		ps = append(ps, ctype(p.Type.Elem)+" "+cname(p.Name))
	}
	var dst []string
	for j, t := range m.Ret {
		ps = append(ps, fmt.Sprintf("%s *ar_r%d", ctype(t.Elem), j))
		dst = append(dst, fmt.Sprintf("*ar_r%d", j))
	}
	if index != nil {
		e.line("const i64 %s = ar_index;", cname(index.Name))
	}
	if err := e.body(m.Body, dst); err != nil {
		return err
	}
	k.checks = k.checks || e.calls || len(g.sites) > 0
	fmt.Fprintf(b, "static __device__ __forceinline__ void %s(%s) {\n%s}\n", k.fnMap, strings.Join(ps, ", "), e.b.String())
	return nil
}

// lambdaFun renders a lambda of scalars as NAME(env, params..., results*...).
func (g *scanGen) lambdaFun(b *strings.Builder, k *scanKernel, name string, l *core.Lambda, _ bool) error {
	e := &emitter{indent: 1, sites: &g.sites, funs: g.funs, prog: g.prog}
	ps := envDecls(k)
	for _, p := range l.Params {
		if p.Type.IsArray() {
			return unsup("a lambda taking arrays is not generated yet")
		}
		ps = append(ps, ctype(p.Type.Elem)+" "+cname(p.Name))
	}
	var dst []string
	for j, t := range l.Ret {
		if t.IsArray() {
			return unsup("a lambda returning arrays is not generated yet")
		}
		ps = append(ps, fmt.Sprintf("%s *ar_r%d", ctype(t.Elem), j))
		dst = append(dst, fmt.Sprintf("*ar_r%d", j))
	}
	if err := e.body(l.Body, dst); err != nil {
		return err
	}
	k.checks = k.checks || e.calls || len(g.sites) > 0
	fmt.Fprintf(b, "static __device__ __forceinline__ void %s(%s) {\n%s}\n", name, strings.Join(ps, ", "), e.b.String())
	return nil
}

// combFun renders the combined operator of all scans (horizontal fusion:
// each scan combines its own components) as NAME_op, and for a segmented
// scan NAME_comb, the operator lifted to (value, flag) pairs: a flag on the
// right restarts the scan, and the result has a flag when either has.
func (g *scanGen) combFun(b *strings.Builder, k *scanKernel, scans []*core.ScanOp) error {
	e := &emitter{indent: 1, sites: &g.sites, funs: g.funs, prog: g.prog}
	var ops []*core.Lambda
	var widths []int
	for _, sc := range scans {
		ops, widths = append(ops, sc.Lambda), append(widths, len(sc.Neutral))
	}
	accs, elems, err := operatorBodies(e, ops, widths)
	if err != nil {
		return err
	}
	k.checks = k.checks || e.calls || len(g.sites) > 0
	ps := append(envDecls(k), accs...)
	ps = append(ps, elems...)
	for j, t := range k.Scan {
		ps = append(ps, fmt.Sprintf("%s *ar_r%d", ctype(t), j))
	}
	op := k.Name + "_op"
	fmt.Fprintf(b, "static __device__ __forceinline__ void %s(%s) {\n%s}\n", op, strings.Join(ps, ", "), e.b.String())
	if k.Mode != scanSeg {
		k.fnComb = op
		return nil
	}
	k.fnComb = k.Name + "_comb"
	var as, bs, rs, args []string
	for j, t := range k.Acc {
		as = append(as, fmt.Sprintf("%s a%d", ctype(t), j))
		bs = append(bs, fmt.Sprintf("%s b%d", ctype(t), j))
		rs = append(rs, fmt.Sprintf("%s *ar_r%d", ctype(t), j))
	}
	args = append(args, k.envArgs)
	for j := range k.Scan {
		args = append(args, fmt.Sprintf("a%d", j))
	}
	for j := range k.Scan {
		args = append(args, fmt.Sprintf("b%d", j))
	}
	for j := range k.Scan {
		args = append(args, fmt.Sprintf("ar_r%d", j))
	}
	f := len(k.Scan)
	fmt.Fprintf(b, "static __device__ __forceinline__ void %s(%s) {\n", k.fnComb, strings.Join(append(append(append(envDecls(k), as...), bs...), rs...), ", "))
	fmt.Fprintf(b, "  if (b%d) {\n", f)
	for j := range k.Scan {
		fmt.Fprintf(b, "    *ar_r%d = b%d;\n", j, j)
	}
	fmt.Fprintf(b, "  } else {\n    %s(%s);\n  }\n  *ar_r%d = a%d || b%d;\n}\n", op, strings.Join(args, ", "), f, f, f)
	return nil
}

// ---------------------------------------------------------------------------
// Code the templates call. Accumulators are C variables name_0, name_1, ...
// (one per component of Acc).

func (k *scanKernel) comps(name string, ts []core.PrimType) []string {
	out := make([]string, len(ts))
	for j := range ts {
		out[j] = fmt.Sprintf("%s_%d", name, j)
	}
	return out
}

// comb renders dst = a ⊕ b (dst may be a or b: arguments are by value).
func (k *scanKernel) comb(b *strings.Builder, dst, a, x string, indent int) {
	args := []string{k.envArgs}
	args = append(args, k.comps(a, k.Acc)...)
	args = append(args, k.comps(x, k.Acc)...)
	for _, d := range k.comps(dst, k.Acc) {
		args = append(args, "&"+d)
	}
	fmt.Fprintf(b, "%s%s(%s);\n", ind(indent), k.fnComb, strings.Join(args, ", "))
}

func (k *scanKernel) decl(b *strings.Builder, name string, indent int) {
	for j, t := range k.Acc {
		fmt.Fprintf(b, "%s%s %s_%d = %s;\n", ind(indent), ctype(t), name, j, k.Neutral[j])
	}
}

func (k *scanKernel) declUninit(b *strings.Builder, name string, indent int) {
	for j, t := range k.Acc {
		fmt.Fprintf(b, "%s%s %s_%d;\n", ind(indent), ctype(t), name, j)
	}
}

func (k *scanKernel) neutral(b *strings.Builder, name string, indent int) {
	for j := range k.Acc {
		fmt.Fprintf(b, "%s%s_%d = %s;\n", ind(indent), name, j, k.Neutral[j])
	}
}

// SharedDecl declares the padded tiles (ar_sh_j for scanned components,
// ar_sx_j for held values) and the block scan's shared values.
func (k *scanKernel) SharedDecl() string {
	var b strings.Builder
	slots := tileSlots(k.Tile())
	if k.Recompute {
		for j, t := range k.In {
			fmt.Fprintf(&b, "  __shared__ __align__(16) %s ar_sh_%d[%d];\n", ctype(t), j, slots)
		}
		fmt.Fprintf(&b, "  __shared__ __align__(16) unsigned char ar_rb[%d];\n", slots*maxSize(k.Res))
		for j, t := range k.Acc {
			fmt.Fprintf(&b, "  __shared__ %s ar_wt_%d[32], ar_wx_%d[32], ar_bagg_%d, ar_bpre_%d;\n", ctype(t), j, j, j, j)
		}
		return strings.TrimRight(b.String(), "\n")
	}
	for j, t := range k.Scan {
		fmt.Fprintf(&b, "  __shared__ __align__(16) %s ar_sh_%d[%d];\n", ctype(t), j, slots)
		if !k.Seg() {
			fmt.Fprintf(&b, "  __shared__ %s ar_tp_%d[%d];\n", ctype(t), j, k.Block)
		}
	}
	for j, t := range k.Held {
		fmt.Fprintf(&b, "  __shared__ %s ar_sx_%d[%d];\n", ctype(t), j, slots)
	}
	for j, t := range k.Acc {
		fmt.Fprintf(&b, "  __shared__ %s ar_wt_%d[32], ar_wx_%d[32], ar_bagg_%d, ar_bpre_%d;\n", ctype(t), j, j, j, j)
	}
	return strings.TrimRight(b.String(), "\n")
}

// loadInputs renders the loads of element ar_i of every input into
// ar_x_j and returns those names.
func (k *scanKernel) loadInputs(b *strings.Builder) []string {
	var xs []string
	for j, t := range k.In {
		fmt.Fprintf(b, "      const %s ar_x_%d = ar_in%d[ar_i];\n", ctype(t), j, j)
		xs = append(xs, fmt.Sprintf("ar_x_%d", j))
	}
	return xs
}

// LoadPhase loads the tile striped: inputs, the map (map-outs written
// now, or kept for the post-map), the scanned values into ar_sh. (The
// filter has its own phases: FilterLoad, FilterCounts, FilterCompact,
// FilterStore.)
func (k *scanKernel) LoadPhase() string {
	if k.stages() {
		return k.perTileCase(func(checked bool) string {
			if checked {
				return k.stageLoop()
			}
			return k.copyLoop(true)
		})
	}
	if k.copies() {
		return k.perTileCase(func(checked bool) string {
			if checked {
				return k.loadLoop(true)
			}
			return k.copyLoop(true)
		})
	}
	return k.perTileCase(k.loadLoop)
}

// copies reports whether the scanned values go between global and shared
// memory unchanged, in the tile's order, 16 bytes at a time: no map,
// map-out or post-map, and an unpadded tile (odd Seq) of 1-, 2-, 4- or
// 8-byte values. Device arrays are whole allocations, so 256-byte aligned, and a
// warp's slice of a tile is a multiple of 16 bytes. Such a full tile is
// loaded with cp.async, straight into shared memory: no registers hold
// the loads (the kernel has 32 per thread), so all of a warp's loads are
// in flight at once instead of in register-sized batches, and stored
// from 16-byte shared-memory reads.
// chunkable reports whether values of size bytes fill 16-byte chunks
// whole.
func chunkable(size int) bool { return size == 1 || size == 2 || size == 4 || size == 8 }

func (k *scanKernel) copies() bool {
	if !k.light || k.Mode == scanFilter || len(k.Out) > 0 || len(k.Held) > 0 || k.Seq%2 == 0 || len(k.In) != len(k.Scan) {
		return false
	}
	for j, t := range k.Scan {
		if k.In[j] != t || !chunkable(t.Size()) {
			return false
		}
	}
	return true
}

// stages reports whether the load phase leaves the inputs themselves in
// the scanned components' tiles (input j in ar_sh_j, bit for bit) and
// ThreadScan applies the map as each thread reads its own elements: a map
// with no map-outs or held values, whose inputs are no more than the
// scanned components and each the size of its component (4 or 8 bytes),
// over an unpadded tile. MSSP's one i32 becomes four i32 components: the
// load phase then moves one word an element with cp.async instead of
// storing four, and ThreadScan reads one instead of four.
func (k *scanKernel) stages() bool {
	return k.Seq%2 == 1 && k.stagesShape()
}

// stagesShape is stages but for the degree's parity.
func (k *scanKernel) stagesShape() bool {
	if !k.hasMap || k.light || k.Mode == scanFilter || len(k.Out) > 0 || len(k.Held) > 0 ||
		len(k.In) == 0 || len(k.In) > len(k.Scan) {
		return false
	}
	for j, t := range k.In {
		if t.Size() != k.Scan[j].Size() || (t.Size() != 4 && t.Size() != 8) {
			return false
		}
	}
	return true
}

// stageLoop is stages' load phase for a tile that is not full: each input
// element in range goes to its slot as it is; ThreadScan gives the slots
// past the end the neutral element.
func (k *scanKernel) stageLoop() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.unroll(true), k.Seq)
	fmt.Fprintf(&b, "    const int ar_k = ar_warp * %d + ar_j * 32 + ar_lane;\n    const i64 ar_i = ar_base + ar_k;\n", 32*k.Seq)
	b.WriteString(k.ifInTile(true))
	for j, t := range k.In {
		fmt.Fprintf(&b, "      *(%s *)&ar_sh_%d[AR_PADK] = ar_in%d[ar_i];\n", ctype(t), j, j)
	}
	b.WriteString("    }\n  }")
	return b.String()
}

// copyLoop renders a full tile's copy between global memory and the
// warp's slice of shared memory in 16-byte chunks, striped over the lanes
// (cp.async into shared memory when load, plain 16-byte moves out of it
// otherwise, then waiting for a load's copies).
func (k *scanKernel) copyLoop(load bool) string {
	var b strings.Builder
	slice := 32 * k.Seq // elements of a warp's slice
	ts := k.Scan
	if load {
		ts = k.In // the same as Scan, or staged inputs (stages)
	}
	for j, t := range ts {
		chunks := slice * t.Size() / 16
		fmt.Fprintf(&b, "#pragma unroll\n  for (int ar_r = 0; ar_r < %d; ar_r++) {\n", (chunks+31)/32)
		fmt.Fprintf(&b, "    const int ar_c = ar_r * 32 + ar_lane;\n")
		fmt.Fprintf(&b, "    char *ar_s = (char *)(ar_sh_%d + ar_warp * %d) + ar_c * 16;\n", j, slice)
		g, q := "ar_res", ""
		if load {
			g, q = "ar_in", "const "
		}
		fmt.Fprintf(&b, "    %schar *ar_g = (%schar *)(%s%d + ar_base + ar_warp * %d) + ar_c * 16;\n", q, q, g, j, slice)
		if chunks%32 != 0 {
			fmt.Fprintf(&b, "    if (ar_c < %d) {\n", chunks)
		} else {
			b.WriteString("    {\n")
		}
		switch {
		case load:
			b.WriteString("      ar_cp_async16(ar_s, ar_g);\n")
		case k.Seg():
			b.WriteString("      *(uint4 *)ar_g = *(const uint4 *)ar_s;\n")
		default:
			// One component (StorePhase): its values get their threads'
			// prefixes on the way out. A chunk's e elements belong to at
			// most two threads when Seq >= e: two reads of ar_tp per chunk.
			e := 16 / t.Size()
			fmt.Fprintf(&b, "      union { uint4 v; %s e[%d]; } ar_u;\n      ar_u.v = *(const uint4 *)ar_s;\n", ctype(t), e)
			if k.Seq >= e {
				fmt.Fprintf(&b, "      const int ar_o = ar_c * %d / %d;\n", e, k.Seq)
				fmt.Fprintf(&b, "      const int ar_b1 = (ar_o + 1) * %d - ar_c * %d;\n", k.Seq, e)
				fmt.Fprintf(&b, "      const %s ar_t0 = ar_tp_0[ar_warp * 32 + ar_o];\n", ctype(t))
				fmt.Fprintf(&b, "      const %s ar_t1 = ar_tp_0[ar_warp * 32 + min(ar_o + 1, 31)];\n", ctype(t))
			}
			fmt.Fprintf(&b, "#pragma unroll\n      for (int ar_x = 0; ar_x < %d; ar_x++) {\n", e)
			var vals []string
			if k.Seq >= e {
				fmt.Fprintf(&b, "        const %s ar_tq_0 = ar_x < ar_b1 ? ar_t0 : ar_t1;\n", ctype(t))
				fmt.Fprintf(&b, "        const %s ar_c_0 = ar_u.e[ar_x];\n", ctype(t))
				k.declUninit(&b, "ar_z", 8)
				k.comb(&b, "ar_z", "ar_tq", "ar_c", 8)
				vals = []string{"ar_z_0"}
			} else {
				vals = k.storedValues(&b, fmt.Sprintf("ar_c * %d + ar_x", e), func(int) string { return "ar_u.e[ar_x]" }, 8)
			}
			fmt.Fprintf(&b, "        ar_u.e[ar_x] = %s;\n      }\n      *(uint4 *)ar_g = ar_u.v;\n", vals[0])
		}
		b.WriteString("    }\n  }\n")
	}
	if load {
		b.WriteString("  ar_cp_async_wait();\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// loadLoop is LoadPhase's loop, with bounds checks or (a full tile)
// without.
func (k *scanKernel) loadLoop(checked bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.unroll(checked), k.Seq)
	fmt.Fprintf(&b, "    const int ar_k = ar_warp * %d + ar_j * 32 + ar_lane;\n    const i64 ar_i = ar_base + ar_k;\n", 32*k.Seq)
	b.WriteString(k.ifInTile(checked))
	xs := k.loadInputs(&b)
	vals := xs
	if k.hasMap {
		index := "ar_i"
		if k.Mode == scanSeg {
			index = "ar_i % ar_w"
		}
		args := []string{k.envArgs, index}
		args = append(args, xs...)
		var ys []string
		rts := append(append(append([]core.PrimType(nil), k.Scan...), k.Out...), k.Held...)
		for j := range rts {
			y := fmt.Sprintf("ar_y_%d", j)
			fmt.Fprintf(&b, "      %s %s;\n", ctype(rts[j]), y)
			ys = append(ys, y)
			args = append(args, "&"+y)
		}
		fmt.Fprintf(&b, "      %s(%s);\n", k.fnMap, strings.Join(args, ", "))
		vals = ys
	}
	for j := range k.Scan {
		fmt.Fprintf(&b, "      ar_sh_%d[AR_PADK] = %s;\n", j, vals[j])
	}
	for j := range k.Out {
		fmt.Fprintf(&b, "      ar_out%d[ar_i] = %s;\n", j, vals[len(k.Scan)+j])
	}
	for j := range k.Held {
		fmt.Fprintf(&b, "      ar_sx_%d[AR_PADK] = %s;\n", j, vals[len(k.Scan)+j])
	}
	if checked {
		b.WriteString("    } else {\n")
		for j := range k.Scan {
			fmt.Fprintf(&b, "      ar_sh_%d[AR_PADK] = %s;\n", j, k.Neutral[j])
		}
	}
	b.WriteString("    }\n  }")
	return b.String()
}

// segCounter is how a segmented scan's thread finds, among its Seq
// consecutive elements, those that start a segment (index a multiple of
// ar_w): init declares the counter at the thread's first element, start
// tests it, step advances it one element, reset rewinds it for the second
// pass. The counter is ar_c, the distance to the next start capped at
// Seq+1, in 32 bits: a thread's elements hold several starts only when
// ar_w <= Seq, so capping ar_w there too (ar_wc) changes no flag, and a
// counter at the cap reaches 0 only past the thread's last element. (It
// replaced the 64-bit index modulo ar_w: 0.91-0.97 of copy instead of
// 0.81-0.92 for rows of 1 to 1000, bench/RESULTS.md.) TestSegCounters
// checks it against the definition.
func (k *scanKernel) segCounter() segCounter {
	rs := fmt.Sprintf("  const i64 ar_rs = (ar_base + (i64)threadIdx.x * %d) %% ar_w;\n", k.Seq)
	capped := k.Seq + 1
	return segCounter{
		init: rs + fmt.Sprintf("  const int ar_cs = (int)min(ar_rs == 0 ? (i64)0 : ar_w - ar_rs, (i64)%d);\n", capped) +
			fmt.Sprintf("  const int ar_wc = (int)min(ar_w, (i64)%d);\n  int ar_c = ar_cs;\n", capped),
		start: "ar_c == 0",
		step:  "ar_c = (ar_c == 0 ? ar_wc : ar_c) - 1;",
		reset: "  ar_c = ar_cs;\n",
	}
}

// segCounter is the rendered segment-start counter (scanKernel.segCounter).
type segCounter struct{ init, start, step, reset string }

// ThreadScan scans the thread's Seq consecutive elements in shared
// memory, in place (the thread's own slots: no other thread reads them
// until the next barrier), so no per-element registers limit occupancy;
// ar_acc ends as the thread's aggregate. A segmented scan flags the
// elements whose index is a multiple of ar_w, tracking the index modulo
// ar_w by increments (one division per thread).
func (k *scanKernel) ThreadScan() string {
	var b strings.Builder
	k.decl(&b, "ar_acc", 2)
	if k.Seg() {
		b.WriteString(k.segCounter().init)
	}
	pragma := "#pragma unroll"
	if k.rolled() {
		pragma = "#pragma unroll 1"
	}
	fmt.Fprintf(&b, "%s\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", pragma, k.Seq)
	fmt.Fprintf(&b, "    const int ar_k = threadIdx.x * %d + ar_j;\n", k.Seq)
	if k.stages() {
		k.stagedElement(&b)
	} else {
		for j, t := range k.Scan {
			fmt.Fprintf(&b, "    const %s ar_e_%d = ar_sh_%d[AR_PADK];\n", ctype(t), j, j)
		}
	}
	if k.Seg() {
		c := k.segCounter()
		fmt.Fprintf(&b, "    const bool ar_e_%d = %s;\n    %s\n", len(k.Scan), c.start, c.step)
	}
	k.comb(&b, "ar_acc", "ar_acc", "ar_e", 4)
	if !k.Recompute {
		for j := range k.Scan {
			fmt.Fprintf(&b, "    ar_sh_%d[AR_PADK] = ar_acc_%d;\n", j, j)
		}
	}
	b.WriteString("  }")
	return b.String()
}

// stagedElement renders ThreadScan's ar_e for a staged tile (stages): the
// map of the inputs in slot ar_k, or the neutral element past the end.
func (k *scanKernel) stagedElement(b *strings.Builder) {
	b.WriteString("    const i64 ar_i = ar_base + ar_k;\n")
	if k.Seg() {
		b.WriteString("    const bool ar_ok = ar_full || (ar_k < ar_tlen && ar_i < ar_n);\n")
	} else {
		b.WriteString("    const bool ar_ok = ar_full || ar_i < ar_n;\n")
	}
	index := "ar_i"
	if k.Seg() {
		index = "ar_i % ar_w"
	}
	args := []string{k.envArgs, index}
	for j, t := range k.In {
		fmt.Fprintf(b, "    const %s ar_x_%d = *(const %s *)&ar_sh_%d[AR_PADK];\n", ctype(t), j, ctype(t), j)
		args = append(args, fmt.Sprintf("ar_x_%d", j))
	}
	for j, t := range k.Scan {
		fmt.Fprintf(b, "    %s ar_e_%d = %s;\n", ctype(t), j, k.Neutral[j])
		args = append(args, fmt.Sprintf("&ar_e_%d", j))
	}
	fmt.Fprintf(b, "    if (ar_ok) {\n      %s(%s);\n    }\n", k.fnMap, strings.Join(args, ", "))
}

// warpScan renders an inclusive scan of name across the warp (lane
// order).
func (k *scanKernel) warpScan(b *strings.Builder, name string, indent int) {
	in := ind(indent)
	if k.rolled() {
		b.WriteString("#pragma unroll 1\n")
	}
	fmt.Fprintf(b, "%sfor (int ar_o = 1; ar_o < 32; ar_o <<= 1) {\n", in)
	for j, t := range k.Acc {
		fmt.Fprintf(b, "%s  const %s ar_u_%d = ar_shfl_up(%s_%d, ar_o);\n", in, ctype(t), j, name, j)
	}
	fmt.Fprintf(b, "%s  if (ar_lane >= ar_o) {\n", in)
	k.comb(b, name, "ar_u", name, indent+4)
	fmt.Fprintf(b, "%s  }\n%s}\n", in, in)
}

// BlockScan turns the threads' aggregates into each thread's exclusive
// prefix within its warp (ar_ex), the warps' exclusive prefixes (ar_wx,
// which Finish adds after the look-back's barrier) and the block's
// aggregate (ar_bagg), with one barrier: warp 0 goes on into the look-back.
func (k *scanKernel) BlockScan() string {
	if k.sharedBlockScan() {
		return k.sharedScan()
	}
	// tier1Shared where no per-thread buffer is free (a segmented scan:
	// its tile holds the thread scans' values until Finish): one level of
	// warp shuffles, then thread 0 scans the warps' totals in a loop.
	serialWarps := k.serialLook() && tier1ScanStyle == tier1Shared
	var b strings.Builder
	k.warpScan(&b, "ar_acc", 2)
	b.WriteString("  if (ar_lane == 31) {\n")
	for j := range k.Acc {
		fmt.Fprintf(&b, "    ar_wt_%d[ar_warp] = ar_acc_%d;\n", j, j)
	}
	b.WriteString("  }\n")
	for j, t := range k.Acc {
		fmt.Fprintf(&b, "  %s ar_ex_%d = ar_shfl_up(ar_acc_%d, 1);\n", ctype(t), j, j)
	}
	b.WriteString("  if (ar_lane == 0) {\n")
	k.neutral(&b, "ar_ex", 4)
	if serialWarps {
		b.WriteString("  }\n  __syncthreads();\n  if (threadIdx.x == 0) {\n")
		k.decl(&b, "ar_t", 4)
		fmt.Fprintf(&b, "    for (int ar_v = 0; ar_v < %d; ar_v++) {\n", k.Block/32)
		for j, t := range k.Acc {
			fmt.Fprintf(&b, "      const %s ar_u_%d = ar_wt_%d[ar_v];\n      ar_wx_%d[ar_v] = ar_t_%d;\n", ctype(t), j, j, j, j)
		}
		k.comb(&b, "ar_t", "ar_t", "ar_u", 6)
		b.WriteString("    }\n")
		for j := range k.Acc {
			fmt.Fprintf(&b, "    ar_bagg_%d = ar_t_%d;\n", j, j)
		}
		b.WriteString("  }")
		return b.String()
	}
	b.WriteString("  }\n  __syncthreads();\n  if (ar_warp == 0) {\n")
	for j, t := range k.Acc {
		fmt.Fprintf(&b, "    %s ar_t_%d = ar_lane < %d ? ar_wt_%d[ar_lane] : %s;\n", ctype(t), j, k.Block/32, j, k.Neutral[j])
	}
	k.warpScan(&b, "ar_t", 4)
	for j, t := range k.Acc {
		fmt.Fprintf(&b, "    %s ar_te_%d = ar_shfl_up(ar_t_%d, 1);\n", ctype(t), j, j)
	}
	b.WriteString("    if (ar_lane == 0) {\n")
	k.neutral(&b, "ar_te", 6)
	fmt.Fprintf(&b, "    }\n    if (ar_lane < %d) {\n", k.Block/32)
	for j := range k.Acc {
		fmt.Fprintf(&b, "      ar_wx_%d[ar_lane] = ar_te_%d;\n", j, j)
	}
	fmt.Fprintf(&b, "    }\n    if (ar_lane == %d) {\n", k.Block/32-1)
	for j := range k.Acc {
		fmt.Fprintf(&b, "      ar_bagg_%d = ar_t_%d;\n", j, j)
	}
	b.WriteString("    }\n  }")
	return b.String()
}

// sharedScan is BlockScan for tier 1 in the tier1Shared style: one
// Hillis-Steele loop over the threads' aggregates in shared memory
// (blockBuf), log2(Block) rounds of a read, a barrier, one operator call
// and a write, leaving every thread's exclusive prefix within the block in
// ar_ex (Finish then adds no warp prefix) and the block's aggregate in
// ar_bagg for thread 0, which the serial look-back runs on. One operator
// call in the text instead of the two levels of warp shuffles (each with
// its operator call and per-component shuffles); the barriers cost tier 1
// some microseconds until tier 2 replaces it.
func (k *scanKernel) sharedScan() string {
	var b strings.Builder
	for j := range k.Acc {
		fmt.Fprintf(&b, "  %s[threadIdx.x] = ar_acc_%d;\n", k.blockBuf(j), j)
	}
	fmt.Fprintf(&b, "  __syncthreads();\n  for (int ar_o = 1; ar_o < %d; ar_o <<= 1) {\n", k.Block)
	k.declUninit(&b, "ar_u", 4)
	b.WriteString("    if (threadIdx.x >= ar_o) {\n")
	for j := range k.Acc {
		fmt.Fprintf(&b, "      ar_u_%d = %s[threadIdx.x - ar_o];\n", j, k.blockBuf(j))
	}
	b.WriteString("    }\n    __syncthreads();\n    if (threadIdx.x >= ar_o) {\n")
	k.comb(&b, "ar_acc", "ar_u", "ar_acc", 6)
	for j := range k.Acc {
		fmt.Fprintf(&b, "      %s[threadIdx.x] = ar_acc_%d;\n", k.blockBuf(j), j)
	}
	b.WriteString("    }\n    __syncthreads();\n  }\n")
	k.decl(&b, "ar_ex", 2)
	b.WriteString("  if (threadIdx.x > 0) {\n")
	for j := range k.Acc {
		fmt.Fprintf(&b, "    ar_ex_%d = %s[threadIdx.x - 1];\n", j, k.blockBuf(j))
	}
	b.WriteString("  } else {\n")
	for j := range k.Acc {
		fmt.Fprintf(&b, "    ar_bagg_%d = %s[%d];\n", j, k.blockBuf(j), k.Block-1)
	}
	b.WriteString("  }")
	return b.String()
}

// LookBack is warp 0's part: publish the block's aggregate (or, for tile
// 0, its prefix), then fold the predecessors' values in windows of 32,
// nearest in lane 0, until a window holds an inclusive prefix (or, in a
// segmented scan, a value with a segment start); publish the inclusive
// prefix and leave the exclusive one in ar_bpre for the block. States are
// the words of stateLayout: published and read without fences.
func (k *scanKernel) LookBack() string {
	if k.serialLook() {
		return k.serialLookBack()
	}
	var b strings.Builder
	k.lookBackGuard(&b)
	b.WriteString("if (ar_warp == 0) {\n    __syncwarp(); // ar_bagg is written by a lane of this warp\n")
	k.decl(&b, "ar_P", 4)
	for j, t := range k.Acc {
		fmt.Fprintf(&b, "    const %s ar_g_%d = ar_bagg_%d;\n", ctype(t), j, j)
	}
	// The instrumented variant (`:trace`) stamps the end of publishing
	// and records which predecessor ended the look-back; the plain one
	// renders exactly as without it.
	published := ""
	if k.Trace {
		published = "        AR_TRACE_PUBLISHED();\n"
	}
	b.WriteString("    if (ar_tile == 0) {\n      if (ar_lane == 0) {\n")
	k.publish(&b, "0", "ar_g", "AR_PREFIX", 8)
	b.WriteString(published + "      }\n    } else {\n      if (ar_lane == 0) {\n")
	k.publish(&b, "ar_tile", "ar_g", "AR_AGGREGATE", 8)
	b.WriteString(published + "      }\n")
	// Large grids wait before the first read (the predecessors' states are
	// rarely ready at once) and between retries, as CUB does, so that
	// spinning warps do not crowd the L2; small ones back off from 16 ns.
	fmt.Fprintf(&b, "      const bool ar_big = gridDim.x >= 500;\n      if (ar_big) __nanosleep(%d);\n", k.Delay)
	b.WriteString("      i64 ar_look = ar_tile - 1;\n      unsigned int ar_ns = 16;\n")
	if k.Det {
		b.WriteString("      const int ar_anchor = (int)((ar_tile - 1) & 31);\n")
	}
	b.WriteString("      for (;;) {\n")
	b.WriteString("        const i64 ar_p = ar_look - ar_lane;\n")
	k.readState(&b)
	wait := "ar_st == AR_INVALID"
	if k.Det {
		// Fixed order: wait for every tile back to the anchor (the last
		// tile before this one whose index is a multiple of 32, lane
		// ar_anchor of the first window) and for the anchor's prefix; only
		// anchors publish prefixes, so the window always ends there.
		wait = "ar_lane <= ar_anchor && (ar_st == AR_INVALID || (ar_lane == ar_anchor && ar_st != AR_PREFIX))"
	}
	fmt.Fprintf(&b, "        if (__any_sync(0xffffffffu, %s)) {\n          __nanosleep(ar_big ? %du : ar_ns);\n          ar_ns = min(ar_ns * 2, 256u);\n          continue;\n        }\n", wait, k.Spin)
	k.unpackState(&b)
	stop := "ar_st == AR_PREFIX"
	if k.Seg() {
		stop += fmt.Sprintf(" || ar_q_%d", len(k.Scan))
	}
	fmt.Fprintf(&b, "        const unsigned int ar_done = __ballot_sync(0xffffffffu, %s);\n", stop)
	b.WriteString("        const int ar_stop = ar_done ? __ffs(ar_done) - 1 : 31;\n        if (ar_lane > ar_stop) {\n")
	k.neutral(&b, "ar_q", 10)
	b.WriteString("        }\n")
	b.WriteString("        // Fold the window into lane 0, farther (higher) lanes on the left.\n")
	if k.rolled() {
		b.WriteString("#pragma unroll 1\n")
	}
	b.WriteString("        for (int ar_o = 1; ar_o < 32; ar_o <<= 1) {\n")
	for j, t := range k.Acc {
		fmt.Fprintf(&b, "          const %s ar_u_%d = ar_shfl_down(ar_q_%d, ar_o);\n", ctype(t), j, j)
	}
	b.WriteString("          if ((ar_lane & (2 * ar_o - 1)) == 0) {\n")
	k.comb(&b, "ar_q", "ar_u", "ar_q", 12)
	b.WriteString("          }\n        }\n")
	for j := range k.Acc {
		fmt.Fprintf(&b, "        ar_q_%d = ar_shfl_idx(ar_q_%d, 0);\n", j, j)
	}
	k.comb(&b, "ar_P", "ar_q", "ar_P", 8)
	if k.Trace {
		b.WriteString("        if (ar_done) {\n          AR_TRACE_PRED(ar_look - ar_stop);\n          break;\n        }\n")
	} else {
		b.WriteString("        if (ar_done) break;\n")
	}
	b.WriteString("        ar_look -= 32;\n      }\n      if (ar_lane == 0) {\n")
	k.declUninit(&b, "ar_I", 8)
	k.comb(&b, "ar_I", "ar_P", "ar_g", 8)
	if k.Det {
		b.WriteString("        if ((ar_tile & 31) == 0) {\n")
		k.publish(&b, "ar_tile", "ar_I", "AR_PREFIX", 10)
		b.WriteString("        }\n")
	} else {
		k.publish(&b, "ar_tile", "ar_I", "AR_PREFIX", 8)
	}
	b.WriteString("      }\n    }\n    if (ar_lane == 0) {\n")
	for j := range k.Acc {
		fmt.Fprintf(&b, "      ar_bpre_%d = ar_P_%d;\n", j, j)
	}
	b.WriteString("    }\n  }\n  __syncthreads();")
	return b.String()
}

// lookBackGuard opens the look-back's condition: a segmented scan whose
// segments fit in a tile needs no prefix of earlier tiles (its block
// prefix is the neutral element); the caller writes the `if` that follows.
func (k *scanKernel) lookBackGuard(b *strings.Builder) {
	if !k.Seg() {
		b.WriteString("  ")
		return
	}
	fmt.Fprintf(b, "  if (ar_w <= %d) {\n    // Whole segments per tile: the prefix of earlier tiles never reaches this one.\n    if (threadIdx.x == 0) {\n", k.Tile())
	k.neutral(b, "ar_bpre", 6)
	b.WriteString("    }\n  } else ")
}

// serialLookBack is LookBack for tier 1 in the tier1Serial style: lane 0
// of warp 0 publishes the block's aggregate, then reads its predecessors'
// states one at a time, nearest first, folding each in on the left, until
// one holds an inclusive prefix (or, in a segmented scan, a value with a
// segment start), and publishes the inclusive prefix. The same states and
// the same result as the window of 32, for one read of a state and one
// operator call in the text instead of a window folded by 5 rounds of
// shuffles. The tile waits longer on a long chain of aggregates, which
// tier 1 may: tier 2 replaces it within seconds. Not for the
// deterministic mode (Det), whose fixed order is the window's.
func (k *scanKernel) serialLookBack() string {
	var b strings.Builder
	k.lookBackGuard(&b)
	// ar_bagg is written by a lane of warp 0.
	b.WriteString("if (ar_warp == 0) {\n    __syncwarp();\n    if (ar_lane == 0) {\n")
	// Lane 0's part, written at the indentation of readState's loop body
	// (8) and shifted right by 2.
	var l strings.Builder
	k.decl(&l, "ar_P", 4)
	k.declUninit(&l, "ar_I", 4)
	for j := range k.Acc {
		fmt.Fprintf(&l, "    ar_I_%d = ar_bagg_%d;\n", j, j)
	}
	l.WriteString("    if (ar_tile > 0) {\n")
	k.publish(&l, "ar_tile", "ar_I", "AR_AGGREGATE", 6)
	l.WriteString("      i64 ar_p = ar_tile - 1;\n      unsigned int ar_ns = 16;\n      for (;;) {\n")
	k.readState(&l)
	l.WriteString("        if (ar_st == AR_INVALID) {\n          __nanosleep(ar_ns);\n          ar_ns = min(ar_ns * 2, 256u);\n          continue;\n        }\n")
	k.unpackState(&l)
	k.comb(&l, "ar_P", "ar_q", "ar_P", 8)
	stop := "ar_st == AR_PREFIX"
	if k.Seg() {
		stop += fmt.Sprintf(" || ar_q_%d", len(k.Scan))
	}
	fmt.Fprintf(&l, "        if (%s) break;\n        ar_p--;\n      }\n", stop)
	k.comb(&l, "ar_I", "ar_P", "ar_I", 6)
	l.WriteString("    }\n")
	k.publish(&l, "ar_tile", "ar_I", "AR_PREFIX", 4)
	for j := range k.Acc {
		fmt.Fprintf(&l, "    ar_bpre_%d = ar_P_%d;\n", j, j)
	}
	b.WriteString(indent(l.String(), 2))
	b.WriteString("    }\n  }\n  __syncthreads();")
	return b.String()
}

// readState renders the look-back's read of tile ar_p's state (ar_p < 0
// reads nothing and counts as a prefix): the words ar_s0... and the status
// ar_st, at the loop body's indentation (8).
func (k *scanKernel) readState(b *strings.Builder) {
	{
		var ws []string
		for h := 0; h < k.Words; h++ {
			ws = append(ws, fmt.Sprintf("ar_s%d", h))
		}
		fmt.Fprintf(b, "        u64 %s;\n", strings.Join(ws, " = 0, ")+" = 0")
		switch {
		case k.Multi:
			// Slot words of tile p: its aggregate's at 2*p*n, its prefix's at (2*p+1)*n.
			n := k.Words / 2
			var marks []string
			for w := 0; w < n; w++ {
				marks = append(marks, fmt.Sprintf("(ar_s%d >> 32) == 1u", 2*w+1))
			}
			load := func(slot string, indent string) {
				for w := 0; w < n; w++ {
					fmt.Fprintf(b, "%sar_load_state((const ulonglong2 *)ar_state + (%s) * %d + %d, &ar_s%d, &ar_s%d);\n", indent, slot, n, w, 2*w, 2*w+1)
				}
			}
			b.WriteString("        unsigned int ar_st = AR_PREFIX;\n        if (ar_p >= 0) {\n")
			load("2 * "+k.stateIdx("ar_p")+" + 1", "          ")
			fmt.Fprintf(b, "          if (!(%s)) {\n", strings.Join(marks, " && "))
			load("2 * "+k.stateIdx("ar_p"), "            ")
			fmt.Fprintf(b, "            ar_st = %s ? AR_AGGREGATE : AR_INVALID;\n          }\n        }\n", strings.Join(marks, " && "))
		case k.Words == 1:
			fmt.Fprintf(b, "        if (ar_p >= 0) {\n          ar_load_state(ar_state + %s, &ar_s0);\n        }\n", k.stateIdx("ar_p"))
		default:
			fmt.Fprintf(b, "        if (ar_p >= 0) {\n          ar_load_state((const ulonglong2 *)ar_state + %s, &ar_s0, &ar_s1);\n        }\n", k.stateIdx("ar_p"))
		}
		if !k.Multi {
			fmt.Fprintf(b, "        const unsigned int ar_st = ar_p >= 0 ? (unsigned int)(%s >> 32) : AR_PREFIX;\n", ws[len(ws)-1])
		}
	}
}

// unpackState renders the look-back's value ar_q of the state read by
// readState (neutral for ar_p < 0).
func (k *scanKernel) unpackState(b *strings.Builder) {
	k.decl(b, "ar_q", 8)
	b.WriteString("        if (ar_p >= 0) {\n")
	for j, t := range k.Acc {
		w := fmt.Sprintf("ar_s%d", k.Offs[j]/8)
		if sh := 8 * (k.Offs[j] % 8); sh > 0 {
			w = fmt.Sprintf("(%s >> %d)", w, sh)
		}
		fmt.Fprintf(b, "          ar_q_%d = %s;\n", j, unpackBits(t, w))
	}
	b.WriteString("        }\n")
}

// stateSpread is how far apart, in state sizes, the tiles' look-back
// states lie: 8 for states of one 8- or 16-byte word, so that each tile has
// 64 or 128 bytes to itself, and packed (1) for multi-word states and in
// deterministic mode; Limits.ScanStateSpread overrides it for measuring.
//
// Packed, a window of 32 one-word states lies in two or four 128-byte
// lines, which every polling warp and every publishing tile of the window
// then share: the scans ran at a near constant 51 (8-byte states), 57
// (16-byte) and 62 (MSSP's 64 bytes a tile) tiles per microsecond, whatever
// their tiles' bytes. Spread, the same kernels ran 9% (i32: 0.667 -> 0.605
// ms), 4% (i64, f64: 1.25 -> 1.20), 10% (scanomap), 3% (filter; segmented
// rows of 2^24) faster at 2^28 on the H200 (bench/RESULTS.md, "GPU scan",
// run 6); 64 and 128 bytes a tile measured alike and 256 worse. MSSP's
// states, already 64 bytes a tile, ran 6% slower spread twice as far, so
// multi-word states stay packed. The deterministic mode was not measured
// spread and stays packed.
func stateSpread(k *scanKernel, lim Limits) int {
	switch {
	case lim.ScanStateSpread > 0:
		return lim.ScanStateSpread
	case k.Multi || k.Det:
		return 1
	}
	return 8
}

// stateIdx is the index, in state words (or for multi-word states in
// slot pairs), of tile idx's state: idx, or idx times Spread when the
// states are spread over more cache lines (stateSpread).
func (k *scanKernel) stateIdx(idx string) string {
	if k.Spread <= 1 {
		return idx
	}
	return fmt.Sprintf("(%s) * %d", idx, k.Spread)
}

// publish renders the store of accumulator val as tile idx's state with
// status st: one packed word, or the words of the status's slot.
func (k *scanKernel) publish(b *strings.Builder, idx, val, st string, indent int) {
	in := ind(indent)
	parts := make([][]string, k.Words)
	for j := range k.Acc {
		e := fmt.Sprintf("ar_bits(%s_%d)", val, j)
		if sh := 8 * (k.Offs[j] % 8); sh > 0 {
			e = fmt.Sprintf("(%s << %d)", e, sh)
		}
		parts[k.Offs[j]/8] = append(parts[k.Offs[j]/8], e)
	}
	if k.Multi {
		// Every word of the slot carries the written mark.
		n := k.Words / 2
		slot := fmt.Sprintf("2 * (%s)", k.stateIdx(idx))
		if st == "AR_PREFIX" {
			slot += " + 1"
		}
		fmt.Fprintf(b, "%s{\n", in)
		for w := 0; w < n; w++ {
			lo, hi := parts[2*w], append(parts[2*w+1], "((u64)1u << 32)")
			if len(lo) == 0 {
				lo = []string{"0ull"}
			}
			fmt.Fprintf(b, "%s  ar_store_state((ulonglong2 *)ar_state + (%s) * %d + %d, %s, %s);\n", in, slot, n, w, strings.Join(lo, " | "), strings.Join(hi, " | "))
		}
		fmt.Fprintf(b, "%s}\n", in)
		return
	}
	parts[k.Words-1] = append(parts[k.Words-1], fmt.Sprintf("((u64)%s << 32)", st))
	fmt.Fprintf(b, "%s{\n", in)
	var ws []string
	for w, ps := range parts {
		if len(ps) == 0 {
			ps = []string{"0ull"}
		}
		fmt.Fprintf(b, "%s  const u64 ar_pw%d = %s;\n", in, w, strings.Join(ps, " | "))
		ws = append(ws, fmt.Sprintf("ar_pw%d", w))
	}
	if k.Words == 1 {
		fmt.Fprintf(b, "%s  ar_store_state(ar_state + %s, %s);\n", in, k.stateIdx(idx), ws[0])
	} else {
		fmt.Fprintf(b, "%s  ar_store_state((ulonglong2 *)ar_state + %s, %s);\n", in, k.stateIdx(idx), strings.Join(ws, ", "))
	}
	fmt.Fprintf(b, "%s}\n", in)
}

// Finish makes every thread's exclusive prefix (the block's, the warp's and
// its own within the warp). A plain scan leaves it in ar_tp for the store,
// which combines it with the thread-local inclusive values ThreadScan left
// in shared memory as it writes them out (storedValues): one pass over
// shared memory fewer. A segmented scan, whose prefix stops at the first
// segment start (flags recomputed from the index), combines its elements
// here and puts them back at the same slots.
func (k *scanKernel) Finish() string {
	var b strings.Builder
	b.WriteString("  {\n")
	shared := k.sharedBlockScan() // ar_ex is already the block's
	for j, t := range k.Acc {
		if !shared {
			fmt.Fprintf(&b, "    const %s ar_w_%d = ar_wx_%d[ar_warp];\n", ctype(t), j, j)
		}
		fmt.Fprintf(&b, "    const %s ar_bp_%d = ar_bpre_%d;\n", ctype(t), j, j)
	}
	if !shared {
		k.comb(&b, "ar_ex", "ar_w", "ar_ex", 4)
	}
	k.comb(&b, "ar_ex", "ar_bp", "ar_ex", 4)
	b.WriteString("  }\n")
	if k.Recompute {
		return strings.TrimRight(b.String(), "\n") // the store starts from ar_ex
	}
	if !k.Seg() {
		for j := range k.Scan {
			fmt.Fprintf(&b, "  ar_tp_%d[threadIdx.x] = ar_ex_%d;\n", j, j)
		}
		return strings.TrimRight(b.String(), "\n")
	}
	b.WriteString(k.segCounter().reset + "  bool ar_f = false;\n")
	fmt.Fprintf(&b, "%s\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.unrollSecondary(), k.Seq)
	fmt.Fprintf(&b, "    const int ar_k = threadIdx.x * %d + ar_j;\n", k.Seq)
	for j, t := range k.Scan {
		fmt.Fprintf(&b, "    const %s ar_c_%d = ar_sh_%d[AR_PADK];\n", ctype(t), j, j)
	}
	f := len(k.Scan)
	c := k.segCounter()
	fmt.Fprintf(&b, "    ar_f = ar_f || %s;\n    %s\n", c.start, c.step)
	fmt.Fprintf(&b, "    const bool ar_c_%d = ar_f;\n", f)
	k.declUninit(&b, "ar_z", 4)
	k.comb(&b, "ar_z", "ar_ex", "ar_c", 4)
	for j := range k.Scan {
		fmt.Fprintf(&b, "    ar_sh_%d[AR_PADK] = ar_z_%d;\n", j, j)
	}
	b.WriteString("  }")
	return b.String()
}

// padK is the shared-memory slot of element ar_k of a tile. Threads read
// their own elements at stride Seq: conflict-free as it is when Seq is odd
// (coprime with the 32 banks; ar_pad's skew would then make conflicts), and
// skewed by ar_pad when it is even.
func (k *scanKernel) padK() string {
	if k.Seq%2 == 1 {
		return "ar_k"
	}
	return "ar_pad(ar_k)"
}

// StorePhase writes the tile striped: the scanned values or the post-map's
// results.
func (k *scanKernel) StorePhase() string {
	if k.Recompute {
		return k.recomputedStore()
	}
	if k.copies() && (k.Seg() || len(k.Scan) == 1) {
		return k.perTileCase(func(checked bool) string {
			if checked {
				return k.storeLoop(true)
			}
			return k.copyLoop(false)
		})
	}
	return k.perTileCase(k.storeLoop)
}

// recomputedStore is StorePhase for a kernel that recomputes (recomputes):
// for each result in turn, every thread scans its Seq staged elements again
// from its exclusive prefix ar_ex, through the map, the operator and the
// post-map, and leaves that result of each element in ar_rb at the
// element's slot; its warp then writes the warp's slice of ar_rb out
// striped (16 bytes a lane for a full tile). A warp's threads own its
// slice, so __syncwarp orders the passes. Errors the map or post-map
// raise are raised again by each pass; the flag keeps the first.
func (k *scanKernel) recomputedStore() string {
	if k.Fast {
		return k.recomputedStoreOnce()
	}
	var b strings.Builder
	slice := 32 * k.Seq
	for r, t := range k.Res {
		ct := ctype(t)
		fmt.Fprintf(&b, "  { // result %d\n", r)
		for j, at := range k.Acc {
			fmt.Fprintf(&b, "    %s ar_acc_%d = ar_ex_%d;\n", ctype(at), j, j)
		}
		fmt.Fprintf(&b, "%s\n    for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.unrollSecondary(), k.Seq)
		fmt.Fprintf(&b, "      const int ar_k = threadIdx.x * %d + ar_j;\n", k.Seq)
		var e strings.Builder
		k.stagedElement(&e)
		b.WriteString(indent(e.String(), 2))
		k.comb(&b, "ar_acc", "ar_acc", "ar_e", 6)
		val := fmt.Sprintf("ar_acc_%d", r)
		if k.hasPost {
			k.callPost(&b, k.comps("ar_acc", k.Scan), nil, 6)
			val = fmt.Sprintf("ar_o_%d", r)
		}
		fmt.Fprintf(&b, "      ((%s *)ar_rb)[ar_k] = %s;\n    }\n    __syncwarp();\n", ct, val)
		chunks := slice * t.Size() / 16
		fmt.Fprintf(&b, "    if (ar_full) {\n#pragma unroll\n      for (int ar_c = ar_lane; ar_c < %d; ar_c += 32) {\n", chunks)
		fmt.Fprintf(&b, "        *(uint4 *)((char *)(ar_res%d + ar_base + ar_warp * %d) + ar_c * 16) = *(const uint4 *)((const char *)((const %s *)ar_rb + ar_warp * %d) + ar_c * 16);\n", r, slice, ct, slice)
		b.WriteString("      }\n    } else {\n")
		fmt.Fprintf(&b, "%s\n      for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.unroll(true), k.Seq)
		fmt.Fprintf(&b, "        const int ar_k = ar_warp * %d + ar_j * 32 + ar_lane;\n", slice)
		fmt.Fprintf(&b, "        if (ar_base + ar_k < ar_n) ar_res%d[ar_base + ar_k] = ((const %s *)ar_rb)[ar_k];\n", r, ct)
		b.WriteString("      }\n    }\n    __syncwarp();\n  }\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// recomputedStoreOnce is recomputedStore for tier 1 (Fast): one pass
// that scans each thread's elements again and writes every result of an
// element straight to global memory. The writes are strided (a thread's
// elements are consecutive), which costs the kernel some speed for the
// few runs before tier 2 replaces it; what it saves is NVRTC's work on
// all but one of the passes' copies of the map, the operator and the
// post-map: the MSSP scan's text in one pass compiled in 104 ms instead
// of 132 (bench/RESULTS.md, "Interactive latency", run 12, call 1: a mean
// of three; a 14.7 KB cubin instead of 19.6).
func (k *scanKernel) recomputedStoreOnce() string {
	var b strings.Builder
	b.WriteString("  {\n")
	for j, at := range k.Acc {
		fmt.Fprintf(&b, "    %s ar_acc_%d = ar_ex_%d;\n", ctype(at), j, j)
	}
	fmt.Fprintf(&b, "#pragma unroll 1\n    for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.Seq)
	fmt.Fprintf(&b, "      const int ar_k = threadIdx.x * %d + ar_j;\n", k.Seq)
	var e strings.Builder
	k.stagedElement(&e)
	b.WriteString(indent(e.String(), 2))
	k.comb(&b, "ar_acc", "ar_acc", "ar_e", 6)
	vals := k.comps("ar_acc", k.Res)
	if k.hasPost {
		k.callPost(&b, k.comps("ar_acc", k.Scan), nil, 6)
		vals = k.comps("ar_o", k.Res)
	}
	b.WriteString("      if (ar_ok) {\n")
	for r, v := range vals {
		fmt.Fprintf(&b, "        ar_res%d[ar_i] = %s;\n", r, v)
	}
	b.WriteString("      }\n    }\n  }")
	return b.String()
}

// callPost renders the post-map's call on the scanned values vals and the
// held values held, into ar_o_0, ar_o_1, ... (one per result).
func (k *scanKernel) callPost(b *strings.Builder, vals, held []string, indent int) {
	in := ind(indent)
	args := append(append([]string{k.envArgs}, vals...), held...)
	for j, t := range k.Res {
		fmt.Fprintf(b, "%s%s ar_o_%d;\n", in, ctype(t), j)
		args = append(args, fmt.Sprintf("&ar_o_%d", j))
	}
	fmt.Fprintf(b, "%s%s(%s);\n", in, k.fnPost, strings.Join(args, ", "))
}

// storeLoop is StorePhase's loop, with bounds checks or (a full tile)
// without.
func (k *scanKernel) storeLoop(checked bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.unroll(checked), k.Seq)
	fmt.Fprintf(&b, "    const int ar_k = ar_warp * %d + ar_j * 32 + ar_lane;\n    const i64 ar_i = ar_base + ar_k;\n", 32*k.Seq)
	b.WriteString(k.ifInTile(checked))
	vals := k.storedValues(&b, "ar_j * 32 + ar_lane", func(j int) string { return fmt.Sprintf("ar_sh_%d[AR_PADK]", j) }, 6)
	switch {
	case k.hasPost:
		var held []string
		for j := range k.Held {
			held = append(held, fmt.Sprintf("ar_sx_%d[AR_PADK]", j))
		}
		k.callPost(&b, vals, held, 6)
		for j := range k.Res {
			fmt.Fprintf(&b, "      ar_res%d[ar_i] = ar_o_%d;\n", j, j)
		}
	default:
		for j := range k.Res {
			fmt.Fprintf(&b, "      ar_res%d[ar_i] = %s;\n", j, vals[j])
		}
	}
	b.WriteString("    }\n  }")
	return b.String()
}

// storedValues renders the scanned values of the element at position pos
// of the warp's slice, whose thread-local inclusive values are slot(j)
// for component j: as they
// are for a segmented scan (Finish combined them), or combined with their
// thread's prefix in ar_tp. It returns the values' C expressions.
func (k *scanKernel) storedValues(b *strings.Builder, pos string, slot func(j int) string, indent int) []string {
	vals := make([]string, len(k.Scan))
	if k.Seg() {
		for j := range k.Scan {
			vals[j] = slot(j)
		}
		return vals
	}
	in := ind(indent)
	fmt.Fprintf(b, "%sconst int ar_o = ar_warp * 32 + (%s) / %d;\n", in, pos, k.Seq)
	for j, t := range k.Scan {
		fmt.Fprintf(b, "%sconst %s ar_tq_%d = ar_tp_%d[ar_o];\n", in, ctype(t), j, j)
		fmt.Fprintf(b, "%sconst %s ar_c_%d = %s;\n", in, ctype(t), j, slot(j))
	}
	k.declUninit(b, "ar_z", indent)
	k.comb(b, "ar_z", "ar_tq", "ar_c", indent)
	for j := range k.Scan {
		vals[j] = fmt.Sprintf("ar_z_%d", j)
	}
	return vals
}

// TileBase renders the tile's length ar_tlen and first element ar_base. A
// segmented scan whose segments fit in a tile uses tiles of whole segments
// (the thesis' segment-aligned tiling): no segment crosses a tile, so no
// tile looks back.
// ar_full says that every slot of the tile holds an element (perTileCase).
func (k *scanKernel) TileBase() string {
	if !k.Seg() {
		return fmt.Sprintf("  const i64 ar_tlen = %d;\n  const i64 ar_base = ar_tile * ar_tlen;\n  const bool ar_full = ar_base + %d <= ar_n;", k.Tile(), k.Tile())
	}
	return fmt.Sprintf("  const i64 ar_tlen = ar_w <= %d ? ar_w * (%d / ar_w) : %d;\n  const i64 ar_base = ar_tile * ar_tlen;\n  const bool ar_full = ar_tlen == %d && ar_base + %d <= ar_n;",
		k.Tile(), k.Tile(), k.Tile(), k.Tile(), k.Tile())
}

// perTileCase renders a striped loop over the tile twice: without bounds
// checks for a full tile (every tile but the last, and not a
// whole-segment tile shorter than Tile), and with them otherwise. The
// checks are 64-bit compares of every index, a third of the load and store
// phases' instructions.
func (k *scanKernel) perTileCase(loop func(checked bool) string) string {
	if k.Fast {
		// Tier 1: the checked loop serves a full tile too (its checks
		// pass), and NVRTC compiles one loop instead of two.
		return loop(true)
	}
	return "  if (ar_full) {\n" + indent(loop(false), 2) + "\n  } else {\n" + indent(loop(true), 2) + "\n  }"
}

// unroll is the pragma before a striped loop over a warp's Seq rounds,
// checked or not (perTileCase). A checked loop of a scan runs only for the
// last tile of a launch, so it stays rolled: unrolled, the checked load and
// store loops (Seq inlined map, operator and post-map calls each) were half
// of a scan module's code, and of NVRTC's time for it (issue 16's cold
// compile; bench/RESULTS.md, "Interactive latency"). A segmented scan
// whose segments do not divide the tile runs every tile checked
// (TileBase), so its checked loops stay unrolled.
func (k *scanKernel) unroll(checked bool) string {
	if checked && !k.Seg() {
		return "#pragma unroll 1"
	}
	if checked {
		return k.unrollSecondary()
	}
	return "#pragma unroll"
}

// unrollSecondary is the pragma of the loops over a thread's Seq elements
// besides the thread scan and the full tiles' loads and stores: a
// segmented scan's checked loads and stores and its second pass applying
// the prefix (Finish), and the store's passes that recompute each result
// (recomputedStore). Unrolled, each inlines Seq more calls of the map and
// the operator: for a 4-tuple scan that recomputes its store, the four
// passes were most of the module's code, and most of NVRTC's time for it
// (issue 16's cold compile, bench/RESULTS.md, "Interactive latency").
func (k *scanKernel) unrollSecondary() string {
	if k.rolled() {
		return "#pragma unroll 1"
	}
	if k.Unroll > 0 {
		return fmt.Sprintf("#pragma unroll %d", k.Unroll)
	}
	return "#pragma unroll"
}

// secondaryUnroll is the unroll factor of unrollSecondary's loops:
// Limits.ScanUnroll when set (negative: fully); else fully for a segmented
// scan and rolled for the others, whose only such loops are the
// recomputing store passes.
func secondaryUnroll(k *scanKernel, lim Limits) int {
	switch {
	case lim.ScanUnroll > 0:
		return lim.ScanUnroll
	case lim.ScanUnroll < 0 || k.Seg():
		// A segmented scan's checked loops are its hot path when the
		// segments do not divide the tile: rolled, a scan of rows of
		// 1000 took 0.587 ms instead of 0.292 (run 6).
		return 0
	}
	// The store's recomputing passes (MSSP scan: 4 x 21 inlined map and
	// operator calls): rolled, NVRTC took 343 ms instead of 602 for the
	// module (run 6; 264 instead of 443 in run 8), and the kernel ran in
	// 1.469 ms instead of 1.465 at 2^28 (run 8).
	return 1
}

// indent shifts every non-empty line of s right by n spaces, but for
// preprocessor lines, which stay in the first column.
func indent(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines[i] = strings.Repeat(" ", n) + l
		}
	}
	return strings.Join(lines, "\n")
}

// tileLen is TileBase's ar_tlen on the host.
func (k *scanKernel) tileLen(w int64) int64 {
	t := int64(k.Tile())
	if k.Seg() && w > 0 && w <= t {
		return w * (t / w)
	}
	return t
}

// ifInTile opens the block of a striped loop's body that runs when slot
// ar_k holds an element: under that test when checked, at once otherwise.
func (k *scanKernel) ifInTile(checked bool) string {
	if !checked {
		return "    {\n"
	}
	return fmt.Sprintf("    if (%s) {\n", k.inTile())
}

// inTile is the condition that the tile's slot ar_k holds element ar_i.
func (k *scanKernel) inTile() string {
	if k.Seg() {
		return "ar_k < ar_tlen && ar_i < ar_n"
	}
	return "ar_i < ar_n"
}

// LaunchBounds is the kernel's __launch_bounds__: the block size, and the
// blocks per multiprocessor the register allocation must allow when a
// measurement sets Limits.ScanMinBlocks.
func (k *scanKernel) LaunchBounds() string {
	if k.MinBlocks > 0 {
		return fmt.Sprintf("%d, %d", k.Block, k.MinBlocks)
	}
	return fmt.Sprint(k.Block)
}

// Warps is the warps of a block.
func (k *scanKernel) Warps() int { return k.Block / 32 }

// Rounds is the filter's count of warp rounds per tile: one ballot each.
func (k *scanKernel) Rounds() int { return k.Seq * k.Warps() }

// FilterLoad loads the filter's tile striped: round j of warp w is the 32
// consecutive elements j*Block + 32*w + lane. Each thread keeps its values
// (ar_v_h[j]) and the round's ballot of kept lanes (ar_bal[j]) in
// registers; lane 0 writes the round's count. The loads come first, in a
// loop of their own, so that all of them are in flight before the first
// ballot waits.
func (k *scanKernel) FilterLoad() string {
	var b strings.Builder
	for h, t := range k.Held {
		fmt.Fprintf(&b, "  %s ar_v_%d[%d];\n", ctype(t), h, k.Seq)
	}
	fmt.Fprintf(&b, "  bool ar_kp[%d];\n  unsigned int ar_bal[%d];\n", k.Seq, k.Seq)
	fmt.Fprintf(&b, "#pragma unroll\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.Seq)
	fmt.Fprintf(&b, "    const i64 ar_i = ar_base + ar_j * %d + threadIdx.x;\n    ar_kp[ar_j] = false;\n    if (ar_i < ar_n) {\n", k.Block)
	xs := k.loadInputs(&b)
	vals := xs
	if k.hasMap {
		args := append([]string{k.envArgs, "ar_i"}, xs...)
		vals = nil
		for h, t := range k.Held {
			fmt.Fprintf(&b, "      %s ar_y_%d;\n", ctype(t), h)
			args = append(args, fmt.Sprintf("&ar_y_%d", h))
			vals = append(vals, fmt.Sprintf("ar_y_%d", h))
		}
		fmt.Fprintf(&b, "      %s(%s);\n", k.fnMap, strings.Join(args, ", "))
	}
	fmt.Fprintf(&b, "      %s(%s, %s, &ar_kp[ar_j]);\n", k.fnPred, k.envArgs, strings.Join(vals, ", "))
	for h := range k.Held {
		fmt.Fprintf(&b, "      ar_v_%d[ar_j] = %s;\n", h, vals[h])
	}
	b.WriteString("    }\n  }\n")
	fmt.Fprintf(&b, "#pragma unroll\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.Seq)
	b.WriteString("    ar_bal[ar_j] = __ballot_sync(0xffffffffu, ar_kp[ar_j]);\n")
	fmt.Fprintf(&b, "    if (ar_lane == 0) ar_wc[ar_j * %d + ar_warp] = __popc(ar_bal[ar_j]);\n  }", k.Warps())
	return b.String()
}

// FilterCounts turns the round counts into their exclusive prefixes within
// the tile (thread t scans round t: Rounds is at most Block) and puts the
// tile's count in ar_bagg_0 for the look-back.
func (k *scanKernel) FilterCounts() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  {\n    const int ar_c0 = threadIdx.x < %d ? ar_wc[threadIdx.x] : 0;\n    int ar_c = ar_c0;\n", k.Rounds())
	b.WriteString("    for (int ar_o = 1; ar_o < 32; ar_o <<= 1) {\n      const int ar_u = __shfl_up_sync(0xffffffffu, ar_c, ar_o);\n      if (ar_lane >= ar_o) ar_c += ar_u;\n    }\n")
	b.WriteString("    if (ar_lane == 31) ar_ws[ar_warp] = ar_c;\n    __syncthreads();\n    if (ar_warp == 0) {\n")
	fmt.Fprintf(&b, "      const int ar_t0 = ar_lane < %d ? ar_ws[ar_lane] : 0;\n      int ar_t = ar_t0;\n", k.Warps())
	b.WriteString("      for (int ar_o = 1; ar_o < 32; ar_o <<= 1) {\n        const int ar_u = __shfl_up_sync(0xffffffffu, ar_t, ar_o);\n        if (ar_lane >= ar_o) ar_t += ar_u;\n      }\n")
	b.WriteString("      ar_ws[ar_lane] = ar_t - ar_t0;\n      if (ar_lane == 31) ar_bagg_0 = (i64)ar_t;\n    }\n    __syncthreads();\n")
	fmt.Fprintf(&b, "    if (threadIdx.x < %d) ar_wc[threadIdx.x] = ar_c - ar_c0 + ar_ws[ar_warp];\n  }\n  __syncthreads();", k.Rounds())
	return b.String()
}

// FilterShared declares the tile's compacted values: kept ones first, in
// order, then (partition) the rejected ones, in order.
func (k *scanKernel) FilterShared() string {
	var b strings.Builder
	for h, t := range k.Held {
		fmt.Fprintf(&b, "  __shared__ %s ar_sx_%d[%d];\n", ctype(t), h, k.Tile())
	}
	return strings.TrimRight(b.String(), "\n")
}

// FilterCompact moves every element's values to their place in the
// compacted tile in shared memory: the kept elements before it in the tile
// are its round's prefix and the kept lanes below it in the round. It runs
// before the look-back, which it does not need.
func (k *scanKernel) FilterCompact() string {
	var b strings.Builder
	b.WriteString("  const unsigned int ar_lt = (1u << ar_lane) - 1u;\n  const int ar_tk = (int)ar_bagg_0;\n")
	fmt.Fprintf(&b, "#pragma unroll\n  for (int ar_j = 0; ar_j < %d; ar_j++) {\n", k.Seq)
	fmt.Fprintf(&b, "    const int ar_k = ar_j * %d + threadIdx.x;\n    if (ar_base + ar_k < ar_n) {\n", k.Block)
	fmt.Fprintf(&b, "      const int ar_lb = ar_wc[ar_j * %d + ar_warp] + __popc(ar_bal[ar_j] & ar_lt);\n", k.Warps())
	b.WriteString("      if (ar_kp[ar_j]) {\n")
	for h := range k.Held {
		fmt.Fprintf(&b, "        ar_sx_%d[ar_lb] = ar_v_%d[ar_j];\n", h, h)
	}
	b.WriteString("      }")
	if k.Part {
		b.WriteString(" else {\n")
		for h := range k.Held {
			fmt.Fprintf(&b, "        ar_sx_%d[ar_tk + ar_k - ar_lb] = ar_v_%d[ar_j];\n", h, h)
		}
		b.WriteString("      }")
	}
	b.WriteString("\n    }\n  }")
	return b.String()
}

// FilterStore writes the compacted tile contiguously after the kept
// elements of earlier tiles (ar_bpre_0) and, for a partition, the rejected
// ones after the rejected elements of earlier tiles; the last tile writes
// the total count.
func (k *scanKernel) FilterStore() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  const i64 ar_pre = ar_bpre_0;\n  const int ar_tl = (int)min((i64)%d, ar_n - ar_base);\n", k.Tile())
	fmt.Fprintf(&b, "  for (int ar_t = threadIdx.x; ar_t < ar_tk; ar_t += %d) {\n", k.Block)
	for h := range k.Held {
		fmt.Fprintf(&b, "    ar_res%d[ar_pre + ar_t] = ar_sx_%d[ar_t];\n", h, h)
	}
	b.WriteString("  }\n")
	if k.Part {
		fmt.Fprintf(&b, "  for (int ar_t = ar_tk + threadIdx.x; ar_t < ar_tl; ar_t += %d) {\n", k.Block)
		for h := range k.Held {
			fmt.Fprintf(&b, "    ar_res%d[ar_base - ar_pre + (ar_t - ar_tk)] = ar_sx_%d[ar_t];\n", len(k.Held)+h, h)
		}
		b.WriteString("  }\n")
	}
	b.WriteString("  if (threadIdx.x == 0 && ar_base + ar_tl == ar_n) *ar_count = ar_pre + ar_tk;")
	return b.String()
}

var scanTemplates = func() *template.Template {
	t := template.New("scan")
	for _, f := range []string{"scan.cu", "filter.cu"} {
		src, err := kernels.FS.ReadFile(f)
		if err != nil {
			panic("gpu: embedded template missing: " + f)
		}
		template.Must(t.New(f).Parse(string(src)))
	}
	return t
}()

var scanPrelude = func() string {
	b, err := kernels.FS.ReadFile("scan_prelude.cu")
	if err != nil {
		panic("gpu: embedded scan_prelude.cu missing")
	}
	return string(b)
}()

// scanModule is the CUDA module of one scan statement.
type scanModule struct {
	k         *scanKernel
	body      string // device functions of the program, then the kernel
	traceBody string // body with the kernel instrumented for `:trace`; "" for filters
	fastBody  string // body with tier 1's variant of the kernel (scanKernel.Fast); "" for filters
	sites     []errSite
}

func (m *scanModule) source() string { return m.prelude() + "\n" + m.body }

// prelude is the fixed part of every scan module.
func (m *scanModule) prelude() string { return scanModulePrelude }

var scanModulePrelude = prelude + "\n" + scanPrelude

// genScan renders the module of statement s, or returns an *unsupported
// error when s is no single-pass scan the GPU runs.
func genScan(prog *core.Program, s *core.Stmt, lim Limits) (*scanModule, error) {
	g := &scanGen{prog: prog, lim: lim, funs: map[string]bool{}}
	k, err := g.kernel(s)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if len(g.funs) > 0 {
		gg := &generator{prog: prog, lim: lim, funs: g.funs, sites: g.sites}
		if err := gg.deviceFuns(&b); err != nil {
			return nil, err
		}
		g.sites = gg.sites
		k.checks = true
	}
	funs := b.String()
	b.WriteString(k.src)
	m := &scanModule{k: k, body: b.String(), sites: g.sites}
	if k.traceSrc != "" {
		m.traceBody = funs + k.traceSrc
	}
	if k.fastSrc != "" {
		m.fastBody = funs + k.fastSrc
	}
	return m, nil
}

// ScanKernel returns the CUDA generated for the single-pass scan statement
// s of prog (prelude and scan helpers left out), sized for DefaultLimits;
// it needs no GPU. A statement that is no scan the GPU runs gives an error
// saying why.
func ScanKernel(prog *core.Program, s *core.Stmt) (string, error) {
	m, err := genScan(prog, s, DefaultLimits)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("// arepl scan module; prelude: kernels/prelude.cu, kernels/scan_prelude.cu\n// tile %d = %d threads x %d\n%s",
		m.k.Tile(), m.k.Block, m.k.Seq, m.body), nil
}

// isUnsupported reports whether err says a statement cannot run on the GPU
// (rather than that something is wrong).
func isUnsupported(err error) bool {
	var u *unsupported
	return errors.As(err, &u)
}
