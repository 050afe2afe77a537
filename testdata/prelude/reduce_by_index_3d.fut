-- reduce_by_index_3d combines values into the bins of a 3-d array.
-- ==
-- input { [0i64, 0i64, 1i64] [0i64, 0i64, 0i64] [1i64, 1i64, 0i64] [4i32, 2i32, 9i32] } output { [[[0i32, 4i32]], [[9i32, 0i32]]] }
entry main (is: []i64) (js: []i64) (ks: []i64) (vs: []i32) : [][][]i32 =
  reduce_by_index_3d (replicate 2 (replicate 1 (replicate 2 0))) i32.max 0 (zip3 is js ks) vs
