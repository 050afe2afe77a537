package commands

import (
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/eval/backends"
)

// TestEveryBuiltinHasDoc: :doc NAME gives a type and a description for
// every builtin and module function (issue 19, features).
func TestEveryBuiltinHasDoc(t *testing.T) {
	s := backends.NewSession(eval.Options{Backend: "cpu"})
	n := 0
	for _, name := range s.Names() {
		if name.Kind == eval.UserName {
			continue
		}
		n++
		if name.Type == "" || name.Doc == "" {
			t.Errorf(":doc %s: type %q, doc %q", name.Name, name.Type, name.Doc)
		}
	}
	if n < 50 {
		t.Errorf("only %d builtins", n)
	}
}
