-- f64.lerp (issue 17: the numeric modules' members).
-- ==
-- input { 0.0f64 10.0f64 0.25f64 } output { 2.5f64 }
-- input { 2.0f64 4.0f64 1.0f64 } output { 4.0f64 }
-- input { -1.0f64 1.0f64 0.5f64 } output { 0.0f64 }
entry main (a: f64) (b: f64) (c: f64) : f64 = f64.lerp a b c
