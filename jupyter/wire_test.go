package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
)

// frames4 are four well-formed JSON frames.
var frames4 = [4][]byte{
	[]byte(`{"msg_id":"1","session":"s","username":"u","date":"","msg_type":"kernel_info_request","version":"5.3"}`),
	[]byte(`{}`), []byte(`{}`), []byte(`{}`),
}

func TestSignMatchesHMACSHA256(t *testing.T) {
	s, err := newSigner("hmac-sha256", "secret")
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, []byte("secret"))
	for _, f := range frames4 {
		mac.Write(f)
	}
	want := hex.EncodeToString(mac.Sum(nil))
	if got := s.sign(frames4); got != want {
		t.Errorf("sign = %s, want %s", got, want)
	}
}

func TestVerify(t *testing.T) {
	s, _ := newSigner("hmac-sha256", "secret")
	good := []byte(s.sign(frames4))
	flipped := append([]byte(nil), good...)
	flipped[0] = '0'
	if good[0] == '0' {
		flipped[0] = '1'
	}
	for _, tc := range []struct {
		name string
		sig  []byte
		ok   bool
	}{
		{"good", good, true},
		{"replayed", good, false},
		{"missing", nil, false},
		{"not hex", []byte("zz"), false},
		{"wrong", flipped, false},
		{"truncated", good[:10], false},
	} {
		err := s.verify(tc.sig, frames4)
		if (err == nil) != tc.ok {
			t.Errorf("%s: verify error %v, want ok=%v", tc.name, err, tc.ok)
		}
		var we *WireError
		if err != nil && !errors.As(err, &we) {
			t.Errorf("%s: error %T is not a *WireError", tc.name, err)
		}
	}
}

func TestNoKeyAcceptsAnySignature(t *testing.T) {
	s, _ := newSigner("", "")
	if got := s.sign(frames4); got != "" {
		t.Errorf("sign without key = %q, want empty", got)
	}
	if err := s.verify([]byte("anything"), frames4); err != nil {
		t.Errorf("verify without key: %v", err)
	}
}

func TestUnsupportedScheme(t *testing.T) {
	if _, err := newSigner("hmac-md5", "k"); err == nil {
		t.Error("hmac-md5 accepted")
	}
}

// TestDecodeMalformed feeds frames that a broken or hostile peer could
// send; every one must give a *WireError and none may panic.
func TestDecodeMalformed(t *testing.T) {
	s, _ := newSigner("hmac-sha256", "k")
	signed := func(f [4][]byte) []byte { return []byte(s.sign(f)) }
	obj := []byte("{}")
	hdr := frames4[0]
	for _, tc := range []struct {
		name   string
		frames [][]byte
	}{
		{"empty", nil},
		{"no delimiter", [][]byte{[]byte("id"), obj, obj}},
		{"nothing after delimiter", [][]byte{delimiter}},
		{"too few frames", [][]byte{delimiter, []byte("sig"), hdr, obj}},
		{"bad signature", [][]byte{delimiter, []byte("00"), hdr, obj, obj, obj}},
		{"header not JSON", [][]byte{delimiter, signed([4][]byte{[]byte("{"), obj, obj, obj}), []byte("{"), obj, obj, obj}},
		{"content null", [][]byte{delimiter, signed([4][]byte{hdr, obj, obj, []byte("null")}), hdr, obj, obj, []byte("null")}},
		{"metadata array", [][]byte{delimiter, signed([4][]byte{hdr, obj, []byte("[]"), obj}), hdr, obj, []byte("[]"), obj}},
		{"no msg_type", [][]byte{delimiter, signed([4][]byte{obj, obj, obj, obj}), obj, obj, obj, obj}},
		{"header fields of wrong type", [][]byte{delimiter, signed([4][]byte{[]byte(`{"msg_type":3}`), obj, obj, obj}),
			[]byte(`{"msg_type":3}`), obj, obj, obj}},
	} {
		m, err := decode(s, tc.frames)
		var we *WireError
		if err == nil || !errors.As(err, &we) {
			t.Errorf("%s: decode = %v, %v; want a *WireError", tc.name, m, err)
		}
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s, _ := newSigner("hmac-sha256", "k")
	req, err := newMessage("sess", "execute_request", nil, map[string]any{"code": "1 + 2 ⍴"})
	if err != nil {
		t.Fatal(err)
	}
	req.Identities = [][]byte{[]byte("client-id")}
	req.Buffers = [][]byte{[]byte("raw\x00bytes")}
	frames, err := encode(s, req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode(s, frames)
	if err != nil {
		t.Fatal(err)
	}
	if got.Header != req.Header {
		t.Errorf("header %+v, want %+v", got.Header, req.Header)
	}
	if len(got.Identities) != 1 || !bytes.Equal(got.Identities[0], []byte("client-id")) {
		t.Errorf("identities %q", got.Identities)
	}
	if string(got.Content) != string(req.Content) || string(got.Parent) != "{}" || string(got.Metadata) != "{}" {
		t.Errorf("frames changed: content %s parent %s metadata %s", got.Content, got.Parent, got.Metadata)
	}
	if len(got.Buffers) != 1 || string(got.Buffers[0]) != "raw\x00bytes" {
		t.Errorf("buffers %q", got.Buffers)
	}
	// A reply's parent is the request header byte for byte.
	reply, _ := newMessage("sess", "execute_reply", got, map[string]any{})
	if !bytes.Equal(reply.Parent, got.RawHeader) {
		t.Errorf("parent %s, want %s", reply.Parent, got.RawHeader)
	}
}

func TestHeaderVersionAndIDs(t *testing.T) {
	h := newHeader("s", "status")
	if h.Version != "5.3" {
		t.Errorf("version %q", h.Version)
	}
	if h2 := newHeader("s", "status"); h2.MsgID == h.MsgID {
		t.Error("message ids repeat")
	}
	if len(h.Date) != len("2006-01-02T15:04:05.000000Z") || h.Date[len(h.Date)-1] != 'Z' {
		t.Errorf("date %q is not ISO 8601 with microseconds and Z", h.Date)
	}
}

// FuzzDecode feeds arbitrary frames to decode: it may reject them, but it
// must never panic, and what it accepts must encode again.
func FuzzDecode(f *testing.F) {
	s, _ := newSigner("", "")
	f.Add([]byte("id"), []byte("<IDS|MSG>"), []byte(""), frames4[0], []byte("{}"), []byte("{}"), []byte("{}"))
	f.Add([]byte("<IDS|MSG>"), []byte("sig"), []byte("{"), []byte("null"), []byte("[]"), []byte(`{"a":1}`), []byte("x"))
	f.Add([]byte(""), []byte(""), []byte(""), []byte(""), []byte(""), []byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g, h []byte) {
		m, err := decode(s, [][]byte{a, b, c, d, e, g, h})
		if err != nil {
			return
		}
		if _, err := encode(s, m); err != nil {
			t.Errorf("accepted message does not encode: %v", err)
		}
	})
}
