package gpu

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// TestSortDigits checks how the key bits are split over the passes.
func TestSortDigits(t *testing.T) {
	cases := []struct {
		bits int
		want []int
	}{
		{0, nil}, {1, []int{1}}, {8, []int{8}}, {9, []int{5, 4}}, {16, []int{8, 8}},
		{17, []int{6, 6, 5}}, {21, []int{7, 7, 7}}, {32, []int{8, 8, 8, 8}},
	}
	for _, c := range cases {
		if got := sortDigits(c.bits); !slices.Equal(got, c.want) {
			t.Errorf("sortDigits(%d) = %v, want %v", c.bits, got, c.want)
		}
	}
	for _, c := range []struct{ max, bits int64 }{{0, 0}, {1, 1}, {2, 2}, {255, 8}, {256, 9}, {1 << 20, 21}} {
		if got := keyBits(c.max); int64(got) != c.bits {
			t.Errorf("keyBits(%d) = %d, want %d", c.max, got, c.bits)
		}
	}
	for _, n := range []int64{1, 31, 32, 1000, 1 << 24, 1<<32 - 1} {
		ch := multiscanSortChunks(n)
		if ch%32 != 0 || ch < 256 || ceilDiv(n, ch) > 1<<16 {
			t.Errorf("multiscanSortChunks(%d) = %d: want whole batches, at least 256, at most 2^16 chunks", n, ch)
		}
	}
}

// TestRadixSortDevice sorts random keys of several widths and sizes on the
// GPU (tile boundaries, one pass and several, skewed keys) and checks the
// keys and the permutation against a stable sort on the host.
func TestRadixSortDevice(t *testing.T) {
	b := newTestBackend(t)
	if b == nil {
		return
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, bits := range []int{1, 4, 8, 9, 17, 21, 32} {
		for _, n := range []int{1, 2, 4095, 4096, 4097, 100003, 1 << 20} {
			if n > *maxN {
				continue
			}
			for _, skew := range []bool{false, true} {
				keys := make([]uint32, n)
				for i := range keys {
					keys[i] = uint32(rng.Uint64() & (1<<bits - 1))
					if skew && i%7 != 0 {
						keys[i] = uint32(1<<bits - 1)
					}
				}
				r := &run{b: b, ctx: context.Background(), t: &eval.Timings{}}
				d, err := newDevArray(b.g, core.U32, int64(n))
				if err != nil {
					t.Fatal(err)
				}
				if err := b.g.HtoD(d.ptr(), unsafe.Pointer(&keys[0]), int64(4*n)); err != nil {
					t.Fatal(err)
				}
				sk, perm, err := r.radixSort(d, int64(n), bits)
				if err != nil {
					t.Fatalf("bits=%d n=%d: %v", bits, n, err)
				}
				gotK, err := sk.ToHost(r.ctx)
				if err != nil {
					t.Fatal(err)
				}
				gotP, err := perm.ToHost(r.ctx)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]uint32, n)
				for i := range want {
					want[i] = uint32(i)
				}
				slices.SortStableFunc(want, func(x, y uint32) int { return int(int64(keys[x]) - int64(keys[y])) })
				for i, p := range gotP.([]uint32) {
					if p != want[i] || gotK.([]uint32)[i] != keys[want[i]] {
						t.Fatalf("bits=%d n=%d skew=%v: place %d holds element %d (key %d), want %d (key %d)",
							bits, n, skew, i, p, gotK.([]uint32)[i], want[i], keys[want[i]])
					}
				}
				for _, x := range []*devArray{d, sk, perm} {
					x.Free()
				}
			}
		}
	}
}
