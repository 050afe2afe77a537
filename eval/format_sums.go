package eval

import (
	"fmt"
	"strings"

	"github.com/arepl/arepl/lang/types"
)

// sum prints a value of a sum type as Futhark does, `#some 3`: its
// representation is the tag and every constructor's payload
// (lang/types/sums.go), of which only the tag's constructor is shown.
func (p *printer) sum(t *types.Tuple, vs []Value, summarising bool) error {
	tags, ok := vs[0].Data.([]uint8)
	if !ok || len(tags) == 0 {
		return fmt.Errorf("internal error: the tag of a value of type %s is not a u8", t)
	}
	k := int(tags[0]) + 1
	if k >= len(t.Elems) {
		return fmt.Errorf("internal error: tag %d of a value of type %s", tags[0], t)
	}
	off := 0
	for i := 0; i < k; i++ {
		off += leafCount(t.Elems[i])
	}
	vs = vs[off:]
	p.b.WriteString(t.Names[k])
	payload, _ := t.Elems[k].(*types.Tuple)
	if payload == nil {
		return nil
	}
	for _, e := range payload.Elems {
		p.b.WriteByte(' ')
		n := leafCount(e)
		sub := printer{style: p.style, limit: p.limit, edge: p.edge}
		if err := sub.value(e, vs[:n], summarising); err != nil {
			return err
		}
		vs = vs[n:]
		// A payload that is itself a constructor with arguments, or a
		// negative number, is parenthesised to read back as one.
		if s := sub.b.String(); strings.ContainsAny(s, " -") && !strings.ContainsAny(s[:1], "([{") {
			p.b.WriteString("(" + s + ")")
		} else {
			p.b.WriteString(s)
		}
	}
	return nil
}

// containsSum reports whether t is or holds a sum type, which value syntax
// cannot write: Futhark makes such an entry point's parameter opaque.
func containsSum(t types.Type) bool {
	switch t := t.(type) {
	case *types.Tuple:
		if types.IsSum(t) {
			return true
		}
		for _, e := range t.Elems {
			if containsSum(e) {
				return true
			}
		}
	case *types.Array:
		return containsSum(t.Elem)
	}
	return false
}
