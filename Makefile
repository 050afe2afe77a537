# The two commands a newcomer needs are `make repl` and `make test`
# (README.md). Everything builds with CGO_ENABLED=0: the GPU backend loads
# the CUDA driver at run time, so the same binary runs here and on the GPU
# machine.
GO      ?= go
BIN     := bin/arepl
export CGO_ENABLED := 0
# The CPU interpreter's AVX2 kernels use Go's experimental simd/archsimd
# package (eval/cpu/simd.go); without the experiment the portable kernels
# run, which test-go checks too.
export GOEXPERIMENT := simd

.PHONY: all build repl test test-go test-programs test-jupyter gpu-build gpu-test bench-cpu clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/arepl

# Build and start the REPL with the tour loaded.
repl: build
	./$(BIN) repl examples/tour.fut

# Everything CI runs: formatting and vet, unit tests (fuzz corpora replay as
# part of them), every .fut test program fused and unfused, and the Jupyter
# kernel against real Jupyter clients.
test: build test-go test-programs test-jupyter

test-go:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:" $$unformatted; exit 1; fi
	$(GO) vet ./...
	$(GO) test ./...
	GOEXPERIMENT= $(GO) vet ./eval/cpu
	GOEXPERIMENT= $(GO) test ./eval/cpu
	# The patched zmq4 (third_party/zmq4/PATCHED.md) is its own module,
	# outside ./...: vet it and run the patch's tests.
	cd third_party/zmq4 && $(GO) vet . && $(GO) test -run 'TestRead|TestMetadataMalformed|TestWriteTimeout' .

test-programs: build
	./$(BIN) test testdata examples
	./$(BIN) test --no-fusion testdata examples
	# The sharding over devices (eval/shard), on 2 and 3 simulated devices.
	./$(BIN) test --devices sim:2 testdata examples
	./$(BIN) test --devices sim:3 testdata examples

test-jupyter: build
	bash jupyter/test.sh $(abspath $(BIN))

# The GPU machine has no Go: `make gpu-build` here builds the binary and the
# GPU test binaries into .devbin/ (send it along), then `make gpu-test` there
# runs the driver and device tests, compute-sanitizer memcheck, and every
# test program on the GPU, fused and unfused, against the expected results.
gpu-build:
	$(GO) build -o .devbin/arepl ./cmd/arepl
	$(GO) test -c -o .devbin/gpu.test ./eval/gpu
	$(GO) test -c -o .devbin/cuda.test ./eval/gpu/cuda

gpu-test:
	bash bench/gpu/gpu-test.sh .devbin

bench-cpu: build
	bash bench/cpu/run.sh

clean:
	rm -rf bin
