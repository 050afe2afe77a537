-- Indexing, and the out-of-bounds error (negative indices included).
-- ==
-- input { [10i32, 20i32, 30i32] 0i64 } output { 10i32 }
-- input { [10i32, 20i32, 30i32] 2i64 } output { 30i32 }
-- input { [10i32, 20i32, 30i32] 3i64 } error: Index \[.*\] out of bounds
-- input { [10i32, 20i32, 30i32] -1i64 } error: Index \[.*\] out of bounds
-- input { empty([0]i32) 0i64 } error: Index \[.*\] out of bounds
entry main (xs: []i32) (i: i64) : i32 = xs[i]
