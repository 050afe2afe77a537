package nccl

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// Rendezvous: NCCL's bootstrap needs rank 0's unique id in every process
// before ncclCommInitRank. arepl shares it one of two ways, named by a
// --rendezvous spec:
//
//   - file:PATH — rank 0 writes the id to PATH (atomically: a temporary
//     file renamed into place); the others wait for the file. PATH must be
//     on a file system every host sees (NFS, Lustre) and fresh for each
//     job: a stale id from an earlier job would hang the others.
//   - tcp:HOST:PORT — rank 0 listens on HOST:PORT and sends the id to each
//     of the nranks-1 others, which connect (retrying until rank 0 is up)
//     and say who they are first: a hello (magic and rank). A connection
//     that does not send a valid hello for a rank not yet served within
//     helloTimeout (a port scanner, a stray client, a rank asking twice) is
//     dropped without the id and without taking a rank's place, so it can
//     neither learn the id nor leave a real rank waiting. This is no
//     authentication (NCCL's own bootstrap has none either); run jobs on a
//     trusted network, as NCCL requires.
//
// Either way the id is 128 opaque bytes; NCCL's own bootstrap then
// connects the ranks over the network the id names.

// Exchange returns the communicator's id: rank 0 makes it with mk and
// shares it, every other rank receives it. It gives up when ctx ends.
func Exchange(ctx context.Context, spec string, rank, nranks int, mk func() (UniqueID, error)) (UniqueID, error) {
	if nranks < 1 || rank < 0 || rank >= nranks {
		return UniqueID{}, fmt.Errorf("rendezvous: rank %d of %d ranks", rank, nranks)
	}
	kind, addr, ok := strings.Cut(spec, ":")
	if !ok || addr == "" || (kind != "file" && kind != "tcp") {
		return UniqueID{}, fmt.Errorf("--rendezvous %q: want file:PATH or tcp:HOST:PORT", spec)
	}
	if rank == 0 {
		id, err := mk()
		if err != nil {
			return UniqueID{}, err
		}
		if kind == "file" {
			return id, publishFile(addr, id)
		}
		return id, serveTCP(ctx, addr, nranks, id)
	}
	if kind == "file" {
		return waitFile(ctx, addr)
	}
	return dialTCP(ctx, addr, rank)
}

func publishFile(path string, id UniqueID) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, id[:], 0o600); err != nil {
		return fmt.Errorf("rendezvous: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rendezvous: %w", err)
	}
	return nil
}

func waitFile(ctx context.Context, path string) (UniqueID, error) {
	var id UniqueID
	for {
		b, err := os.ReadFile(path)
		if err == nil && len(b) == len(id) {
			copy(id[:], b)
			return id, nil
		}
		if err == nil {
			return id, fmt.Errorf("rendezvous: %s holds %d bytes, not an NCCL id (%d)", path, len(b), len(id))
		}
		select {
		case <-ctx.Done():
			return id, fmt.Errorf("rendezvous: waiting for rank 0 to write %s: %w", path, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// The TCP hello: helloMagic, then the rank as 4 big-endian bytes.
const helloMagic = "arepl-nccl-1"

// helloTimeout bounds each step of the exchange with one peer: its hello,
// and writing or reading the id.
var helloTimeout = 10 * time.Second

func hello(rank int) []byte {
	return binary.BigEndian.AppendUint32([]byte(helloMagic), uint32(rank))
}

// serveTCP sends id to ranks 1..nranks-1, each once, whatever else
// connects meanwhile. Each connection is served on its own goroutine, so
// a peer that stalls its hello delays no one else.
func serveTCP(ctx context.Context, addr string, nranks int, id UniqueID) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("rendezvous: %w", err)
	}
	defer ln.Close()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	var (
		mu     sync.Mutex
		served = make([]bool, nranks)
		left   = nranks - 1
		all    = make(chan struct{})
	)
	if left == 0 {
		return nil
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			select {
			case <-all:
				return nil
			default:
			}
			if ctx.Err() != nil {
				return fmt.Errorf("rendezvous: waiting for the other ranks on %s: %w", addr, ctx.Err())
			}
			return fmt.Errorf("rendezvous: %w", err)
		}
		// Not waited for: a peer still stalling its hello when the
		// last rank has its id ends by its deadline on its own.
		go func() {
			defer c.Close()
			r, ok := readHello(c, nranks)
			if !ok {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if served[r] || left == 0 {
				return
			}
			if _, err := c.Write(id[:]); err != nil {
				return
			}
			served[r] = true
			if left--; left == 0 {
				close(all)
				ln.Close()
			}
		}()
	}
}

// readHello reads a peer's hello within helloTimeout and returns its rank
// when the hello is well formed and names a rank other than 0.
func readHello(c net.Conn, nranks int) (int, bool) {
	c.SetDeadline(time.Now().Add(helloTimeout))
	want := hello(0)
	got := make([]byte, len(want))
	if _, err := io.ReadFull(c, got); err != nil || string(got[:len(helloMagic)]) != helloMagic {
		return 0, false
	}
	r := binary.BigEndian.Uint32(got[len(helloMagic):])
	if r == 0 || r >= uint32(nranks) {
		return 0, false
	}
	return int(r), true
}

func dialTCP(ctx context.Context, addr string, rank int) (UniqueID, error) {
	var id UniqueID
	var d net.Dialer
	for {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			c.SetDeadline(time.Now().Add(helloTimeout))
			_, err = c.Write(hello(rank))
			if err == nil {
				_, err = io.ReadFull(c, id[:])
			}
			c.Close()
			if err == nil {
				return id, nil
			}
			return id, fmt.Errorf("rendezvous: reading the id from %s: %w", addr, err)
		}
		if ctx.Err() != nil {
			return id, fmt.Errorf("rendezvous: connecting to rank 0 at %s: %w", addr, errors.Join(err, ctx.Err()))
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}
