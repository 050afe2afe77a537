package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// fakeSession stands in for eval.Session so the execute path of the
// protocol can be tested on its own. It understands integer literals (i32
// values), `def NAME = N`, `rows N` (an [N][1]i64 array), `sleep` (blocks
// until cancelled), `slowbad` (fails after 200 ms); anything else is a
// positioned compile error at 1:1. `panic` panics, as a pipeline bug
// would.
type fakeSession struct {
	defs    map[string]int
	fusion  bool
	det     bool
	backend string
}

func newFake() *fakeSession { return &fakeSession{defs: map[string]int{}, backend: "cpu"} }

var i32 = types.Prim{T: core.I32}

func (f *fakeSession) Eval(ctx context.Context, name, src string) (*eval.Result, error) {
	src = strings.TrimSpace(src)
	bad := func() error {
		line, _, _ := strings.Cut(src, "\n")
		return source.ErrorList{{Pos: source.Pos{File: name, Line: 1, Col: 1}, Msg: "cannot evaluate " + strconv.Quote(src), Line: line}}
	}
	switch {
	case src == "sleep":
		<-ctx.Done()
		return nil, ctx.Err()
	case src == "panic":
		panic("boom")
	case src == "slowbad":
		time.Sleep(200 * time.Millisecond)
		return nil, bad()
	case strings.HasPrefix(src, "def "):
		n, v, ok := strings.Cut(strings.TrimPrefix(src, "def "), "=")
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil {
			return nil, bad()
		}
		n = strings.TrimSpace(strings.Split(n, ":")[0])
		f.defs[n] = i
		return &eval.Result{Decls: []string{n}}, nil
	case strings.HasPrefix(src, "rows "):
		n, err := strconv.Atoi(strings.TrimPrefix(src, "rows "))
		if err != nil {
			return nil, bad()
		}
		v := eval.NewArray(core.I64, int64(n), 1)
		for i := range v.Data.([]int64) {
			v.Data.([]int64)[i] = int64(i)
		}
		t := &types.Array{Elem: types.Prim{T: core.I64}, Dims: []types.Dim{{Const: int64(n)}, {Const: 1}}}
		return &eval.Result{Type: t, Values: []eval.Value{v}}, nil
	}
	i, err := strconv.Atoi(src)
	if err != nil {
		v, ok := f.defs[src]
		if !ok {
			return nil, bad()
		}
		i = v
	}
	return &eval.Result{Type: i32, Values: []eval.Value{eval.Scalar(core.Const{T: core.I32, Bits: uint64(i)})}}, nil
}

func (f *fakeSession) TypeOf(name, src string) (types.Type, error) {
	if strings.TrimSpace(src) == "sleep" {
		return i32, nil // type checking does not run it
	}
	r, err := f.Eval(context.Background(), name, src)
	if err != nil {
		return nil, err
	}
	return r.Type, nil
}

func (f *fakeSession) Names() []eval.Name {
	ns := []eval.Name{{Name: "map", Kind: eval.BuiltinName, Type: "(a -> b) -> []a -> []b"},
		{Name: "i32.max", Kind: eval.ModuleName, Type: "i32 -> i32 -> i32", Doc: "the larger of two"}}
	for n := range f.defs {
		ns = append(ns, eval.Name{Name: n, Kind: eval.UserName, Type: "i32"})
	}
	return ns
}

func (f *fakeSession) Lookup(name string) (eval.Name, bool) {
	for _, n := range f.Names() {
		if n.Name == name {
			return n, true
		}
	}
	return eval.Name{}, false
}

func (f *fakeSession) Load(ctx context.Context, path string) ([]string, error) {
	return nil, fmt.Errorf("fake session loads nothing")
}
func (f *fakeSession) Reload(ctx context.Context) ([]string, error) { return f.Load(ctx, "") }
func (f *fakeSession) SetBackend(name string) error                 { f.backend = name; return nil }
func (f *fakeSession) Backend() string                              { return f.backend }
func (f *fakeSession) SetFusion(on bool)                            { f.fusion = on }
func (f *fakeSession) Fusion() bool                                 { return f.fusion }
func (f *fakeSession) SetDeterministic(on bool)                     { f.det = on }
func (f *fakeSession) Deterministic() bool                          { return f.det }
func (f *fakeSession) Compile(name, src string) (*eval.Compiled, error) {
	return nil, fmt.Errorf("fake session compiles nothing")
}
func (f *fakeSession) CUDA(*eval.Compiled) (string, error) { return "", fmt.Errorf("no CUDA") }
func (f *fakeSession) Trace(context.Context, string, string) (*eval.Result, error) {
	return nil, fmt.Errorf("no trace")
}
func (f *fakeSession) AddGPUPlan(*eval.Compiled) error { return nil }

func executeContent(code string) map[string]any {
	return map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
}

func contentOf(t *testing.T, m *Message) map[string]any {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestExecuteResultAndCounts(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent("def x = 41\nx"))
	reply := c.wait(c.shellR, id)
	r := contentOf(t, reply)
	if r["status"] != "ok" || r["execution_count"] != 1.0 {
		t.Errorf("reply %v", r)
	}
	// The reply's metadata: when the cell started (as ipykernel's) and the
	// kernel's own time for it, which bench/gpu/cells.py sets beside the
	// client's round trip.
	var meta struct {
		Started string
		Arepl   struct {
			KernelMS *float64 `json:"kernel_ms"`
		}
	}
	if err := json.Unmarshal(reply.Metadata, &meta); err != nil || meta.Arepl.KernelMS == nil || *meta.Arepl.KernelMS < 0 {
		t.Errorf("execute_reply metadata %s: want arepl.kernel_ms (%v)", reply.Metadata, err)
	}
	if _, err := time.Parse(time.RFC3339Nano, meta.Started); err != nil {
		t.Errorf("execute_reply metadata %s: started: %v", reply.Metadata, err)
	}
	out := c.outputs(id)
	if got := fmt.Sprint(msgTypes(out)); got != "[status execute_input execute_result status]" {
		t.Fatalf("iopub %s", got)
	}
	res := contentOf(t, out[2])
	if res["execution_count"] != 1.0 || res["data"].(map[string]any)["text/plain"] != "41" {
		t.Errorf("execute_result %v", res)
	}
	if string(out[2].Metadata) != "{}" {
		t.Errorf("metadata %s", out[2].Metadata)
	}

	// store_history false: the count does not move; silent: no
	// execute_input and no execute_result.
	noStore := executeContent("7")
	noStore["store_history"] = false
	id = c.send(c.shell, "execute_request", noStore)
	if r := contentOf(t, c.wait(c.shellR, id)); r["execution_count"] != 1.0 {
		t.Errorf("store_history false: count %v", r["execution_count"])
	}
	c.outputs(id)
	silent := executeContent("7")
	silent["silent"] = true
	id = c.send(c.shell, "execute_request", silent)
	c.wait(c.shellR, id)
	if got := fmt.Sprint(msgTypes(c.outputs(id))); got != "[status status]" {
		t.Errorf("silent: iopub %s", got)
	}
	id = c.send(c.shell, "execute_request", executeContent("8"))
	if r := contentOf(t, c.wait(c.shellR, id)); r["execution_count"] != 2.0 {
		t.Errorf("next count %v, want 2", r["execution_count"])
	}
}

func msgTypes(ms []*Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Header.MsgType)
	}
	return out
}

// TestErrorPointsIntoCellAndAbortsQueue checks the traceback's position
// (line 3 of the cell, not of the item) and that an execute request
// queued behind a failing one is aborted when stop_on_error.
func TestErrorPointsIntoCellAndAbortsQueue(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id1 := c.send(c.shell, "execute_request", executeContent(":echo first\ndef y = 1\nslowbad"))
	id2 := c.send(c.shell, "execute_request", executeContent("1"))
	r1 := contentOf(t, c.wait(c.shellR, id1))
	if r1["status"] != "error" || r1["ename"] != "CompileError" {
		t.Fatalf("reply %v", r1)
	}
	tb := fmt.Sprint(r1["traceback"])
	if !strings.Contains(tb, "In[1]:3:1") || !strings.Contains(tb, "slowbad") {
		t.Errorf("traceback %s does not point at In[1]:3:1", tb)
	}
	out := c.outputs(id1)
	if got := fmt.Sprint(msgTypes(out)); got != "[status execute_input stream error status]" {
		t.Errorf("iopub %s", got)
	}
	r2 := contentOf(t, c.wait(c.shellR, id2))
	if r2["status"] != "aborted" {
		t.Errorf("queued request: %v, want aborted", r2)
	}
	if got := fmt.Sprint(c.statuses(id2)); got != "[status:busy status:idle]" {
		t.Errorf("aborted request iopub %s", got)
	}
}

func TestInterruptKeepsKernel(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent("sleep"))
	time.Sleep(100 * time.Millisecond)
	iid := c.send(c.control, "interrupt_request", map[string]any{})
	if r := c.wait(c.controlR, iid); r.Header.MsgType != "interrupt_reply" {
		t.Fatalf("reply %s", r.Header.MsgType)
	}
	r := contentOf(t, c.wait(c.shellR, id))
	if r["status"] != "error" || r["ename"] != "Interrupted" {
		t.Errorf("interrupted cell: %v", r)
	}
	id = c.send(c.shell, "execute_request", executeContent("5"))
	if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "ok" {
		t.Errorf("after interrupt: %v", r)
	}
}

// TestAbortOnlyWhatWasQueued: a request sent after the client has the
// error reply is not aborted by stop_on_error, however long the executor
// takes to settle the failed cell (make test under load saw
// TestInterruptKeepsKernel's next cell aborted). A request queued before
// the error reply still is.
func TestAbortOnlyWhatWasQueued(t *testing.T) {
	c, _ := startKernelSet(t, newFake(), func(k *kernel) {
		k.afterCell = func() { time.Sleep(300 * time.Millisecond) }
	})
	id1 := c.send(c.shell, "execute_request", executeContent("slowbad"))
	queued := c.send(c.shell, "execute_request", executeContent("1"))
	if r := contentOf(t, c.wait(c.shellR, id1)); r["status"] != "error" {
		t.Fatalf("failing cell: %v", r)
	}
	after := c.send(c.shell, "execute_request", executeContent("5"))
	if r := contentOf(t, c.wait(c.shellR, queued)); r["status"] != "aborted" {
		t.Errorf("request queued before the error: %v, want aborted", r)
	}
	if r := contentOf(t, c.wait(c.shellR, after)); r["status"] != "ok" {
		t.Errorf("request sent after the error reply: %v, want ok", r)
	}
}

// TestFloodArrivesWhole prints 20,000 lines, one write each, and checks
// that they arrive complete, coalesced into few stream messages, with the
// final idle.
func TestFloodArrivesWhole(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	const n = 20000
	id := c.send(c.shell, "execute_request", executeContent(fmt.Sprintf(":print rows %d", n)))
	c.wait(c.shellR, id)
	var text strings.Builder
	streams := 0
	for _, m := range c.outputs(id) {
		if m.Header.MsgType == "stream" {
			streams++
			text.WriteString(contentOf(t, m)["text"].(string))
		}
	}
	lines := strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n")
	if len(lines) != n || lines[0] != "[[0]," || lines[n-1] != fmt.Sprintf(" [%d]]", n-1) {
		t.Errorf("%d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if streams > 100 {
		t.Errorf("%d stream messages for %d lines: output is not coalesced", streams, n)
	}
}

func TestInputRequest(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent(":input z : i32"))
	if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "error" {
		t.Errorf("input with allow_stdin false: %v", r)
	}
	c.outputs(id)
	req := executeContent(":input z : i32\nz")
	req["allow_stdin"] = true
	id = c.send(c.shell, "execute_request", req)
	in := c.wait(c.stdinR, id)
	if in.Header.MsgType != "input_request" || contentOf(t, in)["prompt"] != "z : i32 = " {
		t.Fatalf("%s %s", in.Header.MsgType, in.Content)
	}
	c.sendWithParent(c.stdin, "input_reply", in, map[string]any{"value": "12"})
	if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "ok" {
		t.Fatalf("reply %v", r)
	}
	for _, m := range c.outputs(id) {
		if m.Header.MsgType == "execute_result" {
			if got := contentOf(t, m)["data"].(map[string]any)["text/plain"]; got != "12" {
				t.Errorf("z = %v", got)
			}
		}
	}
}

func TestCompleteInCodePoints(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	// Two three-byte glyphs before the name: byte offsets would be off by 4.
	code := "⍴⍴ i32.m"
	id := c.send(c.shell, "complete_request", map[string]any{"code": code, "cursor_pos": 8})
	r := contentOf(t, c.wait(c.shellR, id))
	if fmt.Sprint(r["matches"]) != "[i32.max]" || r["cursor_start"] != 3.0 || r["cursor_end"] != 8.0 {
		t.Errorf("complete: %v", r)
	}
	id = c.send(c.shell, "complete_request", map[string]any{"code": ":ty", "cursor_pos": 3})
	if r := contentOf(t, c.wait(c.shellR, id)); fmt.Sprint(r["matches"]) != "[:type]" || r["cursor_start"] != 0.0 {
		t.Errorf("complete command: %v", r)
	}
	id = c.send(c.shell, "inspect_request", map[string]any{"code": "⍴ i32.max 1", "cursor_pos": 4, "detail_level": 0})
	r = contentOf(t, c.wait(c.shellR, id))
	if r["found"] != true || !strings.Contains(fmt.Sprint(r["data"]), "i32 -> i32 -> i32") {
		t.Errorf("inspect: %v", r)
	}
}

func TestPagerAndClear(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent(":help"))
	r := contentOf(t, c.wait(c.shellR, id))
	p := r["payload"].([]any)
	if len(p) != 1 || p[0].(map[string]any)["source"] != "page" ||
		!strings.Contains(fmt.Sprint(p[0].(map[string]any)["data"]), ":type EXPR") {
		t.Errorf("payload %v", p)
	}
	c.outputs(id)
	id = c.send(c.shell, "execute_request", executeContent(":quit"))
	r = contentOf(t, c.wait(c.shellR, id))
	if p := fmt.Sprint(r["payload"]); p != "[map[keepkernel:false source:ask_exit]]" {
		t.Errorf(":quit payload %s", p)
	}
	c.outputs(id)
	id = c.send(c.shell, "execute_request", executeContent(":echo a\n:clear\n:echo --stderr b"))
	c.wait(c.shellR, id)
	if got := fmt.Sprint(msgTypes(c.outputs(id))); got != "[status execute_input stream clear_output stream status]" {
		t.Errorf("iopub %s", got)
	}
}

// TestTimingsAndEarlierValues checks that :time on puts a timing table
// under each value, and that a value before the cell's last expression is
// shown as display data while the last is the execute_result.
func TestTimingsAndEarlierValues(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent(":time on\n1\n2\n:time off"))
	c.wait(c.shellR, id)
	out := c.outputs(id)
	if got := fmt.Sprint(msgTypes(out)); got != "[status execute_input stream display_data display_data execute_result display_data stream status]" {
		t.Fatalf("iopub %s", got)
	}
	first := contentOf(t, out[3])["data"].(map[string]any)
	timing := contentOf(t, out[4])["data"].(map[string]any)
	if first["text/plain"] != "1" || !strings.Contains(fmt.Sprint(timing["text/html"]), `class="arepl-timings"`) ||
		!strings.HasPrefix(fmt.Sprint(timing["text/plain"]), "time: ") {
		t.Errorf("value %v, timing %v", first, timing)
	}
}

// TestCommandErrorsPointIntoCell checks that an error in a command's
// argument names the cell, its line, and the column in the command line.
func TestCommandErrorsPointIntoCell(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent(":echo x\n:type   bad"))
	r := contentOf(t, c.wait(c.shellR, id))
	tb := fmt.Sprint(r["traceback"])
	if !strings.Contains(tb, "In[1]:2:9: cannot evaluate") || !strings.Contains(tb, ":type   bad") {
		t.Errorf("traceback %s", tb)
	}
}

// TestPanicIsAnInternalError checks that a panic in the pipeline becomes
// an error reply and the kernel keeps serving.
func TestPanicIsAnInternalError(t *testing.T) {
	var log lockedBuffer
	logger.SetOutput(&log)
	defer logger.SetOutput(os.Stderr)
	c, _ := startKernelWith(t, newFake())
	id := c.send(c.shell, "execute_request", executeContent("panic"))
	if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "error" || r["ename"] != "InternalError" || r["evalue"] != "boom" {
		t.Errorf("reply %v", r)
	}
	c.outputs(id)
	id = c.send(c.shell, "execute_request", executeContent("3"))
	if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "ok" {
		t.Errorf("after a panic: %v", r)
	}
	if !strings.Contains(log.String(), "internal error: boom") {
		t.Errorf("the panic was not logged: %s", log.String())
	}
}

func TestUserExpressions(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	req := executeContent("def a = 5")
	req["user_expressions"] = map[string]any{"ok": "a", "bad": "nope", "decl": "def b = 1"}
	id := c.send(c.shell, "execute_request", req)
	r := contentOf(t, c.wait(c.shellR, id))
	ue := r["user_expressions"].(map[string]any)
	if got := fmt.Sprint(ue["ok"]); got != "map[data:map[text/plain:5] metadata:map[] status:ok]" {
		t.Errorf("ok: %s", got)
	}
	for _, k := range []string{"bad", "decl"} {
		if st := ue[k].(map[string]any)["status"]; st != "error" {
			t.Errorf("%s: status %v", k, st)
		}
	}
}
