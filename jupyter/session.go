package jupyter

import "github.com/arepl/arepl/eval"

// newSession is the session a kernel starts with: backend "auto" (the GPU
// when there is one) and fusion on, as in the REPL.
func newSession() *eval.Session {
	return eval.NewSession(eval.Options{Backend: "auto", Fusion: true})
}
