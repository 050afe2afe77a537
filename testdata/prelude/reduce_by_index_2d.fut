-- reduce_by_index_2d combines values into the bins of a matrix.
-- ==
-- input { [0i64, 0i64, 1i64, 5i64] [1i64, 1i64, 0i64, 0i64] [1i32, 2i32, 3i32, 100i32] } output { [[0i32, 3i32], [3i32, 0i32]] }
entry main (is: []i64) (js: []i64) (vs: []i32) : [][]i32 =
  reduce_by_index_2d (replicate 2 (replicate 2 0)) (+) 0 (zip is js) vs
