-- f64.ldexp x n is x * 2**n (issue 17).
-- ==
-- input { 3.0f64 4i32 } output { 48.0f64 }
-- input { 1.0f64 -2i32 } output { 0.25f64 }
-- input { -0.5f64 10i32 } output { -512.0f64 }
entry main (x: f64) (n: i32) : f64 = f64.ldexp x n
