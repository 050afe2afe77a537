package jupyter

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// These tests play a hostile local process against a running kernel: raw
// ZMTP on its sockets, replays, floods. After each the kernel must still
// answer.

// zmtpGreeting is a ZMTP 3.0 greeting for the NULL mechanism, as a client.
func zmtpGreeting() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}

// longHeader is the header of a long frame (a command when cmd) that
// announces size bytes.
func longHeader(cmd bool, size uint64) []byte {
	h := make([]byte, 9)
	h[0] = 0x02
	if cmd {
		h[0] |= 0x04
	}
	binary.BigEndian.PutUint64(h[1:], size)
	return h
}

// readyCommand is a short READY command frame with the given metadata
// bytes.
func readyCommand(meta []byte) []byte {
	body := append([]byte{5}, "READY"...)
	body = append(body, meta...)
	return append([]byte{0x04, byte(len(body))}, body...)
}

// rawDial opens a plain connection to one kernel socket (an ipc endpoint).
func rawDial(t *testing.T, ep string) net.Conn {
	t.Helper()
	conn, err := net.Dial("unix", strings.TrimPrefix(ep, "ipc://"))
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	return conn
}

// kernelEndpoints are the five endpoints of the kernel of startKernel.
func kernelEndpoints(c *client) []string {
	var eps []string
	for port := 1; port <= 5; port++ {
		eps = append(eps, fmt.Sprintf("ipc://%s-%d", c.ipcBase, port))
	}
	return eps
}

// stillAnswers checks that the kernel answers on shell and control, and
// that a new client can still connect and be answered.
func stillAnswers(t *testing.T, c *client) {
	t.Helper()
	c.wait(c.shellR, c.send(c.shell, "kernel_info_request", map[string]any{}))
	c.wait(c.controlR, c.send(c.control, "kernel_info_request", map[string]any{}))
	d := zmq4.NewDealer(t.Context(), zmq4.WithID(zmq4.SocketIdentity("late-client")))
	defer d.Close()
	done := make(chan error, 1)
	go func() { done <- d.Dial(kernelEndpoints(c)[0]) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a new client cannot connect to shell")
	}
	m, _ := newMessage("late-session", "kernel_info_request", nil, map[string]any{})
	frames, _ := encode(c.signer, m)
	if err := d.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		r, err := d.Recv()
		if err == nil {
			_, err = decode(c.signer, r.Frames)
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a new client gets no answer on shell")
	}
}

// TestOversizedFramesDuringHandshake sends, on every socket, a greeting and
// a frame header announcing 2^62, 2^40 or just over maxMessageSize bytes:
// zmq4 v0.17.0 allocated the announced size (a makeslice panic or out of
// memory, either fatal). Then a malformed READY (metadata cut short, which
// panicked in zmq4's property parser), and a connection that stalls mid-
// handshake (which blocked zmq4's accept loop).
func TestOversizedFramesDuringHandshake(t *testing.T) {
	var log lockedBuffer
	logger.SetOutput(&log)
	defer logger.SetOutput(os.Stderr)
	c, _ := startKernel(t)
	for _, ep := range kernelEndpoints(c) {
		for _, size := range []uint64{1 << 62, 1 << 40, maxMessageSize + 1} {
			conn := rawDial(t, ep)
			conn.Write(zmtpGreeting())
			conn.Write(longHeader(true, size))
			conn.Write(bytes.Repeat([]byte{'x'}, 4096))
			// The kernel closes the connection.
			conn.Read(make([]byte, 64)) // its greeting
			conn.Read(make([]byte, 1<<10))
			conn.Close()
		}
		for _, meta := range [][]byte{{2, 'a', 'b'}, {11, 'S', 'o'}, {1, 'k', 0, 0, 0, 200}} {
			conn := rawDial(t, ep)
			conn.Write(zmtpGreeting())
			conn.Write(readyCommand(meta))
			conn.Read(make([]byte, 1<<10))
			conn.Close()
		}
	}
	// A connection that sends half a greeting and stalls.
	stalled := rawDial(t, kernelEndpoints(c)[0])
	defer stalled.Close()
	stalled.Write(zmtpGreeting()[:10])
	stillAnswers(t, c)
	if !strings.Contains(log.String(), "overflow") {
		t.Errorf("the oversized frames were not logged:\n%s", log.String())
	}
}

// TestOversizedMessageAfterHandshake connects properly, then announces a
// message larger than maxMessageSize in many frames, and one frame over
// it.
func TestOversizedMessageAfterHandshake(t *testing.T) {
	var log lockedBuffer
	logger.SetOutput(&log)
	defer logger.SetOutput(os.Stderr)
	c, _ := startKernel(t)
	// The peer socket types the kernel's shell, control, stdin, iopub and
	// heartbeat accept.
	peers := []string{"DEALER", "DEALER", "DEALER", "SUB", "REQ"}
	for i, ep := range kernelEndpoints(c) {
		ready := readyCommand([]byte(fmt.Sprintf("\x0bSocket-Type\x00\x00\x00%c%s", len(peers[i]), peers[i])))
		conn := rawDial(t, ep)
		conn.Write(zmtpGreeting())
		conn.Write(ready)
		chunk := append(longHeader(false, 1<<20), make([]byte, 1<<20)...)
		chunk[0] |= 0x01 // more
		for range maxMessageSize>>20 + 2 {
			if _, err := conn.Write(chunk); err != nil {
				break // the kernel hung up: the message was refused
			}
		}
		conn.Close()
		conn = rawDial(t, ep)
		conn.Write(zmtpGreeting())
		conn.Write(ready)
		conn.Write(longHeader(false, 1<<61))
		io.Copy(io.Discard, conn) // until the kernel hangs up
		conn.Close()
	}
	stillAnswers(t, c)
	if n := strings.Count(log.String(), "message exceeds"); n != 10 {
		t.Errorf("%d oversized messages logged, want 10:\n%s", n, log.String())
	}
}

// TestCaseChangedReplayDropped replays a signed request with its
// signature upper-cased: hex.Decode accepts either case, so it is the same
// signature and must be dropped as a replay.
func TestCaseChangedReplayDropped(t *testing.T) {
	c, _ := startKernel(t)
	good, _ := newMessage("client-session", "execute_request", nil, executeContent("1"))
	frames, _ := encode(c.signer, good)
	c.shell.SendMulti(zmq4.NewMsgFrom(frames...))
	c.wait(c.shellR, good.Header.MsgID)
	replay := append([][]byte(nil), frames...)
	replay[1] = bytes.ToUpper(frames[1])
	c.shell.SendMulti(zmq4.NewMsgFrom(replay...))
	// The next reply must be to the next request, not to the replay.
	c.wait(c.shellR, c.send(c.shell, "kernel_info_request", map[string]any{}))
}

func TestSignerRejectsCaseChangedReplay(t *testing.T) {
	s, _ := newSigner("hmac-sha256", "secret")
	sig := s.sign(frames4)
	if err := s.verify([]byte(sig), frames4); err != nil {
		t.Fatal(err)
	}
	for _, replay := range []string{strings.ToUpper(sig), strings.ToUpper(sig[:10]) + sig[10:]} {
		if err := s.verify([]byte(replay), frames4); err == nil || !strings.Contains(err.Error(), "replayed") {
			t.Errorf("replay %s: %v, want a replayed signature", replay, err)
		}
	}
}

// TestEmptyKeyWarns: a connection file without a key turns signing off;
// the kernel must say so at start.
func TestEmptyKeyWarns(t *testing.T) {
	var log lockedBuffer
	logger.SetOutput(&log)
	defer logger.SetOutput(os.Stderr)
	ci := &ConnectionInfo{Transport: "ipc", IP: filepath.Join(t.TempDir(), "k"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5}
	if _, err := newKernel(ci, newEvaluator(newFake())); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "empty key: messages are not signed") {
		t.Errorf("no warning for an empty key; log:\n%s", log.String())
	}
	log.Reset()
	ci.Key = "k"
	newKernel(ci, newEvaluator(newFake()))
	if strings.Contains(log.String(), "not signed") {
		t.Errorf("warning with a key: %s", log.String())
	}
}

// TestBadMessageFloodIsSummarised sends 500 bad messages: the log gets the
// first few and a count, not 500 lines.
func TestBadMessageFloodIsSummarised(t *testing.T) {
	var log lockedBuffer
	logger.SetOutput(&log)
	defer logger.SetOutput(os.Stderr)
	c, _ := startKernel(t)
	for range 500 {
		c.shell.SendMulti(zmq4.NewMsgFrom([]byte("garbage")))
	}
	c.wait(c.shellR, c.send(c.shell, "kernel_info_request", map[string]any{}))
	if n := strings.Count(log.String(), "dropped message"); n == 0 || n > dropLogBurst {
		t.Errorf("%d log lines of dropped messages for 500 bad messages, want 1..%d", n, dropLogBurst)
	}
}

func TestDropLogSummary(t *testing.T) {
	var lines []string
	var mu = make(chan struct{}, 1)
	mu <- struct{}{}
	d := &dropLog{burst: 3, interval: 50 * time.Millisecond, printf: func(f string, a ...any) {
		<-mu
		lines = append(lines, fmt.Sprintf(f, a...))
		mu <- struct{}{}
	}}
	for i := range 100 {
		d.logf("bad %d", i)
	}
	time.Sleep(150 * time.Millisecond)
	<-mu
	got := strings.Join(lines, "|")
	mu <- struct{}{}
	if got != "bad 0|bad 1|bad 2|97 more such lines not shown (at most 3 every 50ms)" {
		t.Errorf("log: %s", got)
	}
	d.logf("later")
	<-mu
	if last := lines[len(lines)-1]; last != "later" {
		t.Errorf("after the interval: %q", last)
	}
	mu <- struct{}{}
}

// TestUserExpressionsInterruptible: a user expression that runs until
// cancelled is stopped by an interrupt_request and by SIGINT (the two
// interrupt modes), and the shell answers afterwards.
func TestUserExpressionsInterruptible(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	for _, how := range []string{"interrupt_request", "SIGINT"} {
		req := executeContent("1")
		req["user_expressions"] = map[string]any{"slow": "sleep", "ok": "2"}
		id := c.send(c.shell, "execute_request", req)
		time.Sleep(200 * time.Millisecond)
		if how == "SIGINT" {
			syscall.Kill(os.Getpid(), syscall.SIGINT)
		} else {
			c.wait(c.controlR, c.send(c.control, "interrupt_request", map[string]any{}))
		}
		r := contentOf(t, c.wait(c.shellR, id))
		ue, _ := r["user_expressions"].(map[string]any)
		slow, _ := ue["slow"].(map[string]any)
		if slow["ename"] != "Interrupted" {
			t.Errorf("%s: user_expressions %v", how, ue)
		}
		c.drain()
		id = c.send(c.shell, "execute_request", executeContent("5"))
		if r := contentOf(t, c.wait(c.shellR, id)); r["status"] != "ok" {
			t.Errorf("%s: after the interrupt: %v", how, r)
		}
		c.drain()
	}
}

func TestUserExpressionsBounded(t *testing.T) {
	c, _ := startKernelWith(t, newFake())
	req := executeContent("1")
	exprs := map[string]any{}
	for i := range maxUserExpressions + 5 {
		exprs[fmt.Sprintf("e%03d", i)] = "7"
	}
	req["user_expressions"] = exprs
	r := contentOf(t, c.wait(c.shellR, c.send(c.shell, "execute_request", req)))
	ue := r["user_expressions"].(map[string]any)
	ok, refused := 0, 0
	for _, v := range ue {
		switch v.(map[string]any)["status"] {
		case "ok":
			ok++
		case "error":
			refused++
		}
	}
	if ok != maxUserExpressions || refused != 5 {
		t.Errorf("%d ok, %d refused; want %d, 5", ok, refused, maxUserExpressions)
	}
}

// TestSubscriberThatDoesNotRead: a process subscribes to iopub (no key
// needed) and never reads. Once its buffers are full, zmq4's PUB writer
// blocked on it for good, and every client stopped getting output.
func TestSubscriberThatDoesNotRead(t *testing.T) {
	saved := writeTimeout
	writeTimeout = 300 * time.Millisecond
	defer func() { writeTimeout = saved }()
	c, _ := startKernelWith(t, newFake())
	conn := rawDial(t, kernelEndpoints(c)[3])
	defer conn.Close()
	conn.Write(zmtpGreeting())
	conn.Write(readyCommand([]byte("\x0bSocket-Type\x00\x00\x00\x03SUB")))
	conn.Write([]byte{0, 1, 1}) // subscribe to everything
	time.Sleep(100 * time.Millisecond)
	for range 3 {
		id := c.send(c.shell, "execute_request", executeContent(":print rows 100000"))
		c.wait(c.shellR, id)
		c.outputs(id) // fails after 5 s without a message
	}
}
