-- Concatenation of matrices joins rows.
-- ==
-- input { [[1i32, 2i32]] [[3i32, 4i32], [5i32, 6i32]] } output { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
entry main (a: [][]i32) (b: [][]i32) : [][]i32 = a ++ b
