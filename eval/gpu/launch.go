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
	wv, err := r.host(op.W, env)
	if err != nil {
		return err
	}
	w, err := scalarInt(wv)
	if err != nil {
		return err
	}
	// Segments: the product of the outer dimensions.
	segs := int64(1)
	var outer []int64
	for _, a := range ks[0].Outer {
		v, err := r.host(a, env)
		if err != nil {
			return err
		}
		d, err := scalarInt(v)
		if err != nil {
			return err
		}
		outer = append(outer, d)
		segs *= d
	}
	k := ks[0]
	if k.Kind == kSegRed {
		k = pickGroup(ks, w)
	}
	if w < 0 || segs < 0 || segs > 0 && w > maxAlloc/segs {
		return source.Errorf(s.Pos, "cannot allocate an array of %d x %d elements", segs, w)
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
	case kSegRed:
		grid = min(ceilDiv(segs*int64(k.Group), int64(k.Block)), sms*int64(occ))
		extra = w
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
	resCount := int64(1)
	if k.Kind == kSegRed {
		resCount = segs
	}
	for _, t := range k.Red {
		if k.Kind == kRedComm || k.Kind == kRedOrdered {
			d, err := alloc(t, grid)
			if err != nil {
				return err
			}
			parts = append(parts, d)
		}
		d, err := alloc(t, resCount)
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
			if k.Kind == kSegRed {
				args = append(args, segs)
			} else {
				args = append(args, n)
			}
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
	// A map of nothing has nothing to write; a segmented reduction of
	// empty rows still writes each row's neutral element.
	skip := n == 0 && k.Kind == kMap
	if k.Kind == kSegRed {
		skip = segs == 0
	}
	if !skip {
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
		if k.Kind == kSegRed {
			vals = append(vals, eval.Value{Elem: k.Red[j], Shape: append([]int64(nil), outer...), Dev: d})
			continue
		}
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

// pickGroup chooses the segmented-reduction variant for rows of w
// elements: a thread per row for tiny rows, a warp for rows up to a few
// thousand, a block beyond.
func pickGroup(ks []*kernel, w int64) *kernel {
	want := 256
	switch {
	case w <= 8:
		want = 1
	case w <= 4096:
		want = 32
	}
	for _, k := range ks {
		if k.Group == want {
			return k
		}
	}
	return ks[len(ks)-1]
}

// maxAlloc bounds the bytes of one device array, so that sizes near the
// int64 limit are a positioned error instead of an overflowed allocation.
const maxAlloc = int64(1) << 48

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
