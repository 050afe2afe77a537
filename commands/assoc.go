package commands

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/arepl/arepl/eval"
	"github.com/arepl/arepl/lang/source"
	"github.com/arepl/arepl/lang/syntax"
	"github.com/arepl/arepl/lang/types"
)

// OperatorWarnings checks the reduce and scan applications of an input
// that succeeded, the way a teacher would at the board: is the operator
// associative on a few sample values, and is the neutral element neutral
// for it? reduce and scan may group the elements in any way (and the GPU
// does), so an operator such as (-) gives results that depend on the
// backend and the input's length. The answers are warnings, not errors:
// the samples prove nothing, and the program ran. Applications whose
// operator or neutral element use names local to the input (lambda
// parameters) are not checked, nor are those of non-primitive types.
func OperatorWarnings(ctx context.Context, s Session, src string) []string {
	if w, ok := operatorMemo.inputs.Load(src); ok {
		return slices.Clone(w.([]string))
	}
	in, err := syntax.ParseInput(source.NewFile("<check>", src))
	if err != nil {
		return nil
	}
	lines := strings.Split(src, "\n")
	var out []string
	seen := map[string]bool{}
	pure := true // every application checked is one operatorMemo may keep
	walkApplies(reflect.ValueOf(in), func(a *syntax.Apply) {
		fn, ok := a.Fn.(*syntax.Var)
		if !ok || fn.Qual != "" || len(a.Args) < 2 {
			return
		}
		switch fn.Name {
		case "reduce", "reduce_comm", "scan":
		default:
			return
		}
		op, ok1 := spanText(lines, a.Args[0].Span())
		ne, ok2 := spanText(lines, a.Args[1].Span())
		if !ok1 || !ok2 || seen[fn.Name+op+ne] {
			return
		}
		seen[fn.Name+op+ne] = true
		if !isBuiltinSection(a.Args[0]) || !isLiteral(a.Args[1]) {
			pure = false
			out = append(out, checkOperator(ctx, s, fn.Name, op, ne)...)
			return
		}
		key := fn.Name + "\x00" + op + "\x00" + ne
		if w, ok := operatorMemo.apps.Load(key); ok {
			out = append(out, w.([]string)...)
			return
		}
		w := checkOperator(ctx, s, fn.Name, op, ne)
		if ctx.Err() == nil {
			operatorMemo.remember(&operatorMemo.apps, key, w)
		}
		out = append(out, w...)
	})
	if pure && ctx.Err() == nil && len(src) <= maxMemoInput {
		operatorMemo.remember(&operatorMemo.inputs, src, slices.Clone(out))
	}
	return out
}

// operatorMemo remembers the warnings of applications whose operator is a
// builtin operator's section, such as (+) or (*), and whose neutral element
// is a literal (apps), and those of whole inputs with no other applications
// of reduce or scan (inputs). What the check finds for them depends on their
// text alone: an unqualified section names the builtin operator whatever the
// session declares (the checker looks it up in its own operator table, never
// in the environment), a literal is itself, and which applications an input
// has is a matter of its syntax. So a notebook cell or REPL line that reduces
// with (+) 0 is checked once per process, and when repeated is not even
// parsed again: the check is an evaluation of its own, which cost more than a
// repeated small reduction (bench/RESULTS.md, "Interactive latency", run
// 11). At most maxOperatorMemo entries are kept; later ones are checked every
// time.
var operatorMemo memo

type memo struct {
	apps   sync.Map // "fn\x00op\x00ne" -> []string
	inputs sync.Map // input text -> []string
	n      atomic.Int64
}

const (
	maxOperatorMemo = 1 << 12
	maxMemoInput    = 1 << 10 // bytes of an input kept as a key
)

func (memo *memo) remember(m *sync.Map, key string, w []string) {
	if memo.n.Add(1) <= maxOperatorMemo {
		m.Store(key, w)
	}
}

// isBuiltinSection reports whether x is an unqualified operator section.
func isBuiltinSection(x syntax.Expr) bool {
	o, ok := x.(*syntax.OpSection)
	return ok && o.Qual == ""
}

// isLiteral reports whether x is a literal number or boolean, negated or
// in parentheses.
func isLiteral(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit:
		return true
	case *syntax.Negate:
		return isLiteral(x.X)
	case *syntax.ParenExpr:
		return isLiteral(x.X)
	}
	return false
}

// samples are the values an operator is tried on, by element type.
func samples(t types.Prim) []string {
	name := t.String()
	switch {
	case name == "bool":
		return []string{"true", "false", "true"}
	case strings.HasPrefix(name, "f"):
		return []string{"0.5" + name, "1.5" + name, "2.25" + name}
	}
	return []string{"3" + name, "7" + name, "12" + name}
}

func checkOperator(ctx context.Context, s Session, fn, op, ne string) []string {
	t, err := s.TypeOf("<check>", "("+ne+")")
	if err != nil {
		return nil
	}
	prim, ok := t.(types.Prim)
	if !ok {
		return nil
	}
	v := samples(prim)
	a, b, c := v[0], v[1], v[2]
	check := fmt.Sprintf("let arepl_op = (%s) in let arepl_ne = (%s) in "+
		"[arepl_op (arepl_op %s %s) %s == arepl_op %s (arepl_op %s %s), arepl_op arepl_ne %s == %s, arepl_op %s arepl_ne == %s]",
		op, ne, a, b, c, a, b, c, a, a, a, a)
	res, err := s.Eval(ctx, "<check>", check)
	if err != nil || res.Type == nil {
		return nil
	}
	text, err := eval.Format(res.Type, res.Values, 0)
	if err != nil {
		return nil
	}
	ok = true
	var out []string
	if strings.HasPrefix(text, "[false") {
		out = append(out, fmt.Sprintf("warning: %s's operator %s is not associative: on %s, %s, %s the two groupings differ; %s may group elements either way, so the result can depend on the backend and the length",
			fn, op, a, b, c, fn))
	}
	if strings.Contains(text, ", false") {
		out = append(out, fmt.Sprintf("warning: %s's neutral element %s is not neutral for %s (combined with %s it does not give %s back); it is combined with the result any number of times",
			fn, ne, op, a, a))
	}
	return out
}

// spanText is the source text of a span of the input.
func spanText(lines []string, sp source.Span) (string, bool) {
	s, e := sp.Start, sp.End
	if !s.IsValid() || !e.IsValid() || s.Line > len(lines) || e.Line > len(lines) {
		return "", false
	}
	if s.Line == e.Line {
		l := lines[s.Line-1]
		if s.Col-1 > len(l) || e.Col-1 > len(l) || s.Col > e.Col {
			return "", false
		}
		return l[s.Col-1 : e.Col-1], true
	}
	var b strings.Builder
	b.WriteString(lines[s.Line-1][min(s.Col-1, len(lines[s.Line-1])):])
	for i := s.Line; i < e.Line-1; i++ {
		b.WriteString("\n" + lines[i])
	}
	last := lines[e.Line-1]
	b.WriteString("\n" + last[:min(e.Col-1, len(last))])
	return b.String(), true
}

// walkApplies calls f on every *syntax.Apply reachable from v. The AST
// is a tree of pointers, slices and interfaces; reflection walks all of it
// without a case per node type.
func walkApplies(v reflect.Value, f func(*syntax.Apply)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if a, ok := v.Interface().(*syntax.Apply); ok {
			f(a)
		}
		walkApplies(v.Elem(), f)
	case reflect.Interface:
		if !v.IsNil() {
			walkApplies(v.Elem(), f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkApplies(v.Field(i), f)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			walkApplies(v.Index(i), f)
		}
	}
}
