-- f64.recip (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f64 } output { 0.5f64 }
-- input { -4.0f64 } output { -0.25f64 }
-- input { 0.5f64 } output { 2.0f64 }
entry main (x: f64) : f64 = f64.recip x
