-- An in-place update out of bounds is an error.
-- ==
-- input { [1i32, 2i32] 1i64 } output { [1i32, 0i32] }
-- input { [1i32, 2i32] 2i64 } error: Index \[.*\] out of bounds
-- input { [1i32, 2i32] -3i64 } error: Index \[.*\] out of bounds
entry main (xs: *[]i32) (i: i64) : []i32 = let xs[i] = 0 in xs
