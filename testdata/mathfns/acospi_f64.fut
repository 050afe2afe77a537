-- f64.acospi (issue 17: the numeric modules' members).
-- ==
-- input { 1.0f64 } output { 0.0f64 }
-- input { 0.0f64 } output { 0.5f64 }
-- input { -1.0f64 } output { 1.0f64 }
-- input { 0.5f64 } output { 0.33333333333333337f64 }
entry main (x: f64) : f64 = f64.acospi x
