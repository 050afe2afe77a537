package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// runRun is `arepl run FILE [-e ENTRY]`: load FILE, read the entry's
// arguments from stdin in Futhark value syntax, print the results in
// `futhark run` format, one per line. Errors go to stderr, status 1.
func runRun(args []string) error {
	fs := flag.NewFlagSet("arepl run", flag.ContinueOnError)
	entry := fs.String("e", "main", "the entry point to run")
	var sf sessionFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arepl run FILE [-e ENTRY] [--backend cpu|gpu|auto] [--no-fusion] < inputs")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	opts, err := sf.options()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out, err := runEntry(ctx, opts, pos[0], *entry, os.Stdin)
	if err != nil && ctx.Err() != nil {
		// Ctrl-C: say so, not "context canceled", and exit as SIGINT does.
		fmt.Fprintln(os.Stderr, "arepl run: interrupted")
		return exitError{130}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, source.Detail(err))
		return exitError{1}
	}
	if out != "" {
		fmt.Println(out)
	}
	return nil
}

// runEntry loads file, reads entry's arguments from in and returns the
// results in value syntax. A panic in the pipeline becomes an error.
func runEntry(ctx context.Context, opts eval.Options, file, entry string, in io.Reader) (out string, err error) {
	defer recoverInternal(&err)
	sess := newSession(opts)
	if _, err := sess.Load(ctx, file); err != nil {
		return "", err
	}
	params, ret, err := sess.ParamTypes(entry)
	if err != nil {
		return "", err
	}
	if params == nil {
		params = []types.Type{} // no parameters: read no values (nil would read any)
	}
	// The input may not exceed the memory budget; Ctrl-C stops the read.
	text, err := eval.ReadAllLimited(ctx, in, eval.MemoryLimit()/2, "<stdin>")
	if err != nil {
		return "", err
	}
	argv, err := eval.ReadValuesFile("<stdin>", string(text), params)
	if err != nil {
		return "", err
	}
	res, err := sess.Call(ctx, entry, argv)
	if err != nil {
		return "", err
	}
	return formatResult(res, ret)
}

// formatResult renders a call's results in value syntax; the result's own
// type is preferred (it has the actual sizes), the declared one otherwise.
func formatResult(res *eval.Result, declared types.Type) (string, error) {
	t := res.Type
	if t == nil {
		t = declared
	}
	return eval.FormatRun(t, res.Values)
}

// recoverInternal turns a panic into an internal error in *err.
func recoverInternal(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("internal error: %v", p)
	}
}
