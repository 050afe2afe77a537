-- f64.cbrt (issue 17: the numeric modules' members).
-- ==
-- input { 27.0f64 } output { 3.0000000000000004f64 }
-- input { -8.0f64 } output { -2.0f64 }
-- input { 2.0f64 } output { 1.2599210498948734f64 }
-- input { 0.0f64 } output { 0.0f64 }
entry main (x: f64) : f64 = f64.cbrt x
