-- A size parameter used to build arrays.
-- ==
-- input { [3.0f64, 4.0f64, 5.0f64] } output { [0.0f64, 4.0f64, 10.0f64] }
entry main [n] (xs: [n]f64) : [n]f64 = map2 (\i x -> f64.i64 i * x) (iota n) xs
