-- f64.copysign (issue 17: the numeric modules' members).
-- ==
-- input { 2.0f64 -1.0f64 } output { -2.0f64 }
-- input { -3.0f64 1.0f64 } output { 3.0f64 }
-- input { 1.5f64 0.0f64 } output { 1.5f64 }
entry main (a: f64) (b: f64) : f64 = f64.copysign a b
