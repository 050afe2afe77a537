-- length of a matrix is its number of rows.
-- ==
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { 2i64 3i64 }
entry main (a: [][]i32) : (i64, i64) = (length a, length a[0])
