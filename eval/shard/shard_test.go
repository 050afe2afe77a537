package shard

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

func i32s(xs ...int32) eval.Value {
	return eval.Value{Elem: core.I32, Shape: []int64{int64(len(xs))}, Data: xs}
}

func TestLocalCollectives(t *testing.T) {
	ctx := context.Background()
	c := Local{N: 3}
	out, k, err := c.AllReduce(ctx, []eval.Value{i32s(1, 2), i32s(10, 20), i32s(100, 200)}, core.Add)
	if err != nil {
		t.Fatal(err)
	}
	for r, v := range out {
		if !reflect.DeepEqual(v.Data, []int32{111, 222}) {
			t.Errorf("rank %d got %v", r, v.Data)
		}
	}
	if k.Bytes != 8 {
		t.Errorf("all-reduce timing says %d bytes, want 8", k.Bytes)
	}
	// Each rank owns its result: changing one leaves the others.
	out[0].Data.([]int32)[0] = -1
	if out[1].Data.([]int32)[0] != 111 {
		t.Error("ranks share their all-reduce result")
	}
	g, _, err := c.AllGather(ctx, []eval.Value{i32s(1), i32s(2), i32s(3)})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g[2].Data, []int32{1, 2, 3}) {
		t.Errorf("all-gather: %v", g[2].Data)
	}
	if _, _, err := c.AllReduce(ctx, []eval.Value{i32s(1), i32s(1, 2)}, core.Add); err == nil {
		t.Error("all-reduce of unequal parts succeeded")
	}
	if _, _, err := c.AllReduce(ctx, []eval.Value{i32s(1)}, core.Sub); err == nil {
		t.Error("all-reduce with - succeeded")
	}
}

func TestNativeOp(t *testing.T) {
	for _, c := range []struct {
		op   core.BinOp
		t    core.PrimType
		want bool
	}{
		{core.Add, core.I32, true}, {core.Mul, core.F64, true}, {core.Max, core.I64, true},
		{core.Min, core.F32, false}, // NaN: left to the program's operator
		{core.Add, core.Bool, false}, {core.Add, core.I16, false}, {core.Sub, core.I32, false},
	} {
		if got := NativeOp(c.op, c.t); got != c.want {
			t.Errorf("NativeOp(%s, %v) = %v", core.BinOps[c.op].Name, c.t, got)
		}
	}
}

func TestBusBandwidth(t *testing.T) {
	// nccl-tests: all-reduce busbw = algbw * 2(n-1)/n.
	if got := BusBandwidth("allreduce", 1e9, 2, time.Second); got != 1e9 {
		t.Errorf("all-reduce of 1 GB in 1 s over 2 ranks: %g B/s, want 1e9", got)
	}
	if got := BusBandwidth("allgather", 1e9, 4, time.Second); got != 0.75e9 {
		t.Errorf("all-gather: %g", got)
	}
}

func TestShardedValue(t *testing.T) {
	ctx := context.Background()
	s := &Sharded{Elem: core.I32, Inner: []int64{2}, Parts: []eval.Value{
		{Elem: core.I32, Shape: []int64{2, 2}, Data: []int32{0, 1, 2, 3}},
		{Elem: core.I32, Shape: []int64{0, 2}, Data: []int32{}},
		{Elem: core.I32, Shape: []int64{1, 2}, Data: []int32{4, 5}},
	}}
	if s.Rows() != 3 || s.Bytes() != 24 {
		t.Errorf("rows %d bytes %d", s.Rows(), s.Bytes())
	}
	all, err := s.ToHost(ctx)
	if err != nil || !reflect.DeepEqual(all, []int32{0, 1, 2, 3, 4, 5}) {
		t.Errorf("ToHost = %v, %v", all, err)
	}
	dst := make([]int32, 6)
	if err := s.ReadRange(ctx, dst, 3, 2); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dst, []int32{0, 0, 0, 3, 4, 0}) {
		t.Errorf("ReadRange across blocks: %v", dst)
	}
	if p := s.Placement(); !strings.Contains(p, "dev1 rows [2, 2)") || !strings.Contains(p, "3 devices") {
		t.Errorf("placement %q", p)
	}
}

// TestShardedCarry: a scan's pending carries are applied to every read to
// the host, whole or in part, and never to the blocks themselves.
func TestShardedCarry(t *testing.T) {
	ctx := context.Background()
	s := &Sharded{Elem: core.I32, Parts: []eval.Value{i32s(1, 3), i32s(), i32s(2, 2, 5)},
		Carry: &Carry{Op: core.Add, Of: []any{nil, []int32{4}, []int32{4}}, Neutral: []int32{0}}}
	all, err := s.ToHost(ctx)
	if err != nil || !reflect.DeepEqual(all, []int32{1, 3, 6, 6, 9}) {
		t.Errorf("ToHost = %v, %v", all, err)
	}
	dst := make([]int32, 5)
	if err := s.ReadRange(ctx, dst, 1, 3); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dst, []int32{0, 3, 6, 6, 0}) {
		t.Errorf("ReadRange across blocks: %v", dst)
	}
	if !reflect.DeepEqual(s.Parts[2].Data, []int32{2, 2, 5}) {
		t.Errorf("a read changed the block: %v", s.Parts[2].Data)
	}
	m := &Sharded{Elem: core.F64, Parts: []eval.Value{{Elem: core.F64, Shape: []int64{1}, Data: []float64{0.5}}, {Elem: core.F64, Shape: []int64{2}, Data: []float64{2, -1}}},
		Carry: &Carry{Op: core.Mul, Of: []any{nil, []float64{0.5}}, Neutral: []float64{1}}}
	if all, err := m.ToHost(ctx); err != nil || !reflect.DeepEqual(all, []float64{0.5, 1, -0.5}) {
		t.Errorf("ToHost by * = %v, %v", all, err)
	}
}

// TestUploadInPieces: an array of MinShard rows or more is cut on the host
// and each device gets only its block.
func TestUploadInPieces(t *testing.T) {
	devs := []eval.Backend{&recorder{}, &recorder{}}
	b, err := New(Options{Devices: devs, Comm: Local{N: 2}, MinShard: 4})
	if err != nil {
		t.Fatal(err)
	}
	out, err := b.Upload(context.Background(), []eval.Value{i32s(1, 2, 3, 4, 5), i32s(7, 8)}, &eval.Timings{})
	if err != nil {
		t.Fatal(err)
	}
	sh, ok := out[0].Dev.(*Sharded)
	if !ok {
		t.Fatalf("5 rows with MinShard 4 not sharded: %+v", out[0])
	}
	for k, want := range [][]int32{{1, 2}, {3, 4, 5}} {
		got := devs[k].(*recorder).got
		if len(got) == 0 || !reflect.DeepEqual(got[0].Data, want) || !reflect.DeepEqual(sh.Parts[k].Data, want) {
			t.Errorf("device %d got %v, want its block %v first", k, got, want)
		}
	}
	// The small array goes to device 0 alone.
	if got := devs[1].(*recorder).got; len(got) != 1 {
		t.Errorf("device 1 was given %d arrays, want its block only", len(got))
	}
	if got := devs[0].(*recorder).got; len(got) != 2 || !reflect.DeepEqual(got[1].Data, []int32{7, 8}) {
		t.Errorf("device 0 was given %v, want its block then the small array", got)
	}
	if _, ok := out[1].Dev.(*Sharded); ok {
		t.Error("2 rows with MinShard 4 sharded")
	}
}

// recorder is a device backend that records what it is given to keep.
type recorder struct{ got []eval.Value }

func (*recorder) Name() string { return "recorder" }

func (*recorder) Run(context.Context, *core.Program, string, []eval.Value, *eval.Timings) ([]eval.Value, error) {
	return nil, nil
}

func (r *recorder) Upload(_ context.Context, vs []eval.Value, _ *eval.Timings) ([]eval.Value, error) {
	r.got = append(r.got, vs...)
	return vs, nil
}
