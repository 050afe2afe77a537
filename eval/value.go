package eval

import (
	"context"
	"fmt"
	"reflect"

	"github.com/arepl/arepl/lang/core"
)

// Value is one flat array or scalar: a primitive element type, a shape
// (empty for a scalar) and the elements in row-major order. Source tuples
// and arrays of tuples are several Values (the tuple-of-arrays
// representation of the seeds); the printer reassembles them from the
// source type.
//
// On the CPU, Data is a typed slice whose element type matches Elem
// ([]bool, []int8, []int16, []int32, []int64, []uint8, []uint16, []uint32,
// []uint64, []float32, []float64; an f16 is a []float32 whose elements
// are always exactly representable halves) and whose length is the product of Shape
// (1 for a scalar). A value computed on a GPU keeps Dev set and Data nil
// until it is needed on the host (Host fetches it).
type Value struct {
	Elem  core.PrimType
	Shape []int64
	Data  any
	Dev   DeviceArray
}

// DeviceArray is an array that lives in a device's memory.
type DeviceArray interface {
	// ToHost copies the array into a new typed slice.
	ToHost(ctx context.Context) (any, error)
	// Bytes is the array's size in bytes.
	Bytes() int64
	// Free releases the device memory; the array is unusable afterwards.
	Free()
}

// RangeReader is implemented by device arrays that can copy part of
// themselves: ReadRange copies elements [off, off+n) into the same
// positions of dst, a typed slice of the array's length. The printer uses
// it to fetch only the rows an elided array shows.
type RangeReader interface {
	ReadRange(ctx context.Context, dst any, off, n int64) error
}

// Type is the core type of v.
func (v Value) Type() core.Type { return core.ArrayOf(v.Elem, len(v.Shape)) }

// Len is the number of elements (1 for a scalar).
func (v Value) Len() int64 {
	n := int64(1)
	for _, d := range v.Shape {
		n *= d
	}
	return n
}

// Host returns v with Data present, fetching it from the device if needed.
func (v Value) Host(ctx context.Context) (Value, error) {
	if v.Data != nil || v.Dev == nil {
		return v, nil
	}
	data, err := v.Dev.ToHost(ctx)
	if err != nil {
		return v, err
	}
	v.Data = data
	return v, nil
}

// NewArray returns a zeroed host array of element type t and the given shape.
func NewArray(t core.PrimType, shape ...int64) Value {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return Value{Elem: t, Shape: shape, Data: MakeSlice(t, int(n))}
}

// MakeSlice returns a zeroed typed slice of n elements of t. Slices of
// hugeHintBytes and more are hinted to live on huge pages (hugePageHint).
func MakeSlice(t core.PrimType, n int) any {
	s := makeSlice(t, n)
	if size := uintptr(n) * uintptr(t.Size()); size >= hugeHintBytes {
		hugePageHint(reflect.ValueOf(s).UnsafePointer(), size)
	}
	return s
}

// hugeHintBytes is numpy's threshold for the same hint: below it an
// array spans too few huge pages to matter.
const hugeHintBytes = 4 << 20

func makeSlice(t core.PrimType, n int) any {
	switch t {
	case core.Bool:
		return make([]bool, n)
	case core.I8:
		return make([]int8, n)
	case core.I16:
		return make([]int16, n)
	case core.I32:
		return make([]int32, n)
	case core.I64:
		return make([]int64, n)
	case core.U8:
		return make([]uint8, n)
	case core.U16:
		return make([]uint16, n)
	case core.U32:
		return make([]uint32, n)
	case core.U64:
		return make([]uint64, n)
	case core.F32, core.F16:
		return make([]float32, n)
	case core.F64:
		return make([]float64, n)
	}
	panic(fmt.Sprintf("eval: bad element type %v", t))
}

// Scalar returns the scalar value of constant c.
func Scalar(c core.Const) Value {
	v := NewArray(c.T)
	switch d := v.Data.(type) {
	case []bool:
		d[0] = c.Bool()
	case []int8:
		d[0] = int8(c.Int())
	case []int16:
		d[0] = int16(c.Int())
	case []int32:
		d[0] = int32(c.Int())
	case []int64:
		d[0] = c.Int()
	case []uint8:
		d[0] = uint8(c.Bits)
	case []uint16:
		d[0] = uint16(c.Bits)
	case []uint32:
		d[0] = uint32(c.Bits)
	case []uint64:
		d[0] = c.Bits
	case []float32:
		d[0] = float32(c.Float())
	case []float64:
		d[0] = c.Float()
	}
	return v
}
