package syntax

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arepl/arepl/lang/source"
)

// BenchmarkBuild measures building the participle parsers, which the
// parser pool amortises.
func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		newParser()
	}
}

// BenchmarkParseFile parses the largest test program.
func BenchmarkParseFile(b *testing.B) {
	text, err := os.ReadFile("testdata/files/program.fut")
	if err != nil {
		b.Fatal(err)
	}
	f := source.NewFile("program.fut", string(text))
	for b.Loop() {
		if _, err := ParseFile(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseInput parses a typical REPL line.
func BenchmarkParseInput(b *testing.B) {
	f := source.NewFile("in", "reduce (+) 0 (map (\\x -> x * 2 + 1) (iota 1000))")
	for b.Loop() {
		if _, err := ParseInput(f); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the CPU time this process has used (user and system). The
// long-input benchmarks report it per operation beside the wall time,
// which on a shared machine counts waiting for a core too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchParse parses f b.N times and reports CPU seconds per parse.
func benchParse(b *testing.B, f *source.File) {
	start := cpuTime()
	n := 0
	for b.Loop() {
		if _, err := ParseFile(f); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric((cpuTime()-start).Seconds()/float64(n), "cpu-s/op")
}

// BenchmarkParseLongSum parses a sum of 20,000 literal terms: the parser
// must take time linear in the input (issue 17 asks for under 0.2 s).
func BenchmarkParseLongSum(b *testing.B) {
	benchParse(b, source.NewFile("sum.fut", "def main = "+strings.Repeat("1 + ", 19999)+"1\n"))
}

// BenchmarkParseLongArray parses an array literal of 100,000 elements.
func BenchmarkParseLongArray(b *testing.B) {
	benchParse(b, source.NewFile("arr.fut", "def main = ["+strings.Repeat("1, ", 99999)+"1]\n"))
}
