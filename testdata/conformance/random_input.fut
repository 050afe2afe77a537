-- random input generates values of the stated types.
-- ==
-- random input { [100]i32 [100]f32 } output { 100i64 }
-- random input { [0]i32 [0]f32 } output { 0i64 }
entry main (xs: []i32) (ys: []f32) : i64 = length (zip xs ys)
