-- The redomap paper's Figure 4 (simplified FinPar Interest-Rate Calibration):
-- after horizontal and vertical fusion the whole program is one redomap with
-- two map-out arrays, and iota becomes the index.
entry main (a: f32) (b: f32) (n: i64) =
  let is = map f32.i64 (iota n)
  let x = map (* a) is
  let y = map (* b) x
  let t = map2 (+) x y
  let t0 = reduce_comm (+) 0f32 t
  let t1 = reduce_comm f32.min f32.inf x
  let t2 = reduce_comm f32.max 0f32 y
  let v = map (* a) x
  let w = map (* b) y
  in (t0, t1, t2, v, w)
