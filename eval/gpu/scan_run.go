package gpu

import (
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// scanPlans remembers, per statement, its generated scan module or that it
// has none, so that the backend's dispatch (which asks several times per
// statement and per loop iteration) renders each statement once. Programs
// of a long REPL session keep adding statements: the table is dropped when
// it grows past scanPlanLimit.
var scanPlans = struct {
	sync.Mutex
	m map[scanPlanKey]*scanModule
}{m: map[scanPlanKey]*scanModule{}}

type scanPlanKey struct {
	s   *core.Stmt
	lim Limits
}

const scanPlanLimit = 4096

// scanPlan returns the scan module of s, nil when s is no scan the GPU
// runs (the reason is in why).
func (b *Backend) scanPlan(prog *core.Program, s *core.Stmt) (m *scanModule, why string, err error) {
	switch s.Exp.(type) {
	case *core.Screma, *core.Segmented, *core.Filter:
	default:
		return nil, "", nil
	}
	key := scanPlanKey{s, b.lim}
	scanPlans.Lock()
	m, ok := scanPlans.m[key]
	scanPlans.Unlock()
	if ok {
		return m, "", nil
	}
	m, err = genScan(prog, s, b.lim)
	if err != nil {
		if !isUnsupported(err) {
			return nil, "", err
		}
		why, m, err = err.Error(), nil, nil
	}
	scanPlans.Lock()
	if len(scanPlans.m) >= scanPlanLimit {
		scanPlans.m = map[scanPlanKey]*scanModule{}
	}
	scanPlans.m[key] = m
	scanPlans.Unlock()
	return m, why, nil
}

// scannable reports whether s runs as a single-pass scan kernel. The
// backend's dispatch calls it to keep s out of runs of fallback statements
// and to follow control statements that contain one.
func (r *run) scannable(s *core.Stmt) bool {
	if r.l.mod.kernels[s] != nil {
		return false
	}
	m, _, err := r.b.scanPlan(r.prog, s)
	return m != nil && err == nil
}

// scanStmt runs s as a single-pass scan kernel if it is one: ok reports
// whether it was.
func (r *run) scanStmt(s *core.Stmt, env map[string]eval.Value) (ok bool, err error) {
	if r.l.mod.kernels[s] != nil {
		return false, nil
	}
	m, _, err := r.b.scanPlan(r.prog, s)
	if err != nil || m == nil {
		return err != nil, err
	}
	return true, r.launchScan(s, m, env)
}

// loadScan compiles (or finds in the cache) and loads a scan module, and
// returns its kernel, once it has checked that a block of it fits on a
// multiprocessor.
func (r *run) loadScan(m *scanModule) (*cuda.Function, error) {
	start := time.Now()
	defer func() { r.t.Compile += time.Since(start) }()
	b := r.b
	p := b.g.Props()
	prelude, body := m.prelude(), m.body
	// Tier 1 compiles the kernel's fast variant (scanKernel.Fast), under
	// the module's one key.
	var fast func() string
	if r.tracing(m) {
		prelude, body = "#define AR_TRACE 1\n"+prelude, m.traceBody // the instrumented variant (traceScan)
	} else if m.fastBody != "" && scanFastText {
		fast = func() string { return prelude + "\n" + canonical(m.fastBody) }
	}
	src, key := moduleText(prelude, body, p.Arch(), p.NVRTCVersion)
	l, info, err := b.cache.getFast(key, src, fast, "arepl_scan.cu", func(cubin []byte) (*loaded, error) {
		cm, err := b.g.LoadModule(cubin)
		if err != nil {
			return nil, err
		}
		f, err := cm.Function(m.k.Name)
		var occ int
		if err == nil {
			occ, err = f.Occupancy(m.k.Block, 0)
		}
		if err == nil && occ < 1 {
			err = fmt.Errorf("gpu: %s (%d threads, %d bytes of shared memory) fits on no multiprocessor",
				m.k.Name, m.k.Block, m.k.shared())
		}
		if err != nil {
			_ = cm.Unload()
			return nil, err
		}
		return &loaded{cmod: cm, funcs: map[string]*cuda.Function{m.k.Name: f}, occ: map[string]int{m.k.Name: occ}, ver: &version{unload: cm.Unload}}, nil
	})
	if err != nil {
		return nil, err
	}
	r.held = append(r.held, l)
	r.t.CacheHit = r.t.CacheHit || info.diskHit
	r.t.FastTier = r.t.FastTier || info.fast
	return l.funcs[m.k.Name], nil
}

// launchScan evaluates the sizes, brings the inputs to the device, makes
// the outputs and the look-back state (statuses zeroed, so every launch
// starts clean), launches one block per tile and binds the results.
func (r *run) launchScan(s *core.Stmt, m *scanModule, env map[string]eval.Value) error {
	k := m.k
	f, err := r.loadScan(m)
	if err != nil {
		return err
	}
	size := func(a core.Atom) (int64, error) {
		v, err := r.host(a, env)
		if err != nil {
			return 0, err
		}
		return scalarInt(v)
	}
	w, err := size(k.W)
	if err != nil {
		return err
	}
	segs := int64(1)
	var outer []int64
	for _, a := range k.Outer {
		d, err := size(a)
		if err != nil {
			return err
		}
		outer = append(outer, d)
		segs *= d
	}
	n := w * segs
	tiles := ceilDiv(n, k.tileLen(w))
	if tiles > 1<<31-1 {
		return fmt.Errorf("gpu: %s of %d elements needs more than 2^31 tiles", expName(s.Exp), n)
	}

	var scratch []*devArray
	defer func() {
		for _, d := range scratch {
			d.Free()
		}
	}()
	alloc := func(t core.PrimType, count int64, temp bool) (*devArray, error) {
		d, err := newDevArray(r.b.g, t, count)
		if err != nil {
			return nil, err
		}
		if temp {
			scratch = append(scratch, d)
		} else {
			r.temps = append(r.temps, d)
		}
		return d, nil
	}
	var outs, res []*devArray
	for _, t := range k.Out {
		d, err := alloc(t, n, false)
		if err != nil {
			return err
		}
		outs = append(outs, d)
	}
	for _, t := range k.Res {
		d, err := alloc(t, n, false)
		if err != nil {
			return err
		}
		res = append(res, d)
	}
	// The look-back states (stateLayout, Spread apart: stateSpread), then
	// the u32 ticket. All zero: every tile INVALID, the ticket at 0.
	stateBytes := 8 * int64(k.Words) * tiles * int64(max(1, k.Spread))
	if k.Multi {
		stateBytes *= 2 // an aggregate slot and a prefix slot
	}
	traceBytes := int64(0)
	if r.tracing(m) {
		traceBytes = 8 * traceSlots * tiles
	}
	flags, err := alloc(core.U8, stateBytes+16+traceBytes, true)
	if err != nil {
		return err
	}
	if err := r.b.g.Memset(flags.ptr(), 0, flags.bytes); err != nil {
		return err
	}
	count, err := alloc(core.I64, 1, true)
	if err != nil {
		return err
	}

	var args []any
	var traffic int64
	for _, p := range k.params {
		switch p.kind {
		case spN:
			args = append(args, n)
		case spW:
			args = append(args, w)
		case spEnv:
			a, err := r.envArg(p.env, env)
			if err != nil {
				return err
			}
			args = append(args, a)
		case spIn:
			d, v, err := r.device(k.Arrs[p.k], env)
			if err != nil {
				return err
			}
			if v.Len() != n {
				return fmt.Errorf("internal error: %s has %d elements, the %s %d", k.Arrs[p.k].Name, v.Len(), expName(s.Exp), n)
			}
			traffic += d.bytes
			args = append(args, d.ptr())
		case spOut:
			traffic += outs[p.k].bytes
			args = append(args, outs[p.k].ptr())
		case spRes:
			traffic += res[p.k].bytes
			args = append(args, res[p.k].ptr())
		case spState:
			args = append(args, flags.ptr())
		case spTicket:
			args = append(args, flags.ptr()+cuda.Ptr(stateBytes))
		case spCount:
			args = append(args, count.ptr())
		default:
			return fmt.Errorf("internal error: scan parameter kind %d", p.kind)
		}
	}
	kept := int64(0)
	if n > 0 {
		d, err := f.Launch(cuda.Dim3{X: uint32(tiles)}, cuda.Dim3{X: uint32(k.Block)}, 0, args...)
		if err != nil {
			return err
		}
		r.t.Run += d
		r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: k.Name, Time: d, Bytes: traffic})
		if traceBytes > 0 {
			if err := r.traceScan(k.Name, flags.ptr()+cuda.Ptr(stateBytes+16), tiles); err != nil {
				return err
			}
		}
		if k.checks {
			if err := r.checkScanError(m); err != nil {
				return err
			}
		}
		if k.Mode == scanFilter {
			start := time.Now()
			err := r.b.g.DtoH(unsafe.Pointer(&kept), count.ptr(), 8)
			r.xfer("DtoH", 8, start)
			if err != nil {
				return err
			}
		}
	}

	var vals []eval.Value
	switch k.Mode {
	case scanFilter:
		nv := len(k.Res)
		if k.Part {
			nv /= 2
		}
		for j, d := range res {
			c := kept
			if j >= nv {
				c = n - kept
			}
			// The array keeps its allocation of n elements; only the
			// first c are the result.
			d.n, d.bytes = c, c*int64(k.Res[j].Size())
			vals = append(vals, eval.Value{Elem: k.Res[j], Shape: []int64{c}, Dev: d})
		}
	default:
		shape := append(append([]int64(nil), outer...), w)
		for j, d := range res {
			vals = append(vals, eval.Value{Elem: k.Res[j], Shape: append([]int64(nil), shape...), Dev: d})
		}
		for j, d := range outs {
			vals = append(vals, eval.Value{Elem: k.Out[j], Shape: append([]int64(nil), shape...), Dev: d})
		}
	}
	if len(vals) != len(s.Pat) {
		return fmt.Errorf("internal error: %s gives %d values for %d variables", expName(s.Exp), len(vals), len(s.Pat))
	}
	for i, v := range s.Pat {
		env[v.Name] = vals[i]
	}
	return nil
}

// envArg is the launch argument of one free variable (or a dimension of
// one) of the lambdas.
func (r *run) envArg(p kparam, env map[string]eval.Value) (any, error) {
	switch p.kind {
	case pErr:
		return r.b.errFlag, nil
	case pScalar:
		v, err := r.host(p.v, env)
		if err != nil {
			return nil, err
		}
		return scalarArg(v)
	case pArray:
		d, _, err := r.device(p.v, env)
		if err != nil {
			return nil, err
		}
		return d.ptr(), nil
	case pDim:
		v, err := r.value(p.v, env)
		if err != nil {
			return nil, err
		}
		if p.k >= len(v.Shape) {
			return nil, fmt.Errorf("internal error: %s has rank %d", p.v.Name, len(v.Shape))
		}
		return v.Shape[p.k], nil
	}
	return nil, fmt.Errorf("internal error: environment parameter kind %d", p.kind)
}

// checkScanError reads the device error flag after a scan kernel; its
// codes index the scan module's own table of checks.
func (r *run) checkScanError(m *scanModule) error {
	var code int32
	start := time.Now()
	err := r.b.g.DtoH(unsafe.Pointer(&code), r.b.errFlag, 4)
	r.xfer("DtoH", 4, start)
	if err != nil || code == 0 {
		return err
	}
	if err := r.b.g.Memset(r.b.errFlag, 0, 4); err != nil {
		return err
	}
	if code < 0 || int(code) > len(m.sites) {
		return fmt.Errorf("internal error: gpu: unknown check %d failed", code)
	}
	site := m.sites[code-1]
	return source.Errorf(site.Pos, "%s", site.Msg)
}

// tracing reports whether m runs instrumented: under `:trace`, when m
// has the variant (filters have none).
func (r *run) tracing(m *scanModule) bool { return r.t.Trace != nil && m.traceBody != "" }

// traceSlots is AR_TRACE_SLOTS of kernels/scan_prelude.cu: the words each
// tile of an instrumented scan writes.
const traceSlots = 11

// traceScanPhases name the intervals between a tile's timestamps: the
// phase and the slots of its start and end (slot 9, the end of publishing
// the aggregate, lies between 4 and 5).
var traceScanPhases = [...]struct {
	name       string
	start, end int
}{{"ticket", 0, 1}, {"load", 1, 2}, {"thread scan", 2, 3}, {"block scan", 3, 4},
	{"publish", 4, 9}, {"look-back", 9, 5}, {"apply prefix", 5, 6}, {"store", 6, 7}}

// traceScan reads the timestamps an instrumented scan wrote (`:trace`)
// and adds each tile's phases to the trace, in nanoseconds from the
// first tile's start; lanes are multiprocessors.
func (r *run) traceScan(name string, p cuda.Ptr, tiles int64) error {
	words := make([]uint64, traceSlots*tiles)
	start := time.Now()
	err := r.b.g.DtoH(unsafe.Pointer(&words[0]), p, int64(len(words))*8)
	r.xfer("DtoH", int64(len(words))*8, start)
	if err != nil {
		return err
	}
	r.t.Trace.Kernel += fmt.Sprintf(" (%s, %d tiles)", name, tiles)
	addTraceSpans(r.t.Trace, words, tiles)
	return nil
}

// addTraceSpans adds the phases of each tile whose words (traceSlots per
// tile, kernels/scan_prelude.cu) an instrumented scan wrote to tr.
func addTraceSpans(tr *eval.Trace, words []uint64, tiles int64) {
	origin := uint64(0)
	for t := int64(0); t < tiles; t++ {
		if w := words[t*traceSlots]; w != 0 && (origin == 0 || w < origin) {
			origin = w
		}
	}
	for t := int64(0); t < tiles; t++ {
		w := words[t*traceSlots : (t+1)*traceSlots]
		if w[0] == 0 || w[7] == 0 {
			continue // no tile took this ticket
		}
		if w[9] == 0 {
			w[9] = w[4] // no look-back (segments within tiles): nothing published
		}
		for _, ph := range traceScanPhases {
			s := eval.Span{Tile: int(t), Lane: int(w[8]), Phase: ph.name,
				Start: int64(w[ph.start] - origin), End: int64(w[ph.end] - origin)}
			if ph.name == "look-back" {
				s.Distance = int(w[10])
			}
			tr.AddSpan(s)
		}
	}
}
