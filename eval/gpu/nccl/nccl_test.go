package nccl

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLoadDisablesNVLS: whether or not NCCL is installed, Load leaves
// NCCL_NVLS_ENABLE=0 in the environment, and without the library its error
// is ErrNoNCCL (the binary runs without NCCL).
func TestLoadDisablesNVLS(t *testing.T) {
	t.Setenv("NCCL_NVLS_ENABLE", "1")
	os.Setenv("NCCL_NVLS_ENABLE", "1")
	_, err := load()
	if got := os.Getenv("NCCL_NVLS_ENABLE"); got != "0" {
		t.Errorf("NCCL_NVLS_ENABLE = %q after load, want 0", got)
	}
	if err != nil && !errors.Is(err, ErrNoNCCL) {
		t.Errorf("load without NCCL: %v, want an ErrNoNCCL", err)
	}
}

func TestLoadMissingLibrary(t *testing.T) {
	if _, err := os.Stat("/usr/lib/x86_64-linux-gnu/libnccl.so.2"); err == nil {
		t.Skip("NCCL is installed here")
	}
	t.Setenv("NCCL_LIBRARY", "/nonexistent/libnccl.so.2")
	if _, err := load(); !errors.Is(err, ErrNoNCCL) {
		t.Fatalf("load: %v, want ErrNoNCCL", err)
	}
}

// TestExchange runs the rendezvous of three ranks in goroutines, through a
// file and through TCP: every rank gets rank 0's id, made once.
func TestExchange(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	specs := []string{"file:" + filepath.Join(t.TempDir(), "id"), "tcp:" + addr}
	for _, spec := range specs {
		t.Run(spec[:4], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var want UniqueID
			for i := range want {
				want[i] = byte(i*7 + 3)
			}
			made := 0
			mk := func() (UniqueID, error) { made++; return want, nil }
			const n = 3
			got := make([]UniqueID, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			// The others start first: they must wait for rank 0.
			for r := n - 1; r >= 0; r-- {
				wg.Go(func() { got[r], errs[r] = Exchange(ctx, spec, r, n, mk) })
				time.Sleep(30 * time.Millisecond)
			}
			wg.Wait()
			for r := range n {
				if errs[r] != nil {
					t.Fatalf("rank %d: %v", r, errs[r])
				}
				if got[r] != want {
					t.Errorf("rank %d got another id", r)
				}
			}
			if made != 1 {
				t.Errorf("the id was made %d times, want once (by rank 0)", made)
			}
		})
	}
}

func TestExchangeErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	mk := func() (UniqueID, error) { return UniqueID{}, nil }
	for _, c := range []struct {
		spec       string
		rank, n    int
		wantSubstr string
	}{
		{"ftp:x", 0, 2, "want file:PATH or tcp:HOST:PORT"},
		{"file:", 0, 2, "want file:PATH"},
		{"file:/x", 2, 2, "rank 2 of 2"},
		{"file:" + filepath.Join(t.TempDir(), "never"), 1, 2, "waiting for rank 0"},
	} {
		_, err := Exchange(ctx, c.spec, c.rank, c.n, mk)
		if err == nil || !contains(err.Error(), c.wantSubstr) {
			t.Errorf("Exchange(%q, %d, %d) = %v, want an error with %q", c.spec, c.rank, c.n, err, c.wantSubstr)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestExchangeHostilePeers: before the real ranks connect, rank 0's port
// gets a client that sends nothing, one that sends garbage, one that
// claims rank 0, one that claims a rank past the last, and a real rank's
// hello twice. None of them takes a rank's place: the real ranks still
// get the id, and only rank 1's first hello got it among the impostors.
func TestExchangeHostilePeers(t *testing.T) {
	saved := helloTimeout
	helloTimeout = 300 * time.Millisecond
	defer func() { helloTimeout = saved }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var want UniqueID
	want[0], want[127] = 1, 2
	const n = 3
	done := make(chan error, 1)
	go func() {
		_, err := Exchange(ctx, "tcp:"+addr, 0, n, func() (UniqueID, error) { return want, nil })
		done <- err
	}()
	dial := func() net.Conn {
		for {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				return c
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// Each impostor must get nothing back: the server closes on it.
	for _, msg := range [][]byte{nil, []byte("GET / HTTP/1.0\r\n\r\n"), hello(0), hello(n), hello(7 << 20)} {
		c := dial()
		c.Write(msg)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if b, _ := io.ReadAll(c); len(b) != 0 {
			t.Errorf("hello %q got %d bytes back", msg, len(b))
		}
		c.Close()
	}
	// Rank 1 asks, then a second client claims rank 1 again: no id for it.
	id, err := Exchange(ctx, "tcp:"+addr, 1, n, nil)
	if err != nil || id != want {
		t.Fatalf("rank 1: %v (id right: %v)", err, id == want)
	}
	c := dial()
	c.Write(hello(1))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if b, _ := io.ReadAll(c); len(b) != 0 {
		t.Errorf("a second rank 1 got %d bytes back", len(b))
	}
	c.Close()
	id, err = Exchange(ctx, "tcp:"+addr, 2, n, nil)
	if err != nil || id != want {
		t.Fatalf("rank 2: %v (id right: %v)", err, id == want)
	}
	if err := <-done; err != nil {
		t.Fatalf("rank 0: %v", err)
	}
}
