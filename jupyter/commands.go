package jupyter

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// command is one `:command` of a cell. The table starts with the REPL's
// commands (cmd/arepl), in the REPL's order and with its abbreviation
// rule, so a line means the same in both; the rest only make sense in a
// notebook.
type command struct {
	name string
	args string // argument synopsis for :help
	help string
	run  func(e *evaluator, ctx context.Context, arg string, out output) error
}

// commands is the command table; :help lists it in this order.
var commands []command

func init() {
	commands = []command{
		{"help", "[COMMAND]", "show this help, or one command's, in the pager", (*evaluator).cmdHelp},
		{"type", "EXPR", "show the type of EXPR without evaluating it", (*evaluator).cmdType},
		{"load", "FILE", "replace the session's declarations with those of FILE", (*evaluator).cmdLoad},
		{"reload", "", "load the last loaded file again", (*evaluator).cmdReload},
		{"time", "[on|off]", "show a timing table under every result", (*evaluator).cmdTime},
		{"set", "print-limit N | deterministic on|off | memory SIZE", "elide arrays with more than N elements (0: never); fixed-order float scans on the GPU; the memory budget (16GiB)", (*evaluator).cmdSet},
		{"backend", "[auto|cpu|gpu]", "show or choose the backend", (*evaluator).cmdBackend},
		{"fusion", "[on|off]", "show or switch the fusion passes", (*evaluator).cmdFusion},
		{"quit", "", "end the session (jupyter console exits; notebooks use their Kernel menu)", (*evaluator).cmdQuit},
		{"plan", "EXPR", "evaluate EXPR and show its fusion plan: SOACs before and after, bytes moved", (*evaluator).cmdPlan},
		{"doc", "NAME", "show the type and description of a name", (*evaluator).cmdDoc},
		{"names", "", "list the names declared in this session", (*evaluator).cmdNames},
		{"print", "EXPR", "print the whole value of EXPR (no elision), one row per line", (*evaluator).cmdPrint},
		{"input", "NAME [: TYPE]", "read a value (Futhark syntax) from the user and bind it to NAME", (*evaluator).cmdInput},
		{"echo", "[--stderr] TEXT", "print TEXT to the cell's output", (*evaluator).cmdEcho},
		{"clear", "", "clear the cell's output so far", (*evaluator).cmdClear},
	}
	commands = append(commands, vizCommands()...) // viz.go
}

// lookupCommand finds the command that name abbreviates: the first in
// table order that it is a prefix of, as in the REPL (:t is :type, :ti
// :time).
func lookupCommand(name string) (*command, error) {
	if name != "" {
		for i := range commands {
			if strings.HasPrefix(commands[i].name, name) {
				return &commands[i], nil
			}
		}
	}
	return nil, fmt.Errorf("unknown command :%s (:help lists them)", name)
}

// argSource names the text of a command's argument in positions; the
// evaluator moves such positions to the command's place in the cell.
const argSource = "<:arg>"

// command runs one `:command` line. Errors in the argument (an expression
// for :type, :print or :plan) point into the cell: name, the cell line,
// and the column within the whole command line.
func (e *evaluator) command(ctx context.Context, name string, it item, out output) error {
	cmd, rest, _ := strings.Cut(strings.TrimPrefix(it.text, ":"), " ")
	c, err := lookupCommand(cmd)
	if err != nil {
		return commandError(err.Error())
	}
	arg := strings.TrimSpace(rest)
	err = c.run(e, ctx, arg, out)
	if err == nil {
		return nil
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

func commandError(msg string) error {
	return &cellError{ename: "CommandError", evalue: msg, traceback: []string{"CommandError: " + msg}}
}

func (e *evaluator) cmdHelp(_ context.Context, arg string, out output) error {
	var b strings.Builder
	if arg != "" {
		c, err := lookupCommand(strings.TrimPrefix(arg, ":"))
		if err != nil {
			return commandError(err.Error())
		}
		fmt.Fprintf(&b, ":%s %s\n    %s\n", c.name, c.args, c.help)
		out.page(bundle{"text/plain": b.String()})
		return nil
	}
	b.WriteString("A cell holds declarations (def, let, entry), expressions and :commands, one\n")
	b.WriteString("per line. The value of the last expression is the cell's result.\n\n")
	for _, c := range commands {
		syn := ":" + c.name
		if c.args != "" {
			syn += " " + c.args
		}
		fmt.Fprintf(&b, "  %-26s %s\n", syn, c.help)
	}
	b.WriteString("\nA command may be shortened to a prefix; the first match in this list wins (:t is :type).\n")
	out.page(bundle{"text/plain": b.String()})
	return nil
}

func (e *evaluator) cmdType(_ context.Context, arg string, out output) error {
	if arg == "" {
		return commandError(":type needs an expression")
	}
	t, err := e.s.TypeOf(argSource, arg)
	if err != nil {
		return err
	}
	out.stream("stdout", arg+" : "+t.String()+"\n")
	return nil
}

func (e *evaluator) cmdDoc(_ context.Context, arg string, out output) error {
	n, ok := e.s.Lookup(arg)
	if !ok {
		return commandError(fmt.Sprintf("%s is not defined", arg))
	}
	out.stream("stdout", describeName(n)+"\n")
	return nil
}

// describeName is a name's type and description, as :doc and inspect show.
func describeName(n eval.Name) string {
	s := n.Name
	if n.Type != "" {
		s += " : " + n.Type
	}
	if n.Doc != "" {
		s += "\n" + n.Doc
	}
	return s
}

func (e *evaluator) cmdNames(_ context.Context, _ string, out output) error {
	var lines []string
	for _, n := range e.s.Names() {
		if n.Kind == eval.UserName {
			lines = append(lines, describeName(eval.Name{Name: n.Name, Type: n.Type}))
		}
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		out.stream("stdout", "no names declared yet\n")
		return nil
	}
	out.stream("stdout", strings.Join(lines, "\n")+"\n")
	return nil
}

func (e *evaluator) cmdLoad(ctx context.Context, arg string, out output) error {
	if arg == "" {
		return commandError(":load needs a file name")
	}
	names, err := e.s.Load(ctx, arg)
	if err != nil {
		return err
	}
	out.stream("stdout", loadedMessage(arg, names))
	return nil
}

func (e *evaluator) cmdReload(ctx context.Context, _ string, out output) error {
	names, err := e.s.Reload(ctx)
	if err != nil {
		return err
	}
	out.stream("stdout", loadedMessage("", names))
	return nil
}

func loadedMessage(file string, names []string) string {
	s := "loaded"
	if file != "" {
		s += " " + file
	}
	if len(names) > 0 {
		s += ": " + strings.Join(names, ", ")
	}
	return s + "\n"
}

// cmdPrint writes the whole value, one row of the outermost dimension per
// line for arrays of rank two or more, each row its own write: a long
// array makes a flood of output, which the publisher coalesces.
func (e *evaluator) cmdPrint(ctx context.Context, arg string, out output) error {
	if arg == "" {
		return commandError(":print needs an expression")
	}
	res, err := e.s.Eval(ctx, argSource, arg)
	if err != nil {
		return err
	}
	if res.Type == nil {
		return commandError(":print needs an expression, not a declaration")
	}
	a, ok := res.Type.(*types.Array)
	if !ok || len(a.Dims) < 2 || len(res.Values) != 1 || len(res.Values[0].Shape) < 2 {
		s, err := eval.Format(res.Type, res.Values, 0)
		if err != nil {
			return err
		}
		out.stream("stdout", s+"\n")
		return nil
	}
	v, err := res.Values[0].Host(ctx)
	if err != nil {
		return err
	}
	rowType := &types.Array{Elem: a.Elem, Dims: a.Dims[1:]}
	n := v.Shape[0]
	for i := int64(0); i < n; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := eval.Format(rowType, []eval.Value{eval.Row(v, i)}, 0)
		if err != nil {
			return err
		}
		prefix, suffix := " ", ",\n"
		if i == 0 {
			prefix = "["
		}
		if i == n-1 {
			suffix = "]\n"
		}
		out.stream("stdout", prefix+s+suffix)
	}
	return nil
}

// onOff parses an on/off argument; "" means the current setting is asked.
func onOff(arg string) (on, set bool, err error) {
	switch arg {
	case "":
		return false, false, nil
	case "on":
		return true, true, nil
	case "off":
		return false, true, nil
	}
	return false, false, commandError(fmt.Sprintf("want on or off, not %q", arg))
}

func onOffString(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (e *evaluator) cmdTime(_ context.Context, arg string, out output) error {
	on, set, err := onOff(arg)
	if err != nil {
		return err
	}
	if set {
		e.timeOn = on
	}
	out.stream("stdout", "time "+onOffString(e.timeOn)+"\n")
	return nil
}

func (e *evaluator) cmdFusion(_ context.Context, arg string, out output) error {
	on, set, err := onOff(arg)
	if err != nil {
		return err
	}
	if set {
		e.s.SetFusion(on)
	}
	out.stream("stdout", "fusion "+onOffString(e.s.Fusion())+"\n")
	return nil
}

func (e *evaluator) cmdBackend(_ context.Context, arg string, out output) error {
	if arg != "" {
		if err := e.s.SetBackend(arg); err != nil {
			return err
		}
	}
	out.stream("stdout", "backend "+e.s.Backend()+"\n")
	return nil
}

func (e *evaluator) cmdSet(_ context.Context, arg string, out output) error {
	key, val, _ := strings.Cut(arg, " ")
	switch key {
	case "":
		out.stream("stdout", fmt.Sprintf("print-limit %d\ndeterministic %s\n", e.printLimit, onOffString(e.s.Deterministic())))
		return nil
	case "memory":
		// The budget bounds the kernel process's heap (eval.Reserve).
		if v := strings.TrimSpace(val); v != "" {
			n, err := eval.ParseBytes(v)
			if err != nil {
				return commandError(":set memory: " + err.Error())
			}
			eval.SetMemoryLimit(n)
		}
		out.stream("stdout", "memory "+eval.FormatBytes(eval.MemoryLimit())+"\n")
		return nil
	case "deterministic":
		on, set, err := onOff(strings.TrimSpace(val))
		if err != nil {
			return err
		}
		if set {
			e.s.SetDeterministic(on)
		}
		out.stream("stdout", "deterministic "+onOffString(e.s.Deterministic())+"\n")
		return nil
	case "print-limit":
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil || n < 0 {
			return commandError(fmt.Sprintf(":set print-limit wants a number of elements >= 0, not %q", strings.TrimSpace(val)))
		}
		e.printLimit = n
		out.stream("stdout", fmt.Sprintf("print-limit %d\n", n))
		return nil
	}
	return commandError(fmt.Sprintf("unknown setting %q (known: print-limit, deterministic, memory)", key))
}

// cmdInput asks the user for a value through the client's stdin channel
// and declares NAME to be it, so a notebook can take data interactively.
func (e *evaluator) cmdInput(ctx context.Context, arg string, out output) error {
	name, typ, _ := strings.Cut(arg, ":")
	name, typ = strings.TrimSpace(name), strings.TrimSpace(typ)
	if name == "" || strings.ContainsAny(name, " \t()[]") {
		return commandError(":input needs a name, as in :input xs : []i32")
	}
	prompt := name
	if typ != "" {
		prompt += " : " + typ
	}
	text, err := out.input(ctx, prompt+" = ", false)
	if err != nil {
		return err
	}
	decl := "def " + name
	if typ != "" {
		decl += " : " + typ
	}
	decl += " = " + text
	if _, err := e.s.Eval(ctx, ":input", decl); err != nil {
		return err
	}
	return nil
}

func (e *evaluator) cmdEcho(_ context.Context, arg string, out output) error {
	stream := "stdout"
	if rest, ok := strings.CutPrefix(arg, "--stderr"); ok && (rest == "" || rest[0] == ' ') {
		stream, arg = "stderr", strings.TrimSpace(rest)
	}
	out.stream(stream, arg+"\n")
	return nil
}

func (e *evaluator) cmdClear(_ context.Context, _ string, out output) error {
	out.clear(false)
	return nil
}

// cmdQuit asks the client to end the session, with the "ask_exit" payload
// that jupyter console obeys (it exits and shuts the kernel down).
// Notebook front ends ignore it: a notebook's kernel is stopped from its
// menu.
func (e *evaluator) cmdQuit(_ context.Context, _ string, out output) error {
	out.askExit()
	return nil
}

// cmdPlan evaluates EXPR with fusion on and shows its plan as an SVG
// graph, with the text plan as the fallback for clients without SVG.
func (e *evaluator) cmdPlan(ctx context.Context, arg string, out output) error {
	if arg == "" {
		return commandError(":plan needs an expression")
	}
	if !e.s.Fusion() {
		e.s.SetFusion(true)
		defer e.s.SetFusion(false)
	}
	res, err := e.s.Eval(ctx, argSource, arg)
	if err != nil {
		return err
	}
	if res.Plan == nil {
		return commandError(":plan needs an expression, not a declaration")
	}
	svg := res.Plan.SVG()
	// The SVG goes in twice: as image/svg+xml, and inline in text/html,
	// which front ends and nbconvert rank first. nbconvert 6 (Debian 12)
	// passes image/svg+xml through an HTML sanitizer that strips every SVG
	// element, so without the HTML copy an exported notebook shows an
	// empty box.
	out.display(bundle{
		"text/plain":    res.Plan.Text(),
		"text/html":     `<div class="arepl-plan">` + svg + `</div>`,
		"image/svg+xml": svg,
	})
	return nil
}
