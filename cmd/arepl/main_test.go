package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The CLI is tested by running the real command on scripts in
// ../../testdata/repl/*.txt. Each script is a sequence of sections
// introduced by `-- NAME --` lines (text before the first is a comment):
//
//	-- args --        the command line, split on spaces (empty: the REPL)
//	-- stdin --       what the command reads
//	-- stdout --      what it must print on stdout, exactly
//	-- stderr --      (optional) what it must print on stderr, exactly
//	-- stderr-has --  (optional) lines that stderr must contain (for long
//	                  usage texts, whose exact form is not the point)
//	-- status --      (optional) the exit status, 0 when absent
//	-- file NAME --   a file written beside the command before it runs
//
// With -update the stdout, stderr and status sections are rewritten from
// what the command did.
//
// The test binary runs the command itself: with AREPL_TEST_MAIN set it
// behaves as arepl, so no separate build is needed.

var update = flag.Bool("update", false, "rewrite the expected output of testdata/repl scripts")

func TestMain(m *testing.M) {
	if os.Getenv("AREPL_TEST_MAIN") != "" {
		os.Exit(mainStatus(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// section is one `-- name --` part of a script.
type section struct {
	name, body string
}

func parseScript(text string) (comment string, sections []section) {
	cur := -1
	var b strings.Builder
	flush := func() {
		if cur < 0 {
			comment = b.String()
		} else {
			sections[cur].body = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			sections = append(sections, section{name: t[3 : len(t)-3]})
			cur = len(sections) - 1
			continue
		}
		b.WriteString(line)
	}
	flush()
	return comment, sections
}

func formatScript(comment string, sections []section) string {
	var b strings.Builder
	b.WriteString(comment)
	for _, s := range sections {
		b.WriteString("-- " + s.name + " --\n")
		b.WriteString(s.body)
	}
	return b.String()
}

func TestScripts(t *testing.T) {
	files, err := filepath.Glob("../../testdata/repl/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in testdata/repl: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			runScript(t, file)
		})
	}
}

func runScript(t *testing.T, file string) {
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	comment, sections := parseScript(string(text))
	dir := t.TempDir()
	var args []string
	var stdin string
	for _, s := range sections {
		switch {
		case s.name == "args":
			args = strings.Fields(s.body)
		case s.name == "stdin":
			stdin = s.body
		case strings.HasPrefix(s.name, "file "):
			name := strings.TrimPrefix(s.name, "file ")
			if err := os.WriteFile(filepath.Join(dir, name), []byte(s.body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "XDG_STATE_HOME="+dir, "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	status := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		status = ee.ExitCode()
	}
	got := map[string]string{
		"stdout": stdout.String(),
		"stderr": stderr.String(),
		"status": strconv.Itoa(status) + "\n",
	}
	if *update {
		have := map[string]bool{}
		for i, s := range sections {
			if g, ok := got[s.name]; ok {
				sections[i].body = g
				have[s.name] = true
			}
		}
		for _, name := range []string{"stdout", "stderr", "status"} {
			if name == "stderr" && hasSection(sections, "stderr-has") {
				continue
			}
			if !have[name] && (name == "stdout" || got[name] != map[string]string{"stderr": "", "status": "0\n"}[name]) {
				sections = append(sections, section{name: name, body: got[name]})
			}
		}
		if err := os.WriteFile(file, []byte(formatScript(comment, sections)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := map[string]string{"status": "0\n"}
	for _, s := range sections {
		want[s.name] = s.body
		if s.name == "stderr-has" {
			for _, line := range strings.Split(strings.TrimSpace(s.body), "\n") {
				if !strings.Contains(got["stderr"], line) {
					t.Errorf("%s: stderr lacks %q:\n%s", file, line, got["stderr"])
				}
			}
		}
	}
	for _, name := range []string{"stdout", "stderr", "status"} {
		w, ok := want[name]
		if !ok {
			continue
		}
		if got[name] != w {
			t.Errorf("%s: %s:\n got: %q\nwant: %q", file, name, got[name], w)
		}
	}
}

func hasSection(sections []section, name string) bool {
	for _, s := range sections {
		if s.name == name {
			return true
		}
	}
	return false
}

func TestVersion(t *testing.T) {
	if v := versionString(); !strings.HasPrefix(v, "arepl "+version) {
		t.Errorf("versionString() = %q, want it to start with %q", v, "arepl "+version)
	} else if !strings.Contains(v, "CPU vector kernels: ") {
		t.Errorf("versionString() = %q does not say which CPU vector kernels run", v)
	}
}

func TestLastWord(t *testing.T) {
	tests := map[string]string{
		"map (f32.sq": "f32.sq", "reduce (+) 0 xs": "xs", "x + ": "", "i32.": "i32.", "foo'": "foo'",
	}
	for in, want := range tests {
		if got := lastWord(in); got != want {
			t.Errorf("lastWord(%q) = %q, want %q", in, got, want)
		}
	}
}
