-- A two-dimensional array literal, returned whole and indexed.
-- ==
-- input { 1i32 } output { [[1i32, 2i32], [3i32, 4i32]] 3i32 }
entry main (x: i32) : ([][]i32, i32) =
  let a = [[x, x + 1], [x + 2, x + 3]]
  in (a, a[1, 0])
