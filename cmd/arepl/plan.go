package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/source"
)

// runPlan is `arepl plan FILE [-e ENTRY] [--json|--svg|--cuda]`: load FILE
// and show what fusion makes of the entry point (the SOACs before and
// after, every fusion applied or refused with its reason, and per kernel
// the arrays read and written and the bytes moved), or the CUDA the GPU
// backend generates for it. No GPU is needed: this only compiles.
func runPlan(args []string) error {
	fs := flag.NewFlagSet("arepl plan", flag.ContinueOnError)
	entry := fs.String("e", "main", "the entry point to plan")
	asJSON := fs.Bool("json", false, "print the plan as JSON")
	asSVG := fs.Bool("svg", false, "print the plan as an SVG drawing")
	asCUDA := fs.Bool("cuda", false, "print the CUDA code generated for the entry point")
	var sf sessionFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arepl plan FILE [-e ENTRY] [--json|--svg|--cuda] [--no-fusion]")
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
	formats := 0
	for _, on := range []bool{*asJSON, *asSVG, *asCUDA} {
		if on {
			formats++
		}
	}
	if formats > 1 {
		fmt.Fprintln(os.Stderr, "arepl plan: choose one of --json, --svg and --cuda")
		return errUsage
	}
	opts, err := sf.options()
	if err != nil {
		return err
	}
	out, err := planEntry(opts, pos[0], *entry, *asJSON, *asSVG, *asCUDA)
	if err != nil {
		fmt.Fprintln(os.Stderr, source.Detail(err))
		return exitError{1}
	}
	fmt.Print(out)
	return nil
}

func planEntry(opts eval.Options, file, entry string, asJSON, asSVG, asCUDA bool) (out string, err error) {
	defer recoverInternal(&err)
	sess := newSession(opts)
	if _, err := sess.Load(context.Background(), file); err != nil {
		return "", err
	}
	c, err := sess.CompileCall(entry)
	if err != nil {
		return "", err
	}
	if err := sess.AddGPUPlan(c); err != nil {
		return "", err
	}
	switch {
	case asCUDA:
		return sess.CUDA(c)
	case asJSON:
		return c.Plan.JSON() + "\n", nil
	case asSVG:
		return c.Plan.SVG() + "\n", nil
	}
	if !sess.Fusion() {
		return planFusionOff + c.Plan.Text(), nil
	}
	return c.Plan.Text(), nil
}

// planFusionOff heads the text plan of an unfused program.
const planFusionOff = "fusion is off: the program runs as written\n"
