-- a..<b counts up from a, excluding b.
-- ==
-- input { 0i64 5i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 3i64 3i64 } output { empty([0]i64) }
-- input { 5i64 3i64 } error: Range 5..<3 is invalid
entry main (a: i64) (b: i64) : []i64 = a..<b
