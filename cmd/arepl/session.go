package main

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/backends"
)

// newSession is the one place the CLI builds sessions, so every subcommand
// gets the same backends.
func newSession(opts eval.Options) *eval.Session { return backends.NewSession(opts) }
