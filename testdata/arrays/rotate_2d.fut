-- rotate on a matrix rotates its rows.
-- ==
-- input { [[1i32], [2i32], [3i32]] } output { [[2i32], [3i32], [1i32]] [[3i32], [1i32], [2i32]] }
entry main (a: [][]i32) : ([][]i32, [][]i32) = (rotate 1 a, rotate (-1) a)
