package eval

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// Backend choice under auto. A kernel launch, its synchronisation and the
// copies around it cost tens of microseconds before any element is touched,
// and an input on the host must first cross the bus; the CPU interpreter
// answers a small input before a kernel could start. So under auto an
// evaluation runs on the GPU only when it has an input already on the
// device (moving it back would cost more than any kernel), or when its
// work — the elements of its array inputs, or the largest constant width
// of a SOAC, iota or replicate in it — reaches GPUMinElements. `--backend
// gpu` forces the GPU whatever the size.

// DefaultGPUMinElements is the crossover measured on an H100 (bench/RESULTS.md,
// "Interactive latency"): below it a reduction over host data answered
// sooner on the CPU than with the upload and the launch.
const DefaultGPUMinElements = 1 << 17

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
	if elems >= minElems || widest >= minElems {
		return true, ""
	}
	return false, fmt.Sprintf("auto: %d input elements, widths up to %d, below the GPU's %d", elems, widest, minElems)
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
