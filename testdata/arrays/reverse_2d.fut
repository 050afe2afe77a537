-- reverse on a matrix reverses the rows; map reverse reverses each row.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { [[3i32, 4i32], [1i32, 2i32]] [[2i32, 1i32], [4i32, 3i32]] }
entry main (a: [][]i32) : ([][]i32, [][]i32) = (reverse a, map reverse a)
