-- replicate of a tuple gives an array of tuples.
-- ==
-- input { 3i64 } output { [1i32, 1i32, 1i32] [2.0f32, 2.0f32, 2.0f32] }
entry main (n: i64) : ([]i32, []f32) = unzip (replicate n (1, 2.0))
