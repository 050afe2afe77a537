package shard

import (
	"context"
	"fmt"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// Sharded is an array split in blocks of its outer dimension over the
// devices: Parts[r] holds rows [Offset(r), Offset(r+1)) on device r. Blocks
// may differ in size (a filter keeps each device's survivors where they
// are) and may be empty. It is the eval.DeviceArray of a sharded Value, so
// the session keeps it across inputs like any device array.
type Sharded struct {
	Elem  core.PrimType
	Inner []int64 // the shape below the outer dimension
	Parts []eval.Value
	// Carry, when not nil, holds a scan's pending carries: the array's
	// elements are Carry applied to what the blocks store (see Carry).
	Carry *Carry
}

// Carry is what a scan over blocks left pending: each block was scanned
// alone, and block r's elements are Of[r] ⊕ its stored elements, ⊕ the
// scan's operator. Writing those out would be a second pass over every
// block after the first (on two GPUs, as long as the scan itself), so the
// carry stays with the array and every reader applies it on the way: a
// read to the host (ToHost, ReadRange, one element), and a statement over
// the blocks, whose map gets `c ⊕ x` for the block's element x and its
// carry c as a scalar parameter (foldCarries). lazy.go says why.
type Carry struct {
	Op core.BinOp // Add, Mul, Min or Max, on a type NativeOp accepts
	// Of holds each block's carry, a host slice of one element; nil for
	// none (the first block, and blocks with nothing before them).
	Of []any
	// Neutral is the operator's neutral element (one element), what a
	// block without a carry is given where every block needs one.
	Neutral any
}

// applyTo applies block r's carry to data, a host copy of some of its
// elements.
func (c *Carry) applyTo(r int, data any) {
	if c == nil || c.Of[r] == nil {
		return
	}
	combineScalar(data, c.Of[r], c.Op)
}

// of is block r's carry, the neutral element for a block without one.
func (c *Carry) of(r int) any {
	if c.Of[r] == nil {
		return c.Neutral
	}
	return c.Of[r]
}

// OnDevice is an unsharded device array of one device of the group: the
// wrapper remembers which, so that a later input hands it to that device's
// backend and copies it through the host for any other.
type OnDevice struct {
	Rank int
	Arr  eval.DeviceArray
}

// Rows is the outer size of the whole array.
func (s *Sharded) Rows() int64 {
	var n int64
	for _, p := range s.Parts {
		n += p.Shape[0]
	}
	return n
}

// Offsets are the first rows of every block, and the total at the end.
func (s *Sharded) Offsets() []int64 {
	out := make([]int64, len(s.Parts)+1)
	for r, p := range s.Parts {
		out[r+1] = out[r] + p.Shape[0]
	}
	return out
}

func (s *Sharded) rowLen() int64 {
	n := int64(1)
	for _, d := range s.Inner {
		n *= d
	}
	return n
}

// ToHost gathers the blocks into one host slice (eval.DeviceArray).
func (s *Sharded) ToHost(ctx context.Context) (any, error) {
	out := eval.MakeSlice(s.Elem, int(s.Rows()*s.rowLen()))
	at := 0
	for r, p := range s.Parts {
		hv, err := p.Host(ctx)
		if err != nil {
			return nil, err
		}
		n := eval.DataLen(hv.Data)
		copyData(out, at, hv.Data)
		s.Carry.applyTo(r, eval.SliceData(out, at, at+n))
		at += n
	}
	return out, nil
}

// ReadRange copies elements [off, off+n) from the blocks that hold them
// (eval.RangeReader): printing a sharded array reads only what it shows.
func (s *Sharded) ReadRange(ctx context.Context, dst any, off, n int64) error {
	rl := s.rowLen()
	base := int64(0)
	for r, p := range s.Parts {
		pn := p.Shape[0] * rl
		lo, hi := max(off, base), min(off+n, base+pn)
		if lo < hi {
			part, err := readPart(ctx, p, lo-base, hi-lo)
			if err != nil {
				return err
			}
			s.Carry.applyTo(r, part)
			copyData(dst, int(lo), part)
		}
		base += pn
	}
	return nil
}

// Bytes is the size of all blocks.
func (s *Sharded) Bytes() int64 { return s.Rows() * s.rowLen() * int64(s.Elem.Size()) }

// Free frees every block.
func (s *Sharded) Free() {
	for _, p := range s.Parts {
		if p.Dev != nil {
			p.Dev.Free()
		}
	}
}

// Placement says where the blocks live, for :where and :type.
func (s *Sharded) Placement() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sharded over %d devices by the outer dimension:", len(s.Parts))
	off := s.Offsets()
	for r := range s.Parts {
		fmt.Fprintf(&b, " dev%d rows [%d, %d)", r, off[r], off[r+1])
		if s.Carry != nil && s.Carry.Of[r] != nil {
			b.WriteString(" (a scan's carry pending)")
		}
		if r+1 < len(s.Parts) {
			b.WriteString(",")
		}
	}
	return b.String()
}

// rangeAt is a device array that reads part of itself into a new slice
// (eval/gpu's arrays): a block's last element, or the rows a printer
// shows, without a host buffer of the whole block.
type rangeAt interface {
	ReadAt(ctx context.Context, off, n int64) (any, error)
}

// readPart returns elements [off, off+n) of a block.
func readPart(ctx context.Context, p eval.Value, off, n int64) (any, error) {
	if p.Data == nil {
		if ra, ok := p.Dev.(rangeAt); ok {
			return ra.ReadAt(ctx, off, n)
		}
	}
	hv, err := p.Host(ctx)
	if err != nil {
		return nil, err
	}
	return cloneData(eval.SliceData(hv.Data, int(off), int(off+n))), nil
}

// ReadAt reads part of the array (see rangeAt).
func (d *OnDevice) ReadAt(ctx context.Context, off, n int64) (any, error) {
	return readPart(ctx, eval.Value{Dev: d.Arr}, off, n)
}

// ToHost copies the array to the host (eval.DeviceArray).
func (d *OnDevice) ToHost(ctx context.Context) (any, error) { return d.Arr.ToHost(ctx) }

// ReadRange reads part of the array, when the device's array can.
func (d *OnDevice) ReadRange(ctx context.Context, dst any, off, n int64) error {
	if rr, ok := d.Arr.(eval.RangeReader); ok {
		return rr.ReadRange(ctx, dst, off, n)
	}
	data, err := d.Arr.ToHost(ctx)
	if err != nil {
		return err
	}
	copyData(dst, int(off), eval.SliceData(data, int(off), int(off+n)))
	return nil
}

// Bytes is the array's size.
func (d *OnDevice) Bytes() int64 { return d.Arr.Bytes() }

// Free frees the array.
func (d *OnDevice) Free() { d.Arr.Free() }

// Placement names the device.
func (d *OnDevice) Placement() string { return fmt.Sprintf("on device %d", d.Rank) }

// copyData copies src into dst starting at element at (both typed slices
// of the same element type).
func copyData(dst any, at int, src any) {
	switch d := dst.(type) {
	case []bool:
		copy(d[at:], src.([]bool))
	case []int8:
		copy(d[at:], src.([]int8))
	case []int16:
		copy(d[at:], src.([]int16))
	case []int32:
		copy(d[at:], src.([]int32))
	case []int64:
		copy(d[at:], src.([]int64))
	case []uint8:
		copy(d[at:], src.([]uint8))
	case []uint16:
		copy(d[at:], src.([]uint16))
	case []uint32:
		copy(d[at:], src.([]uint32))
	case []uint64:
		copy(d[at:], src.([]uint64))
	case []float32:
		copy(d[at:], src.([]float32))
	case []float64:
		copy(d[at:], src.([]float64))
	default:
		panic(fmt.Sprintf("shard: copy into %T", dst))
	}
}

// toHost returns v as a plain host value: sharded arrays gathered, device
// arrays copied back, Dev cleared (what a backend that did not make v may
// be given).
func toHost(ctx context.Context, v eval.Value) (eval.Value, error) {
	hv, err := v.Host(ctx)
	if err != nil {
		return v, err
	}
	hv.Dev = nil
	return hv, nil
}

// rowsOf returns rows [lo, hi) of host value v, sharing its storage.
func rowsOf(v eval.Value, lo, hi int64) eval.Value {
	rl := int64(1)
	for _, d := range v.Shape[1:] {
		rl *= d
	}
	shape := append([]int64{hi - lo}, v.Shape[1:]...)
	return eval.Value{Elem: v.Elem, Shape: shape, Data: eval.SliceData(v.Data, int(lo*rl), int(hi*rl))}
}
