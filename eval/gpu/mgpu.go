package gpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/eval/gpu/nccl"
	"github.com/arepl/arepl/lang/core"
)

// Several GPUs. Each device gets a Backend of its own (its own command
// thread, context and stream: cuda.OpenDevice); package eval/shard spreads
// a program over them and combines their results through an NCCL
// communicator, which this file drives: one communicator per device, each
// collective issued on its device's command thread on the default stream,
// all devices' calls concurrently (NCCL's one-thread-per-rank model).

// NewOnDevice opens device ordinal and returns its backend.
func NewOnDevice(opts Options, ordinal int) (*Backend, error) {
	g, err := cuda.OpenDevice(ordinal)
	if err != nil {
		return nil, err
	}
	return newOn(opts, g)
}

// ParseDevices reads a --devices list: "all" or ordinals "0,1,...".
func ParseDevices(spec string) ([]int, error) {
	if spec == "all" {
		n, err := cuda.DeviceCount()
		if err != nil {
			return nil, err
		}
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(spec, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 0 {
			return nil, fmt.Errorf("--devices %q: want all or device numbers like 0,1", spec)
		}
		if seen[d] {
			return nil, fmt.Errorf("--devices %q: device %d twice", spec, d)
		}
		seen[d] = true
		out = append(out, d)
	}
	return out, nil
}

// NCCL is the collective layer over one process's devices (it implements
// eval/shard's Comm).
type NCCL struct {
	lib     *nccl.Lib
	comms   []nccl.Comm
	backs   []*Backend
	version int
}

// OpenDevices opens the devices and, for more than one, an NCCL
// communicator over them. Without NCCL the error says so (one device needs
// none: the returned NCCL is nil). fallback, when not nil, makes each
// device's own fallback backend (the devices run at once, and each
// fallback serves one of them).
func OpenDevices(opts Options, ordinals []int, fallback func() eval.Backend) ([]*Backend, *NCCL, error) {
	if len(ordinals) == 0 {
		return nil, nil, errors.New("no devices")
	}
	var c *NCCL
	if len(ordinals) > 1 {
		lib, err := nccl.Load()
		if err != nil {
			return nil, nil, fmt.Errorf("%d GPUs need NCCL: %w", len(ordinals), err)
		}
		c = &NCCL{lib: lib}
		c.version, _ = lib.Version()
	}
	backs := make([]*Backend, len(ordinals))
	for i, o := range ordinals {
		if fallback != nil {
			opts.Fallback = fallback()
		}
		b, err := NewOnDevice(opts, o)
		if err != nil {
			return nil, nil, fmt.Errorf("device %d: %w", o, err)
		}
		backs[i] = b
	}
	if c == nil {
		return backs, nil, nil
	}
	c.backs = backs
	// ncclCommInitAll switches the calling thread's current device: give it
	// a thread of its own.
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var err error
		c.comms, err = c.lib.InitAll(ordinals)
		done <- err
	}()
	if err := <-done; err != nil {
		return nil, nil, err
	}
	return backs, c, nil
}

// JoinRank opens this process's device 0 (CUDA_VISIBLE_DEVICES chooses
// it) and joins rank of an nranks-process communicator bootstrapped by id
// (the many-hosts case: one process per GPU or per host).
func JoinRank(opts Options, id nccl.UniqueID, rank, nranks int) (*Backend, *NCCL, error) {
	lib, err := nccl.Load()
	if err != nil {
		return nil, nil, err
	}
	b, err := NewOnDevice(opts, 0)
	if err != nil {
		return nil, nil, err
	}
	c := &NCCL{lib: lib, backs: []*Backend{b}, comms: make([]nccl.Comm, 1)}
	c.version, _ = lib.Version()
	err = b.g.Do(func() error {
		var err error
		c.comms[0], err = lib.InitRank(nranks, rank, id)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return b, c, nil
}

// Name names NCCL and its version.
func (c *NCCL) Name() string {
	return fmt.Sprintf("NCCL %d.%d.%d (NVLS off)", c.version/10000, c.version/100%100, c.version%100)
}

// Close destroys the communicators.
func (c *NCCL) Close() error {
	var first error
	for i, cm := range c.comms {
		if err := c.backs[i].g.Do(func() error { return c.lib.Destroy(cm) }); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func ncclType(t core.PrimType) (nccl.DataType, bool) {
	switch t {
	case core.I8:
		return nccl.Int8, true
	case core.U8:
		return nccl.Uint8, true
	case core.I32:
		return nccl.Int32, true
	case core.U32:
		return nccl.Uint32, true
	case core.I64:
		return nccl.Int64, true
	case core.U64:
		return nccl.Uint64, true
	case core.F32:
		return nccl.Float32, true
	case core.F64:
		return nccl.Float64, true
	}
	return 0, false
}

func ncclOp(op core.BinOp) (nccl.RedOp, bool) {
	switch op {
	case core.Add:
		return nccl.Sum, true
	case core.Mul:
		return nccl.Prod, true
	case core.Min:
		return nccl.Min, true
	case core.Max:
		return nccl.Max, true
	}
	return 0, false
}

// onDevice returns v's device array on backend b, copying it there from
// the host when it lives elsewhere.
func onDevice(ctx context.Context, b *Backend, v eval.Value) (*devArray, error) {
	if d, ok := v.Dev.(*devArray); ok && d.g == b.g {
		return d, nil
	}
	hv, err := v.Host(ctx)
	if err != nil {
		return nil, err
	}
	d, err := newDevArray(b.g, v.Elem, v.Len())
	if err != nil {
		return nil, err
	}
	if err := b.g.HtoD(d.ptr(), slicePtr(hv.Data), d.bytes); err != nil {
		d.Free()
		return nil, err
	}
	runtime.KeepAlive(hv.Data)
	return d, nil
}

// collective runs one NCCL call per rank, each on its device's thread,
// all at once, and waits for them; it returns the receive buffers and
// the wall time of the whole.
func (c *NCCL) collective(ctx context.Context, parts []eval.Value, recvLen int64,
	call func(rank int, send, recv *devArray) error) ([]*devArray, time.Duration, error) {
	n := len(c.backs)
	if len(parts) != n {
		return nil, 0, fmt.Errorf("nccl: %d parts for %d ranks", len(parts), n)
	}
	sends := make([]*devArray, n)
	recvs := make([]*devArray, n)
	for k := range n {
		var err error
		if sends[k], err = onDevice(ctx, c.backs[k], parts[k]); err != nil {
			return nil, 0, err
		}
		if recvs[k], err = newDevArray(c.backs[k].g, parts[k].Elem, recvLen); err != nil {
			return nil, 0, err
		}
	}
	errs := make([]error, n)
	start := time.Now()
	var wg sync.WaitGroup
	for k := range n {
		g := c.backs[k].g
		wg.Go(func() {
			errs[k] = g.Do(func() error {
				if err := call(k, sends[k], recvs[k]); err != nil {
					return err
				}
				return g.SyncInThread()
			})
		})
	}
	wg.Wait()
	d := time.Since(start)
	for k := range n {
		if sends[k] != parts[k].Dev {
			sends[k].Free()
		}
	}
	if err := errors.Join(errs...); err != nil {
		for _, r := range recvs {
			r.Free()
		}
		return nil, 0, err
	}
	return recvs, d, nil
}

// AllReduce is ncclAllReduce over the ranks' parts.
func (c *NCCL) AllReduce(ctx context.Context, parts []eval.Value, op core.BinOp) ([]eval.Value, eval.KernelTiming, error) {
	elem := parts[0].Elem
	dt, ok1 := ncclType(elem)
	rop, ok2 := ncclOp(op)
	if !ok1 || !ok2 {
		return nil, eval.KernelTiming{}, fmt.Errorf("nccl: no all-reduce with %s on %v", core.BinOps[op].Name, elem)
	}
	count := parts[0].Len()
	recvs, d, err := c.collective(ctx, parts, count, func(k int, send, recv *devArray) error {
		return c.lib.AllReduce(uint64(send.ptr()), uint64(recv.ptr()), uint64(count), dt, rop, c.comms[k], 0)
	})
	if err != nil {
		return nil, eval.KernelTiming{}, err
	}
	out := make([]eval.Value, len(recvs))
	for k, r := range recvs {
		out[k] = eval.Value{Elem: elem, Shape: parts[k].Shape, Dev: r}
	}
	return out, eval.KernelTiming{Name: "ncclAllReduce", Time: d, Bytes: count * int64(elem.Size())}, nil
}

// AllGather is ncclAllGather of the ranks' equal-length parts.
func (c *NCCL) AllGather(ctx context.Context, parts []eval.Value) ([]eval.Value, eval.KernelTiming, error) {
	elem := parts[0].Elem
	dt, ok := ncclType(elem)
	if !ok {
		// bool and 16-bit types: gather through the host.
		return c.hostGather(ctx, parts)
	}
	count := parts[0].Len()
	total := count * int64(len(parts))
	recvs, d, err := c.collective(ctx, parts, total, func(k int, send, recv *devArray) error {
		return c.lib.AllGather(uint64(send.ptr()), uint64(recv.ptr()), uint64(count), dt, c.comms[k], 0)
	})
	if err != nil {
		return nil, eval.KernelTiming{}, err
	}
	out := make([]eval.Value, len(recvs))
	for k, r := range recvs {
		out[k] = eval.Value{Elem: elem, Shape: []int64{total}, Dev: r}
	}
	return out, eval.KernelTiming{Name: "ncclAllGather", Time: d, Bytes: total * int64(elem.Size())}, nil
}

func (c *NCCL) hostGather(ctx context.Context, parts []eval.Value) ([]eval.Value, eval.KernelTiming, error) {
	start := time.Now()
	var all []eval.Value
	for _, p := range parts {
		hv, err := p.Host(ctx)
		if err != nil {
			return nil, eval.KernelTiming{}, err
		}
		all = append(all, hv)
	}
	n := int64(0)
	for _, p := range all {
		n += p.Len()
	}
	out := eval.NewArray(parts[0].Elem, n)
	at := 0
	for _, p := range all {
		at += copyInto(out.Data, at, p.Data)
	}
	res := make([]eval.Value, len(parts))
	for k := range res {
		res[k] = out
	}
	return res, eval.KernelTiming{Name: "allgather (through the host)", Time: time.Since(start), Bytes: n * int64(parts[0].Elem.Size())}, nil
}

// copyInto copies src into dst from element at and returns src's length.
func copyInto(dst any, at int, src any) int {
	switch d := dst.(type) {
	case []bool:
		return copy(d[at:], src.([]bool))
	case []int16:
		return copy(d[at:], src.([]int16))
	case []uint16:
		return copy(d[at:], src.([]uint16))
	case []int8:
		return copy(d[at:], src.([]int8))
	case []uint8:
		return copy(d[at:], src.([]uint8))
	case []int32:
		return copy(d[at:], src.([]int32))
	case []uint32:
		return copy(d[at:], src.([]uint32))
	case []int64:
		return copy(d[at:], src.([]int64))
	case []uint64:
		return copy(d[at:], src.([]uint64))
	case []float32:
		return copy(d[at:], src.([]float32))
	case []float64:
		return copy(d[at:], src.([]float64))
	}
	panic(fmt.Sprintf("gpu: copy into %T", dst))
}

// ReadAt copies elements [off, off+n) into a new slice of n elements (the
// sharded backend reads a block's last element, and the printer a large
// block's shown rows, without a host buffer of the whole block).
func (d *devArray) ReadAt(_ context.Context, off, n int64) (any, error) {
	if d.mem.freed.Load() {
		return nil, fmt.Errorf("gpu: use of a freed device array")
	}
	if off < 0 || n < 0 || off+n > d.n {
		return nil, fmt.Errorf("internal error: elements [%d, %d) of an array of %d", off, off+n, d.n)
	}
	s := eval.MakeSlice(d.elem, int(n))
	if n == 0 {
		return s, nil
	}
	size := int64(d.elem.Size())
	err := d.g.DtoH(slicePtr(s), d.mem.ptr+cuda.Ptr(off*size), n*size)
	runtime.KeepAlive(s)
	return s, err
}

// FromPeer returns v, an array another device's backend made, as an array
// of this device, copied device to device (cuda.GPU.FromPeer: NVLink
// between linked GPUs) instead of through the host; ok is false for
// anything else (a host value, this device's own array), which the caller
// moves as before. The sharded backend gives device 0 a later device's
// small histogram this way, to be added there.
func (b *Backend) FromPeer(_ context.Context, v eval.Value) (eval.Value, bool, error) {
	d, ok := v.Dev.(*devArray)
	if !ok || v.Data != nil || d.g == b.g {
		return v, false, nil
	}
	if d.mem.freed.Load() {
		return v, false, fmt.Errorf("gpu: use of a freed device array")
	}
	out, err := newDevArray(b.g, d.elem, d.n)
	if err != nil {
		return v, false, err
	}
	if err := b.g.FromPeer(out.mem.ptr, d.g, d.mem.ptr, d.bytes); err != nil {
		out.Free()
		return v, false, err
	}
	v.Dev = out
	return v, true, nil
}
