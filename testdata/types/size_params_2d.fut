-- Size parameters of a matrix.
-- ==
-- input { [[1.0f32, 2.0f32, 3.0f32], [4.0f32, 5.0f32, 6.0f32]] } output { 2i64 3i64 }
entry main [n] [m] (xss: [n][m]f32) : (i64, i64) = (n, m)
