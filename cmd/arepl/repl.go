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
	"runtime/trace"
	"sort"
	"strings"
	"sync"

	"github.com/chzyer/readline"

	"github.com/arepl/arepl/commands"
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
	st          *commands.State                     // settings and the command table's view of the session
	readLine    func(prompt string) (string, error) // the next line, for :input
	n           int                                 // number of the next input, shown in the prompt
	failed      bool                                // some input failed (exit status when not interactive)
	quit        bool
	echo        bool // print prompts and inputs as a terminal would show them (--echo)

	mu     sync.Mutex
	cancel context.CancelFunc // of the running evaluation, nil at the prompt
}

func runREPL(args []string) error {
	keepGCFloor()
	fs := flag.NewFlagSet("arepl repl", flag.ContinueOnError)
	var sf sessionFlags
	sf.register(fs)
	echo := fs.Bool("echo", false, "when stdin is not a terminal, print each prompt and input before what it prints (a transcript)")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arepl [repl] [FILE] [--backend cpu|gpu|auto] [--no-fusion] [--echo]")
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
		echo:        *echo && !interactive,
	}
	r.sess.Prewarm() // the GPU's context and first compile, while the user types
	defer r.sess.Close()
	r.st = commands.NewState(r.sess, replUI{r})
	r.st.Files = true
	stop := r.handleInterrupts()
	defer stop()
	if len(pos) == 1 {
		// A script's output is its inputs' results: the file given on the
		// command line loads without a word unless a person is watching.
		if interactive {
			r.command(":load " + pos[0])
		} else if _, err := r.sess.Load(context.Background(), pos[0]); err != nil {
			r.report(err)
		}
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
		AutoComplete:      &completer{sess: r.sess, st: r.st},
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
	fmt.Fprintf(r.out, "arepl %s on %s. :help lists the commands; Ctrl-D leaves.\n", version, r.sess.BackendDescription())
	r.readLine = func(prompt string) (string, error) {
		rl.SetPrompt(prompt)
		return rl.Readline()
	}
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
			// Ctrl-D inside an unfinished input cancels it, as Ctrl-C
			// does; a second Ctrl-D leaves.
			buf.reset()
			continue
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

// saveHistory records an input's lines as they were typed, one history
// entry each, as readline-based REPLs do: the history file holds one entry
// per line, and joining the lines would change the input's layout (and its
// meaning after a -- comment).
func saveHistory(rl *readline.Instance, src string) {
	for _, l := range strings.Split(src, "\n") {
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
	r.readLine = func(string) (string, error) { return lr.next() }
	var buf inputBuffer
	for !r.quit {
		line, err := lr.next()
		// In AREPL_GO_TRACE's trace: when a line arrived, beside the
		// regions of input (a latency's parts).
		trace.Log(context.Background(), "repl", "line read")
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
		if r.echo {
			p := r.prompt()
			if len(buf.lines) > 0 {
				p = contPrompt
			}
			fmt.Fprintln(r.out, p+line)
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
	if strings.HasPrefix(trimmed, ":") {
		r.command(trimmed)
		return
	}
	if name, ok := strings.CutPrefix(trimmed, "?"); ok {
		r.command(":doc " + name)
		return
	}
	name := r.inputName()
	keep := fmt.Sprintf("_%d", r.n)
	r.n++
	var res *eval.Result
	bg := context.Background()
	reg := trace.StartRegion(bg, "repl.eval")
	err := r.evaluate(func(ctx context.Context) (err error) {
		res, err = r.sess.Eval(ctx, name, src)
		return err
	})
	reg.End()
	if err != nil {
		r.report(err)
		return
	}
	trace.WithRegion(bg, "repl.show", func() { r.show(res) })
	// _3 is input 3's value from now on, as IPython's _3 and Out[3].
	trace.WithRegion(bg, "repl.keep", func() { r.sess.Keep(keep, res) })
	defer trace.StartRegion(bg, "repl.warnings").End()
	for _, w := range commands.OperatorWarnings(bg, r.sess, src) {
		fmt.Fprintln(r.errOut, w)
	}
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
		s, err := eval.Format(res.Type, res.Values, r.st.PrintLimit)
		if err != nil {
			r.report(err)
			return
		}
		fmt.Fprintln(r.out, s)
	}
	if r.st.Timing {
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

// ---------------------------------------------------------------------------
// Commands: the table is package commands', shared with the kernel; the
// REPL implements its UI and shows its replies.

func (r *repl) command(line string) {
	r.st.ArgName = r.inputName()
	var reply commands.Reply
	err := r.evaluate(func(ctx context.Context) (err error) {
		reply, err = r.st.Run(ctx, line)
		return err
	})
	if err != nil {
		r.report(err)
		return
	}
	r.showReply(reply)
}

// maxLongLines is how many lines of a long reply (:kernel, :help) a
// terminal shows; the rest goes to a file whose name the REPL prints.
const maxLongLines = 60

func (r *repl) showReply(reply commands.Reply) {
	text := reply.Text
	if reply.Long && r.interactive {
		text = r.truncate(text)
	}
	if text != "" {
		w := r.out
		if reply.Stderr {
			w = r.errOut
		}
		fmt.Fprintln(w, text)
	}
	if reply.File != "" {
		fmt.Fprintf(r.out, "wrote %s\n", reply.File)
	}
}

// truncate keeps the first maxLongLines lines of a long text and saves the
// whole text to a file, saying where.
func (r *repl) truncate(text string) string {
	lines := strings.Split(text, "\n")
	if len(lines) <= maxLongLines {
		return text
	}
	head := strings.Join(lines[:maxLongLines], "\n")
	more := len(lines) - maxLongLines
	f, err := os.CreateTemp("", "arepl-*.txt")
	if err != nil {
		return fmt.Sprintf("%s\n... %d more lines", head, more)
	}
	defer f.Close()
	if _, err := f.WriteString(text + "\n"); err != nil {
		return fmt.Sprintf("%s\n... %d more lines", head, more)
	}
	return fmt.Sprintf("%s\n... %d more lines; all of it is in %s", head, more, f.Name())
}

// replUI is the REPL's side of commands.UI.
type replUI struct{ r *repl }

func (u replUI) Input(_ context.Context, prompt string) (string, error) {
	if u.r.readLine == nil {
		return "", errors.New("no input to read from")
	}
	return u.r.readLine(prompt)
}

func (u replUI) Clear() {
	if u.r.interactive {
		fmt.Fprint(u.r.out, "\x1b[H\x1b[2J")
	}
}

func (u replUI) Quit() { u.r.quit = true }

// ---------------------------------------------------------------------------
// Completion

// keywords complete like names.
var keywords = []string{"def", "let", "in", "if", "then", "else", "loop", "for", "while", "do", "entry", "true", "false"}

// completer completes `:commands`, file names after `:load`, and names in
// scope (user names, builtins, module members such as `i32.max`).
type completer struct {
	sess *eval.Session
	st   *commands.State
}

// Do implements readline.AutoCompleter: it returns the candidates' missing
// suffixes and the length of the word being completed.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	before := string(line[:pos])
	if cands, n, ok := c.st.Complete(before); ok {
		word := before[len(before)-n:]
		out := make([][]rune, len(cands))
		for i, s := range cands {
			suffix := s[len(word):]
			if !strings.HasSuffix(s, "/") {
				suffix += " "
			}
			out[i] = []rune(suffix)
		}
		return out, len([]rune(word))
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
