-- Qualified operator sections such as (i64.+) and (f32.*).
-- ==
-- input { [1i64, 2i64, 3i64] [0.5f32, 4.0f32] } output { 6i64 2.0f32 }
entry main (xs: []i64) (ys: []f32) : (i64, f32) =
  (reduce (i64.+) 0 xs, reduce (f32.*) 1 ys)
