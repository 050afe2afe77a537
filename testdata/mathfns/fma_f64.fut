-- f64.fma (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f64 3.0f64 4.0f64 } output { 10.0f64 }
-- input { -1.5f64 2.0f64 0.25f64 } output { -2.75f64 }
entry main (a: f64) (b: f64) (c: f64) : f64 = f64.fma a b c
