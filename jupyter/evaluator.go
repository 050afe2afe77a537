package jupyter

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/arepl/arepl/commands"
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// bundle is a MIME bundle: what display_data, execute_result and pager
// payloads carry.
type bundle map[string]any

// output is where a running cell sends what it shows. The kernel
// implements it on top of iopub, the execute reply's payload and stdin.
type output interface {
	// stream appends text to "stdout" or "stderr".
	stream(name, text string)
	// display shows a rich output (display_data).
	display(b bundle)
	// result is the cell's value (execute_result, Out[n]).
	result(b bundle)
	// clear clears the cell's output (clear_output).
	clear(wait bool)
	// page shows text in the pager (a "page" payload of the reply).
	page(b bundle)
	// askExit asks the client to end the session (an "ask_exit" payload).
	askExit()
	// input asks the user for a line (input_request on stdin).
	input(ctx context.Context, prompt string, password bool) (string, error)
}

// cellError is an error as a Jupyter client shows it: a name, a one-line
// value and a traceback of lines.
type cellError struct {
	ename, evalue string
	traceback     []string
}

func (e *cellError) Error() string { return e.ename + ": " + e.evalue }

// session is what the kernel uses of *eval.Session: what the command
// table uses (the tests give it a small fake to drive the protocol
// without the whole pipeline).
type session = commands.Session

var _ session = (*eval.Session)(nil)

// evaluator runs cells on an eval.Session: the same pipeline and the same
// environment rules as the REPL, plus the REPL's settings.
type evaluator struct {
	s  session
	st *commands.State // the settings and the command table's state
	// clock times the stages of the cell being run (stages.go); nil
	// when nothing is timed.
	clock *clock
	// pending is bookkeeping of the last cell that nothing sees before
	// the next request: binding its _N. The kernel does it after the
	// cell's idle status is out (settle), as the REPL does it after
	// printing the answer, so a client does not wait for it.
	pending []func()
}

// settle does the pending bookkeeping of the cells run so far.
func (e *evaluator) settle() {
	for _, f := range e.pending {
		f()
	}
	e.pending = e.pending[:0]
}

func newSessionEvaluator() *evaluator {
	return newEvaluator(newSession())
}

func newEvaluator(s session) *evaluator {
	return &evaluator{s: s, st: commands.NewState(s, nil)}
}

// run evaluates the items of a cell in order and stops at the first
// error, which it returns as a *cellError. name is used in positions
// ("In[3]"); positions are relative to the cell.
func (e *evaluator) run(ctx context.Context, name, cell string, out output) error {
	e.settle()
	items := splitCell(cell)
	e.clock.mark(stageSplit)
	last := -1
	for i, it := range items {
		if it.kind == exprItem {
			last = i
		}
	}
	for i, it := range items {
		if err := ctx.Err(); err != nil {
			return interrupted()
		}
		var err error
		if name, ok := strings.CutPrefix(strings.TrimSpace(it.text), "?"); ok && it.kind != commandItem {
			// ?NAME is :doc NAME, as in the REPL (and IPython).
			it = item{kind: commandItem, text: ":doc " + strings.TrimSpace(name), line: it.line}
		}
		switch it.kind {
		case commandItem:
			err = e.command(ctx, name, it, out)
			e.clock.mark(stageOther)
		case declItem, exprItem:
			err = e.eval(ctx, name, it, i == last, out)
		default:
			err = fmt.Errorf("internal error: cell item of kind %d", it.kind)
		}
		if err != nil {
			return toCellError(err)
		}
	}
	return nil
}

// runSafely is run with a panic in the pipeline turned into an internal
// error of the cell, so the kernel and its session survive a bug.
func (e *evaluator) runSafely(ctx context.Context, name, cell string, out output) (err error) {
	defer func() {
		if p := recover(); p != nil {
			logf("internal error: %v\n%s", p, debug.Stack())
			msg := fmt.Sprint(p)
			err = &cellError{ename: "InternalError", evalue: msg, traceback: []string{"InternalError: " + msg}}
		}
	}()
	return e.run(ctx, name, cell, out)
}

// eval runs one declaration group or expression. The value of the cell's
// last expression is its result (Out[n]); values of earlier expressions
// are shown as display data, as a REPL would print each.
func (e *evaluator) eval(ctx context.Context, name string, it item, isLast bool, out output) error {
	res, err := e.s.Eval(ctx, name, it.text)
	e.clock.mark(stageEval)
	if err != nil {
		return shiftError(err, it.line-1)
	}
	if res.Type != nil {
		b := e.valueBundle(res.Type, res.Values)
		e.clock.mark(stageRender)
		if isLast {
			out.result(b)
			e.clock.mark(stagePublish)
			e.pending = append(e.pending, func() { e.keep(name, res) })
		} else {
			out.display(b)
			e.clock.mark(stagePublish)
		}
	}
	if e.st.Timing {
		b := timingBundle(res.Timings)
		e.clock.mark(stageRender)
		out.display(b)
		e.clock.mark(stagePublish)
	}
	warnings := commands.OperatorWarnings(ctx, e.s, it.text)
	e.clock.mark(stageWarnings)
	for _, w := range warnings {
		out.stream("stderr", w+"\n")
	}
	e.clock.mark(stageOther)
	return nil
}

// keeper is a session that can bind earlier results (eval.Session.Keep).
type keeper interface {
	Keep(name string, res *eval.Result) bool
}

// keep binds _N to the result of cell In[N] (its Out[N]), as IPython does.
func (e *evaluator) keep(cell string, res *eval.Result) {
	k, ok := e.s.(keeper)
	if !ok {
		return
	}
	var n int
	if _, err := fmt.Sscanf(cell, "In[%d]", &n); err == nil {
		k.Keep(fmt.Sprintf("_%d", n), res)
	}
}

// valueBundle renders a value as text (the REPL's format) and, for 1-D and
// 2-D arrays, as an HTML table.
func (e *evaluator) valueBundle(t types.Type, vs []eval.Value) bundle {
	text, err := eval.Format(t, vs, e.st.PrintLimit)
	if err != nil {
		text = err.Error()
	}
	b := bundle{"text/plain": text}
	if a, ok := t.(*types.Array); ok && (len(a.Dims) == 1 || len(a.Dims) == 2) {
		b["text/html"] = eval.FormatHTML(t, vs, e.st.PrintLimit)
	}
	return b
}

func interrupted() error {
	return &cellError{ename: "Interrupted", evalue: "evaluation interrupted", traceback: []string{"Interrupted: evaluation interrupted"}}
}

// toCellError turns any error of a cell into a *cellError. Positioned
// errors keep their position; the traceback quotes the source line.
func toCellError(err error) *cellError {
	var ce *cellError
	if errors.As(err, &ce) {
		return ce
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return interrupted().(*cellError)
	}
	ename := "Error"
	switch err.(type) {
	case source.ErrorList:
		ename = "CompileError"
	case *source.Error:
		ename = "RuntimeError"
	}
	evalue := err.Error()
	return &cellError{ename: ename, evalue: evalue, traceback: strings.Split(source.Detail(err), "\n")}
}

// shiftError moves the positions of err down by n lines: an item that
// starts on cell line n+1 was evaluated as its own text, so its line 1 is
// the cell's line n+1.
func shiftError(err error, n int) error {
	if n == 0 {
		return err
	}
	return mapErrors(err, func(e *source.Error) *source.Error {
		c := *e
		if c.Pos.IsValid() {
			c.Pos.Line += n
		}
		return &c
	})
}

// mapErrors applies f to each positioned error in err (a *source.Error or
// a source.ErrorList) and returns the result; f returns copies, so errors
// the session may keep are never changed in place. Other errors are
// returned as they are.
func mapErrors(err error, f func(*source.Error) *source.Error) error {
	var list source.ErrorList
	var one *source.Error
	switch {
	case errors.As(err, &list):
		out := make(source.ErrorList, len(list))
		for i, e := range list {
			out[i] = f(e)
		}
		return out
	case errors.As(err, &one):
		return f(one)
	}
	return err
}
