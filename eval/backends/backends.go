// Package backends assembles sessions with every backend this build has:
// the CPU interpreter always, and the CUDA backend created on first use
// when a GPU is present. eval cannot import its backends (they import
// eval for values), and eval/cpu and eval/gpu never import each other, so
// this is the one place that knows them all; the REPL, `arepl run/test/
// bench` and the Jupyter kernel all start here.
package backends

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	"github.com/arepl/arepl/eval/gpu"
)

// NewSession returns a session whose CPU and GPU backends are wired in.
// opts.Backend and opts.Fusion are kept; CPU, GPU and CUDA are filled in.
// The GPU backend runs what it cannot do on the GPU through the CPU
// interpreter.
func NewSession(opts eval.Options) *eval.Session {
	c := cpu.New(cpu.Options{})
	opts.CPU = c
	opts.GPU = func() (eval.Backend, error) {
		g, err := gpu.New(gpu.Options{Fallback: c})
		if err != nil {
			return nil, err
		}
		return g, nil
	}
	opts.CUDA = gpu.Kernel
	opts.GPUPlan = gpu.PlanLines
	return eval.NewSession(opts)
}
