package nccl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
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
//     of the nranks-1 others, which connect (retrying until rank 0 is up).
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
		return id, serveTCP(ctx, addr, nranks-1, id)
	}
	if kind == "file" {
		return waitFile(ctx, addr)
	}
	return dialTCP(ctx, addr)
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

func serveTCP(ctx context.Context, addr string, peers int, id UniqueID) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("rendezvous: %w", err)
	}
	defer ln.Close()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for range peers {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("rendezvous: waiting for the other ranks on %s: %w", addr, ctx.Err())
			}
			return fmt.Errorf("rendezvous: %w", err)
		}
		_, err = c.Write(id[:])
		c.Close()
		if err != nil {
			return fmt.Errorf("rendezvous: %w", err)
		}
	}
	return nil
}

func dialTCP(ctx context.Context, addr string) (UniqueID, error) {
	var id UniqueID
	var d net.Dialer
	for {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			_, err = io.ReadFull(c, id[:])
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
