package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chzyer/readline"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/futtest"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// `arepl bench` times one entry point, as `futhark bench` does. Inputs come
// from stdin (Futhark value syntax), or, with --size N, are generated: every
// array parameter gets random elements, each size variable one size shared
// by all parameters that use it, so `[n]f32` and `[n]i32` agree. A rank-r
// array has about N elements in all (each dimension N^(1/r), unless the
// type fixes it); an integer scalar parameter gets N itself (so `main (n:
// i64) = ... iota n` works on N elements), a float scalar a random number
// in [0, 1), a bool true. Random integers lie in [0, 1000) (wrapped to the
// type), floats in [0, 1); a fixed --seed makes runs repeatable. With
// neither, the datasets are the file's test blocks' inputs for the entry
// point (`input { ... }` and `random input { [n]t ... }`), each timed and
// reported on its own.
//
// On the GPU the inputs are uploaded once, before the runs, and stay on
// the device (the upload is reported on its own, with its bandwidth); each
// run is timed on the device by CUDA events around its kernels and
// device-side copies, so that a run's time is what the GPU spent, not the
// host's copies or Go's bookkeeping (a 2^28-element sum used to report
// 120 ms of pageable upload for a 0.35 ms kernel, issue 16). On the CPU a
// run is timed by the wall clock. --warmup untimed calls (default one,
// which also compiles on the GPU) precede --runs timed calls. The report
// gives the mean, standard deviation and minimum per run, the throughput
// over the input (GB/s), and on the GPU that throughput as a fraction of a
// device-to-device copy's bandwidth (bytes read plus written per second).

// benchReport is one dataset's outcome (the --json output is a list of
// them).
type benchReport struct {
	File      string  `json:"file"`
	Entry     string  `json:"entry"`
	Dataset   string  `json:"dataset"`
	Backend   string  `json:"backend"`
	Fusion    bool    `json:"fusion"`
	Runs      int     `json:"runs"`
	Timing    string  `json:"timing"`   // "device" (CUDA events) or "wall"
	Elements  int64   `json:"elements"` // input elements
	Bytes     int64   `json:"bytes"`    // input bytes
	MeanSec   float64 `json:"mean_s"`
	StddevSec float64 `json:"stddev_s"`
	MinSec    float64 `json:"min_s"`
	WallSec   float64 `json:"wall_mean_s"`     // host wall clock per call, everything included
	CPUSec    float64 `json:"cpu_s,omitempty"` // the process's CPU time (user+system, all threads) per timed call
	GBps      float64 `json:"gb_per_s"`        // input bytes per mean run
	CopyGBps  float64 `json:"copy_gb_per_s,omitempty"`
	CopyFrac  float64 `json:"copy_fraction,omitempty"`
	UploadSec float64 `json:"upload_s,omitempty"`
	UploadB   int64   `json:"upload_bytes,omitempty"`
}

func runBench(args []string) error {
	fs := flag.NewFlagSet("arepl bench", flag.ContinueOnError)
	entry := fs.String("e", "main", "the entry point to time")
	runs := fs.Int("runs", 10, "timed runs (after the warm-up runs)")
	warmup := fs.Int("warmup", 1, "untimed runs before the timed ones")
	size := fs.Int64("size", 0, "generate random inputs of about this many elements per array (else stdin, else the test blocks' inputs)")
	seed := fs.Uint64("seed", 1, "seed of the random inputs")
	asJSON := fs.Bool("json", false, "print the reports as a JSON list")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed runs to this file (for go tool pprof)")
	var sf sessionFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arepl bench FILE [-e ENTRY] [--runs N] [--warmup N] [--size N] [--seed N] [--json] [--cpuprofile FILE] [--backend B] [--no-fusion]")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *runs < 1 || *warmup < 0 || *size < 0 {
		fs.Usage()
		return errUsage
	}
	opts, err := sf.options()
	if err != nil {
		return err
	}
	var in io.Reader
	if *size == 0 && !readline.IsTerminal(int(os.Stdin.Fd())) {
		text, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		if strings.TrimSpace(string(text)) != "" {
			in = strings.NewReader(string(text))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	reps, err := benchAll(ctx, opts, pos[0], *entry, in, benchConfig{size: *size, seed: *seed, runs: *runs, warmup: *warmup, profile: *cpuProfile})
	if err != nil {
		fmt.Fprintln(os.Stderr, source.Detail(err))
		return exitError{1}
	}
	if *asJSON {
		b, err := json.Marshal(reps)
		if err != nil {
			return err
		}
		fmt.Println(string(b))
		return nil
	}
	for _, r := range reps {
		fmt.Println(r.String())
	}
	return nil
}

func (r benchReport) String() string {
	fusion := "fusion on"
	if !r.Fusion {
		fusion = "fusion off"
	}
	name := r.File + " " + r.Entry
	if r.Dataset != "" {
		name += " " + r.Dataset
	}
	s := fmt.Sprintf("%s (%s, %s): %d runs, mean %s ± %s, min %s (%s time)", name, r.Backend, fusion, r.Runs,
		fmtSeconds(r.MeanSec), fmtSeconds(r.StddevSec), fmtSeconds(r.MinSec), r.Timing)
	if r.Elements > 0 && r.MeanSec > 0 {
		s += fmt.Sprintf(", %.3g Melem/s, %.3g GB/s of input (mean)",
			float64(r.Elements)/r.MeanSec/1e6, r.GBps)
	}
	if r.CopyGBps > 0 {
		s += fmt.Sprintf(", %.0f%% of a device copy's %.4g GB/s", 100*r.CopyFrac, r.CopyGBps)
	}
	if r.Timing == "device" {
		s += fmt.Sprintf("; wall %s per call", fmtSeconds(r.WallSec))
	}
	if r.UploadB > 0 {
		s += fmt.Sprintf("; upload once %s", fmtSeconds(r.UploadSec))
		if r.UploadSec > 0 {
			s += fmt.Sprintf(" (%.3g GB at %.3g GB/s)", float64(r.UploadB)/1e9, float64(r.UploadB)/r.UploadSec/1e9)
		}
	}
	return s
}

func fmtSeconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.3gµs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3gms", s*1e3)
	}
	return fmt.Sprintf("%.3gs", s)
}

// benchConfig says how to time: the size and seed of generated inputs and
// the numbers of warm-up and timed runs.
type benchConfig struct {
	size         int64
	seed         uint64
	runs, warmup int
	profile      string // a file for the CPU profile of the timed runs, or ""
}

// bench loads file and times entry on inputs read from in (when non-nil)
// or generated as cfg says; it is benchAll for one dataset.
func bench(ctx context.Context, opts eval.Options, file, entry string, in io.Reader, cfg benchConfig) (rep benchReport, err error) {
	reps, err := benchAll(ctx, opts, file, entry, in, cfg)
	if err != nil {
		return rep, err
	}
	return reps[0], nil
}

// benchDataset is one input to time.
type benchDataset struct {
	name string
	args [][]eval.Value
}

// benchAll loads file and times entry on each dataset: the values read
// from in, the generated ones (cfg.size > 0), or the test blocks' inputs.
func benchAll(ctx context.Context, opts eval.Options, file, entry string, in io.Reader, cfg benchConfig) (reps []benchReport, err error) {
	defer recoverInternal(&err)
	sess := newSession(opts)
	if _, err := sess.Load(ctx, file); err != nil {
		return nil, err
	}
	params, _, err := sess.ParamTypes(entry)
	if err != nil {
		return nil, err
	}
	if params == nil {
		params = []types.Type{} // no parameters: read no values (nil would read any)
	}
	var sets []benchDataset
	switch {
	case in != nil:
		text, err := eval.ReadAllLimited(ctx, in, eval.MemoryLimit()/2, "<stdin>")
		if err != nil {
			return nil, err
		}
		if len(params) > 0 && len(strings.TrimSpace(string(text))) == 0 {
			return nil, fmt.Errorf("arepl bench: no inputs on stdin: give --size N for random inputs of about N elements, or pipe inputs (as a test block's `-- input { ... }` holds them) to stdin")
		}
		argv, err := eval.ReadValuesFile("<stdin>", string(text), params)
		if err != nil {
			return nil, err
		}
		sets = []benchDataset{{"", argv}}
	case cfg.size > 0 || len(params) == 0:
		argv, err := randomArgs(params, cfg.size, cfg.seed)
		if err != nil {
			return nil, err
		}
		sets = []benchDataset{{"", argv}}
	default:
		if sets, err = testDatasets(file, entry, params, cfg.seed); err != nil {
			return nil, err
		}
		if len(sets) == 0 {
			return nil, fmt.Errorf("%s: no --size, no input on stdin and no test block inputs for %s: give --size N for random inputs of about N elements, pipe inputs to stdin, or add `-- input { ... }` (or `random input { ... }`) test blocks", file, entry)
		}
	}
	copyGBps := map[int64]float64{} // by copy size: small copies run far below the bus
	for _, ds := range sets {
		rep, err := benchOne(ctx, sess, opts, file, entry, ds, cfg, copyGBps)
		if err != nil {
			return nil, err
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

func benchOne(ctx context.Context, sess *eval.Session, opts eval.Options, file, entry string, ds benchDataset, cfg benchConfig, copyGBps map[int64]float64) (rep benchReport, err error) {
	rep = benchReport{File: file, Entry: entry, Dataset: ds.name, Backend: sess.Backend(), Fusion: opts.Fusion, Runs: cfg.runs, Timing: "wall"}
	for _, vs := range ds.args {
		for _, v := range vs {
			if len(v.Shape) > 0 {
				rep.Elements += v.Len()
				rep.Bytes += v.Len() * int64(v.Elem.Size())
			}
		}
	}
	argv, up, err := sess.Upload(ctx, ds.args)
	if err != nil {
		return rep, err
	}
	for _, x := range up.Transfers {
		rep.UploadB += x.Bytes
		rep.UploadSec += x.Time.Seconds()
	}
	defer func() {
		for i, vs := range argv {
			for j, v := range vs {
				if v.Dev != nil && ds.args[i][j].Dev == nil {
					v.Dev.Free()
				}
			}
		}
	}()
	var times []float64
	var wall, cpu0 float64
	cpuOK := false
	for i := -cfg.warmup; i < cfg.runs; i++ {
		if i == 0 {
			// A GPU module compiled fast is replaced by its optimised
			// version in the background: time only that one.
			if err := sess.Settle(ctx); err != nil {
				return rep, err
			}
			cpu0, cpuOK = processCPU()
		}
		if i == 0 && cfg.profile != "" {
			stopProfile, err := startCPUProfile(cfg.profile)
			if err != nil {
				return rep, err
			}
			defer stopProfile()
		}
		start := time.Now()
		res, err := sess.Call(ctx, entry, argv)
		if err != nil {
			return rep, err
		}
		d := time.Since(start)
		for _, v := range res.Values {
			if v.Dev != nil && !isInput(v.Dev, argv) {
				v.Dev.Free() // results are not kept: the device's memory is
			}
		}
		if res.Timings.Backend != "" {
			rep.Backend = res.Timings.Backend
		}
		if i < 0 {
			continue
		}
		if res.Timings.FastTier {
			// This run compiled a module fast (--warmup 0): wait for the
			// optimised one and run again; it is not timed.
			if err := sess.Settle(ctx); err != nil {
				return rep, err
			}
			i--
			continue
		}
		wall += d.Seconds()
		if res.Timings.Backend == "gpu" {
			// Kernels and device-side copies, by CUDA events.
			rep.Timing = "device"
			times = append(times, res.Timings.Run.Seconds())
		} else {
			times = append(times, d.Seconds())
		}
	}
	if cpu1, ok := processCPU(); ok && cpuOK && cfg.runs > 0 {
		rep.CPUSec = (cpu1 - cpu0) / float64(cfg.runs)
	}
	var sum, sq float64
	rep.MinSec = math.Inf(1)
	for _, x := range times {
		sum += x
		rep.MinSec = min(rep.MinSec, x)
	}
	rep.MeanSec = sum / float64(len(times))
	for _, x := range times {
		sq += (x - rep.MeanSec) * (x - rep.MeanSec)
	}
	rep.StddevSec = math.Sqrt(sq / float64(len(times)))
	rep.WallSec = wall / float64(cfg.runs)
	if rep.MeanSec > 0 {
		rep.GBps = float64(rep.Bytes) / rep.MeanSec / 1e9
	}
	if rep.Timing == "device" {
		// The yardstick is a copy of the input's size: a copy of a few
		// kilobytes is all launch overhead, of a gigabyte all bandwidth.
		n := max(rep.Bytes, 4)
		bw, seen := copyGBps[n]
		if !seen {
			if b, ok, err := sess.CopyBandwidth(n); err == nil && ok {
				bw = b
			}
			copyGBps[n] = bw
		}
		if bw > 0 {
			rep.CopyGBps = bw
			rep.CopyFrac = rep.GBps / bw
		}
	}
	return rep, nil
}

// isInput reports whether d is the device copy of one of the inputs (an
// entry point may return its argument), which must outlive the run.
func isInput(d eval.DeviceArray, argv [][]eval.Value) bool {
	for _, vs := range argv {
		for _, v := range vs {
			if v.Dev == d {
				return true
			}
		}
	}
	return false
}

// testDatasets reads the inputs of the test blocks of file that apply to
// entry: `input { values }` as written, `random input { [n]t ... }`
// generated (cfg's seed). Inputs from files and scripts are left out.
func testDatasets(file, entry string, params []types.Type, seed uint64) ([]benchDataset, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	spec, err := futtest.Parse(file, string(text))
	if err != nil {
		return nil, err
	}
	var sets []benchDataset
	for _, b := range spec.Blocks {
		if !slices.Contains(b.Entries, entry) && !(len(b.Entries) == 0 && entry == "main") {
			continue
		}
		for _, c := range b.Cases {
			name := fmt.Sprintf("#%d", len(sets))
			if c.Name != "" {
				name = fmt.Sprintf("%q", c.Name)
			}
			switch {
			case c.Skip != "" || c.Script || c.InputFile != "":
				// Inputs from files and scripts.
			case !c.Random:
				argv, err := eval.ReadValues(c.Input, params)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", file, c.Line, err)
				}
				sets = append(sets, benchDataset{name, argv})
			default:
				// futtest now runs random cases (Case.Random) rather
				// than skipping them; bench generates its own, from
				// its seed.
				argv, err := randomInput(c.Input, params, seed)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", file, c.Line, err)
				}
				if c.Name == "" {
					name = strings.Join(strings.Fields(c.Input), " ")
				}
				sets = append(sets, benchDataset{name, argv})
			}
		}
	}
	return sets, nil
}

// randomInput generates the values of a `random input { [n]t ... }` case:
// one random value per listed type, of that shape.
func randomInput(spec string, params []types.Type, seed uint64) ([][]eval.Value, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	fields := strings.Fields(spec)
	if len(fields) != len(params) {
		return nil, fmt.Errorf("random input lists %d values for %d parameters", len(fields), len(params))
	}
	out := make([][]eval.Value, len(fields))
	for i, f := range fields {
		var shape []int64
		rest := f
		for strings.HasPrefix(rest, "[") {
			j := strings.IndexByte(rest, ']')
			if j < 0 {
				return nil, fmt.Errorf("bad random input type %q", f)
			}
			n, err := strconv.ParseInt(rest[1:j], 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad dimension in random input type %q", f)
			}
			shape = append(shape, n)
			rest = rest[j+1:]
		}
		t, ok := core.PrimByName(rest)
		if !ok {
			return nil, fmt.Errorf("bad element type in random input type %q", f)
		}
		if len(shape) == 0 {
			out[i] = []eval.Value{randomScalar(t, 1000, rng)}
			continue
		}
		v := eval.NewArray(t, shape...)
		fillRandom(v.Data, rng)
		out[i] = []eval.Value{v}
	}
	return out, nil
}

// startCPUProfile starts Go's CPU profiler writing to file; the function it
// returns stops it and closes the file.
func startCPUProfile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// randomArgs generates one random value per parameter (see the comment at
// the top of this file).
func randomArgs(params []types.Type, size int64, seed uint64) ([][]eval.Value, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	sizes := map[string]int64{}
	out := make([][]eval.Value, len(params))
	for i, p := range params {
		leaves, err := eval.Leaves(p)
		if err != nil {
			return nil, fmt.Errorf("parameter %d: %v", i+1, err)
		}
		for _, l := range leaves {
			if l.Rank == 0 {
				out[i] = append(out[i], randomScalar(l.Elem, size, rng))
				continue
			}
			fside := math.Round(math.Pow(float64(size), 1/float64(l.Rank)))
			if fside >= math.MaxInt64 {
				return nil, fmt.Errorf("--size %d: parameter %d would have more than 2^63-1 elements in a dimension", size, i+1)
			}
			side := int64(fside)
			shape := make([]int64, l.Rank)
			for j, d := range l.Dims {
				switch {
				case d.Const >= 0 && d.Name == "":
					shape[j] = d.Const
				case d.Name != "":
					if s, ok := sizes[d.Name]; ok {
						shape[j] = s
					} else {
						shape[j], sizes[d.Name] = side, side
					}
				default:
					shape[j] = side
				}
			}
			if err := eval.ReserveArray(l.Elem, shape); err != nil {
				return nil, fmt.Errorf("--size %d: parameter %d of shape %v: %v", size, i+1, shape, err)
			}
			v := eval.NewArray(l.Elem, shape...)
			fillRandom(v.Data, rng)
			if l.Elem == core.F16 { // held as float32s that are halves
				for j, x := range v.Data.([]float32) {
					v.Data.([]float32)[j] = core.RoundHalf32(x)
				}
			}
			out[i] = append(out[i], v)
		}
	}
	return out, nil
}

func randomScalar(t core.PrimType, size int64, rng *rand.Rand) eval.Value {
	switch {
	case t.IsInt():
		return eval.Scalar(core.IntConst(t, size))
	case t.IsFloat():
		return eval.Scalar(core.FloatConst(t, rng.Float64()))
	}
	return eval.Scalar(core.BoolConst(true))
}

// fillRandom fills a typed slice with random elements.
func fillRandom(data any, rng *rand.Rand) {
	switch d := data.(type) {
	case []bool:
		for i := range d {
			d[i] = rng.IntN(2) == 1
		}
	case []int8:
		for i := range d {
			d[i] = int8(rng.IntN(1000))
		}
	case []int16:
		for i := range d {
			d[i] = int16(rng.IntN(1000))
		}
	case []int32:
		for i := range d {
			d[i] = int32(rng.IntN(1000))
		}
	case []int64:
		for i := range d {
			d[i] = int64(rng.IntN(1000))
		}
	case []uint8:
		for i := range d {
			d[i] = uint8(rng.IntN(1000))
		}
	case []uint16:
		for i := range d {
			d[i] = uint16(rng.IntN(1000))
		}
	case []uint32:
		for i := range d {
			d[i] = uint32(rng.IntN(1000))
		}
	case []uint64:
		for i := range d {
			d[i] = uint64(rng.IntN(1000))
		}
	case []float32:
		for i := range d {
			d[i] = rng.Float32()
		}
	case []float64:
		for i := range d {
			d[i] = rng.Float64()
		}
	}
}
