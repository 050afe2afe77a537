package lower

import (
	"testing"

	"github.com/arepl/arepl/lang/types"
)

// TestBuiltinTable checks that every builtin the checker accepts has a
// lowering whose arity matches the checker's signature (sections, partial
// application and over-application all rely on the arity).
func TestBuiltinTable(t *testing.T) {
	n := 0
	for _, obj := range types.NewEnv().Objects() {
		if obj.Kind != types.Builtin {
			continue
		}
		n++
		b, ok := builtins[obj.Name]
		if !ok {
			t.Errorf("builtin %s has no lowering", obj.Name)
			continue
		}
		arity := 0
		for typ := obj.Type; ; arity++ {
			a, ok := typ.(*types.Arrow)
			if !ok {
				break
			}
			typ = a.Ret
		}
		if arity != b.arity {
			t.Errorf("builtin %s: checker arity %d, lowering arity %d", obj.Name, arity, b.arity)
		}
	}
	if n == 0 {
		t.Fatal("no builtins in the environment")
	}
}
