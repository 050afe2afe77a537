package commands

import (
	"testing"
	"time"
)

func TestLookup(t *testing.T) {
	tests := map[string]string{
		"t": "type", "ty": "type", "ti": "time", "time": "time", "l": "load", "re": "reload",
		"s": "set", "b": "backend", "f": "fusion", "p": "plan", "pr": "print", "k": "kernel", "q": "quit",
		"h": "help", "d": "doc", "n": "names", "x": "", "": "",
	}
	for in, want := range tests {
		c, err := Lookup(in)
		got := ""
		if c != nil {
			got = c.Name
		}
		if got != want || (err == nil) != (want != "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestCompleteSet(t *testing.T) {
	st := &State{}
	for _, tc := range []struct {
		before string
		want   []string
		word   int
	}{
		{":set ", []string{"deterministic", "memory", "print-limit"}, 0},
		{":set pr", []string{"print-limit"}, 2},
		{":set deterministic o", []string{"off", "on"}, 1},
		{":backend ", []string{"auto", "cpu", "gpu"}, 0},
		{":ba", []string{"backend"}, 2},
		{":fusion of", []string{"off"}, 2},
	} {
		got, word, ok := st.Complete(tc.before)
		if !ok || word != tc.word || len(got) != len(tc.want) {
			t.Errorf("Complete(%q) = %q, %d, %v; want %q, %d", tc.before, got, word, ok, tc.want, tc.word)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Complete(%q) = %q; want %q", tc.before, got, tc.want)
			}
		}
	}
}

func TestStats(t *testing.T) {
	mean, sd, best := stats([]time.Duration{2, 4, 4, 4, 5, 5, 7, 9})
	if mean != 5 || best != 2 || sd != 2 { // sample std. dev. is 2.138..., truncated
		t.Errorf("stats = %v, %v, %v; want 5, 2, 2", mean, sd, best)
	}
}
