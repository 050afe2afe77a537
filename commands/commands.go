// Package commands is the one table of `:commands` that the REPL
// (cmd/arepl) and the Jupyter kernel (package jupyter) both serve, so a
// command means the same, answers the same and completes the same in a
// terminal and in a cell.
//
// A command is data: a name, an argument synopsis, a line of help, an
// example argument (which the tests run in both front ends), an argument
// completer and a handler. A handler gets the session state and returns a
// Reply: plain text that both front ends show, and optionally a rich MIME
// bundle (image/png, image/svg+xml, text/html) that the kernel shows
// instead and a file path that the REPL mentions. What differs between a
// terminal and a notebook (asking the user for a line, clearing the
// output, leaving) goes through the small UI interface each front end
// implements; nothing else about the front end is visible here.
//
// To add a command, add a file commands/NAME.go whose init function calls
// Register with a Command whose Run returns a Reply (builtin.go holds the
// first ones); a rendering package it uses goes on commands' line in
// deps_test.go. Both front ends then serve it, and TestEveryCommand in
// cmd/arepl and jupyter runs it with its Example argument. Names
// match by prefix, the first in table order winning (:t is :type, :ti is
// :time), so Register appends: existing abbreviations keep their meaning.
package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/types"
)

// Session is what commands use of *eval.Session (the kernel's tests give
// it a small fake).
type Session interface {
	Eval(ctx context.Context, name, src string) (*eval.Result, error)
	TypeOf(name, src string) (types.Type, error)
	Names() []eval.Name
	Lookup(name string) (eval.Name, bool)
	Load(ctx context.Context, path string) ([]string, error)
	Reload(ctx context.Context) ([]string, error)
	SetBackend(name string) error
	Backend() string
	SetFusion(on bool)
	Fusion() bool
	SetDeterministic(on bool)
	Deterministic() bool
	Compile(name, src string) (*eval.Compiled, error)
	AddGPUPlan(c *eval.Compiled) error
	CUDA(c *eval.Compiled) (string, error)
	Trace(ctx context.Context, name, src string) (*eval.Result, error)
}

var _ Session = (*eval.Session)(nil)

// UI is what a command may ask of its front end beyond returning a reply.
type UI interface {
	// Input asks the user for a line (the kernel's stdin channel, the
	// REPL's next line).
	Input(ctx context.Context, prompt string) (string, error)
	// Clear clears the output (a cell's output, the terminal's screen).
	Clear()
	// Quit ends the session (the REPL exits; jupyter console is asked to).
	Quit()
}

// State is one front end's session and settings: everything a command
// reads or changes.
type State struct {
	Sess       Session
	UI         UI
	PrintLimit int  // elements shown per array; 0: all
	Timing     bool // show a timing table after each result
	// ArgName names a command's argument in positions: the REPL uses its
	// input name ("[3]"), the kernel a marker it maps back into the cell.
	ArgName string
	// Files says the front end shows pictures as files (the REPL: a
	// terminal cannot show an image), not inline (the kernel).
	Files bool
}

// NewState returns the settings a front end starts with.
func NewState(s Session, ui UI) *State {
	return &State{Sess: s, UI: ui, PrintLimit: eval.DefaultPrintLimit, ArgName: "<arg>"}
}

// Reply is what a command shows.
type Reply struct {
	// Text is shown by both front ends (the REPL prints it, the kernel
	// streams it, or uses it as the text/plain of Data).
	Text string
	// Stderr sends Text to standard error (:echo --stderr).
	Stderr bool
	// Data is a MIME bundle the kernel displays instead of Text (it adds
	// Text as text/plain when Data has none). Binary data such as
	// image/png is []byte; the kernel encodes it.
	Data map[string]any
	// File is a file the command wrote (an image, a video): the REPL
	// prints its path under Text.
	File string
	// Long marks text that a terminal should truncate (with a hint) and a
	// notebook may show in its pager (:help, :kernel).
	Long bool
}

// Command is one `:command`.
type Command struct {
	Name string
	Args string // argument synopsis for :help, "" when it takes none
	Help string
	// Example is an argument the tests run the command with in both
	// front ends ("" runs it without one).
	Example string
	// Complete returns the completions of the argument typed so far (nil:
	// names in scope, as for an expression).
	Complete func(st *State, arg string) []string
	Run      func(ctx context.Context, st *State, arg string) (Reply, error)
}

var table []*Command

// Register appends commands to the table.
func Register(cs ...*Command) {
	for _, c := range cs {
		if c.Name == "" || c.Run == nil {
			panic("commands.Register: a command needs a name and a handler")
		}
		for _, d := range table {
			if d.Name == c.Name {
				panic("commands.Register: :" + c.Name + " registered twice")
			}
		}
		table = append(table, c)
	}
}

// All returns the table in order.
func All() []*Command { return table }

// Lookup finds the command that name (without the colon) abbreviates.
func Lookup(name string) (*Command, error) {
	if name != "" {
		for _, c := range table {
			if strings.HasPrefix(c.Name, name) {
				return c, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown command :%s (:help lists them)", name)
}

// Split cuts a command line (":name arg") into the name and the argument.
func Split(line string) (name, arg string) {
	name, arg, _ = strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), ":"), " ")
	return name, strings.TrimSpace(arg)
}

// Run runs one command line.
func (st *State) Run(ctx context.Context, line string) (Reply, error) {
	name, arg := Split(line)
	c, err := Lookup(name)
	if err != nil {
		return Reply{}, err
	}
	return c.Run(ctx, st, arg)
}

// Complete returns the completions of a command line typed so far (the
// text before the cursor), and the length of the word they replace; ok is
// false when the line is not a command's or the command completes names
// as an expression would.
func (st *State) Complete(before string) (cands []string, word int, ok bool) {
	rest, isCmd := strings.CutPrefix(strings.TrimLeft(before, " "), ":")
	if !isCmd {
		return nil, 0, false
	}
	name, arg, hasArg := strings.Cut(rest, " ")
	if !hasArg {
		for _, c := range table {
			if strings.HasPrefix(c.Name, name) {
				cands = append(cands, c.Name)
			}
		}
		return cands, len(name), true
	}
	c, err := Lookup(name)
	if err != nil || c.Complete == nil {
		return nil, 0, false
	}
	arg = strings.TrimLeft(arg, " ")
	// Candidates replace the last word of the argument.
	i := strings.LastIndexAny(arg, " ") + 1
	last := arg[i:]
	for _, s := range c.Complete(st, arg) {
		if strings.HasPrefix(s, last) {
			cands = append(cands, s)
		}
	}
	sort.Strings(cands)
	return cands, len(last), true
}

// words completes from a fixed list.
func words(ws ...string) func(*State, string) []string {
	return func(*State, string) []string { return ws }
}
