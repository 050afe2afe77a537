-- f32.from_bits builds the float of given bits: normals, subnormals,
-- zeros of both signs and infinities.
-- ==
-- input { [1065353216u32, 3223322624u32, 1u32, 2147483648u32, 2139095040u32, 4286578688u32, 8388607u32] }
-- output { [1f32, -2.5f32, 1e-45f32, -0f32, f32.inf, -f32.inf, 1.1754942e-38f32] [false, true, false, true, false, true, false] }
entry main (bs: []u32) : ([]f32, []bool) =
  let fs = map f32.from_bits bs
  in (fs, map (\f -> f32.get_bit 31 f == 1) fs)
