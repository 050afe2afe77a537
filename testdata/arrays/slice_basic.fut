-- a[i:j] takes elements i up to, not including, j.
-- ==
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] 1i64 3i64 } output { [1i32, 2i32] }
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] 2i64 2i64 } output { empty([0]i32) }
-- input { [0i32, 1i32, 2i32, 3i32, 4i32] 0i64 5i64 } output { [0i32, 1i32, 2i32, 3i32, 4i32] }
-- input { [0i32, 1i32, 2i32] 1i64 5i64 } error: out of bounds
-- input { [0i32, 1i32, 2i32] 2i64 1i64 } error: out of bounds
entry main (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j]
