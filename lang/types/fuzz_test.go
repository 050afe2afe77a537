package types_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arepl/arepl/lang/modules"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// FuzzCheck parses mutated programs and checks what parses. The checker
// must never panic (a recovered panic is an "internal error"), every error
// must be a positioned source.ErrorList, a failed check must leave the
// environment unchanged, and a successful one must record a complete,
// resolved Info. Seeds are the chunks and expressions of testdata/*.fut
// and the project's example and test programs; crashers stay in
// testdata/fuzz/FuzzCheck and replay on go test.
func FuzzCheck(f *testing.F) {
	for _, pattern := range []string{"../../examples/*.fut", "../../testdata/*/*.fut"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			// Large programs (testdata/syntax/many_lets.fut: 5,000 lets)
			// are slow seeds that mutations rarely get anywhere with, and
			// under coverage instrumentation they can pass the deadline.
			if data, err := os.ReadFile(file); err == nil && len(data) <= maxSeed {
				f.Add(string(data))
			}
		}
	}
	files, _ := filepath.Glob("testdata/*.fut")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, ch := range chunks(file, string(data)) {
			f.Add(strings.TrimLeft(ch.text, "\n"))
			for _, l := range strings.Split(ch.text, "\n") {
				if m := exprRx.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
					f.Add(m[1])
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		// A hang is a failure too: run the check with a deadline so that
		// the fuzzer records the input.
		done := make(chan struct{})
		go func() {
			defer close(done)
			fuzzOne(t, text)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("checking %q took more than 5s", text)
		}
	})
}

// maxSeed is the largest test program FuzzCheck takes as a seed.
const maxSeed = 16 << 10

func fuzzOne(t *testing.T, text string) {
	{
		src := source.NewFile("fuzz.fut", text)
		env := types.NewEnv()
		if file, err := syntax.ParseFile(src); err == nil {
			// Modules are flattened first, as a session does.
			flat, merr := modules.New(nil).Decls(file.Decls, ".")
			if merr != nil {
				checkErrors(t, merr)
				flat = nil
			}
			file = &syntax.File{At: file.At, Decls: flat}
			env2, info, err := env.CheckDecls(src, file.Decls)
			if err != nil {
				checkErrors(t, err)
				if env2 != env {
					t.Errorf("failed CheckDecls changed the environment")
				}
			} else {
				checkInfo(t, file, info)
				for _, d := range file.Decls {
					vd, ok := d.(*syntax.ValDecl)
					if !ok {
						continue
					}
					if o, ok := env2.Lookup(vd.Name); !ok || o.Type == nil {
						t.Errorf("declaration %s not in the new environment", vd.Name)
					}
				}
			}
		}
		if x, err := syntax.ParseExpr(src); err == nil {
			typ, info, err := env.CheckExpr(src, x)
			if err != nil {
				checkErrors(t, err)
			} else if !types.IsFunction(typ) {
				checkInfo(t, x, info)
			}
		}
	}
}

func checkErrors(t *testing.T, err error) {
	t.Helper()
	list, ok := err.(source.ErrorList)
	if !ok || len(list) == 0 {
		t.Errorf("error %v (%T) is not a non-empty source.ErrorList", err, err)
	}
	for _, e := range list {
		if strings.Contains(e.Msg, "internal error") || !e.Pos.IsValid() {
			t.Errorf("bad error: %s", e.Detail())
		}
	}
}
