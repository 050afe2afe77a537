package backends

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arepl/arepl/eval"
)

// evalString evaluates src in s and formats the result, or fails.
func evalString(t *testing.T, s *eval.Session, src string) string {
	t.Helper()
	r, err := s.Eval(context.Background(), "[t]", src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if r.Type == nil {
		return ""
	}
	out, err := eval.Format(r.Type, r.Values, 0)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return out
}

// TestModulesAcrossInputs: modules declared in one REPL input are used,
// opened and applied in later ones, and an input the checker rejects
// leaves no module behind.
func TestModulesAcrossInputs(t *testing.T) {
	s := NewSession(eval.Options{Backend: "cpu"})
	evalString(t, s, "module m = { def x = 20i32 def inc (a: i32) = a + 1 }")
	if got := evalString(t, s, "m.inc m.x"); got != "21" {
		t.Errorf("m.inc m.x = %s, want 21", got)
	}
	evalString(t, s, "module type has_x = { val x : i32 }")
	evalString(t, s, "module twice (P: has_x) = { def x = P.x * 2 }")
	evalString(t, s, "module n = twice m")
	if got := evalString(t, s, "n.x"); got != "40" {
		t.Errorf("n.x = %s, want 40", got)
	}
	evalString(t, s, "open m")
	if got := evalString(t, s, "inc x"); got != "21" {
		t.Errorf("inc x after open m = %s, want 21", got)
	}
	// The declaration of bad fails to check: module k must not exist
	// afterwards, for the elaborator nor the checker.
	if _, err := s.Eval(context.Background(), "[t]", "module k = { def y = 1i32 def bad = y + true }"); err == nil {
		t.Fatal("a module with a type error was accepted")
	}
	if _, err := s.Eval(context.Background(), "[t]", "k.y"); err == nil {
		t.Error("k.y evaluated after k's declaration failed")
	}
	if got := evalString(t, s, "m.x"); got != "20" {
		t.Errorf("m.x after a failed input = %s, want 20", got)
	}
}

// TestImportRelativeToLoadedFile: a typed import resolves against the
// directory of the loaded file, a loaded file's imports against its own,
// and an import error names the importing line.
func TestImportRelativeToLoadedFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/sq.fut", "def sq (x: i64) = x * x\n")
	write("lib/cube.fut", "import \"sq\"\ndef cube (x: i64) = sq x * x\n")
	write("main.fut", "module c = import \"lib/cube\"\ndef main (x: i64) = c.cube x\n")
	s := NewSession(eval.Options{Backend: "cpu"})
	if _, err := s.Load(context.Background(), filepath.Join(dir, "main.fut")); err != nil {
		t.Fatal(err)
	}
	if got := evalString(t, s, "main 3"); got != "27" {
		t.Errorf("main 3 = %s, want 27", got)
	}
	evalString(t, s, `module q = import "lib/sq"`)
	if got := evalString(t, s, "q.sq 5"); got != "25" {
		t.Errorf("q.sq 5 = %s, want 25", got)
	}
	// cube.fut's plain import of sq is not re-exported.
	if _, err := s.Eval(context.Background(), "[t]", "c.sq 2"); err == nil || !strings.Contains(err.Error(), `Unknown name "c.sq"`) {
		t.Errorf("c.sq: got %v, want an unknown name error", err)
	}
	_, err := s.Eval(context.Background(), "[t]", `import "lib/none"`)
	if err == nil || !strings.Contains(err.Error(), "[t]:1:1") || !strings.Contains(err.Error(), "lib/none") {
		t.Errorf("import of a missing file: got %v, want an error at [t]:1:1 naming it", err)
	}
}

// TestModuleNamesInTypeOf: :type and compiled expressions see modules.
func TestModuleNamesInTypeOf(t *testing.T) {
	s := NewSession(eval.Options{Backend: "cpu"})
	evalString(t, s, "module m = { type t = f32 def half (x: t) : t = x / 2 }")
	typ, err := s.TypeOf("[t]", "m.half")
	if err != nil {
		t.Fatal(err)
	}
	if got := typ.String(); got != "f32 -> f32" {
		t.Errorf(":type m.half = %s, want f32 -> f32", got)
	}
	if _, err := s.Compile("[t]", "m.half 3f32"); err != nil {
		t.Errorf("compile m.half 3f32: %v", err)
	}
}

// TestImportAfterRejectedInput: a file imported by an input that the
// checker rejects is declared again by the next import of it.
func TestImportAfterRejectedInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lib.fut"), []byte("def seven = 7i32\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.fut"), []byte("def main (x: i32) = x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewSession(eval.Options{Backend: "cpu"})
	if _, err := s.Load(context.Background(), filepath.Join(dir, "main.fut")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval(context.Background(), "[t]", "module l = import \"lib\"\ndef bad = l.seven + true"); err == nil {
		t.Fatal("an input with a type error was accepted")
	}
	evalString(t, s, `module l = import "lib"`)
	if got := evalString(t, s, "l.seven"); got != "7" {
		t.Errorf("l.seven = %s, want 7", got)
	}
}

// TestModuleNamesListed: a module's members are listed qualified, and the
// declarations that check a module type are not listed at all.
func TestModuleNamesListed(t *testing.T) {
	s := NewSession(eval.Options{Backend: "cpu"})
	evalString(t, s, "module m : { val x : i32 } = { def x = 1i32 }")
	found := false
	for _, n := range s.Names() {
		if strings.Contains(n.Name, " ") {
			t.Errorf("listed %q", n.Name)
		}
		found = found || n.Name == "m.x"
	}
	if !found {
		t.Error("m.x not listed")
	}
}
