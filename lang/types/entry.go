package types

import "github.com/arepl/arepl/lang/syntax"

// entrySizes holds an entry point's size parameters to Futhark's rules:
// each must be given by an argument's shape as a plain size ([n], not only
// inside a size expression such as [n+1]), since the caller passes arrays
// and not sizes; one named only by the result is a size the caller cannot
// supply.
func (c *checker) entrySizes(d *syntax.ValDecl, obj *Object) {
	inParams, inResult := map[string]bool{}, map[string]bool{}
	t := obj.Type
	for {
		a, ok := t.(*Arrow)
		if !ok {
			break
		}
		dimNames(a.Param, inParams)
		t = a.Ret
	}
	dimNames(t, inResult)
	for i := range d.SizeParams {
		sp := &d.SizeParams[i]
		switch {
		case inParams[sp.Name]:
		case inResult[sp.Name]:
			c.errorf(d.NamePos, "Entry point functions must not be size-polymorphic in their return type: size [%s] of %s is in its result only.", sp.Name, d.Name)
			return
		default:
			c.errorf(sp.Pos(), "Entry point size parameter [%s] only used non-constructively: no argument of %s has the size %s.", sp.Name, d.Name, sp.Name)
			return
		}
	}
}

// dimNames adds the size names in a resolved type's dimensions to out.
func dimNames(t Type, out map[string]bool) {
	switch t := t.(type) {
	case *Array:
		for _, d := range t.Dims {
			if d.Name != "" {
				out[d.Name] = true
			}
		}
		dimNames(t.Elem, out)
	case *Tuple:
		for _, e := range t.Elems {
			dimNames(e, out)
		}
	case *Arrow:
		dimNames(t.Param, out)
		dimNames(t.Ret, out)
	}
}
