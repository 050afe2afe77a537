package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu"
	"github.com/arepl/arepl/eval/gpu/nccl"
	"github.com/arepl/arepl/eval/shard"
	"github.com/arepl/arepl/lang/core"
)

// runNCCLCheck is `arepl nccl --rendezvous SPEC --rank R --nranks N`:
// the many-hosts bootstrap, checked. Every process (one per GPU or host,
// its GPU chosen by CUDA_VISIBLE_DEVICES) shares rank 0's NCCL id through
// the rendezvous, joins the communicator, all-reduces a buffer of its rank
// + 1 and all-gathers its rank, and checks the results; it prints one line
// with the collectives' bus bandwidth. docs/multigpu.md says how to launch it.
func runNCCLCheck(args []string) error {
	fs := flag.NewFlagSet("arepl nccl", flag.ContinueOnError)
	spec := fs.String("rendezvous", "", "file:PATH or tcp:HOST:PORT: where rank 0 shares NCCL's unique id")
	rank := fs.Int("rank", 0, "this process's rank, 0 to nranks-1")
	nranks := fs.Int("nranks", 1, "the number of processes")
	elems := fs.Int64("elems", 1<<24, "f32 elements of the all-reduce buffer")
	timeout := fs.Duration("timeout", 2*time.Minute, "bound on the rendezvous and the collectives")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arepl nccl --rendezvous file:PATH|tcp:HOST:PORT --rank R --nranks N [--elems N]")
		fs.PrintDefaults()
	}
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if *spec == "" {
		fs.Usage()
		return errUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	lib, err := nccl.Load()
	if err != nil {
		return err
	}
	id, err := nccl.Exchange(ctx, *spec, *rank, *nranks, lib.GetUniqueID)
	if err != nil {
		return err
	}
	b, comm, err := gpu.JoinRank(gpu.Options{}, id, *rank, *nranks)
	if err != nil {
		return fmt.Errorf("rank %d: joining the communicator: %w", *rank, err)
	}
	defer comm.Close()
	// All-reduce: every element becomes 1 + 2 + ... + nranks.
	buf := eval.NewArray(core.F32, *elems)
	for i := range buf.Data.([]float32) {
		buf.Data.([]float32)[i] = float32(*rank + 1)
	}
	var best eval.KernelTiming
	var out []eval.Value
	for i := range 5 { // the first call sets up NCCL's connections
		o, kt, err := comm.AllReduce(ctx, []eval.Value{buf}, core.Add)
		if err != nil {
			return fmt.Errorf("rank %d: %w", *rank, err)
		}
		if i == 0 || kt.Time < best.Time {
			best = kt
		}
		out = o
	}
	hv, err := out[0].Host(ctx)
	if err != nil {
		return err
	}
	want := float32(*nranks * (*nranks + 1) / 2)
	for i, x := range hv.Data.([]float32) {
		if x != want {
			return fmt.Errorf("rank %d: all-reduce element %d is %v, want %v", *rank, i, x, want)
		}
	}
	// All-gather: rank r contributes r.
	mine := eval.Value{Elem: core.I64, Shape: []int64{1}, Data: []int64{int64(*rank)}}
	g, _, err := comm.AllGather(ctx, []eval.Value{mine})
	if err != nil {
		return fmt.Errorf("rank %d: %w", *rank, err)
	}
	gv, err := g[0].Host(ctx)
	if err != nil {
		return err
	}
	for r, x := range gv.Data.([]int64) {
		if x != int64(r) {
			return errors.New("all-gather out of rank order")
		}
	}
	fmt.Printf("rank %d of %d on %s: %s; all-reduce of %d f32 OK (%v, bus bandwidth %.1f GB/s); all-gather OK\n",
		*rank, *nranks, b.Device(), comm.Name(), *elems, best.Time,
		shard.BusBandwidth("allreduce", best.Bytes, *nranks, best.Time)/1e9)
	return nil
}
