package types

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/core"
)

// Type is a source-level type: what the user wrote and what :type shows.
// Unlike core types, source types keep tuples, arrays of tuples and
// function types.
type Type interface {
	String() string
	isType()
}

// Prim is a primitive type.
type Prim struct{ T core.PrimType }

// Array is an array of Elem with one Dim per dimension (outermost first).
// Elem is never itself an Array: `[][]i32` is one Array with two Dims.
type Array struct {
	Elem Type // Prim or Tuple (or a type variable during inference)
	Dims []Dim
}

// Dim is one dimension of an array type: a size variable (`[n]`), a
// constant (`[3]`), or unknown (`[]`, Name "" and Const < 0).
type Dim struct {
	Name  string
	Const int64
}

// AnyDim is the unknown dimension `[]`.
var AnyDim = Dim{Const: -1}

func (d Dim) String() string {
	switch {
	case d.Name != "":
		return "[" + d.Name + "]"
	case d.Const >= 0:
		return fmt.Sprintf("[%d]", d.Const)
	}
	return "[]"
}

// Tuple is a tuple type; the empty tuple is the unit type `()`. A record
// is a Tuple with Names: its fields in Futhark's order (sorted by name),
// so that everything after the checker treats records as tuples.
type Tuple struct {
	Elems []Type
	Names []string
}

// FieldIndex is the position of a record's field, or -1.
func (t *Tuple) FieldIndex(name string) int {
	for i, n := range t.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// Arrow is the function type `Param -> Ret`.
type Arrow struct {
	Param Type
	Ret   Type
}

func (Prim) isType()   {}
func (*Array) isType() {}
func (*Tuple) isType() {}
func (*Arrow) isType() {}

func (p Prim) String() string { return p.T.String() }

func (a *Array) String() string {
	var b strings.Builder
	for _, d := range a.Dims {
		b.WriteString(d.String())
	}
	b.WriteString(a.Elem.String())
	return b.String()
}

func (t *Tuple) String() string {
	if IsSum(t) {
		return sumString(t)
	}
	parts := make([]string, len(t.Elems))
	for i, e := range t.Elems {
		parts[i] = e.String()
		if t.Names != nil {
			parts[i] = t.Names[i] + ": " + parts[i]
		}
	}
	if t.Names != nil {
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func (a *Arrow) String() string {
	p := a.Param.String()
	if _, ok := a.Param.(*Arrow); ok {
		p = "(" + p + ")"
	}
	return p + " -> " + a.Ret.String()
}
