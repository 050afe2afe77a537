//go:build !(goexperiment.simd && amd64)

package cpu

const simdStatus = "none (built without GOEXPERIMENT=simd on amd64)"

// useSIMD keeps the portable kernels: this build has no vector kernels.
func useSIMD() {}
