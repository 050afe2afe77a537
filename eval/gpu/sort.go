package gpu

// The device radix sort behind the sort-based histogram and multiscan
// (multireduce thesis §4.4, §5.5): a stable LSD sort of 32-bit keys below
// 2^bits that yields the permutation sorting them. kernels/sort.cu holds
// its kernels, one fixed module per device; this file plans the passes and
// launches them.
//
// A pass sorts by one digit of at most 8 bits; the key's bits are split
// evenly over ceil(bits/8) passes (21 bits: three passes of 7), so no pass
// sorts more digits than it must. Counts and offsets are 32-bit, so the
// sort takes fewer than 2^32 elements; its callers keep the atomic paths
// beyond that.

import (
	"fmt"
	"slices"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/kernels"
	"github.com/arepl/arepl/lang/core"
)

// sortTile is AR_SORT_TILE of kernels/sort.cu: the keys one block ranks.
const sortTile = 4096

// sortBlock is AR_SORT_BLOCK of kernels/sort.cu.
const sortBlock = 256

// sortMaxN bounds the elements of one sort (32-bit counts and payloads).
const sortMaxN = 1<<32 - 1

var sortSource = func() string {
	b, err := kernels.FS.ReadFile("sort.cu")
	if err != nil {
		panic("gpu: embedded sort.cu missing")
	}
	return prelude + "\n" + string(b)
}()

var sortKernels = []string{"ar_sort_count", "ar_sort_scan_chunks", "ar_sort_scan_totals", "ar_sort_scatter"}

// keyBits is the number of bits that hold every key up to max.
func keyBits(max int64) int {
	b := 0
	for max > 0 {
		b++
		max >>= 1
	}
	return b
}

// sortDigits splits bits into the digit widths of the passes, at most 8
// bits each and as even as they can be.
func sortDigits(bits int) []int {
	if bits <= 0 {
		return nil
	}
	passes := (bits + 7) / 8
	ds := make([]int, passes)
	for p := range ds {
		ds[p] = bits / passes
		if p < bits%passes {
			ds[p]++
		}
	}
	return ds
}

// radixSort sorts the n u32 keys below 2^bits stably and returns the
// sorted keys and the permutation (u32: sorted place -> original index).
// keys is left as it was; the caller frees the arrays returned.
func (r *run) radixSort(keys *devArray, n int64, bits int) (sorted, perm *devArray, err error) {
	if n > sortMaxN {
		return nil, nil, fmt.Errorf("internal error: radix sort of %d elements", n)
	}
	l, err := r.loadSource(sortSource, "", "arepl_sort.cu", sortKernels)
	if err != nil {
		return nil, nil, err
	}
	tiles := ceilDiv(n, sortTile)
	chunks := ceilDiv(tiles*256, sortTile)
	var scratch []*devArray
	defer func() {
		for _, d := range scratch {
			d.Free()
		}
	}()
	alloc := func(n int64) (*devArray, error) {
		d, err := newDevArray(r.b.g, core.U32, max(n, 1))
		if err != nil {
			return nil, err
		}
		d.n, d.bytes = n, 4*n
		scratch = append(scratch, d)
		return d, nil
	}
	counts, err := alloc(tiles * 256)
	if err != nil {
		return nil, nil, err
	}
	totals, err := alloc(chunks)
	if err != nil {
		return nil, nil, err
	}
	// Two pairs of buffers, swapped every pass; the first pass reads the
	// caller's keys and the identity permutation.
	var bufs [2][2]*devArray
	for i := range bufs {
		for j := range bufs[i] {
			if bufs[i][j], err = alloc(n); err != nil {
				return nil, nil, err
			}
		}
	}
	kin, vin := keys, (*devArray)(nil)
	shift := 0
	for p, dbits := range sortDigits(bits) {
		kout, vout := bufs[p%2][0], bufs[p%2][1]
		launch := func(name string, grid int64, bytes int64, args ...any) error {
			d, err := l.funcs[name].Launch(dim(grid), dim(sortBlock), 0, args...)
			if err != nil {
				return err
			}
			r.t.Run += d
			r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: name, Time: d, Bytes: bytes})
			return nil
		}
		if err := launch("ar_sort_count", tiles, 4*n+4*tiles*256, kin.ptr(), n, int32(shift), int32(dbits), counts.ptr(), tiles); err != nil {
			return nil, nil, err
		}
		if err := launch("ar_sort_scan_chunks", chunks, 8*tiles*256, counts.ptr(), tiles*256, totals.ptr()); err != nil {
			return nil, nil, err
		}
		if err := launch("ar_sort_scan_totals", 1, 8*chunks, totals.ptr(), chunks); err != nil {
			return nil, nil, err
		}
		vp, vbytes := nullPtr, int64(0)
		if vin != nil {
			vp, vbytes = vin.ptr(), 4*n
		}
		if err := launch("ar_sort_scatter", tiles, 12*n+vbytes+4*tiles*256, kin.ptr(), vp, kout.ptr(), vout.ptr(), n,
			int32(shift), int32(dbits), counts.ptr(), totals.ptr(), tiles); err != nil {
			return nil, nil, err
		}
		kin, vin = kout, vout
		shift += dbits
	}
	if vin == nil {
		return nil, nil, fmt.Errorf("internal error: radix sort by %d bits", bits)
	}
	// The last pass's buffers go to the caller, who frees them.
	scratch = slices.DeleteFunc(scratch, func(d *devArray) bool { return d == kin || d == vin })
	return kin, vin, nil
}

// dim is a one-dimensional grid or block.
func dim(x int64) cuda.Dim3 { return cuda.Dim3{X: uint32(x)} }

// nullPtr is a null device pointer (sort.cu's identity payload).
const nullPtr = cuda.Ptr(0)
