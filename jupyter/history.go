package jupyter

import (
	"regexp"
	"strings"
	"sync"
)

// history is the list of executed cells, for history_request. It lives in
// memory: a kernel process is one session (number 1 is reserved for it,
// as ipykernel numbers the current session).
type history struct {
	mu      sync.Mutex
	n       int // the execution counter
	entries []histEntry
}

type histEntry struct {
	line   int
	input  string
	output string // the text/plain of the result, "" for none
}

const histSession = 1

// count is the current execution count.
func (h *history) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// next increments the counter and returns it.
func (h *history) next() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n++
	return h.n
}

// add records the cell executed as number line.
func (h *history) add(line int, input, output string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, histEntry{line: line, input: input, output: output})
}

// histRequest is the content of a history_request.
type histRequest struct {
	Output     bool   `json:"output"`
	Raw        bool   `json:"raw"`
	AccessType string `json:"hist_access_type"`
	Session    int    `json:"session"`
	Start      int    `json:"start"`
	Stop       int    `json:"stop"`
	N          *int   `json:"n"`
	Pattern    string `json:"pattern"`
	Unique     bool   `json:"unique"`
}

// query answers a history request with [session, line, input] triples
// (or [session, line, [input, output]] when Output).
func (h *history) query(r histRequest) []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sel []histEntry
	switch r.AccessType {
	case "range":
		if r.Session != 0 && r.Session != histSession && r.Session != -1 {
			break
		}
		for _, e := range h.entries {
			if e.line >= r.Start && (r.Stop <= 0 || e.line < r.Stop) {
				sel = append(sel, e)
			}
		}
	case "search":
		pattern := r.Pattern
		if pattern == "" {
			pattern = "*"
		}
		re := globRegexp(pattern)
		seen := map[string]bool{}
		// Walk newest first so unique keeps the latest of equal inputs.
		for i := len(h.entries) - 1; i >= 0; i-- {
			e := h.entries[i]
			if !re.MatchString(e.input) {
				continue
			}
			if r.Unique && seen[e.input] {
				continue
			}
			seen[e.input] = true
			sel = append(sel, e)
		}
		reverse(sel)
		sel = tail(sel, r.N)
	default: // "tail", and anything unknown
		sel = tail(h.entries, r.N)
	}
	out := make([]any, 0, len(sel))
	for _, e := range sel {
		if r.Output {
			var o any
			if e.output != "" {
				o = e.output
			}
			out = append(out, []any{histSession, e.line, []any{e.input, o}})
		} else {
			out = append(out, []any{histSession, e.line, e.input})
		}
	}
	return out
}

func tail(es []histEntry, n *int) []histEntry {
	if n != nil && *n >= 0 && *n < len(es) {
		return es[len(es)-*n:]
	}
	return es
}

func reverse(es []histEntry) {
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
}

// globRegexp compiles a history search pattern: * matches any text (new
// lines included) and ? one character, as IPython's history search does.
func globRegexp(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?s)^")
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
