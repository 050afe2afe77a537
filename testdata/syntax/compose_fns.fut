-- A function returned by a function (curried definition) is applied later.
def scale (k: f64) (x: f64) : f64 = k * x

-- ==
-- input { [1.0f64, -2.0f64] } output { [2.5f64, -5.0f64] }
entry main (xs: []f64) : []f64 =
  let f = scale 2.5
  in map f xs
