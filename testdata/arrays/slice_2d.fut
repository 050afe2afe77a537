-- Slicing matrices: a row range with a fixed column, a column, reversed rows.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] } output { [3i32, 5i32] [2i32, 4i32, 6i32] [[5i32, 6i32], [3i32, 4i32], [1i32, 2i32]] [[4i32], [6i32]] }
entry main (a: [][]i32) : ([]i32, []i32, [][]i32, [][]i32) = (a[1:3, 0], a[:, 1], a[::-1], a[1:, 1:])
