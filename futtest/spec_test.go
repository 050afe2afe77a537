package futtest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// dump renders a Spec compactly for table tests.
func dump(s *Spec) string {
	var parts []string
	for _, b := range s.Blocks {
		var p []string
		p = append(p, fmt.Sprintf("block@%d entries=%s", b.Line, strings.Join(b.Entries, ",")))
		if b.LoadError != nil {
			p = append(p, fmt.Sprintf("loaderror=%q", b.LoadError.Text))
		}
		for _, c := range b.Cases {
			q := fmt.Sprintf("case%d@%d in=%q", c.Index, c.Line, strings.Join(strings.Fields(c.Input), " "))
			if c.Name != "" {
				q += fmt.Sprintf(" name=%q", c.Name)
			}
			if c.HasOutput {
				q += fmt.Sprintf(" out=%q", strings.Join(strings.Fields(c.Output), " "))
			}
			if c.Error != nil {
				q += fmt.Sprintf(" err=%q", c.Error.Text)
			}
			if c.Script {
				q += " script"
			}
			if c.Auto {
				q += " auto"
			}
			if c.InputFile != "" {
				q += " infile=" + c.InputFile
			}
			if c.OutputFile != "" {
				q += " outfile=" + c.OutputFile
			}
			if c.Skip != "" {
				q += fmt.Sprintf(" skip=%q", c.Skip)
			}
			p = append(p, q)
		}
		if b.Plan != nil {
			var kinds []string
			for k, n := range b.Plan {
				kinds = append(kinds, fmt.Sprintf("%s=%d", k, n))
			}
			sort.Strings(kinds)
			p = append(p, fmt.Sprintf("plan@%d %s", b.PlanLine, strings.Join(kinds, ",")))
		}
		for _, sk := range b.Skipped {
			p = append(p, fmt.Sprintf("skipped@%d %s", sk.Line, sk.What))
		}
		parts = append(parts, strings.Join(p, "; "))
	}
	return strings.Join(parts, " | ")
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"no blocks", "-- just a comment\ndef main = 1\n", ""},
		{"one line case",
			"-- ==\n-- input { 1 2 } output { 3 }\nentry main (x: i32) (y: i32) = x + y\n",
			`block@1 entries=main; case0@2 in="1 2" out="3"`},
		{"description and several cases",
			"-- Adds.\n-- ==\n-- input { 1 } output { 2 }\n-- input { [1, 2] }\n-- output { [2, 3] }\ndef f = 0\n",
			`block@2 entries=main; case0@3 in="1" out="2"; case1@4 in="[1, 2]" out="[2, 3]"`},
		{"values over several lines",
			"-- ==\n-- input {\n--   [1,\n--    2]\n-- }\n-- output {\n--   3\n-- }\n",
			`block@1 entries=main; case0@2 in="[1, 2]" out="3"`},
		{"entry list",
			"-- ==\n-- entry: f g\n-- input { 1 } output { 1 }\n",
			`block@1 entries=f,g; case0@3 in="1" out="1"`},
		{"run-time error",
			"-- ==\n-- input { 5 } error: index .* out of bounds\n",
			`block@1 entries=main; case0@2 in="5" err="index .* out of bounds"`},
		{"error on its own line",
			"-- ==\n-- input { 0 }\n-- error: division by zero\n",
			`block@1 entries=main; case0@2 in="0" err="division by zero"`},
		{"load error",
			"-- ==\n-- error: type .* mismatch\nentry main = 1 + true\n",
			`block@1 entries=main; loaderror="type .* mismatch"`},
		{"any load error",
			"-- ==\n-- error:\n",
			`block@1 entries=main; loaderror=""`},
		{"success without output",
			"-- ==\n-- input { 1 }\n-- input { 2 } output { 2 }\n",
			`block@1 entries=main; case0@2 in="1"; case1@3 in="2" out="2"`},
		{"named case and tags",
			"-- ==\n-- tags { slow }\n-- \"small\" input { 1 } output { 1 }\n-- nobench input { 2 } output { 2 }\n",
			`block@1 entries=main; case0@3 in="1" name="small" out="1"; case1@4 in="2" out="2"`},
		{"script, file and skipped cases",
			"-- ==\n-- random input { [100]i32 } auto output\n-- compiled input { 1 } output { 1 }\n" +
				"-- script input { mk 10 } output { 1 }\n-- input @ data/big.in output @ data/big.out\n-- input { 1 } auto output\n",
			`block@1 entries=main; case0@2 in="[100]i32" auto; case1@3 in="1" out="1"; ` +
				`case2@4 in="mk 10" out="1" script; case3@5 in="" out="" infile=data/big.in outfile=data/big.out; ` +
				`case4@6 in="1" auto`},
		{"structure, warning and plan",
			"-- ==\n-- input { 1 } output { 1 }\n-- structure gpu { SegMap 1 Screma/Redomap 0 }\n-- warning: unused\n-- plan { redomap 1 scanomap 0 }\n",
			`block@1 entries=main; case0@2 in="1" out="1"; plan@5 redomap=1,scanomap=0; skipped@3 structure block (Futhark's IR checks); skipped@4 warning check`},
		{"several blocks",
			"-- ==\n-- entry: a\n-- input { 1 } output { 1 }\nentry a (x: i32) = x\n\n-- B.\n-- ==\n-- entry: b\n-- input { 2 } output { 4 }\nentry b (x: i32) = x * 2\n",
			`block@1 entries=a; case0@3 in="1" out="1" | block@7 entries=b; case0@9 in="2" out="4"`},
		{"block ends at code",
			"-- ==\n-- input { 1 } output { 1 }\ndef x = 1\n-- input { not part of a block\n",
			`block@1 entries=main; case0@2 in="1" out="1"`},
		{"windows line endings",
			"-- ==\r\n-- input { 1 } output { 1 }\r\n",
			`block@1 entries=main; case0@2 in="1" out="1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, err := Parse("t.fut", tt.src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := dump(spec); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unclosed input", "-- ==\n-- input { 1\n", "t.fut:2:1: unclosed { after input"},
		{"missing braces", "-- ==\n-- input 1 output 2\n", "t.fut:2:1: expected { after input"},
		{"bad regex", "-- ==\n-- input { 1 } error: (unclosed\n", "t.fut:2:1: bad error regex"},
		{"stray word", "-- ==\n-- frobnicate: 3\n", `t.fut:2:1: unexpected "frobnicate:" in test block`},
		{"load error after cases", "-- ==\n-- input { 1 } output { 1 }\n-- \n-- error: x\n", "t.fut:4:1: error: must follow an input"},
		{"empty entry list", "-- ==\n-- entry:\n-- input { 1 }\n", "t.fut:2:1: entry: names no entry point"},
		{"bad plan", "-- ==\n-- plan { redomap one }\n", `t.fut:2:1: plan: count of redomap is "one"`},
		{"odd plan", "-- ==\n-- plan { redomap }\n", "t.fut:2:1: plan: want pairs"},
		{"auto without output", "-- ==\n-- input { 1 } auto\n", "t.fut:2:1: expected output after auto"},
		{"unterminated name", "-- ==\n-- \"oops input { 1 }\n", "t.fut:2:1: unterminated case description"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.fut", tt.src)
			if err == nil {
				t.Fatalf("Parse succeeded, want error %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got error %q, want it to start with %q", err.Error(), tt.want)
			}
		})
	}
}

// FuzzParse checks that no block text makes Parse panic.
func FuzzParse(f *testing.F) {
	f.Add("-- ==\n-- input { 1 } output { 1 }\n")
	f.Add("-- ==\n-- \"x\" random input { [1]i32 } auto output\n-- plan { a 1 }\n")
	f.Add("-- ==\n-- error:\n-- ==\n-- input @ f\n")
	f.Fuzz(func(t *testing.T, src string) {
		spec, err := Parse("f.fut", src)
		if err == nil && spec == nil {
			t.Fatal("nil spec without an error")
		}
	})
}
