package source

import (
	"strconv"
	"strings"
	"testing"
)

// TestDetailEscapesControlCharacters: an error quoting a source line that
// holds terminal escape sequences (OSC retitling the window, CSI clearing
// the screen, a C1 CSI) must print them escaped, with the caret still
// under the column.
func TestDetailEscapesControlCharacters(t *testing.T) {
	line := "def main = x\x1b]0;pwned\x07 + \u009b2J\x1b[2J y"
	col := strings.Index(line, "y") + 1
	e := &Error{Pos: Pos{File: "f\x1b[31m.fut", Line: 1, Col: col}, Msg: "unknown name \x1b[2Jy", Line: line}
	got := e.Detail()
	want := "f\\x1b[31m.fut:1:" + strconv.Itoa(col) + ": unknown name \\x1b[2Jy\n" +
		"  | def main = x\\x1b]0;pwned\\x07 + \\u009b2J\\x1b[2J y\n" +
		"  | " + strings.Repeat(" ", len("def main = x\\x1b]0;pwned\\x07 + \\u009b2J\\x1b[2J ")) + "^"
	if got != want {
		t.Errorf("Detail:\n%q\nwant\n%q", got, want)
	}
	for i := 0; i < len(got); i++ {
		if c := got[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			t.Fatalf("raw control byte %#x at %d in %q", c, i, got)
		}
	}
	if strings.Contains(ErrorList{e}.Error(), "\x1b") {
		t.Errorf("ErrorList.Error keeps ESC: %q", ErrorList{e}.Error())
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, tabs\tand ünïcode ⍴": "plain text, tabs\tand ünïcode ⍴",
		"nul\x00 del\x7f bell\a cr\r":     `nul\x00 del\x7f bell\x07 cr\x0d`,
		"bad utf-8 \xff\xfe":              `bad utf-8 \xff\xfe`,
		"c1 \u0085 \u009b":                `c1 \u0085 \u009b`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}
