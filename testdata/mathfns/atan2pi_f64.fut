-- f64.atan2pi (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f64 1.0f64 } output { 0.25f64 }
-- input { 1.0f64 -1.0f64 } output { 0.75f64 }
-- input { 0.0f64 1.0f64 } output { 0.0f64 }
entry main (a: f64) (b: f64) : f64 = f64.atan2pi a b
