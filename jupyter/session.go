package jupyter

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/backends"
)

// newSession is the session a kernel starts with: every backend this build
// has, backend "auto" (the GPU when there is one) and fusion on, as in the
// REPL.
func newSession() *eval.Session {
	return backends.NewSession(eval.Options{Backend: "auto", Fusion: true})
}
