package jupyter

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
)

// logger reports what the kernel drops or fails to send. Jupyter clients
// show a kernel's stderr in their own log (the notebook server's console).
var logger = log.New(os.Stderr, "arepl kernel: ", log.LstdFlags)

func logf(format string, args ...any) { logger.Printf(format, args...) }

// Kernel runs a kernel for the connection file named by -f until a
// shutdown_request arrives, the process is terminated or its parent (the
// Jupyter client named by JPY_PARENT_PID) dies. Arguments other than -f
// are ignored: jupyter_client's console, run and existing apps append their
// own after {connection_file}.
func Kernel(args []string) error {
	path := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "--f":
			if i+1 < len(args) {
				path = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "-f="), strings.HasPrefix(a, "--f="):
			path = a[strings.Index(a, "=")+1:]
		}
	}
	if path == "" {
		return errors.New("usage: arepl jupyter kernel -f CONNECTION_FILE")
	}
	ci, err := readConnectionFile(path)
	if err != nil {
		return err
	}
	k, err := newKernel(ci, newSessionEvaluator())
	if err != nil {
		return err
	}
	return k.run()
}

// kernel is one running kernel process: its sockets, the request loops and
// the evaluation state.
type kernel struct {
	ci     *ConnectionInfo
	signer *signer
	sessID string // the session id of every message we send

	ctx    context.Context // cancelled at shutdown
	cancel context.CancelFunc

	shell, control, stdin *channel
	iopub                 *publisher
	hb                    zmq4.Socket

	// queue holds shell requests in arrival order; the executor goroutine
	// takes them one at a time, so a request arriving while a cell runs
	// waits (and is aborted after an error when stop_on_error).
	queue chan *Message
	// inputs carries input_reply messages from the stdin channel.
	inputs chan *Message

	ev *evaluator
	// abortAfter is set by a failed execute_request with stop_on_error;
	// only the executor goroutine touches it.
	abortAfter bool
	// abortCount is how many requests were queued when that error was
	// reported: those are aborted, and nothing queued after them.
	abortCount int
	// afterCell, when set (by tests), runs where the executor finishes a
	// cell's bookkeeping: it stands for a slow settle on a loaded machine.
	afterCell func()

	// running is the cancel function of the evaluation in progress, for
	// interrupts from control or SIGINT.
	runMu   sync.Mutex
	running context.CancelFunc

	hist history

	// drops logs what clients cause, with a rate limit.
	drops *dropLog

	// gc paces the garbage collector between requests (gc.go).
	gc *gcPacer

	stopping     atomic.Bool // a shutdown_request was answered
	shutdownOnce sync.Once
	exit         chan struct{}
}

func newKernel(ci *ConnectionInfo, ev *evaluator) (*kernel, error) {
	s, err := newSigner(ci.SignatureScheme, ci.Key)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	k := &kernel{
		ci: ci, signer: s, sessID: newID(), ctx: ctx, cancel: cancel,
		queue:  make(chan *Message, 1<<12),
		inputs: make(chan *Message, 1),
		ev:     ev,
		exit:   make(chan struct{}),
		drops:  newDropLog(),
		gc:     newGCPacer(),
	}
	if s.key == nil {
		// The protocol allows an empty key; say loudly what it means.
		logf("warning: the connection file has an empty key: messages are not signed, " +
			"so any process that can reach the kernel's ports can run code as this user")
	}
	return k, nil
}

// maxMessageSize bounds every message a kernel socket receives: zmq4
// disconnects a peer that announces a larger one before allocating it.
// Jupyter messages are JSON of cells and their replies; this is far above
// any real one and far below what would exhaust memory.
const maxMessageSize = 64 << 20

// writeTimeout bounds how long one message may take to send to one peer:
// a peer that stops reading (an iopub subscriber, a heartbeat client; no
// key is needed to connect) is disconnected rather than stalling the
// socket's sends to every other client. A variable so tests can shorten
// it.
var writeTimeout = 10 * time.Second

// bind creates and binds the five sockets.
func (k *kernel) bind() error {
	// Failed handshakes (zmq4 logs them) are caused by clients: their log
	// lines are rate-limited like those of dropped messages.
	opts := func(more ...zmq4.Option) []zmq4.Option {
		return append([]zmq4.Option{zmq4.WithMaxMsgSize(maxMessageSize), zmq4.WithWriteTimeout(writeTimeout),
			zmq4.WithLogger(log.New(k.drops, "zmq4: ", 0))}, more...)
	}
	mk := func(name string, sock zmq4.Socket, port int) (zmq4.Socket, error) {
		if err := sock.Listen(k.ci.endpoint(port)); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return sock, nil
	}
	var socks []zmq4.Socket
	fail := func(err error) error {
		for _, s := range socks {
			s.Close()
		}
		return err
	}
	for _, c := range []struct {
		name string
		port int
		dst  **channel
	}{{"shell", k.ci.ShellPort, &k.shell}, {"control", k.ci.ControlPort, &k.control}, {"stdin", k.ci.StdinPort, &k.stdin}} {
		sock, err := mk(c.name, zmq4.NewRouter(k.ctx, opts(zmq4.WithID(zmq4.SocketIdentity("arepl-"+c.name)))...), c.port)
		if err != nil {
			return fail(err)
		}
		socks = append(socks, sock)
		*c.dst = &channel{name: c.name, sock: sock, signer: k.signer, sessID: k.sessID}
	}
	pub, err := mk("iopub", zmq4.NewPub(k.ctx, opts()...), k.ci.IOPubPort)
	if err != nil {
		return fail(err)
	}
	socks = append(socks, pub)
	k.iopub = newPublisher(pub, k.signer, k.sessID)
	hb, err := mk("heartbeat", zmq4.NewRep(k.ctx, opts()...), k.ci.HBPort)
	if err != nil {
		return fail(err)
	}
	k.hb = hb
	return nil
}

// run binds the sockets, serves until shutdown and closes everything.
func (k *kernel) run() error {
	if err := k.bind(); err != nil {
		return err
	}
	return k.serve()
}

// serve runs the request loops on bound sockets until shutdown.
func (k *kernel) serve() error {
	// Go's default action on SIGINT is to exit; a Jupyter client in
	// interrupt_mode "signal" sends SIGINT to interrupt a cell.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	k.iopub.status(nil, "starting")
	prewarm(k.ev.s)
	k.gc.pace()
	go k.heartbeat()
	go k.receive(k.shell, func(m *Message) { k.queue <- m })
	go k.receive(k.control, k.handleControl)
	go k.receive(k.stdin, k.handleStdin)
	go k.executor()
	go watchParent(k.ctx, k.shutdown)

	for {
		select {
		case s := <-sigs:
			if s == os.Interrupt {
				k.interrupt()
				continue
			}
			k.shutdown()
		case <-k.exit:
			k.close()
			if c, ok := k.ev.s.(interface{ Close() }); ok {
				c.Close() // a background compile reaches the disk cache
			}
			return nil
		}
	}
}

// shutdown makes run return; it is safe to call more than once.
func (k *kernel) shutdown() {
	k.shutdownOnce.Do(func() { close(k.exit) })
}

func (k *kernel) close() {
	k.interrupt()
	k.iopub.close()
	k.cancel()
	for _, s := range []zmq4.Socket{k.shell.sock, k.control.sock, k.stdin.sock, k.iopub.sock, k.hb} {
		s.Close()
	}
}

// interrupt cancels the evaluation in progress, if any.
func (k *kernel) interrupt() {
	k.runMu.Lock()
	defer k.runMu.Unlock()
	if k.running != nil {
		k.running()
	}
}

// heartbeat echoes every ping.
func (k *kernel) heartbeat() {
	for {
		msg, err := k.hb.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			// A peer that goes away mid-message is not fatal.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err := k.hb.Send(msg); err != nil && k.ctx.Err() == nil {
			logf("heartbeat: %v", err)
		}
	}
}

// receive reads messages from c, decodes and verifies them and hands each
// good one to handle. Malformed or badly signed messages are logged and
// dropped.
func (k *kernel) receive(c *channel, handle func(*Message)) {
	for {
		msg, err := c.sock.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		clk := newClock(time.Now())
		m, err := decode(k.signer, msg.Frames)
		if err != nil {
			k.drops.logf("%s: %v", c.name, err)
			continue
		}
		clk.mark(stageDecode)
		m.clock = clk
		handle(m)
	}
}

// executor handles shell requests one at a time.
func (k *kernel) executor() {
	for {
		select {
		case <-k.ctx.Done():
			return
		case m := <-k.queue:
			k.handle(k.shell, m)
			// The client has the idle status: finish the cell's
			// bookkeeping before the next request is read.
			k.ev.settle()
			k.gc.pace()
			if k.afterCell != nil {
				k.afterCell()
			}
			if k.abortAfter {
				k.abortAfter = false
				k.abortQueued()
			}
		}
	}
}

// abortQueued answers every execute_request that was already waiting in
// the shell queue when the error reply went out with status "aborted"
// (stop_on_error); other requests among them are handled normally, in
// order. Only what was queued when the error was reported is aborted: a
// client that reads the error or abort replies and sends a new request at
// once must not see that one aborted too (found by CI on a loaded machine,
// and again by make test under load: a request sent after the error reply
// reached the queue before the executor had settled the failed cell).
func (k *kernel) abortQueued() {
	for n := k.abortCount; n > 0; n-- {
		m := <-k.queue
		if m.Header.MsgType == "execute_request" {
			k.iopub.status(m, "busy")
			k.sendReply(k.shell, m, "execute_reply", map[string]any{
				"status": "aborted", "execution_count": k.hist.count(),
			})
			k.iopub.status(m, "idle")
			continue
		}
		k.handle(k.shell, m)
	}
}

// handleControl serves the control channel. It runs beside the executor,
// so interrupt and shutdown requests are answered while a cell runs.
func (k *kernel) handleControl(m *Message) {
	k.handle(k.control, m)
}

// handleStdin takes input replies to the pending input request.
func (k *kernel) handleStdin(m *Message) {
	if m.Header.MsgType != "input_reply" {
		k.drops.logf("stdin: unexpected %s", m.Header.MsgType)
		return
	}
	select {
	case k.inputs <- m:
	default:
		k.drops.logf("stdin: input_reply with no pending input_request")
	}
}

func (k *kernel) sendReply(c *channel, req *Message, msgType string, content any) {
	if err := c.reply(req, msgType, content); err != nil {
		logf("%s: sending %s: %v", c.name, msgType, err)
	}
}
