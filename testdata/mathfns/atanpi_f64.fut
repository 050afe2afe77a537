-- f64.atanpi (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 1.0f64 } output { 0.25f64 }
-- input { -1.0f64 } output { -0.25f64 }
entry main (x: f64) : f64 = f64.atanpi x
