package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// lineReader reads lines of at most max bytes; a longer line is an error
// (lineTooLongError) that leaves the reader at the next line, so a REPL
// reading a pipe survives a line of gigabytes without holding it.
type lineReader struct {
	r    *bufio.Reader
	max  int
	line int // number of the line last read
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// lineTooLongError reports a line over the bound.
type lineTooLongError struct {
	line int
	max  int
}

func (e *lineTooLongError) Error() string {
	return fmt.Sprintf("<stdin>:%d:1: line %d is longer than %d MiB; it was skipped", e.line, e.line, e.max>>20)
}

// next returns the next line without its newline, or io.EOF at the end.
func (l *lineReader) next() (string, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > l.max+1 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (err != io.EOF || len(buf) == 0 && !tooLong) {
			return "", err
		}
		l.line++
		if tooLong {
			return "", &lineTooLongError{line: l.line, max: l.max}
		}
		n := len(buf)
		if n > 0 && buf[n-1] == '\n' {
			n--
			if n > 0 && buf[n-1] == '\r' {
				n--
			}
		}
		return string(buf[:n]), nil
	}
}
