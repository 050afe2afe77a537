-- f64.tanpi (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 0.25f64 } output { 0.9999999999999999f64 }
-- input { -0.25f64 } output { -0.9999999999999999f64 }
entry main (x: f64) : f64 = f64.tanpi x
