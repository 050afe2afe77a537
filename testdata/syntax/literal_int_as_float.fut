-- An unsuffixed integer literal may have a float type when the context says so.
-- ==
-- input { 2.5f32 [1.0f64, 2.0f64] } output { 3.5f32 [2.0f64, 4.0f64] 0.0f64 }
entry main (x: f32) (ys: []f64) : (f32, []f64, f64) =
  (x + 1, map (* 2) ys, reduce f64.min 0 ys)
