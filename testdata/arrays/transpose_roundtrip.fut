-- transpose twice is the identity; transpose of one row is a column.
-- ==
-- input { [[1i32, 2i32, 3i32]] } output { [[1i32, 2i32, 3i32]] [[1i32], [2i32], [3i32]] }
entry main (a: [][]i32) : ([][]i32, [][]i32) = (transpose (transpose a), transpose a)
