//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBannerSaysWhatAutoChose: the banner and :backend say what "auto"
// picked and why (issue 19, defect 6: they said "auto").
func TestBannerSaysWhatAutoChose(t *testing.T) {
	p := startPty(t, t.TempDir())
	at := p.waitFor(0, "[0]> ")
	banner := regexp.MustCompile(`arepl \S+ on auto: (cpu \(no GPU: [^()]*\)|gpu \(.+\))\. `)
	if !banner.MatchString(p.screen()) {
		t.Errorf("banner does not say what auto chose:\n%s", p.screen())
	}
	p.typeText(":backend\r")
	// Not the prompt: readline redraws "[0]> " with every key it echoes,
	// so the prompt can be seen before the answer has come (it failed so
	// in CI). The answer's own words are what to wait for.
	at = p.waitFor(at, "backend auto: ")
	at = p.waitFor(at, "[0]> ")
	if !regexp.MustCompile(`backend auto: (cpu \(no GPU|gpu \()`).MatchString(p.screen()) {
		t.Errorf(":backend does not say what auto chose:\n%s", p.screen())
	}
	p.typeText("\x04")
	p.wait()
}

// TestHistoryKeepsInputs: a multi-line input goes into the history as
// typed, and Ctrl-D on a continuation line drops the unfinished input
// rather than submitting it (issue 19, defect 12).
func TestHistoryKeepsInputs(t *testing.T) {
	dir := t.TempDir()
	p := startPty(t, dir)
	at := p.waitFor(0, "[0]> ")
	p.typeText("def f (x: i32) =\r")
	at = p.waitFor(at, "...> ")
	p.typeText("  x   +  1\r\r")
	at = p.waitFor(at, "[1]> ")
	p.typeText("f 2\r")
	at = p.waitFor(at, "3")
	at = p.waitFor(at, "[2]> ")
	// Ctrl-D on a continuation line cancels the input: no error, and
	// the REPL is back at a fresh prompt with the same number.
	p.typeText("let y =\r")
	at = p.waitFor(at, "...> ")
	p.typeText("\x04")
	at = p.waitFor(at, "[2]> ")
	p.typeText("\x04")
	if err := p.wait(); err != nil {
		t.Errorf("exit: %v\n%s", err, p.screen())
	}
	if s := p.screen(); strings.Contains(s, "error") || strings.Contains(s, "unexpected") {
		t.Errorf("Ctrl-D on a continuation line reported an error:\n%s", s)
	}
	hist, err := os.ReadFile(filepath.Join(dir, "arepl", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "def f (x: i32) =\n  x   +  1\nf 2\n"; !strings.HasPrefix(string(hist), want) {
		t.Errorf("history %q, want it to start with %q", hist, want)
	}
}

// TestRunInterrupted: Ctrl-C during `arepl run` says "interrupted" and
// exits 130, not "context canceled" (issue 19, defect 11).
func TestRunInterrupted(t *testing.T) {
	dir := t.TempDir()
	prog := "def main (n: i64) = loop s = 0i64 for i < n do s + i % 7\n"
	if err := os.WriteFile(filepath.Join(dir, "prog.fut"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "run", "prog.fut", "--backend", "cpu")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "NO_COLOR=1")
	cmd.Stdin = strings.NewReader("4000000000000i64\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt only once the process is computing: on a loaded machine
	// it can take longer than any fixed sleep to get there, and a signal
	// before signal.NotifyContext kills it instead of testing the handler.
	waitBusy(t, cmd.Process.Pid)
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want status 130", err)
	}
	if got := stderr.String(); got != "arepl run: interrupted\n" {
		t.Errorf("stderr %q, want \"arepl run: interrupted\\n\"", got)
	}
}

// TestLongOutputTruncated: at a terminal, :kernel's long listing stops
// after maxLongLines lines with a hint naming the file that holds all of
// it (issue 19, features: a pager or truncation for long outputs).
func TestLongOutputTruncated(t *testing.T) {
	p := startPty(t, t.TempDir(), "--backend", "cpu")
	at := p.waitFor(0, "[0]> ")
	p.typeText(":kernel reduce (+) 0 (map (\\x -> x * 2) (iota 10))\r")
	at = p.waitFor(at, "more lines; all of it is in ")
	rest := p.screen()[at:]
	file, _, _ := strings.Cut(rest, "\n")
	file = strings.TrimSpace(file)
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the hint's file: %v", err)
	}
	os.Remove(file)
	if n := strings.Count(string(full), "\n"); n <= maxLongLines {
		t.Errorf("the file has %d lines, not the whole listing", n)
	}
	p.typeText("\x04")
	p.wait()
}

// waitBusy waits (at most a minute) until process pid has used 0.3 s of
// CPU time, by /proc/PID/stat: by then it is well into its computation,
// past the signal.NotifyContext it does first. A Go process catches
// SIGINT from its start, so the SigCgt mask would not say that. Where
// there is no /proc, it waits a fixed half second as before.
func waitBusy(t *testing.T, pid int) {
	t.Helper()
	path := fmt.Sprintf("/proc/%d/stat", pid)
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(path)
		if err != nil {
			time.Sleep(500 * time.Millisecond)
			return
		}
		// Fields after the parenthesised command: state is field 3,
		// utime and stime fields 14 and 15, in clock ticks (100 a second).
		_, rest, _ := strings.Cut(string(b), ") ")
		f := strings.Fields(rest)
		if len(f) > 12 {
			u, _ := strconv.Atoi(f[11])
			s, _ := strconv.Atoi(f[12])
			if u+s >= 30 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d never got busy", pid)
}
