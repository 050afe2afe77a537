package gpu

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
)

// devArray is an array in device memory; it implements eval.DeviceArray.
// The memory is freed by Free, or by a cleanup when the array becomes
// unreachable (the Go collector does not see device memory, so the backend
// also frees its temporaries explicitly at the end of every Run).
type devArray struct {
	g     *cuda.GPU
	mem   *devMem
	elem  core.PrimType
	n     int64
	bytes int64
}

// devMem is the allocation itself, shared by the array and its cleanup so
// that an explicit Free and the cleanup never both free it.
type devMem struct {
	ptr   cuda.Ptr
	freed atomic.Bool
}

func newDevArray(g *cuda.GPU, elem core.PrimType, n int64) (*devArray, error) {
	bytes := n * int64(elem.Size())
	p, err := g.Alloc(bytes)
	if err != nil {
		return nil, err
	}
	d := &devArray{g: g, mem: &devMem{ptr: p}, elem: elem, n: n, bytes: bytes}
	runtime.AddCleanup(d, func(m *devMem) {
		if m.freed.CompareAndSwap(false, true) {
			g.FreeAsync(m.ptr)
		}
	}, d.mem)
	return d, nil
}

func (d *devArray) ptr() cuda.Ptr { return d.mem.ptr }

// ToHost copies the array into a new typed slice.
func (d *devArray) ToHost(ctx context.Context) (any, error) {
	if d.mem.freed.Load() {
		return nil, fmt.Errorf("gpu: use of a freed device array")
	}
	s := eval.MakeSlice(d.elem, int(d.n))
	if err := d.g.DtoH(slicePtr(s), d.mem.ptr, d.bytes); err != nil {
		return nil, err
	}
	runtime.KeepAlive(s)
	return s, nil
}

// ReadRange copies elements [off, off+n) into the same positions of dst
// (eval.RangeReader): the printer fetches only what it shows.
func (d *devArray) ReadRange(_ context.Context, dst any, off, n int64) error {
	if d.mem.freed.Load() {
		return fmt.Errorf("gpu: use of a freed device array")
	}
	if off < 0 || n < 0 || off+n > d.n {
		return fmt.Errorf("internal error: elements [%d, %d) of an array of %d", off, off+n, d.n)
	}
	if n == 0 {
		return nil
	}
	size := int64(d.elem.Size())
	err := d.g.DtoH(unsafe.Add(slicePtr(dst), off*size), d.mem.ptr+cuda.Ptr(off*size), n*size)
	runtime.KeepAlive(dst)
	return err
}

// Bytes is the array's size in bytes.
func (d *devArray) Bytes() int64 { return d.bytes }

// Free releases the device memory now.
func (d *devArray) Free() {
	if d.mem.freed.CompareAndSwap(false, true) {
		_ = d.g.Free(d.mem.ptr)
	}
}

// slicePtr is the address of a typed slice's first element (nil when
// empty); bool slices are one byte per element, 0 or 1, as on the device.
func slicePtr(s any) unsafe.Pointer {
	switch s := s.(type) {
	case []bool:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []int8:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []int16:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []int32:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []int64:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []uint8:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []uint16:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []uint32:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []uint64:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []float32:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	case []float64:
		if len(s) > 0 {
			return unsafe.Pointer(&s[0])
		}
	}
	return nil
}

// scalarArg turns element 0 of a host value into a kernel argument of
// its type.
func scalarArg(v eval.Value) (any, error) {
	switch d := v.Data.(type) {
	case []bool:
		return d[0], nil
	case []int8:
		return d[0], nil
	case []int16:
		return d[0], nil
	case []int32:
		return d[0], nil
	case []int64:
		return d[0], nil
	case []uint8:
		return d[0], nil
	case []uint16:
		return d[0], nil
	case []uint32:
		return d[0], nil
	case []uint64:
		return d[0], nil
	case []float32:
		return d[0], nil
	case []float64:
		return d[0], nil
	}
	return nil, fmt.Errorf("internal error: scalar of type %T", v.Data)
}

// scalarInt reads an integer scalar (a size or count) as int64.
func scalarInt(v eval.Value) (int64, error) {
	switch d := v.Data.(type) {
	case []int8:
		return int64(d[0]), nil
	case []int16:
		return int64(d[0]), nil
	case []int32:
		return int64(d[0]), nil
	case []int64:
		return d[0], nil
	case []uint8:
		return int64(d[0]), nil
	case []uint16:
		return int64(d[0]), nil
	case []uint32:
		return int64(d[0]), nil
	case []uint64:
		return int64(d[0]), nil
	}
	return 0, fmt.Errorf("internal error: size of type %T", v.Data)
}
