-- An out-of-bounds index inside a map.
-- ==
-- input { [10i32, 20i32] [1i64, 0i64] } output { [20i32, 10i32] }
-- input { [10i32, 20i32] [1i64, 2i64] } error: Index \[.*\] out of bounds
entry main (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i]) is
