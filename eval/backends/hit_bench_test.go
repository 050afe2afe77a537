package backends

import (
	"context"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
)

// BenchmarkSessionHit times a seen expression's whole Session.Eval on the
// CPU side, over a 10-element array so that the run is negligible: what a
// module-cache hit costs outside the backend's kernels.
func BenchmarkSessionHit(b *testing.B) {
	for _, in := range []struct{ name, src string }{
		{"redomap", "reduce (+) 0 (map (\\x -> x*7+1) ys)"},
		{"scan", "let zs = scan (+) 0 ys"},
	} {
		b.Run(in.name, func(b *testing.B) {
			s := NewSession(eval.Options{Backend: "cpu", Fusion: true})
			ctx := context.Background()
			if _, err := s.Eval(ctx, "[0]", "let ys = map i32.i64 (iota 10)"); err != nil {
				b.Fatal(err)
			}
			var other, total, parse, lower, fuse, run int64
			b.ReportAllocs()
			for b.Loop() {
				r, err := s.Eval(ctx, "[1]", in.src)
				if err != nil {
					b.Fatal(err)
				}
				t := r.Timings
				other += int64(t.Other())
				total += int64(t.Total)
				parse += int64(t.Parse)
				lower += int64(t.Lower)
				fuse += int64(t.Fuse)
				run += int64(t.Run)
			}
			n := float64(b.N)
			b.ReportMetric(float64(other)/n, "other-ns")
			b.ReportMetric(float64(parse)/n, "parse-ns")
			b.ReportMetric(float64(lower)/n, "lower-ns")
			b.ReportMetric(float64(fuse)/n, "fuse-ns")
			b.ReportMetric(float64(run)/n, "run-ns")
		})
	}
}

// TestParseStageCountsSyntax checks that `:time`'s parse stage includes
// the syntax parse, not only the type check: an input whose parse is all
// its work (a long comment after a constant) must show it as parse, not as
// "other". Before, the syntax parse was left out of every stage.
func TestParseStageCountsSyntax(t *testing.T) {
	s := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	src := "1 + 2 -- " + strings.Repeat("a long comment to lex ", 20000)
	for _, in := range []string{src, "let c = " + src} {
		r, err := s.Eval(context.Background(), "[1]", in)
		if err != nil {
			t.Fatal(err)
		}
		tm := r.Timings
		if tm.Parse < 4*tm.Other() {
			t.Errorf("%.20s...: parse %v, other %v: the syntax parse is not in the parse stage", in, tm.Parse, tm.Other())
		}
	}
}
