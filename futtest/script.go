package futtest

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/lower"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// A `script input { e }` case computes its input by running e, a
// FutharkScript expression: calls of the program's entry points, constants,
// tuples and records, and the builtins $loaddata "file" (the values a data
// file holds) and $loadbytes "file" (its bytes as []u8). An n-tuple result
// is unpacked into n arguments. As in futhark test, only entry points may
// be called.

// scriptBuiltin matches `$loaddata "file"` and `$loadbytes "file"`, which
// the Futhark parser does not read: each becomes a placeholder name.
var scriptBuiltin = regexp.MustCompile(`\$(loaddata|loadbytes)\s*("(?:[^"\\]|\\.)*")`)

const u8 = core.U8

// placeholderPrefix starts the names that stand for the builtins' files.
const placeholderPrefix = "script_load_"

// load is one $loaddata or $loadbytes in a script.
type load struct {
	bytes bool // $loadbytes
	path  string
}

// scriptPart is one value a script expression produced: its source type
// and flat values. A tuple produces one part per component.
type scriptPart struct {
	t    types.Type
	vals []eval.Value
}

// scriptRun evaluates one script expression.
type scriptRun struct {
	ctx     context.Context
	sess    *eval.Session
	dir     string          // the test program's folder, for data files
	entries map[string]bool // the program's entry points
	text    string          // the expression, placeholders in place
	loads   map[string]load
}

// scriptArgs runs the script expression src and returns the arguments of
// an entry point taking params.
func scriptArgs(ctx context.Context, sess *eval.Session, dir string, entries map[string]bool, src string, params []types.Type) ([][]eval.Value, error) {
	r := &scriptRun{ctx: ctx, sess: sess, dir: dir, entries: entries, loads: map[string]load{}}
	var bad error
	r.text = scriptBuiltin.ReplaceAllStringFunc(src, func(m string) string {
		sub := scriptBuiltin.FindStringSubmatch(m)
		path, err := strconv.Unquote(sub[2])
		if err != nil && bad == nil {
			bad = fmt.Errorf("script input: bad file name %s", sub[2])
		}
		name := fmt.Sprintf("%s%d", placeholderPrefix, len(r.loads))
		r.loads[name] = load{bytes: sub[1] == "loadbytes", path: path}
		return name
	})
	if bad != nil {
		return nil, bad
	}
	if i := strings.IndexByte(r.text, '$'); i >= 0 {
		return nil, fmt.Errorf("script input: unknown builtin at %q (only $loaddata and $loadbytes are supported)", firstWord(r.text[i:]))
	}
	x, err := syntax.ParseExpr(source.NewFile("script input", r.text))
	if err != nil {
		return nil, fmt.Errorf("script input: %v", err)
	}
	parts, err := r.eval(x, params)
	if err != nil {
		return nil, err
	}
	return r.arguments("the script's value", parts, params)
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t\n()"); i > 0 {
		return s[:i]
	}
	return s
}

// arguments matches the parts of a value to parameters: one part per
// parameter, or a single part (a tuple for several parameters is already
// split) whose values make up the only parameter.
func (r *scriptRun) arguments(what string, parts []scriptPart, params []types.Type) ([][]eval.Value, error) {
	if len(parts) == len(params) {
		out := make([][]eval.Value, len(parts))
		for i, p := range parts {
			out[i] = p.vals
		}
		return out, nil
	}
	if len(params) == 1 {
		var vals []eval.Value
		for _, p := range parts {
			vals = append(vals, p.vals...)
		}
		if len(vals) == len(lower.Flatten(params[0])) {
			return [][]eval.Value{vals}, nil
		}
	}
	return nil, fmt.Errorf("script input: %s has %d components, for %d parameters", what, len(parts), len(params))
}

// eval runs x; want are the types its value should have where that is
// known (a data file's values are read as them).
func (r *scriptRun) eval(x syntax.Expr, want []types.Type) ([]scriptPart, error) {
	switch x := x.(type) {
	case *syntax.ParenExpr:
		return r.eval(x.X, want)
	case *syntax.Var:
		if ld, ok := r.loads[x.Name]; ok && x.Qual == "" {
			return r.load(ld, want)
		}
		if x.Qual == "" && r.entries[x.Name] {
			return r.call(x.Name, nil)
		}
		if x.Qual == "" && !strings.HasPrefix(x.Name, placeholderPrefix) {
			return nil, fmt.Errorf("script input: %s is not an entry point (a script may only call entry points)", x.Name)
		}
	case *syntax.Apply:
		f, ok := x.Fn.(*syntax.Var)
		if !ok || f.Qual != "" || !r.entries[f.Name] {
			return nil, fmt.Errorf("script input: %s is not an entry point (a script may only call entry points)", r.source(x.Fn))
		}
		return r.call(f.Name, x.Args)
	case *syntax.TupleExpr:
		if r.hasCall(x) {
			var parts []scriptPart
			for i, e := range x.Elems {
				var w []types.Type
				if len(want) == len(x.Elems) {
					w = want[i : i+1]
				}
				ps, err := r.eval(e, w)
				if err != nil {
					return nil, err
				}
				parts = append(parts, ps...)
			}
			return parts, nil
		}
	}
	if r.hasCall(x) {
		return nil, fmt.Errorf("script input: %s: only calls of entry points, constants, tuples and $loaddata are supported", r.source(x))
	}
	// A constant: arepl evaluates it like any expression.
	res, err := r.sess.Eval(r.ctx, "script input", r.source(x))
	if err != nil {
		return nil, fmt.Errorf("script input: %v", err)
	}
	return splitResult(res), nil
}

// hasCall reports whether x mentions an entry point or a builtin, which
// the constant evaluation does not see.
func (r *scriptRun) hasCall(x syntax.Expr) bool {
	text := r.source(x)
	for _, w := range identifiers.FindAllString(text, -1) {
		if r.entries[w] || strings.HasPrefix(w, placeholderPrefix) {
			return true
		}
	}
	return false
}

var identifiers = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_']*`)

// call runs entry point fn on the values of args.
func (r *scriptRun) call(fn string, args []syntax.Expr) ([]scriptPart, error) {
	params, _, err := r.sess.ParamTypes(fn)
	if err != nil {
		return nil, fmt.Errorf("script input: %v", err)
	}
	var vals [][]eval.Value
	switch {
	case len(args) == 1 && len(params) > 1:
		// One argument for several parameters: a tuple, unpacked.
		parts, err := r.eval(args[0], params)
		if err != nil {
			return nil, err
		}
		if vals, err = r.arguments("the argument of "+fn, parts, params); err != nil {
			return nil, err
		}
	case len(args) == len(params):
		for i, a := range args {
			parts, err := r.eval(a, params[i:i+1])
			if err != nil {
				return nil, err
			}
			v, err := r.arguments(fmt.Sprintf("argument %d of %s", i+1, fn), parts, params[i:i+1])
			if err != nil {
				return nil, err
			}
			vals = append(vals, v[0])
		}
	default:
		return nil, fmt.Errorf("script input: %s takes %d arguments, given %d", fn, len(params), len(args))
	}
	res, err := r.sess.Call(r.ctx, fn, vals)
	if err != nil {
		return nil, fmt.Errorf("script input: %s: %v", fn, err)
	}
	return splitResult(res), nil
}

// load reads a $loaddata or $loadbytes file.
func (r *scriptRun) load(ld load, want []types.Type) ([]scriptPart, error) {
	if ld.bytes {
		raw, err := loadFile(r.ctx, r.dir, ld.path)
		if err != nil {
			return nil, fmt.Errorf("script input: $loadbytes: %v", err)
		}
		t := &types.Array{Elem: types.Prim{T: u8}, Dims: []types.Dim{{Const: int64(len(raw))}}}
		v := eval.Value{Elem: u8, Shape: []int64{int64(len(raw))}, Data: append([]uint8(nil), raw...)}
		return []scriptPart{{t: t, vals: []eval.Value{v}}}, nil
	}
	if want == nil {
		return nil, fmt.Errorf("script input: $loaddata %q: the types of its values are not known here (pass it to an entry point)", ld.path)
	}
	vals, err := readDataFile(r.ctx, r.dir, ld.path, want)
	if err != nil {
		return nil, fmt.Errorf("script input: $loaddata: %v", err)
	}
	parts := make([]scriptPart, len(vals))
	for i, v := range vals {
		parts[i] = scriptPart{t: want[i], vals: v}
	}
	return parts, nil
}

// splitResult is a result as parts: a tuple's components (not a
// record's), or the one value.
func splitResult(res *eval.Result) []scriptPart {
	tup, ok := res.Type.(*types.Tuple)
	if !ok || tup.Names != nil || len(tup.Elems) == 0 {
		return []scriptPart{{t: res.Type, vals: res.Values}}
	}
	parts := make([]scriptPart, len(tup.Elems))
	off := 0
	for i, e := range tup.Elems {
		n := len(lower.Flatten(e))
		if off+n > len(res.Values) {
			return []scriptPart{{t: res.Type, vals: res.Values}}
		}
		parts[i] = scriptPart{t: e, vals: res.Values[off : off+n]}
		off += n
	}
	return parts
}

// source is the text of x in the script.
func (r *scriptRun) source(x syntax.Expr) string {
	sp := x.Span()
	a, b := offsetOf(r.text, sp.Start), offsetOf(r.text, sp.End)
	if a < 0 || b < a {
		return r.text
	}
	return r.text[a:b]
}

// offsetOf turns a 1-based line and column into a byte offset of text.
func offsetOf(text string, p source.Pos) int {
	if !p.IsValid() {
		return -1
	}
	off := 0
	for line := 1; line < p.Line; line++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	off += p.Col - 1
	if off > len(text) {
		return len(text)
	}
	return off
}
