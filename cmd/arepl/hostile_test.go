package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The hostile inputs of issue 14 (items 8-13), each fed to a REPL session
// or to `arepl run` running under `ulimit -v` at 6 GB: none may end the
// session, each must be refused with a clear error that has a position,
// and the next input must still answer. The memory budget defaults to
// half the address-space limit here, 2.9 GiB.

// ulimitKB is the address-space limit, in KiB as ulimit -v takes it.
const ulimitKB = 6000000

// runLimited runs this test binary as arepl with args under the limit,
// with stdin, and returns its stdout, stderr and exit status.
func runLimited(t *testing.T, dir string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`ulimit -v %d && exec "$@"`, ulimitKB)
	cmd := exec.Command("bash", append([]string{"-c", script, "arepl", exe}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "XDG_STATE_HOME="+dir, "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), status
}

// positioned matches an error message that starts with file:line:col.
var positioned = regexp.MustCompile(`^(\S+):(\d+):(\d+): \S`)

func TestHostileREPL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sessions of several GB")
	}
	const probe = "1 + 1"
	var letChain strings.Builder
	letChain.WriteString("def chain (x: i64) =\n")
	for i := range 900 {
		fmt.Fprintf(&letChain, "  let x%d = x + %d\n", i, i)
	}
	letChain.WriteString("  in x899\nchain 1")
	inputs := []struct {
		name  string
		input string
		want  string // what stderr must contain ("" for no error)
		out   string // what stdout must show before the probe's 2
	}{
		{"deep nesting (item 8)", strings.Repeat("[", 3000000), "[0]:1:1001: expression nested too deeply", ""},
		{":load /dev/zero (item 10)", ":load /dev/zero", "/dev/zero:1:1: input longer than 64 MiB", ""},
		{"one array over the budget (item 11)", "let big = replicate 1000000000 0i64", "[0]:1:11: cannot allocate 8000000000 bytes: out of memory budget", ""},
		{"two arrays over the budget (item 11)", "let a = iota 200000000\nlet b = iota 200000000", "[1]:1:9: cannot allocate 1600000000 bytes: out of memory budget", ""},
		{"transpose of 2^31 i8 (item 12)", "let t = transpose (replicate 65537 (replicate 32768 1i8))", "cannot allocate 2147516416 bytes: out of memory budget", ""},
		{"50,000-element literal (item 13)", "length " + arrayLit(50000), "", "50000\n"},
		{"900-line let (item 13)", letChain.String(), "", "900\n"},
		{"line over 64 MiB (item 13)", strings.Repeat("1", 65<<20), "line 1", ""},
	}
	dir := t.TempDir()
	for i, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			stdin := in.input + "\n" + probe + "\n"
			start := time.Now()
			stdout, stderr, status := runLimited(t, dir, stdin, "--backend", "cpu")
			t.Logf("input %d: %v, status %d", i, time.Since(start).Round(time.Millisecond), status)
			if !strings.HasSuffix(stdout, in.out+"2\n") {
				t.Errorf("the session did not answer after the input: stdout %q\nstderr %.2000s", stdout, stderr)
			}
			if in.want == "" {
				if stderr != "" {
					t.Errorf("stderr %.2000s", stderr)
				}
				return
			}
			if !strings.Contains(stderr, in.want) {
				t.Errorf("stderr lacks %q:\n%.2000s", in.want, stderr)
			}
			if first, _, _ := strings.Cut(stderr, "\n"); !positioned.MatchString(first) {
				t.Errorf("error without a position: %.300s", first)
			}
			if strings.Contains(stderr, "internal error") || strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "goroutine ") {
				t.Errorf("stderr shows a crash: %.2000s", stderr)
			}
		})
	}
}

func arrayLit(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, i)
	}
	b.WriteString("]")
	return b.String()
}

// TestHostileRun feeds hostile values to `arepl run` under the limit:
// each is refused with a positioned error and status 1, not a crash.
func TestHostileRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sessions of several GB")
	}
	dir := t.TempDir()
	prog := "entry main (x: [][]f32) = x[5]\n"
	if err := os.WriteFile(filepath.Join(dir, "prog.fut"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, stdin, want string
		args              []string
	}{
		{"deep nesting (item 8)", strings.Repeat("[", 3000000), "<stdin>:1:1001: arrays nested more than 1000 deep", []string{"run", "prog.fut"}},
		{"shape overflow (item 9)", "empty([4611686018427387904][4]f32)", "<stdin>:1:1: empty array of shape [4611686018427387904][4] has no dimension of size 0", []string{"run", "prog.fut"}},
		{"/dev/zero program (item 10)", "", "/dev/zero:1:1: input longer than 64 MiB", []string{"run", "/dev/zero"}},
		{"input values over the budget (item 11)", "", "<stdin>:1:1: input longer than 32 MiB", []string{"run", "prog.fut", "--memory", "64MiB"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdin := c.stdin
			if strings.HasPrefix(c.name, "input values") {
				stdin = "[" + strings.Repeat("[1.0,2.0],", 40<<20/10)
			}
			stdout, stderr, status := runLimited(t, dir, stdin, c.args...)
			if status != 1 || stdout != "" {
				t.Errorf("status %d, stdout %q", status, stdout)
			}
			if !strings.Contains(stderr, c.want) || !positioned.MatchString(stderr) {
				t.Errorf("stderr %.500s\nwant %q", stderr, c.want)
			}
		})
	}
}
