package jupyter

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/arepl/arepl/commands"
	"github.com/arepl/arepl/lang/source"
)

// The `:commands` of a cell are package commands' table, the same the
// REPL serves: this file runs them and shows their replies as Jupyter
// messages, and implements the table's UI on a cell's output.

// argSource names the text of a command's argument in positions; the
// evaluator moves such positions to the command's place in the cell.
const argSource = "<:arg>"

// command runs one `:command` line. Errors in the argument (an expression
// for :type, :print or :plan) point into the cell: name, the cell line,
// and the column within the whole command line.
func (e *evaluator) command(ctx context.Context, name string, it item, out output) error {
	e.st.UI = cellUI{out}
	e.st.ArgName = argSource
	cmd, rest, _ := strings.Cut(strings.TrimPrefix(it.text, ":"), " ")
	if _, err := commands.Lookup(cmd); err != nil {
		return commandError(err.Error())
	}
	reply, err := e.st.Run(ctx, it.text)
	off := len(it.text) - len(strings.TrimLeft(rest, " \t"))
	if err == nil {
		showReply(cellPositions(reply, cmd, name, it.line, off), out)
		return nil
	}
	var list source.ErrorList
	var one *source.Error
	if !errors.As(err, &list) && !errors.As(err, &one) && !errors.Is(err, context.Canceled) {
		return commandError(err.Error())
	}
	return mapErrors(err, func(x *source.Error) *source.Error {
		if x.Pos.File != argSource {
			return x
		}
		y := *x
		y.Pos.File = name
		if y.Pos.IsValid() {
			y.Pos.Line += it.line - 1
			y.Pos.Col += off
			y.Line = it.text
		}
		return &y
	})
}

// argPos is a position in a command's argument as replies quote it
// (`:kernel`'s comments, `:plan`'s gpu lines; escaped in SVG), and placeAt is a plan's
// description of an unnamed SOAC ("the map at 1:13").
var (
	argPos  = regexp.MustCompile(`(?:` + regexp.QuoteMeta(argSource) + `|` + regexp.QuoteMeta(html.EscapeString(argSource)) + `):(\d+):(\d+)`)
	placeAt = regexp.MustCompile(`\bat (\d+):(\d+)\b`)
)

// cellPositions moves the positions a reply quotes from the command's
// argument to the cell, named as the cell's errors are, so a plan names
// `[3]:2:19` rather than `<:arg>:1:13`.
func cellPositions(r commands.Reply, cmd, cell string, line, off int) commands.Reply {
	move := func(l, c string) (int, int) {
		ln, _ := strconv.Atoi(l)
		col, _ := strconv.Atoi(c)
		if ln == 1 {
			col += off
		}
		return ln + line - 1, col
	}
	fix := func(s string) string {
		s = argPos.ReplaceAllStringFunc(s, func(m string) string {
			g := argPos.FindStringSubmatch(m)
			l, c := move(g[1], g[2])
			return fmt.Sprintf("%s:%d:%d", cell, l, c)
		})
		if cmd != "plan" {
			return s
		}
		return placeAt.ReplaceAllStringFunc(s, func(m string) string {
			g := placeAt.FindStringSubmatch(m)
			l, c := move(g[1], g[2])
			return fmt.Sprintf("at %d:%d", l, c)
		})
	}
	r.Text = fix(r.Text)
	if len(r.Data) > 0 {
		data := make(map[string]any, len(r.Data))
		for k, v := range r.Data {
			if s, ok := v.(string); ok {
				v = fix(s)
			}
			data[k] = v
		}
		r.Data = data
	}
	return r
}

// showReply shows a command's reply: its rich data as display data (with
// the text as text/plain), long text in the pager, other text as a
// stream.
func showReply(r commands.Reply, out output) {
	switch {
	case len(r.Data) > 0:
		b := bundle{"text/plain": r.Text}
		for k, v := range r.Data {
			if raw, ok := v.([]byte); ok {
				v = base64.StdEncoding.EncodeToString(raw)
			}
			b[k] = v
		}
		out.display(b)
	case r.Long:
		out.page(bundle{"text/plain": r.Text + "\n"})
	case r.Stderr:
		out.stream("stderr", r.Text+"\n")
	case r.Text != "":
		out.stream("stdout", r.Text+"\n")
	}
	if r.File != "" && len(r.Data) == 0 {
		out.stream("stdout", "wrote "+r.File+"\n")
	}
}

func commandError(msg string) error {
	return &cellError{ename: "CommandError", evalue: msg, traceback: []string{"CommandError: " + msg}}
}

// cellUI is the kernel's side of commands.UI, on one cell's output.
type cellUI struct{ out output }

func (u cellUI) Input(ctx context.Context, prompt string) (string, error) {
	return u.out.input(ctx, prompt, false)
}
func (u cellUI) Clear() { u.out.clear(false) }

// Quit asks the client to end the session, with the "ask_exit" payload
// that jupyter console obeys (it exits and shuts the kernel down).
// Notebook front ends ignore it: a notebook's kernel is stopped from its
// menu.
func (u cellUI) Quit() { u.out.askExit() }
