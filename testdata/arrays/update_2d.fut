-- In-place updates of one element and of a whole row of a matrix.
-- ==
-- input { [[1i32, 2i32], [3i32, 4i32]] } output { [[7i32, 8i32], [3i32, 0i32]] }
entry main (a: *[][]i32) : [][]i32 =
  let a[1, 1] = 0
  in a with [0] = [7, 8]
