-- NaN payloads survive to_bits / from_bits, which are bit casts as in
-- Futhark: quiet NaNs of both signs with payloads, as scalars and in arrays,
-- an f64 signalling NaN, and set_bit / get_bit on a NaN's payload bits.
-- ==
-- input { 4290772993u32 [2143363909u32, 4290772993u32, 2147483647u32] [9221120237052349935u64, 18442240474082181121u64] }
-- output { 4290772993u32 [2143363909u32, 4290772993u32, 2147483647u32] [9221120237052349935u64, 18442240474082181121u64] 2143289345u32 0i32 1i32 true }
entry main (c: u32) (bs: []u32) (ds: []u64) : (u32, []u32, []u64, u32, i32, i32, bool) =
  let snan = f64.from_bits 18442240474082181121u64
  in (f32.to_bits (f32.from_bits c),
      map (\b -> f32.to_bits (f32.from_bits b)) bs,
      map (\d -> f64.to_bits (f64.from_bits d)) ds,
      f32.to_bits (f32.set_bit 0 f32.nan 1),
      f64.get_bit 51 snan,
      f64.get_bit 0 snan,
      f32.isnan (f32.from_bits 2143363909u32))
