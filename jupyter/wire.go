package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"sync"
	"time"
)

// protocolVersion is the messaging protocol we speak. Debian's
// jupyter_client 7.4 speaks 5.3, and jupyter_kernel_test rejects every
// header whose minor version is 1 or lower.
const protocolVersion = "5.3"

// delimiter separates the routing identities from the signed frames.
var delimiter = []byte("<IDS|MSG>")

// Header is a message header. The parent header of a reply is kept as the
// raw bytes of the request's header, so it is a verbatim copy.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one decoded (or to-be-encoded) message. Parent, Metadata and
// Content are JSON objects; Buffers are the extra binary frames after the
// four signed ones.
type Message struct {
	Identities [][]byte
	Header     Header
	RawHeader  json.RawMessage // the header as received, for parents
	Parent     json.RawMessage
	Metadata   json.RawMessage
	Content    json.RawMessage
	Buffers    [][]byte

	// clock times a received request's stages (stages.go) from the
	// arrival of its frames; nil for messages the kernel builds.
	clock *clock
}

// WireError is a message that cannot be accepted: malformed frames, bad
// JSON, or a bad or missing signature. The kernel logs it and drops the
// message; it never stops the kernel.
type WireError struct{ Msg string }

func (e *WireError) Error() string { return "jupyter: dropped message: " + e.Msg }

func wireErrorf(format string, args ...any) error {
	return &WireError{Msg: fmt.Sprintf(format, args...)}
}

// signer computes and checks HMAC signatures. A nil key means the
// connection has no key, in which case messages carry an empty signature
// and none is checked (as jupyter_client does).
type signer struct {
	key []byte
	mu  sync.Mutex
	mac hash.Hash

	// recent remembers signatures already accepted, so a replayed message
	// is dropped as jupyter_client's Session does (digest_history).
	recent  map[string]struct{}
	order   []string
	nrecent int
}

const maxRecentSignatures = 1 << 14

func newSigner(scheme, key string) (*signer, error) {
	if key == "" {
		return &signer{}, nil
	}
	if scheme != "" && scheme != "hmac-sha256" {
		return nil, fmt.Errorf("jupyter: unsupported signature_scheme %q (want hmac-sha256)", scheme)
	}
	k := []byte(key)
	return &signer{key: k, mac: hmac.New(sha256.New, k), recent: map[string]struct{}{}}, nil
}

// sign returns the hex signature of the four JSON frames.
func (s *signer) sign(frames [4][]byte) string {
	if s.key == nil {
		return ""
	}
	return hex.EncodeToString(s.sum(frames))
}

func (s *signer) sum(frames [4][]byte) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mac.Reset()
	for _, f := range frames {
		s.mac.Write(f)
	}
	return s.mac.Sum(nil)
}

// verify checks sig against the frames in constant time and rejects a
// signature seen before.
func (s *signer) verify(sig []byte, frames [4][]byte) error {
	if s.key == nil {
		return nil
	}
	if len(sig) == 0 {
		return wireErrorf("missing signature")
	}
	got := make([]byte, hex.DecodedLen(len(sig)))
	if _, err := hex.Decode(got, sig); err != nil {
		return wireErrorf("signature is not hex")
	}
	if !hmac.Equal(got, s.sum(frames)) {
		return wireErrorf("bad signature")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Remember the decoded bytes, not the text: hex.Decode accepts either
	// case, so an upper-cased copy of a signature is the same signature.
	key := string(got)
	if _, dup := s.recent[key]; dup {
		return wireErrorf("replayed signature")
	}
	s.recent[key] = struct{}{}
	if len(s.order) < maxRecentSignatures {
		s.order = append(s.order, key)
	} else {
		// Forget the oldest signature, ring-buffer style.
		delete(s.recent, s.order[s.nrecent])
		s.order[s.nrecent] = key
		s.nrecent = (s.nrecent + 1) % maxRecentSignatures
	}
	return nil
}

// decode parses the frames of one message received on a ROUTER socket:
// identities, the delimiter, the signature, four JSON objects and
// optional buffers. Every check returns a *WireError; nothing panics.
func decode(s *signer, frames [][]byte) (*Message, error) {
	d := -1
	for i, f := range frames {
		if bytes.Equal(f, delimiter) {
			d = i
			break
		}
	}
	if d < 0 {
		return nil, wireErrorf("no %s delimiter among %d frames", delimiter, len(frames))
	}
	rest := frames[d+1:]
	if len(rest) < 5 {
		return nil, wireErrorf("%d frames after the delimiter, want at least 5", len(rest))
	}
	signed := [4][]byte{rest[1], rest[2], rest[3], rest[4]}
	if err := s.verify(rest[0], signed); err != nil {
		return nil, err
	}
	m := &Message{
		Identities: frames[:d],
		RawHeader:  json.RawMessage(rest[1]),
		Parent:     json.RawMessage(rest[2]),
		Metadata:   json.RawMessage(rest[3]),
		Content:    json.RawMessage(rest[4]),
		Buffers:    rest[5:],
	}
	names := [4]string{"header", "parent_header", "metadata", "content"}
	for i, f := range signed {
		if !isJSONObject(f) {
			return nil, wireErrorf("%s is not a JSON object", names[i])
		}
	}
	if err := json.Unmarshal(m.RawHeader, &m.Header); err != nil {
		return nil, wireErrorf("header: %v", err)
	}
	if m.Header.MsgType == "" {
		return nil, wireErrorf("header has no msg_type")
	}
	return m, nil
}

// isJSONObject reports whether b is one well-formed JSON object.
func isJSONObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) >= 2 && b[0] == '{' && json.Valid(b)
}

// encode returns the frames of m: identities, delimiter, signature and the
// four JSON frames, then the buffers. A nil Parent, Metadata or Content is
// sent as {}: JupyterLab drops outputs whose metadata is null.
func encode(s *signer, m *Message) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, err
	}
	signed := [4][]byte{header, orEmpty(m.Parent), orEmpty(m.Metadata), orEmpty(m.Content)}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, delimiter, []byte(s.sign(signed)))
	frames = append(frames, signed[:]...)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

func orEmpty(b json.RawMessage) []byte {
	if len(bytes.TrimSpace(b)) == 0 || bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return []byte("{}")
	}
	return b
}

// newHeader returns a fresh header for a message of type msgType sent by
// the kernel session.
func newHeader(session, msgType string) Header {
	return Header{
		MsgID:    newID(),
		Session:  session,
		Username: "kernel",
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  protocolVersion,
	}
}

// newID returns a random UUID (version 4) string.
func newID() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		// crypto/rand never fails on supported platforms; fall back to the
		// clock so that an id is still unique within this process.
		binaryTime := time.Now().UnixNano()
		for i := range 8 {
			u[i] = byte(binaryTime >> (8 * i))
		}
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
