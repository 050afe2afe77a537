//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A terminal session with the REPL: the test binary runs as arepl (see
// TestMain) on the slave side of a pseudo-terminal, so readline, prompts
// and the banner behave as for a person, and the test types on the master
// side and reads the screen's bytes.
type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	buf  bytes.Buffer
	done chan struct{}
}

func openPty() (master, slave *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, nil, err
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: 200})
	return m, s, nil
}

// startPty runs arepl with args in dir on a new terminal.
func startPty(t *testing.T, dir string, args ...string) *ptySession {
	t.Helper()
	m, s, err := openPty()
	if err != nil {
		t.Fatalf("no pseudo-terminal: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "XDG_STATE_HOME="+dir, "NO_COLOR=1", "TERM=xterm")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	p := &ptySession{t: t, cmd: cmd, pty: m, done: make(chan struct{})}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := m.Read(b)
			p.mu.Lock()
			p.buf.Write(b[:n])
			p.mu.Unlock()
			if err != nil {
				close(p.done)
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		m.Close()
	})
	return p
}

// screen is everything the REPL wrote so far.
func (p *ptySession) screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}

// waitFor waits until the screen, after offset from, contains want.
func (p *ptySession) waitFor(from int, want string) int {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		s := p.screen()
		if i := strings.Index(s[min(from, len(s)):], want); i >= 0 {
			return from + i + len(want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.t.Fatalf("screen lacks %q after offset %d:\n%s", want, from, p.screen())
	return 0
}

// typeText sends keys.
func (p *ptySession) typeText(s string) {
	p.t.Helper()
	if _, err := p.pty.Write([]byte(s)); err != nil {
		p.t.Fatal(err)
	}
}

// wait waits for the REPL to exit and returns its exit error.
func (p *ptySession) wait() error {
	ch := make(chan error, 1)
	go func() { ch <- p.cmd.Wait() }()
	select {
	case err := <-ch:
		return err
	case <-time.After(20 * time.Second):
		p.t.Fatalf("the REPL did not exit:\n%s", p.screen())
		return nil
	}
}
