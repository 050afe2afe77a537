package cpu

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Partitioned histograms (the multireduce thesis, ch. 2: partial sorting by
// bucket). When the buckets far outnumber what the caches hold and the
// elements are about as many as the buckets, per-worker sub-histograms do
// not pay (each is as large as the destination) and updating the
// destination directly misses the cache on almost every element. Instead
// the map's (index, value) pairs are first grouped by bucket range — ranges
// of 2^histPartShift buckets, small enough for a core's cache — with a
// counting sort, and then each range's updates are applied by one worker,
// in element order, into a part of the destination that stays in cache.
// Ranges belong to one worker each, so workers never share a bucket.

// histPartShift makes the ranges: bucket i is in range i >> histPartShift
// (2^18 buckets: 1 MiB of i32, the L2 of the development machine's cores;
// 2^16 made four times as many ranges and a scatter into as many streams
// that cost more than the updates it sped up).
var histPartShift uint = 18

// histPartMin is the fewest buckets (and elements) worth partitioning:
// below it the destination fits in the caches anyway.
var histPartMin int64 = 1 << 20

// partitionedHist reports whether a hist statement with operators ops into
// destinations dests of w elements takes the partitioned path: one builtin
// operator on a one-dimensional destination larger than the caches, with
// no more than eight elements per bucket (more make per-worker
// sub-histograms pay) and no fewer than half an element per bucket. On the
// 2-core development VM, i32 (+) through a session, partitioned against
// direct: 2^20 into 2^20 buckets 13 against 18 ms, 2^22 into 2^21 48 against
// 105, 10^7 into 10^7 136 against 319, into 2*10^7 273 against 390, into
// 4*10^7 580 against 452 (the scatter into that many ranges costs more
// than the misses it saves).
func partitionedHist(ops []*opInfo, dests [][]eval.Value, w int64) bool {
	if len(ops) != 1 || !ops[0].builtin || len(dests[0]) != 1 {
		return false
	}
	d := dests[0][0]
	if len(d.Shape) != 1 || ops[0].types[0].Rank != 0 {
		return false
	}
	h := d.Shape[0]
	return h >= histPartMin && w >= histPartMin && h*8 > w && h <= 2*w
}

// histByRanges runs the partitioned path of hist statement s: the map over
// every element into whole columns, a counting sort of the pairs by range,
// then each range's updates into dest.
func (f *frame) histByRanges(s *core.Stmt, e *core.Hist, op *opInfo, ins []eval.Value, w int64, dest eval.Value) error {
	h := dest.Shape[0]
	ranges := int((h-1)>>histPartShift) + 1
	// An identity map's pairs are its inputs: no copy.
	direct := core.IsIdentityLambda(e.Map) && e.Index == nil
	var idx []int64
	var val any
	if direct {
		idx, val = ins[0].Data.([]int64), ins[1].Data
	} else {
		idx, val = make([]int64, w), eval.MakeSlice(op.bt, int(w))
	}
	bs := f.blocks(w, f.m.opts.Workers)
	// Phase 1: the map, and each block's count of pairs per range (pairs
	// whose index is out of range are dropped, as hist ignores them).
	counts := make([][]int64, len(bs))
	err := f.parallel(len(bs), func(b int, wk *worker) error {
		cnt := make([]int64, ranges+1) // the last one counts dropped pairs
		counts[b] = cnt
		return f.chunks(wk, bs[b][0], bs[b][1], func(lo int64, n int) error {
			is := idx[lo : lo+int64(n)]
			if !direct {
				cols, err := wk.runLambdaOn(e.Map, e.Index, ins, lo, n)
				if err != nil {
					return err
				}
				copy(is, cols[0].data.([]int64)[:n])
				copyAt(val, int(lo), sliceAny(cols[1].data, 0, n))
			}
			for _, i := range is {
				r := ranges
				if uint64(i) < uint64(h) {
					r = int(i >> histPartShift)
				}
				cnt[r]++
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	// Where each block's pairs of each range go: ranges in order, blocks in
	// order within a range, so every range keeps element order.
	start := make([][]int64, len(bs))
	rangeAt := make([]int64, ranges+1)
	var at int64
	for r := 0; r < ranges; r++ {
		rangeAt[r] = at
		for b := range bs {
			if start[b] == nil {
				start[b] = make([]int64, ranges)
			}
			start[b][r] = at
			at += counts[b][r]
		}
	}
	rangeAt[ranges] = at
	sortedIdx := make([]int64, at)
	sortedVal := eval.MakeSlice(op.bt, int(at))
	scatter := partScatter[op.bt]
	err = f.parallel(len(bs), func(b int, _ *worker) error {
		scatter(sortedIdx, sortedVal, idx[bs[b][0]:bs[b][1]], sliceAny(val, int(bs[b][0]), int(bs[b][1])), start[b], h)
		return f.m.cancelled()
	})
	if err != nil {
		return err
	}
	// Phase 2: the ranges, split between the workers in contiguous runs.
	workers := min(f.m.opts.Workers, ranges)
	if f.soac > 0 {
		workers = 1
	}
	upd := histTab[op.bop][op.bt]
	return f.parallel(workers, func(b int, _ *worker) error {
		r0, r1 := ranges*b/workers, ranges*(b+1)/workers
		lo, hi := rangeAt[r0], rangeAt[r1]
		upd(dest.Data, sortedIdx[lo:hi], sliceAny(sortedVal, int(lo), int(hi)))
		return f.m.cancelled()
	})
}

// partScatterK moves one block's in-range pairs to their places: next[r]
// is where the block's next pair of range r goes.
type partScatterK func(dIdx []int64, dVal any, idx []int64, val any, next []int64, h int64)

var partScatter [core.NumPrims]partScatterK

func regPartScatter[T any](t core.PrimType) {
	partScatter[t] = func(dIdx []int64, dVal any, idx []int64, val any, next []int64, h int64) {
		dv, vs := dVal.([]T), val.([]T)
		for j, i := range idx {
			if uint64(i) >= uint64(h) {
				continue
			}
			r := i >> histPartShift
			p := next[r]
			next[r] = p + 1
			dIdx[p], dv[p] = i, vs[j]
		}
	}
}

// initPartScatterTables fills the partitioned scatter table (tables.go calls it).
func initPartScatterTables() {
	regPartScatter[bool](core.Bool)
	regPartScatter[int8](core.I8)
	regPartScatter[int16](core.I16)
	regPartScatter[int32](core.I32)
	regPartScatter[int64](core.I64)
	regPartScatter[uint8](core.U8)
	regPartScatter[uint16](core.U16)
	regPartScatter[uint32](core.U32)
	regPartScatter[uint64](core.U64)
	regPartScatter[float32](core.F32)
	regPartScatter[float64](core.F64)
}
