package eval

import (
	"context"
	"testing"

	"github.com/arepl/arepl/lang/core"
)

// closingBackend counts Close calls, as eval/gpu's Backend finishes its
// background compiles there.
type closingBackend struct{ closed int }

func (*closingBackend) Name() string { return "gpu" }
func (*closingBackend) Run(context.Context, *core.Program, string, []Value, *Timings) ([]Value, error) {
	return nil, nil
}
func (b *closingBackend) Close() { b.closed++ }

func TestSessionCloseClosesGPU(t *testing.T) {
	b := &closingBackend{}
	s := NewSession(Options{Backend: "auto", GPU: func() (Backend, error) { return b, nil }})
	s.Close() // no GPU backend made yet: nothing to close
	if b.closed != 0 {
		t.Fatalf("Close before the GPU was made closed it %d times", b.closed)
	}
	if _, err := s.gpuBackend(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if b.closed != 1 {
		t.Fatalf("Close closed the GPU backend %d times, want 1", b.closed)
	}
}
