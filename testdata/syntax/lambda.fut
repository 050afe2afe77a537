-- Lambdas with several parameters, bound to a name and passed to map.
-- ==
-- input { 4i32 } output { 43i32 [8i32, 10i32] }
entry main (x: i32) : (i32, []i32) =
  let g = \a b -> a * 10 + b
  in (g x 3, map (\y -> y * 2) [x, x + 1])
