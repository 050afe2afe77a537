package jupyter

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestCellLatency measures what a notebook user waits for: from sending an
// execute_request to the kernel's idle status on iopub (what jupyter_client's
// execute_interactive waits for), over the wire protocol, for cells run
// through the kernel's real session. By default it runs a few small cells
// and checks that each succeeds; with AREPL_CELL_LATENCY=FILE it runs the
// inputs of FILE (bench/gpu/latency.txt's format: `!name code` is measured,
// other lines are sent as unmeasured cells) and, with
// AREPL_CELL_LATENCY_OUT=FILE, writes one JSON object per measured cell
// (bench/gpu/latency.sh runs it on the GPU machine, issue 16).
func TestCellLatency(t *testing.T) {
	lines := []string{"!new let ys = map i32.i64 (iota 1000)", "!sum reduce (+) 0 ys", "!repeat reduce (+) 0 ys",
		"!renamed reduce (+) 0 (map (\\z -> z) ys)"}
	if f := os.Getenv("AREPL_CELL_LATENCY"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = strings.Split(string(b), "\n")
	}
	var out *bufio.Writer
	if f := os.Getenv("AREPL_CELL_LATENCY_OUT"); f != "" {
		fh, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		out = bufio.NewWriter(fh)
		defer out.Flush()
	}
	c, _ := startKernel(t)
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, code, measured := "", l, strings.HasPrefix(l, "!")
		if measured {
			name, code, _ = strings.Cut(l[1:], " ")
		}
		start := time.Now()
		id := c.send(c.shell, "execute_request", executeContent(code))
		var reply map[string]any
		var meta struct {
			Arepl struct {
				KernelMS float64            `json:"kernel_ms"`
				StagesMS map[string]float64 `json:"stages_ms"`
			} `json:"arepl"`
		}
		select {
		case m := <-c.shellR:
			reply = contentOf(t, m)
			if err := json.Unmarshal(m.Metadata, &meta); err != nil {
				t.Fatalf("%q: reply metadata: %v", code, err)
			}
		case <-time.After(10 * time.Minute):
			t.Fatalf("%q: no reply", code)
		}
		var text string
		for _, m := range c.outputs(id) {
			if m.Header.MsgType == "execute_result" || m.Header.MsgType == "stream" || m.Header.MsgType == "error" {
				text += string(m.Content)
			}
		}
		d := time.Since(start)
		if reply["status"] != "ok" {
			t.Errorf("%q: %v %s", code, reply, text)
		}
		if !measured {
			continue
		}
		if reply["status"] == "ok" && (meta.Arepl.KernelMS <= 0 || meta.Arepl.StagesMS["eval"] <= 0) {
			t.Errorf("%q: execute_reply's metadata has no stage times: %+v", code, meta.Arepl)
		}
		t.Logf("%-16s %9.3f ms (kernel %.3f ms: %v)  %s", name, float64(d)/1e6, meta.Arepl.KernelMS, meta.Arepl.StagesMS, code)
		if out != nil {
			if len(text) > 300 {
				text = text[:300]
			}
			row, _ := json.Marshal(map[string]any{"name": name, "input": code, "ms": float64(d) / 1e6, "output": text,
				"kernel_ms": meta.Arepl.KernelMS, "stages_ms": meta.Arepl.StagesMS})
			out.Write(append(row, '\n'))
		}
	}
}
