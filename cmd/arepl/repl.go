package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/chzyer/readline"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/source"
)

// The REPL reads one input at a time: a line, or several lines while
// eval.IsIncomplete says the input goes on. An input is a `:command` or
// something for Session.Eval (declarations or an expression). On a
// terminal it uses readline (prompt, history, completion, colour); on
// anything else it reads lines plainly and prints only results, so it can
// be scripted: `echo 'reduce (+) 0 (iota 10)' | arepl` prints `45`.
//
// Ctrl-C: at the prompt readline returns ErrInterrupt and the line (or the
// unfinished multi-line input) is dropped; during an evaluation the
// terminal is in cooked mode, so SIGINT arrives and cancels the
// evaluation's context. The session is untouched by a cancelled input.

// repl is one REPL's state.
type repl struct {
	sess        *eval.Session
	out, errOut io.Writer
	interactive bool // a person at a terminal: prompts, colour, messages
	colour      bool
	limit       int  // print limit (elements per array)
	timing      bool // :time on
	n           int  // number of the next input, shown in the prompt
	failed      bool // some input failed (exit status when not interactive)
	quit        bool

	mu     sync.Mutex
	cancel context.CancelFunc // of the running evaluation, nil at the prompt
}

func runREPL(args []string) error {
	fs := flag.NewFlagSet("arepl repl", flag.ContinueOnError)
	var sf sessionFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arepl [repl] [FILE] [--backend cpu|gpu|auto] [--no-fusion]")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		fs.Usage()
		return errUsage
	}
	opts, err := sf.options()
	if err != nil {
		return err
	}
	interactive := readline.IsTerminal(int(os.Stdin.Fd())) && readline.IsTerminal(int(os.Stdout.Fd()))
	r := &repl{
		sess:        newSession(opts),
		out:         os.Stdout,
		errOut:      os.Stderr,
		interactive: interactive,
		colour:      interactive && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb",
		limit:       eval.DefaultPrintLimit,
	}
	stop := r.handleInterrupts()
	defer stop()
	if len(pos) == 1 {
		r.command("load", pos[0])
	}
	if interactive {
		err = r.loopTerminal()
	} else {
		err = r.loopPlain(os.Stdin)
	}
	if err != nil {
		return err
	}
	if r.failed && !interactive {
		return exitError{1}
	}
	return nil
}

// handleInterrupts routes SIGINT to the running evaluation. With no
// evaluation running (only possible when not at a terminal, where readline
// sees Ctrl-C as a key) it ends the program as SIGINT normally would.
func (r *repl) handleInterrupts() (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				r.mu.Lock()
				cancel := r.cancel
				r.mu.Unlock()
				if cancel != nil {
					cancel()
				} else if !r.interactive {
					os.Exit(130)
				}
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}

// historyPath is $XDG_STATE_HOME/arepl/history (default
// ~/.local/state/arepl/history); "" when there is no home to put it in.
// History holds whatever was typed, so it is private: the directory is
// 0700 and the file 0600, and an existing one made with looser modes (as
// arepl did before, and as readline does when it rewrites the file) is
// tightened.
func historyPath() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	dir = filepath.Join(dir, "arepl")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	path := filepath.Join(dir, "history")
	if privateHistory(dir, path) != nil {
		return ""
	}
	return path
}

// privateHistory makes dir 0700 and the history file path (created if
// missing) 0600.
func privateHistory(dir, path string) error {
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	return os.Chmod(path, 0o600)
}

func (r *repl) prompt() string { return fmt.Sprintf("[%d]> ", r.n) }

const contPrompt = "...> "

func (r *repl) loopTerminal() error {
	hist := historyPath()
	rl, err := readline.NewEx(&readline.Config{
		Prompt:            r.prompt(),
		HistoryFile:       hist,
		HistoryLimit:      10000,
		HistorySearchFold: true,
		AutoComplete:      &completer{sess: r.sess},
		InterruptPrompt:   "^C",
		EOFPrompt:         "",
		// Inputs are saved whole (see saveHistory), not line by line.
		DisableAutoSaveHistory: true,
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	if hist != "" {
		// readline rewrites a long history through a new file of mode
		// 0666 (less the umask).
		privateHistory(filepath.Dir(hist), hist)
	}
	fmt.Fprintf(r.out, "arepl %s on %s. :help lists the commands; Ctrl-D leaves.\n", version, r.sess.Backend())
	var buf inputBuffer
	for !r.quit {
		if len(buf.lines) == 0 {
			rl.SetPrompt(r.prompt())
		} else {
			rl.SetPrompt(contPrompt)
		}
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			buf.reset()
			continue
		case errors.Is(err, io.EOF):
			if len(buf.lines) == 0 {
				return nil
			}
			// Ctrl-D inside an unfinished input submits it, so its error
			// shows; a second Ctrl-D leaves.
			line = ""
		case err != nil:
			return err
		}
		src, done, err := buf.addLine(line, r.inputName())
		if err != nil {
			r.n++
			r.report(err)
			continue
		}
		if !done {
			continue
		}
		saveHistory(rl, src)
		r.input(src)
	}
	return nil
}

// saveHistory records a whole input, so that Up recalls a multi-line
// definition at once: its lines are joined by spaces, which means the same
// in Futhark unless a line ends in a `--` comment; such inputs are saved
// line by line.
func saveHistory(rl *readline.Instance, src string) {
	lines := strings.Split(src, "\n")
	if !strings.Contains(src, "--") {
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		lines = []string{strings.Join(lines, " ")}
	}
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			// A history file that cannot be written costs only history.
			_ = rl.SaveHistory(l)
		}
	}
}

// maxLine bounds a line read from a non-terminal: a longer one is
// reported and skipped, and the REPL goes on with the next.
const maxLine = 64 << 20

// loopPlain reads inputs from a non-terminal, joining unfinished inputs
// across lines like the terminal loop.
func (r *repl) loopPlain(in io.Reader) error {
	lr := newLineReader(in, maxLine)
	var buf inputBuffer
	for !r.quit {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var long *lineTooLongError
		if errors.As(err, &long) {
			// The input the line belonged to is lost with it.
			buf.reset()
			r.report(err)
			continue
		}
		if err != nil {
			return err
		}
		src, done, err := buf.addLine(line, r.inputName())
		switch {
		case err != nil:
			r.n++
			r.report(err)
		case done:
			r.input(src)
		}
	}
	if len(buf.lines) > 0 && !r.quit {
		r.input(buf.pending())
	}
	return nil
}

// input handles one complete input.
func (r *repl) input(src string) {
	trimmed := strings.TrimSpace(src)
	if trimmed == "" {
		return
	}
	if cmd, ok := strings.CutPrefix(trimmed, ":"); ok {
		name, arg, _ := strings.Cut(cmd, " ")
		r.command(name, strings.TrimSpace(arg))
		return
	}
	name := r.inputName()
	r.n++
	var res *eval.Result
	err := r.evaluate(func(ctx context.Context) (err error) {
		res, err = r.sess.Eval(ctx, name, src)
		return err
	})
	if err != nil {
		r.report(err)
		return
	}
	r.show(res)
}

// inputName names the next input in positions: [3] for input 3.
func (r *repl) inputName() string { return fmt.Sprintf("[%d]", r.n) }

// evaluate runs f with a context that Ctrl-C cancels, turning a panic into
// an internal error so the REPL survives it.
func (r *repl) evaluate(f func(ctx context.Context) error) (err error) {
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.cancel = cancel
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.cancel = nil
		r.mu.Unlock()
		cancel()
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
			if os.Getenv("AREPL_DEBUG") != "" {
				err = fmt.Errorf("%w\n%s", err, debug.Stack())
			}
		}
	}()
	err = f(ctx)
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return errInterrupted
	}
	return err
}

// errInterrupted reports an evaluation cancelled by Ctrl-C.
var errInterrupted = errors.New("interrupted")

// show prints an input's result: an expression's value, and the timing
// line with :time on. Declarations print nothing, as in futhark repl.
func (r *repl) show(res *eval.Result) {
	if res == nil {
		return
	}
	if res.Type != nil {
		s, err := eval.Format(res.Type, res.Values, r.limit)
		if err != nil {
			r.report(err)
			return
		}
		fmt.Fprintln(r.out, s)
	}
	if r.timing {
		fmt.Fprintln(r.out, eval.FormatTimings(res.Timings))
	}
}

// report prints an error with its source line and marks the run failed.
func (r *repl) report(err error) {
	r.failed = true
	if errors.Is(err, errInterrupted) && r.interactive {
		// The terminal echoed ^C without a newline.
		fmt.Fprintln(r.errOut)
	}
	msg := source.Detail(err)
	if r.colour {
		msg = "\x1b[31m" + msg + "\x1b[0m"
	}
	fmt.Fprintln(r.errOut, msg)
}

// note prints a message for a person; scripts don't see it.
func (r *repl) note(format string, args ...any) {
	if r.interactive {
		fmt.Fprintf(r.out, format+"\n", args...)
	}
}

// ---------------------------------------------------------------------------
// Commands

// replCommand is one `:command`. Commands match by prefix, the first in
// table order winning, so `:t` is `:type` and `:ti` is `:time`.
type replCommand struct {
	name, args, help string
	run              func(r *repl, ctx context.Context, arg string) error
}

var replCommands []replCommand

func init() {
	replCommands = []replCommand{
		{"help", "", "show this help", (*repl).cmdHelp},
		{"type", "EXPR", "show the type of an expression", (*repl).cmdType},
		{"load", "FILE", "replace the session's declarations with FILE's", (*repl).cmdLoad},
		{"reload", "", "load the last loaded file again", (*repl).cmdReload},
		{"time", "on|off", "print a timing line after each result", (*repl).cmdTime},
		{"set", "print-limit N | deterministic on|off | memory SIZE", "print at most N elements of an array (0: all); fixed-order float scans on the GPU; the memory budget (16GiB)", (*repl).cmdSet},
		{"backend", "[cpu|gpu|auto]", "show or choose the backend", (*repl).cmdBackend},
		{"fusion", "on|off", "turn the fusion passes on or off", (*repl).cmdFusion},
		{"plan", "EXPR", "show what fusion does to an expression, without running it", (*repl).cmdPlan},
		{"kernel", "EXPR", "show the CUDA code the GPU backend generates for an expression", (*repl).cmdKernel},
		{"quit", "", "leave the REPL (also Ctrl-D)", (*repl).cmdQuit},
	}
	replCommands = append(replCommands, vizCommands()...) // viz.go
}

// lookupCommand finds the command that name abbreviates.
func lookupCommand(name string) (replCommand, bool) {
	if name == "" {
		return replCommand{}, false
	}
	for _, c := range replCommands {
		if strings.HasPrefix(c.name, name) {
			return c, true
		}
	}
	return replCommand{}, false
}

func (r *repl) command(name, arg string) {
	c, ok := lookupCommand(name)
	if !ok {
		r.report(fmt.Errorf("unknown command :%s (:help lists them)", name))
		return
	}
	err := r.evaluate(func(ctx context.Context) error { return c.run(r, ctx, arg) })
	if err != nil {
		r.report(err)
	}
}

func (r *repl) cmdHelp(_ context.Context, _ string) error {
	fmt.Fprintln(r.out, "Enter a declaration (def f x = ..., let x = ...) or an expression to evaluate it.")
	fmt.Fprintln(r.out, "An unfinished input continues on the next line (prompt ...>); a blank line ends it.")
	fmt.Fprintln(r.out, "Commands (a prefix is enough: :t is :type, :ti is :time):")
	for _, c := range replCommands {
		fmt.Fprintf(r.out, "  %-24s %s\n", ":"+c.name+" "+c.args, c.help)
	}
	fmt.Fprintln(r.out, "Tab completes names; Ctrl-C interrupts an evaluation or clears the line; Ctrl-D leaves.")
	return nil
}

func (r *repl) cmdType(_ context.Context, arg string) error {
	if arg == "" {
		return errors.New(":type needs an expression")
	}
	name := fmt.Sprintf("[%d]", r.n)
	t, err := r.sess.TypeOf(name, arg)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.out, "%s : %s\n", arg, t)
	return nil
}

func (r *repl) cmdLoad(ctx context.Context, arg string) error {
	if arg == "" {
		return errors.New(":load needs a file name")
	}
	names, err := r.sess.Load(ctx, arg)
	if err != nil {
		return err
	}
	r.note("loaded %s (%d declarations)", arg, len(names))
	return nil
}

func (r *repl) cmdReload(ctx context.Context, _ string) error {
	names, err := r.sess.Reload(ctx)
	if err != nil {
		return err
	}
	r.note("reloaded (%d declarations)", len(names))
	return nil
}

// onOff reads "on" or "off"; "" keeps cur and reports it.
func onOff(cmd, arg string, cur bool) (bool, error) {
	switch arg {
	case "on":
		return true, nil
	case "off":
		return false, nil
	case "":
		return cur, nil
	}
	return cur, fmt.Errorf(":%s takes on or off, not %q", cmd, arg)
}

func offOn(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (r *repl) cmdTime(_ context.Context, arg string) error {
	on, err := onOff("time", arg, r.timing)
	if err != nil {
		return err
	}
	r.timing = on
	r.note("timing is %s", offOn(on))
	return nil
}

func (r *repl) cmdSet(_ context.Context, arg string) error {
	fields := strings.Fields(arg)
	if len(fields) == 0 {
		fmt.Fprintf(r.out, "print-limit %d\ndeterministic %s\n", r.limit, offOn(r.sess.Deterministic()))
		return nil
	}
	if fields[0] == "memory" {
		if len(fields) == 1 {
			// Not in the list above: the default depends on the machine.
			fmt.Fprintf(r.out, "memory %s\n", eval.FormatBytes(r.sess.Memory()))
			return nil
		}
		// A size may be written with a space: 16 GiB.
		fields = []string{"memory", strings.Join(fields[1:], "")}
	}
	if len(fields) != 2 {
		return errors.New("usage: :set print-limit N, :set deterministic on|off, or :set memory SIZE")
	}
	switch fields[0] {
	case "print-limit":
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 0 {
			return fmt.Errorf("print-limit must be a number of elements >= 0, not %q", fields[1])
		}
		r.limit = n
		return nil
	case "deterministic":
		on, err := onOff("set deterministic", fields[1], r.sess.Deterministic())
		if err != nil {
			return err
		}
		r.sess.SetDeterministic(on)
		r.note("deterministic float scans %s", offOn(on))
		return nil
	case "memory":
		n, err := eval.ParseBytes(fields[1])
		if err != nil {
			return err
		}
		r.sess.SetMemory(n)
		r.note("memory budget %s", eval.FormatBytes(n))
		return nil
	}
	return fmt.Errorf("unknown setting %q (known: print-limit, deterministic, memory)", fields[0])
}

func (r *repl) cmdBackend(_ context.Context, arg string) error {
	if arg != "" {
		if err := r.sess.SetBackend(arg); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.out, "backend %s\n", r.sess.Backend())
	return nil
}

func (r *repl) cmdFusion(_ context.Context, arg string) error {
	on, err := onOff("fusion", arg, r.sess.Fusion())
	if err != nil {
		return err
	}
	r.sess.SetFusion(on)
	r.note("fusion is %s", offOn(on))
	return nil
}

func (r *repl) cmdPlan(_ context.Context, arg string) error {
	if arg == "" {
		return errors.New(":plan needs an expression")
	}
	c, err := r.sess.Compile(fmt.Sprintf("[%d]", r.n), arg)
	if err != nil {
		return err
	}
	fmt.Fprintln(r.out, strings.TrimRight(c.Plan.Text(), "\n"))
	return nil
}

func (r *repl) cmdKernel(_ context.Context, arg string) error {
	if arg == "" {
		return errors.New(":kernel needs an expression")
	}
	c, err := r.sess.Compile(fmt.Sprintf("[%d]", r.n), arg)
	if err != nil {
		return err
	}
	src, err := r.sess.CUDA(c)
	if err != nil {
		return err
	}
	fmt.Fprintln(r.out, strings.TrimRight(src, "\n"))
	return nil
}

func (r *repl) cmdQuit(_ context.Context, _ string) error {
	r.quit = true
	return nil
}

// ---------------------------------------------------------------------------
// Completion

// keywords complete like names.
var keywords = []string{"def", "let", "in", "if", "then", "else", "loop", "for", "while", "do", "entry", "true", "false"}

// completer completes `:commands`, file names after `:load`, and names in
// scope (user names, builtins, module members such as `i32.max`).
type completer struct{ sess *eval.Session }

// Do implements readline.AutoCompleter: it returns the candidates' missing
// suffixes and the length of the word being completed.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	before := string(line[:pos])
	if strings.HasPrefix(before, ":") {
		name, arg, hasArg := strings.Cut(before[1:], " ")
		if !hasArg {
			var out [][]rune
			for _, rc := range replCommands {
				if strings.HasPrefix(rc.name, name) {
					out = append(out, []rune(rc.name[len(name):]+" "))
				}
			}
			return out, len([]rune(name))
		}
		if rc, ok := lookupCommand(name); ok && (rc.name == "load") {
			return completeFile(strings.TrimLeft(arg, " "))
		}
	}
	word := lastWord(before)
	var cands []string
	seen := map[string]bool{}
	add := func(s string) {
		if strings.HasPrefix(s, word) && !seen[s] {
			seen[s] = true
			cands = append(cands, s)
		}
	}
	for _, n := range c.sess.Names() {
		add(n.Name)
	}
	for _, k := range keywords {
		add(k)
	}
	sort.Strings(cands)
	out := make([][]rune, len(cands))
	for i, s := range cands {
		out[i] = []rune(s[len(word):])
	}
	return out, len([]rune(word))
}

// lastWord is the name being typed at the end of s: identifier characters
// and dots (for module members such as `f32.sqrt`).
func lastWord(s string) string {
	i := len(s)
	for i > 0 {
		c := s[i-1]
		if c == '_' || c == '.' || c == '\'' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			i--
			continue
		}
		break
	}
	return s[i:]
}

// completeFile completes a path for :load, listing .fut files and
// folders.
func completeFile(prefix string) ([][]rune, int) {
	dir, base := filepath.Split(prefix)
	entries, err := os.ReadDir(orDot(dir))
	if err != nil {
		return nil, 0
	}
	var out [][]rune
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		switch {
		case e.IsDir():
			name += "/"
		case !strings.HasSuffix(name, ".fut"):
			continue
		}
		out = append(out, []rune(name[len(base):]))
	}
	return out, len([]rune(base))
}

func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
