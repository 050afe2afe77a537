package jupyter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/arepl/arepl/eval"
)

// implementationVersion is the kernel's version in kernel_info_reply.
const implementationVersion = "0.1.0"

// handler serves one request type; c is the channel it came in on.
type handler func(k *kernel, c *channel, m *Message)

// handlers maps request types to their handlers. controlOK marks those
// also served on the control channel, which runs beside a cell: they do
// not touch the session.
var handlers map[string]handlerEntry

type handlerEntry struct {
	h         handler
	controlOK bool
}

func init() {
	handlers = map[string]handlerEntry{
		"kernel_info_request": {(*kernel).kernelInfo, true},
		"execute_request":     {(*kernel).execute, false},
		"complete_request":    {(*kernel).complete, false},
		"inspect_request":     {(*kernel).inspect, false},
		"is_complete_request": {(*kernel).isComplete, true},
		"history_request":     {(*kernel).history, true},
		"comm_info_request":   {(*kernel).commInfo, true},
		"shutdown_request":    {(*kernel).shutdownRequest, true},
		"interrupt_request":   {(*kernel).interruptRequest, true},
		"comm_open":           {(*kernel).commOpen, false},
		"comm_msg":            {(*kernel).commIgnore, false},
		"comm_close":          {(*kernel).commIgnore, false},
	}
}

// handle serves one request between busy and idle status messages whose
// parent is the request, as every client expects for every request on
// shell and control.
func (k *kernel) handle(c *channel, m *Message) {
	m.clock.mark(stageQueue)
	k.iopub.status(m, "busy")
	m.clock.mark(stageBusy)
	k.dispatch(c, m)
	k.iopub.status(m, "idle")
	if k.stopping.Load() {
		k.shutdown()
	}
}

// dispatch runs the request's handler. A panic in a handler (a bug in the
// pipeline, say) becomes an error reply: the kernel and its session
// survive it.
func (k *kernel) dispatch(c *channel, m *Message) {
	defer func() {
		if p := recover(); p != nil {
			logf("%s: internal error in %s: %v\n%s", c.name, m.Header.MsgType, p, debug.Stack())
			k.badRequest(c, m, fmt.Errorf("internal error: %v", p))
		}
	}()
	t := m.Header.MsgType
	entry, ok := handlers[t]
	switch {
	case ok && (c != k.control || entry.controlOK):
		entry.h(k, c, m)
	case strings.HasSuffix(t, "_request"):
		why := "unknown request type " + t
		if ok {
			why = t + " is not served on the control channel"
		}
		k.drops.logf("%s: %s", c.name, why)
		k.sendReply(c, m, strings.TrimSuffix(t, "_request")+"_reply", map[string]any{
			"status": "error", "ename": "UnsupportedRequest", "evalue": why, "traceback": []string{why},
		})
	default:
		k.drops.logf("%s: ignoring %s", c.name, t)
	}
}

// content decodes a request's content into v, whose fields hold their
// defaults beforehand: missing fields keep them.
func content(m *Message, v any) error {
	if err := json.Unmarshal(m.Content, v); err != nil {
		return fmt.Errorf("%s content: %v", m.Header.MsgType, err)
	}
	return nil
}

// badRequest answers a request whose content could not be decoded.
func (k *kernel) badRequest(c *channel, m *Message, err error) {
	k.drops.logf("%s: %v", c.name, err)
	k.sendReply(c, m, strings.TrimSuffix(m.Header.MsgType, "_request")+"_reply", map[string]any{
		"status": "error", "ename": "BadRequest", "evalue": err.Error(), "traceback": []string{err.Error()},
	})
}

func (k *kernel) kernelInfo(c *channel, m *Message) {
	k.sendReply(c, m, "kernel_info_reply", map[string]any{
		"status":                 "ok",
		"protocol_version":       protocolVersion,
		"implementation":         "arepl",
		"implementation_version": implementationVersion,
		"language_info": map[string]any{
			"name":           "futhark",
			"version":        "0.25",
			"mimetype":       "text/x-futhark",
			"file_extension": ".fut",
			// Debian's pygments (2.14) has a Futhark lexer; CodeMirror has
			// none, and Haskell's mode is the closest syntax.
			"pygments_lexer":     "futhark",
			"codemirror_mode":    "haskell",
			"nbconvert_exporter": "script",
		},
		"banner": "arepl " + implementationVersion + ": array programs in a subset of Futhark, " +
			"on the CPU or a CUDA GPU, with fusion plans and timings. :help lists the commands.",
		"help_links": []map[string]string{
			{"text": "Futhark language reference", "url": "https://futhark.readthedocs.io/en/latest/language-reference.html"},
			{"text": "Futhark prelude", "url": "https://futhark-lang.org/docs/prelude/"},
		},
		"debugger": false,
	})
}

// executeRequest is execute_request's content with the spec's defaults.
type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      *bool             `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

func orTrue(b *bool) bool { return b == nil || *b }

func (k *kernel) execute(c *channel, m *Message) {
	started := time.Now()
	var r executeRequest
	if err := content(m, &r); err != nil {
		k.badRequest(c, m, err)
		return
	}
	storeHistory := orTrue(r.StoreHistory) && !r.Silent
	count := k.hist.count()
	if storeHistory {
		count = k.hist.next()
	}
	if !r.Silent {
		k.iopub.publish(m, "execute_input", map[string]any{"code": r.Code, "execution_count": count})
	}
	m.clock.mark(stageInput)
	name := "In[-]"
	if storeHistory {
		name = fmt.Sprintf("In[%d]", count)
	}

	ctx, cancel := context.WithCancel(k.ctx)
	k.runMu.Lock()
	k.running = cancel
	k.runMu.Unlock()
	out := &cellOutput{k: k, req: m, count: count, silent: r.Silent, allowStdin: orTrue(r.AllowStdin)}
	k.ev.clock = m.clock
	err := k.ev.runSafely(ctx, name, r.Code, out)
	k.ev.clock = nil
	// User expressions are evaluated after a successful cell, under the
	// same interruptible context (an interrupt_request or SIGINT cancels
	// them as it cancels the cell) and a time bound.
	var userExprs map[string]any
	if err == nil {
		if len(r.UserExpressions) > 0 {
			k.ev.settle() // they may use the cell's _N
		}
		userExprs = k.userExpressions(ctx, r.UserExpressions)
	}
	k.runMu.Lock()
	k.running = nil
	k.runMu.Unlock()
	cancel()
	k.iopub.flush()

	if storeHistory {
		k.hist.add(count, r.Code, out.resultText)
	}
	if err != nil {
		// What is queued now was sent before the client could see this
		// error; only that is aborted (stop_on_error), not a request the
		// client sends once the error reply is out.
		queued := len(k.queue)
		var ce *cellError
		if !errors.As(err, &ce) {
			ce = toCellError(err)
		}
		k.iopub.publish(m, "error", map[string]any{"ename": ce.ename, "evalue": ce.evalue, "traceback": ce.traceback})
		k.sendReply(c, m, "execute_reply", map[string]any{
			"status": "error", "execution_count": count,
			"ename": ce.ename, "evalue": ce.evalue, "traceback": ce.traceback,
		})
		// The executor aborts what is queued once this request's idle
		// status is out, so status pairs never nest.
		k.abortAfter = c == k.shell && orTrue(r.StopOnError)
		k.abortCount = queued
		return
	}
	m.clock.mark(stageOther)
	reply := map[string]any{
		"status": "ok", "execution_count": count,
		"payload":          out.payload(),
		"user_expressions": userExprs,
	}
	m.clock.mark(stageReply)
	// The metadata says when the cell started, as ipykernel's does, and
	// where the kernel's time went from the arrival of the request to this
	// reply (arepl's own: kernel_ms and stages_ms, stages.go), so that a
	// client's round-trip time can be split into the kernel's part and the
	// rest (bench/gpu/cells.py).
	meta := map[string]any{"started": started.UTC().Format(time.RFC3339Nano)}
	if m.clock != nil {
		meta["arepl"] = m.clock.report()
	}
	if err := c.replyMeta(m, "execute_reply", reply, meta); err != nil {
		logf("%s: sending execute_reply: %v", c.name, err)
	}
}

// Bounds on the user_expressions of one request: frontends use them for
// quick queries (a variable's value for a status bar), so a long or
// numerous set is a mistake or an attack, and must not hold the shell.
const (
	maxUserExpressions    = 64
	userExpressionsBudget = 10 * time.Second
)

// userExpressions evaluates the user_expressions of an execute request,
// each on its own; an error is reported per expression. Each must be an
// expression: it is type-checked first, so a declaration cannot slip in
// and change the session. ctx is the request's interruptible context;
// all the expressions together get userExpressionsBudget, and those past
// maxUserExpressions (in name order) are refused.
func (k *kernel) userExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	ctx, cancel := context.WithTimeout(ctx, userExpressionsBudget)
	defer cancel()
	res := map[string]any{}
	names := slices.Sorted(maps.Keys(exprs))
	for i, name := range names {
		src := exprs[name]
		var r *eval.Result
		err := ctx.Err()
		switch {
		case i >= maxUserExpressions:
			err = fmt.Errorf("too many user_expressions (at most %d)", maxUserExpressions)
		case errors.Is(err, context.DeadlineExceeded):
			err = fmt.Errorf("user_expressions took longer than %v", userExpressionsBudget)
		case err == nil:
			_, err = k.ev.s.TypeOf("user_expressions", src)
			if err == nil {
				r, err = k.ev.s.Eval(ctx, "user_expressions", src)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("user_expressions took longer than %v", userExpressionsBudget)
			}
		}
		if err == nil && r.Type == nil {
			err = errors.New("not an expression")
		}
		if err != nil {
			ce := toCellError(err)
			res[name] = map[string]any{"status": "error", "ename": ce.ename, "evalue": ce.evalue, "traceback": ce.traceback}
			continue
		}
		res[name] = map[string]any{"status": "ok", "data": k.ev.valueBundle(r.Type, r.Values), "metadata": map[string]any{}}
	}
	return res
}

// cellOutput is the output of one execute_request.
type cellOutput struct {
	k          *kernel
	req        *Message
	count      int
	silent     bool
	allowStdin bool
	pages      []bundle
	exit       bool
	resultText string
}

func (o *cellOutput) stream(name, text string) { o.k.iopub.write(o.req, name, text) }

func (o *cellOutput) display(b bundle) {
	o.k.iopub.publish(o.req, "display_data", map[string]any{"data": b, "metadata": map[string]any{}})
}

func (o *cellOutput) result(b bundle) {
	if s, ok := b["text/plain"].(string); ok {
		o.resultText = s
	}
	if o.silent {
		return
	}
	o.k.iopub.publish(o.req, "execute_result", map[string]any{
		"execution_count": o.count, "data": b, "metadata": map[string]any{},
	})
}

func (o *cellOutput) clear(wait bool) {
	o.k.iopub.publish(o.req, "clear_output", map[string]any{"wait": wait})
}

func (o *cellOutput) page(b bundle) { o.pages = append(o.pages, b) }

func (o *cellOutput) askExit() { o.exit = true }

func (o *cellOutput) payload() []any {
	out := []any{}
	for _, b := range o.pages {
		out = append(out, map[string]any{"source": "page", "data": b, "start": 0})
	}
	if o.exit {
		out = append(out, map[string]any{"source": "ask_exit", "keepkernel": false})
	}
	return out
}

// input sends an input_request on stdin, addressed like the shell request
// (clients use one identity for shell and stdin), and waits for the reply
// or an interrupt.
func (o *cellOutput) input(ctx context.Context, prompt string, password bool) (string, error) {
	if !o.allowStdin {
		return "", commandError("this client does not accept input requests (allow_stdin is false)")
	}
	// Drop a stale reply to an earlier, interrupted request.
	select {
	case <-o.k.inputs:
	default:
	}
	o.k.iopub.flush()
	m, err := newMessage(o.k.sessID, "input_request", o.req, map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return "", err
	}
	m.Identities = o.req.Identities
	if err := o.k.stdin.send(m); err != nil {
		return "", err
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case r := <-o.k.inputs:
		var reply struct {
			Value string `json:"value"`
		}
		if err := content(r, &reply); err != nil {
			return "", err
		}
		return reply.Value, nil
	}
}

type cursorRequest struct {
	Code      string `json:"code"`
	CursorPos *int   `json:"cursor_pos"`
}

// cursor is the request's cursor as a byte offset; a missing cursor means
// the end of the code.
func (r cursorRequest) cursor() int {
	if r.CursorPos == nil {
		return len(r.Code)
	}
	return byteOffset(r.Code, *r.CursorPos)
}

func (k *kernel) complete(c *channel, m *Message) {
	var r cursorRequest
	if err := content(m, &r); err != nil {
		k.badRequest(c, m, err)
		return
	}
	cur := r.cursor()
	start, cands := k.ev.complete(r.Code, cur)
	matches := make([]string, len(cands))
	typed := make([]map[string]any, len(cands))
	s, e := codePoints(r.Code, start), codePoints(r.Code, cur)
	for i, cd := range cands {
		matches[i] = cd.text
		typed[i] = map[string]any{"start": s, "end": e, "text": cd.text, "type": cd.kind, "signature": cd.typ}
	}
	k.sendReply(c, m, "complete_reply", map[string]any{
		"status": "ok", "matches": matches, "cursor_start": s, "cursor_end": e,
		"metadata": map[string]any{"_jupyter_types_experimental": typed},
	})
}

func (k *kernel) inspect(c *channel, m *Message) {
	var r cursorRequest
	if err := content(m, &r); err != nil {
		k.badRequest(c, m, err)
		return
	}
	text, found := k.ev.inspect(r.Code, r.cursor())
	data := map[string]any{}
	if found {
		data["text/plain"] = text
	}
	k.sendReply(c, m, "inspect_reply", map[string]any{
		"status": "ok", "found": found, "data": data, "metadata": map[string]any{},
	})
}

func (k *kernel) isComplete(c *channel, m *Message) {
	var r struct {
		Code string `json:"code"`
	}
	if err := content(m, &r); err != nil {
		k.badRequest(c, m, err)
		return
	}
	st := isComplete(r.Code)
	reply := map[string]any{"status": st}
	if st == "incomplete" {
		reply["indent"] = "  "
	}
	k.sendReply(c, m, "is_complete_reply", reply)
}

func (k *kernel) history(c *channel, m *Message) {
	var r histRequest
	if err := content(m, &r); err != nil {
		k.badRequest(c, m, err)
		return
	}
	k.sendReply(c, m, "history_reply", map[string]any{"status": "ok", "history": k.hist.query(r)})
}

func (k *kernel) commInfo(c *channel, m *Message) {
	k.sendReply(c, m, "comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
}

// commOpen refuses every comm: the kernel has no comm targets, and the
// protocol's answer to an unknown target is an immediate comm_close.
func (k *kernel) commOpen(c *channel, m *Message) {
	var r struct {
		CommID string `json:"comm_id"`
	}
	if err := content(m, &r); err != nil || r.CommID == "" {
		k.drops.logf("%s: comm_open without a comm_id", c.name)
		return
	}
	k.iopub.publish(m, "comm_close", map[string]any{"comm_id": r.CommID, "data": map[string]any{}})
}

func (k *kernel) commIgnore(c *channel, m *Message) {
	k.drops.logf("%s: ignoring %s: no comms are open", c.name, m.Header.MsgType)
}

// shutdownRequest replies on the request's channel (control, in 5.4),
// then stops the kernel once the idle status is out.
func (k *kernel) shutdownRequest(c *channel, m *Message) {
	var r struct {
		Restart bool `json:"restart"`
	}
	if err := content(m, &r); err != nil {
		k.badRequest(c, m, err)
		return
	}
	k.interrupt()
	k.sendReply(c, m, "shutdown_reply", map[string]any{"status": "ok", "restart": r.Restart})
	// handle stops the kernel once the idle status is out.
	k.stopping.Store(true)
}

func (k *kernel) interruptRequest(c *channel, m *Message) {
	k.interrupt()
	k.sendReply(c, m, "interrupt_reply", map[string]any{"status": "ok"})
}
