-- `a with [i] = v` is an expression giving the updated array.
-- ==
-- input { [1.0f32, 2.0f32] 1i64 } output { [1.0f32, 0.5f32] }
-- input { [1.0f32, 2.0f32] -1i64 } error: Index \[.*\] out of bounds
entry main (xs: *[]f32) (i: i64) : []f32 = xs with [i] = 0.5
