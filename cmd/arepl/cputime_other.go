//go:build !unix

package main

// processCPU is not available here: bench reports no CPU time.
func processCPU() (float64, bool) { return 0, false }
