package core

import (
	"math"
	"strconv"
)

// IEEE 754 binary16 (Futhark's f16): 1 sign bit, 5 exponent bits (bias 15)
// and 10 fraction bits. Every backend computes an f16 operation in float32
// and rounds the result to binary16 with these two conversions, as
// Futhark's C backend does where the hardware has no half arithmetic. For
// + - * / and sqrt that is exact (correctly rounded): float32's 24-bit
// significand is more than 2*11+2 bits, so rounding twice never differs
// from rounding once. The conversions are written here, not taken from a
// library, because core is the one package every layer may import.

// HalfBits returns the binary16 bits of f rounded to the nearest half,
// ties to even. Rounding straight from float64 (not through float32)
// keeps a decimal literal such as 1.3333333333333f16 from rounding twice.
// A NaN stays a quiet NaN with the top bits of its payload.
func HalfBits(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	switch {
	case exp == 0x7ff && mant != 0:
		return sign | 0x7e00 | uint16(mant>>42)
	case exp == 0x7ff:
		return sign | 0x7c00
	case exp == 0: // zero or an f64 subnormal, far below half's range
		return sign
	}
	e := exp - 1023
	if e > 15 {
		return sign | 0x7c00
	}
	m := mant | 1<<52
	eh := max(e, -14)
	s := uint(42 + eh - e) // m * 2^(e-52) in units of 2^(eh-10)
	if s > 60 {
		return sign
	}
	q := m >> s
	rem, halfway := m&(1<<s-1), uint64(1)<<(s-1)
	if rem > halfway || rem == halfway && q&1 == 1 {
		q++
	}
	// For a normal result q includes the implicit bit (1<<10), which adds
	// one to the exponent field; a carry out of the fraction (q == 2048)
	// moves to the next binade and, past 65504, to inf (0x7c00).
	return sign | uint16(eh+14)<<10 + uint16(q)
}

// HalfFloat returns the value of the binary16 bits h, exactly.
func HalfFloat(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0: // zero or subnormal: mant * 2^-24
		v := float32(mant) * (1.0 / (1 << 24))
		return math.Float32frombits(sign | math.Float32bits(v))
	case 0x1f: // inf or NaN, payload kept
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// RoundHalf rounds f to the nearest binary16 value (ties to even).
func RoundHalf(f float64) float64 { return float64(HalfFloat(HalfBits(f))) }

// RoundHalf32 rounds f to the nearest binary16 value (ties to even),
// on float32's bits: it is what every f16 operation of the CPU backend
// ends with, so it avoids the trip through float64 and uint16.
func RoundHalf32(f float32) float32 {
	b := math.Float32bits(f)
	sign, a := b&0x80000000, b&0x7fffffff
	switch {
	case a >= 0x7f800000: // inf, NaN
		return f
	case a >= 0x477ff000: // 65520 and above round to inf (65520 is a tie, to even)
		return math.Float32frombits(sign | 0x7f800000)
	case a >= 0x38800000: // a normal half: keep 10 of the 23 fraction bits
		a += 0xfff + (a>>13)&1
		return math.Float32frombits(sign | a&^0x1fff)
	}
	// A subnormal half is a multiple of 2^-24, the spacing of float32 in
	// [0.5, 1): the float32 addition rounds to it, ties to even, and the
	// subtraction is exact.
	v := math.Float32frombits(a)
	v = (v + 0.5) - 0.5
	return math.Float32frombits(sign | math.Float32bits(v))
}

// FormatHalf is the shortest decimal text ('g' format) that reads back as
// the half f: 0.1f16 prints as 0.1, not as its exact value 0.0999755859375.
// Integers (every half from 2048 up is one) print exactly: 65504, not the
// 65500 that would also read back.
func FormatHalf(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e7 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	h := HalfBits(f)
	for prec := 1; prec < 17; prec++ {
		s := strconv.FormatFloat(f, 'g', prec, 64)
		if v, err := strconv.ParseFloat(s, 64); err == nil && HalfBits(v) == h {
			return strconv.FormatFloat(v, 'g', -1, 64) // 65500, not 6.55e+04
		}
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
