-- Empty input gives k copies of the neutral element; zero buckets give an empty array.
-- ==
-- input { 3i64 empty([0]i64) } output { [-7i32, -7i32, -7i32] }
-- input { 0i64 [0i64, 1i64] } output { empty([0]i32) }
entry main (k: i64) (is: []i64) : []i32 = hist i32.min (-7) k is (map i32.i64 is)
