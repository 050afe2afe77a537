-- Float get_bit and set_bit work on the IEEE 754 bits, as in Futhark:
-- bit 31 (63) is the sign, and setting an exponent bit scales by a power
-- of two.
-- ==
-- input { 3f32 -0.5f64 }
-- output { 0i32 1i32 -3f32 0.5f64 12f32 [1i32, 0i32, 0i32, 0i32] }
entry main (x: f32) (y: f64) : (i32, i32, f32, f64, f32, []i32) =
  (f32.get_bit 31 x, f64.get_bit 63 y, f32.set_bit 31 x 1, f64.set_bit 63 y 0,
   f32.set_bit 24 x 1, map (\i -> f32.get_bit i 1f32) [29, 30, 22, 0])
