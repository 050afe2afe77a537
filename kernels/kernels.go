// Package kernels holds the CUDA C templates of arepl's GPU kernels,
// embedded in the binary. eval/gpu instantiates them with text/template:
// each template is the skeleton of one kernel (thread and block structure,
// shared memory, the cross-block finish) and calls back into the generator
// for the parts that depend on the program (loading and mapping an element,
// combining accumulators, the parameter list). prelude.cu is included once
// at the top of every module.
package kernels

import "embed"

// FS holds prelude.cu and one template per kernel family.
//
//go:embed *.cu
var FS embed.FS
