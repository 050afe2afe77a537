package gpu

import (
	"fmt"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/gpu/cuda"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// launch runs the kernel of statement s: it evaluates the width, brings
// inputs and free arrays to the device, allocates outputs, picks the grid,
// launches, checks the error flag and binds the results.
func (r *run) launch(s *core.Stmt, ks []*kernel, env map[string]eval.Value) error {
	if ks[0].tile != nil {
		return r.launchTiled(s, ks[0], env)
	}
	if ks[0].Kind == kSegMap {
		return r.launchSegMap(s, ks[0], env)
	}
	if ks[0].Kind == kSegRed {
		return r.launchSegRed(s, ks, env) // segred.go
	}
	op := ks[0].Op
	k := ks[0]
	w, segs, outer, err := r.segShape(s, k, env)
	if err != nil {
		return err
	}
	n := w * segs // elements
	f := r.l.funcs[k.Name]
	occ := r.l.occ[k.Name]
	sms := int64(r.b.lim.SMs)
	var grid, extra int64
	switch k.Kind {
	case kMap:
		grid = min(ceilDiv(n, int64(k.Block)), sms*int64(occ))
	case kRedComm:
		grid = min(ceilDiv(n, int64(k.Block*k.Unroll)), sms*int64(occ))
	case kRedOrdered:
		// Warp tiles are spread evenly over the warps of a full wave of
		// blocks; extra is the tiles per warp.
		tiles := ceilDiv(n, int64(k.Tile()))
		warps := int64(k.Warps())
		grid = max(1, min(ceilDiv(tiles, warps), sms*int64(occ)))
		extra = max(1, ceilDiv(tiles, grid*warps))
		grid = max(1, ceilDiv(tiles, extra*warps))
	}
	grid = max(grid, 1)

	// Outputs.
	alloc := func(t core.PrimType, count int64) (*devArray, error) {
		if count < 0 || count > maxAlloc/int64(t.Size()) {
			return nil, source.Errorf(s.Pos, "cannot allocate %d elements of %d bytes", count, t.Size())
		}
		d, err := newDevArray(r.b.g, t, count)
		if err != nil {
			if cuda.Sticky(err) {
				return nil, err
			}
			return nil, source.Errorf(s.Pos, "cannot allocate %d bytes on the GPU: %v", count*int64(t.Size()), err)
		}
		r.temps = append(r.temps, d)
		return d, nil
	}
	var outs, parts, results []*devArray
	for _, t := range k.Out {
		d, err := alloc(t, n)
		if err != nil {
			return err
		}
		outs = append(outs, d)
	}
	for _, t := range k.Red {
		if k.Kind == kRedComm || k.Kind == kRedOrdered {
			d, err := alloc(t, grid)
			if err != nil {
				return err
			}
			parts = append(parts, d)
		}
		d, err := alloc(t, 1)
		if err != nil {
			return err
		}
		results = append(results, d)
	}

	// Arguments, in the order of k.params.
	var args []any
	var bytes int64
	for _, p := range k.params {
		switch p.kind {
		case pN:
			args = append(args, n)
		case pExtra:
			args = append(args, extra)
		case pErr, pScalar, pArray, pDim:
			a, err := r.envArg(p, env)
			if err != nil {
				return err
			}
			args = append(args, a)
		case pIn:
			d, v, err := r.device(op.Arrs[p.k], env)
			if err != nil {
				return err
			}
			if v.Len() != n {
				return fmt.Errorf("internal error: %s has %d elements, the SOAC %d", op.Arrs[p.k].Name, v.Len(), n)
			}
			bytes += d.bytes
			args = append(args, d.ptr())
		case pOut:
			bytes += outs[p.k].bytes
			args = append(args, outs[p.k].ptr())
		case pPartial:
			args = append(args, parts[p.k].ptr())
		case pResult:
			bytes += results[p.k].bytes
			args = append(args, results[p.k].ptr())
		case pCounter:
			args = append(args, r.b.counter)
		case pConst:
			a, err := scalarArg(eval.Scalar(p.c))
			if err != nil {
				return err
			}
			args = append(args, a)
		default:
			return fmt.Errorf("internal error: parameter kind %d", p.kind)
		}
	}
	// A map of nothing has nothing to write; a reduction of nothing
	// still writes its neutral element.
	if !(n == 0 && k.Kind == kMap) {
		d, err := f.Launch(cuda.Dim3{X: uint32(grid)}, cuda.Dim3{X: uint32(k.Block)}, 0, args...)
		if err != nil {
			return err
		}
		r.t.Run += d
		r.t.Kernels = append(r.t.Kernels, eval.KernelTiming{Name: k.Name, Time: d, Bytes: bytes})
		if k.checks {
			if err := r.checkError(); err != nil {
				return err
			}
		}
	}

	// Results: reduced values (scalars come to the host at once: they are
	// small and usually printed or used as sizes), then map-outs.
	var vals []eval.Value
	for j, d := range results {
		s := eval.MakeSlice(k.Red[j], 1)
		start := time.Now()
		err := r.b.g.DtoH(slicePtr(s), d.ptr(), d.bytes)
		r.xfer("DtoH", d.bytes, start)
		if err != nil {
			return err
		}
		vals = append(vals, eval.Value{Elem: k.Red[j], Data: s})
	}
	for j, d := range outs {
		shape := append(append([]int64(nil), outer...), w)
		vals = append(vals, eval.Value{Elem: k.Out[j], Shape: shape, Dev: d})
	}
	if len(vals) != len(s.Pat) {
		return fmt.Errorf("internal error: kernel %s gives %d values for %d variables", k.Name, len(vals), len(s.Pat))
	}
	for i, v := range s.Pat {
		env[v.Name] = vals[i]
	}
	return nil
}

// segShape evaluates a kernel's row width and outer dimensions: w
// elements a segment, segs segments (the product of outer; 1 for a flat
// SOAC, which has none), checked so that w*segs elements can be allocated.
func (r *run) segShape(s *core.Stmt, k *kernel, env map[string]eval.Value) (w, segs int64, outer []int64, err error) {
	wv, err := r.host(k.Op.W, env)
	if err != nil {
		return 0, 0, nil, err
	}
	if w, err = scalarInt(wv); err != nil {
		return 0, 0, nil, err
	}
	segs = 1
	for _, a := range k.Outer {
		v, err := r.host(a, env)
		if err != nil {
			return 0, 0, nil, err
		}
		d, err := scalarInt(v)
		if err != nil {
			return 0, 0, nil, err
		}
		outer = append(outer, d)
		segs *= d
	}
	if w < 0 || segs < 0 || segs > 0 && w > maxAlloc/segs {
		return 0, 0, nil, source.Errorf(s.Pos, "cannot allocate an array of %d x %d elements", segs, w)
	}
	return w, segs, outer, nil
}

// maxAlloc bounds the bytes of one device array, so that sizes near the
// int64 limit are a positioned error instead of an overflowed allocation.
const maxAlloc = int64(1) << 48

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
