package futtest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestRunReport runs the runner's own test programs (testdata/runner/),
// which pass, fail and skip in every way the runner knows, and compares the
// printed report with testdata/runner.golden.
func TestRunReport(t *testing.T) {
	var planCalls []string
	opts := Options{
		Backend: "cpu",
		Fusion:  true,
		PlanCheck: func(c PlanCase) error {
			planCalls = append(planCalls, fmt.Sprintf("%s %s %v", filepath.Base(c.Path), c.Entry, c.Want))
			if c.Want["redomap"] != 1 {
				return fmt.Errorf("want %d redomaps, the fake checker has 1", c.Want["redomap"])
			}
			return nil
		},
	}
	var progress, verbose bytes.Buffer
	opts.Progress = &progress
	opts.Verbose = &verbose
	rep, err := Run(context.Background(), []string{"testdata/runner"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Write(&out)
	fmt.Fprintf(&out, "files: %d\nplan checks: %s\n", rep.Files, strings.Join(planCalls, "; "))
	got := out.String()

	golden := filepath.Join("testdata", "runner.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("report differs from %s (run with -update to accept):\n--- got\n%s--- want\n%s", golden, got, want)
	}
	for _, line := range []string{"FAIL testdata/runner/no_blocks_bad.fut (0 passed, 1 failed)\n", "ok   testdata/runner/pass.fut ("} {
		if !strings.Contains(verbose.String(), line) {
			t.Errorf("verbose output %q lacks %q", verbose.String(), line)
		}
	}
	if !strings.Contains(progress.String(), "[1/10] testdata/runner/bad_block.fut") || !strings.HasSuffix(progress.String(), "\r\x1b[K") {
		t.Errorf("progress output %q lacks the per-file line or the final clear", progress.String())
	}
}

// TestRunUnfusedSkipsPlans checks that plans are only checked with fusion on.
func TestRunUnfusedSkipsPlans(t *testing.T) {
	called := false
	opts := Options{Backend: "cpu", PlanCheck: func(PlanCase) error { called = true; return nil }}
	rep, err := Run(context.Background(), []string{"testdata/runner/mixed.fut"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if called {
		t.Error("the plan checker ran with fusion off")
	}
	if rep.Files != 1 || rep.Passed == 0 {
		t.Errorf("got %d files, %d passed; want 1 file with passing cases", rep.Files, rep.Passed)
	}
}

func TestRunMissingPath(t *testing.T) {
	if _, err := Run(context.Background(), []string{"testdata/no-such-dir"}, Options{}); err == nil {
		t.Error("Run on a missing path succeeded")
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, []string{"testdata/runner"}, Options{Backend: "cpu"})
	if err != context.Canceled {
		t.Errorf("got error %v, want context.Canceled", err)
	}
	if rep == nil || rep.Passed != 0 {
		t.Errorf("a cancelled run reported %+v", rep)
	}
}

func TestSummary(t *testing.T) {
	for _, tt := range []struct {
		r    Report
		want string
	}{
		{Report{Passed: 3}, "3 passed, 0 failed"},
		{Report{Passed: 1, Failed: 2, Skipped: 4}, "1 passed, 2 failed, 4 skipped"},
	} {
		if got := tt.r.Summary(); got != tt.want {
			t.Errorf("Summary() = %q, want %q", got, tt.want)
		}
	}
}
