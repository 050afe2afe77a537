package jupyter

import (
	"errors"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
)

// TestKernelPrewarmsGPU checks that a kernel starts creating its session's
// GPU backend as it starts serving, before any cell asks for it (issue 16:
// the first cell paid the CUDA context), and that a cell still runs while
// the backend is being made and after it failed.
func TestKernelPrewarmsGPU(t *testing.T) {
	opened := make(chan struct{})
	release := make(chan struct{})
	sess := eval.NewSession(eval.Options{
		Backend: "auto", Fusion: true, CPU: cpu.New(cpu.Options{}),
		GPU: func() (eval.Backend, error) {
			close(opened)
			<-release
			return nil, errors.New("no GPU in this test")
		},
	})
	c, _ := startKernelWith(t, sess)
	select {
	case <-opened:
	case <-time.After(10 * time.Second):
		t.Fatal("the kernel did not start making the GPU backend before its first cell")
	}
	close(release)
	id := c.send(c.shell, "execute_request", executeContent("1 + 2"))
	if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "ok" {
		t.Fatalf("cell after the prewarm: %v", r)
	}
	out := c.outputs(id)
	if len(out) != 4 {
		t.Fatalf("iopub %s", msgTypes(out))
	}
	if got := contentOf(t, out[2])["data"].(map[string]any)["text/plain"]; got != "3" {
		t.Errorf("1 + 2 gave %v", got)
	}
}

// TestPrewarmFake checks that a session without Prewarm is left alone.
func TestPrewarmFake(t *testing.T) {
	prewarm(newFake()) // must not panic or block
}
