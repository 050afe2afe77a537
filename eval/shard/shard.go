// Package shard runs core programs over several devices: large arrays live
// in blocks of their outer dimension, one block per device (a *Sharded
// value), and the data-parallel statements run on every block where it
// lives, through one backend per device. The combining steps go through a
// collective layer (Comm): NCCL on GPUs, a Go implementation in the
// simulated multi-device backend that CI tests this logic with.
//
// The function body is followed statement by statement on the host:
//
//   - map, redomap and segmented operations run per block; their arrays
//     stay sharded;
//   - reductions combine the per-device partials with an all-reduce when
//     the operator is one the collective knows (+, *, integer min and max),
//     otherwise by the program's own operator over the gathered partials
//     (in device order, so non-commutative operators stay right);
//   - scans by one operator the host applies (+, *, integer min and max)
//     scan every block alone and leave each block's carry pending in the
//     result, for its readers to apply: the host on a read, the next
//     statement over the blocks in its map (lazy.go);
//   - other scans reduce every block with the scan's operator, combine the
//     totals into each block's exclusive prefix (its carry) on the host,
//     and then scan each block once with its carry folded in (scan.go);
//   - histograms are computed per device, device 0's from the destination
//     and the others' from the operator's neutral element, and all-reduced
//     (small ones read back and added on the host);
//   - filters keep each device's survivors where they are (the result is a
//     sharded array with uneven blocks; the counts are the block sizes);
//   - every other statement runs on device 0, its sharded inputs gathered
//     (through the host), and the timings' notes say so.
//
// Statements over fewer than MinShard elements whose inputs are not sharded
// run on device 0 alone: small arrays stay on one device.
package shard

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// DefaultMinShard is the element count from which a statement is spread
// over the devices: below a million elements one GPU finishes in a few
// microseconds, less than a collective's latency.
const DefaultMinShard = 1 << 20

// Options configure a sharded backend.
type Options struct {
	// Name is what the backend reports as its name ("gpu").
	Name string
	// Devices are the per-device backends, one per rank.
	Devices []eval.Backend
	// Comm combines per-device results.
	Comm Comm
	// MinShard is the element count from which a statement is sharded
	// (DefaultMinShard when 0).
	MinShard int64
	// Parallel runs the devices' shares concurrently (each device backend
	// drives its own OS thread); the simulated backend runs them in turn.
	Parallel bool
	// Describe is the one-line description of the devices.
	Describe string
	// CollectiveMin is the size in bytes per device from which partials
	// already on the host (a reduction's scalars, a scan's carries) are
	// combined through Comm; smaller ones are combined on the host. On two
	// H200s an 8-byte ncclAllReduce through Comm (uploads, the call, a
	// synchronisation) cost 270-340 µs against a 1 ms reduction kernel.
	// 0 sends everything through Comm (the simulated devices, whose tests
	// cover that path).
	CollectiveMin int64
	// PeerCopies moves arrays between devices device to device where the
	// device backends can (peerTaker: eval/gpu's, cuMemcpyPeer), not
	// through the host, and then combines small histograms (under
	// CollectiveMin) on device 0, the other devices' copied there, by the
	// program's operator: no read to the host at all, where reading them
	// costs 26-120 µs after the kernels on two H200s.
	PeerCopies bool
}

// peerTaker is a device backend that takes another device's array device
// to device; ok is false for values it cannot take that way.
type peerTaker interface {
	FromPeer(ctx context.Context, v eval.Value) (eval.Value, bool, error)
}

// peerTo returns device rank's backend when arrays are moved to it device
// to device.
func (r *run) peerTo(rank int) (peerTaker, bool) {
	if !r.b.opts.PeerCopies {
		return nil, false
	}
	pt, ok := r.b.opts.Devices[rank].(peerTaker)
	return pt, ok
}

// Backend is the sharded backend; it implements eval.Backend.
type Backend struct{ opts Options }

// New returns a sharded backend over opts.Devices.
func New(opts Options) (*Backend, error) {
	if len(opts.Devices) == 0 {
		return nil, errors.New("shard: no devices")
	}
	if opts.Comm == nil {
		return nil, errors.New("shard: no collective layer")
	}
	if opts.MinShard <= 0 {
		opts.MinShard = DefaultMinShard
	}
	if opts.Name == "" {
		opts.Name = "gpu"
	}
	return &Backend{opts: opts}, nil
}

// Name is the configured name.
func (b *Backend) Name() string { return b.opts.Name }

// Ranks is the number of devices.
func (b *Backend) Ranks() int { return len(b.opts.Devices) }

// Device describes the devices and the collective layer.
func (b *Backend) Device() string {
	return fmt.Sprintf("%d devices, sharded by the outer dimension from %d elements, collectives: %s; %s",
		len(b.opts.Devices), b.opts.MinShard, b.opts.Comm.Name(), b.opts.Describe)
}

// SetDeterministic passes the setting on to the devices (eval.OrderSetter).
func (b *Backend) SetDeterministic(on bool) {
	for _, d := range b.opts.Devices {
		if o, ok := d.(eval.OrderSetter); ok {
			o.SetDeterministic(on)
		}
	}
}

var (
	_ eval.OrderSetter = (*Backend)(nil)
	_ eval.Uploader    = (*Backend)(nil)
)

// run is one Run's state.
type run struct {
	b     *Backend
	ctx   context.Context
	prog  *core.Program
	t     *eval.Timings
	bld   *core.Builder
	notes map[string]bool
	env   map[string]eval.Value
}

// Run runs fn of prog over the devices.
func (b *Backend) Run(ctx context.Context, prog *core.Program, fn string, args []eval.Value, t *eval.Timings) ([]eval.Value, error) {
	t.Backend = b.opts.Name
	f := prog.Fun(fn)
	if f == nil {
		return nil, fmt.Errorf("shard: no function %s", fn)
	}
	if len(args) != len(f.Params) {
		return nil, fmt.Errorf("shard: %s takes %d arguments, got %d", fn, len(f.Params), len(args))
	}
	r := &run{b: b, ctx: ctx, prog: prog, t: t, bld: core.NewBuilder(), notes: map[string]bool{}, env: map[string]eval.Value{}}
	for i, p := range f.Params {
		r.env[p.Name] = args[i]
	}
	stmts := f.Body.Stmts
	for i := 0; i < len(stmts); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if ok, err := r.local(stmts[i]); ok || err != nil {
			if err != nil {
				return nil, err
			}
			i++
			continue
		}
		if ok, err := r.index(stmts[i]); ok || err != nil {
			if err != nil {
				return nil, err
			}
			i++
			continue
		}
		if candidate(stmts[i].Exp) {
			done, err := r.sharded(stmts[i])
			if err != nil {
				return nil, err
			}
			if !done {
				if err := r.onFirst(stmts[i : i+1]); err != nil {
					return nil, err
				}
			}
			i++
			continue
		}
		j := i + 1
		for j < len(stmts) && !candidate(stmts[j].Exp) {
			j++
		}
		if err := r.onFirst(stmts[i:j]); err != nil {
			return nil, err
		}
		i = j
	}
	out := make([]eval.Value, len(f.Body.Result))
	for i, a := range f.Body.Result {
		v, err := r.value(a)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	r.freeTemporaries(args, out)
	return out, nil
}

// leaves adds the device arrays v holds (a sharded value's blocks, a
// device's array) to set.
func leaves(v eval.Value, set map[eval.DeviceArray]bool) {
	switch d := v.Dev.(type) {
	case nil:
	case *Sharded:
		for _, p := range d.Parts {
			leaves(p, set)
		}
	case *OnDevice:
		set[d.Arr] = true
	default:
		set[d] = true
	}
}

// freeTemporaries frees the device memory of what the run computed and
// does not return: device memory is not the collector's to manage (a
// scan's 8 GiB of blocks would otherwise wait for a garbage collection
// that the Go heap, a few objects larger, never asks for).
func (r *run) freeTemporaries(args, results []eval.Value) {
	keep := map[eval.DeviceArray]bool{}
	for _, v := range args {
		leaves(v, keep)
	}
	for _, v := range results {
		leaves(v, keep)
	}
	made := map[eval.DeviceArray]bool{}
	for _, v := range r.env {
		leaves(v, made)
	}
	for d := range made {
		if !keep[d] {
			d.Free()
		}
	}
}

// index reads one element of a sharded array from the block that holds
// it, instead of gathering the array (xs[i], a scan's last element).
// Anything else, an index out of bounds included (its error names the
// position), is left to device 0.
func (r *run) index(s *core.Stmt) (bool, error) {
	e, ok := s.Exp.(*core.IndexExp)
	if !ok || len(s.Pat) != 1 {
		return false, nil
	}
	sh, ok := r.env[e.Arr.Name].Dev.(*Sharded)
	if !ok || len(e.Idx) != 1+len(sh.Inner) {
		return false, nil
	}
	flat := int64(0)
	dims := append([]int64{sh.Rows()}, sh.Inner...)
	for k, d := range e.Idx {
		if d.Fix == nil {
			return false, nil
		}
		i, err := r.intOf(*d.Fix)
		if err != nil {
			return false, err
		}
		if i < 0 || i >= dims[k] {
			return false, nil
		}
		flat = flat*dims[k] + i
	}
	rl := sh.rowLen()
	row := flat / rl
	off := sh.Offsets()
	for k, p := range sh.Parts {
		if row >= off[k] && row < off[k+1] {
			data, err := readPart(r.ctx, p, flat-off[k]*rl, 1)
			if err != nil {
				return false, err
			}
			sh.Carry.applyTo(k, data)
			r.env[s.Pat[0].Name] = eval.Value{Elem: sh.Elem, Data: data}
			return true, nil
		}
	}
	return false, nil
}

// candidate reports whether e is a kind of statement that can be sharded.
func candidate(e core.Exp) bool {
	switch e.(type) {
	case *core.Screma, *core.Hist, *core.Filter, *core.Segmented, *core.IndexExp, *core.SizeExp, *core.AtomExp:
		return true
	}
	return false
}

// local evaluates the statements that need no device: an array's size
// (known from its shape, so a sharded array is not gathered to learn its
// length: the 2^31-element benchmark spent 3.5 s per input doing that)
// and copies of atoms.
func (r *run) local(s *core.Stmt) (bool, error) {
	switch e := s.Exp.(type) {
	case *core.SizeExp:
		v, ok := r.env[e.Arr.Name]
		if !ok || e.Dim >= len(v.Shape) || len(s.Pat) != 1 || !s.Pat[0].Type.Elem.IsInt() || s.Pat[0].Type.Rank != 0 {
			return false, nil
		}
		r.env[s.Pat[0].Name] = eval.Scalar(core.IntConst(s.Pat[0].Type.Elem, v.Shape[e.Dim]))
		return true, nil
	case *core.AtomExp:
		if len(s.Pat) != 1 {
			return false, nil
		}
		v, err := r.value(e.A)
		if err != nil {
			return false, nil
		}
		r.env[s.Pat[0].Name] = v
		return true, nil
	}
	return false, nil
}

func (r *run) note(n string) {
	if !r.notes[n] {
		r.notes[n] = true
		r.t.Notes = append(r.t.Notes, n)
	}
}

func (r *run) value(a core.Atom) (eval.Value, error) {
	switch a := a.(type) {
	case core.Const:
		return eval.Scalar(a), nil
	case *core.Var:
		v, ok := r.env[a.Name]
		if !ok {
			return eval.Value{}, fmt.Errorf("internal error: shard: %s unbound", a.Name)
		}
		return v, nil
	}
	return eval.Value{}, fmt.Errorf("internal error: shard: atom %T", a)
}

// intOf is the value of an integer scalar atom.
func (r *run) intOf(a core.Atom) (int64, error) {
	v, err := r.value(a)
	if err != nil {
		return 0, err
	}
	hv, err := toHost(r.ctx, v)
	if err != nil {
		return 0, err
	}
	n, ok := eval.IntAt(hv.Data, 0)
	if !ok {
		return 0, fmt.Errorf("internal error: shard: size %v is not an integer", a)
	}
	return n, nil
}

// toRank returns v as device rank's backend may be given it: its own
// arrays as they are, anything else through the host.
func (r *run) toRank(name string, v eval.Value, rank int) (eval.Value, error) {
	switch d := v.Dev.(type) {
	case nil:
		return v, nil
	case *OnDevice:
		if d.Rank == rank {
			v.Dev = d.Arr
			return v, nil
		}
		if pt, ok := r.peerTo(rank); ok {
			start := time.Now()
			out, ok, err := pt.FromPeer(r.ctx, eval.Value{Elem: v.Elem, Shape: v.Shape, Dev: d.Arr})
			if err != nil {
				return v, err
			}
			if ok {
				k := eval.KernelTiming{Name: fmt.Sprintf("peer copy of %s, dev%d to dev%d", name, d.Rank, rank), Time: time.Since(start), Bytes: v.Len() * int64(v.Elem.Size())}
				r.t.Kernels = append(r.t.Kernels, k)
				r.t.Run += k.Time
				return out, nil
			}
		}
	case *Sharded:
		r.note(fmt.Sprintf("gathered %s (%s) through the host onto device %d", name, d.Placement(), rank))
	}
	return toHost(r.ctx, v)
}

// fromRank marks a value device rank's backend returned as that device's.
func fromRank(v eval.Value, rank int) eval.Value {
	if v.Dev != nil {
		v.Dev = &OnDevice{Rank: rank, Arr: v.Dev}
	}
	return v
}

// call runs fun (added to the program) on device rank.
func (r *run) call(rank int, fun *core.Fun, args []eval.Value, sub *eval.Timings) ([]eval.Value, error) {
	return r.b.opts.Devices[rank].Run(r.ctx, r.programOf(fun), fun.Name, args, sub)
}

// programOf is fun with the program's functions it calls, directly or
// not: a device backend compiles kernels for every function it is given,
// and a block's program should cost the compile of its own statement only
// (and hit the module cache when another program has the same one).
func (r *run) programOf(fun *core.Fun) *core.Program {
	need := map[string]bool{}
	var visit func(b *core.Body)
	var lambda func(l *core.Lambda)
	lambda = func(l *core.Lambda) {
		if l != nil {
			visit(l.Body)
		}
	}
	visit = func(b *core.Body) {
		if b == nil {
			return
		}
		for _, s := range b.Stmts {
			switch e := s.Exp.(type) {
			case *core.ApplyExp:
				if !need[e.Fun] {
					need[e.Fun] = true
					if f := r.prog.Fun(e.Fun); f != nil {
						visit(f.Body)
					}
				}
			case *core.IfExp:
				visit(e.Then)
				visit(e.Else)
			case *core.LoopExp:
				visit(e.Body)
			case *core.Screma:
				scremaLambdas(e, lambda)
			case *core.Segmented:
				scremaLambdas(e.Op, lambda)
			case *core.Hist:
				lambda(e.Map)
				for _, op := range e.Ops {
					lambda(op.Lambda)
				}
			case *core.Scatter:
				lambda(e.Map)
			case *core.Filter:
				lambda(e.Map)
				lambda(e.Pred)
			case *core.MultiScan:
				if e.Op != nil {
					lambda(e.Op.Lambda)
				}
			}
		}
	}
	visit(fun.Body)
	prog := &core.Program{}
	for _, f := range r.prog.Funs {
		if need[f.Name] {
			prog.Funs = append(prog.Funs, f)
		}
	}
	prog.Funs = append(prog.Funs, fun)
	return prog
}

func scremaLambdas(e *core.Screma, lambda func(*core.Lambda)) {
	lambda(e.Map)
	for _, op := range e.Scans {
		lambda(op.Lambda)
	}
	for _, op := range e.Reds {
		lambda(op.Lambda)
	}
	lambda(e.Post)
}

// merge adds the devices' timings of one step: their work overlaps, so the
// step's run time is the slowest device's, and every kernel is listed
// under its device.
func (r *run) merge(subs []*eval.Timings) {
	var run, xfer, comp time.Duration
	hit := true
	for rank, s := range subs {
		if s == nil {
			continue
		}
		run, xfer, comp = max(run, s.Run), max(xfer, s.Transfer), max(comp, s.Compile)
		hit = hit && s.CacheHit
		for _, k := range s.Kernels {
			k.Name = fmt.Sprintf("dev%d %s", rank, k.Name)
			r.t.Kernels = append(r.t.Kernels, k)
		}
		r.t.Transfers = append(r.t.Transfers, s.Transfers...)
		r.t.CPUStatements += s.CPUStatements
		for _, n := range s.Notes {
			r.note(n)
		}
	}
	r.t.Run += run
	r.t.Transfer += xfer
	r.t.Compile += comp
	r.t.CacheHit = hit
}

// collective records a collective's cost.
func (r *run) collective(kind string, k eval.KernelTiming) {
	k.Name = fmt.Sprintf("%s (%d ranks)", k.Name, r.b.Ranks())
	r.t.Kernels = append(r.t.Kernels, k)
	r.t.Run += k.Time
	if bw := BusBandwidth(kind, k.Bytes, r.b.Ranks(), k.Time); bw > 0 && kind != "" {
		r.note(fmt.Sprintf("%s: %d B in %v, bus bandwidth %.2f GB/s", k.Name, k.Bytes, k.Time, bw/1e9))
	}
}

// onFirst runs stmts on device 0 as one function of their free variables.
func (r *run) onFirst(stmts []*core.Stmt) error {
	free := core.FreeVarsStmts(stmts)
	args := make([]eval.Value, len(free))
	for i, v := range free {
		val, err := r.value(v)
		if err != nil {
			return err
		}
		if args[i], err = r.toRank(v.Name, val, 0); err != nil {
			return err
		}
	}
	var outs []*core.Var
	for _, s := range stmts {
		outs = append(outs, s.Pat...)
	}
	res := make([]core.Atom, len(outs))
	for i, v := range outs {
		res[i] = v
	}
	fun := &core.Fun{Name: "ar_shard_first", Params: free, Ret: core.TypesOf(outs),
		Body: &core.Body{Stmts: stmts, Result: res}, Pos: stmts[0].Pos}
	var sub eval.Timings
	vals, err := r.call(0, fun, args, &sub)
	r.merge([]*eval.Timings{&sub})
	if err != nil {
		return err
	}
	if len(vals) != len(outs) {
		return fmt.Errorf("internal error: shard: device 0 returned %d values for %d", len(vals), len(outs))
	}
	for i, v := range outs {
		r.env[v.Name] = fromRank(vals[i], 0)
	}
	return nil
}

// worth reports whether a statement over w elements of arrs is sharded.
func (r *run) worth(w int64, arrs []*core.Var) bool {
	if r.b.Ranks() < 2 || w < 1 {
		return false
	}
	if w >= r.b.opts.MinShard {
		return true
	}
	for _, a := range arrs {
		if _, ok := r.env[a.Name].Dev.(*Sharded); ok {
			return true
		}
	}
	return false
}

// split brings arrs (each of outer size w) to one block boundary on every
// device and returns the boundaries and each array's blocks by name. An
// array already sharded at other boundaries, or not at all, is cut on the
// host and each block moved to its device (uploaded where the device
// backend can keep it); the environment then holds the sharded form, so
// later statements find it in place.
func (r *run) split(w int64, arrs []*core.Var) ([]int64, map[string][]eval.Value, error) {
	n := r.b.Ranks()
	var offs []int64
	for _, a := range arrs {
		if s, ok := r.env[a.Name].Dev.(*Sharded); ok && len(s.Parts) == n && s.Rows() == w {
			offs = s.Offsets()
			break
		}
	}
	if offs == nil {
		offs = make([]int64, n+1)
		for k := range offs {
			offs[k] = w * int64(k) / int64(n)
		}
	}
	pieces := map[string][]eval.Value{}
	for _, a := range arrs {
		if pieces[a.Name] != nil {
			continue
		}
		v := r.env[a.Name]
		if s, ok := v.Dev.(*Sharded); ok && len(s.Parts) == n && equalInts(s.Offsets(), offs) {
			pieces[a.Name] = s.Parts
			continue
		}
		if s, ok := v.Dev.(*Sharded); ok {
			r.note(fmt.Sprintf("re-sharded %s (%s) through the host to the blocks of the other operands", a.Name, s.Placement()))
		}
		hv, err := toHost(r.ctx, v)
		if err != nil {
			return nil, nil, err
		}
		if len(hv.Shape) == 0 || hv.Shape[0] != w {
			return nil, nil, fmt.Errorf("internal error: shard: %s has shape %v, want outer size %d", a.Name, hv.Shape, w)
		}
		parts := make([]eval.Value, n)
		for k := range n {
			parts[k] = rowsOf(hv, offs[k], offs[k+1])
			if up, ok := r.b.opts.Devices[k].(eval.Uploader); ok && offs[k+1] > offs[k] {
				var sub eval.Timings
				vs, err := up.Upload(r.ctx, []eval.Value{parts[k]}, &sub)
				if err != nil {
					return nil, nil, err
				}
				r.t.Transfer += sub.Transfer
				r.t.Transfers = append(r.t.Transfers, sub.Transfers...)
				parts[k] = vs[0]
			}
		}
		pieces[a.Name] = parts
		r.env[a.Name] = newSharded(hv.Elem, parts, hv.Shape[1:])
	}
	return offs, pieces, nil
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// newSharded makes the sharded value of per-device blocks.
func newSharded(elem core.PrimType, parts []eval.Value, inner []int64) eval.Value {
	s := &Sharded{Elem: elem, Inner: inner, Parts: parts}
	return eval.Value{Elem: elem, Shape: append([]int64{s.Rows()}, inner...), Dev: s}
}

// perDevice describes one statement run on every block.
type perDevice struct {
	fun    *core.Fun // the statement as a function of its free variables
	first  *core.Fun // when not nil, what block 0 runs instead (a scan's block without a carry)
	offs   []int64   // block boundaries
	pieces map[string][]eval.Value
	w      *core.Var // the block's size, when the statement's size is replaced
	off    *core.Var // the block's first index, when the statement uses indices
	// early lists results that are read to the host on the device's
	// goroutine as soon as its block is done, when smaller than
	// CollectiveMin: partials the host will combine (see readEarly).
	early []int
	// after, when not nil, runs on device k's goroutine right after its
	// block, with its results (a lazy scan reads its block's last element
	// there, while the other devices still compute).
	after func(k int, out []eval.Value, sub *eval.Timings) error
}

// runBlocks runs p.fun on every non-empty block and returns each
// device's results (nil for an empty block).
func (r *run) runBlocks(p *perDevice) ([][]eval.Value, error) {
	n := r.b.Ranks()
	out := make([][]eval.Value, n)
	subs := make([]*eval.Timings, n)
	errs := make([]error, n)
	// The arguments first, on this goroutine: one may be gathered through
	// the host, which writes the run's notes (concurrent map writes killed
	// a two-GPU run of testdata/nested when each device's goroutine did
	// this itself).
	funs := make([]*core.Fun, n)
	args := make([][]eval.Value, n)
	for k := range n {
		if p.offs[k+1] == p.offs[k] {
			continue
		}
		funs[k] = p.fun
		if k == 0 && p.first != nil {
			funs[k] = p.first
		}
		args[k] = make([]eval.Value, len(funs[k].Params))
		for i, v := range funs[k].Params {
			switch {
			case p.w != nil && v.Name == p.w.Name:
				args[k][i] = eval.Scalar(core.IntConst(v.Type.Elem, p.offs[k+1]-p.offs[k]))
			case p.off != nil && v.Name == p.off.Name:
				args[k][i] = eval.Scalar(core.IntConst(v.Type.Elem, p.offs[k]))
			case p.pieces[v.Name] != nil:
				args[k][i] = p.pieces[v.Name][k]
			default:
				val, err := r.value(v)
				if err == nil {
					val, err = r.toRank(v.Name, val, k)
				}
				if err != nil {
					return nil, err
				}
				args[k][i] = val
			}
		}
	}
	one := func(k int) {
		subs[k] = &eval.Timings{}
		out[k], errs[k] = r.call(k, funs[k], args[k], subs[k])
		if errs[k] == nil {
			errs[k] = r.readEarly(p.early, out[k], subs[k])
		}
		if errs[k] == nil && p.after != nil {
			errs[k] = p.after(k, out[k], subs[k])
		}
	}
	var wg sync.WaitGroup
	for k := range n {
		if funs[k] == nil {
			continue
		}
		if r.b.opts.Parallel {
			wg.Go(func() { one(k) })
		} else {
			one(k)
		}
	}
	wg.Wait()
	r.merge(subs)
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// partialReads says when small partials are read to the host: "early",
// each on its device's goroutine as soon as that device is done
// (readEarly), or "late", all of them once every device is done
// (hostSmall). Benchmarks built with
// -ldflags '-X github.com/arepl/arepl/eval/shard.partialReads=late' time
// the second.
var partialReads = "early"

// readEarly reads the results early names that are on the device and
// smaller than CollectiveMin to the host, on the device's goroutine right
// after its block: the first device's read overlaps the others' kernels
// instead of waiting for them. On two H200s (bench/RESULTS.md, "Several
// GPUs, 2026-11-26 night") the two 4 KB histogram partials, read after
// both devices, added 76-342 µs to the run; read early, 26-120 µs (a small
// read costs 30-100 µs there, pinned memory or not). The read is part of
// the device's run time: the run is the slowest device's kernels and read.
func (r *run) readEarly(early []int, out []eval.Value, sub *eval.Timings) error {
	if partialReads != "early" || r.b.opts.CollectiveMin <= 0 {
		return nil
	}
	for _, i := range early {
		v := out[i]
		bytes := v.Len() * int64(v.Elem.Size())
		if v.Dev == nil || bytes >= r.b.opts.CollectiveMin {
			continue
		}
		start := time.Now()
		hv, err := toHost(r.ctx, v)
		if err != nil {
			return err
		}
		out[i] = hv
		d := time.Since(start)
		sub.Kernels = append(sub.Kernels, eval.KernelTiming{Name: "read partial to host", Time: d, Bytes: bytes})
		sub.Run += d
	}
	return nil
}

// stmtFun makes the function that runs s (already rewritten for a block)
// with pre (statements it needs first) and returns s's pattern.
func stmtFun(name string, pre []*core.Stmt, s *core.Stmt) *core.Fun {
	stmts := append(append([]*core.Stmt(nil), pre...), s)
	res := make([]core.Atom, len(s.Pat))
	for i, v := range s.Pat {
		res[i] = v
	}
	return &core.Fun{Name: name, Params: core.FreeVarsStmts(stmts), Ret: core.TypesOf(s.Pat), Body: &core.Body{Stmts: stmts, Result: res}, Pos: s.Pos}
}

// blockSize returns a fresh parameter that replaces the size atom a of a
// statement run on one block.
func (r *run) blockSize(a core.Atom) *core.Var {
	return r.bld.Fresh("ar_block_n", a.AtomType())
}

// offsetIndex returns a fresh index variable and a copy of the lambda that
// binds the statement's original index to it plus the block's offset, so
// that index arithmetic fused into the lambda sees global positions.
func (r *run) offsetIndex(index *core.Var, l *core.Lambda) (*core.Var, *core.Var, *core.Lambda) {
	local := r.bld.Fresh("ar_block_i", index.Type)
	off := r.bld.Fresh("ar_block_off", index.Type)
	add := &core.Stmt{Pat: []*core.Var{index}, Exp: &core.BinOpExp{Op: core.Add, T: index.Type.Elem, X: local, Y: off}}
	nl := &core.Lambda{Params: l.Params, Ret: l.Ret,
		Body: &core.Body{Stmts: append([]*core.Stmt{add}, l.Body.Stmts...), Result: l.Body.Result}}
	return local, off, nl
}

// binOpOf returns the binary operator a lambda is, when it is exactly one
// operator applied to its two parameters (in either order).
func binOpOf(l *core.Lambda) (*core.BinOpExp, bool) {
	if l == nil || len(l.Params) != 2 || len(l.Body.Stmts) != 1 || len(l.Body.Result) != 1 {
		return nil, false
	}
	s := l.Body.Stmts[0]
	e, ok := s.Exp.(*core.BinOpExp)
	if !ok || len(s.Pat) != 1 || l.Body.Result[0] != core.Atom(s.Pat[0]) {
		return nil, false
	}
	x, y := core.Atom(l.Params[0]), core.Atom(l.Params[1])
	if !(e.X == x && e.Y == y) && !(e.X == y && e.Y == x) {
		return nil, false
	}
	return e, true
}

// commutative reports whether a lambda is one commutative operator (a
// reduction by it may reorder).
func commutative(l *core.Lambda) bool {
	e, ok := binOpOf(l)
	return ok && core.BinOps[e.Op].Commutative
}

// nativeOp returns the operator a reduction lambda is, when it is one
// commutative operator the collective layer knows.
func nativeOp(l *core.Lambda) (core.BinOp, bool) {
	e, ok := binOpOf(l)
	if !ok || !core.BinOps[e.Op].Commutative || !NativeOp(e.Op, e.T) {
		return 0, false
	}
	return e.Op, true
}

// Upload places values on the devices once (eval.Uploader), as arepl bench
// does with its inputs: arrays of MinShard rows and more in blocks, one
// block copied from the host to each device (never the whole array onto
// one), smaller ones on device 0.
func (b *Backend) Upload(ctx context.Context, vs []eval.Value, t *eval.Timings) ([]eval.Value, error) {
	out := make([]eval.Value, len(vs))
	r := &run{b: b, ctx: ctx, t: t, bld: core.NewBuilder(), notes: map[string]bool{}, env: map[string]eval.Value{}}
	for i, v := range vs {
		if len(v.Shape) > 0 && r.worth(v.Shape[0], nil) {
			name := fmt.Sprintf("ar_upload_%d", i)
			r.env[name] = v
			if _, _, err := r.split(v.Shape[0], []*core.Var{{Name: name, Type: v.Type()}}); err != nil {
				return nil, err
			}
			out[i] = r.env[name]
			continue
		}
		if up, ok := b.opts.Devices[0].(eval.Uploader); ok {
			hv, err := toHost(ctx, v)
			if err != nil {
				return nil, err
			}
			us, err := up.Upload(ctx, []eval.Value{hv}, t)
			if err != nil {
				return nil, err
			}
			out[i] = fromRank(us[0], 0)
			continue
		}
		out[i] = v
	}
	return out, nil
}

// hostSmall reports whether parts are all smaller than CollectiveMin, which
// the host combines faster than a collective. Parts on the devices (a
// histogram's per-device copies) are then read to the host, each device's
// at once.
func (r *run) hostSmall(parts []eval.Value) (bool, error) {
	if r.b.opts.CollectiveMin <= 0 {
		return false, nil
	}
	for _, p := range parts {
		if p.Len()*int64(p.Elem.Size()) >= r.b.opts.CollectiveMin {
			return false, nil
		}
	}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for k, p := range parts {
		if p.Dev != nil {
			wg.Go(func() { parts[k], errs[k] = toHost(r.ctx, p) })
		}
	}
	wg.Wait()
	return true, errors.Join(errs...)
}

// allReduce combines per-device parts: through Comm, or on the host when
// they are small and there already.
func (r *run) allReduce(parts []eval.Value, op core.BinOp) ([]eval.Value, error) {
	start := time.Now()
	if small, err := r.hostSmall(parts); small || err != nil {
		if err != nil {
			return nil, err
		}
		out, k, err := Local{N: len(parts)}.AllReduce(r.ctx, parts, op)
		// The reads from the devices are part of it.
		k.Name, k.Time = "host all-reduce", time.Since(start)
		r.collective("", k)
		return out, err
	}
	out, k, err := r.b.opts.Comm.AllReduce(r.ctx, parts, op)
	if err == nil {
		r.collective("allreduce", k)
	}
	return out, err
}

// allGather concatenates per-device parts, as allReduce chooses.
func (r *run) allGather(parts []eval.Value) ([]eval.Value, error) {
	start := time.Now()
	if small, err := r.hostSmall(parts); small || err != nil {
		if err != nil {
			return nil, err
		}
		out, k, err := Local{N: len(parts)}.AllGather(r.ctx, parts)
		// The reads from the devices are part of it.
		k.Name, k.Time = "host all-gather", time.Since(start)
		r.collective("", k)
		return out, err
	}
	out, k, err := r.b.opts.Comm.AllGather(r.ctx, parts)
	if err == nil {
		r.collective("allgather", k)
	}
	return out, err
}
