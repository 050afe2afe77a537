package gpu

// Host conditions: the launch-uniform conditions of a kernel's fast path,
// evaluated once on the host rather than by every thread.
//
// The vector steps' conditions (vecstep.go: the 32-bit and range checks of
// narrowLoop, alignment, row lengths, clamps' bounds) depend only on the
// launch's sizes, scalars and pointers, but as CUDA text they cost every
// thread a long list of 64-bit compares: with a thread a step that prologue
// outweighed the step (bench/RESULTS.md, h-stencil3). hostEval reads the
// same C text the kernel would run, over the launch's parameter values, so
// that the two cannot disagree; anything outside the small grammar the
// generator writes (identifiers it does not know, unsigned or floating
// arithmetic beyond what is listed, division by zero) makes it answer "not
// proved", and the kernel then takes its device-checked path. A kernel's
// answers are remembered by launch (vecHost.checkCached), so that a loop
// launching it on the same shapes reads the text once.
//
// Grammar: integer literals (LL, L, U suffixes), decimal floats, names,
// parentheses, the casts (i64) (i32) (u64) (double) (f64), unary - and !,
// * / % + - < <= > >= == != & && ||, and min_i64 / max_i64 calls.

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// hval is a value of a host condition: an integer (64-bit, unsigned when
// u) or a double.
type hval struct {
	i     int64
	f     float64
	float bool
	u     bool
}

var errHostCond = errors.New("host condition outside the grammar")

type hostExpr struct {
	s    string
	pos  int
	vars map[string]int64
}

// hostEval evaluates C expression s over vars; ok is false where s is
// outside the grammar.
func hostEval(s string, vars map[string]int64) (v int64, ok bool) {
	p := &hostExpr{s: s, vars: vars}
	r, err := p.binary(0)
	p.space()
	if err != nil || p.pos != len(p.s) || r.float {
		return 0, false
	}
	return r.i, true
}

// hostAll reports whether every condition in conds evaluates to nonzero.
func hostAll(conds []string, vars map[string]int64) bool {
	for _, c := range conds {
		if v, ok := hostEval(c, vars); !ok || v == 0 {
			return false
		}
	}
	return true
}

func (p *hostExpr) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\n' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *hostExpr) peek(tok string) bool {
	p.space()
	return strings.HasPrefix(p.s[p.pos:], tok)
}

// hostBinops is the binary operators by precedence (C's, higher binds
// tighter); longer spellings first so that "<=" is not read as "<".
var hostBinops = []struct {
	tok  string
	prec int
}{
	{"||", 1}, {"&&", 2}, {"==", 5}, {"!=", 5}, {"<=", 6}, {">=", 6},
	{"<", 6}, {">", 6}, {"+", 8}, {"-", 8}, {"*", 9}, {"/", 9}, {"%", 9}, {"&", 4},
}

func (p *hostExpr) binop() (string, int) {
	p.space()
	for _, o := range hostBinops {
		if strings.HasPrefix(p.s[p.pos:], o.tok) {
			if o.tok == "&" && strings.HasPrefix(p.s[p.pos:], "&&") {
				continue
			}
			return o.tok, o.prec
		}
	}
	return "", -1
}

func (p *hostExpr) binary(min int) (hval, error) {
	x, err := p.unary()
	if err != nil {
		return x, err
	}
	for {
		op, prec := p.binop()
		if prec < 0 || prec < min {
			return x, nil
		}
		p.pos += len(op)
		y, err := p.binary(prec + 1)
		if err != nil {
			return x, err
		}
		if x, err = hostApply(op, x, y); err != nil {
			return x, err
		}
	}
}

func b2v(b bool) hval {
	if b {
		return hval{i: 1}
	}
	return hval{}
}

func hostApply(op string, x, y hval) (hval, error) {
	if x.float || y.float {
		if !x.float {
			x = hval{f: float64(x.i), float: true}
		}
		if !y.float {
			y = hval{f: float64(y.i), float: true}
		}
		switch op {
		case "*":
			return hval{f: x.f * y.f, float: true}, nil
		case "+":
			return hval{f: x.f + y.f, float: true}, nil
		case "-":
			return hval{f: x.f - y.f, float: true}, nil
		case "<":
			return b2v(x.f < y.f), nil
		case "<=":
			return b2v(x.f <= y.f), nil
		case ">":
			return b2v(x.f > y.f), nil
		case ">=":
			return b2v(x.f >= y.f), nil
		}
		return x, errHostCond
	}
	switch op {
	case "&&":
		return b2v(x.i != 0 && y.i != 0), nil
	case "||":
		return b2v(x.i != 0 || y.i != 0), nil
	case "&":
		return hval{i: x.i & y.i, u: x.u || y.u}, nil
	case "==":
		return b2v(x.i == y.i), nil
	case "!=":
		return b2v(x.i != y.i), nil
	}
	if x.u || y.u {
		return x, errHostCond // signed arithmetic only below
	}
	switch op {
	case "+":
		return hval{i: x.i + y.i}, nil
	case "-":
		return hval{i: x.i - y.i}, nil
	case "*":
		return hval{i: x.i * y.i}, nil
	case "/", "%":
		if y.i == 0 || x.i == math.MinInt64 && y.i == -1 {
			return x, errHostCond
		}
		if op == "/" {
			return hval{i: x.i / y.i}, nil
		}
		return hval{i: x.i % y.i}, nil
	case "<":
		return b2v(x.i < y.i), nil
	case "<=":
		return b2v(x.i <= y.i), nil
	case ">":
		return b2v(x.i > y.i), nil
	case ">=":
		return b2v(x.i >= y.i), nil
	}
	return x, errHostCond
}

var hostCasts = []string{"(i64)", "(i32)", "(u64)", "(double)", "(f64)"}

func (p *hostExpr) unary() (hval, error) {
	p.space()
	if p.pos >= len(p.s) {
		return hval{}, errHostCond
	}
	for _, c := range hostCasts {
		if strings.HasPrefix(p.s[p.pos:], c) {
			p.pos += len(c)
			x, err := p.unary()
			if err != nil {
				return x, err
			}
			switch c {
			case "(double)", "(f64)":
				if !x.float {
					x = hval{f: float64(x.i), float: true}
				}
				return x, nil
			}
			if x.float {
				return x, errHostCond
			}
			switch c {
			case "(i64)":
				return hval{i: x.i}, nil
			case "(i32)":
				return hval{i: int64(int32(x.i))}, nil
			}
			return hval{i: x.i, u: true}, nil
		}
	}
	switch c := p.s[p.pos]; {
	case c == '(':
		p.pos++
		x, err := p.binary(0)
		if err != nil || !p.peek(")") {
			return x, errHostCond
		}
		p.pos++
		return x, nil
	case c == '-':
		p.pos++
		x, err := p.unary()
		if x.float {
			x.f = -x.f
		} else if x.u {
			return x, errHostCond
		} else {
			x.i = -x.i
		}
		return x, err
	case c == '!':
		p.pos++
		x, err := p.unary()
		if x.float {
			return x, errHostCond
		}
		return b2v(x.i == 0), err
	case c >= '0' && c <= '9':
		return p.number()
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		start := p.pos
		for p.pos < len(p.s) && (p.s[p.pos] == '_' || p.s[p.pos] >= 'a' && p.s[p.pos] <= 'z' || p.s[p.pos] >= 'A' && p.s[p.pos] <= 'Z' || p.s[p.pos] >= '0' && p.s[p.pos] <= '9') {
			p.pos++
		}
		name := p.s[start:p.pos]
		if name == "min_i64" || name == "max_i64" {
			return p.call(name)
		}
		v, ok := p.vars[name]
		if !ok {
			return hval{}, errHostCond
		}
		return hval{i: v}, nil
	}
	return hval{}, errHostCond
}

func (p *hostExpr) call(name string) (hval, error) {
	if !p.peek("(") {
		return hval{}, errHostCond
	}
	p.pos++
	x, err := p.binary(0)
	if err != nil || !p.peek(",") {
		return x, errHostCond
	}
	p.pos++
	y, err := p.binary(0)
	if err != nil || !p.peek(")") || x.float || y.float || x.u || y.u {
		return x, errHostCond
	}
	p.pos++
	if name == "min_i64" {
		return hval{i: min(x.i, y.i)}, nil
	}
	return hval{i: max(x.i, y.i)}, nil
}

func (p *hostExpr) number() (hval, error) {
	start := p.pos
	for p.pos < len(p.s) && (p.s[p.pos] >= '0' && p.s[p.pos] <= '9' || p.s[p.pos] == '.') {
		p.pos++
	}
	text := p.s[start:p.pos]
	if strings.Contains(text, ".") {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return hval{}, errHostCond
		}
		return hval{f: f, float: true}, nil
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return hval{}, errHostCond
	}
	u := false
	for p.pos < len(p.s) && strings.ContainsRune("LlUu", rune(p.s[p.pos])) {
		u = u || p.s[p.pos] == 'U' || p.s[p.pos] == 'u'
		p.pos++
	}
	return hval{i: i, u: u}, nil
}
