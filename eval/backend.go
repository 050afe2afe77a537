package eval

import (
	"context"
	"time"

	"github.com/arepl/arepl/lang/core"
)

// Backend runs core programs. The CPU interpreter (eval/cpu) and the CUDA
// backend (eval/gpu) implement it; eval/cpu and eval/gpu never import each
// other, and the Session picks one per evaluation.
//
// Run calls function fn of prog with args and returns its results, one
// Value per core result. Run-time errors in the user's program are
// *source.Error values naming the statement's position; cancellation of ctx
// makes Run return ctx.Err() promptly. Run records what it did in t.
type Backend interface {
	Name() string
	Run(ctx context.Context, prog *core.Program, fn string, args []Value, t *Timings) ([]Value, error)
}

// OrderSetter is implemented by backends whose floating-point results can
// depend on timing, like the GPU's single-pass scans, whose look-back
// combines whichever predecessors' values are ready. SetDeterministic(true)
// makes them combine in a fixed order, so that a run repeats bit for bit
// (at some cost in speed); the session calls it before every evaluation.
type OrderSetter interface {
	SetDeterministic(on bool)
}

// Settler is implemented by backends with background work that changes
// later runs' speed (the GPU's optimised compiles of modules it compiled
// fast first): Settle waits for it. Benchmarks settle before timed runs.
type Settler interface {
	Settle(ctx context.Context) error
}

// Timings is what one evaluation cost, stage by stage. The REPL prints it
// as one line with :time on; the Jupyter kernel renders it as a table.
type Timings struct {
	Parse    time.Duration // parse and type check
	Lower    time.Duration // lowering to core
	Fuse     time.Duration // fusion passes
	Compile  time.Duration // code generation and compilation (GPU)
	CacheHit bool          // the compiled module came from the cache
	FastTier bool          // a module was compiled fast; its optimised one compiles in the background (GPU)
	Transfer time.Duration // host<->device copies
	Run      time.Duration // execution (for the GPU: kernel time by events)
	Total    time.Duration
	Backend  string
	Kernels  []KernelTiming
	Notes    []string // e.g. "scan ran on the CPU: not yet on the GPU"
	// Transfers lists the host<->device copies behind Transfer, each with
	// its bytes, so that :time can give their bandwidth.
	Transfers []TransferTiming
	// Why says why the session chose Backend under auto (empty when the
	// choice was forced or the only one).
	Why string
	// CPUStatements counts the SOAC statements the GPU backend handed to
	// the CPU (each time one ran).
	CPUStatements int
	// Trace, when set, asks the backend to record its tiles' phases
	// (`:trace`; eval/trace.go).
	Trace *Trace
}

// TransferTiming is one host<->device copy.
type TransferTiming struct {
	Dir   string // "HtoD" or "DtoH"
	Bytes int64
	Time  time.Duration
}

// Uploader is implemented by backends with memory of their own (the GPU):
// Upload copies values there and returns them with their device copy
// attached, so that later runs over them move nothing (arepl bench uploads
// its inputs once, as futhark bench does).
type Uploader interface {
	Upload(ctx context.Context, vs []Value, t *Timings) ([]Value, error)
}

// CopyBandwidther is implemented by backends that can measure the
// bandwidth of a device-to-device copy of n bytes (bytes read plus written
// per second), the yardstick arepl bench gives kernels' bandwidth against.
type CopyBandwidther interface {
	CopyBandwidth(n int64) (float64, error)
}

// KernelTiming is one kernel launch (or one SOAC on the CPU).
type KernelTiming struct {
	Name  string
	Time  time.Duration
	Bytes int64 // bytes read plus written
}
