-- split returns both halves at once.
-- ==
-- input { 1i64 [5f32, 6f32, 7f32] } output { [5f32] [6f32, 7f32] }
-- input { 3i64 [5f32, 6f32, 7f32] } output { [5f32, 6f32, 7f32] empty([0]f32) }
entry main (i: i64) (xs: []f32) : ([]f32, []f32) = split i xs
