-- f32.nan and f64.nan have Futhark's bits (C's NAN: 0x7fc00000 and
-- 0x7ff8000000000000, not Go's math.NaN() with its payload of 1), and NaN
-- bits read back as NaN.
-- ==
-- input { } output { 2143289344u32 9221120237041090560u64 true true }
entry main : (u32, u64, bool, bool) =
  (f32.to_bits f32.nan, f64.to_bits f64.nan,
   f32.isnan (f32.from_bits 0x7fc00001u32), f64.isnan (f64.from_bits 0xfff8000000000000u64))
