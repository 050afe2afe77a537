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
)

// NewSession returns a session whose CPU and GPU backends are wired in.
// opts.Backend and opts.Fusion are kept; CPU and GPU are filled in.
func NewSession(opts eval.Options) *eval.Session {
	opts.CPU = cpu.New(cpu.Options{})
	return eval.NewSession(opts)
}
