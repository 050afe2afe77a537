-- A variable bound to a parameter aliases it: updating it in place
-- consumes the (observed) parameter.
-- ==
-- error: Consuming variable "xs"

entry main (xs: []f32) : []f32 =
  let ys = xs
  let ys[0] = 1f32
  in ys
