package futtest

import (
	"context"
	"testing"
	"time"
)

// TestCorpus runs every test program of the repository (testdata/ and
// examples/) through the real pipeline on the CPU, fused and unfused, and
// requires every case to pass. It is what `make test` relies on for the
// language's semantics.
func TestCorpus(t *testing.T) {
	for _, fused := range []bool{true, false} {
		name := "unfused"
		if fused {
			name = "fused"
		}
		t.Run(name, func(t *testing.T) {
			opts := Options{Backend: "cpu", Fusion: fused, PlanCheck: CheckFusionPlan, Timeout: time.Minute}
			rep, err := Run(context.Background(), []string{"../testdata", "../examples"}, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Failures {
				t.Error(f.String())
			}
			for _, n := range rep.Notes {
				t.Log(n)
			}
			if rep.Files < 200 {
				t.Errorf("only %d test programs; the corpus should hold at least 200", rep.Files)
			}
			t.Logf("%d files: %s", rep.Files, rep.Summary())
		})
	}
}
