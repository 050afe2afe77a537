package viz

import "strings"

// StepVideo rewrites futhark literate's second form of :video, a triple
// (step, state, frames) with step : s -> (img, s), into an expression
// whose value is the 3-D array of frames: a loop that applies step frames
// times and writes each image into an array shaped like the first. The
// rewrite is textual because a tuple cannot hold a function in arepl's
// language; the names it introduces start with video_ and cannot capture
// the user's, since STEP, STATE and FRAMES are parenthesized and
// evaluated before them. ok is false when expr is not a parenthesized
// triple, which leaves it an ordinary expression (a 3-D array).
func StepVideo(expr string) (rewritten string, ok bool) {
	parts, ok := splitTriple(strings.TrimSpace(expr))
	if !ok {
		return "", false
	}
	step, state, frames := "("+parts[0]+")", "("+parts[1]+")", "("+parts[2]+")"
	return "let video_n = " + frames + " in let video_s0 = " + state +
		" in let (video_img0, _) = " + step + " video_s0" +
		" in (loop (video_acc, video_s) = (replicate video_n video_img0, video_s0) for video_i < video_n do" +
		" let (video_img, video_s2) = " + step + " video_s in (video_acc with [video_i] = video_img, video_s2)).0", true
}

// splitTriple splits "(a, b, c)" at its top-level commas.
func splitTriple(s string) ([]string, bool) {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return nil, false
	}
	var parts []string
	depth, start := 0, 1
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 && i != len(s)-1 {
				return nil, false // "(a) + (b)": not one parenthesized whole
			}
		case c == ',' && depth == 1:
			parts = append(parts, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	parts = append(parts, strings.TrimSpace(s[start:len(s)-1]))
	if len(parts) != 3 {
		return nil, false
	}
	return parts, true
}
