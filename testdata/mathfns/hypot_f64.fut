-- f64.hypot (issue 17: the numeric modules' members).
-- ==
-- input { 3.0f64 4.0f64 } output { 5.0f64 }
-- input { 5.0f64 12.0f64 } output { 13.0f64 }
-- input { -1.0f64 0.0f64 } output { 1.0f64 }
entry main (a: f64) (b: f64) : f64 = f64.hypot a b
