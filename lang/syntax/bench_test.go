package syntax

import (
	"os"
	"testing"

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
