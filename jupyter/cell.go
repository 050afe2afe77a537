package jupyter

import (
	"strings"

	"github.com/arepl/arepl/eval"
)

// An item is one input of a cell: a `:command` line, a run of
// declarations, or an expression. Line is the cell line (1-based) where it
// starts, so errors can point into the cell.
type item struct {
	kind itemKind
	text string
	line int
}

type itemKind int

const (
	commandItem itemKind = iota
	declItem
	exprItem
)

// declKeywords start a top-level declaration when they begin a line.
var declKeywords = []string{"def", "let", "entry", "type", "local", "open", "import", "module"}

// continuationStarts are line prefixes that continue the input above even
// at column 0: the rest of a let, if or loop, an infix operator, or a
// closing bracket.
var continuationStarts = []string{
	"in ", "then ", "else ", "do ", "in\t", "then\t", "else\t", "do\t",
	"|>", "<|", "++", "+", "*", "/", "%", "==", "!=", "<", ">", "&&", "||", "&", "|", "^", "<<", ">>",
	")", "]", "}", ",", "--",
}

var continuationWords = []string{"in", "then", "else", "do"}

// splitCell divides a cell into items. A cell reads like a REPL session
// written down: each `:command` takes one line; a line at column 0 that
// starts with a declaration keyword starts a declaration; any other line
// at column 0 starts an expression, unless it continues the input above
// (see continuationStarts) or the input above is unfinished as the parser
// says (eval.IsIncomplete). Indented and blank lines always continue.
func splitCell(cell string) []item {
	var items []item
	var cur *item
	var b strings.Builder
	end := func() {
		if cur != nil {
			cur.text = strings.TrimRight(b.String(), " \t\r\n")
			items = append(items, *cur)
			cur = nil
			b.Reset()
		}
	}
	lines := strings.Split(cell, "\n")
	for i, line := range lines {
		trimmed := strings.TrimRight(line, "\r")
		continues := cur != nil && cur.kind != commandItem &&
			(trimmed == "" || trimmed[0] == ' ' || trimmed[0] == '\t' || isContinuation(trimmed) ||
				eval.IsIncomplete(b.String()))
		switch {
		case continues:
			b.WriteString(line)
			b.WriteByte('\n')
			continue
		case strings.TrimSpace(trimmed) == "" || strings.HasPrefix(strings.TrimSpace(trimmed), "--"):
			// Blank lines and comments before any input belong to none.
			continue
		case strings.HasPrefix(trimmed, ":"):
			end()
			items = append(items, item{kind: commandItem, text: strings.TrimSpace(trimmed), line: i + 1})
			continue
		}
		end()
		kind := exprItem
		if startsWithKeyword(trimmed, declKeywords) {
			kind = declItem
		}
		cur = &item{kind: kind, line: i + 1}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	end()
	return mergeDecls(items)
}

// mergeDecls joins adjacent declaration items into one, so a group of
// definitions is checked and added together, as a file would be.
func mergeDecls(items []item) []item {
	var out []item
	for _, it := range items {
		if n := len(out); n > 0 && it.kind == declItem && out[n-1].kind == declItem {
			prev := &out[n-1]
			gap := it.line - (prev.line + strings.Count(prev.text, "\n") + 1)
			prev.text += strings.Repeat("\n", gap+1) + it.text
			continue
		}
		out = append(out, it)
	}
	return out
}

func isContinuation(line string) bool {
	if startsWithKeyword(line, continuationWords) {
		return true
	}
	for _, p := range continuationStarts {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// startsWithKeyword reports whether line begins with one of words followed
// by the end of the line or a non-identifier character.
func startsWithKeyword(line string, words []string) bool {
	for _, w := range words {
		if !strings.HasPrefix(line, w) {
			continue
		}
		rest := line[len(w):]
		if rest == "" || !isIdentByte(rest[0]) {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '\'' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
