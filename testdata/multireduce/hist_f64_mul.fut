-- hist with (*) and neutral element 1 on f64.
-- ==
-- input { [0i64, 1i64, 0i64, 1i64] [2.0f64, 3.0f64, 0.5f64, -1.0f64] } output { [1.0f64, -3.0f64, 1.0f64] }
entry main (is: []i64) (vs: []f64) : []f64 = hist (*) 1.0 3 is vs
