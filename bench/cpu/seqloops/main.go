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
	"math/rand/v2"
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
	// The two redomap-paper programs of the targets on one
	// thread, on `arepl bench --size 10000000`'s kind of input (random
	// int32 in [0, 1000)); bench/cpu/goloops has them too, with the
	// parallel versions.
	"mssp":        func() float64 { return float64(mssp(randomInts())) },
	"reduce2x2mm": func() float64 { return float64(reduce2x2mm(randomInts())) },
}

var ints []int32

// randomInts are the 10^7 inputs of mssp and reduce2x2mm, made on first
// use (in the untimed warm-up run).
func randomInts() []int32 {
	if ints == nil {
		rng := rand.New(rand.NewPCG(1, 2))
		ints = make([]int32, 10_000_000)
		for i := range ints {
			ints[i] = int32(rng.IntN(1000))
		}
	}
	return ints
}

// mssp is examples/mssp.fut: the maximum segment sum by its 4-tuple.
func mssp(xs []int32) int32 {
	var m, p, sfx, t int32
	for _, x := range xs {
		z := max(x, 0)
		m, p, sfx, t = max(m, z, sfx+z), max(p, t+z), max(z, sfx+x), t+x
	}
	return m
}

// reduce2x2mm is examples/reduce_2x2mm.fut: 42 rounds, each reducing a+s
// by the product of 2x2 matrices of i8 packed in an i32.
func reduce2x2mm(xs []int32) int32 {
	mm := func(x, y int32) int32 {
		x11, x12, x21, x22 := int8(x>>24), int8(x>>16), int8(x>>8), int8(x)
		y11, y12, y21, y22 := int8(y>>24), int8(y>>16), int8(y>>8), int8(y)
		a, b, c, d := x11*y11+x12*y21, x11*y12+x12*y22, x21*y11+x22*y21, x21*y12+x22*y22
		return int32(uint32(uint8(a))<<24 | uint32(uint8(b))<<16 | uint32(uint8(c))<<8 | uint32(uint8(d)))
	}
	s := int32(1)
	for range 42 {
		acc := int32(0x01000001)
		for _, x := range xs {
			acc = mm(acc, x+s)
		}
		s = acc
	}
	return s
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
		cpu0, cpuOK := processCPU()
		for r := 0; r < *runs; r++ {
			start := time.Now()
			sink += k()
			d := time.Since(start).Seconds()
			total += d
			best = min(best, d)
		}
		out[name] = map[string]float64{"mean_s": total / float64(*runs), "min_s": best}
		if cpu1, ok := processCPU(); ok && cpuOK {
			// CPU time per run (user+system), which a loaded machine
			// inflates far less than wall time.
			out[name]["cpu_s"] = (cpu1 - cpu0) / float64(*runs)
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(1)
	}
}
