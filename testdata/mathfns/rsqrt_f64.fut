-- f64.rsqrt (issue 17: the numeric modules' members).
-- ==
-- input { 4.0f64 } output { 0.5f64 }
-- input { 16.0f64 } output { 0.25f64 }
-- input { 2.0f64 } output { 0.7071067811865475f64 }
entry main (x: f64) : f64 = f64.rsqrt x
