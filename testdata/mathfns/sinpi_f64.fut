-- f64.sinpi (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 0.5f64 } output { 1.0f64 }
-- input { 0.25f64 } output { 0.7071067811865475f64 }
-- input { 1.5f64 } output { -1.0f64 }
entry main (x: f64) : f64 = f64.sinpi x
