-- a[i, j] and a[i][j] agree; either index may be out of bounds.
-- ==
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 1i64 2i64 } output { 6i32 6i32 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 0i64 0i64 } output { 1i32 1i32 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 2i64 0i64 } error: Index \[.*\] out of bounds
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 0i64 3i64 } error: Index \[.*\] out of bounds
entry main (a: [][]i32) (i: i64) (j: i64) : (i32, i32) = (a[i, j], a[i][j])
