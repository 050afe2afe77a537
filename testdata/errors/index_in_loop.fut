-- An out-of-bounds index inside a loop.
-- ==
-- input { [1i32, 2i32, 3i32] 3i64 } output { 6i32 }
-- input { [1i32, 2i32, 3i32] 4i64 } error: Index \[.*\] out of bounds
entry main (xs: []i32) (n: i64) : i32 = loop s = 0 for i < n do s + xs[i]
