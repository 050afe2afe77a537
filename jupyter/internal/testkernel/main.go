// Command testkernel is the kernel alone, with arepl's command line for it
// (`testkernel jupyter install ...`, `testkernel jupyter kernel -f FILE`),
// so jupyter/test.sh can exercise the kernel in a tree where cmd/arepl is
// not built. test.sh uses the real arepl binary whenever it is given one.
package main

import (
	"fmt"
	"os"

	"github.com/arepl/arepl/jupyter"
)

func main() {
	args := os.Args[1:]
	if len(args) < 2 || args[0] != "jupyter" {
		fmt.Fprintln(os.Stderr, "usage: testkernel jupyter install [flags] | testkernel jupyter kernel -f FILE")
		os.Exit(2)
	}
	var err error
	switch args[1] {
	case "install":
		err = jupyter.Install(args[2:])
	case "kernel":
		err = jupyter.Kernel(args[2:])
	default:
		err = fmt.Errorf("unknown jupyter subcommand %q", args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
