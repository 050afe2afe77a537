package jupyter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
)

// channel is one ROUTER socket (shell, control or stdin). zmq4 sockets are
// not safe for concurrent writers, so every send goes through mu; replies
// always leave on the channel their request came in on, addressed to its
// routing identities.
type channel struct {
	name   string
	sock   zmq4.Socket
	mu     sync.Mutex
	signer *signer
	sessID string
}

// reply sends a message of type msgType in reply to req on this channel.
func (c *channel) reply(req *Message, msgType string, content any) error {
	return c.replyMeta(req, msgType, content, nil)
}

// replyMeta is reply with metadata (nil: none).
func (c *channel) replyMeta(req *Message, msgType string, content, metadata any) error {
	m, err := newMessage(c.sessID, msgType, req, content)
	if err != nil {
		return err
	}
	if metadata != nil {
		if m.Metadata, err = json.Marshal(metadata); err != nil {
			return fmt.Errorf("jupyter: encoding %s metadata: %v", msgType, err)
		}
	}
	m.Identities = req.Identities
	return c.send(m)
}

func (c *channel) send(m *Message) error {
	frames, err := encode(c.signer, m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sock.SendMulti(zmq4.NewMsgFrom(frames...))
}

// newMessage builds a message whose parent is req (nil for none).
func newMessage(session, msgType string, req *Message, content any) (*Message, error) {
	body, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("jupyter: encoding %s: %v", msgType, err)
	}
	m := &Message{Header: newHeader(session, msgType), Content: body, Metadata: json.RawMessage("{}")}
	if req != nil {
		m.Parent = req.RawHeader
	}
	return m, nil
}

// publisher owns the iopub PUB socket. Stream text is coalesced: writes
// are buffered and sent at most every streamFlushInterval, when the buffer
// grows past streamFlushBytes, or before any other iopub message, so that
// a flood of small writes becomes a few large stream messages (ipykernel
// flushes every 0.2 s; the classic notebook server rate-limits iopub) and
// the order of outputs is kept.
type publisher struct {
	sock   zmq4.Socket
	signer *signer
	sessID string

	mu     sync.Mutex
	buf    bytes.Buffer
	stream string   // "stdout" or "stderr": what buf holds
	parent *Message // the request buf's text belongs to
	closed bool
	done   chan struct{}
}

const (
	streamFlushInterval = 50 * time.Millisecond
	streamFlushBytes    = 256 << 10
)

func newPublisher(sock zmq4.Socket, s *signer, session string) *publisher {
	p := &publisher{sock: sock, signer: s, sessID: session, done: make(chan struct{})}
	go p.ticker()
	return p
}

func (p *publisher) ticker() {
	t := time.NewTicker(streamFlushInterval)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			p.mu.Lock()
			p.flushLocked()
			p.mu.Unlock()
		}
	}
}

// publish sends one iopub message with parent req, after any stream text
// still buffered.
func (p *publisher) publish(req *Message, msgType string, content any) error {
	m, err := newMessage(p.sessID, msgType, req, content)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushLocked()
	return p.sendLocked(m)
}

// status publishes an execution_state.
func (p *publisher) status(req *Message, state string) error {
	return p.publish(req, "status", map[string]string{"execution_state": state})
}

// write buffers stream text for the request req.
func (p *publisher) write(req *Message, stream, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.buf.Len() > 0 && (p.stream != stream || p.parent != req) {
		p.flushLocked()
	}
	p.stream, p.parent = stream, req
	p.buf.WriteString(text)
	if p.buf.Len() >= streamFlushBytes {
		p.flushLocked()
	}
}

// flush sends buffered stream text now.
func (p *publisher) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushLocked()
}

func (p *publisher) flushLocked() {
	if p.buf.Len() == 0 {
		return
	}
	content := map[string]string{"name": p.stream, "text": p.buf.String()}
	p.buf.Reset()
	m, err := newMessage(p.sessID, "stream", p.parent, content)
	if err == nil {
		err = p.sendLocked(m)
	}
	if err != nil {
		logf("iopub: %v", err)
	}
}

func (p *publisher) sendLocked(m *Message) error {
	if p.closed {
		return nil
	}
	frames, err := encode(p.signer, m)
	if err != nil {
		return err
	}
	// The topic frame; clients subscribe to everything.
	topic := []byte("kernel." + p.sessID + "." + m.Header.MsgType)
	return p.sock.SendMulti(zmq4.NewMsgFrom(append([][]byte{topic}, frames...)...))
}

// close flushes and stops the publisher. zmq4's PUB socket queues messages
// and sends them from its own goroutine with no way to wait for the queue to
// drain, so close gives it a moment before the socket is closed.
func (p *publisher) close() {
	p.mu.Lock()
	p.flushLocked()
	p.closed = true
	p.mu.Unlock()
	close(p.done)
	time.Sleep(100 * time.Millisecond)
}

// streamWriter is an io.Writer onto one stream of one request.
type streamWriter struct {
	p      *publisher
	req    *Message
	stream string
}

func (w streamWriter) Write(b []byte) (int, error) {
	w.p.write(w.req, w.stream, string(b))
	return len(b), nil
}
