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
	"strings"
	"time"

	"github.com/chzyer/readline"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/types"
)

// `arepl bench` times one entry point. Inputs come from stdin (Futhark
// value syntax) or, with --size N, are generated: every array parameter
// gets random elements, each size variable one size shared by all
// parameters that use it, so `[n]f32` and `[n]i32` agree. A rank-r array
// has about N elements in all (each dimension N^(1/r), unless the type
// fixes it); an integer scalar parameter gets N itself (so `main (n: i64)
// = ... iota n` works on N elements), a float scalar a random number in
// [0, 1), a bool true. Random integers lie in [0, 1000) (wrapped to the
// type), floats in [0, 1); a fixed --seed makes runs repeatable.
//
// --warmup untimed calls (default one, which also compiles on the GPU)
// precede --runs timed calls. The report gives the mean and minimum wall time per
// call and the throughput over the input: elements and bytes per second.

// benchReport is one benchmark's outcome (also the --json output).
type benchReport struct {
	File     string  `json:"file"`
	Entry    string  `json:"entry"`
	Backend  string  `json:"backend"`
	Fusion   bool    `json:"fusion"`
	Runs     int     `json:"runs"`
	Elements int64   `json:"elements"` // input elements
	Bytes    int64   `json:"bytes"`    // input bytes
	MeanSec  float64 `json:"mean_s"`
	MinSec   float64 `json:"min_s"`
}

func runBench(args []string) error {
	fs := flag.NewFlagSet("arepl bench", flag.ContinueOnError)
	entry := fs.String("e", "main", "the entry point to time")
	runs := fs.Int("runs", 10, "timed runs (after the warm-up runs)")
	warmup := fs.Int("warmup", 1, "untimed runs before the timed ones")
	size := fs.Int64("size", 0, "generate random inputs of about this many elements per array (else read stdin)")
	seed := fs.Uint64("seed", 1, "seed of the random inputs")
	asJSON := fs.Bool("json", false, "print the report as JSON")
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
	if *size == 0 {
		if readline.IsTerminal(int(os.Stdin.Fd())) {
			fmt.Fprintln(os.Stderr, "arepl bench: give --size N for random inputs, or pipe the inputs to stdin")
			return errUsage
		}
		in = os.Stdin
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := bench(ctx, opts, pos[0], *entry, in, benchConfig{size: *size, seed: *seed, runs: *runs, warmup: *warmup, profile: *cpuProfile})
	if err != nil {
		fmt.Fprintln(os.Stderr, source.Detail(err))
		return exitError{1}
	}
	if *asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		fmt.Println(string(b))
		return nil
	}
	fmt.Println(rep.String())
	return nil
}

func (r benchReport) String() string {
	fusion := "fusion on"
	if !r.Fusion {
		fusion = "fusion off"
	}
	s := fmt.Sprintf("%s %s (%s, %s): %d runs, mean %s, min %s", r.File, r.Entry, r.Backend, fusion, r.Runs,
		fmtSeconds(r.MeanSec), fmtSeconds(r.MinSec))
	if r.Elements > 0 && r.MeanSec > 0 {
		s += fmt.Sprintf(", %.3g Melem/s, %.3g GB/s of input (mean)",
			float64(r.Elements)/r.MeanSec/1e6, float64(r.Bytes)/r.MeanSec/1e9)
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
// or generated as cfg says.
func bench(ctx context.Context, opts eval.Options, file, entry string, in io.Reader, cfg benchConfig) (rep benchReport, err error) {
	defer recoverInternal(&err)
	sess := newSession(opts)
	if _, err := sess.Load(ctx, file); err != nil {
		return rep, err
	}
	params, _, err := sess.ParamTypes(entry)
	if err != nil {
		return rep, err
	}
	if params == nil {
		params = []types.Type{} // no parameters: read no values (nil would read any)
	}
	var argv [][]eval.Value
	if in != nil {
		text, err := eval.ReadAllLimited(ctx, in, eval.MemoryLimit()/2, "<stdin>")
		if err != nil {
			return rep, err
		}
		if len(params) > 0 && len(strings.TrimSpace(string(text))) == 0 {
			return rep, fmt.Errorf("arepl bench: no inputs on stdin: give --size N for random inputs of about N elements, or pipe inputs (as a test block's `-- input { ... }` holds them) to stdin")
		}
		if argv, err = eval.ReadValuesFile("<stdin>", string(text), params); err != nil {
			return rep, err
		}
	} else if argv, err = randomArgs(params, cfg.size, cfg.seed); err != nil {
		return rep, err
	}
	rep = benchReport{File: file, Entry: entry, Backend: sess.Backend(), Fusion: opts.Fusion, Runs: cfg.runs}
	for _, vs := range argv {
		for _, v := range vs {
			if len(v.Shape) > 0 {
				rep.Elements += v.Len()
				rep.Bytes += v.Len() * int64(v.Elem.Size())
			}
		}
	}
	var total, minimum time.Duration
	for i := -cfg.warmup; i < cfg.runs; i++ {
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
		if res.Timings.Backend != "" {
			rep.Backend = res.Timings.Backend
		}
		if i < 0 {
			continue
		}
		total += d
		if i == 0 || d < minimum {
			minimum = d
		}
	}
	rep.MeanSec = total.Seconds() / float64(cfg.runs)
	rep.MinSec = minimum.Seconds()
	return rep, nil
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
