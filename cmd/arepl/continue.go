package main

import (
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/source"
)

// An unfinished input goes on while eval.IsIncomplete says so, but parsing
// the whole input again for every line made a long definition quadratic
// (a 900-line `let ... in` took 21.6 s). An input is scanned once, a line
// at a time, for three signs that it certainly cannot be complete yet: an
// open bracket, a last token that no input can end with (an operator,
// `=`, `in`, `then`, ...), and a `let` starting a line with no `in` after
// it. While one of them holds, no parse is needed; the parser still
// decides every other time, and alone for the first line.
//
// The signs are sound only after a prefix already known to be
// unfinished: a `let` starting a line then begins an expression (a new
// declaration would need the prefix to be complete), which needs an `in`.

// lineScan is what the lines of the unfinished input so far show.
type lineScan struct {
	depth   int  // brackets open; < 0 after a stray closer (nothing certain)
	endCont bool // the last token cannot end an input
	letOpen bool // a line-initial `let` with no `in` after it at depth 0
	lines   int  // lines scanned
	// deepLine and deepCol locate the bracket that first nests deeper than
	// maxNesting (deepLine 0: none).
	deepLine, deepCol int
}

// maxNesting bounds the brackets an input may nest, as the parser bounds
// expressions; the scan refuses deeper input itself, since the parser
// would tokenize all of a line of millions of brackets before refusing it.
const maxNesting = 1000

// continues reports whether an input whose earlier lines were unfinished
// is certainly still unfinished.
func (s *lineScan) continues() bool {
	return s.depth > 0 || s.depth == 0 && (s.endCont || s.letOpen)
}

// contKeywords cannot end an input.
var contKeywords = map[string]bool{
	"let": true, "in": true, "if": true, "then": true, "else": true, "loop": true, "for": true,
	"while": true, "do": true, "def": true, "entry": true, "with": true, "case": true, "match": true,
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '\'' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isOpByte(c byte) bool { return strings.IndexByte("+-*/%=!<>&|^~:.\\@#$?", c) >= 0 }

// add scans one more line; cont says it continues an unfinished input.
func (s *lineScan) add(line string, cont bool) {
	s.lines++
	first := true // the next token starts the line
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '-' && strings.HasPrefix(line[i:], "--"):
			return // a comment to the end of the line
		case c == '"' || c == '\'':
			// A string or character literal: skip to its closing quote.
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			i = min(j+1, len(line))
			s.endCont = false
		case strings.IndexByte("([{", c) >= 0:
			if s.depth >= 0 {
				s.depth++
			}
			if s.depth > maxNesting && s.deepLine == 0 {
				s.deepLine, s.deepCol = s.lines, i+1
			}
			i++
			s.endCont = true
		case strings.IndexByte(")]}", c) >= 0:
			if s.depth > 0 {
				s.depth--
			} else {
				s.depth = -1
			}
			i++
			s.endCont = false
		case c == ',':
			i++
			s.endCont = true
		case isOpByte(c):
			for i < len(line) && isOpByte(line[i]) {
				i++
			}
			s.endCont = true
		case isIdentByte(c):
			j := i
			for j < len(line) && (isIdentByte(line[j]) || line[j] == '.' && j+1 < len(line) && isIdentByte(line[j+1])) {
				j++
			}
			word := line[i:j]
			i = j
			s.endCont = contKeywords[word]
			if s.depth == 0 {
				switch {
				case word == "let" && first && cont:
					s.letOpen = true
				case word == "in":
					s.letOpen = false
				}
			}
		default:
			i++
			s.endCont = false
		}
		first = false
	}
}

// inputBuffer collects the lines of one input.
type inputBuffer struct {
	lines []string
	scan  lineScan
}

// addLine adds a line to the unfinished input and reports whether the
// input is complete, returning it (and emptying the buffer) if so. Blank
// lines before an input are skipped; a blank line inside one ends it, so a
// person gets the parser's error rather than an endless continuation
// prompt. `:commands` are always one line. An input nested deeper than
// maxNesting is dropped with an error at the bracket too many (name is the
// input's name in positions).
func (b *inputBuffer) addLine(line, name string) (string, bool, error) {
	blank := strings.TrimSpace(line) == ""
	if blank && len(b.lines) == 0 {
		return "", false, nil
	}
	unfinished := len(b.lines) > 0
	b.lines = append(b.lines, line)
	command := strings.HasPrefix(strings.TrimSpace(b.lines[0]), ":")
	if !command {
		b.scan.add(line, unfinished)
	}
	if b.scan.deepLine > 0 {
		pos := source.Pos{File: name, Line: b.scan.deepLine, Col: b.scan.deepCol}
		b.reset()
		return "", false, source.Errorf(pos, "expression nested too deeply (more than %d brackets)", maxNesting)
	}
	if !blank && !command {
		if unfinished && b.scan.continues() {
			return "", false, nil
		}
		if eval.IsIncomplete(strings.Join(b.lines, "\n")) {
			return "", false, nil
		}
	}
	src := strings.Join(b.lines, "\n")
	b.reset()
	return src, true, nil
}

func (b *inputBuffer) reset() { *b = inputBuffer{} }

// pending is the unfinished input, joined.
func (b *inputBuffer) pending() string { return strings.Join(b.lines, "\n") }
