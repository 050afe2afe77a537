// Package source holds what every stage of the pipeline needs to talk about
// program text: files, positions, spans and positioned errors.
//
// Errors are values. A static stage (parser, checker) collects every error it
// can into an ErrorList; a run-time error is a single *Error. Error() is the
// one-line "file:line:col: message" form used by `arepl run` and the test
// runner; Detail() adds the source line with a caret under the column, which
// is what the REPL and the Jupyter kernel show. Both escape control
// characters (Printable): a source line is quoted as it was read, and a
// terminal must not interpret escape sequences planted in a file.
package source

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a position in a file. Line and Col are 1-based; Col counts bytes.
// The zero Pos means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	file := p.File
	if file == "" {
		file = "<input>"
	}
	if !p.IsValid() {
		return file
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

// Before reports whether p comes before q in the same file.
func (p Pos) Before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Span is a half-open range of text [Start, End).
type Span struct {
	Start, End Pos
}

// File is a named source text. It is kept so errors can quote the line they
// point at.
type File struct {
	Name string
	Text string
}

// NewFile returns a File for name and text.
func NewFile(name, text string) *File { return &File{Name: name, Text: text} }

// Line returns line n (1-based) without its newline, or "" when out of range.
func (f *File) Line(n int) string {
	if f == nil || n < 1 {
		return ""
	}
	text := f.Text
	for i := 1; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimRight(text, "\r")
}

// Errorf returns an error at pos whose Detail quotes the line of f.
func (f *File) Errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Line: f.Line(pos.Line)}
}

// Error is an error at a source position. Msg is one line. Line, when set,
// is the text of the source line the position points into.
type Error struct {
	Pos  Pos
	Msg  string
	Line string
}

// Errorf returns an error at pos with no quoted source line.
func Errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string { return Printable(e.Pos.String() + ": " + e.Msg) }

// Printable returns s with control characters other than tab (C0, DEL, C1)
// and invalid UTF-8 bytes written as Go escapes (\x1b, \u009b), so that
// text quoted from a file or a client cannot move the cursor, retitle the
// window or clear the screen of whoever reads the error. Printable text is
// returned unchanged.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r < 0x80 && needsEscape(r, n):
			fmt.Fprintf(&b, "\\x%02x", r)
		case needsEscape(r, n):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(r rune, n int) bool {
	return r == utf8.RuneError && n == 1 || r < 0x20 && r != '\t' || r >= 0x7f && r <= 0x9f
}

// Detail is the error with its source line and a caret under the column.
func (e *Error) Detail() string {
	if e.Line == "" || !e.Pos.IsValid() {
		return e.Error()
	}
	var b strings.Builder
	b.WriteString(e.Error())
	b.WriteString("\n  | ")
	col := min(max(e.Pos.Col-1, 0), len(e.Line))
	line, col, lead := quoteWindow(e.Line, col)
	b.WriteString(Printable(line))
	b.WriteString("\n  | ")
	// Keep tabs so the caret lines up with the quoted line, escapes
	// included.
	prefix := strings.Repeat(" ", lead) + Printable(line[lead:col])
	for i := 0; i < len(prefix); i++ {
		if prefix[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	return b.String()
}

// maxQuote is the longest source line an error quotes whole; a longer one
// is quoted as a window of this many bytes around the error's column.
const maxQuote = 100

// quoteWindow cuts a long line to a window around byte offset col, marked
// with "..." where it was cut. It returns the window, the column within
// it, and how many bytes of marker lead it.
func quoteWindow(line string, col int) (window string, wcol, lead int) {
	if len(line) <= maxQuote {
		return line, col, 0
	}
	start := max(col-maxQuote*2/3, 0)
	end := min(start+maxQuote, len(line))
	start = max(min(start, end-maxQuote), 0)
	// Cut at rune boundaries.
	for start > 0 && !utf8.RuneStart(line[start]) {
		start--
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	window = line[start:end]
	wcol = col - start
	if start > 0 {
		window, wcol, lead = "..."+window, wcol+3, 3
	}
	if end < len(line) {
		window += "..."
	}
	return window, wcol, lead
}

// ErrorList is a list of errors; a non-nil ErrorList used as an error has at
// least one element.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(e *Error) { *l = append(*l, e) }

// Sort orders the list by position and removes exact duplicates.
func (l *ErrorList) Sort() {
	sort.SliceStable(*l, func(i, j int) bool {
		a, b := (*l)[i].Pos, (*l)[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Before(b)
	})
	out := (*l)[:0]
	for i, e := range *l {
		if i > 0 && e.Pos == (*l)[i-1].Pos && e.Msg == (*l)[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

// Detail renders every error with its source line, one after the other.
func (l ErrorList) Detail() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Detail()
	}
	return strings.Join(parts, "\n")
}

// Detail renders any error for a person: positioned errors with their source
// lines, others as they are.
func Detail(err error) string {
	switch e := err.(type) {
	case *Error:
		return e.Detail()
	case ErrorList:
		return e.Detail()
	}
	return err.Error()
}
