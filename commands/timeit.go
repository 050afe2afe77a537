package commands

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/arepl/arepl/eval"
)

func init() {
	Register(&Command{Name: "timeit", Args: "EXPR",
		Help:    "evaluate EXPR several times (about a second's worth, 3 to 100 runs) and show the mean time, its spread and the fastest run",
		Example: "reduce (+) 0 (iota 1000)", Run: cmdTimeit})
}

// Runs of :timeit: at least minRuns, then more while the total stays
// under timeitBudget, at most maxRuns.
const (
	minRuns      = 3
	maxRuns      = 100
	timeitBudget = time.Second
)

// cmdTimeit times EXPR as IPython's %timeit does: repeated runs, the mean
// and standard deviation. Each run is a whole input (check, compile or
// cache hit, run), as a user's input costs; the first run, which may
// compile, is left out of the statistics when there are enough others.
func cmdTimeit(ctx context.Context, st *State, arg string) (Reply, error) {
	if arg == "" {
		return Reply{}, errUsage("timeit", "an expression")
	}
	var runs []time.Duration
	var spent time.Duration
	for len(runs) < maxRuns && (len(runs) < minRuns+1 || spent < timeitBudget) {
		if err := ctx.Err(); err != nil {
			return Reply{}, err
		}
		start := time.Now()
		res, err := st.Sess.Eval(ctx, st.ArgName, arg)
		if err != nil {
			return Reply{}, err
		}
		if res.Type == nil {
			return Reply{}, errUsage("timeit", "an expression, not a declaration")
		}
		// Bring the value to the host, as showing it would.
		for _, v := range res.Values {
			if _, err := v.Host(ctx); err != nil {
				return Reply{}, err
			}
		}
		d := time.Since(start)
		runs = append(runs, d)
		spent += d
	}
	warm := runs[1:] // the first run may have compiled
	mean, sd, best := stats(warm)
	return Reply{Text: fmt.Sprintf("%s ± %s per run (mean ± std. dev. of %d runs; fastest %s; first run %s)",
		eval.FormatDuration(mean), eval.FormatDuration(sd), len(warm), eval.FormatDuration(best), eval.FormatDuration(runs[0]))}, nil
}

func stats(ds []time.Duration) (mean, sd, best time.Duration) {
	best = ds[0]
	var sum float64
	for _, d := range ds {
		sum += float64(d)
		best = min(best, d)
	}
	m := sum / float64(len(ds))
	var sq float64
	for _, d := range ds {
		sq += (float64(d) - m) * (float64(d) - m)
	}
	if len(ds) > 1 {
		sq /= float64(len(ds) - 1)
	}
	return time.Duration(m), time.Duration(math.Sqrt(sq)), best
}
