package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/chzyer/readline"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/futtest"
)

// runTest is `arepl test PATH...`: the Futhark test blocks of .fut files
// and folders (recursively), run by package futtest. It prints the skip
// notes, one line per failure and the summary `N passed, N failed`; the
// status is 1 when anything failed. On a terminal, progress shows on
// stderr while it runs.
func runTest(args []string) error {
	fs := flag.NewFlagSet("arepl test", flag.ContinueOnError)
	timeout := fs.Duration("timeout", 0, "bound on each case's run time, e.g. 30s (0: none)")
	verbose := fs.Bool("v", false, "print one line per file with its result")
	var sf sessionFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arepl test PATH... [-v] [--backend cpu|gpu|auto] [--no-fusion] [--timeout D]")
		fs.PrintDefaults()
	}
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		fs.Usage()
		return errUsage
	}
	opts, err := sf.options()
	if err != nil {
		return err
	}
	topts := futtest.Options{
		Backend:    opts.Backend,
		Fusion:     opts.Fusion,
		PlanCheck:  futtest.CheckFusionPlan,
		Timeout:    *timeout,
		NewSession: newSession,
	}
	if opts.DeviceSpec != "" {
		// futtest builds each file's session from Backend and Fusion:
		// carry the devices along.
		topts.NewSession = func(o eval.Options) *eval.Session {
			o.DeviceSpec, o.ShardMin = opts.DeviceSpec, opts.ShardMin
			return newSession(o)
		}
	}
	if *verbose {
		topts.Verbose = os.Stdout
	} else if readline.IsTerminal(int(os.Stderr.Fd())) {
		topts.Progress = os.Stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	rep, err := futtest.Run(ctx, paths, topts)
	if rep != nil {
		rep.Write(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "arepl test:", err)
		return exitError{1}
	}
	if topts.Progress != nil {
		fmt.Fprintf(os.Stderr, "%d files in %s\n", rep.Files, time.Since(start).Round(time.Millisecond))
	}
	if rep.Failed > 0 {
		return exitError{1}
	}
	return nil
}
