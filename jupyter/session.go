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

// prewarm starts, in the background, what a session can prepare before
// its first cell: for an eval.Session, the GPU backend (CUDA context,
// staging buffers and NVRTC's first compile, eval.Session.Prewarm), so that
// the notebook's first cell that runs on the GPU does not wait for it (it
// took 288 ms of the first cell in bench/RESULTS.md, "Interactive
// latency", run 2). The kernel calls it as it starts serving; a session
// without Prewarm (the tests' fakes) has nothing to prepare.
func prewarm(s session) {
	if p, ok := s.(interface{ Prewarm() }); ok {
		p.Prewarm()
	}
}
