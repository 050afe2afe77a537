package fusion_test

// The golden tests run the seeds' programs (testdata/plans/*.fut) through
// the real front end — parse, check, lower — then fusion with the verifier
// after every step, and compare the plan and the fused core with
// testdata/plans/*.golden. Regenerate with `go test ./fusion -update`.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/fusion"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/lower"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// planOf fuses every entry point of a file and renders what happened.
func planOf(t *testing.T, path string) string {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	file := source.NewFile(filepath.Base(path), string(text))
	parsed, err := syntax.ParseFile(file)
	if err != nil {
		t.Fatal(source.Detail(err))
	}
	env, _, err := types.NewEnv().CheckDecls(file, parsed.Decls)
	if err != nil {
		t.Fatal(source.Detail(err))
	}
	var out strings.Builder
	for _, d := range parsed.Decls {
		vd, ok := d.(*syntax.ValDecl)
		if !ok || vd.Kind != syntax.KindEntry {
			continue
		}
		obj, _ := env.Lookup(vd.Name)
		call := []string{vd.Name}
		callEnv := env
		for i, ty := 0, obj.Type; ; i++ {
			a, ok := ty.(*types.Arrow)
			if !ok {
				break
			}
			name := fmt.Sprintf("arg%d", i)
			if i < len(vd.Params) {
				if n := paramName(vd.Params[i]); n != "" {
					name = n
				}
			}
			callEnv = callEnv.BindValue(name, a.Param)
			call = append(call, name)
			ty = a.Ret
		}
		callFile := source.NewFile("<call>", strings.Join(call, " "))
		x, err := syntax.ParseExpr(callFile)
		if err != nil {
			t.Fatal(err)
		}
		_, info, err := callEnv.CheckExpr(callFile, x)
		if err != nil {
			t.Fatal(source.Detail(err))
		}
		prog, _, err := lower.Expr(callEnv, x, info)
		if err != nil {
			t.Fatal(source.Detail(err))
		}
		if err := core.Verify(prog); err != nil {
			t.Fatalf("%s: lowered program does not verify: %v", vd.Name, err)
		}
		fused, plan, err := fusion.FuseChecked(prog, core.Verify)
		if err != nil {
			t.Fatalf("%s: %v", vd.Name, err)
		}
		// The plan shows the program's names; the fused core keeps the IR's.
		plan.SetNames(prog, fused, eval.LetNames(parsed, x))
		fmt.Fprintf(&out, "== entry %s\n%s\n%s\n", vd.Name, plan.Text(), core.Print(fused))
	}
	return renumber(out.String())
}

// tagged matches a variable name with its unique tag ("xs_12", "i_f3").
var tagged = regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9']*?)_(f?[0-9]+)\b`)

// renumber gives variables tags in order of first appearance, so the
// golden files show structure and do not change when lowering numbers its
// variables differently.
func renumber(s string) string {
	seen := map[string]string{}
	count := map[string]int{}
	return tagged.ReplaceAllStringFunc(s, func(name string) string {
		if r, ok := seen[name]; ok {
			return r
		}
		base := tagged.FindStringSubmatch(name)[1]
		count[base]++
		r := fmt.Sprintf("%s_%d", base, count[base])
		seen[name] = r
		return r
	})
}

func TestGoldenPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/plans/*.fut")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test programs: %v", err)
	}
	// The examples are the seeds' benchmark programs (the redomap paper's
	// mini-benchmarks, MSSP, the scanomap paper's programs, ...): their
	// plans are kept beside the others.
	examples, err := filepath.Glob("../examples/*.fut")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	files = append(files, examples...)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			got := planOf(t, path)
			golden := strings.TrimSuffix(path, ".fut") + ".golden"
			if strings.HasPrefix(path, "../examples/") {
				golden = "testdata/plans/examples/" + strings.TrimSuffix(filepath.Base(path), ".fut") + ".golden"
			}
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("plan differs from %s (run with -update and review the diff):\n%s", golden, got)
			}
		})
	}
}

// paramName is the name a parameter pattern binds, so the plans name the
// arrays as the program does.
func paramName(p syntax.Pat) string {
	switch p := p.(type) {
	case *syntax.IdPat:
		return p.Name
	case *syntax.AscribedPat:
		return paramName(p.Pat)
	}
	return ""
}
