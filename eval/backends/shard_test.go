package backends

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	"github.com/arepl/arepl/eval/gpu"
	"github.com/arepl/arepl/eval/shard"
	"github.com/arepl/arepl/lang/core"
)

// shardCases are inputs whose statements take each path of eval/shard:
// map, redomap with an operator the collective knows and with one it does
// not (non-commutative, tuple), scan with its carries, filter and
// partition (uneven blocks), hist (all-reduced and by the operator),
// segmented reductions over rows, index arithmetic fused into a map (the
// block's offset), and an array read whole inside the lambda that maps over
// its blocks.
var shardCases = []string{
	`map (\i -> i32.i64 i * 3 - 7) (iota N)`,
	`reduce (+) 0 (map (\i -> i32.i64 i % 1000) (iota N))`,
	`reduce i64.max i64.lowest (map (\i -> (i * 7919) % 10007) (iota N))`,
	`reduce (\a b -> if b % 3 == 0 then b else a) 0 (map (\i -> i32.i64 i) (iota N))`,
	`reduce (\(a, i) (b, j) -> if b > a || (b == a && j < i) then (b, j) else (a, i)) (i32.lowest, -1i64) (zip (map (\i -> i32.i64 ((i * 31) % 97)) (iota N)) (iota N))`,
	`reduce (+) 0f32 (map (\i -> f32.i64 (i % 8)) (iota N))`,
	`reduce (&&) true (map (\i -> i < N) (iota N))`,
	`scan (+) 0 (map (\i -> i32.i64 i % 5) (iota N))`,
	`scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1u32, 0u32) (zip (map (\i -> u32.i64 (i % 5 + 1)) (iota N)) (map (\i -> u32.i64 i) (iota N)))`,
	`scan i64.min i64.highest (map (\i -> (i * 7919) % 10007) (iota N))`,
	`filter (\x -> x % 3 == 1) (map (\i -> i32.i64 i) (iota N))`,
	`partition (\x -> x % 4 == 0) (map (\i -> i32.i64 i) (iota N))`,
	`hist (+) 0 10 (map (\i -> i % 10) (iota N)) (map (\i -> i32.i64 i) (iota N))`,
	`hist i32.max i32.lowest 7 (map (\i -> (i * 13) % 9) (iota N)) (map (\i -> i32.i64 ((i * 31) % 101)) (iota N))`,
	`hist (\a b -> a | b) 0u8 5 (map (\i -> i % 5) (iota N)) (map (\i -> u8.i64 (i % 256)) (iota N))`,
	`map (\r -> reduce (+) 0 r) (unflatten (map (\i -> i32.i64 i) (iota (N * 3))) : [N][3]i32)`,
	`map (\r -> scan (+) 0 r) (unflatten (map (\i -> i32.i64 i) (iota (N * 4))) : [N][4]i32)`,
	`let xs = map (\i -> i32.i64 ((i * 7) % 11)) (iota N) in map (\x -> reduce (+) 0 (map (\y -> if y < x then 1 else 0) xs)) xs`,
	`let xs = map (\i -> i32.i64 i) (iota N) in (reduce (+) 0 xs, scan (+) 0 xs, map (*2) xs)`,
}

// TestShardedMatchesCPU runs every case on 1 to 4 simulated devices, with
// sizes that leave some devices without rows, against the CPU.
func TestShardedMatchesCPU(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 2, 3, 7, 1000} {
		ref := NewSession(eval.Options{Backend: "cpu", Fusion: true})
		want := map[string]string{}
		for _, c := range shardCases {
			src := strings.ReplaceAll(c, "N", fmt.Sprint(n))
			res, err := ref.Eval(ctx, "[cpu]", src)
			if err != nil {
				t.Fatalf("cpu %s: %v", src, err)
			}
			want[src] = formatAll(t, res)
		}
		for devs := 1; devs <= 4; devs++ {
			for _, fusion := range []bool{true, false} {
				s := NewSession(eval.Options{Backend: "gpu", Fusion: fusion, DeviceSpec: fmt.Sprintf("sim:%d", devs)})
				for _, c := range shardCases {
					src := strings.ReplaceAll(c, "N", fmt.Sprint(n))
					res, err := s.Eval(ctx, "[sim]", src)
					if err != nil {
						t.Fatalf("%d devices, fusion %v, %s: %v", devs, fusion, src, err)
					}
					if got := formatAll(t, res); got != want[src] {
						t.Errorf("%d devices, fusion %v, %s:\n got %s\nwant %s", devs, fusion, src, got, want[src])
					}
				}
			}
		}
	}
}

func formatAll(t *testing.T, res *eval.Result) string {
	t.Helper()
	out, err := eval.FormatRun(res.Type, hostAll(t, res.Values))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func hostAll(t *testing.T, vs []eval.Value) []eval.Value {
	out := make([]eval.Value, len(vs))
	for i, v := range vs {
		hv, err := v.Host(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out[i] = hv
	}
	return out
}

// TestShardedPaths checks that the statements really ran per device and
// were combined the way the package comment says, by the notes and
// timing rows the backend leaves, and that results stay sharded.
func TestShardedPaths(t *testing.T) {
	ctx := context.Background()
	s := NewSession(eval.Options{Backend: "gpu", Fusion: true, DeviceSpec: "sim:3"})
	for _, c := range []struct {
		src      string
		notes    []string // substrings some note must have
		kernels  []string // substrings some timing row must have
		sharded  bool     // the first result is a sharded array
		blockLen []int64
	}{
		{src: `reduce (+) 0 (map (\i -> i32.i64 i) (iota 100))`, notes: []string{"ran on 3 devices", "bus bandwidth"},
			kernels: []string{"dev0 ", "dev1 ", "dev2 ", "allreduce (simulated) (3 ranks)"}},
		{src: `reduce (\a b -> b) 0 (map (\i -> i32.i64 i) (iota 100))`, notes: []string{"partials combined by its operator"}},
		{src: `scan (+) 0 (map (\i -> i32.i64 i) (iota 100))`, notes: []string{"each block scanned alone, its carry left pending"},
			kernels: []string{"dev0 read block's last element", "dev1 read block's last element"}, sharded: true, blockLen: []int64{33, 33, 34}},
		{src: `scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1u32, 0u32) (zip (map (\i -> u32.i64 (i % 5 + 1)) (iota 100)) (map (\i -> u32.i64 i) (iota 100)))`,
			notes: []string{"each block scanned once with its carry"}, kernels: []string{"allgather (simulated)"}, sharded: true, blockLen: []int64{33, 33, 34}},
		{src: `filter (\x -> x < 40) (map (\i -> i32.i64 i) (iota 100))`, notes: []string{"survivors stay on their devices"},
			sharded: true, blockLen: []int64{33, 7, 0}},
		{src: `hist (+) 0 4 (map (\i -> i % 4) (iota 100)) (map (\i -> i32.i64 i) (iota 100))`, notes: []string{"per-device histograms"},
			kernels: []string{"allreduce"}},
		{src: `transpose (unflatten (map (\i -> i32.i64 i) (iota 100)) : [10][10]i32)`, notes: []string{"gathered"}},
	} {
		res, err := s.Eval(ctx, "[t]", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		all := strings.Join(res.Timings.Notes, "\n")
		for _, n := range c.notes {
			if !strings.Contains(all, n) {
				t.Errorf("%s: no note with %q in:\n%s", c.src, n, all)
			}
		}
		var rows []string
		for _, k := range res.Timings.Kernels {
			rows = append(rows, k.Name)
		}
		for _, k := range c.kernels {
			if !strings.Contains(strings.Join(rows, "\n"), k) {
				t.Errorf("%s: no timing row with %q in %q", c.src, k, rows)
			}
		}
		sh, ok := res.Values[0].Dev.(*shard.Sharded)
		if ok != c.sharded {
			t.Errorf("%s: sharded result %v, want %v", c.src, ok, c.sharded)
		}
		if ok && c.blockLen != nil {
			for k, p := range sh.Parts {
				if p.Shape[0] != c.blockLen[k] {
					t.Errorf("%s: block %d has %d rows, want %d (%s)", c.src, k, p.Shape[0], c.blockLen[k], sh.Placement())
				}
			}
		}
	}
}

// TestShardMinKeepsSmallArraysOnOneDevice: below the threshold nothing is
// spread.
func TestShardMinKeepsSmallArraysOnOneDevice(t *testing.T) {
	s := NewSession(eval.Options{Backend: "gpu", Fusion: true, DeviceSpec: "sim:2", ShardMin: 1000})
	res, err := s.Eval(context.Background(), "[t]", `map (+1) (iota 999)`)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Values[0].Dev.(*shard.Sharded); ok {
		t.Error("999 elements were sharded with a threshold of 1000")
	}
	res, err = s.Eval(context.Background(), "[t]", `map (+1) (iota 1000)`)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Values[0].Dev.(*shard.Sharded); !ok {
		t.Error("1000 elements were not sharded with a threshold of 1000")
	}
}

func TestDevicesSpecErrors(t *testing.T) {
	for _, spec := range []string{"sim:0", "sim:x", "sim:65", "0,0", "a,b", "-1"} {
		if _, err := Devices(spec, 0, nil); err == nil || !strings.Contains(err.Error(), "--devices") && !strings.Contains(err.Error(), "no GPU") {
			t.Errorf("Devices(%q) = %v, want an error naming --devices", spec, err)
		}
	}
}

// TestShardedInputsStayInPlace: statements over a sharded session value
// run where its blocks are; nothing (not even its length, a size statement
// before the reduction) gathers it.
func TestShardedInputsStayInPlace(t *testing.T) {
	ctx := context.Background()
	s := NewSession(eval.Options{Backend: "gpu", Fusion: true, DeviceSpec: "sim:2"})
	if _, err := s.Eval(ctx, "[1]", `let xs = map (\i -> i32.i64 i) (iota 100)`); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`reduce (+) 0 xs`, `(scan (+) 0 xs)[99]`, `hist (+) 0 10 (map (\x -> i64.i32 (x % 10)) xs) xs`, `length xs`, `xs[57]`} {
		res, err := s.Eval(ctx, "[2]", src)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Timings.Notes {
			if strings.Contains(n, "through the host") {
				t.Errorf("%s: %s", src, n)
			}
		}
	}
}

// TestSmallPartialsOnTheHost: with CollectiveMin set (as on GPUs), a
// reduction's scalar partials and a scan's carries are combined on the
// host, larger histograms still through the collective layer; the results
// do not change.
func TestSmallPartialsOnTheHost(t *testing.T) {
	ctx := context.Background()
	c := cpu.New(cpu.Options{})
	b, err := shard.New(shard.Options{Devices: []eval.Backend{cpu.New(cpu.Options{}), cpu.New(cpu.Options{})},
		Comm: shard.Local{N: 2}, MinShard: 1, CollectiveMin: 1024})
	if err != nil {
		t.Fatal(err)
	}
	s := eval.NewSession(eval.Options{Backend: "gpu", Fusion: true, CPU: c, GPU: func() (eval.Backend, error) { return b, nil }})
	ref := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	for _, c := range []struct{ src, row string }{
		{`reduce (+) 0 (map (\i -> i32.i64 i) (iota 1000))`, "host all-reduce"},
		{`scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1u32, 0u32) (zip (map (\i -> u32.i64 (i % 5 + 1)) (iota 1000)) (map (\i -> u32.i64 i) (iota 1000)))`, "host all-gather"},
		{`hist (+) 0 1000 (map (\i -> i % 1000) (iota 5000)) (map (\i -> i32.i64 i) (iota 5000))`, "allreduce (simulated)"},
	} {
		res, err := s.Eval(ctx, "[t]", c.src)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Eval(ctx, "[t]", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if got, w := formatAll(t, res), formatAll(t, want); got != w {
			t.Errorf("%s: got %s, want %s", c.src, got, w)
		}
		var rows []string
		for _, k := range res.Timings.Kernels {
			rows = append(rows, k.Name)
		}
		if !strings.Contains(strings.Join(rows, "\n"), c.row) {
			t.Errorf("%s: no %q row in %q", c.src, c.row, rows)
		}
	}
}

// TestSeveralGPUsNeedNCCL: without libnccl, asking for several GPUs is a
// clear error value, not a crash (one GPU needs no NCCL).
func TestSeveralGPUsNeedNCCL(t *testing.T) {
	if _, err := os.Stat("/usr/lib/x86_64-linux-gnu/libnccl.so.2"); err == nil {
		t.Skip("NCCL is installed here")
	}
	t.Setenv("NCCL_LIBRARY", "/nonexistent/libnccl.so.2")
	_, err := Devices("0,1", 0, nil)
	if err == nil || !strings.Contains(err.Error(), "2 GPUs need NCCL") {
		t.Errorf("Devices(0,1) without NCCL = %v, want an error saying NCCL is needed", err)
	}
}

// fakeDevice is a device backend over the CPU interpreter whose array
// results stay "on the device" (a DeviceArray the sharded backend must
// read back), and which records the functions it runs.
type fakeDevice struct {
	cpu   eval.Backend
	ran   []string
	progs []*core.Program
	// events, when set, logs "run FN" and "read" (an array result read
	// back) in order, shared between devices.
	events *[]string
	name   string
}

type fakeArray struct {
	data   any
	onRead func()
}

func (a *fakeArray) ToHost(context.Context) (any, error) {
	if a.onRead != nil {
		a.onRead()
	}
	return a.data, nil
}
func (a *fakeArray) Bytes() int64 { return int64(eval.DataLen(a.data)) }
func (a *fakeArray) Free()        {}

func (*fakeDevice) Name() string { return "fake" }

func (d *fakeDevice) Run(ctx context.Context, p *core.Program, fn string, args []eval.Value, t *eval.Timings) ([]eval.Value, error) {
	d.ran = append(d.ran, fn)
	d.progs = append(d.progs, p)
	if d.events != nil {
		*d.events = append(*d.events, d.name+" run "+fn)
	}
	for i, a := range args {
		hv, err := a.Host(ctx)
		if err != nil {
			return nil, err
		}
		args[i] = hv
	}
	out, err := d.cpu.Run(ctx, p, fn, args, t)
	for i, v := range out {
		if len(v.Shape) > 0 {
			a := &fakeArray{data: v.Data}
			if d.events != nil {
				a.onRead = func() { *d.events = append(*d.events, d.name+" read") }
			}
			out[i] = eval.Value{Elem: v.Elem, Shape: v.Shape, Dev: a}
		}
	}
	return out, err
}

// noComm fails every collective: what is combined on the host must not
// reach it.
type noComm struct{}

func (noComm) Name() string { return "none" }
func (noComm) AllReduce(context.Context, []eval.Value, core.BinOp) ([]eval.Value, eval.KernelTiming, error) {
	return nil, eval.KernelTiming{}, fmt.Errorf("collective called")
}
func (noComm) AllGather(context.Context, []eval.Value) ([]eval.Value, eval.KernelTiming, error) {
	return nil, eval.KernelTiming{}, fmt.Errorf("collective called")
}

// TestScanOnePassPerBlock: a scan by + over two devices scans each block
// once and alone, its carry left pending (TestLazyScanCarries); one by an
// operator the host does not apply reduces block 0 alone (the last block's
// total is nobody's carry) and then scans each block once, the carry
// folded into the scan: no second pass over block 1 (on two H200s the old
// add-the-carry map made two GPUs slower than one). Small
// histograms on the devices are read back and combined on the host without
// the collective, device 0's started from the destination.
func TestScanOnePassPerBlock(t *testing.T) {
	ctx := context.Background()
	devs := []*fakeDevice{{cpu: cpu.New(cpu.Options{})}, {cpu: cpu.New(cpu.Options{})}}
	b, err := shard.New(shard.Options{Devices: []eval.Backend{devs[0], devs[1]}, Comm: noComm{}, MinShard: 1, CollectiveMin: 4096})
	if err != nil {
		t.Fatal(err)
	}
	s := eval.NewSession(eval.Options{Backend: "gpu", Fusion: true, CPU: cpu.New(cpu.Options{}), GPU: func() (eval.Backend, error) { return b, nil }})
	ref := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	for _, c := range []struct {
		src        string
		dev0, dev1 []string
	}{
		{`scan (+) 0 (map (\i -> i32.i64 i % 7) (iota 1001))`,
			[]string{"ar_shard_scan_local"}, []string{"ar_shard_scan_local"}},
		{`scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1u32, 0u32) (zip (map (\i -> u32.i64 (i % 5 + 1)) (iota 1001)) (map (\i -> u32.i64 i) (iota 1001)))`,
			[]string{"ar_shard_scan_totals", "ar_shard_carries", "ar_shard_scan_first"}, []string{"ar_shard_scan_carry"}},
		{`reduce_by_index (replicate 10 3) (+) 0 (map (\i -> i % 10) (iota 1001)) (map (\i -> i32.i64 i) (iota 1001))`,
			[]string{"ar_shard_first", "ar_shard_hist_first"}, []string{"ar_shard_hist"}},
	} {
		devs[0].ran, devs[1].ran = nil, nil
		res, err := s.Eval(ctx, "[t]", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		want, err := ref.Eval(ctx, "[t]", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if got, w := formatAll(t, res), formatAll(t, want); got != w {
			t.Errorf("%s: got %s, want %s", c.src, got, w)
		}
		if !slices.Equal(devs[0].ran, c.dev0) || !slices.Equal(devs[1].ran, c.dev1) {
			t.Errorf("%s: device 0 ran %q, device 1 ran %q; want %q and %q", c.src, devs[0].ran, devs[1].ran, c.dev0, c.dev1)
		}
	}
}

// TestHistPartialsReadEarly: a small histogram's partial is read to the
// host as soon as its device is done, before the next device runs (with
// the devices run concurrently, on each device's goroutine while the
// others compute), and the read is counted in the device's run; the
// result does not change.
func TestHistPartialsReadEarly(t *testing.T) {
	ctx := context.Background()
	var events []string
	devs := []*fakeDevice{{cpu: cpu.New(cpu.Options{}), events: &events, name: "dev0"}, {cpu: cpu.New(cpu.Options{}), events: &events, name: "dev1"}}
	b, err := shard.New(shard.Options{Devices: []eval.Backend{devs[0], devs[1]}, Comm: noComm{}, MinShard: 1, CollectiveMin: 4096})
	if err != nil {
		t.Fatal(err)
	}
	s := eval.NewSession(eval.Options{Backend: "gpu", Fusion: true, CPU: cpu.New(cpu.Options{}), GPU: func() (eval.Backend, error) { return b, nil }})
	ref := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	src := `hist (+) 0 100 (map (\i -> i % 100) (iota 1001)) (map (\i -> i32.i64 i) (iota 1001))`
	res, err := s.Eval(ctx, "[t]", src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Eval(ctx, "[t]", src)
	if err != nil {
		t.Fatal(err)
	}
	if got, w := formatAll(t, res), formatAll(t, want); got != w {
		t.Errorf("got %s, want %s", got, w)
	}
	// Device 0's partial is its last read (before it, its arguments').
	run1 := slices.Index(events, "dev1 run ar_shard_hist")
	last0 := -1
	for i, e := range events {
		if e == "dev0 read" {
			last0 = i
		}
	}
	if run1 < 0 || last0 < 0 || last0 > run1 || events[len(events)-1] != "dev1 read" {
		t.Errorf("events %q: want device 0's partial read before device 1 runs, device 1's right after it", events)
	}
	reads := 0
	for _, k := range res.Timings.Kernels {
		if strings.Contains(k.Name, "read partial to host") {
			reads++
		}
	}
	if reads != 2 {
		t.Errorf("%d \"read partial to host\" rows, want one per device", reads)
	}
}

// peerDevice is a fakeDevice that also takes the other devices' arrays
// device to device (as eval/gpu's backend does, by cuMemcpyPeer), and
// counts how many it took.
type peerDevice struct {
	*fakeDevice
	took int
}

func (d *peerDevice) FromPeer(_ context.Context, v eval.Value) (eval.Value, bool, error) {
	a, ok := v.Dev.(*fakeArray)
	if !ok {
		return v, false, nil
	}
	d.took++
	v.Dev = &fakeArray{data: a.data}
	return v, true, nil
}

// TestHistOnPeers: with PeerCopies, small histograms are not read to the
// host: device 1's goes to device 0 device to device and the two are added
// there by the program's operator (the result stays on device 0); the
// result does not change. Without a backend that takes peers' arrays, the
// host combines them as before.
func TestHistOnPeers(t *testing.T) {
	ctx := context.Background()
	var events []string
	d0 := &peerDevice{fakeDevice: &fakeDevice{cpu: cpu.New(cpu.Options{}), events: &events, name: "dev0"}}
	d1 := &peerDevice{fakeDevice: &fakeDevice{cpu: cpu.New(cpu.Options{}), events: &events, name: "dev1"}}
	b, err := shard.New(shard.Options{Devices: []eval.Backend{d0, d1}, Comm: noComm{}, MinShard: 1, CollectiveMin: 4096, PeerCopies: true})
	if err != nil {
		t.Fatal(err)
	}
	s := eval.NewSession(eval.Options{Backend: "gpu", Fusion: true, CPU: cpu.New(cpu.Options{}), GPU: func() (eval.Backend, error) { return b, nil }})
	ref := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	for _, src := range []string{
		`hist (+) 0 100 (map (\i -> i % 100) (iota 1001)) (map (\i -> i32.i64 i) (iota 1001))`,
		`hist i32.max i32.lowest 7 (map (\i -> (i * 13) % 9) (iota 1001)) (map (\i -> i32.i64 ((i * 31) % 101)) (iota 1001))`,
	} {
		events, d0.took, d1.took = nil, 0, 0
		res, err := s.Eval(ctx, "[t]", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		want, err := ref.Eval(ctx, "[t]", src)
		if err != nil {
			t.Fatal(err)
		}
		if got, w := formatAll(t, res), formatAll(t, want); got != w {
			t.Errorf("%s: got %s, want %s", src, got, w)
		}
		if d0.took != 1 || d1.took != 0 {
			t.Errorf("%s: device 0 took %d peer arrays, device 1 %d; want device 1's histogram on device 0", src, d0.took, d1.took)
		}
		if !slices.Contains(events, "dev0 run ar_shard_histcombine") {
			t.Errorf("%s: events %q: no combining run on device 0", src, events)
		}
		var rows []string
		for _, k := range res.Timings.Kernels {
			rows = append(rows, k.Name)
		}
		if all := strings.Join(rows, "\n"); !strings.Contains(all, "peer copy") || strings.Contains(all, "read partial to host") || strings.Contains(all, "host all-reduce") {
			t.Errorf("%s: timing rows %q: want a peer copy and no read to the host", src, rows)
		}
	}
}

// TestShardProgramsRunOnGPU: the programs the sharded backend gives each
// device for the benchmarked statements (a block's reduction, a scan's
// totals, its first block and a block with a carry, a map-scan, a
// histogram) are all covered by GPU kernels: none would fall back to the
// CPU interpreter on a real GPU. The kernels' source is generated here;
// the GPU machine compiles and runs them.
func TestShardProgramsRunOnGPU(t *testing.T) {
	ctx := context.Background()
	devs := []*fakeDevice{{cpu: cpu.New(cpu.Options{})}, {cpu: cpu.New(cpu.Options{})}}
	b, err := shard.New(shard.Options{Devices: []eval.Backend{devs[0], devs[1]}, Comm: shard.Local{N: 2}, MinShard: 1, CollectiveMin: 4096})
	if err != nil {
		t.Fatal(err)
	}
	s := eval.NewSession(eval.Options{Backend: "gpu", Fusion: true, CPU: cpu.New(cpu.Options{}), GPU: func() (eval.Backend, error) { return b, nil }})
	if _, err := s.Eval(ctx, "[1]", `let xs = map (\i -> i32.i64 ((i * 7) % 1000)) (iota 1000)`); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`reduce (+) 0 xs`, `(scan (+) 0 xs)[999]`, `(scan (+) 0 (map (*3) xs))[999]`,
		`hist (+) 0 100 (map i64.i32 xs) xs`, `scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1u32, 0u32) (zip (map u32.i32 xs) (map u32.i32 xs))`,
		// A lazy scan's consumers, its carry folded into their kernels.
		`let ys = scan (+) 0 xs`, `reduce i32.max i32.lowest ys`, `scan (+) 0 ys`, `map2 (+) ys xs`, `filter (> 1000) ys`,
		`hist (+) 0 10 (map (\y -> i64.i32 (y % 10)) ys) ys`} {
		devs[0].progs, devs[1].progs = nil, nil
		devs[0].ran, devs[1].ran = nil, nil
		if _, err := s.Eval(ctx, "[2]", src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for k, d := range devs {
			if len(d.progs) == 0 {
				t.Errorf("%s: device %d ran nothing", src, k)
			}
			for i, p := range d.progs {
				cpuStmts, err := gpu.CPUStatements(p)
				if err != nil {
					t.Fatalf("%s: device %d, %s: %v", src, k, d.ran[i], err)
				}
				if len(cpuStmts) > 0 {
					t.Errorf("%s: device %d, %s: would run on the CPU: %+v", src, k, d.ran[i], cpuStmts)
				}
				if _, err := gpu.Kernel(p); err != nil {
					t.Errorf("%s: device %d, %s: no kernel source: %v", src, k, d.ran[i], err)
				}
			}
		}
	}
}

// TestLazyScanCarries: a scan by + leaves its later blocks' carries
// pending in the sharded result, and every consumer applies them: the host
// (printing, one element, a slice, a function's argument gathered), and
// the statements over the blocks (a map, a reduction, a second scan, a zip
// with another array, a filter, a histogram, a scan by an operator the
// host does not apply), which fold the carry into their map instead of
// gathering the array or writing the carries into it.
func TestLazyScanCarries(t *testing.T) {
	ctx := context.Background()
	const def = `let ys = scan (+) 0 (map (\i -> i32.i64 (i % 7) - 2) (iota 1001))`
	consumers := []string{
		`ys`, `ys[0]`, `ys[333]`, `ys[334]`, `ys[1000]`, `ys[300:700]`,
		`map (\y -> y * 3 - 1) ys`, `reduce i32.max i32.lowest ys`, `reduce (+) 0 ys`, `scan (+) 0 ys`,
		`scan i32.min i32.highest ys`, `map2 (\y i -> y - i32.i64 i) ys (iota 1001)`, `zip ys (map (*2) ys)`,
		`filter (\y -> y % 3 == 0) ys`, `hist (+) 0 10 (map (\y -> i64.i32 (y % 10)) ys) ys`,
		`scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1i32, 0i32) (zip (map (\y -> y % 3) ys) ys)`,
		`f ys`, `(scan (+) 0 ys)[1000]`,
	}
	// Statements over the blocks that must not gather ys nor write its
	// carries: everything but the host reads, the slice and the call.
	folded := map[string]bool{}
	for _, c := range consumers[6:16] {
		folded[c] = true
	}
	for _, devs := range []int{2, 3} {
		s := NewSession(eval.Options{Backend: "gpu", Fusion: true, DeviceSpec: fmt.Sprintf("sim:%d", devs)})
		ref := NewSession(eval.Options{Backend: "cpu", Fusion: true})
		for _, sess := range []*eval.Session{s, ref} {
			for _, src := range []string{def, `def f (a: []i32) = loop acc = 0 for x in a do acc * 3 + x`} {
				if _, err := sess.Eval(ctx, "[def]", src); err != nil {
					t.Fatalf("%s: %v", src, err)
				}
			}
		}
		res, err := s.Eval(ctx, "[ys]", `ys`)
		if err != nil {
			t.Fatal(err)
		}
		sh, ok := res.Values[0].Dev.(*shard.Sharded)
		if !ok || sh.Carry == nil {
			t.Fatalf("%d devices: ys is %T, want a sharded array with its carries pending", devs, res.Values[0].Dev)
		}
		for _, src := range consumers {
			got, err := s.Eval(ctx, "[c]", src)
			if err != nil {
				t.Fatalf("%d devices, %s: %v", devs, src, err)
			}
			want, err := ref.Eval(ctx, "[c]", src)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := formatAll(t, got), formatAll(t, want); g != w {
				t.Errorf("%d devices, %s:\n got %s\nwant %s", devs, src, g, w)
			}
			if folded[src] {
				for _, n := range got.Timings.Notes {
					if strings.Contains(n, "gathered") || strings.Contains(n, "through the host") {
						t.Errorf("%d devices, %s: %s", devs, src, n)
					}
				}
			}
		}
	}
}

// TestParallelDevicesGather: with the devices run concurrently (as GPUs
// are), a statement whose lambda reads a sharded array whole gathers it
// for every device; the gathers and their notes happen before the devices
// start, not on each device's goroutine (concurrent writes to the notes
// killed a two-GPU run of testdata/nested). Run with -race to see the
// difference; without it the runtime catches the writes only sometimes.
func TestParallelDevicesGather(t *testing.T) {
	ctx := context.Background()
	devs := []eval.Backend{cpu.New(cpu.Options{}), cpu.New(cpu.Options{}), cpu.New(cpu.Options{})}
	b, err := shard.New(shard.Options{Devices: devs, Comm: shard.Local{N: 3}, MinShard: 1, Parallel: true})
	if err != nil {
		t.Fatal(err)
	}
	s := eval.NewSession(eval.Options{Backend: "gpu", Fusion: true, CPU: cpu.New(cpu.Options{}), GPU: func() (eval.Backend, error) { return b, nil }})
	ref := NewSession(eval.Options{Backend: "cpu", Fusion: true})
	src := `let xs = map (\i -> i32.i64 ((i * 7) % 11)) (iota 3000) in map (\x -> reduce (+) 0 (map (\y -> if y < x then 1 else 0) xs)) xs`
	for range 20 {
		res, err := s.Eval(ctx, "[t]", src)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Eval(ctx, "[t]", src)
		if err != nil {
			t.Fatal(err)
		}
		if got, w := formatAll(t, res), formatAll(t, want); got != w {
			t.Fatalf("got %s, want %s", got, w)
		}
		if !strings.Contains(strings.Join(res.Timings.Notes, "\n"), "gathered") {
			t.Fatalf("no gather in the notes %q: the test no longer takes the path it is for", res.Timings.Notes)
		}
	}
}
