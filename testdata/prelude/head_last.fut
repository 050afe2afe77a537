-- head and last; both fail on an empty array.
-- ==
-- input { [3i64, 1i64, 4i64] } output { 3i64 4i64 }
-- input { [9i64] } output { 9i64 9i64 }
-- input { empty([0]i64) } error: Index \[.*\] out of bounds
entry main (xs: []i64) : (i64, i64) = (head xs, last xs)
