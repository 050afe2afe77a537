-- ... but not when the last element taken is past the end.
-- ==
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] 6i64 } error: Index \[3:6:2\] out of bounds
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] 5i64 } output { [3i32] }
entry main (xs: []i32) (j: i64) : []i32 = xs[3:j:2]
