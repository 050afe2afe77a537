-- One bucket: hist is a reduction of the in-range elements.
-- ==
-- input { [0i64, 0i64, 1i64, -1i64, 0i64] [1.5f32, 2.5f32, 100.0f32, 100.0f32, -1.0f32] } output { [3.0f32] }
-- input { empty([0]i64) empty([0]f32) } output { [0.0f32] }
entry main (is: []i64) (vs: []f32) : []f32 = hist (+) 0.0 1 is vs
