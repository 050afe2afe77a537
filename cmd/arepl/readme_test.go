package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestREADMETranscript checks the README's REPL transcript (the first
// block that starts with "$ arepl") against the real REPL: its inputs,
// the lines after a prompt, are fed to `arepl --echo`, which prints the
// prompts, inputs, results and errors in order as a terminal shows them,
// and the block must be exactly that. With -update the block is rewritten
// (issue 19, defect 7: the transcript had drifted from the REPL).
func TestREADMETranscript(t *testing.T) {
	const path = "../../README.md"
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const open = "```\n$ arepl\n"
	start := strings.Index(string(text), open)
	if start < 0 {
		t.Fatal("README has no block starting with $ arepl")
	}
	start += len(open)
	end := strings.Index(string(text[start:]), "```\n")
	if end < 0 {
		t.Fatal("README's transcript block does not end")
	}
	block := string(text[start : start+end])
	var in strings.Builder
	for _, line := range strings.SplitAfter(block, "\n") {
		if i := strings.Index(line, "> "); i > 0 && (line[0] == '[' && line[i-1] == ']' || strings.HasPrefix(line, "...> ")) {
			in.WriteString(line[i+2:])
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "--echo", "--backend", "cpu")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "XDG_STATE_HOME="+cmd.Dir, "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(in.String())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run() // the transcript may end in an error on purpose
	if *update {
		updated := string(text[:start]) + out.String() + string(text[start+end:])
		if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if out.String() != block {
		t.Errorf("README transcript differs from the REPL (go test -run TestREADMETranscript -update rewrites it):\n got:\n%s\nwant:\n%s", out.String(), block)
	}
}

// TestTourComments runs the inputs that examples/tour.fut suggests in its
// opening comment, with the tour loaded, and checks that the REPL numbers
// them as the comment does and that none fails (issue 19, defect 7: the
// comment numbered from [1], and its last input wrapped around).
func TestTourComments(t *testing.T) {
	text, err := os.ReadFile("../../examples/tour.fut")
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	var in strings.Builder
	for _, line := range strings.Split(string(text), "\n") {
		rest, ok := strings.CutPrefix(line, "--")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if i := strings.Index(rest, "]> "); strings.HasPrefix(rest, "[") && i > 0 {
			prompts = append(prompts, rest)
			in.WriteString(rest[i+3:] + "\n")
		}
	}
	if len(prompts) < 5 {
		t.Fatalf("tour.fut suggests %d inputs; the test reads `--   [N]> input` lines", len(prompts))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "--echo", "--backend", "cpu", "../../examples/tour.fut")
	cmd.Env = append(os.Environ(), "AREPL_TEST_MAIN=1", "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1")
	cmd.Stdin = strings.NewReader(in.String())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || errOut.Len() > 0 {
		t.Fatalf("the tour's inputs failed: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(out.String(), "\n")
	for _, p := range prompts {
		found := false
		for len(lines) > 0 && !found {
			found = lines[0] == p
			lines = lines[1:]
		}
		if !found {
			t.Errorf("the REPL did not show %q:\n%s", p, out.String())
			break
		}
	}
	// The sum of the squares below 1_000_000, not a wrapped-around one.
	if !strings.Contains(out.String(), "\n333332833333500000\n") {
		t.Errorf("the tour's last input did not give the true sum of squares:\n%s", out.String())
	}
}
