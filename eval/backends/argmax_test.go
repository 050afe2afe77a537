package backends

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
)

// TestArgMaxPrograms runs the redomap paper's IndexOfMax and
// IndexOfMaxPack (the packed form takes the interpreter's keys-from-inputs
// path, eval/cpu/bitkeys.go) fused and unfused on inputs long enough for
// many chunks and several workers, with many ties and the maximum placed
// at chosen positions, against a Go loop: the first index of the largest
// element.
func TestArgMaxPrograms(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	for _, file := range []string{"index_of_max", "index_of_max_pack"} {
		for _, fusion := range []bool{true, false} {
			s := NewSession(eval.Options{Backend: "cpu", Fusion: fusion})
			if _, err := s.Load(ctx, "../../examples/"+file+".fut"); err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 5000, 300007} {
				for _, at := range []int{0, n / 3, n - 1} {
					xs := make([]int32, n)
					for i := range xs {
						xs[i] = int32(rng.IntN(9)) - 4 // many ties
					}
					xs[at] = 100
					if n > 2 {
						xs[n-2] = 100 // a later tie must not win
					}
					want := 0
					for i, x := range xs {
						if x > xs[want] {
							want = i
						}
					}
					arg := []eval.Value{{Elem: core.I32, Shape: []int64{int64(n)}, Data: xs}}
					res, err := s.Call(ctx, "main", [][]eval.Value{arg})
					if err != nil {
						t.Fatalf("%s fusion=%v n=%d: %v", file, fusion, n, err)
					}
					if got := res.Values[0].Data.([]int64)[0]; got != int64(want) {
						t.Fatalf("%s fusion=%v n=%d max at %d: got %d, want %d", file, fusion, n, at, got, want)
					}
				}
			}
		}
	}
}
