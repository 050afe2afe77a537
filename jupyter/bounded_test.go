package jupyter

import (
	"context"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
)

// TestConnectionFileDevZero checks that a connection file that never
// ends is refused after a bounded read (issue 14, item 10: it was read
// forever).
func TestConnectionFileDevZero(t *testing.T) {
	_, err := readConnectionFile("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero:1:1: input longer than 1 MiB") {
		t.Errorf("connection file /dev/zero: %v", err)
	}
}

// streamOutput records what a command streams.
type streamOutput struct {
	output
	text strings.Builder
}

func (o *streamOutput) stream(_, text string) { o.text.WriteString(text) }

// TestSetMemory checks :set memory in the kernel (issue 14, item 11).
func TestSetMemory(t *testing.T) {
	old := eval.MemoryLimit()
	defer eval.SetMemoryLimit(old)
	e := newEvaluator(newFake())
	out := &streamOutput{}
	if err := e.command(context.Background(), "In[1]", item{commandItem, ":set memory 3GiB", 1}, out); err != nil {
		t.Fatal(err)
	}
	if out.text.String() != "memory 3 GiB\n" || eval.MemoryLimit() != 3<<30 {
		t.Errorf(":set memory 3GiB printed %q, budget %d", out.text.String(), eval.MemoryLimit())
	}
	if err := e.command(context.Background(), "In[1]", item{commandItem, ":set memory lots", 1}, out); err == nil {
		t.Error(":set memory lots accepted")
	}
}
