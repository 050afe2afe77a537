-- take and drop split an array at an index (prelude array.fut).
-- ==
-- input { 2i64 [1i32, 2i32, 3i32, 4i32] } output { [1i32, 2i32] [3i32, 4i32] }
-- input { 0i64 [1i32, 2i32] } output { empty([0]i32) [1i32, 2i32] }
-- input { 3i64 [1i32, 2i32, 3i32] } output { [1i32, 2i32, 3i32] empty([0]i32) }
-- input { 4i64 [1i32, 2i32, 3i32] } error: out of bounds
entry main (i: i64) (xs: []i32) : ([]i32, []i32) = (take i xs, drop i xs)
