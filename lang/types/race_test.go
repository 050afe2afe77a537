package types_test

import (
	"sync"
	"testing"

	"github.com/arepl/arepl/lang/types"
)

// An Env is shared by the REPL and notebook goroutines: checking in one
// environment from many goroutines at once must be safe (run with -race).
func TestConcurrentChecks(t *testing.T) {
	src, decls := parseDecls(t, "def f [n] (xs: [n]i32) = map (+ 1) xs\ndef g = f [1, 2]")
	env, _, err := types.NewEnv().CheckDecls(src, decls)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				if typ, err := checkExpr(t, env, "reduce (+) 0 (f g) + i32.sum (map (* 2) g)"); err != nil || typ.String() != "i32" {
					t.Errorf("got %v, %v", typ, err)
				}
			}
		}()
	}
	wg.Wait()
}
