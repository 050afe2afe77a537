package cpu

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/arepl/arepl/lang/core"
)

// If-conversion. An if inside a lambda whose branches only compute
// scalars with operations that cannot fail (no integer division, no
// negative exponent, no indexing) is run as both branches over every lane
// followed by a per-lane select, instead of splitting the lanes into two
// selection frames. That keeps operators such as `if x < y then y else x`
// (a max written by hand) and argmax's nested comparisons as straight
// typed loops: splitting a chunk per comparison costs far more than
// computing a few cheap values twice.

// speculable reports whether b can run on lanes that did not take its
// branch: its statements are scalar, have no effects and cannot fail.
func speculable(b *core.Body) bool {
	for _, s := range b.Stmts {
		for _, v := range s.Pat {
			if v.Type.Rank > 0 {
				return false
			}
		}
		switch e := s.Exp.(type) {
		case *core.AtomExp, *core.ConvExp, *core.UnOpExp:
		case *core.BinOpExp:
			if e.T.IsInt() {
				switch e.Op {
				case core.Div, core.Mod, core.Quot, core.Rem, core.Pow:
					return false
				}
			}
		case *core.IfExp:
			if !speculable(e.Then) || !speculable(e.Else) {
				return false
			}
		default:
			return false
		}
	}
	for _, a := range b.Result {
		if a.AtomType().Rank > 0 {
			return false
		}
	}
	return true
}

// selectIf runs both branches of e over all lanes and selects per lane.
func (f *frame) selectIf(s *core.Stmt, e *core.IfExp, cond []bool) error {
	then, err := f.body(e.Then)
	if err != nil {
		return err
	}
	els, err := f.body(e.Else)
	if err != nil {
		return err
	}
	outs := make([]col, len(s.Pat))
	for j, p := range s.Pat {
		d := f.alloc(p.Type.Elem, f.n)
		selectAny(d, cond[:f.n], then[j].data, els[j].data)
		outs[j] = col{data: d}
	}
	f.bind(s.Pat, outs)
	return nil
}

func selectInto[T any](dst []T, cond []bool, a, b any) {
	x, y := a.([]T), b.([]T)
	for i, c := range cond {
		if c {
			dst[i] = x[i]
		} else {
			dst[i] = y[i]
		}
	}
}

// selectBools is selectInto for bools, 8 lanes a word: a Go bool is the
// byte 0 or 1, so a word of conditions times 0xff is the lanes' byte masks
// (no byte carries into the next). Speculated ifs make bools this way
// (a while loop's `c && d` is `if c then d else false`), one per iteration
// of a masked loop.
func selectBools(dst, cond, a, b []bool) {
	n := len(cond)
	dst, a, b = dst[:n], a[:n], b[:n]
	d, c, x, y := boolBytes(dst), boolBytes(cond), boolBytes(a), boolBytes(b)
	i := 0
	for ; i+8 <= n; i += 8 {
		m := binary.LittleEndian.Uint64(c[i:]) * 0xff
		binary.LittleEndian.PutUint64(d[i:], binary.LittleEndian.Uint64(x[i:])&m|binary.LittleEndian.Uint64(y[i:])&^m)
	}
	for ; i < n; i++ {
		if cond[i] {
			dst[i] = a[i]
		} else {
			dst[i] = b[i]
		}
	}
}

// boolBytes is the memory of b as bytes (each 0 or 1).
func boolBytes(b []bool) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}

// selectVec, when the build has vector kernels (simd_*.go), does
// selectAny's work for the element types it handles, reporting whether it
// did.
var selectVec func(dst any, cond []bool, a, b any) bool

// selectAny sets dst[i] to a[i] where cond[i] holds and to b[i] elsewhere.
func selectAny(dst any, cond []bool, a, b any) {
	if selectVec != nil && selectVec(dst, cond, a, b) {
		return
	}
	switch d := dst.(type) {
	case []bool:
		selectBools(d, cond, a.([]bool), b.([]bool))
	case []int8:
		selectInto(d, cond, a, b)
	case []int16:
		selectInto(d, cond, a, b)
	case []int32:
		selectInto(d, cond, a, b)
	case []int64:
		selectInto(d, cond, a, b)
	case []uint8:
		selectInto(d, cond, a, b)
	case []uint16:
		selectInto(d, cond, a, b)
	case []uint32:
		selectInto(d, cond, a, b)
	case []uint64:
		selectInto(d, cond, a, b)
	case []float32:
		selectInto(d, cond, a, b)
	case []float64:
		selectInto(d, cond, a, b)
	default:
		panic(fmt.Sprintf("cpu: selectAny of %T", d))
	}
}
