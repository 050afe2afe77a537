// Command seqloops times hand-written Go loops for the sequential programs
// of bench/cpu/loops (issue 18), single-threaded, as the compiled baseline
// of bench/cpu/loops.sh. Each kernel computes what the .fut program of its
// row computes, with the same input. It prints one JSON object: for each
// kernel, the mean and minimum seconds per run.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"time"
)

var sink float64

var kernels = map[string]func() float64{
	"for_sum": func() float64 {
		s := int64(0)
		for i := int64(0); i < 10_000_000; i++ {
			s += i
		}
		return float64(s)
	},
	"while_tuple": func() float64 {
		s, j := int64(0), int64(0)
		for j < 10_000_000 {
			s, j = s+j, j+1
		}
		return float64(s)
	},
	"mandelbrot": func() float64 {
		const n = 500
		out := make([]int32, n*n)
		for y := 0; y < n; y++ {
			ci := -1.5 + 3*float64(y)/n
			for x := 0; x < n; x++ {
				cr := -2 + 3*float64(x)/n
				zr, zi, i := 0.0, 0.0, int32(0)
				for i < 255 && zr*zr+zi*zi < 4 {
					zr, zi, i = zr*zr-zi*zi+cr, 2*zr*zi+ci, i+1
				}
				out[y*n+x] = i
			}
		}
		return float64(out[n*n/2])
	},
	"sieve":           func() float64 { return float64(sieve(1_000_000)) },
	"inplace_branch":  func() float64 { return float64(inplace(1_000_000)) },
	"inplace_branch4": func() float64 { return float64(inplace(4_000_000)) },
	"tridiag":         func() float64 { return tridiag(1000, 1000) },
	"nbody":           func() float64 { return nbody(1000) },
	"fib":             func() float64 { return float64(fib(27)) },
}

func sieve(n int) int {
	flags := make([]bool, n)
	for i := range flags {
		flags[i] = true
	}
	flags[0], flags[1] = false, false
	for i := 0; i < n; i++ {
		if i*i < n && flags[i] {
			for j := i * i; j < n; j += i {
				flags[j] = false
			}
		}
	}
	c := 0
	for _, f := range flags {
		if f {
			c++
		}
	}
	return c
}

func inplace(n int64) int64 {
	a := make([]int64, n)
	for i := int64(0); i < n; i++ {
		if i%3 != 0 {
			a[i] = i
		}
	}
	s := int64(0)
	for _, v := range a {
		s += v
	}
	return s
}

func tridiag(m, k int) float64 {
	total := 0.0
	a, b, c, d := make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	cp, dp, x := make([]float64, k), make([]float64, k), make([]float64, k)
	for r := 0; r < m; r++ {
		for i := 0; i < k; i++ {
			a[i] = 1 + float64((r+i)%7)
			b[i] = 20 + float64((r*i)%5)
			c[i] = 2 + float64((r+2*i)%3)
			d[i] = float64((r + i) % 11)
		}
		cp[0], dp[0] = c[0]/b[0], d[0]/b[0]
		for i := 1; i < k; i++ {
			mm := b[i] - a[i]*cp[i-1]
			cp[i] = c[i] / mm
			dp[i] = (d[i] - a[i]*dp[i-1]) / mm
		}
		x[k-1] = dp[k-1]
		for i := k - 2; i >= 0; i-- {
			x[i] = dp[i] - cp[i]*x[i+1]
		}
		for _, v := range x {
			total += v
		}
	}
	return total
}

func nbody(n int) float64 {
	xs, ys, zs, ms := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		xs[i], ys[i], zs[i] = float64(i%97)*0.5, float64(i%89)*0.25, float64(i%83)*0.125
		ms[i] = 1 + float64(i%5)
	}
	const dt, eps = 0.01, 0.01
	tot := 0.0
	for i := 0; i < n; i++ {
		xi, yi, zi := xs[i], ys[i], zs[i]
		ax, ay, az := 0.0, 0.0, 0.0
		for j := 0; j < n; j++ {
			dx, dy, dz := xs[j]-xi, ys[j]-yi, zs[j]-zi
			r2 := dx*dx + dy*dy + dz*dz + eps
			inv := ms[j] / (r2 * math.Sqrt(r2))
			ax, ay, az = ax+dx*inv, ay+dy*inv, az+dz*inv
		}
		tot += xi + dt*dt*ax + yi + dt*dt*ay + zi + dt*dt*az
	}
	return tot
}

func fib(n int64) int64 {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() {
	runs := flag.Int("runs", 5, "timed runs per kernel (after one warm-up)")
	names := flag.String("kernels", "", "comma-separated kernels (default: all)")
	flag.Parse()
	out := map[string]map[string]float64{}
	for _, name := range strings.Split(*names, ",") {
		k, ok := kernels[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "seqloops: no kernel %q\n", name)
			os.Exit(2)
		}
		sink += k()
		total, best := 0.0, math.Inf(1)
		for r := 0; r < *runs; r++ {
			start := time.Now()
			sink += k()
			d := time.Since(start).Seconds()
			total += d
			best = min(best, d)
		}
		out[name] = map[string]float64{"mean_s": total / float64(*runs), "min_s": best}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(1)
	}
}
