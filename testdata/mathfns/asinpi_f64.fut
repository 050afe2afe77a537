-- f64.asinpi (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 1.0f64 } output { 0.5f64 }
-- input { 0.5f64 } output { 0.16666666666666669f64 }
-- input { -1.0f64 } output { -0.5f64 }
entry main (x: f64) : f64 = f64.asinpi x
