package gpu

// Running the histogram-family modules of hist.go: plans per statement,
// compilation and loading, and the launches of hist, scatter and
// multiscan. The backend's dispatch calls histable and histStmt.

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// histPlans remembers, per statement, its module or that it has none (as
// scanPlans does for scans).
var histPlans = struct {
	sync.Mutex
	m map[scanPlanKey]*histModule
}{m: map[scanPlanKey]*histModule{}}

// histPlan returns the module of s, nil when s is none of hist, scatter,
// multiscan or is one these kernels do not cover.
func (b *Backend) histPlan(prog *core.Program, s *core.Stmt) (*histModule, error) {
	switch s.Exp.(type) {
	case *core.Hist, *core.Scatter, *core.MultiScan:
	default:
		return nil, nil
	}
	key := scanPlanKey{s, b.lim}
	histPlans.Lock()
	m, ok := histPlans.m[key]
	histPlans.Unlock()
	if ok {
		return m, nil
	}
	m, err := genHist(prog, s, b.lim)
	if err != nil {
		if !isUnsupported(err) {
			return nil, err
		}
		m = nil
	}
	histPlans.Lock()
	if len(histPlans.m) >= scanPlanLimit {
		histPlans.m = map[scanPlanKey]*histModule{}
	}
	histPlans.m[key] = m
	histPlans.Unlock()
	return m, nil
}

// histable reports whether s runs as a hist, scatter or multiscan kernel.
func (r *run) histable(s *core.Stmt) bool {
	m, err := r.b.histPlan(r.prog, s)
	return m != nil && err == nil
}

// histStmt runs s on the GPU if it is a hist, scatter or multiscan the
// kernels cover: ok reports whether it was.
func (r *run) histStmt(s *core.Stmt, env map[string]eval.Value) (ok bool, err error) {
	m, err := r.b.histPlan(r.prog, s)
	if err != nil || m == nil {
		return err != nil, err
	}
	switch m.k.Kind {
	case hkHist:
		return true, r.launchHist(m, env)
	case hkScatter:
		return true, r.launchScatter(m, env)
	case hkMultiScan:
		return true, r.launchMultiScan(m, env)
	}
	return true, fmt.Errorf("internal error: histogram module of kind %d", m.k.Kind)
}

// loadHist compiles (or finds in the cache) and loads m's kernels.
func (r *run) loadHist(m *histModule) (*loaded, error) {
	return r.loadSource(m.prelude(), m.body, "arepl_hist.cu", m.kernelNames())
}

// loadSource compiles src (or finds its cubin in the memory or disk cache)
// and loads the named kernels of it; the time counts as compile time.
func (r *run) loadSource(pre, body, file string, names []string) (*loaded, error) {
	start := time.Now()
	defer func() { r.t.Compile += time.Since(start) }()
	b := r.b
	p := b.g.Props()
	src, key := moduleText(pre, body, p.Arch(), p.NVRTCVersion)
	l, info, err := b.cache.get(key, src, file, func(cubin []byte) (*loaded, error) {
		cm, err := b.g.LoadModule(cubin)
		if err != nil {
			return nil, err
		}
		l := &loaded{cmod: cm, funcs: map[string]*cuda.Function{}, occ: map[string]int{}, ver: &version{unload: cm.Unload}}
		for _, name := range names {
			f, err := cm.Function(name)
			if err != nil {
				_ = cm.Unload()
				return nil, err
			}
			l.funcs[name] = f
		}
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	r.held = append(r.held, l)
	r.t.CacheHit = r.t.CacheHit || info.diskHit
	r.t.FastTier = r.t.FastTier || info.fast
	return l, nil
}

// histSize evaluates an i64 size on the host.
func (r *run) histSize(a core.Atom, env map[string]eval.Value) (int64, error) {
	v, err := r.host(a, env)
	if err != nil {
		return 0, err
	}
	return scalarInt(v)
}

// copyDest returns a fresh device copy of destination d (the statement's
// result; d itself may still be used).
func (r *run) copyDest(d *core.Var, env map[string]eval.Value) (*devArray, eval.Value, error) {
	src, v, err := r.device(d, env)
	if err != nil {
		return nil, v, err
	}
	// Whole 4-byte words: a 1- or 2-byte bucket is updated by a CAS on the
	// word that holds it (updCASWord).
	sz := int64(v.Elem.Size())
	out, err := newDevArray(r.b.g, v.Elem, (v.Len()*sz+3)/4*4/sz)
	if err != nil {
		return nil, v, err
	}
	out.n, out.bytes = v.Len(), v.Len()*sz
	r.temps = append(r.temps, out)
	if out.bytes > 0 {
		if err := r.b.g.DtoD(out.ptr(), src.ptr(), out.bytes); err != nil {
			return nil, v, err
		}
	}
	return out, v, nil
}

// histArgs builds the launch arguments of m's kernels from the values the
// caller has prepared.
type histArgs struct {
	n, k, chunk, c int64
	m              int32
	h              []int64
	lo, hc         []int64 // hist: this launch's window of buckets per op
	dst            [][]*devArray
	lock           []*devArray
	state, res     []*devArray
}

func (r *run) histLaunchArgs(m *histModule, a *histArgs, shared bool, env map[string]eval.Value) ([]any, int64, error) {
	k := m.k
	var args []any
	var traffic int64
	for _, p := range k.params {
		if p.only && !shared {
			continue
		}
		switch p.kind {
		case hpN:
			args = append(args, a.n)
		case hpEnv:
			v, err := r.envArg(p.env, env)
			if err != nil {
				return nil, 0, err
			}
			args = append(args, v)
		case hpIn:
			d, v, err := r.device(k.Arrs[p.k], env)
			if err != nil {
				return nil, 0, err
			}
			if v.Len() != a.n {
				return nil, 0, fmt.Errorf("internal error: %s has %d elements, the %s %d", k.Arrs[p.k].Name, v.Len(), expName(k.Stmt.Exp), a.n)
			}
			traffic += d.bytes
			args = append(args, d.ptr())
		case hpH:
			args = append(args, a.h[p.k])
		case hpDst:
			args = append(args, a.dst[p.k][p.c].ptr())
		case hpLock:
			args = append(args, a.lock[p.k].ptr())
		case hpM:
			args = append(args, a.m)
		case hpK:
			args = append(args, a.k)
		case hpChunk:
			args = append(args, a.chunk)
		case hpC:
			args = append(args, a.c)
		case hpLabels:
			d, v, err := r.device(k.labels, env)
			if err != nil {
				return nil, 0, err
			}
			if v.Len() != a.n {
				return nil, 0, source.Errorf(k.Stmt.Pos, "size mismatch: %d labels for %d elements", v.Len(), a.n)
			}
			traffic += d.bytes
			args = append(args, d.ptr())
		case hpState:
			args = append(args, a.state[p.k].ptr())
		case hpRes:
			traffic += a.res[p.k].bytes
			args = append(args, a.res[p.k].ptr())
		case hpLo:
			args = append(args, a.lo[p.k])
		case hpHc:
			args = append(args, a.hc[p.k])
		default:
			return nil, 0, fmt.Errorf("internal error: histogram parameter kind %d", p.kind)
		}
	}
	return args, traffic, nil
}

// histLaunch1 launches one kernel of m, records its time and checks the error
// flag.
func (r *run) histLaunch1(m *histModule, l *loaded, name string, grid int64, shared int, args []any, traffic int64, env map[string]eval.Value) error {
	f := l.funcs[name]
	if f == nil {
		return fmt.Errorf("internal error: kernel %s not loaded", name)
	}
	if grid > 1<<31-1 {
		return fmt.Errorf("gpu: %s needs %d blocks", expName(m.k.Stmt.Exp), grid)
	}
	if shared > 48<<10 {
		if err := f.SetMaxDynamicShared(shared); err != nil {
			return err
		}
	}
	d, err := f.Launch(cuda.Dim3{X: uint32(grid)}, cuda.Dim3{X: uint32(m.k.Block)}, shared, args...)
	if err != nil {
		return err
	}
	r.t.Run += d
	r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: name, Time: d, Bytes: traffic})
	if m.k.checks {
		return r.checkHistError(m, env)
	}
	return nil
}

// checkHistError reads the device error flag after one of m's kernels. A
// multiscan label out of range is reported as the CPU interpreter does,
// with the first such label, found on the host (only on this error path).
func (r *run) checkHistError(m *histModule, env map[string]eval.Value) error {
	// Word 0 holds the failed check's code; an index check adds its
	// indices and shape in the words after it (as in checkError).
	var buf [1 + 2*maxDetail]int64
	start := time.Now()
	err := r.b.g.DtoH(unsafe.Pointer(&buf[0]), r.b.errFlag, int64(8*len(buf)))
	r.xfer("DtoH", int64(8*len(buf)), start)
	code := int32(uint32(buf[0]))
	if err != nil || code == 0 {
		return err
	}
	if err := r.b.g.Memset(r.b.errFlag, 0, errBytes); err != nil {
		return err
	}
	if code < 0 || int(code) > len(m.sites) {
		return fmt.Errorf("internal error: gpu: unknown check %d failed", code)
	}
	site := m.sites[code-1]
	if m.k.Kind == hkMultiScan && int(code) == m.k.labelSite {
		classes, err := r.histSize(m.k.kAtom, env)
		if err != nil {
			return err
		}
		v, err := r.host(m.k.labels, env)
		if err != nil {
			return err
		}
		for i := range v.Len() {
			if l, ok := eval.IntAt(v.Data, int(i)); !ok || l < 0 || l >= classes {
				return source.Errorf(site.Pos, "label %d out of bounds for %d classes", l, classes)
			}
		}
	}
	if site.Rank > 0 {
		var idx, shape strings.Builder
		for i := 0; i < site.Rank && i < maxDetail; i++ {
			if i > 0 {
				idx.WriteString(", ")
			}
			fmt.Fprintf(&idx, "%d", buf[1+i])
			fmt.Fprintf(&shape, "[%d]", buf[1+maxDetail+i])
		}
		return source.Errorf(site.Pos, "Index [%s] out of bounds for array of shape %s.", idx.String(), shape.String())
	}
	return source.Errorf(site.Pos, "%s", site.Msg)
}

// histShape is how a hist statement runs: on the shared-memory kernel
// with m sub-histograms per block, or (m = 0) on the global kernel; in
// either case in passes over windows of ceil(h/passes) buckets per op.
type histShape struct {
	m      int32
	passes int64
}

// histPassBytes bounds the passes over the input: a pass costs reading
// every input element again, and passes pay only while that costs less
// than the global atomic each element would need otherwise. On the H200 a
// global atomic to a random bucket goes at 55 to 95 Gelem/s and streaming
// reads at about 4 TB/s, so one update is worth some 40 bytes of input;
// passes times bytes per element stay under 32.
const histPassBytes = 32

// histL2Window is the bytes of buckets the global kernel updates in one
// pass: 0.4 of the H100's 50 MB L2 (Futhark's F_L2; the H200 has 60 MB),
// so that the active buckets stay in L2.
const histL2Window = 20 << 20

// chooseHistShape picks the shape of a statement whose shared-memory
// kernel needs bytes(m, passes) bytes for m copies of windows of
// ceil(h/passes) buckets, with inBytes bytes of input per element (shared
// false: the statement has no shared kernel; total is the bytes of all its
// buckets). In order of preference: all buckets at once with as many copies
// (a power of two, at most maxCopies) as let two blocks share an SM; then
// as many as fit one block per SM; then one copy in as few passes as fit
// within histPassBytes; else the global kernel, in passes of
// histL2Window when the buckets are far beyond L2 and passes still pay.
func chooseHistShape(shared bool, bytes func(m, passes int64) int64, total, inBytes int64, lim Limits, maxCopies int32) histShape {
	inBytes = max(inBytes, 1)
	if shared {
		two, one := int64(lim.SharedOptin-1024)/2, int64(lim.SharedOptin)
		for _, budget := range []int64{two, one} {
			for m := maxCopies; m >= 1; m /= 2 {
				if bytes(int64(m), 1) <= budget {
					return histShape{m: m, passes: 1}
				}
			}
		}
		for p := int64(2); p*inBytes <= histPassBytes; p++ {
			if bytes(1, p) <= one {
				return histShape{m: 1, passes: p}
			}
		}
	}
	if p := ceilDiv(total, histL2Window); p > 1 && p*inBytes <= histPassBytes {
		return histShape{passes: p}
	}
	return histShape{passes: 1}
}

// histBytes is the shared memory of m copies of the ops' windows of hc
// buckets and their spare bucket (every op's array aligned to 8 bytes, as
// the kernel lays them out).
func histBytes(k *histKernel, hc []int64, m int64) int64 {
	var n int64
	for o, op := range k.ops {
		n = (n + (hc[o]+1)*m*int64(op.ts[0].Size()) + 7) &^ 7
	}
	return n
}

// histWindows is the window size per op for a number of passes.
func histWindows(h []int64, passes int64) []int64 {
	hc := make([]int64, len(h))
	for o, x := range h {
		hc[o] = ceilDiv(x, passes)
	}
	return hc
}

// inputBytes is the bytes of input per element of k.
func (k *histKernel) inputBytes() int64 {
	var n int64
	for _, t := range k.In {
		n += int64(t.Size())
	}
	return n
}

// shape is the shape of k for bucket counts h.
func (k *histKernel) shape(h []int64, lim Limits) histShape {
	var total, buckets int64
	for o, op := range k.ops {
		buckets += h[o]
		for _, t := range op.ts {
			total += h[o] * int64(t.Size())
		}
	}
	// With no buckets at all every index is out of range: the global
	// kernel still evaluates the map (so its errors are reported), and
	// there is no shared-memory histogram to size.
	shared := k.SharedOK() && buckets > 0
	bytes := func(m, passes int64) int64 { return histBytes(k, histWindows(h, passes), m) }
	return chooseHistShape(shared, bytes, total, k.inputBytes(), lim, histTune.maxCopies)
}

func (r *run) launchHist(m *histModule, env map[string]eval.Value) error {
	k := m.k
	l, err := r.loadHist(m)
	if err != nil {
		return err
	}
	n, err := r.histSize(k.W, env)
	if err != nil {
		return err
	}
	a := &histArgs{n: n, h: make([]int64, len(k.ops)), dst: make([][]*devArray, len(k.ops)), lock: make([]*devArray, len(k.ops))}
	var scratch []*devArray
	defer func() {
		for _, d := range scratch {
			d.Free()
		}
	}()
	var vals []eval.Value
	for o, op := range k.ops {
		for c, dv := range k.dests[o] {
			d, v, err := r.copyDest(dv, env)
			if err != nil {
				return err
			}
			if c == 0 {
				a.h[o] = v.Len()
			} else if v.Len() != a.h[o] {
				return fmt.Errorf("internal error: histogram destinations of %d and %d buckets", a.h[o], v.Len())
			}
			a.dst[o] = append(a.dst[o], d)
			vals = append(vals, eval.Value{Elem: v.Elem, Shape: []int64{v.Len()}, Dev: d})
		}
		if op.method == updLock {
			lk, err := newDevArray(r.b.g, core.U32, max(1, a.h[o]))
			if err != nil {
				return err
			}
			scratch = append(scratch, lk)
			if err := r.b.g.Memset(lk.ptr(), 0, lk.bytes); err != nil {
				return err
			}
			a.lock[o] = lk
		}
	}
	if n > 0 && k.sorts(a.h, n, r.b.lim) {
		if err := r.launchHistSorted(m, l, a, env); err != nil {
			return err
		}
	} else if n > 0 {
		sh := k.shape(a.h, r.b.lim)
		hc := histWindows(a.h, sh.passes)
		name, shared := k.Name+"_global", 0
		if sh.m > 0 {
			a.m, name, shared = sh.m, k.Name+"_shared", int(histBytes(k, hc, int64(sh.m)))
		}
		f := l.funcs[name]
		occ := 1
		if f != nil {
			if shared > 48<<10 {
				if err := f.SetMaxDynamicShared(shared); err != nil {
					return err
				}
			}
			if o, err := f.Occupancy(k.Block, shared); err == nil && o > 0 {
				occ = o
			}
		}
		grid := min(ceilDiv(n, int64(k.Tile())), int64(r.b.lim.SMs*occ))
		a.lo, a.hc = make([]int64, len(k.ops)), make([]int64, len(k.ops))
		for p := range sh.passes {
			for o := range k.ops {
				a.lo[o] = min(p*hc[o], a.h[o])
				a.hc[o] = min(hc[o], a.h[o]-a.lo[o])
			}
			args, traffic, err := r.histLaunchArgs(m, a, shared > 0, env)
			if err != nil {
				return err
			}
			if err := r.histLaunch1(m, l, name, grid, shared, args, traffic, env); err != nil {
				return err
			}
		}
	}
	return r.histBind(env, k.Stmt, vals)
}

// sorts reports whether the statement runs its sort-based path for bucket
// counts h and n elements. By default it does where the sorted order
// measured faster (bench/RESULTS.md, "GPU histograms", runs 6 and 7):
// per-bucket locks contended by 256 elements each or more (256 buckets: 166
// ms against 20 s; 65536: 6.5 against 12.3 ms; 2^18: 6.3 against 7.3 ms) or
// far beyond L2 (2^24 buckets: 6.8 against 15.5 ms); 1- and 2-byte values
// whose CAS loops share words in the one shared-memory copy a block holds,
// in one or two passes (u8 at 65536 buckets: 5.1 against 9.7 ms; 2^18: 5.3
// against 5.9). Native atomics and the other CAS loops were faster without
// sorting at every bucket count up to 2^26.
func (k *histKernel) sorts(h []int64, n int64, lim Limits) bool {
	if !k.Sortable() || n > sortMaxN || h[0] >= sortMaxN || lim.HistSort < 0 {
		return false
	}
	if lim.HistSort > 0 {
		return true
	}
	switch op := k.ops[0]; op.method {
	case updLock:
		var bytes int64
		for _, t := range op.ts {
			bytes += h[0] * int64(t.Size())
		}
		return h[0] <= 1<<18 && n >= 256*h[0] || bytes > histL2Window
	case updCASWord:
		sh := k.shape(h, lim)
		return sh.m == 1 && sh.passes <= 2
	}
	return false
}

// launchHistSorted runs the sort-based path: the keys, their sort, and the
// updates in sorted order, all buckets in one window.
func (r *run) launchHistSorted(m *histModule, l *loaded, a *histArgs, env map[string]eval.Value) error {
	k := m.k
	a.lo, a.hc = []int64{0}, []int64{a.h[0]}
	args, traffic, err := r.histLaunchArgs(m, a, false, env)
	if err != nil {
		return err
	}
	keys, err := newDevArray(r.b.g, core.U32, a.n)
	if err != nil {
		return err
	}
	defer keys.Free()
	grid := min(ceilDiv(a.n, int64(k.Block)), int64(r.b.lim.SMs*2048/k.Block))
	if err := r.histLaunch1(m, l, k.Name+"_keys", grid, 0, append(args[:len(args):len(args)], keys.ptr()), traffic+4*a.n, env); err != nil {
		return err
	}
	// Keys run from 0 to h (the out-of-range elements' key).
	sorted, perm, err := r.radixSort(keys, a.n, max(1, keyBits(a.h[0])))
	if err != nil {
		return err
	}
	sorted.Free()
	defer perm.Free()
	occ := 1
	if f := l.funcs[k.Name+"_sorted"]; f != nil {
		if o, err := f.Occupancy(k.Block, 0); err == nil && o > 0 {
			occ = o
		}
	}
	grid = min(ceilDiv(a.n, int64(k.Tile())), int64(r.b.lim.SMs*occ))
	return r.histLaunch1(m, l, k.Name+"_sorted", grid, 0, append(args[:len(args):len(args)], perm.ptr()), traffic+4*a.n, env)
}

func (r *run) launchScatter(m *histModule, env map[string]eval.Value) error {
	k := m.k
	l, err := r.loadHist(m)
	if err != nil {
		return err
	}
	n, err := r.histSize(k.W, env)
	if err != nil {
		return err
	}
	a := &histArgs{n: n}
	var vals []eval.Value
	for _, ds := range k.dests {
		d, v, err := r.copyDest(ds[0], env)
		if err != nil {
			return err
		}
		a.h = append(a.h, v.Len())
		a.dst = append(a.dst, []*devArray{d})
		vals = append(vals, eval.Value{Elem: v.Elem, Shape: []int64{v.Len()}, Dev: d})
	}
	if n > 0 {
		args, traffic, err := r.histLaunchArgs(m, a, false, env)
		if err != nil {
			return err
		}
		if err := r.histLaunch1(m, l, k.Name, ceilDiv(n, int64(k.Block)), 0, args, traffic, env); err != nil {
			return err
		}
	}
	return r.histBind(env, k.Stmt, vals)
}

func (r *run) launchMultiScan(m *histModule, env map[string]eval.Value) error {
	k := m.k
	l, err := r.loadHist(m)
	if err != nil {
		return err
	}
	n, err := r.histSize(k.W, env)
	if err != nil {
		return err
	}
	classes, err := r.histSize(k.kAtom, env)
	if err != nil {
		return err
	}
	if classes < 0 {
		return source.Errorf(k.Stmt.Pos, "negative number of classes %d", classes)
	}
	a := &histArgs{n: n, k: classes}
	var scratch []*devArray
	defer func() {
		for _, d := range scratch {
			d.Free()
		}
	}()
	var vals []eval.Value
	for _, t := range k.scanTs {
		d, err := newDevArray(r.b.g, t, n)
		if err != nil {
			return err
		}
		r.temps = append(r.temps, d)
		a.res = append(a.res, d)
		vals = append(vals, eval.Value{Elem: t, Shape: []int64{n}, Dev: d})
	}
	if n > 0 && k.msorts(classes, n, r.b.lim) {
		if err := r.launchMultiScanSorted(m, l, a, env); err != nil {
			return err
		}
	} else if n > 0 {
		a.c = multiscanChunks(n, max(classes, 1))
		a.chunk = ceilDiv(n, a.c)
		a.c = ceilDiv(n, a.chunk)
		for _, t := range k.scanTs {
			st, err := newDevArray(r.b.g, t, max(1, classes*a.c))
			if err != nil {
				return err
			}
			scratch = append(scratch, st)
			a.state = append(a.state, st)
		}
		args, traffic, err := r.histLaunchArgs(m, a, false, env)
		if err != nil {
			return err
		}
		// The accumulators stay in shared memory while a thread walks a
		// chunk when the block's k columns of them fit; otherwise a warp
		// walks each chunk with the state in global memory.
		agg, out, smem := k.Name+"_agg", k.Name+"_out", 0
		blocks := ceilDiv(a.c*32, int64(k.Block))
		if sb := k.multiscanSmemBytes(classes); classes > 0 && sb <= int64(r.b.lim.SharedOptin) {
			agg, out, smem = k.Name+"_aggs", k.Name+"_outs", int(sb)
			blocks = ceilDiv(a.c, int64(k.Block))
		}
		if err := r.histLaunch1(m, l, agg, blocks, smem, args, traffic, env); err != nil {
			return err
		}
		if classes > 0 {
			if err := r.histLaunch1(m, l, k.Name+"_scan", classes, 0, args, 0, env); err != nil {
				return err
			}
		}
		if err := r.histLaunch1(m, l, out, blocks, smem, args, traffic, env); err != nil {
			return err
		}
	}
	return r.histBind(env, k.Stmt, vals)
}

// multiscanSortLabels is the number of labels from which the sort-based
// multiscan runs by default (Limits.MultiscanSort overrides it), where it
// measured faster than the chunked one (bench/RESULTS.md, "GPU histograms").
const multiscanSortLabels = 1024

// msorts reports whether a multiscan over classes labels and n elements
// runs the sort-based path.
func (k *histKernel) msorts(classes, n int64, lim Limits) bool {
	if n > sortMaxN || classes >= sortMaxN || lim.MultiscanSort < 0 {
		return false
	}
	return lim.MultiscanSort > 0 || classes >= multiscanSortLabels
}

// launchMultiScanSorted runs the sort-based multiscan: the keys, their
// sort, and the segmented scan over the sorted order in three kernels.
func (r *run) launchMultiScanSorted(m *histModule, l *loaded, a *histArgs, env map[string]eval.Value) error {
	k := m.k
	var scratch []*devArray
	defer func() {
		for _, d := range scratch {
			d.Free()
		}
	}()
	a.chunk = multiscanSortChunks(a.n)
	a.c = ceilDiv(a.n, a.chunk)
	for _, t := range k.scanTs {
		st, err := newDevArray(r.b.g, t, a.c)
		if err != nil {
			return err
		}
		scratch = append(scratch, st)
		a.state = append(a.state, st)
	}
	flags, err := newDevArray(r.b.g, core.U32, a.c)
	if err != nil {
		return err
	}
	keys, err := newDevArray(r.b.g, core.U32, a.n)
	if err != nil {
		return err
	}
	scratch = append(scratch, flags, keys)
	args, traffic, err := r.histLaunchArgs(m, a, false, env)
	if err != nil {
		return err
	}
	with := func(extra ...any) []any { return append(args[:len(args):len(args)], extra...) }
	grid := min(ceilDiv(a.n, int64(k.Block)), int64(r.b.lim.SMs*2048/k.Block))
	labelBytes := int64(k.labels.Type.Elem.Size()) * a.n
	if err := r.histLaunch1(m, l, k.Name+"_skeys", grid, 0, with(keys.ptr()), labelBytes+4*a.n, env); err != nil {
		return err
	}
	classes := a.k
	sorted, perm, err := r.radixSort(keys, a.n, max(1, keyBits(classes-1)))
	if err != nil {
		return err
	}
	scratch = append(scratch, sorted, perm)
	blocks := ceilDiv(a.c*32, int64(k.Block))
	valueBytes := traffic - labelBytes
	if err := r.histLaunch1(m, l, k.Name+"_sagg", blocks, 0, with(sorted.ptr(), perm.ptr(), flags.ptr()), 8*a.n+valueBytes/2, env); err != nil {
		return err
	}
	if err := r.histLaunch1(m, l, k.Name+"_sscan", 1, 0, with(flags.ptr()), 0, env); err != nil {
		return err
	}
	return r.histLaunch1(m, l, k.Name+"_sout", blocks, 0, with(sorted.ptr(), perm.ptr(), flags.ptr()), 8*a.n+valueBytes, env)
}

// histBind binds a statement's results.
func (r *run) histBind(env map[string]eval.Value, s *core.Stmt, vals []eval.Value) error {
	if len(vals) != len(s.Pat) {
		return fmt.Errorf("internal error: %s gives %d values for %d variables", expName(s.Exp), len(vals), len(s.Pat))
	}
	for i, v := range s.Pat {
		env[v.Name] = vals[i]
	}
	return nil
}
