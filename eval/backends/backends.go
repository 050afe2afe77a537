// Package backends assembles sessions with every backend this build has:
// the CPU interpreter always, and the CUDA backend created on first use
// when a GPU is present. eval cannot import its backends (they import
// eval for values), and eval/cpu and eval/gpu never import each other, so
// this is the one place that knows them all; the REPL, `arepl run/test/
// bench` and the Jupyter kernel all start here.
package backends

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	"github.com/arepl/arepl/eval/gpu"
	"github.com/arepl/arepl/eval/shard"
	"github.com/arepl/arepl/lang/core"
)

// NewSession returns a session whose CPU and GPU backends are wired in.
// opts.Backend and opts.Fusion are kept; CPU, GPU and CUDA are filled in.
// The GPU backend runs what it cannot do on the GPU through the CPU
// interpreter.
func NewSession(opts eval.Options) *eval.Session {
	c := cpu.New(cpu.Options{})
	opts.CPU = c
	opts.GPU = func() (eval.Backend, error) {
		g, err := gpu.New(gpu.Options{Fallback: c, Tiered: gpu.TieringFromEnv()})
		if err != nil {
			return nil, err
		}
		return g, nil
	}
	opts.CUDA = gpu.Kernel
	opts.GPUPlan = gpu.PlanLines
	opts.Devices = func(spec string) (eval.Backend, error) { return Devices(spec, opts.ShardMin, c) }
	if opts.DeviceSpec != "" {
		spec := opts.DeviceSpec
		opts.GPU = func() (eval.Backend, error) { return Devices(spec, opts.ShardMin, c) }
		opts.GPUPlan = shardedPlan(spec, opts.GPUPlan)
	}
	return eval.NewSession(opts)
}

// Devices makes the multi-device backend spec names: "all" or "0,1,..."
// for GPUs (one backend per device, NCCL between them), "sim:N" for N
// simulated devices (the CPU interpreter per device and Go collectives,
// which CI tests the sharding with). minShard is the sharding threshold in
// elements (0: shard.DefaultMinShard on GPUs, 1 simulated, so that every
// test program's statements are spread).
func Devices(spec string, minShard int64, fallback eval.Backend) (eval.Backend, error) {
	if n, ok := strings.CutPrefix(spec, "sim:"); ok {
		k, err := strconv.Atoi(n)
		if err != nil || k < 1 || k > 64 {
			return nil, fmt.Errorf("--devices %q: want sim:N with N from 1 to 64", spec)
		}
		devs := make([]eval.Backend, k)
		for i := range devs {
			devs[i] = cpu.New(cpu.Options{})
		}
		if minShard == 0 {
			minShard = 1
		}
		return shard.New(shard.Options{Name: "gpu", Devices: devs, Comm: shard.Local{N: k}, MinShard: minShard,
			Describe: fmt.Sprintf("%d simulated devices (the CPU interpreter on each)", k)})
	}
	ords, err := gpu.ParseDevices(spec)
	if err != nil {
		return nil, err
	}
	gs, comm, err := gpu.OpenDevices(gpu.Options{Fallback: fallback}, ords, func() eval.Backend { return cpu.New(cpu.Options{}) })
	if err != nil {
		return nil, err
	}
	devs := make([]eval.Backend, len(gs))
	var names []string
	for i, g := range gs {
		devs[i] = g
		names = append(names, fmt.Sprintf("dev%d: GPU %d %s", i, ords[i], g.Device()))
	}
	var c shard.Comm = shard.Local{N: 1}
	if comm != nil {
		c = comm
	}
	return shard.New(shard.Options{Name: "gpu", Devices: devs, Comm: c, MinShard: minShard, Parallel: true,
		CollectiveMin: 4096, PeerCopies: gpuPeerCopies == "on", Describe: strings.Join(names, "; ")})
}

// gpuPeerCopies turns on shard.Options.PeerCopies for GPUs ("on"; "off"
// leaves every move between devices to the host). Benchmarks built with
// -ldflags '-X github.com/arepl/arepl/eval/backends.gpuPeerCopies=off|on'
// time both.
var gpuPeerCopies = "off"

// shardedPlan adds the sharding to the GPU plan's lines.
func shardedPlan(spec string, plan func(*core.Program) ([]string, error)) func(*core.Program) ([]string, error) {
	return func(p *core.Program) ([]string, error) {
		lines, err := plan(p)
		head := "sharded over --devices " + spec + ": map, redomap, scan (blocks scanned alone, their carries pending for the next statement; or reduced, then scanned once with them), hist (combined), filter (survivors stay) and segmented statements run per device on blocks of the outer dimension; every other statement runs on device 0 with its sharded inputs gathered"
		return append([]string{head}, lines...), err
	}
}
