-- A size bound by a let and a name of its pattern share one namespace.
-- ==
-- error: Name "w" also bound at 6:7

entry main (xs: []f32) =
  let [w] (w: [w]f32) = xs
  in length w
