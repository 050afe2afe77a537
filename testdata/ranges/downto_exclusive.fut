-- a..>b counts down from a, excluding b.
-- ==
-- input { 5i64 0i64 } output { [5i64, 4i64, 3i64, 2i64, 1i64] }
-- input { 0i64 0i64 } output { empty([0]i64) }
-- input { 0i64 5i64 } error: Range 0..>5 is invalid
entry main (a: i64) (b: i64) : []i64 = a..>b
