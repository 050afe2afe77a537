-- f32.to_bits gives the IEEE 754 bits: signs, zero, infinities, NaN,
-- subnormals and normals; from_bits inverts it.
-- ==
-- input { [1f32, -2.5f32, 0f32, -0f32, f32.inf, -f32.inf, 1e-45f32, 1.1754944e-38f32, 3.4028235e38f32, 0.1f32] }
-- output { [1065353216u32, 3223322624u32, 0u32, 2147483648u32, 2139095040u32, 4286578688u32, 1u32, 8388608u32, 2139095039u32, 1036831949u32] }
entry main (xs: []f32) : []u32 = map f32.to_bits xs
