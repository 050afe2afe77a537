package gpu

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/cpu"
	"github.com/arepl/arepl/eval/gpu/cuda"
	. "github.com/arepl/arepl/lang/core"
)

var (
	benchNested = flag.String("gpubench.nested", "", "comma-separated workloads of BenchmarkNested, or prefixes of their names (empty: all)")
	benchParts  = flag.String("gpubench.parts", "", "comma-separated threads a body the n-body workloads also run with (the 1-D tiled kernel's split of the inner dimension)")
	benchUnroll = flag.String("gpubench.unroll", "", "comma-separated unrollings the 2-D map (a flat segmented map's points a step, segmapUnroll) also runs with")
	bench1DUnr  = flag.String("gpubench.unroll1d", "", "comma-separated unrollings of the 1-D tiled kernel's tile loop (tile1DUnroll) the n-body workloads also run with")
	benchMinBlk = flag.String("gpubench.segminblocks", "", "comma-separated launch-bounds minimum blocks (segmapMinBlocks) the stencil also runs with")
	benchVar    = flag.String("gpubench.var", "", "comma-separated extra variants NAME:WORKLOAD:KNOB=VALUE (knobs: novec, vec4 (0: no vector steps), vecs (vectors a row a step), vectile (0: a block along one row), vecrows (tile rows a thread of the host-checked vector path; 0: off), vecsplit (0: that path inside the kernel), vecadj (1: that path's rows of a thread neighbours, stores after all of them), vecwaves, waves, block1d, narrow, points, layout (0 row, 1 spread, 2 column), async, spin (µs), k for the stencil's iterations), e.g. map2d_w4:map2d:waves=4 or st4:stencil_4096:points=4+layout=2")
	benchMM     = flag.String("gpubench.mm", "", "comma-separated matrix-product tilings BMxBNxBKxTMxTN the matmul workloads also run with (each as the large and the small tiling)")
	benchSeg    = flag.String("gpubench.seg", "", "comma-separated segmented-reduction kernels the short segsq workloads (lengths 1 to 128) also run with: g1, g32, staged (stagedU: U elements a thread and tile)")
)

// nestedSrc holds issue 15's benchmark workloads as Futhark source; the
// PyTorch and JAX versions are in bench/gpu/nested_peers.py.
const nestedSrc = `
def map2d [n][m] (a: [n][m]f32) : [n][m]f32 = map (map (\x -> x * 2 + 1)) a
def rowsums [n][m] (a: [n][m]f32) : [n]f32 = map f32.sum a
def colsums [n][m] (a: [n][m]f32) : [m]f32 = map f32.sum (transpose a)
def colsums_iota [n][m] (a: [n][m]f32) : [m]f32 = map (\j -> f32.sum (map (\i -> a[i, j]) (iota n))) (iota m)
def sumall [n] (xs: [n]f32) : f32 = f32.sum xs
def segsq [n][m] (a: [n][m]f32) : [n]f32 = map (\row -> f32.sum (map (\x -> x * x) row)) a
def mandelbrot (h: i64) (w: i64) (iters: i32) : [h][w]i32 =
  map (\y -> map (\x ->
      let cr = f32.i64 x * 3 / f32.i64 w - 2
      let ci = f32.i64 y * 2.4 / f32.i64 h - 1.2
      let (_, _, k) = loop (zr, zi, k) = (0f32, 0f32, 0i32) while k < iters && zr * zr + zi * zi < 4 do
        (zr * zr - zi * zi + cr, 2 * zr * zi + ci, k + 1)
      in k) (iota w)) (iota h)
def matmul [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\row -> map (\col -> f32.sum (map2 (*) row col)) (transpose b)) a
def nbody1 [n] (xs: [n]f32) (ms: [n]f32) : [n]f32 =
  map (\x -> f32.sum (map2 (\y m -> m / (1 + (x - y) * (x - y))) xs ms)) xs
def nbody3 [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32) : ([n]f32, [n]f32, [n]f32) =
  unzip3 (map (\(x, y, z) ->
    reduce (\(a, b, c) (d, e, f) -> (a + d, b + e, c + f)) (0f32, 0f32, 0f32)
      (map2 (\(x2, y2, z2) m ->
         let dx = x2 - x
         let dy = y2 - y
         let dz = z2 - z
         let inv = 1 / f32.sqrt (dx * dx + dy * dy + dz * dz + 0.01)
         let s = m * inv * inv * inv
         in (dx * s, dy * s, dz * s)) (zip3 xs ys zs) ms)) (zip3 xs ys zs))
def stencil [n][m] (iters: i64) (a: [n][m]f32) : [n][m]f32 =
  loop a for _i < iters do
    map (\i -> map (\j ->
        let up = a[i64.max (i - 1) 0, j]
        let down = a[i64.min (i + 1) (n - 1), j]
        let left = a[i, i64.max (j - 1) 0]
        let right = a[i, i64.min (j + 1) (m - 1)]
        in (a[i, j] + up + down + left + right) / 5) (iota m)) (iota n)
`

// BenchmarkNested times issue 15's nested workloads on the GPU by CUDA
// events around each kernel. Each line reports kernel-ms and, where they
// mean something, GB/s (the fewest bytes the workload must move) and
// GFLOP/s. A workload any of whose statements would run on the CPU is not
// timed: its line says so ("cpu-statements"), and the rest go on.
// bench/gpu/nested.sh runs it beside PyTorch, JAX and a CUDA kernel.
func BenchmarkNested(b *testing.B) {
	be, err := New(Options{Fallback: cpu.New(cpu.Options{})})
	if err != nil {
		b.Fatalf("GPU benchmarks need a GPU: %v", err)
	}
	ctx := context.Background()
	// dev makes n pseudo-random f32 on the device (genProg's formula) and
	// gives them the shape.
	dev := func(b *testing.B, shape ...int64) eval.Value {
		n := int64(1)
		for _, d := range shape {
			n *= d
		}
		vs, err := be.Run(ctx, genProg(F32), "main", []eval.Value{eval.Scalar(IntConst(I64, n))}, &eval.Timings{})
		if err != nil {
			b.Fatal(err)
		}
		v := vs[0]
		v.Shape = shape
		return v
	}
	i64 := func(v int64) eval.Value { return eval.Scalar(IntConst(I64, v)) }
	type work struct {
		name, fn     string
		args         func(b *testing.B) []eval.Value
		bytes, flops float64 // per run
		per          float64 // divide the time by this (stencil iterations)
		seg          string  // a row kernel to force (segred.go's forceSeg), "" for pickSegRed's choice
		stageU       int     // the staged kernel's elements a thread, 0 for stageU's choice
		mm           mmShape // a matrix-product tiling to use instead of both of tile.go's
		parts        int64   // threads a body for the 1-D tiled kernel instead of tile1DParts's choice
		unroll       int     // segmapUnroll instead of the default, if positive
		unroll1d     int     // tile1DUnroll instead of the default, if positive
		minBlocks    int     // segmapMinBlocks instead of the default, if positive
		knobs        map[string]int
	}
	const big = 16384
	var ws []work
	ws = append(ws,
		work{name: "map2d_16384", fn: "map2d", args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, big, big)} }, bytes: 8 * big * big},
		work{name: "rowsums_16384", fn: "rowsums", args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, big, big)} }, bytes: 4 * big * big},
		work{name: "colsums_16384", fn: "colsums", args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, big, big)} }, bytes: 4 * big * big},
		work{name: "colsums_iota_16384", fn: "colsums_iota", args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, big, big)} }, bytes: 4 * big * big},
		work{name: "sum_flat_16384sq", fn: "sumall", args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, big*big)} }, bytes: 4 * big * big},
		work{name: "mandelbrot_4000", fn: "mandelbrot", args: func(b *testing.B) []eval.Value {
			return []eval.Value{i64(4000), i64(4000), eval.Scalar(IntConst(I32, 255))}
		}, bytes: 4 * 4000 * 4000},
	)
	for _, v := range strings.Split(*benchUnroll, ",") {
		if v == "" {
			continue
		}
		var u int
		if _, err := fmt.Sscan(v, &u); err != nil {
			b.Fatalf("-gpubench.unroll %q: %v", v, err)
		}
		ws = append(ws, work{name: "map2d_16384_u" + v, fn: "map2d", unroll: u, args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, big, big)} }, bytes: 8 * big * big})
	}
	for _, n := range []int64{1024, 4096} {
		for _, v := range append([]string{""}, strings.Split(*benchMM, ",")...) {
			var sh mmShape
			name := fmt.Sprintf("matmul_f32_%d", n)
			if v != "" {
				if _, err := fmt.Sscanf(v, "%dx%dx%dx%dx%d", &sh.BM, &sh.BN, &sh.BK, &sh.TM, &sh.TN); err != nil {
					b.Fatalf("-gpubench.mm %q: %v", v, err)
				}
				name += "_" + v
			}
			ws = append(ws, work{name: name, fn: "matmul", mm: sh, args: func(b *testing.B) []eval.Value {
				return []eval.Value{dev(b, n, n), dev(b, n, n)}
			}, flops: 2 * float64(n) * float64(n) * float64(n), bytes: 12 * float64(n) * float64(n)})
		}
	}
	const bodies = 65536
	for _, v := range append([]string{""}, strings.Split(*benchParts, ",")...) {
		var parts int64
		sfx := ""
		if v != "" {
			if _, err := fmt.Sscan(v, &parts); err != nil {
				b.Fatalf("-gpubench.parts %q: %v", v, err)
			}
			sfx = "_p" + v
		}
		ws = append(ws,
			work{name: "nbody1_65536" + sfx, fn: "nbody1", parts: parts, args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, bodies), dev(b, bodies)} },
				flops: 6 * bodies * bodies},
			work{name: "nbody3_65536" + sfx, fn: "nbody3", parts: parts, args: func(b *testing.B) []eval.Value {
				return []eval.Value{dev(b, bodies), dev(b, bodies), dev(b, bodies), dev(b, bodies)}
			}, flops: 20 * bodies * bodies},
		)
	}
	for _, v := range strings.Split(*bench1DUnr, ",") {
		if v == "" {
			continue
		}
		var u int
		if _, err := fmt.Sscan(v, &u); err != nil {
			b.Fatalf("-gpubench.unroll1d %q: %v", v, err)
		}
		ws = append(ws, work{name: "nbody1_65536_r" + v, fn: "nbody1", unroll1d: u, args: func(b *testing.B) []eval.Value { return []eval.Value{dev(b, bodies), dev(b, bodies)} },
			flops: 6 * bodies * bodies})
	}
	// The bytes of a segmented reduction: the elements read and one result
	// written per row (as much again as the input at rows of 1).
	for _, l := range []int64{1, 4, 32, 256, 4096, 1 << 16, 1 << 20, 1 << 24} {
		ws = append(ws, work{name: fmt.Sprintf("segsq_len%d", l), fn: "segsq", args: func(b *testing.B) []eval.Value {
			return []eval.Value{dev(b, (1<<28)/l, l)}
		}, bytes: 4<<28 + 4*float64((1<<28)/l)})
	}
	for _, v := range strings.Split(*benchSeg, ",") {
		if v == "" {
			continue
		}
		seg, u := "segred_"+v, 0
		if rest, ok := strings.CutPrefix(v, "staged"); ok && rest != "" {
			if _, err := fmt.Sscan(rest, &u); err != nil {
				b.Fatalf("-gpubench.seg %q: %v", v, err)
			}
			seg = "segred_staged"
		}
		for _, l := range []int64{1, 4, 8, 32, 128} {
			ws = append(ws, work{name: fmt.Sprintf("segsq_len%d_%s", l, v), fn: "segsq", seg: seg, stageU: u, args: func(b *testing.B) []eval.Value {
				return []eval.Value{dev(b, (1<<28)/l, l)}
			}, bytes: 4<<28 + 4*float64((1<<28)/l)})
		}
	}
	ws = append(ws, work{name: "stencil_4096", fn: "stencil", args: func(b *testing.B) []eval.Value {
		return []eval.Value{i64(10), dev(b, 4096, 4096)}
	}, bytes: 8 * 4096 * 4096, per: 10})
	for _, v := range strings.Split(*benchMinBlk, ",") {
		if v == "" {
			continue
		}
		var mb int
		if _, err := fmt.Sscan(v, &mb); err != nil {
			b.Fatalf("-gpubench.segminblocks %q: %v", v, err)
		}
		ws = append(ws, work{name: "stencil_4096_mb" + v, fn: "stencil", minBlocks: mb, args: func(b *testing.B) []eval.Value {
			return []eval.Value{i64(10), dev(b, 4096, 4096)}
		}, bytes: 8 * 4096 * 4096, per: 10})
	}

	for _, v := range strings.Split(*benchVar, ",") {
		if v == "" {
			continue
		}
		f := strings.Split(v, ":")
		if len(f) != 3 {
			b.Fatalf("-gpubench.var %q: want NAME:WORKLOAD:KNOB=VALUE", v)
		}
		var base *work
		for i := range ws {
			if ws[i].name == f[1] {
				base = &ws[i]
			}
		}
		if base == nil {
			b.Fatalf("-gpubench.var %q: no workload %s", v, f[1])
		}
		w := *base
		w.name, w.knobs = f[0], map[string]int{}
		// Several knobs join with '+': points=4+spread=0.
		for _, kvs := range strings.Split(f[2], "+") {
			kv := strings.SplitN(kvs, "=", 2)
			var val int
			if len(kv) != 2 {
				b.Fatalf("-gpubench.var %q: no KNOB=VALUE", v)
			}
			if _, err := fmt.Sscan(kv[1], &val); err != nil {
				b.Fatalf("-gpubench.var %q: %v", v, err)
			}
			w.knobs[kv[0]] = val
			if kv[0] == "k" {
				w.per = float64(val)
				w.args = func(b *testing.B) []eval.Value { return []eval.Value{i64(int64(val)), dev(b, 4096, 4096)} }
			}
		}
		ws = append(ws, w)
	}
	want := map[string]bool{}
	for _, f := range strings.Split(*benchNested, ",") {
		if f != "" {
			want[f] = true
		}
	}
	for _, w := range ws {
		picked := len(want) == 0
		for f := range want {
			picked = picked || strings.HasPrefix(w.name, f)
		}
		if !picked {
			continue
		}
		b.Run(w.name, func(b *testing.B) {
			defer func() {
				if e := recover(); e != nil {
					b.Errorf("panic: %v", e)
				}
			}()
			if w.mm.BM > 0 {
				saved := [2]mmShape{mmLarge, mmSmall}
				mmLarge, mmSmall = w.mm, w.mm
				defer func() { mmLarge, mmSmall = saved[0], saved[1] }()
			}
			forceParts = w.parts
			defer func() { forceParts = 0 }()
			if w.unroll > 0 {
				saved := segmapUnroll
				segmapUnroll = w.unroll
				defer func() { segmapUnroll = saved }()
			}
			for name, val := range w.knobs {
				switch name {
				case "novec":
					saved := segmapVec
					segmapVec = val == 0
					defer func() { segmapVec = saved }()
				case "waves":
					saved := segmapWaves
					segmapWaves = val
					defer func() { segmapWaves = saved }()
				case "block1d":
					saved := tile1DBlock
					tile1DBlock = val
					defer func() { tile1DBlock = saved }()
				case "vec4":
					saved := segmapVec4
					segmapVec4 = val != 0
					defer func() { segmapVec4 = saved }()
				case "vecs":
					saved := segmapVecs
					segmapVecs = val
					defer func() { segmapVecs = saved }()
				case "vectile":
					saved := segmapVecTile
					segmapVecTile = val != 0
					defer func() { segmapVecTile = saved }()
				case "vecsplit":
					saved := segmapVecSplit
					segmapVecSplit = val != 0
					defer func() { segmapVecSplit = saved }()
				case "vecadj":
					saved := segmapVecAdj
					segmapVecAdj = val != 0
					defer func() { segmapVecAdj = saved }()
				case "vecrows":
					saved := segmapVecRows
					segmapVecRows = val
					defer func() { segmapVecRows = saved }()
				case "vecwaves":
					saved := segmapVecWaves
					segmapVecWaves = val
					defer func() { segmapVecWaves = saved }()
				case "narrow":
					saved := segmapNarrow
					segmapNarrow = val != 0
					defer func() { segmapNarrow = saved }()
				case "points":
					saved := segmapPoints
					segmapPoints = val
					defer func() { segmapPoints = saved }()
				case "layout":
					saved := segmapLayout
					segmapLayout = val
					defer func() { segmapLayout = saved }()
				case "spin":
					cuda.SetSpin(time.Duration(val) * time.Microsecond)
					defer cuda.SetSpin(50 * time.Microsecond)
				case "async":
					saved := loopAsync
					loopAsync = val != 0
					defer func() { loopAsync = saved }()
				case "k":
				default:
					b.Fatalf("unknown knob %s", name)
				}
			}
			if w.minBlocks > 0 {
				saved := segmapMinBlocks
				segmapMinBlocks = w.minBlocks
				defer func() { segmapMinBlocks = saved }()
			}
			if w.unroll1d > 0 {
				saved := tile1DUnroll
				tile1DUnroll = w.unroll1d
				defer func() { tile1DUnroll = saved }()
			}
			forceSeg, forceStageU = w.seg, w.stageU
			defer func() { forceSeg, forceStageU = "", 0 }()
			// The knobs change the generated code, not the program: without
			// this, a variant would run the module the backend remembers
			// from the workload's first row (seen.go).
			be.seen.forget()
			prog := futProg(b, nestedSrc, w.fn)
			m, err := generate(prog, be.lim)
			if err != nil {
				b.Fatal(err)
			}
			// The static check knows the host-level statements this
			// package's kernels take; a path added elsewhere may take more,
			// so a flagged workload still gets one run, cut off at 20 s, and
			// only the run's notes (or the cut) mark it as on the CPU.
			why := cpuStatements(be, prog, m)
			args := w.args(b)
			defer free(args)
			var tm eval.Timings
			wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			res, err := be.Run(wctx, prog, entryName(prog), args, &tm)
			timedOut := errors.Is(wctx.Err(), context.DeadlineExceeded) // before cancel, which sets Err too
			cancel()
			if timedOut {
				b.Skipf("cpu-statements: the first run did not finish in 20 s; the static check: %s", why)
			}
			if err != nil {
				b.Fatal(err)
			}
			if why != "" {
				b.Logf("the static check flags %s, but the run noted no CPU statement", why)
			}
			free(res)
			for _, n := range tm.Notes {
				if strings.Contains(n, "CPU") {
					b.Skipf("cpu-statements: %s", n)
				}
			}
			var names []string
			for _, k := range tm.Kernels {
				names = append(names, k.Name)
			}
			b.Logf("kernels: %s", strings.Join(names, " "))
			b.ResetTimer()
			var kt time.Duration
			wall := time.Now()
			for i := 0; i < b.N; i++ {
				var tm eval.Timings
				res, err := be.Run(ctx, prog, entryName(prog), args, &tm)
				if err != nil {
					b.Fatal(err)
				}
				for _, k := range tm.Kernels {
					kt += k.Time
				}
				free(res)
			}
			per := max(w.per, 1)
			sec := kt.Seconds() / float64(b.N) / per
			b.ReportMetric(sec*1e3, "kernel-ms")
			// The host's time too (launches, checks, allocations): a
			// loop of kernels pays it every iteration.
			b.ReportMetric(time.Since(wall).Seconds()/float64(b.N)/per*1e3, "wall-ms")
			if w.bytes > 0 {
				b.ReportMetric(w.bytes/sec/1e9, "GB/s")
			}
			if w.flops > 0 {
				b.ReportMetric(w.flops/sec/1e9, "GFLOP/s")
			}
		})
	}
	b.Run("copy_d2d_16384sq", func(b *testing.B) {
		src := dev(b, big*big).Dev.(*devArray)
		defer src.Free()
		dst, err := newDevArray(be.g, F32, big*big)
		if err != nil {
			b.Fatal(err)
		}
		defer dst.Free()
		d, err := be.g.TimeDtoD(dst.ptr(), src.ptr(), src.bytes, max(b.N, 5))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(d.Seconds()*1e3, "kernel-ms")
		b.ReportMetric(float64(2*src.bytes)/d.Seconds()/1e9, "GB/s")
	})
}

func free(vs []eval.Value) {
	for _, v := range vs {
		if v.Dev != nil {
			v.Dev.Free()
		}
	}
}

// cpuStatements names the statements of prog's entry point (and the
// bodies it follows on the host) that would run on the CPU, or "".
func cpuStatements(be *Backend, prog *Program, m *module) string {
	r := &run{b: be, prog: prog, l: &loaded{mod: m}, gpu: map[*Stmt]bool{}}
	var why []string
	var walk func(body *Body)
	walk = func(body *Body) {
		for _, s := range body.Stmts {
			switch e := s.Exp.(type) {
			case *LoopExp:
				walk(e.Body)
				continue
			case *IfExp:
				walk(e.Then)
				walk(e.Else)
				continue
			case *SizeExp, *AtomExp, *AssertExp, *BinOpExp, *UnOpExp, *ConvExp:
				continue
			}
			if m.kernels[s] != nil || r.scannable(s) || r.histable(s) {
				continue
			}
			w := m.fallback[s]
			if w == "" {
				w = "no GPU kernel"
			}
			why = append(why, fmt.Sprintf("%s at %v: %s", expName(s.Exp), s.Pos, w))
		}
	}
	walk(prog.Fun(entryName(prog)).Body)
	return strings.Join(why, "; ")
}
