package syntax

import "strings"

// Exhaustiveness of match expressions. Futhark rejects a match whose cases
// leave some value unmatched ("Unmatched cases in match expression"), and
// the expansion in match.go relies on it: its last case is taken without
// a test. The constructors are tuples and records (one constructor each,
// complete as soon as one case destructures them), true and false
// (complete when both appear), numbers and characters (never complete:
// some other value always remains), and a sum type's constructors
// (complete when all appear: missingWith in sums.go, which needs the
// types and so runs in the checker). unmatched is Maranget's algorithm
// for finding a value no row matches, specialised to these.

// unmatched returns a value that no case matches, as Futhark prints it,
// or "" when the cases are exhaustive.
func unmatched(cases []*mpat) string {
	rows := make([][]*mpat, len(cases))
	for i, c := range cases {
		rows[i] = []*mpat{c}
	}
	w, ok := missing(rows, 1)
	if !ok {
		return ""
	}
	return w[0]
}

// bare strips ascriptions.
func bare(mp *mpat) *mpat {
	for mp.inner != nil {
		mp = mp.inner
	}
	return mp
}

func isWild(mp *mpat) bool { return bare(mp).bind != nil }

func wilds(n int) []*mpat {
	out := make([]*mpat, n)
	for i := range out {
		out[i] = &mpat{bind: &WildPat{}}
	}
	return out
}

// missing returns a vector of n values that no row of rows matches, and
// whether there is one.
func missing(rows [][]*mpat, n int) ([]string, bool) { return missingWith(rows, n, nil) }

// missing1 is missing for a column without constructors; sigs is passed on
// to the columns below (sums.go).
func missing1(rows [][]*mpat, n int, sigs func(Expr) []ConSig) ([]string, bool) {
	if n == 0 {
		return nil, len(rows) == 0
	}
	var tuple, record *mpat
	bools := map[bool]bool{}
	for _, r := range rows {
		h := bare(r[0])
		switch {
		case h.tuple:
			tuple = h
		case h.record:
			record = h
		case h.lit != nil:
			if b, ok := h.lit.(*BoolLit); ok {
				bools[b.Value] = true
			}
		}
	}
	rest := func(r []*mpat) []*mpat { return r[1:] }
	switch {
	case tuple != nil:
		k := len(tuple.elems)
		var spec [][]*mpat
		for _, r := range rows {
			h := bare(r[0])
			if h.tuple {
				spec = append(spec, append(append([]*mpat{}, h.elems...), rest(r)...))
			} else if isWild(h) {
				spec = append(spec, append(wilds(k), rest(r)...))
			}
		}
		w, ok := missingWith(spec, k+n-1, sigs)
		if !ok {
			return nil, false
		}
		return append([]string{"(" + strings.Join(w[:k], ", ") + ")"}, w[k:]...), true
	case record != nil:
		names := make([]string, len(record.fields))
		for i, f := range record.fields {
			names[i] = f.name
		}
		var spec [][]*mpat
		for _, r := range rows {
			h := bare(r[0])
			if h.record {
				args := wilds(len(names))
				for _, f := range h.fields {
					for i, name := range names {
						if f.name == name {
							args[i] = f.pat
						}
					}
				}
				spec = append(spec, append(args, rest(r)...))
			} else if isWild(h) {
				spec = append(spec, append(wilds(len(names)), rest(r)...))
			}
		}
		w, ok := missingWith(spec, len(names)+n-1, sigs)
		if !ok {
			return nil, false
		}
		fs := make([]string, len(names))
		for i, name := range names {
			fs[i] = name + "=" + w[i]
		}
		return append([]string{"{" + strings.Join(fs, ", ") + "}"}, w[len(names):]...), true
	case bools[true] && bools[false]:
		for _, b := range []bool{false, true} {
			var spec [][]*mpat
			for _, r := range rows {
				h := bare(r[0])
				if lit, ok := h.lit.(*BoolLit); ok && lit.Value == b || isWild(h) {
					spec = append(spec, rest(r))
				}
			}
			if w, ok := missingWith(spec, n-1, sigs); ok {
				return append([]string{boolText(b)}, w...), true
			}
		}
		return nil, false
	}
	// An incomplete column: what the wildcard rows leave unmatched is
	// unmatched by all, with a value no literal of the column names.
	var def [][]*mpat
	for _, r := range rows {
		if isWild(r[0]) {
			def = append(def, rest(r))
		}
	}
	w, ok := missingWith(def, n-1, sigs)
	if !ok {
		return nil, false
	}
	head := "_"
	if len(bools) == 1 {
		head = boolText(!bools[true])
	}
	return append([]string{head}, w...), true
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
