package jupyter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// client is a minimal Jupyter client over zmq4, for protocol tests that
// need no Python: a DEALER on shell and control, a SUB on iopub.
type client struct {
	t                *testing.T
	signer           *signer
	shell, control   zmq4.Socket
	stdin            zmq4.Socket
	iopub            zmq4.Socket
	iopubMsgs        chan *Message
	shellR, controlR chan *Message
	stdinR           chan *Message
	ipcBase          string // the kernel's endpoints are ipc://{ipcBase}-{port}
}

// startKernel runs a kernel on ipc sockets in a temporary directory (no
// ports to collide on) and connects a client to it.
func startKernel(t *testing.T) (*client, <-chan error) {
	return startKernelWith(t, newSession())
}

func startKernelWith(t *testing.T, sess session) (*client, <-chan error) {
	t.Helper()
	return startKernelSet(t, sess, func(*kernel) {})
}

// startKernelSet is startKernelWith with set applied to the kernel before
// it serves.
func startKernelSet(t *testing.T, sess session, set func(*kernel)) (*client, <-chan error) {
	t.Helper()
	ci := &ConnectionInfo{Transport: "ipc", IP: filepath.Join(t.TempDir(), "k"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5, Key: "test-key", SignatureScheme: "hmac-sha256"}
	k, err := newKernel(ci, newEvaluator(sess))
	if err != nil {
		t.Fatal(err)
	}
	set(k)
	done := make(chan error, 1)
	bound := make(chan error, 1)
	go func() {
		if err := k.bind(); err != nil {
			bound <- err
			return
		}
		bound <- nil
		done <- k.serve()
	}()
	if err := <-bound; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, _ := newSigner(ci.SignatureScheme, ci.Key)
	c := &client{t: t, signer: s, ipcBase: ci.IP,
		shell:     zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("test-client"))),
		control:   zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("test-client"))),
		stdin:     zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("test-client"))),
		stdinR:    make(chan *Message, 10),
		iopub:     zmq4.NewSub(ctx),
		iopubMsgs: make(chan *Message, 100), shellR: make(chan *Message, 10), controlR: make(chan *Message, 10)}
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, ci.ShellPort}, {c.control, ci.ControlPort}, {c.stdin, ci.StdinPort}, {c.iopub, ci.IOPubPort}} {
		if err := d.s.Dial(ci.endpoint(d.port)); err != nil {
			t.Fatal(err)
		}
	}
	c.iopub.SetOption(zmq4.OptionSubscribe, "")
	go c.read(c.shell, c.shellR, false)
	go c.read(c.control, c.controlR, false)
	go c.read(c.stdin, c.stdinR, false)
	go c.read(c.iopub, c.iopubMsgs, true)
	t.Cleanup(func() {
		c.shell.Close()
		c.control.Close()
		c.stdin.Close()
		c.iopub.Close()
		k.shutdown()
	})
	// The SUB socket's subscription travels asynchronously: wait until a
	// request's status messages arrive before testing anything.
	for i := 0; ; i++ {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		c.wait(c.shellR, id)
		select {
		case <-c.iopubMsgs:
			c.drain()
			return c, done
		case <-time.After(200 * time.Millisecond):
			if i == 20 {
				t.Fatal("no iopub messages")
			}
		}
	}
}

func (c *client) read(s zmq4.Socket, out chan<- *Message, sub bool) {
	for {
		msg, err := s.Recv()
		if err != nil {
			return
		}
		frames := msg.Frames
		if sub && len(frames) > 0 {
			frames = frames[1:] // the topic
		}
		m, err := decode(c.signer, frames)
		if err != nil {
			c.t.Errorf("kernel sent a bad message: %v", err)
			return
		}
		out <- m
	}
}

func (c *client) send(s zmq4.Socket, msgType string, content any) string {
	return c.sendWithParent(s, msgType, nil, content)
}

func (c *client) sendWithParent(s zmq4.Socket, msgType string, parent *Message, content any) string {
	m, err := newMessage("client-session", msgType, parent, content)
	if err != nil {
		c.t.Fatal(err)
	}
	frames, err := encode(c.signer, m)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
	return m.Header.MsgID
}

// wait returns the next message on ch, which must answer request id.
func (c *client) wait(ch <-chan *Message, id string) *Message {
	c.t.Helper()
	select {
	case m := <-ch:
		var parent Header
		json.Unmarshal(m.Parent, &parent)
		if parent.MsgID != id {
			c.t.Fatalf("%s answers %q, want %q", m.Header.MsgType, parent.MsgID, id)
		}
		return m
	case <-time.After(5 * time.Second):
		c.t.Fatalf("no answer to %s", id)
	}
	return nil
}

func (c *client) drain() {
	for {
		select {
		case <-c.iopubMsgs:
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

// statuses collects iopub message types for request id up to its idle
// status.
func (c *client) statuses(id string) []string {
	c.t.Helper()
	var types []string
	for _, m := range c.outputs(id) {
		s := m.Header.MsgType
		if s == "status" {
			var st struct {
				State string `json:"execution_state"`
			}
			json.Unmarshal(m.Content, &st)
			s += ":" + st.State
		}
		types = append(types, s)
	}
	return types
}

// outputs collects the iopub messages for request id up to its idle
// status.
func (c *client) outputs(id string) []*Message {
	c.t.Helper()
	var out []*Message
	for {
		m := c.wait(c.iopubMsgs, id)
		out = append(out, m)
		if m.Header.MsgType == "status" && string(m.Content) == `{"execution_state":"idle"}` {
			return out
		}
	}
}

func TestKernelInfoOnShellAndControl(t *testing.T) {
	c, _ := startKernel(t)
	for _, sock := range []struct {
		name    string
		s       zmq4.Socket
		replies chan *Message
	}{{"shell", c.shell, c.shellR}, {"control", c.control, c.controlR}} {
		id := c.send(sock.s, "kernel_info_request", map[string]any{})
		r := c.wait(sock.replies, id)
		var info struct {
			Status   string `json:"status"`
			Protocol string `json:"protocol_version"`
			Lang     struct {
				Name string `json:"name"`
				Ext  string `json:"file_extension"`
			} `json:"language_info"`
		}
		if err := json.Unmarshal(r.Content, &info); err != nil {
			t.Fatal(err)
		}
		if r.Header.MsgType != "kernel_info_reply" || info.Status != "ok" || info.Protocol != "5.3" ||
			info.Lang.Name != "futhark" || info.Lang.Ext != ".fut" {
			t.Errorf("%s: %s %s", sock.name, r.Header.MsgType, r.Content)
		}
		if got := fmt.Sprint(c.statuses(id)); got != "[status:busy status:idle]" {
			t.Errorf("%s: iopub %s", sock.name, got)
		}
	}
}

// TestBadMessagesDropped sends unsigned, badly signed and malformed
// messages, then checks that the kernel still answers.
func TestBadMessagesDropped(t *testing.T) {
	var log lockedBuffer
	logger.SetOutput(&log)
	defer logger.SetOutput(os.Stderr)
	c, _ := startKernel(t)
	good, _ := newMessage("client-session", "kernel_info_request", nil, map[string]any{})
	frames, _ := encode(c.signer, good)
	badSig := append([][]byte(nil), frames...)
	badSig[1] = []byte("0000")
	noSig := append([][]byte(nil), frames...)
	noSig[1] = nil
	for _, bad := range [][][]byte{badSig, noSig, {[]byte("garbage")}, {delimiter}, frames[:4]} {
		if err := c.shell.SendMulti(zmq4.NewMsgFrom(bad...)); err != nil {
			t.Fatal(err)
		}
		if err := c.control.SendMulti(zmq4.NewMsgFrom(bad...)); err != nil {
			t.Fatal(err)
		}
	}
	// The control channel is read by its own goroutine: a good request
	// answered there shows that the bad ones before it were logged.
	c.wait(c.controlR, c.send(c.control, "kernel_info_request", map[string]any{}))
	// A replay of a message already accepted is dropped too.
	c.shell.SendMulti(zmq4.NewMsgFrom(frames...))
	c.wait(c.shellR, good.Header.MsgID)
	c.shell.SendMulti(zmq4.NewMsgFrom(frames...))
	id := c.send(c.shell, "is_complete_request", map[string]any{"code": "1 + 2)"})
	select {
	case m := <-c.shellR:
		if m.Header.MsgType != "is_complete_reply" || !json.Valid(m.Content) {
			t.Fatalf("after bad messages: %s %s", m.Header.MsgType, m.Content)
		}
		var parent Header
		json.Unmarshal(m.Parent, &parent)
		if parent.MsgID != id {
			t.Fatalf("a dropped message was answered: reply to %s", parent.MsgID)
		}
		var st struct {
			Status string `json:"status"`
		}
		json.Unmarshal(m.Content, &st)
		if st.Status != "invalid" {
			t.Errorf("is_complete of an unbalanced ) = %s", st.Status)
		}
		for _, want := range []string{"shell: jupyter: dropped message: bad signature",
			"control: jupyter: dropped message: missing signature", "replayed signature",
			"no <IDS|MSG> delimiter", "0 frames after the delimiter"} {
			if !strings.Contains(log.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, log.String())
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("kernel stopped answering after bad messages")
	}
}

func TestUnknownRequestGetsErrorReply(t *testing.T) {
	c, _ := startKernel(t)
	id := c.send(c.shell, "frobnicate_request", map[string]any{})
	r := c.wait(c.shellR, id)
	if r.Header.MsgType != "frobnicate_reply" {
		t.Errorf("reply type %s", r.Header.MsgType)
	}
	if got := fmt.Sprint(c.statuses(id)); got != "[status:busy status:idle]" {
		t.Errorf("iopub %s", got)
	}
}

func TestShutdownOnControl(t *testing.T) {
	c, done := startKernel(t)
	start := time.Now()
	id := c.send(c.control, "shutdown_request", map[string]any{"restart": false})
	r := c.wait(c.controlR, id)
	if r.Header.MsgType != "shutdown_reply" {
		t.Fatalf("reply %s", r.Header.MsgType)
	}
	if got := fmt.Sprint(c.statuses(id)); got != "[status:busy status:idle]" {
		t.Errorf("iopub %s", got)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("kernel did not stop")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("shutdown took %v", d)
	}
}

// lockedBuffer is a log destination shared by the kernel's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedBuffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}
