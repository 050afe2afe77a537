package eval

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// Backend choice under auto. A kernel launch, its synchronisation and the
// copies around it cost tens of microseconds before any element is touched,
// and an input on the host must first cross the bus; the CPU interpreter
// answers a small input before a kernel could start. So under auto an
// evaluation runs on the GPU when it has an input already on the device
// (moving it back would cost more than any kernel), when the largest
// constant width of a SOAC, iota or replicate in it (work made on the
// device, with nothing to upload) reaches GPUMinElements, or when its host
// inputs reach HostInputMinElements elements. `--backend gpu` forces the
// GPU whatever the size.
//
// Measured on an H100 with 16 cores (bench/RESULTS.md, "Interactive
// latency", run 1): `map i32.i64 (iota n)` took 0.38 ms on the CPU at 10^4,
// 1.3 ms at 10^5 and 3.5 ms at 10^6, against about 0.5 ms on the GPU with
// its module loaded; but `reduce (+) 0 a` over a host array took 0.4-1 ms
// on the CPU against 1.0 ms on the GPU at 10^5, 0.5-1 against 1.4 ms at 10^6
// and 1-1.7 against 3 ms at 10^7, the upload (at most the bus's 28-55 GB/s,
// below the CPU's memory bandwidth) costing more than the CPU's whole pass.
// An input that large is worth moving only because it then stays on the
// device for the inputs after.

// DefaultGPUMinElements is the constant width from which work made without
// host inputs runs on the GPU.
const DefaultGPUMinElements = 1 << 17

// HostInputMinElements is the size of host inputs from which they are
// uploaded for the GPU.
const HostInputMinElements = 1 << 24

// autoChoice says whether the GPU should run prog on args, and why.
func autoChoice(prog *core.Program, args []Value, minElems int64) (gpu bool, why string) {
	var elems int64
	for _, a := range args {
		if a.Dev != nil && a.Data == nil {
			return true, "auto: an input is on the device"
		}
		if len(a.Shape) > 0 {
			elems += a.Len()
		}
	}
	widest := int64(0)
	for _, f := range prog.Funs {
		widest = max(widest, constWidth(f.Body))
	}
	if widest >= minElems || elems >= max(minElems, HostInputMinElements) {
		return true, ""
	}
	return false, fmt.Sprintf("auto: %d host input elements (GPU from %d), widths up to %d (GPU from %d)", elems, max(minElems, HostInputMinElements), widest, minElems)
}

// constWidth is the largest constant size of an array built or traversed
// in b (and the bodies and lambdas inside it).
func constWidth(b *core.Body) int64 {
	if b == nil {
		return 0
	}
	w := int64(0)
	size := func(a core.Atom) {
		switch c := a.(type) {
		case core.Const:
			if c.T.IsInt() {
				w = max(w, c.Int())
			}
		case *core.Const:
			if c.T.IsInt() {
				w = max(w, c.Int())
			}
		}
	}
	lam := func(l *core.Lambda) {
		if l != nil {
			w = max(w, constWidth(l.Body))
		}
	}
	screma := func(e *core.Screma) {
		size(e.W)
		lam(e.Map)
		lam(e.Post)
		for _, r := range e.Reds {
			lam(r.Lambda)
		}
		for _, s := range e.Scans {
			lam(s.Lambda)
		}
	}
	for _, s := range b.Stmts {
		switch e := s.Exp.(type) {
		case *core.IotaExp:
			size(e.N)
		case *core.ReplicateExp:
			size(e.N)
		case *core.Screma:
			screma(e)
		case *core.Segmented:
			if e.Op != nil {
				screma(e.Op)
			}
		case *core.Hist:
			size(e.W)
			lam(e.Map)
		case *core.Scatter:
			size(e.W)
			lam(e.Map)
		case *core.Filter:
			size(e.W)
		case *core.MultiScan:
			size(e.W)
		case *core.IfExp:
			w = max(w, constWidth(e.Then), constWidth(e.Else))
		case *core.LoopExp:
			w = max(w, constWidth(e.Body))
		}
	}
	return w
}
