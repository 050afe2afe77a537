package jupyter

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/arepl/arepl/commands"
	"github.com/arepl/arepl/eval"
)

// Cursor positions in the protocol (since 5.2) count Unicode code points;
// Go strings index bytes. These two functions convert, clamping to the
// text, so a client that sends UTF-16 units or an out-of-range cursor gets
// a sensible answer rather than a panic.

// byteOffset is the byte offset of code point cp in s.
func byteOffset(s string, cp int) int {
	if cp <= 0 {
		return 0
	}
	i := 0
	for n := 0; n < cp && i < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// codePoints is the number of code points in s[:b].
func codePoints(s string, b int) int {
	b = min(max(b, 0), len(s))
	return utf8.RuneCountInString(s[:b])
}

// isNameByte reports whether c can be part of a (qualified) name: Futhark
// identifiers have letters, digits, _ and ', and module members are
// written i32.max.
func isNameByte(c byte) bool { return isIdentByte(c) || c == '.' }

// keywords complete like names.
var keywords = []string{"def", "entry", "let", "in", "if", "then", "else", "loop", "for", "while",
	"do", "true", "false", "type", "with", "case", "match", "local", "open", "module", "import"}

// completion is one candidate with its kind and type, for
// complete_reply's matches and JupyterLab's typed completion metadata.
type completion struct {
	text, kind, typ string
}

// complete returns the candidates for the token before byte offset cur of
// code, and the byte offset where that token starts.
func (e *evaluator) complete(code string, cur int) (start int, cands []completion) {
	cur = min(max(cur, 0), len(code))
	lineStart := strings.LastIndexByte(code[:cur], '\n') + 1
	if s, cs, ok := e.completeCommand(code[lineStart:cur]); ok {
		return lineStart + s, cs
	}
	start = cur
	for start > 0 && isNameByte(code[start-1]) {
		start--
	}
	// A :command at the start of a line.
	if start > 0 && code[start-1] == ':' && (start == 1 || code[start-2] == '\n') {
		prefix := code[start:cur]
		for _, c := range commands.All() {
			if strings.HasPrefix(c.Name, prefix) {
				cands = append(cands, completion{text: ":" + c.Name, kind: "command", typ: c.Args})
			}
		}
		return start - 1, cands
	}
	prefix := code[start:cur]
	seen := map[string]bool{}
	for _, n := range e.s.Names() {
		if strings.HasPrefix(n.Name, prefix) && !seen[n.Name] {
			seen[n.Name] = true
			cands = append(cands, completion{text: n.Name, kind: nameKind(n.Kind), typ: n.Type})
		}
	}
	if prefix != "" {
		for _, k := range keywords {
			if strings.HasPrefix(k, prefix) && !seen[k] {
				seen[k] = true
				cands = append(cands, completion{text: k, kind: "keyword"})
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].text < cands[j].text })
	return start, cands
}

// completeCommand completes the argument of a :command line (line is
// the text of the line before the cursor) as the command's table entry
// says: file names for :load, settings for :set, and so on. start is
// where the word being completed begins in line.
func (e *evaluator) completeCommand(line string) (start int, cands []completion, ok bool) {
	if !strings.HasPrefix(line, ":") || !strings.Contains(line, " ") {
		return 0, nil, false
	}
	words, n, ok := e.st.Complete(line)
	if !ok {
		return 0, nil, false
	}
	for _, w := range words {
		kind := "value"
		if strings.Contains(w, "/") || strings.HasSuffix(w, ".fut") {
			kind = "path"
		}
		cands = append(cands, completion{text: w, kind: kind})
	}
	return len(line) - n, cands, true
}

func nameKind(k eval.NameKind) string {
	switch k {
	case eval.UserName:
		return "variable"
	case eval.BuiltinName:
		return "function"
	case eval.ModuleName:
		return "module"
	}
	return "unknown"
}

// nameAt is the (qualified) name around byte offset cur, or "".
func nameAt(code string, cur int) string {
	cur = min(max(cur, 0), len(code))
	start, end := cur, cur
	for start > 0 && isNameByte(code[start-1]) {
		start--
	}
	for end < len(code) && isNameByte(code[end]) {
		end++
	}
	return strings.Trim(code[start:end], ".")
}

// inspect describes the name under the cursor, or the :command.
func (e *evaluator) inspect(code string, cur int) (string, bool) {
	name := nameAt(code, cur)
	if name == "" {
		return "", false
	}
	if n, ok := e.s.Lookup(name); ok {
		return commands.Describe(n), true
	}
	start := strings.LastIndex(code[:min(max(cur, 0), len(code))], name)
	if start > 0 && code[start-1] == ':' {
		if c, err := commands.Lookup(name); err == nil {
			return ":" + c.Name + " " + c.Args + "\n" + c.Help, true
		}
	}
	return "", false
}

// isComplete classifies code for is_complete_request: "incomplete" when
// the parser says more input is needed, "invalid" when a bracket closes
// that never opened (no more input can fix that), else "complete".
func isComplete(code string) string {
	if strings.TrimSpace(code) == "" {
		return "complete"
	}
	if unbalancedClose(code) {
		return "invalid"
	}
	// A cell ending in a :command line is complete: commands are one line.
	lines := strings.Split(strings.TrimRight(code, "\n"), "\n")
	if strings.HasPrefix(lines[len(lines)-1], ":") {
		return "complete"
	}
	if eval.IsIncomplete(code) {
		return "incomplete"
	}
	return "complete"
}

// unbalancedClose reports whether code closes a bracket it never opened or
// closes one with the wrong kind, outside comments and literals.
func unbalancedClose(code string) bool {
	var stack []byte
	pairs := map[byte]byte{')': '(', ']': '[', '}': '{'}
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '-' && i+1 < len(code) && code[i+1] == '-':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case c == '"':
			for i++; i < len(code) && code[i] != '"' && code[i] != '\n'; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, c)
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {
				return true
			}
			stack = stack[:len(stack)-1]
		}
	}
	return false
}
