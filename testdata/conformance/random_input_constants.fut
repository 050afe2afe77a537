-- random input may mix constants with the types (futhark test's
-- documentation: integers with or without a suffix, floats with one).
-- ==
-- random input { [100]f32 3i64 0.5f32 } output { 3i64 }
entry main [n] (xs: [n]f32) (k: i64) (t: f32) : i64 = length (take k xs) + i64.f32 (t - 0.5)
entry other (k: i32) (m: [][]u8) : i64 = i64.i32 k + length m - 10

-- ==
-- entry: other
-- random input { 7 [10][4]u8 } output { 7i64 }
