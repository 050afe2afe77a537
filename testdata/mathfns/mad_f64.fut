-- f64.mad (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f64 3.0f64 4.0f64 } output { 10.0f64 }
-- input { 0.5f64 0.5f64 -1.0f64 } output { -0.75f64 }
entry main (a: f64) (b: f64) (c: f64) : f64 = f64.mad a b c
