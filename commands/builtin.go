package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/types"
)

func init() {
	Register(
		&Command{Name: "help", Args: "[COMMAND]", Help: "show this help, or one command's", Example: "type", Complete: commandNames, Run: cmdHelp},
		&Command{Name: "type", Args: "EXPR", Help: "show the type of EXPR without evaluating it", Example: "iota 3", Run: cmdType},
		&Command{Name: "load", Args: "FILE", Help: "replace the session's declarations with those of FILE", Example: "prog.fut", Complete: completeFile, Run: cmdLoad},
		&Command{Name: "reload", Help: "load the last loaded file again", Run: cmdReload},
		&Command{Name: "time", Args: "[on|off]", Help: "show a timing table under every result", Example: "on", Complete: words("on", "off"), Run: cmdTime},
		&Command{Name: "set", Args: "[print-limit N | deterministic on|off | memory SIZE]", Help: "show the settings, or elide arrays with more than N elements (0: never), fix the order of float scans on the GPU, set the memory budget", Example: "print-limit 5", Complete: completeSet, Run: cmdSet},
		&Command{Name: "backend", Args: "[auto|cpu|gpu [all|0,1,...|sim:N]]", Help: "show or choose the backend; gpu with devices shards arrays over them (docs/multigpu.md)", Example: "cpu", Complete: words("auto", "cpu", "gpu"), Run: cmdBackend},
		&Command{Name: "fusion", Args: "[on|off]", Help: "show or switch the fusion passes", Example: "off", Complete: words("on", "off"), Run: cmdFusion},
		&Command{Name: "plan", Args: "EXPR", Help: "show what fusion does to EXPR (SOACs before and after, bytes moved), without running it", Example: "map (+1) (iota 5)", Run: cmdPlan},
		&Command{Name: "kernel", Args: "EXPR", Help: "show the CUDA code the GPU backend generates for EXPR, without running it", Example: "reduce (+) 0 (iota 5)", Run: cmdKernel},
		&Command{Name: "quit", Help: "leave (Ctrl-D in the REPL; jupyter console exits, notebooks use their Kernel menu)", Run: cmdQuit},
		&Command{Name: "doc", Args: "NAME", Help: "show the type and description of a name (also ?NAME)", Example: "map", Complete: completeNames, Run: cmdDoc},
		&Command{Name: "names", Help: "list the names declared in this session", Run: cmdNames},
		&Command{Name: "print", Args: "EXPR", Help: "print the whole value of EXPR (no elision)", Example: "iota 3", Run: cmdPrint},
		&Command{Name: "input", Args: "NAME [: TYPE]", Help: "read a value (Futhark syntax) from the user and bind it to NAME", Example: "xs : []i32", Run: cmdInput},
		&Command{Name: "echo", Args: "[--stderr] TEXT", Help: "print TEXT", Example: "hello", Run: cmdEcho},
		&Command{Name: "clear", Help: "clear the output so far (the cell's, or the terminal's screen)", Run: cmdClear},
	)
}

// errUsage is a command's usage error.
func errUsage(c, what string) error { return fmt.Errorf(":%s needs %s", c, what) }

func commandNames(*State, string) []string {
	var out []string
	for _, c := range table {
		out = append(out, c.Name)
	}
	return out
}

func completeNames(st *State, _ string) []string {
	var out []string
	for _, n := range st.Sess.Names() {
		out = append(out, n.Name)
	}
	return out
}

func cmdHelp(_ context.Context, _ *State, arg string) (Reply, error) {
	var b strings.Builder
	if arg != "" {
		c, err := Lookup(strings.TrimPrefix(arg, ":"))
		if err != nil {
			return Reply{}, err
		}
		fmt.Fprintf(&b, "%s\n    %s", synopsis(c), c.Help)
		return Reply{Text: b.String()}, nil
	}
	b.WriteString("Enter a declaration (def f x = ..., let x = ...) or an expression to evaluate it;\n")
	b.WriteString("_N is the value of input N (Out[N] in Jupyter). An unfinished input continues on the next line.\n")
	b.WriteString("Commands (a prefix is enough, the first match in this list wins: :t is :type):\n")
	for _, c := range table {
		fmt.Fprintf(&b, "  %-26s %s\n", synopsis(c), c.Help)
	}
	b.WriteString("Tab completes names, commands and settings; Ctrl-C interrupts an evaluation.")
	return Reply{Text: b.String(), Long: true}, nil
}

func synopsis(c *Command) string {
	if c.Args == "" {
		return ":" + c.Name
	}
	return ":" + c.Name + " " + c.Args
}

func cmdType(_ context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("type", "an expression")
	}
	t, err := st.Sess.TypeOf(st.ArgName, arg)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: arg + " : " + t.String()}, nil
}

func cmdDoc(_ context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("doc", "a name")
	}
	n, ok := st.Sess.Lookup(arg)
	if !ok {
		return Reply{}, fmt.Errorf("%s is not defined", arg)
	}
	return Reply{Text: Describe(n)}, nil
}

// Describe is a name's type and description, as :doc and the kernel's
// inspect show them.
func Describe(n eval.Name) string {
	s := n.Name
	if n.Type != "" {
		s += " : " + n.Type
	}
	if n.Doc != "" {
		s += "\n" + n.Doc
	}
	return s
}

func cmdNames(_ context.Context, st *State, _ string) (Reply, error) {
	var lines []string
	for _, n := range st.Sess.Names() {
		if n.Kind == eval.UserName {
			lines = append(lines, Describe(eval.Name{Name: n.Name, Type: n.Type}))
		}
	}
	if len(lines) == 0 {
		return Reply{Text: "no names declared yet"}, nil
	}
	sort.Strings(lines)
	return Reply{Text: strings.Join(lines, "\n")}, nil
}

func cmdLoad(ctx context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("load", "a file name")
	}
	names, err := st.Sess.Load(ctx, arg)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: loaded(arg, names)}, nil
}

func cmdReload(ctx context.Context, st *State, _ string) (Reply, error) {
	names, err := st.Sess.Reload(ctx)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: loaded("", names)}, nil
}

func loaded(file string, names []string) string {
	s := "loaded"
	if file != "" {
		s += " " + file
	}
	if len(names) > 0 {
		s += ": " + strings.Join(names, ", ")
	}
	return s
}

// onOff reads an on/off argument; "" asks for the current setting.
func onOff(cmd, arg string) (on, set bool, err error) {
	switch arg {
	case "":
		return false, false, nil
	case "on":
		return true, true, nil
	case "off":
		return false, true, nil
	}
	return false, false, fmt.Errorf(":%s takes on or off, not %q", cmd, arg)
}

// OnOff renders a switch.
func OnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func cmdTime(_ context.Context, st *State, arg string) (Reply, error) {
	on, set, err := onOff("time", arg)
	if err != nil {
		return Reply{}, err
	}
	if set {
		st.Timing = on
	}
	return Reply{Text: "time " + OnOff(st.Timing)}, nil
}

func cmdFusion(_ context.Context, st *State, arg string) (Reply, error) {
	on, set, err := onOff("fusion", arg)
	if err != nil {
		return Reply{}, err
	}
	if set {
		st.Sess.SetFusion(on)
	}
	return Reply{Text: "fusion " + OnOff(st.Sess.Fusion())}, nil
}

func cmdBackend(_ context.Context, st *State, arg string) (Reply, error) {
	if arg != "" {
		if err := st.Sess.SetBackend(arg); err != nil {
			return Reply{}, err
		}
	}
	return Reply{Text: "backend " + describeBackend(st.Sess)}, nil
}

// backendDescriber is implemented by sessions that can say what "auto"
// chose and why.
type backendDescriber interface{ BackendDescription() string }

func describeBackend(s Session) string {
	if d, ok := s.(backendDescriber); ok {
		return d.BackendDescription()
	}
	return s.Backend()
}

// settings are the names :set knows, in the order it lists them.
var settings = []string{"print-limit", "deterministic", "memory"}

func completeSet(_ *State, arg string) []string {
	key, _, hasVal := strings.Cut(arg, " ")
	if !hasVal {
		return settings
	}
	switch key {
	case "deterministic":
		return []string{"on", "off"}
	case "print-limit":
		return []string{"0", "10", "100", "1000"}
	case "memory":
		return []string{"1GiB", "4GiB", "16GiB"}
	}
	return nil
}

func cmdSet(_ context.Context, st *State, arg string) (Reply, error) {
	key, val, _ := strings.Cut(arg, " ")
	val = strings.TrimSpace(val)
	switch key {
	case "":
		// Not memory: its default depends on the machine.
		return Reply{Text: fmt.Sprintf("print-limit %d\ndeterministic %s", st.PrintLimit, OnOff(st.Sess.Deterministic()))}, nil
	case "memory":
		if val != "" {
			// A size may be written with a space: 16 GiB.
			n, err := eval.ParseBytes(strings.ReplaceAll(val, " ", ""))
			if err != nil {
				return Reply{}, fmt.Errorf(":set memory: %v", err)
			}
			eval.SetMemoryLimit(n)
		}
		return Reply{Text: "memory " + eval.FormatBytes(eval.MemoryLimit())}, nil
	case "deterministic":
		on, set, err := onOff("set deterministic", val)
		if err != nil {
			return Reply{}, err
		}
		if set {
			st.Sess.SetDeterministic(on)
		}
		return Reply{Text: "deterministic " + OnOff(st.Sess.Deterministic())}, nil
	case "print-limit":
		if val != "" {
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return Reply{}, fmt.Errorf(":set print-limit wants a number of elements >= 0, not %q", val)
			}
			st.PrintLimit = n
		}
		return Reply{Text: fmt.Sprintf("print-limit %d", st.PrintLimit)}, nil
	}
	return Reply{}, fmt.Errorf("unknown setting %q (known: %s)", key, strings.Join(settings, ", "))
}

// cmdPlan compiles EXPR without running it and shows its fusion plan: as
// text, and for the kernel as an SVG drawing. With fusion off it shows
// the unfused program's SOACs, which is what runs.
func cmdPlan(_ context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("plan", "an expression")
	}
	c, err := st.Sess.Compile(st.ArgName, arg)
	if err != nil {
		return Reply{}, err
	}
	if err := st.Sess.AddGPUPlan(c); err != nil {
		return Reply{}, err
	}
	text := strings.TrimRight(c.Plan.Text(), "\n")
	if !st.Sess.Fusion() {
		text = "fusion is off: the program runs as written (:fusion on fuses it)\n" + text
	}
	svg := c.Plan.SVG()
	// The SVG goes in twice: as image/svg+xml, and inline in text/html,
	// which front ends and nbconvert rank first. nbconvert 6 (Debian 12)
	// passes image/svg+xml through an HTML sanitizer that strips every SVG
	// element, so without the HTML copy an exported notebook shows an
	// empty box.
	return Reply{Text: text, Data: map[string]any{
		"text/html":     `<div class="arepl-plan">` + svg + `</div>`,
		"image/svg+xml": svg,
	}}, nil
}

func cmdKernel(_ context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("kernel", "an expression")
	}
	c, err := st.Sess.Compile(st.ArgName, arg)
	if err != nil {
		return Reply{}, err
	}
	src, err := st.Sess.CUDA(c)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: strings.TrimRight(src, "\n"), Long: true}, nil
}

func cmdQuit(_ context.Context, st *State, _ string) (Reply, error) {
	st.UI.Quit()
	return Reply{}, nil
}

// cmdPrint shows the whole value, one row of the outermost dimension per
// line for arrays of rank two or more.
func cmdPrint(ctx context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("print", "an expression")
	}
	res, err := st.Sess.Eval(ctx, st.ArgName, arg)
	if err != nil {
		return Reply{}, err
	}
	if res.Type == nil {
		return Reply{}, errUsage("print", "an expression, not a declaration")
	}
	a, ok := res.Type.(*types.Array)
	if !ok || len(a.Dims) < 2 || len(res.Values) != 1 || len(res.Values[0].Shape) < 2 {
		s, err := eval.Format(res.Type, res.Values, 0)
		return Reply{Text: s}, err
	}
	v, err := res.Values[0].Host(ctx)
	if err != nil {
		return Reply{}, err
	}
	rowType := &types.Array{Elem: a.Elem, Dims: a.Dims[1:]}
	var b strings.Builder
	n := v.Shape[0]
	for i := int64(0); i < n; i++ {
		if err := ctx.Err(); err != nil {
			return Reply{}, err
		}
		s, err := eval.Format(rowType, []eval.Value{eval.Row(v, i)}, 0)
		if err != nil {
			return Reply{}, err
		}
		prefix, suffix := " ", ",\n"
		if i == 0 {
			prefix = "["
		}
		if i == n-1 {
			suffix = "]"
		}
		b.WriteString(prefix + s + suffix)
	}
	return Reply{Text: b.String()}, nil
}

// cmdInput asks the user for a value and declares NAME to be it.
func cmdInput(ctx context.Context, st *State, arg string) (Reply, error) {
	name, typ, _ := strings.Cut(arg, ":")
	name, typ = strings.TrimSpace(name), strings.TrimSpace(typ)
	if name == "" || strings.ContainsAny(name, " \t()[]") {
		return Reply{}, errors.New(":input needs a name, as in :input xs : []i32")
	}
	prompt := name
	if typ != "" {
		prompt += " : " + typ
	}
	text, err := st.UI.Input(ctx, prompt+" = ")
	if err != nil {
		return Reply{}, err
	}
	decl := "def " + name
	if typ != "" {
		decl += " : " + typ
	}
	decl += " = " + text
	if _, err := st.Sess.Eval(ctx, ":input", decl); err != nil {
		return Reply{}, err
	}
	return Reply{}, nil
}

func cmdEcho(_ context.Context, _ *State, arg string) (Reply, error) {
	if rest, ok := strings.CutPrefix(arg, "--stderr"); ok && (rest == "" || rest[0] == ' ') {
		return Reply{Text: strings.TrimSpace(rest), Stderr: true}, nil
	}
	return Reply{Text: arg}, nil
}

func cmdClear(_ context.Context, st *State, _ string) (Reply, error) {
	st.UI.Clear()
	return Reply{}, nil
}

// completeFile completes a path for :load: .fut files and folders.
func completeFile(_ *State, prefix string) []string {
	dir, base := filepath.Split(prefix)
	d := dir
	if d == "" {
		d = "."
	}
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil
	}
	var out []string
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
		out = append(out, dir+name)
	}
	return out
}
