package jupyter

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
)

// blockingKeeper is a fake session whose Keep waits for the test, and
// then binds _N as a definition of the fake.
type blockingKeeper struct {
	*fakeSession
	release chan struct{}
}

func (b *blockingKeeper) Keep(name string, res *eval.Result) bool {
	select {
	case <-b.release:
	case <-time.After(10 * time.Second):
	}
	b.defs[name] = int(res.Values[0].Data.([]int32)[0])
	return true
}

// TestKeepAfterIdle: binding a cell's _N is bookkeeping no client sees
// before its next request, so the kernel does it after the cell's idle
// status (as the REPL does it after printing), and the next cell sees it.
// Keep blocks here until the client has the idle status: done before
// idle, the cell would never end.
func TestKeepAfterIdle(t *testing.T) {
	s := &blockingKeeper{fakeSession: newFake(), release: make(chan struct{})}
	c, _ := startKernelWith(t, s)
	id := c.send(c.shell, "execute_request", executeContent("42"))
	c.wait(c.shellR, id)
	if got := c.statuses(id); fmt.Sprint(got) != "[status:busy execute_input execute_result status:idle]" {
		t.Fatalf("iopub %v", got)
	}
	close(s.release)
	id = c.send(c.shell, "execute_request", executeContent("_1"))
	if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "ok" {
		t.Fatalf("_1 after In[1]: %v", r)
	}
	shown := false
	for _, m := range c.outputs(id) {
		if m.Header.MsgType == "execute_result" {
			var r struct {
				Data map[string]any `json:"data"`
			}
			json.Unmarshal(m.Content, &r)
			shown = r.Data["text/plain"] == "42"
		}
	}
	if !shown {
		t.Errorf("_1 does not show 42")
	}
}

// TestReplyStages: an execute_reply's metadata says where the kernel's time
// went, stage by stage from the request's arrival, and the stages add up
// to the whole.
func TestReplyStages(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent("7"))
	m := c.wait(c.shellR, id)
	c.outputs(id)
	var meta struct {
		Started string `json:"started"`
		Arepl   struct {
			KernelMS float64            `json:"kernel_ms"`
			StagesMS map[string]float64 `json:"stages_ms"`
		} `json:"arepl"`
	}
	if err := json.Unmarshal(m.Metadata, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Started == "" || meta.Arepl.KernelMS <= 0 {
		t.Fatalf("metadata %s", m.Metadata)
	}
	sum := 0.0
	for name, ms := range meta.Arepl.StagesMS {
		known := false
		for _, n := range stageNames {
			known = known || n == name
		}
		if !known || ms <= 0 {
			t.Errorf("stage %q: %v ms", name, ms)
		}
		sum += ms
	}
	for _, want := range []string{"decode", "busy", "input", "eval"} {
		if _, ok := meta.Arepl.StagesMS[want]; !ok {
			t.Errorf("no %s stage in %s", want, m.Metadata)
		}
	}
	// Each stage is rounded to a microsecond.
	if math.Abs(sum-meta.Arepl.KernelMS) > 0.001*float64(numStages) {
		t.Errorf("stages add up to %.3f ms, kernel_ms is %.3f", sum, meta.Arepl.KernelMS)
	}
}
