package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHistoryIsPrivate: the REPL's history holds whatever was typed; it
// must not be readable by other users, whether new or left by an older
// arepl with modes 0755/0644.
func TestHistoryIsPrivate(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	check := func(what string) {
		t.Helper()
		p := historyPath()
		if p != filepath.Join(state, "arepl", "history") {
			t.Fatalf("%s: historyPath() = %q", what, p)
		}
		for _, c := range []struct {
			path string
			mode os.FileMode
		}{{filepath.Dir(p), 0o700}, {p, 0o600}} {
			fi, err := os.Stat(c.path)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if fi.Mode().Perm() != c.mode {
				t.Errorf("%s: %s has mode %v, want %v", what, c.path, fi.Mode().Perm(), c.mode)
			}
		}
	}
	check("new")
	p := historyPath()
	os.WriteFile(p, []byte("let secret = 1\n"), 0o644)
	os.Chmod(p, 0o644)
	os.Chmod(filepath.Dir(p), 0o755)
	check("existing")
	if b, _ := os.ReadFile(p); string(b) != "let secret = 1\n" {
		t.Errorf("history changed: %q", b)
	}
}
