package jupyter

import (
	"context"
	"encoding/base64"
	"errors"
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
	if err == nil {
		showReply(reply, out)
		return nil
	}
	var list source.ErrorList
	var one *source.Error
	if !errors.As(err, &list) && !errors.As(err, &one) && !errors.Is(err, context.Canceled) {
		return commandError(err.Error())
	}
	off := len(it.text) - len(strings.TrimLeft(rest, " \t"))
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
