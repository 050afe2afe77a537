package cpu

import (
	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// pool recycles the scalar columns of one worker between chunks: every
// column a chunk's lambdas allocate is returned when the chunk's results
// have been copied out, so a SOAC over millions of elements reuses a few
// cache-resident buffers instead of allocating per chunk. A pool belongs to
// one goroutine.
type pool struct {
	size  int
	free  [core.NumPrims][]any // columns of at least size elements
	small [core.NumPrims][]any // shorter columns (columnLen), kept apart so that get does not search them
	used  [core.NumPrims][]any
}

func newPool(size int) *pool { return &pool{size: size} }

// get returns a column of n elements of t (contents unspecified).
func (p *pool) get(t core.PrimType, n int) any {
	if fl := p.free[t]; len(fl) > 0 && n <= p.size {
		// Every column on this list serves n.
		d := fl[len(fl)-1]
		if capAny(d) >= n {
			p.free[t] = fl[:len(fl)-1]
			p.used[t] = append(p.used[t], d)
			return sliceAny(d, 0, n)
		}
	}
	fl := p.small[t]
	if n >= p.size/64 {
		fl = p.free[t]
	}
	for i := len(fl) - 1; i >= 0; i-- {
		d := fl[i]
		if capAny(d) >= n {
			fl[i] = fl[len(fl)-1]
			if n >= p.size/64 {
				p.free[t] = fl[:len(fl)-1]
			} else {
				p.small[t] = fl[:len(fl)-1]
			}
			p.used[t] = append(p.used[t], d)
			return sliceAny(d, 0, n)
		}
	}
	d := eval.MakeSlice(t, columnLen(n, p.size))
	p.used[t] = append(p.used[t], d)
	return sliceAny(d, 0, n)
}

// columnLen is the length to allocate for a column of n lanes of a worker
// whose chunks are size long: the whole size, so that the column serves
// every later chunk, unless n is under a 64th of it (a combine of partials,
// one lane), which gets exactly n.
func columnLen(n, size int) int {
	if n < size/64 {
		return n
	}
	return max(n, size)
}

// release makes every column handed out since the last release reusable.
func (p *pool) release() {
	for t := range p.used {
		p.put(core.PrimType(t), p.used[t])
		p.used[t] = p.used[t][:0]
	}
}

// put returns columns of type t to the free lists.
func (p *pool) put(t core.PrimType, ds []any) {
	for _, d := range ds {
		if capAny(d) >= p.size {
			p.free[t] = append(p.free[t], d)
		} else {
			p.small[t] = append(p.small[t], d)
		}
	}
}

func capAny(d any) int {
	switch d := d.(type) {
	case []bool:
		return cap(d)
	case []int8:
		return cap(d)
	case []int16:
		return cap(d)
	case []int32:
		return cap(d)
	case []int64:
		return cap(d)
	case []uint8:
		return cap(d)
	case []uint16:
		return cap(d)
	case []uint32:
		return cap(d)
	case []uint64:
		return cap(d)
	case []float32:
		return cap(d)
	case []float64:
		return cap(d)
	}
	return 0
}

// poolMark is a point in a pool's allocations, for releasing the columns
// of one loop iteration while keeping those made before it.
type poolMark [core.NumPrims]int

func (p *pool) mark() (m poolMark) {
	for t := range p.used {
		m[t] = len(p.used[t])
	}
	return m
}

// releaseTo makes the columns handed out since m reusable.
func (p *pool) releaseTo(m poolMark) {
	for t := range p.used {
		p.put(core.PrimType(t), p.used[t][m[t]:])
		p.used[t] = p.used[t][:m[t]]
	}
}
