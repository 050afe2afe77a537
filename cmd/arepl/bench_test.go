package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/types"
)

func TestBenchGenerated(t *testing.T) {
	file := filepath.Join(t.TempDir(), "prog.fut")
	src := "entry main [n] (xs: [n]i32) (ys: [n]f64) : f64 = f64.sum (map2 (\\x y -> f64.i32 x + y) xs ys)\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(t.TempDir(), "cpu.prof")
	rep, err := bench(context.Background(), eval.Options{Backend: "cpu", Fusion: true}, file, "main", nil,
		benchConfig{size: 1000, seed: 1, runs: 3, warmup: 1, profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	// A CPU profile is gzip-compressed protobuf: it starts with gzip's magic.
	if b, err := os.ReadFile(profile); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--cpuprofile wrote %d bytes (err %v), want a gzip-compressed profile", len(b), err)
	}
	if rep.Elements != 2000 || rep.Bytes != 1000*4+1000*8 || rep.Runs != 3 || rep.Backend != "cpu" {
		t.Errorf("report %+v: want 2000 elements, 12000 bytes, 3 runs on cpu", rep)
	}
	if rep.MinSec <= 0 || rep.MinSec > rep.MeanSec {
		t.Errorf("report %+v: want 0 < min <= mean", rep)
	}
	if s := rep.String(); !strings.Contains(s, "3 runs, mean ") || !strings.Contains(s, "GB/s of input") {
		t.Errorf("report line %q lacks the run count or throughput", s)
	}
}

func TestRandomArgs(t *testing.T) {
	i32, f32, i64 := types.Prim{T: core.I32}, types.Prim{T: core.F32}, types.Prim{T: core.I64}
	n := types.Dim{Name: "n"}
	params := []types.Type{
		&types.Array{Elem: i32, Dims: []types.Dim{n}},
		&types.Array{Elem: f32, Dims: []types.Dim{n, types.AnyDim}},
		&types.Array{Elem: &types.Tuple{Elems: []types.Type{i32, f32}}, Dims: []types.Dim{{Const: 7}}},
		i64,
	}
	args, err := randomArgs(params, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	shapes := [][]int64{}
	for _, vs := range args {
		for _, v := range vs {
			shapes = append(shapes, v.Shape)
		}
	}
	// n is fixed by the first parameter (100 elements) and reused by the
	// matrix, whose other side is 100^(1/2); [7] is taken as written.
	want := [][]int64{{100}, {100, 10}, {7}, {7}, {}}
	if len(shapes) != len(want) {
		t.Fatalf("shapes %v, want %v", shapes, want)
	}
	for i := range want {
		if !equalInts(shapes[i], want[i]) {
			t.Errorf("shape %d = %v, want %v", i, shapes[i], want[i])
		}
	}
	if got := args[3][0].Data.([]int64)[0]; got != 100 {
		t.Errorf("integer scalar = %d, want the size 100", got)
	}
	for _, x := range args[0][0].Data.([]int32) {
		if x < 0 || x >= 1000 {
			t.Fatalf("random i32 %d outside [0, 1000)", x)
		}
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBenchTestBlocks: with no --size and no stdin, bench times every
// dataset of the file's test blocks for the entry point, `input` and
// `random input` alike, as futhark bench does, each with its own report.
func TestBenchTestBlocks(t *testing.T) {
	file := filepath.Join(t.TempDir(), "prog.fut")
	src := `-- ==
-- entry: main
-- input { [1i32, 2i32, 3i32] } output { 6i32 }
-- "big" random input { [5000]i32 }
-- random input { [700]i32 }
-- input @ data.in
def main (xs: []i32) : i32 = reduce (+) 0 xs
-- ==
-- entry: other
-- input { 1i32 }
entry other (x: i32) : i32 = x + 1
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	reps, err := benchAll(context.Background(), eval.Options{Backend: "cpu", Fusion: true}, file, "main", nil,
		benchConfig{seed: 1, runs: 2, warmup: 0})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range reps {
		got = append(got, r.Dataset+":"+strconv.FormatInt(r.Elements, 10))
		if r.Timing != "wall" || r.Runs != 2 || r.MinSec <= 0 || r.StddevSec < 0 {
			t.Errorf("report %+v", r)
		}
	}
	if want := `#0:3 "big":5000 [700]i32:700`; strings.Join(got, " ") != want {
		t.Errorf("datasets %q, want %q", strings.Join(got, " "), want)
	}
}
