package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arepl/arepl/commands"
)

// TestEveryCommand runs every command of the shared table in the REPL,
// with its example argument, and checks that the REPL knows it and that
// it succeeds (jupyter's TestEveryCommand does the same in the kernel).
func TestEveryCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prog.fut"), []byte("def main (n: i64) = reduce (+) 0 (iota n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range commands.All() {
		t.Run(c.Name, func(t *testing.T) {
			in := "def ys = [1, 2, 3]\n"
			if c.Name == "reload" {
				in += ":load prog.fut\n"
			}
			in += strings.TrimSpace(":"+c.Name+" "+c.Example) + "\n"
			if c.Name == "input" {
				in += "[4, 5]\nxs\n"
			}
			cmd := exec.Command(exe, "--backend", "cpu")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "XDG_STATE_HOME="+dir, "NO_COLOR=1")
			cmd.Stdin = strings.NewReader(in)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			if err != nil || stderr.Len() > 0 {
				t.Errorf("%q: %v, stderr %q", in, err, stderr.String())
			}
			switch c.Name {
			case "quit", "clear":
				// They show nothing.
			case "input":
				if stdout.String() != "[4, 5]\n" {
					t.Errorf("%q printed %q, want xs bound to [4, 5]", in, stdout.String())
				}
			default:
				if stdout.Len() == 0 {
					t.Errorf("%q printed nothing", in)
				}
			}
		})
	}
}
