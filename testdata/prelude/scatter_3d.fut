-- scatter_3d writes at three-dimensional indices.
-- ==
-- input { [0i64, 1i64] [1i64, 0i64] [0i64, 1i64] [5f32, 6f32] } output { [[[0f32, 0f32], [5f32, 0f32]], [[0f32, 6f32], [0f32, 0f32]]] }
entry main (is: []i64) (js: []i64) (ks: []i64) (vs: []f32) : [][][]f32 =
  scatter_3d (replicate 2 (replicate 2 (replicate 2 0))) (zip3 is js ks) vs
