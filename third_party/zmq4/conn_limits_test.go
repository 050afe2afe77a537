// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"testing"
	"time"
)

// frameConn is a net.Conn whose reads come from a fixed byte stream.
type frameConn struct {
	net.Conn
	r *bytes.Reader
}

func (c frameConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func longFrame(flag byte, size uint64) []byte {
	hdr := make([]byte, 9)
	hdr[0] = flag | isLongBitFlag
	binary.BigEndian.PutUint64(hdr[1:], size)
	return hdr
}

func TestReadRejectsOversizedFrames(t *testing.T) {
	for _, size := range []uint64{1 << 62, 1 << 49, 1 << 40, 1<<20 + 1} {
		c := &Conn{rw: frameConn{r: bytes.NewReader(longFrame(0, size))}, sec: nullSecurity{}, limits: limits{maxMsgSize: 1 << 20}}
		msg := c.read()
		if !errors.Is(msg.err, errOverflow) {
			t.Errorf("frame of %d bytes: err = %v, want errOverflow", size, msg.err)
		}
	}
}

func TestReadBoundsWholeMessage(t *testing.T) {
	// Many small frames whose sum is over the bound.
	var wire []byte
	for i := 0; i < 100; i++ {
		wire = append(wire, longFrame(hasMoreBitFlag, 1000)...)
		wire = append(wire, make([]byte, 1000)...)
	}
	c := &Conn{rw: frameConn{r: bytes.NewReader(wire)}, sec: nullSecurity{}, limits: limits{maxMsgSize: 50000}}
	if msg := c.read(); !errors.Is(msg.err, errOverflow) {
		t.Fatalf("err = %v, want errOverflow", msg.err)
	}
}

func TestReadLargeFrameWithinBound(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 3<<20+5)
	wire := append(longFrame(0, uint64(len(body))), body...)
	c := &Conn{rw: frameConn{r: bytes.NewReader(wire)}, sec: nullSecurity{}, limits: limits{maxMsgSize: 4 << 20}}
	msg := c.read()
	if msg.err != nil || len(msg.Frames) != 1 || !bytes.Equal(msg.Frames[0], body) {
		t.Fatalf("read: err=%v frames=%d", msg.err, len(msg.Frames))
	}
	// A frame announced larger than what arrives is an error, not a hang.
	c = &Conn{rw: frameConn{r: bytes.NewReader(longFrame(0, 3<<20))}, sec: nullSecurity{}, limits: limits{maxMsgSize: 4 << 20}}
	if msg := c.read(); msg.err == nil {
		t.Fatal("truncated frame: no error")
	}
}

func TestMetadataMalformed(t *testing.T) {
	for _, p := range [][]byte{
		{2, 'a', 'b'},           // key, then no value length
		{2, 'a', 'b', 0, 0},     // half a value length
		{9, 'a'},                // key longer than the data
		{1, 'k', 0, 0, 0, 9},    // value longer than the data
		{1, 'k', 0, 0, 0, 0, 3}, // second property cut short
	} {
		md := Metadata{}
		if err := md.UnmarshalZMTP(p); err == nil {
			t.Errorf("UnmarshalZMTP(%v): no error", p)
		}
	}
}

func TestWriteTimeoutDropsPeerThatDoesNotRead(t *testing.T) {
	local, peer := net.Pipe() // synchronous: a write blocks until peer reads
	defer peer.Close()
	c := &Conn{rw: local, sec: nullSecurity{}, limits: limits{writeTimeout: 100 * time.Millisecond}}
	done := make(chan error, 1)
	go func() { done <- c.SendMsg(NewMsgFrom([]byte("hello"))) }()
	select {
	case err := <-done:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("SendMsg = %v, want a timeout", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SendMsg blocked on a peer that does not read")
	}
	if !c.Closed() {
		t.Error("the connection stays open after a timed-out write")
	}
}
