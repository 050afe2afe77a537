-- Indexing a matrix with one index gives a row.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] 2i64 } output { [5i32, 6i32] }
entry main (a: [][]i32) (i: i64) : []i32 = a[i]
