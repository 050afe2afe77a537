-- A slice reaching past the end is an error.
-- ==
-- input { [1i32, 2i32, 3i32] 3i64 } output { [1i32, 2i32, 3i32] }
-- input { [1i32, 2i32, 3i32] 4i64 } error: out of bounds
entry main (xs: []i32) (n: i64) : []i32 = xs[0:n]
