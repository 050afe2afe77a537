-- f64.atanh (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 } output { 0.0f64 }
-- input { 0.5f64 } output { 0.5493061443340548f64 }
-- input { -0.25f64 } output { -0.25541281188299536f64 }
entry main (x: f64) : f64 = f64.atanh x
