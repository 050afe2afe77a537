-- A tuple parameter takes its components from consecutive input values.
-- ==
-- input { 2i32 1.5f32 [1i64, 2i64] } output { 3.0f32 3i64 }
entry main (p: (i32, f32)) (xs: []i64) : (f32, i64) =
  (f32.i32 p.0 * p.1, i64.sum xs)
