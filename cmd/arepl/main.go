// Command arepl is the command-line face of arepl: an interactive REPL for
// a subset of Futhark, plus batch subcommands over .fut files.
//
//	arepl                       the REPL (also: arepl repl [FILE])
//	arepl run FILE [-e ENTRY]   run an entry point on values read from stdin
//	arepl test PATH...          run Futhark test blocks
//	arepl bench FILE [-e ENTRY] time an entry point on given or random inputs
//	arepl plan FILE [-e ENTRY]  show the fusion plan or generated CUDA
//	arepl jupyter install|kernel
//
// Every subcommand is a thin layer over eval.Session, the same object the
// Jupyter kernel drives, so the REPL, the batch commands and notebooks
// evaluate identically. Values are printed by eval.Format (REPL style) and
// eval.FormatRun (Futhark value syntax); inputs are read by
// eval.ReadValues.
//
// Conventions: errors print with source.Detail (the source line and a
// caret) on stderr; a batch command exits with status 1 when anything
// failed and 2 on a usage error; a panic inside evaluation is recovered and
// reported as an internal error, so no input can kill the REPL.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/trace"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	"github.com/arepl/arepl/jupyter"
)

// version is the release; the VCS revision is added from the build info.
const version = "0.1.0"

// errUsage marks command-line mistakes (exit status 2); the message has
// already been printed.
var errUsage = errors.New("usage")

// exitError carries an exit status out of a subcommand whose errors were
// already reported.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// subcommand is one entry of the command table.
type subcommand struct {
	name    string
	summary string
	run     func(args []string) error
}

var subcommands []subcommand

func init() {
	// Assigned in init because the help subcommand refers to the table.
	subcommands = []subcommand{
		{"repl", "start the REPL, with FILE loaded if given (the default)", runREPL},
		{"run", "run an entry point on arguments read from stdin", runRun},
		{"test", "run the Futhark test blocks of .fut files and folders", runTest},
		{"bench", "time an entry point on inputs from stdin or random ones", runBench},
		{"plan", "show the fusion plan (or the generated CUDA) of an entry point", runPlan},
		{"jupyter", "install the Jupyter kernel spec, or run the kernel", runJupyter},
		{"nccl", "join an NCCL communicator across processes, check its collectives (docs/multigpu.md)", runNCCLCheck},
		{"version", "print the version (also --version)", func([]string) error { fmt.Println(versionString()); return nil }},
		{"help", "show this help", func([]string) error { usage(os.Stdout); return nil }},
	}
}

func main() {
	// AREPL_GO_TRACE=FILE writes Go's execution trace of the whole process
	// (goroutine hand-offs, garbage collections) for looking into stalls.
	if path := os.Getenv("AREPL_GO_TRACE"); path != "" {
		if f, err := os.Create(path); err == nil && trace.Start(f) == nil {
			code := mainStatus(os.Args[1:])
			trace.Stop()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(mainStatus(os.Args[1:]))
}

// mainStatus runs the command line and returns the exit status.
func mainStatus(args []string) int {
	err := dispatch(args)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.As(err, &ee):
		return ee.code
	}
	// Errors that already name the command (arepl jupyter install: ...)
	// get no second prefix.
	if msg := err.Error(); strings.HasPrefix(msg, "arepl") {
		fmt.Fprintln(os.Stderr, msg)
	} else {
		fmt.Fprintln(os.Stderr, "arepl:", msg)
	}
	return 1
}

func dispatch(args []string) error {
	if len(args) == 0 {
		return runREPL(nil)
	}
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Println(versionString())
		return nil
	case "-h", "--help", "-help":
		usage(os.Stdout)
		return nil
	}
	for _, c := range subcommands {
		if c.name == args[0] {
			return c.run(args[1:])
		}
	}
	// `arepl FILE.fut` and `arepl --backend cpu` mean the REPL.
	if strings.HasSuffix(args[0], ".fut") || strings.HasPrefix(args[0], "-") {
		return runREPL(args)
	}
	if near := nearest(args[0]); near != "" {
		fmt.Fprintf(os.Stderr, "arepl: unknown command %q; did you mean %s?\n\n", args[0], near)
	} else {
		fmt.Fprintf(os.Stderr, "arepl: unknown command %q\n\n", args[0])
	}
	usage(os.Stderr)
	return errUsage
}

// nearest is the subcommand within two edits of name (a typo such as
// `rnu`), or "".
func nearest(name string) string {
	best, bestD := "", 3
	for _, c := range subcommands {
		if d := editDistance(name, c.name); d < bestD {
			best, bestD = c.name, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of neighbours cost one each.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "arepl %s: a REPL for array programs in a subset of Futhark\n\nUsage:\n", version)
	fmt.Fprintln(w, "  arepl [repl] [FILE] [--backend cpu|gpu|auto] [--no-fusion]")
	fmt.Fprintln(w, "  arepl run FILE [-e ENTRY] [--backend B] [--no-fusion]   < inputs")
	fmt.Fprintln(w, "  arepl test PATH... [--backend B] [--no-fusion] [--timeout D]")
	fmt.Fprintln(w, "  arepl bench FILE [-e ENTRY] [--runs N] [--warmup N] [--size N] [--seed N] [--json] [--backend B] [--no-fusion]")
	fmt.Fprintln(w, "  arepl plan FILE [-e ENTRY] [--json|--svg|--cuda] [--no-fusion]")
	fmt.Fprintln(w, "  arepl jupyter install|kernel [ARGS]")
	fmt.Fprintln(w, "  arepl version | --version")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range subcommands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nIn the REPL, :help lists the REPL commands. `arepl CMD -h` describes CMD's flags.")
}

func versionString() string {
	s := "arepl " + version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range info.Settings {
			if kv.Key == "vcs.revision" && len(kv.Value) >= 12 {
				s += " (" + kv.Value[:12] + ")"
			}
		}
		s += " " + info.GoVersion
	}
	return s + "; CPU vector kernels: " + cpu.SIMD()
}

// ---------------------------------------------------------------------------
// Flags shared by subcommands

// sessionFlags are the evaluation options every subcommand accepts.
type sessionFlags struct {
	backend  string
	noFusion bool
	memory   string
	devices  string
	shardMin int64
}

func (f *sessionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.backend, "backend", "auto", "backend: cpu, gpu or auto (the GPU when one is present)")
	fs.BoolVar(&f.noFusion, "no-fusion", false, "turn the fusion passes off")
	fs.StringVar(&f.memory, "memory", "", "memory budget for values and intermediates, e.g. 16GiB (default: 3/4 of physical memory)")
	fs.StringVar(&f.devices, "devices", "", "shard arrays over several devices: all, 0,1,... or sim:N (N simulated devices); implies --backend gpu (docs/multigpu.md)")
	fs.Int64Var(&f.shardMin, "shard-min", 0, "with --devices: the element count from which a statement is spread over the devices (default 1048576; 1 for sim:N)")
}

// options checks the flags and returns the session options they ask for.
func (f *sessionFlags) options() (eval.Options, error) {
	switch f.backend {
	case "auto", "cpu", "gpu":
	default:
		return eval.Options{}, fmt.Errorf("unknown backend %q (want cpu, gpu or auto)", f.backend)
	}
	opts := eval.Options{Backend: f.backend, Fusion: !f.noFusion, DeviceSpec: f.devices, ShardMin: f.shardMin}
	if f.devices != "" {
		if f.backend == "cpu" {
			return eval.Options{}, fmt.Errorf("--devices %s needs --backend gpu (or auto)", f.devices)
		}
		opts.Backend = "gpu"
	}
	if f.memory != "" {
		n, err := eval.ParseBytes(f.memory)
		if err != nil {
			return eval.Options{}, fmt.Errorf("--memory: %v", err)
		}
		// The budget is the process's: set it now for the subcommands
		// that build sessions of their own (test).
		opts.Memory = n
		eval.SetMemoryLimit(n)
	}
	return opts, nil
}

// parseFlags parses args with fs, allowing flags after positional
// arguments (`arepl run prog.fut -e main`), and returns the positional
// arguments. A bad flag prints fs's usage and yields errUsage.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(os.Stderr)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitError{0}
			}
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// ---------------------------------------------------------------------------
// Jupyter

func runJupyter(args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: arepl jupyter install [ARGS] | arepl jupyter kernel -f CONNECTION_FILE")
		return errUsage
	}
	switch args[0] {
	case "install":
		if err := jupyter.Install(args[1:]); !errors.Is(err, flag.ErrHelp) {
			return err
		}
		return nil
	case "kernel":
		keepGCFloor()
		return jupyter.Kernel(args[1:])
	}
	fmt.Fprintf(os.Stderr, "arepl jupyter: unknown subcommand %q (want install or kernel)\n", args[0])
	return errUsage
}
