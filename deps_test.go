package arepl_test

// This test states the layering of docs/design.md §1 as data and checks every
// package of the module against it, in the manner of go/build's deps_test:
// the table is a statement of policy — do not change it to make a build
// pass; change the code, or argue for a new rule in the design.

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/arepl/arepl/"

// allowed lists, for each package (by path relative to the module root),
// the module packages it may import. A package not listed may import
// nothing from the module except what a parent entry allows; cmd/ and
// test-only code are free. Standard-library imports are always allowed.
var allowed = map[string][]string{
	"lang/source": {},
	"lang/syntax": {"lang/source"},
	"lang/core":   {"lang/source"},
	"lang/types":  {"lang/source", "lang/syntax", "lang/core"},
	"lang/lower":  {"lang/source", "lang/syntax", "lang/types", "lang/core", "lang/ad"},
	"lang/ad":     {"lang/source", "lang/core"},
	"fusion":      {"lang/source", "lang/core"},
	"eval":        {"lang/...", "fusion", "eval/internal/..."},
	"eval/cpu":    {"lang/source", "lang/core", "eval"},
	"eval/gpu":    {"lang/source", "lang/core", "eval", "eval/gpu/...", "kernels"},
	// Sharding over devices knows backends only as eval.Backend values, so
	// the same logic runs over GPUs and over simulated (CPU) devices.
	"eval/shard": {"lang/source", "lang/core", "eval"},
	// The one package that knows every backend and wires them into sessions.
	"eval/backends": {"lang/...", "eval", "eval/cpu", "eval/gpu", "eval/shard", "fusion"},
	"futtest":       {"lang/...", "eval", "eval/backends", "fusion"},
	// The one table of :commands that the REPL and the kernel serve.
	"commands": {"lang/...", "eval", "fusion", "viz"},
	"jupyter":  {"lang/...", "eval", "eval/...", "fusion", "jupyter/...", "commands"},
	"kernels":  {},
	// Rendering of values as pictures, for every front end.
	"viz": {"lang/core", "lang/types", "eval"},

	// Futhark's module language, elaborated into flat declarations
	// between parsing and checking.
	"lang/modules": {"lang/source", "lang/syntax"},
}

// thirdParty says which packages may use each third-party module: the
// libraries stay at the edges.
var thirdParty = map[string][]string{
	"github.com/alecthomas/participle": {"lang/syntax"},
	"github.com/chzyer/readline":       {"cmd/arepl"},
	"github.com/go-zeromq/zmq4":        {"jupyter"},
	"github.com/ebitengine/purego":     {"eval/gpu/cuda", "eval/gpu/nccl"},
	"golang.org/x/sys":                 {"eval/gpu/cuda", "cmd/arepl", "jupyter"},
	"gonum.org/v1/plot":                {"viz"},
}

func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// rulesFor returns the allow-list of the nearest listed ancestor of pkg.
func rulesFor(pkg string) ([]string, bool) {
	for p := pkg; p != "." && p != ""; p = filepath.Dir(p) {
		if r, ok := allowed[p]; ok {
			return r, true
		}
	}
	return nil, false
}

func TestLayering(t *testing.T) {
	imports := map[string]map[string]bool{} // package dir -> imports (non-test files)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			// A directory with its own go.mod is another module (a patched
			// copy of a dependency under third_party/), not a package of
			// this one.
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != "." && err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if imports[dir] == nil {
			imports[dir] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			imports[dir][strings.Trim(imp.Path.Value, `"`)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) == 0 {
		t.Fatal("found no packages")
	}
	for _, v := range violations(imports) {
		t.Error(v)
	}
}

// violations checks package imports (package dir -> imported paths) against
// the policy tables.
func violations(imports map[string]map[string]bool) []string {
	var out []string
	dirs := make([]string, 0, len(imports))
	for d := range imports {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, pkg := range dirs {
		for imp := range imports[pkg] {
			if internal, ok := strings.CutPrefix(imp, module); ok {
				if strings.HasPrefix(pkg, "cmd/") || pkg == "." {
					continue
				}
				rules, ok := rulesFor(pkg)
				if !ok {
					out = append(out, pkg+": package has no layering rule (add it to the policy table with a reason)")
					continue
				}
				ok = false
				for _, r := range rules {
					if matches(r, internal) {
						ok = true
					}
				}
				if !ok {
					out = append(out, pkg+" imports "+internal+": not allowed by docs/design.md §1")
				}
				continue
			}
			if !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
				continue // standard library
			}
			known, permitted := false, false
			for mod, users := range thirdParty {
				if !matches(mod+"/...", imp) {
					continue
				}
				known = true
				for _, u := range users {
					if matches(u, pkg) || matches(u+"/...", pkg) {
						permitted = true
					}
				}
			}
			switch {
			case !known:
				out = append(out, pkg+" imports "+imp+": a dependency the policy does not know")
			case !permitted:
				out = append(out, pkg+" imports "+imp+": that library belongs to another package")
			}
		}
	}
	return out
}

// TestLayeringCatchesViolations makes sure the checker is not vacuous.
func TestLayeringCatchesViolations(t *testing.T) {
	bad := map[string]map[string]bool{
		"eval/cpu":    {module + "eval/gpu": true},
		"lang/core":   {module + "fusion": true},
		"lang/types":  {"github.com/alecthomas/participle/v2": true},
		"eval":        {"github.com/some/unknown": true},
		"lang/syntax": {"github.com/alecthomas/participle/v2/lexer": true, "fmt": true},
	}
	got := violations(bad)
	if len(got) != 4 {
		t.Fatalf("want 4 violations (cpu->gpu, core->fusion, participle in types, unknown dep), got %d: %q", len(got), got)
	}
}
