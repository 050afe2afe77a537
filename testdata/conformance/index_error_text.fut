-- Futhark's text for an index out of bounds, in two dimensions.
-- ==
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 2i64 1i64 } error: Index \[2, 1\] out of bounds for array of shape \[2\]\[3\]
entry main (a: [][]i32) (i: i64) (j: i64) : i32 = a[i, j]
