// Package fusion is arepl's fusion engine: program-to-program passes over
// the core IR that compose SOACs the way the seeds describe (redomap paper
// §3, scanomap paper §5–6), and a Plan that says what happened and why.
//
// Every SOAC that fusion composes is a core.Screma, so the passes are few:
//
//   - vertical (producer-consumer): a map whose outputs feed a Screma, a
//     Hist, a Scatter or a Filter is moved into the consumer's map lambda
//     (map→map, map→reduce = redomap, map→scan = scanomap, map→redomap,
//     map→hist/scatter/filter). iota and replicate producers become index
//     arithmetic and free values instead of arrays (the redomap paper's
//     normalised iteration space). An intermediate still read after the
//     consumer leaves as a map-out array (redomap paper §3.2). A map after
//     a scan becomes the scan's post-map (map-scan-map fusion).
//   - horizontal: two Scremas over the same width that do not depend on
//     each other and whose results no other SOAC consumes become one:
//     reduce+reduce, scan+scan (scanomap-scanomap), map+redomap, ...
//   - rows: `map (reduce ...)`, `map (scan ...)` and `map (map ...)` over
//     the rows of a matrix become core.Segmented, the regular segmented
//     forms of the segmented-scan thesis.
//
// The don't-fuse cases of the scanomap paper's Figure 3 are checked on
// every candidate; the edges that remain unfused are reported in the Plan
// with the case and its reason. Fusion never duplicates work: a producer
// is only moved when every other reader of its results can read a map-out
// of the fused SOAC instead.
//
// The passes run bottom-up: nested bodies (lambdas, loops, branches) first,
// then rows, then vertical and horizontal fusion to a fixed point.
package fusion

import (
	"fmt"

	"github.com/arepl/arepl/lang/core"
)

// Fuse returns a fused copy of prog and the plan of what was done. prog is
// not modified. An error means an internal inconsistency; the caller can
// run prog unfused.
func Fuse(prog *core.Program) (*core.Program, *Plan, error) {
	return FuseChecked(prog, nil)
}

// FuseChecked is Fuse calling check on the whole program after every
// fusion step, so tests can verify the IR after each pass; the first
// error check returns stops fusion and is returned.
func FuseChecked(prog *core.Program, check func(*core.Program) error) (out *core.Program, plan *Plan, err error) {
	defer func() {
		if r := recover(); r != nil {
			if ce, ok := r.(checkError); ok {
				out, plan, err = nil, nil, ce.err
				return
			}
			out, plan, err = nil, nil, fmt.Errorf("internal error in fusion: %v", r)
		}
	}()
	f := &fuser{plan: &Plan{}, names: map[string]bool{}}
	f.plan.Before = Kernels(prog)
	out = &core.Program{}
	for _, fn := range prog.Funs {
		collectNames(fn.Body, f.names)
		for _, p := range fn.Params {
			f.names[p.Name] = true
		}
		// A private copy of every body, rewritten in place below.
		out.Funs = append(out.Funs, &core.Fun{Name: fn.Name, Params: fn.Params, Ret: fn.Ret,
			Body: subst{}.body(fn.Body), Entry: fn.Entry, Pos: fn.Pos})
	}
	if check != nil {
		f.check = func() {
			if err := check(out); err != nil {
				panic(checkError{fmt.Errorf("after fusion step %d (%s): %w", len(f.plan.Applied), lastStep(f.plan), err)})
			}
		}
	}
	for _, fn := range out.Funs {
		f.fun = fn.Name
		fn.Body = f.fuseBody(fn.Body)
	}
	f.plan.After = Kernels(out)
	return out, f.plan, nil
}

// checkError carries a failed check out of the passes.
type checkError struct{ err error }

func lastStep(p *Plan) string {
	if len(p.Applied) == 0 {
		return "none"
	}
	s := p.Applied[len(p.Applied)-1]
	return s.Kind + " " + s.Producer + " -> " + s.Consumer
}

type fuser struct {
	plan  *Plan
	names map[string]bool
	next  int
	fun   string
	check func() // verifies the program after each step (tests), or nil
}

// fresh returns a new variable named after base, unique in the program.
func (f *fuser) fresh(base string, t core.Type) *core.Var {
	for {
		f.next++
		name := fmt.Sprintf("%s_f%d", base, f.next)
		if !f.names[name] {
			f.names[name] = true
			return &core.Var{Name: name, Type: t}
		}
	}
}

func collectNames(b *core.Body, names map[string]bool) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		for _, v := range s.Pat {
			names[v.Name] = true
		}
		for _, nb := range nestedBodies(s.Exp) {
			collectNames(nb, names)
		}
		switch e := s.Exp.(type) {
		case *core.Screma:
			lambdaNames(names, e.Map, e.Post)
			for _, sc := range e.Scans {
				lambdaNames(names, sc.Lambda)
			}
			for _, r := range e.Reds {
				lambdaNames(names, r.Lambda)
			}
			if e.Index != nil {
				names[e.Index.Name] = true
			}
		case *core.LoopExp:
			for _, p := range e.Params {
				names[p.Name] = true
			}
			if fl := core.ForOf(e.Form); fl != nil {
				names[fl.I.Name] = true
			}
		}
	}
}

func lambdaNames(names map[string]bool, ls ...*core.Lambda) {
	for _, l := range ls {
		if l != nil {
			for _, p := range l.Params {
				names[p.Name] = true
			}
		}
	}
}

// fuseBody fuses one body (already a private copy) and returns it.
func (f *fuser) fuseBody(b *core.Body) *core.Body {
	for _, s := range b.Stmts {
		f.fuseNested(s.Exp)
	}
	f.rows(b)
	f.propagateSizes(b)
	f.stepDone()
	// Horizontal first, as the redomap paper's engine proceeds: merging the
	// consumers of an array before moving its producer into them means the
	// producer moves once, into one SOAC, and needs no map-out.
	for f.horizontal(b) || f.vertical(b) {
		f.stepDone()
	}
	f.refusals(b)
	return b
}

// fuseNested fuses the bodies nested inside exp, in place.
func (f *fuser) fuseNested(exp core.Exp) {
	lam := func(ls ...*core.Lambda) {
		for _, l := range ls {
			if l != nil {
				l.Body = f.fuseBody(l.Body)
			}
		}
	}
	switch e := exp.(type) {
	case *core.IfExp:
		e.Then, e.Else = f.fuseBody(e.Then), f.fuseBody(e.Else)
	case *core.LoopExp:
		e.Body = f.fuseBody(e.Body)
	case *core.Screma:
		lam(e.Map, e.Post)
	case *core.Hist:
		lam(e.Map)
	case *core.Scatter:
		lam(e.Map)
	case *core.Filter:
		lam(e.Map, e.Pred)
	case *core.Segmented:
		lam(e.Op.Map, e.Op.Post)
	}
}

// propagateSizes replaces `length x` of an array x produced in this body
// by the width that produced it, so a size query is not a "use" of the
// array that blocks fusion (and the array need not exist).
func (f *fuser) propagateSizes(b *core.Body) {
	width := map[string]core.Atom{}
	for _, s := range b.Stmts {
		switch e := s.Exp.(type) {
		case *core.Screma:
			for _, v := range widthResults(s.Pat, e) {
				width[v.Name] = e.W
			}
		case *core.IotaExp:
			width[s.Pat[0].Name] = e.N
		case *core.ReplicateExp:
			width[s.Pat[0].Name] = e.N
		case *core.SizeExp:
			if w, ok := width[e.Arr.Name]; ok && e.Dim == 0 && w.AtomType() == core.Scalar(core.I64) {
				s.Exp = &core.AtomExp{A: w}
			}
		}
	}
}

// soacName names a SOAC statement in plans: its first bound variable.
func soacName(s *core.Stmt) string {
	if len(s.Pat) == 0 {
		return "_"
	}
	return s.Pat[0].Name
}
