package fusion

import (
	"fmt"
	"regexp"

	"github.com/arepl/arepl/lang/core"
	"github.com/arepl/arepl/lang/source"
)

// Plans speak the user's language. The IR names every variable with a
// unique tag ("xs_1", "map_6", "red_11"), which is what passes need and
// what a user never wrote. Before a plan is shown, every tagged name in it
// is replaced by a display name:
//
//   - a statement bound by `let p = e` (or the body of `def f = e`) is
//     named by the names p binds (LetNames, found by the caller in the
//     syntax tree, which this package does not see): `let ys = map f xs`
//     shows as ys;
//   - other SOAC results are described by what and where they are:
//     "the map at 3:9";
//   - `length xs` computed by the IR shows as such;
//   - everything else (parameters, lambda and loop variables) loses its
//     tag: xs_1 shows as xs.
//
// Two IR variables never share a display name: a later one that would is
// told apart with "#2", "#3", so the plan's arrows stay unambiguous.

// LetNames maps the start of a let-bound expression (or a definition's
// body) to the names its pattern binds, in order, as the IR flattens them.
type LetNames map[source.Pos][]string

// tagged matches an IR variable name with its tag ("xs_12", "i_f3").
var tagged = regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9_']*?)_(f?[0-9]+)\b`)

// SetNames chooses the display names of the plan's variables from the
// programs before and after fusion and the let-bindings of the source.
// Text, JSON and SVG show them from then on.
func (p *Plan) SetNames(unfused, fused *core.Program, lets LetNames) {
	n := &namer{named: map[string]string{}, lets: lets}
	for _, prog := range []*core.Program{unfused, fused} {
		if prog == nil {
			continue
		}
		for _, fn := range prog.Funs {
			n.body(fn.Body)
		}
	}
	// Display names in the order the plan mentions the variables, so the
	// first mention keeps the plain name.
	display := map[string]string{}
	used := map[string]bool{}
	for _, s := range p.strings() {
		for _, v := range tagged.FindAllString(s, -1) {
			if _, ok := display[v]; ok {
				continue
			}
			d := n.name(v)
			for i := 2; used[d]; i++ {
				d = fmt.Sprintf("%s#%d", n.name(v), i)
			}
			used[d] = true
			display[v] = d
		}
	}
	p.display = display
}

// namer holds the explicit display names of statement-bound variables.
type namer struct {
	named map[string]string
	lets  LetNames
}

// name is v's display name before telling equal names apart.
func (n *namer) name(v string) string {
	if d, ok := n.named[v]; ok {
		return d
	}
	if m := tagged.FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return v
}

func (n *namer) body(b *core.Body) {
	if b == nil {
		return
	}
	// A let's expression may lower to several statements at its position
	// (a size, an assertion, the SOAC): its names go to the last one whose
	// results match them in number.
	bound := map[source.Pos]int{}
	for i, s := range b.Stmts {
		if names, ok := n.lets[s.Pos]; ok && s.Pos.IsValid() && len(names) == len(s.Pat) {
			bound[s.Pos] = i
		}
	}
	for i, s := range b.Stmts {
		if j, ok := bound[s.Pos]; ok && j == i {
			for k, v := range s.Pat {
				if name := n.lets[s.Pos][k]; name != "_" {
					n.set(v.Name, name)
				}
			}
		} else {
			n.describe(s)
		}
		for _, nb := range nestedBodies(s.Exp) {
			n.body(nb)
		}
	}
}

func (n *namer) set(v, name string) {
	if _, ok := n.named[v]; !ok {
		n.named[v] = name
	}
}

// describe names the results of a statement no let names.
func (n *namer) describe(s *core.Stmt) {
	if e, ok := s.Exp.(*core.SizeExp); ok && len(s.Pat) == 1 {
		what := "length " + n.name(e.Arr.Name)
		if e.Dim > 0 {
			what = fmt.Sprintf("size %d of %s", e.Dim, n.name(e.Arr.Name))
		}
		n.set(s.Pat[0].Name, what)
		return
	}
	kind := kindOfExp(s.Exp)
	switch s.Exp.(type) {
	case *core.LoopExp:
		kind = "loop"
	case *core.IfExp:
		kind = "if"
	case *core.IotaExp:
		kind = "iota"
	case *core.ReplicateExp:
		kind = "replicate"
	default:
		if !producesElements(s.Exp) {
			return
		}
	}
	if !s.Pos.IsValid() {
		return
	}
	what := fmt.Sprintf("the %s at %d:%d", kind, s.Pos.Line, s.Pos.Col)
	for i, v := range s.Pat {
		if len(s.Pat) > 1 {
			n.set(v.Name, fmt.Sprintf("%s (result %d)", what, i+1))
		} else {
			n.set(v.Name, what)
		}
	}
}

// strings lists every text of the plan that may mention a variable, in
// the order the plan shows them.
func (p *Plan) strings() []string {
	var out []string
	kernels := func(ks []Kernel) {
		for _, k := range ks {
			out = append(out, k.Name)
			out = append(out, k.Outputs...)
			out = append(out, k.Width)
			for _, a := range k.Reads {
				out = append(out, a.Name)
			}
			for _, a := range k.Writes {
				out = append(out, a.Name)
			}
		}
	}
	kernels(p.Before)
	kernels(p.After)
	for _, steps := range [][]Step{p.Applied, p.Refused} {
		for _, s := range steps {
			out = append(out, s.Producer, s.Consumer, s.What, s.Note)
		}
	}
	return append(out, p.GPU...)
}

// shown is the plan with display names in place of the IR's, or p itself
// when SetNames was not called (the fusion package's own golden tests).
func (p *Plan) shown() *Plan {
	if p.display == nil {
		return p
	}
	rename := func(s string) string {
		return tagged.ReplaceAllStringFunc(s, func(v string) string {
			if d, ok := p.display[v]; ok {
				return d
			}
			return v
		})
	}
	kernels := func(ks []Kernel) []Kernel {
		out := make([]Kernel, len(ks))
		for i, k := range ks {
			k.Name, k.Width = rename(k.Name), rename(k.Width)
			k.Outputs = renameAll(k.Outputs, rename)
			k.Reads = renameArrays(k.Reads, rename)
			k.Writes = renameArrays(k.Writes, rename)
			out[i] = k
		}
		return out
	}
	steps := func(ss []Step) []Step {
		out := make([]Step, len(ss))
		for i, s := range ss {
			s.Producer, s.Consumer, s.What, s.Note = rename(s.Producer), rename(s.Consumer), rename(s.What), rename(s.Note)
			out[i] = s
		}
		return out
	}
	return &Plan{Before: kernels(p.Before), After: kernels(p.After), Applied: steps(p.Applied),
		Refused: steps(p.Refused), GPU: renameAll(p.GPU, func(l string) string { return samePlace(rename(l)) })}
}

// gpuPlace is a gpu line's position and a description of the same place
// that follows it: "f.fut:3:9 the map at 3:9: ...".
var gpuPlace = regexp.MustCompile(`^(\S*:(\d+):(\d+) the [a-z ]+?) at (\d+):(\d+)\b`)

// samePlace drops the description's position where the line's own
// position says it already: "f.fut:3:9 the map: ...".
func samePlace(l string) string {
	m := gpuPlace.FindStringSubmatchIndex(l)
	if m == nil || l[m[4]:m[5]] != l[m[8]:m[9]] || l[m[6]:m[7]] != l[m[10]:m[11]] {
		return l
	}
	return l[:m[3]] + l[m[1]:]
}

func renameAll(ss []string, rename func(string) string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = rename(s)
	}
	return out
}

func renameArrays(as []Array, rename func(string) string) []Array {
	if as == nil {
		return nil
	}
	out := make([]Array, len(as))
	for i, a := range as {
		a.Name = rename(a.Name)
		out[i] = a
	}
	return out
}

// DisplayName is the name a plan shows for the IR variable v (v itself
// when the plan has no display names or never mentions v).
func (p *Plan) DisplayName(v string) string {
	if d, ok := p.display[v]; ok {
		return d
	}
	return v
}
