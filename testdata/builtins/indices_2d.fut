-- indices of a matrix counts its rows.
-- ==
-- input { [[1i32], [2i32], [3i32]] } output { [0i64, 1i64, 2i64] }
entry main (a: [][]i32) : []i64 = indices a
