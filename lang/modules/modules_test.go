package modules

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
)

// files is an in-memory file system for imports; reads counts each read.
type files struct {
	text  map[string]string
	reads map[string]int
}

func (f *files) read(path string) (string, error) {
	f.reads[path]++
	t, ok := f.text[filepath.Clean(path)]
	if !ok {
		return "", errors.New("no such file")
	}
	return t, nil
}

func elaborate(t *testing.T, fs *files, name, text string) ([]syntax.Decl, error) {
	t.Helper()
	f, err := syntax.ParseFile(source.NewFile(name, text))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	e := New(fs.read)
	e.Main(name)
	return e.Decls(f.Decls, filepath.Dir(name))
}

func names(decls []syntax.Decl) string {
	var out []string
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.ValDecl:
			out = append(out, d.Name)
		case *syntax.TypeDecl:
			out = append(out, "type "+d.Name)
		}
	}
	return strings.Join(out, ", ")
}

// TestFlatNames: members become globals named by their module's path, and
// each functor application is a copy of the body under its own path.
func TestFlatNames(t *testing.T) {
	fs := &files{reads: map[string]int{}}
	decls, err := elaborate(t, fs, "main.fut", `
module a = { type t = i32 def x : t = 1 module b = { def y = 2i32 } }
module f (p: { val x : i32 }) = { def z = p.x + 1 }
module c = f a
module d = f a.b
def main (k: i32) = a.x + a.b.y + c.z + k`)
	if err == nil || !strings.Contains(err.Error(), "Module does not define a value named x") {
		t.Fatalf("f a.b: got %v, want a missing x", err)
	}
	decls, err = elaborate(t, fs, "main.fut", `
module a = { type t = i32 def x : t = 1 module b = { def y = 2i32 } }
module f (p: { val x : i32 }) = { def z = p.x + 1 }
module c = f a
module d = f { def x = 5i32 }
def main (k: i32) = a.x + a.b.y + c.z + d.z + k`)
	if err != nil {
		t.Fatal(err)
	}
	// The check that a provides x : i32 is a declaration of its own.
	want := "type a.t, a.x, a.b.y, c.z, d.arg4.x, d.z, main" // the argument module is anonymous
	var got []string
	for _, n := range strings.Split(names(decls), ", ") {
		if !strings.Contains(n, " (") {
			got = append(got, n)
		}
	}
	if strings.Join(got, ", ") != want {
		t.Errorf("flat declarations: %s, want %s", strings.Join(got, ", "), want)
	}
	main := decls[len(decls)-1].(*syntax.ValDecl)
	var quals []string
	syntaxVars(main.Body, func(v *syntax.Var) { quals = append(quals, v.Qual+"|"+v.Name) })
	if w := "a|x a.b|y c|z d|z |k"; strings.Join(quals, " ") != w {
		t.Errorf("main's references: %s, want %s", strings.Join(quals, " "), w)
	}
}

// syntaxVars calls f on the variables of x in order, by the same walk
// the rewriter makes.
func syntaxVars(x syntax.Expr, f func(*syntax.Var)) {
	var walk func(x syntax.Expr)
	walk = func(x syntax.Expr) {
		switch x := x.(type) {
		case *syntax.Var:
			f(x)
		case *syntax.BinOp:
			walk(x.Lhs)
			walk(x.Rhs)
		case *syntax.ParenExpr:
			walk(x.X)
		}
	}
	walk(x)
}

// TestImportsOnceAndCycles: a file imported along two paths is read
// once; a cycle is an error at the import that closes it, in the file
// that has it.
func TestImportsOnceAndCycles(t *testing.T) {
	fs := &files{reads: map[string]int{}, text: map[string]string{
		"lib/a.fut": "import \"b\"\ndef a = b + 1i32\n",
		"lib/b.fut": "def b = 1i32\n",
		"lib/c.fut": "import \"d\"\ndef c = 1i32\n",
		"lib/d.fut": "import \"c\"\ndef d = 1i32\n",
	}}
	_, err := elaborate(t, fs, "main.fut", "import \"lib/a\"\nmodule b = import \"lib/b\"\ndef main (x: i32) = a + b.b + x\n")
	if err != nil {
		t.Fatal(err)
	}
	if fs.reads["lib/b.fut"] != 1 {
		t.Errorf("lib/b.fut read %d times, want once", fs.reads["lib/b.fut"])
	}
	_, err = elaborate(t, fs, "main.fut", "import \"lib/c\"\ndef main (x: i32) = x\n")
	if err == nil || !strings.Contains(err.Error(), "lib/d.fut:1:1: import \"c\": import cycle") {
		t.Errorf("cycle: got %v, want an import cycle at lib/d.fut:1:1", err)
	}
	_, err = elaborate(t, fs, "main.fut", "import \"main\"\ndef main (x: i32) = x\n")
	if err == nil || !strings.Contains(err.Error(), "import cycle") {
		t.Errorf("a file importing itself: got %v, want an import cycle", err)
	}
}

// TestScopeSnapshot: Restore undoes what a REPL input declared.
func TestScopeSnapshot(t *testing.T) {
	e := New(nil)
	parse := func(text string) []syntax.Decl {
		f, err := syntax.ParseFile(source.NewFile("[1]", text))
		if err != nil {
			t.Fatal(err)
		}
		return f.Decls
	}
	if _, err := e.Decls(parse("module m = { def x = 1i32 }"), "."); err != nil {
		t.Fatal(err)
	}
	saved := e.Save()
	if _, err := e.Decls(parse("module n = { def y = 1i32 }"), "."); err != nil {
		t.Fatal(err)
	}
	e.Restore(saved)
	if _, err := e.Decls(parse("module k = n"), "."); err == nil || !strings.Contains(err.Error(), `Unknown module "n"`) {
		t.Errorf("n after Restore: got %v, want unknown", err)
	}
	if _, err := e.Decls(parse("module k = m"), "."); err != nil {
		t.Errorf("m after Restore: %v", err)
	}
}
