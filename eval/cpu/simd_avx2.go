//go:build goexperiment.simd && amd64

package cpu

import (
	"encoding/binary"
	"math/bits"
	"simd/archsimd"
	"unsafe"

	"github.com/arepl/arepl/lang/core"
)

// The AVX2 kernels that are more than one vector operation per element
// (the element-wise ones are generated: gen_simd.go). Each handles whole
// vectors of 8 (4-byte) or 4 (8-byte) lanes and leaves the last lanes to
// the scalar formula, so no kernel reads or writes past its slices.

var simdOn = archsimd.X86.AVX2() && archsimd.X86.FMA()

var simdStatus = func() string {
	if simdOn {
		return "AVX2"
	}
	return "none (the CPU lacks AVX2 or FMA)"
}()

// useSIMD replaces the portable kernels that have AVX2 twins, when the CPU
// has AVX2 and FMA.
func useSIMD() {
	if !simdOn {
		return
	}
	useGeneratedSIMD() // the element-wise kernels (simd_kernels_avx2.go)
	useBitsSIMD()      // shifts, and/or, i8 widening (simd_bits_avx2.go)
	useFusedSIMD()     // fused statements, max/min with a constant (fused_avx2.go)
	selectVec = vSelect
	deinterleaveVec = vDeinterleave
	i32, u32, i64, u64 := core.I32, core.U32, core.I64, core.U64
	for _, t := range []core.PrimType{i32, u32} {
		foldTab[core.Add][t] = vFoldAddI32
		scanTab[core.Add][t] = vScanAddI32
		chainFold2[2][0][t] = vChainFoldMulAddI32
		chainScan2[2][0][t] = vChainScanMulAddI32
	}
	foldTab[core.Min][i32] = vFoldMinI32
	foldTab[core.Max][i32] = vFoldMaxI32
	lexTab[i32] = lexI32{}
	for _, t := range []core.PrimType{i64, u64} {
		foldTab[core.Add][t] = vFoldAddI64
	}
	// The f32 math functions (vmath_avx2.go) are registered here.
	useSIMDMath()
}

// as32 and as64 view a 4- or 8-byte integer column as signed lanes.
func as32(s any) []int32 {
	switch v := s.(type) {
	case []int32:
		return v
	case []uint32:
		return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
	}
	panic("cpu: as32 of a column that is not 4-byte integers")
}

func as64(s any) []int64 {
	switch v := s.(type) {
	case []int64:
		return v
	case []uint64:
		return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
	}
	panic("cpu: as64 of a column that is not 8-byte integers")
}

func bits32(k func(d, x, y []int32) kerr) binK {
	return func(d, x, y any) kerr { return k(as32(d), as32(x), as32(y)) }
}

func bits32VS(k func(d, x []int32, c int32) kerr) binVSK {
	return func(d, x, c any) kerr { return k(as32(d), as32(x), as32(c)[0]) }
}

func bits64(k func(d, x, y []int64) kerr) binK {
	return func(d, x, y any) kerr { return k(as64(d), as64(x), as64(y)) }
}

// ---------------------------------------------------------------------------
// The bool results of comparisons

// spread8[m] is eight bools, lane j set where bit j of m is: the bytes a
// comparison's 8-lane mask stands for.
var spread8 = func() (t [256]uint64) {
	for m := range t {
		for j := 0; j < 8; j++ {
			t[m] |= uint64(m>>j&1) << (8 * j)
		}
	}
	return t
}()

// putBools8 stores the 8 bools of mask m at d[0:8].
func putBools8(d []bool, m uint8) {
	_ = d[7]
	*(*uint64)(unsafe.Pointer(&d[0])) = spread8[m]
}

// putBools4 stores the 4 bools of the low bits of mask m at d[0:4].
func putBools4(d []bool, m uint8) {
	_ = d[3]
	*(*uint32)(unsafe.Pointer(&d[0])) = uint32(spread8[m&15])
}

// ---------------------------------------------------------------------------
// Integer folds, arg-max, select, deinterleave, scans

func vFoldAddI32(acc, x any) {
	a := as32(acc)
	a[0] += sumI32x8(as32(x))
}

func vFoldAddI64(acc, x any) {
	a := as64(acc)
	a[0] += sumI64x4(as64(x))
}

func vFoldMaxI32(acc, x any) {
	a := acc.([]int32)
	a[0] = max(a[0], maxI32x8(x.([]int32)))
}

func vFoldMinI32(acc, x any) {
	a := acc.([]int32)
	a[0] = min(a[0], minI32x8(x.([]int32)))
}

// lexI32 is lexT[int32] with the whole-column passes of an arg-max (the
// extreme of a chunk, then the lanes that hold it) in vector lanes.
type lexI32 struct{ lexT[int32] }

func (l lexI32) extreme(x any, n int, cand []int32, larger bool) any {
	if cand != nil {
		return l.lexT.extreme(x, n, cand, larger)
	}
	xs := x.([]int32)[:n]
	if larger {
		return []int32{maxI32x8(xs)}
	}
	return []int32{minI32x8(xs)}
}

func (l lexI32) equal(x any, n int, cand []int32, v any, buf []int32) []int32 {
	if cand != nil {
		return l.lexT.equal(x, n, cand, v, buf)
	}
	xs, e := x.([]int32)[:n], v.([]int32)[0]
	ev := archsimd.BroadcastInt32x8(e)
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		for m := archsimd.LoadInt32x8Slice(xs[i:]).Equal(ev).ToBits(); m != 0; m &= m - 1 {
			buf = append(buf, int32(i+bits.TrailingZeros8(m)))
		}
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(xs); i++ {
		if xs[i] == e {
			buf = append(buf, int32(i))
		}
	}
	return buf
}

// vSelect is selectAny for 4-byte elements: 8 conditions (bools, one byte
// each) are widened to 8 lanes at a time and blend the two sources.
func vSelect(dst any, cond []bool, a, b any) bool {
	var d, x, y []uint32
	switch dd := dst.(type) {
	case []float32:
		d, x, y = bits32of(dd), bits32of(a.([]float32)), bits32of(b.([]float32))
	case []int32:
		d, x, y = bits32of(dd), bits32of(a.([]int32)), bits32of(b.([]int32))
	case []uint32:
		d, x, y = dd, a.([]uint32), b.([]uint32)
	default:
		return false
	}
	n := len(cond)
	d, x, y = d[:n], x[:n], y[:n]
	cb := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(cond))), n)
	var zero archsimd.Uint32x8
	i := 0
	for ; i+8 <= n; i += 8 {
		c8 := binary.LittleEndian.Uint64(cb[i:])
		isFalse := archsimd.BroadcastUint64x2(c8).AsUint8x16().ExtendLo8ToUint32().Equal(zero)
		archsimd.LoadUint32x8Slice(y[i:]).Merge(archsimd.LoadUint32x8Slice(x[i:]), isFalse).StoreSlice(d[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		if cond[i] {
			d[i] = x[i]
		} else {
			d[i] = y[i]
		}
	}
	return true
}

// vDeinterleave is deinterleave for 4-byte elements (the pairwise tree of
// a general reduction splits every level's columns so): each 16 source
// lanes are permuted into their 8 even and 8 odd ones.
func vDeinterleave(even, odd, src any) bool {
	var e, o, s []uint32
	switch ee := even.(type) {
	case []float32:
		e, o, s = bits32of(ee), bits32of(odd.([]float32)), bits32of(src.([]float32))
	case []int32:
		e, o, s = bits32of(ee), bits32of(odd.([]int32)), bits32of(src.([]int32))
	case []uint32:
		e, o, s = ee, odd.([]uint32), src.([]uint32)
	default:
		return false
	}
	n := len(e)
	o, s = o[:n], s[:2*n]
	split := archsimd.LoadUint32x8(&[8]uint32{0, 2, 4, 6, 1, 3, 5, 7})
	i := 0
	for ; i+8 <= n; i += 8 {
		a := archsimd.LoadUint32x8Slice(s[2*i:]).Permute(split)   // evens 0-3, odds 0-3
		b := archsimd.LoadUint32x8Slice(s[2*i+8:]).Permute(split) // evens 4-7, odds 4-7
		a.Select128FromPair(0, 2, b).StoreSlice(e[i:])
		a.Select128FromPair(1, 3, b).StoreSlice(o[i:])
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		e[i], o[i] = s[2*i], s[2*i+1]
	}
	return true
}

// bits32of views a column of 4-byte elements as their bits.
func bits32of[T float32 | int32](s []T) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// The in-register inclusive prefix sum of 8 lanes: three steps, each adding
// the vector moved up by 1, 2 and 4 lanes (VPERMD, then zeroing the lanes
// that had no predecessor). prefix8 holds the permutations and masks.
type prefix8 struct {
	up1, up2, up4, last archsimd.Uint32x8
	keep1, keep2, keep4 archsimd.Int32x8
}

func newPrefix8() prefix8 {
	return prefix8{
		up1:   archsimd.LoadUint32x8(&[8]uint32{0, 0, 1, 2, 3, 4, 5, 6}),
		up2:   archsimd.LoadUint32x8(&[8]uint32{0, 0, 0, 1, 2, 3, 4, 5}),
		up4:   archsimd.LoadUint32x8(&[8]uint32{0, 0, 0, 0, 0, 1, 2, 3}),
		last:  archsimd.LoadUint32x8(&[8]uint32{7, 7, 7, 7, 7, 7, 7, 7}),
		keep1: archsimd.LoadInt32x8(&[8]int32{0, -1, -1, -1, -1, -1, -1, -1}),
		keep2: archsimd.LoadInt32x8(&[8]int32{0, 0, -1, -1, -1, -1, -1, -1}),
		keep4: archsimd.LoadInt32x8(&[8]int32{0, 0, 0, 0, -1, -1, -1, -1}),
	}
}

// scanI32x8 writes the running sums of v's lanes plus carry to d[0:8] and
// returns the last of them in every lane (the next carry). Wrapping
// addition is associative, so this is the sequential scan's result.
func (p *prefix8) scan(d []int32, v, carry archsimd.Int32x8) archsimd.Int32x8 {
	v = v.Add(v.Permute(p.up1).And(p.keep1))
	v = v.Add(v.Permute(p.up2).And(p.keep2))
	v = v.Add(v.Permute(p.up4).And(p.keep4))
	v = v.Add(carry)
	v.StoreSlice(d)
	return v.Permute(p.last)
}

func vScanAddI32(dst, x, carry any) {
	xs, c := as32(x), as32(carry)
	d := as32(dst)[:len(xs)]
	p := newPrefix8()
	s := archsimd.BroadcastInt32x8(c[0])
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		s = p.scan(d[i:], archsimd.LoadInt32x8Slice(xs[i:]), s)
	}
	archsimd.ClearAVXUpperBits()
	v := c[0]
	if i > 0 {
		v = d[i-1]
	}
	for ; i < len(xs); i++ {
		v += xs[i]
		d[i] = v
	}
	c[0] = v
}

// vChainScanMulAddI32 is csIMulAdd: the scan of x*c1 + c2.
func vChainScanMulAddI32(dst, x, c1, c2, carry any) {
	xs, a, b, c := as32(x), as32(c1)[0], as32(c2)[0], as32(carry)
	d := as32(dst)[:len(xs)]
	p := newPrefix8()
	av, bv := archsimd.BroadcastInt32x8(a), archsimd.BroadcastInt32x8(b)
	s := archsimd.BroadcastInt32x8(c[0])
	i := 0
	for ; i+8 <= len(xs); i += 8 {
		s = p.scan(d[i:], archsimd.LoadInt32x8Slice(xs[i:]).Mul(av).Add(bv), s)
	}
	archsimd.ClearAVXUpperBits()
	v := c[0]
	if i > 0 {
		v = d[i-1]
	}
	for ; i < len(xs); i++ {
		v += xs[i]*a + b
		d[i] = v
	}
	c[0] = v
}

// vChainFoldMulAddI32 is cfIMulAdd: the sum of x*c1 + c2.
func vChainFoldMulAddI32(acc, x, c1, c2 any) {
	xs, a, b := as32(x), as32(c1)[0], as32(c2)[0]
	av, bv := archsimd.BroadcastInt32x8(a), archsimd.BroadcastInt32x8(b)
	var z archsimd.Int32x8
	s0, s1, s2, s3 := z, z, z, z
	i := 0
	for ; i+32 <= len(xs); i += 32 {
		s0 = s0.Add(archsimd.LoadInt32x8Slice(xs[i:]).Mul(av).Add(bv))
		s1 = s1.Add(archsimd.LoadInt32x8Slice(xs[i+8:]).Mul(av).Add(bv))
		s2 = s2.Add(archsimd.LoadInt32x8Slice(xs[i+16:]).Mul(av).Add(bv))
		s3 = s3.Add(archsimd.LoadInt32x8Slice(xs[i+24:]).Mul(av).Add(bv))
	}
	var lanes [8]int32
	s0.Add(s1).Add(s2.Add(s3)).Store(&lanes)
	archsimd.ClearAVXUpperBits()
	sum := sumInt(lanes[:])
	for _, v := range xs[i:] {
		sum += v*a + b
	}
	as32(acc)[0] += sum
}
