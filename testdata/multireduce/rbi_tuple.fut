-- reduce_by_index with a tuple operator into an array of tuples.
-- ==
-- input { [0i32, 0i32] [1i32, 1i32] [0i64, 1i64, 1i64, 7i64] [3i32, 4i32, 5i32, 6i32] } output { [3i32, 9i32] [3i32, 20i32] }
entry main (ds: *[]i32) (ps: *[]i32) (is: []i64) (vs: []i32) : ([]i32, []i32) =
  unzip (reduce_by_index (zip ds ps) (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) is (zip vs vs))
